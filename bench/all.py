#!/usr/bin/env python3
"""Isu's benchmarks: every kernel of bench/ on every runner, interleaved, several rounds; one table of ratios.

Each kernel is bench/NAME.isu, the same algorithm hand-written in Python (bench/NAME.py) and in C
(bench/wasm/c/NAME.c), with the arguments of bench/kernels.json (`full`: sized so that CPython takes
0.2 to 1 s; `quick`: a smoke test; `empty`: n = 0, the start-up). The runners:

  c        the C program, gcc -O2 (plain int64_t arithmetic, no overflow checks)
  cpython  the hand-written bench/NAME.py in python3
  interp   the reference interpreter, `isu run` (release build)
  python   the Python backend's module (`isu build --target python`) in python3
  wasm     the Wasm backend's module (`isu build --target wasm`) in wasmtime, through the
           run_wasm example of plugins/wasm (the backend's executor, as a command)
  node     the same module (`isu build --target wasm --emit js`) through the backend's JS loader
           in Node (bench/wasm/run_node.mjs)
  llvm     the LLVM backend's executable (`isu build --target llvm --emit exe`)

The measure, the same for every runner: CPU time (user + system, as the OS accounts it for the child)
of the whole process on the kernel's arguments, minus that of the same process on its `empty`
arguments (start-up: process, loading, parsing, compiling, the arguments), divided by the number of
runs the process made. c, wasm, node and llvm run the kernel K times in one process (their repeat count,
chosen in a first calibration round so that a process runs about --target-seconds); the others once.

The runners take turns: in each round every kernel runs on every runner (in an order rotated from
round to round), so all see the same load. Every result must equal the interpreter's, or the
command stops. The table gives, per kernel, each runner against its peer (Wasm and LLVM against C,
the interpreter and the generated Python against the hand-written Python): the median ratio over the
rounds and its least and greatest round; then the geometric mean over the kernels (with its spread
over the rounds) and the worst kernel. --json FILE writes every time and ratio.

Usage: bench/run.sh [--rounds R] [--quick] [--json FILE] [--runners LIST] [--no-build] [--bin-dir DIR] [NAME ...]
Unless --no-build, `cargo build --release` builds isu, the three backend plugins and the run_wasm
example into $CARGO_TARGET_DIR (default: target/ at the workspace root) first.
"""
import argparse
import json
import math
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
C_DIR = os.path.join(HERE, "wasm", "c")
RUN_NODE = os.path.join(HERE, "wasm", "run_node.mjs")

RUNNERS = ["c", "cpython", "interp", "python", "wasm", "node", "llvm"]
# ratio name -> (runner, its peer, target of issue 33 (a geometric mean), worst kernel allowed, label):
# no kernel may be worse than twice its target, and the interpreter slower than CPython on none.
RATIOS = {
    "wasm/c": ("wasm", "c", 1.6, 3.2, "Wasm / C"),
    "node/c": ("node", "c", 2.5, 5.0, "Wasm in Node / C"),
    "llvm/c": ("llvm", "c", 1.1, 2.2, "LLVM / C"),
    "interp/cpython": ("interp", "cpython", 0.45, 1.0, "interpreter / CPython"),
    "python/cpython": ("python", "cpython", 1.3, 2.6, "generated Py / hand-written Py"),
}
SELF_REPEATING = {"c", "wasm", "node", "llvm"}
MAX_STEPS = "1000000000000"
MAX_SIZE = "100000000"
MAX_MEMORY = "1000000000000"
LIMITS = ["--max-steps", MAX_STEPS, "--max-size", MAX_SIZE, "--max-memory", MAX_MEMORY]


def fail(message):
    sys.exit(f"bench: {message}")


def kernels():
    with open(os.path.join(HERE, "kernels.json")) as f:
        return json.load(f)


def bin_dir(opts):
    if opts.bin_dir:
        return os.path.abspath(opts.bin_dir)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "release")


def build(runners):
    # `--lib` too: with `--bin` alone cargo builds no other target of the
    # packages, and the backends are their libraries.
    packages = ["--lib", "-p", "isu_host", "--bin", "isu"]
    if "python" in runners:
        packages += ["-p", "isu_backend_python"]
    if "wasm" in runners or "node" in runners:
        packages += ["-p", "isu_backend_wasm", "--example", "run_wasm"]
    if "llvm" in runners:
        packages += ["-p", "isu_backend_llvm"]
    cmd = ["cargo", "build", "--release", "--quiet"] + packages
    print("building:", " ".join(cmd), file=sys.stderr)
    if subprocess.run(cmd, cwd=ROOT).returncode != 0:
        fail("the build failed (without LLVM 19, leave the llvm runner out: --runners c,cpython,interp,python,wasm,node)")


