#!/usr/bin/env bash
# Differential fuzzing split over machines: each machine runs one shard of one
# run (`isu fuzz --shard I/N`, the programs whose number is I modulo N), and
# one step merges the shards' reports into the report of the whole run, with
# every difference as a conformance case (`isu fuzz --merge`).
#
# Usage:
#   scripts/fuzz-shards.sh shard --of N [--index I] [--dir DIR] [-- ISU_FUZZ_ARGS...]
#       Runs shard I of N and writes its JSON report to DIR/shard-I-of-N.json
#       (progress to DIR/shard-I-of-N.log). I is --index, else
#       $JOB_COMPLETION_INDEX (a Kubernetes Job with completionMode: Indexed),
#       else $SHARD_INDEX (a CI matrix job sets it). ISU_FUZZ_ARGS go to
#       `isu fuzz` as they are: --seed, --count and --targets must be the same
#       on every machine. Exits 0 when the report is written, whether or not
#       something differs (the merge says that), so that a job is not retried
#       for a difference.
#   scripts/fuzz-shards.sh merge [--dir DIR] [--format human|json]
#       Merges every DIR/shard-*-of-N.json (they must be all N shards of one
#       run) into DIR/report.json, writes each difference, shrunk, as a case
#       into DIR/cases/, and prints the whole run's report. Exits 0 when no
#       target differs from the interpreter, 6 when one does, 2 when the
#       reports are not every shard of one run.
#   scripts/fuzz-shards.sh local --of N [--parallel P] [--dir DIR] [-- ISU_FUZZ_ARGS...]
#       Runs all N shards on this machine, P at a time (default 1), then merges.
#
# DIR defaults to fuzz-run/. The isu binary is $ISU, else `isu` on PATH,
# else the repository's target/release/isu or target/debug/isu.
#
# A CI matrix (GitHub Actions): a job with `strategy.matrix.shard: [0, 1, 2, 3]`
# runs `scripts/fuzz-shards.sh shard --of 4 --index ${{ matrix.shard }} -- --seed 7
# --count 100000` and uploads fuzz-run/; a job that needs it downloads every
# shard's folder into one and runs `scripts/fuzz-shards.sh merge`.
# A Kubernetes Indexed Job: `completions: 4`, `parallelism: 4`,
# `completionMode: Indexed`, each pod running `scripts/fuzz-shards.sh shard --of 4
# --dir /out -- --seed 7 --count 100000` with /out a shared volume; then one pod
# runs `scripts/fuzz-shards.sh merge --dir /out`.
set -euo pipefail

usage() {
    echo "usage: scripts/fuzz-shards.sh shard|merge|local ... (see the top of the script)" >&2
    exit 2
}

find_isu() {
    if [[ -n "${ISU:-}" ]]; then
        echo "$ISU"
    elif command -v isu >/dev/null 2>&1; then
        command -v isu
    else
        local root
        root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
        local t="${CARGO_TARGET_DIR:-$root/target}"
        for p in "$t/release/isu" "$t/debug/isu"; do
            if [[ -x "$p" ]]; then
                echo "$p"
                return
            fi
        done
        echo "fuzz-shards: no isu binary: set ISU, put isu on PATH or build it (cargo build --release)" >&2
        exit 2
    fi
}

number() {
    [[ "$2" =~ ^[0-9]+$ ]] || { echo "fuzz-shards: $1 wants a number, not '$2'" >&2; exit 2; }
}

run_shard() {
    local isu="$1" index="$2" of="$3" dir="$4"
    shift 4
    local base="$dir/shard-$index-of-$of"
    local code=0
    "$isu" fuzz --shard "$index/$of" --format json "$@" >"$base.json.part" 2>"$base.log" || code=$?
    if [[ $code -ne 0 && $code -ne 6 ]]; then
        echo "fuzz-shards: shard $index/$of failed (exit $code); see $base.log" >&2
        tail -n 5 "$base.log" >&2 || true
        return "$code"
    fi
    mv "$base.json.part" "$base.json"
    echo "fuzz-shards: shard $index/$of: $base.json" >&2
}

merge() {
    local isu="$1" dir="$2" format="$3"
    shopt -s nullglob
    local reports=("$dir"/shard-*-of-*.json)
    if [[ ${#reports[@]} -eq 0 ]]; then
        echo "fuzz-shards: no shard reports in $dir" >&2
        exit 2
    fi
    local code=0
    "$isu" fuzz --merge "${reports[@]}" --out "$dir/cases" --format json >"$dir/report.json" || code=$?
    if [[ $code -ne 0 && $code -ne 6 ]]; then
        cat "$dir/report.json" >&2
        exit "$code"
    fi
    if [[ "$format" == json ]]; then
        cat "$dir/report.json"
    else
        "$isu" fuzz --merge "${reports[@]}" || true
    fi
    exit "$code"
}

[[ $# -ge 1 ]] || usage
mode="$1"
shift
of=""
index="${JOB_COMPLETION_INDEX:-${SHARD_INDEX:-}}"
dir="fuzz-run"
parallel=1
format=human
while [[ $# -gt 0 ]]; do
    case "$1" in
        --of) of="$2"; shift 2 ;;
        --index) index="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        --parallel) parallel="$2"; shift 2 ;;
        --format) format="$2"; shift 2 ;;
        --) shift; break ;;
        *) usage ;;
    esac
done
isu="$(find_isu)"
mkdir -p "$dir"

case "$mode" in
    shard)
        [[ -n "$of" && -n "$index" ]] || { echo "fuzz-shards: shard wants --of N and --index I (or JOB_COMPLETION_INDEX)" >&2; exit 2; }
        number --of "$of"
        number --index "$index"
        (( index < of )) || { echo "fuzz-shards: shard index $index is not below $of" >&2; exit 2; }
        run_shard "$isu" "$index" "$of" "$dir" "$@"
        ;;
    merge)
        merge "$isu" "$dir" "$format"
        ;;
    local)
        [[ -n "$of" ]] || usage
        number --of "$of"
        number --parallel "$parallel"
        rm -f "$dir"/shard-*-of-*.json
        pids=()
        failed=0
        for ((i = 0; i < of; i++)); do
            run_shard "$isu" "$i" "$of" "$dir" "$@" &
            pids+=($!)
            if (( ${#pids[@]} >= parallel )); then
                wait "${pids[0]}" || failed=1
                pids=("${pids[@]:1}")
            fi
        done
        for p in "${pids[@]}"; do
            wait "$p" || failed=1
        done
        [[ $failed -eq 0 ]] || exit 1
        merge "$isu" "$dir" "$format"
        ;;
    *) usage ;;
esac
