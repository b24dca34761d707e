#!/usr/bin/env python3
"""Times the Python backend's modules against the hand-written CPython programs.

For every benchmark bench/NAME.isu (with its hand-written equivalent bench/NAME.py), the Python
backend compiles the Isu program to a module (through the backend's `isu_to_python` example, the
same library call as `isu build --target python`), and both run as whole processes on the same
arguments, in the same way: `python3 FILE` with the arguments as one JSON object (the generated
module reads it from stdin, the hand-written one from argv[1]; both print the result as JSON). Both
answers must agree. Each time is the process's CPU time (user + system, as the OS accounts it for
the child), which other work on a busy machine disturbs far less than wall time; best of --repeat
runs each. The table gives generated/hand-written and the geometric mean of that ratio.

Usage: python3 bench/python_backend/run.py [--repeat N] [--no-build] [--keep DIR] [--bench DIR] [NAME ...]
The example is built with `cargo build --release -p isu_backend_python --example isu_to_python`
into $CARGO_TARGET_DIR (default: target/ at the workspace root) unless --no-build.
"""
import argparse
import importlib.util
import json
import math
import os
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)

# name -> arguments, as the interpreter's bench/run.py has them (CPython takes roughly 0.2 to 1
# second); these stand in only where that script cannot be read.
FALLBACK_BENCHES = {
    "int_loop": {"n": 6000000},
    "sieve": {"n": 4000000},
    "insertion_sort": {"n": 4500, "seed": 42},
    "word_count": {"n": 600000, "vocab": 5000, "seed": 7},
    "matrix_product": {"n": 180, "seed": 3},
}


def benches(bench_dir):
    """The benchmarks and their arguments: those of bench_dir/run.py when it has them."""
    path = os.path.join(bench_dir, "run.py")
    if os.path.exists(path):
        spec = importlib.util.spec_from_file_location("isu_bench_run", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if isinstance(getattr(module, "BENCHES", None), dict):
            return module.BENCHES
    return FALLBACK_BENCHES


# Far more loop rounds than any of them needs: the budget must not stop them.
MAX_STEPS = 10**12


def compiler():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "release", "examples", "isu_to_python")


def build():
    subprocess.run(["cargo", "build", "--release", "-p", "isu_backend_python",
                    "--example", "isu_to_python"], cwd=ROOT, check=True)


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, stdin=None):
    start = cpu_of_children()
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    elapsed = cpu_of_children() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return elapsed, json.loads(proc.stdout)


def best_of(cmd, repeat, stdin=None):
    times = []
    result = None
    for _ in range(repeat):
        t, result = timed(cmd, stdin)
        times.append(t)
    return min(times), result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--keep", help="write the generated modules to this directory")
    ap.add_argument("--bench", default=BENCH, help="the directory of NAME.isu and NAME.py")
    ap.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    opts = ap.parse_args()
    if not opts.no_build:
        build()
    out_dir = opts.keep or tempfile.mkdtemp(prefix="isu-python-bench-")
    os.makedirs(out_dir, exist_ok=True)
    all_benches = benches(opts.bench)
    names = opts.names or list(all_benches)
    rows = []
    for name in names:
        module = os.path.join(out_dir, name + ".py")
        subprocess.run([compiler(), os.path.join(opts.bench, name + ".isu"), module], check=True)
        args = json.dumps(all_benches[name])
        gen_cmd = [sys.executable, module, "--max-steps", str(MAX_STEPS)]
        hand_cmd = [sys.executable, os.path.join(opts.bench, name + ".py"), args]
        t_gen, r_gen = best_of(gen_cmd, opts.repeat, stdin=args)
        t_hand, r_hand = best_of(hand_cmd, opts.repeat)
        if r_gen != {"ok": r_hand}:
            sys.exit(f"{name}: the generated module gave {r_gen}, the hand-written one {r_hand}")
        rows.append((name, t_gen, t_hand, t_gen / t_hand))
    print(f"{'benchmark':<16} {'generated (s)':>14} {'hand-written (s)':>17} {'ratio':>7}")
    for name, t_gen, t_hand, ratio in rows:
        print(f"{name:<16} {t_gen:>14.3f} {t_hand:>17.3f} {ratio:>7.2f}")
    geo = math.exp(sum(math.log(r[3]) for r in rows) / len(rows))
    print(f"{'geometric mean':<16} {'':>14} {'':>17} {geo:>7.2f}")
    print(f"(CPython {sys.version.split()[0]}; CPU seconds, best of {opts.repeat} whole-process"
          " runs each; ratio = generated / hand-written)")
    if not opts.keep:
        for name in names:
            path = os.path.join(out_dir, name + ".py")
            if os.path.exists(path):
                os.remove(path)
        os.rmdir(out_dir)


if __name__ == "__main__":
    main()