def run(cmd, stdin=None):
    """Runs cmd; (CPU seconds of the process, wall seconds, stdout, stderr). Stops on failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        fail(f"{' '.join(cmd)} failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return cpu, wall, proc.stdout, proc.stderr


def parse_json(text, what):
    try:
        return json.loads(text)
    except ValueError:
        fail(f"{what} printed {text!r}, not JSON")


class Kernel:
    """One kernel's files, built for every runner, and the commands that run it."""

    def __init__(self, name, args, isu, run_wasm, tmp, runners):
        self.name = name
        self.args = args  # "full"/"quick" and "empty" -> arguments
        self.isu = isu
        self.run_wasm = run_wasm
        self.dir = os.path.join(tmp, name)
        os.makedirs(self.dir)
        self.source = os.path.join(HERE, name + ".isu")
        with open(self.source) as f:
            # The C program takes the arguments in the order of the function's ARGS.
            self.arg_order = re.findall(r"(\w+)\s*:", re.search(r"ARGS:\s*\[(.*)\]", f.read()).group(1))
        for value in args.values():
            if sorted(value) != sorted(self.arg_order):
                fail(f"bench/kernels.json gives {name} the arguments {sorted(value)}, not its ARGS {self.arg_order}")
        self.args_file = {}
        for which, value in args.items():
            path = os.path.join(self.dir, which + ".json")
            with open(path, "w") as f:
                json.dump(value, f)
            self.args_file[which] = path
        if "c" in runners:
            self.c_exe = os.path.join(self.dir, name + "_c")
            run(["gcc", "-O2", "-o", self.c_exe, os.path.join(C_DIR, name + ".c")])
        for target, extra, runner in [("python", [], "python"), ("wasm", [], "wasm"),
                                      ("wasm", ["--emit", "js"], "node"), ("llvm", ["--emit", "exe"], "llvm")]:
            if runner in runners:
                out = os.path.join(self.dir, runner)
                run([isu, "build", self.source, "--target", target, *extra, "-o", out + os.sep])
        self.py_module = os.path.join(self.dir, "python", name + ".py")
        self.wasm_module = os.path.join(self.dir, "wasm", name + ".wasm")
        self.node_loader = os.path.join(self.dir, "node", name + ".mjs")
        self.llvm_exe = os.path.join(self.dir, "llvm", name)

    def command(self, runner, which, repeat):
        """(argv, stdin) of one process of `runner` on the `which` arguments."""
        args, path = self.args[which], self.args_file[which]
        text = json.dumps(args)
        if runner == "c":
            return [self.c_exe, str(repeat), *(str(args[a]) for a in self.arg_order)], None
        if runner == "cpython":
            return [sys.executable, os.path.join(HERE, self.name + ".py"), text], None
        if runner == "interp":
            return [self.isu, "run", self.source, "--args", "@" + path, *LIMITS], None
        if runner == "python":
            return [sys.executable, self.py_module, *LIMITS], text
        if runner == "wasm":
            return [self.run_wasm, self.wasm_module, path, *LIMITS, "--repeat", str(repeat)], None
        if runner == "node":
            return ["node", RUN_NODE, self.node_loader, path, *LIMITS, "--repeat", str(repeat)], None
        if runner == "llvm":
            return [self.llvm_exe, path, *LIMITS, "--repeat", str(repeat)], None
        raise ValueError(runner)

    def once(self, runner, which, repeat):
        """Runs one process; (CPU seconds, wall seconds, result, self-timed ns or None)."""
        cmd, stdin = self.command(runner, which, repeat)
        cpu, wall, out, err = run(cmd, stdin)
        what = f"{self.name} on {runner}"
        self_ns = None
        if runner == "c":
            lines = out.splitlines()
            result = parse_json(lines[0] if lines else "", what)
            self_ns = int(lines[1]) if len(lines) > 1 and repeat > 0 else None
        else:
            result = parse_json(out, what)
            if runner in ("wasm", "node", "llvm"):
                self_ns = int(err.split()[-1])
        if runner == "python":
            if not isinstance(result, dict) or "ok" not in result:
                fail(f"{what} gave {result!r}")
            result = result["ok"]
        return cpu, wall, result, self_ns


