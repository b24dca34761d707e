#!/usr/bin/env python3
"""Runs every benchmark in Isu (the reference interpreter, `isu run`) and in CPython side by side,
checks that both give the same answer, and prints the times and their ratio.

Each benchmark is bench/NAME.isu with an equivalent hand-written bench/NAME.py; both get the same
arguments as one JSON object (the .py reads it from argv[1] and prints its result as JSON). Both are
timed as whole processes (start-up, parsing, running, printing), best of --repeat runs.

Usage: python3 bench/run.py [--repeat N] [--no-build] [--isu PATH] [NAME ...]
The release binary is built with `cargo build --release -p isu_host` into $CARGO_TARGET_DIR
(default: target/ at the workspace root) unless --no-build or --isu is given.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name -> arguments; sized so that CPython takes roughly 0.2 to 1 second.
BENCHES = {
    "int_loop": {"n": 3000000},
    "sieve": {"n": 2000000},
    "insertion_sort": {"n": 2500, "seed": 42},
    "word_count": {"n": 300000, "vocab": 5000, "seed": 7},
    "matrix_product": {"n": 120, "seed": 3},
}

MAX_STEPS = 10**12


def build():
    subprocess.run(["cargo", "build", "--release", "-p", "isu_host"], cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "release", "isu")


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return elapsed, json.loads(proc.stdout)


def best_of(cmd, repeat):
    times = []
    result = None
    for _ in range(repeat):
        t, result = timed(cmd)
        times.append(t)
    return min(times), result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--isu", help="the isu binary to use (implies --no-build)")
    ap.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    opts = ap.parse_args()
    isu = opts.isu
    if isu is None:
        if opts.no_build:
            target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
            isu = os.path.join(target, "release", "isu")
        else:
            isu = build()
    names = opts.names or list(BENCHES)
    rows = []
    for name in names:
        args = json.dumps(BENCHES[name])
        isu_cmd = [isu, "run", os.path.join(HERE, name + ".isu"), "--args", args,
                   "--max-steps", str(MAX_STEPS)]
        py_cmd = [sys.executable, os.path.join(HERE, name + ".py"), args]
        t_isu, r_isu = best_of(isu_cmd, opts.repeat)
        t_py, r_py = best_of(py_cmd, opts.repeat)
        if r_isu != r_py:
            sys.exit(f"{name}: isu gave {r_isu}, python gave {r_py}")
        rows.append((name, t_isu, t_py, t_isu / t_py))
    print(f"{'benchmark':<16} {'isu (s)':>9} {'CPython (s)':>12} {'isu/CPython':>12}")
    for name, t_isu, t_py, ratio in rows:
        print(f"{name:<16} {t_isu:>9.3f} {t_py:>12.3f} {ratio:>12.2f}")
    geo = math.exp(sum(math.log(r[3]) for r in rows) / len(rows))
    print(f"{'geometric mean':<16} {'':>9} {'':>12} {geo:>12.2f}")
    print(f"(CPython {sys.version.split()[0]}; best of {opts.repeat} whole-process runs each)")


if __name__ == "__main__":
    main()