def ratio_stats(per_round):
    """Median, least and greatest of a list of per-round ratios."""
    return {"median": statistics.median(per_round), "min": min(per_round), "max": max(per_round),
            "rounds": per_round}


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def version(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0].strip()
    except (OSError, IndexError):
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[1:]))
    ap.add_argument("--rounds", type=int, help="rounds (default 3; 1 with --quick)")
    ap.add_argument("--quick", action="store_true",
                    help="the small `quick` arguments, each process once: a smoke test, not a measurement")
    ap.add_argument("--json", help="write the times and ratios to this file")
    ap.add_argument("--runners", default=",".join(RUNNERS),
                    help=f"comma-separated subset of {','.join(RUNNERS)} (interp is always run: it is the oracle)")
    ap.add_argument("--target-seconds", type=float, default=0.5,
                    help="about how long a c, wasm, node or llvm process runs its kernel (sets its repeat count)")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--bin-dir", help="the folder of isu, its plugins and examples/run_wasm "
                                      "(default: target/release; implies --no-build)")
    ap.add_argument("names", nargs="*", help="kernels to run (default: all)")
    opts = ap.parse_args()
    rounds = opts.rounds if opts.rounds is not None else (1 if opts.quick else 3)
    if rounds < 1:
        fail("--rounds must be 1 or more")
    runners = [r for r in opts.runners.split(",") if r]
    for r in runners:
        if r not in RUNNERS:
            fail(f"unknown runner {r} (runners: {', '.join(RUNNERS)})")
    if "interp" not in runners:
        runners.append("interp")
    runners = [r for r in RUNNERS if r in runners]
    if not opts.no_build and not opts.bin_dir:
        build(runners)
    bins = bin_dir(opts)
    isu = os.path.join(bins, "isu")
    run_wasm = os.path.join(bins, "examples", "run_wasm")
    for path in [isu] + ([run_wasm] if "wasm" in runners else []):
        if not os.path.exists(path):
            fail(f"{path} is missing (build it, or leave out --no-build)")
    if "node" in runners and shutil.which("node") is None:
        fail("the node runner needs Node (20 or later) on PATH (or leave it out of --runners)")
    all_kernels = kernels()
    names = opts.names or list(all_kernels)
    for n in names:
        if n not in all_kernels:
            fail(f"unknown kernel {n} (kernels: {', '.join(all_kernels)})")
    size = "quick" if opts.quick else "full"
    ratios = {k: v for k, v in RATIOS.items() if v[0] in runners and v[1] in runners}

    load_before = os.getloadavg()
    started = time.time()
    tmp = tempfile.mkdtemp(prefix="isu-bench-")
    try:
        built = {}
        for name in names:
            args = {size: all_kernels[name][size], "empty": all_kernels[name]["empty"]}
            built[name] = Kernel(name, args, isu, run_wasm, tmp, runners)

        # Calibration (not counted): the interpreter's answer, and the repeat count of the
        # self-repeating runners from one run each.
        oracle, repeat = {}, {}
        for name, k in built.items():
            _, _, oracle[name], _ = k.once("interp", size, 1)
            repeat[name] = {r: 1 for r in runners}
            if not opts.quick:
                for r in runners:
                    if r in SELF_REPEATING:
                        cpu, _, result, _ = k.once(r, size, 1)
                        check(name, r, result, oracle[name])
                        repeat[name][r] = max(1, min(1000, math.ceil(opts.target_seconds / max(cpu, 1e-4))))

        times = {name: {r: [] for r in runners} for name in names}
        walls = {name: {r: [] for r in runners} for name in names}
        self_ns = {name: {r: [] for r in runners if r in SELF_REPEATING} for name in names}
        for rnd in range(rounds):
            order = runners[rnd % len(runners):] + runners[:rnd % len(runners)]
            for name, k in built.items():
                for r in order:
                    n = repeat[name][r]
                    cpu, wall, result, ns = k.once(r, size, n)
                    check(name, r, result, oracle[name])
                    cpu0, wall0, _, _ = k.once(r, "empty", n)
                    times[name][r].append(max(cpu - cpu0, 1e-6) / n)
                    walls[name][r].append(max(wall - wall0, 1e-6) / n)
                    if ns is not None:
                        self_ns[name][r].append(ns)
            print(f"round {rnd + 1}/{rounds} done", file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    load_after = os.getloadavg()

    table = {}
    for key, (a, b, target, allowed, _) in ratios.items():
        per_kernel = {name: ratio_stats([x / y for x, y in zip(times[name][a], times[name][b])])
                      for name in names}
        per_round_geo = [geomean([per_kernel[n]["rounds"][i] for n in names]) for i in range(rounds)]
        worst = max(names, key=lambda n: per_kernel[n]["median"])
        table[key] = {"runner": a, "peer": b, "target": target, "worst_allowed": allowed,
                      "kernels": per_kernel,
                      "geomean": geomean([per_kernel[n]["median"] for n in names]),
                      "geomean_min": min(per_round_geo), "geomean_max": max(per_round_geo),
                      "worst": {"kernel": worst, "ratio": per_kernel[worst]["median"]}}
        table[key]["met"] = (table[key]["geomean"] <= target
                             and per_kernel[worst]["median"] <= allowed)

    machine = {"host": platform.node(), "cpus": os.cpu_count(), "system": platform.platform(),
               "load_before": load_before, "load_after": load_after,
               "python": sys.version.split()[0], "gcc": version(["gcc", "--version"])}
    measure = ("CPU time (user + system) of whole processes, minus the same process on empty "
               "arguments (start-up), per run of the kernel")
    print(f"# Isu benchmarks: {rounds} round(s), {size} arguments, {len(names)} kernels"
          + ("  (--quick: a smoke test, the times mean nothing)" if opts.quick else ""))
    print(f"measure: {measure}; both sides of every ratio measured so;"
          " each cell the median ratio over the rounds (least-greatest round)")
    print(f"machine: {machine['cpus']} CPUs, load average {load_before[0]:.1f} before, "
          f"{load_after[0]:.1f} after ({time.time() - started:.0f} s); CPython {machine['python']};"
          f" {machine['gcc']}")
    print()
    print("| kernel | " + " | ".join(label for (*_, label) in ratios.values()) + " |")
    print("|---|" + "---:|" * len(ratios))
    for name in names:
        cells = []
        for key in ratios:
            s = table[key]["kernels"][name]
            cells.append(f"{s['median']:.2f} ({s['min']:.2f}-{s['max']:.2f})")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("| **geomean** | " + " | ".join(
        f"**{t['geomean']:.2f}** ({t['geomean_min']:.2f}-{t['geomean_max']:.2f})"
        for t in table.values()) + " |")
    print("| worst | " + " | ".join(
        f"{t['worst']['kernel']} {t['worst']['ratio']:.2f}" for t in table.values()) + " |")
    print("| target | " + " | ".join(f"<= {t['target']}" for t in table.values()) + " |")
    print("| worst allowed | " + " | ".join(f"<= {t['worst_allowed']}" for t in table.values()) + " |")
    print("| met | " + " | ".join("yes" if t["met"] else "no" for t in table.values()) + " |")
    print()
    print("median CPU ms per run (start-up subtracted); repeat counts of c/wasm/node/llvm in brackets:")
    print("| kernel | " + " | ".join(runners) + " |")
    print("|---|" + "---:|" * len(runners))
    for name in names:
        cells = []
        for r in runners:
            cell = f"{statistics.median(times[name][r]) * 1e3:.2f}"
            if r in SELF_REPEATING:
                cell += f" [{repeat[name][r]}]"
            cells.append(cell)
        print(f"| {name} | " + " | ".join(cells) + " |")

    if opts.json:
        doc = {"measure": measure, "size": size, "rounds": rounds, "machine": machine,
               "runners": runners, "ratios": table,
               "kernels": {name: {"args": built[name].args[size], "result": oracle[name],
                                  "repeat": repeat[name], "cpu_seconds": times[name],
                                  "wall_seconds": walls[name],
                                  "self_timed_best_ns": self_ns[name]}
                           for name in names}}
        with open(opts.json, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


def check(name, runner, result, expected):
    if result != expected:
        fail(f"{name}: {runner} gave {json.dumps(result)}, the interpreter {json.dumps(expected)}")


if __name__ == "__main__":
    main()
