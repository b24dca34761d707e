#!/usr/bin/env python3
"""Runs every benchmark in Isu (the reference interpreter, `isu run`) and in CPython side by side,
checks that both give the same answer, and prints the times and their ratio.

Each benchmark is bench/NAME.isu with an equivalent hand-written bench/NAME.py; both get the same
arguments as one JSON object (the .py reads it from argv[1] and prints its result as JSON). Both are
timed as whole processes (start-up, parsing, running, printing), taking turns, best of --repeat
rounds; the ratio is of CPU times (user + system), which a busy machine disturbs less than wall time.

Usage: python3 bench/run.py [--repeat N] [--no-build] [--isu PATH] [NAME ...]
The release binary is built with `cargo build --release -p isu_host` into $CARGO_TARGET_DIR
(default: target/ at the workspace root) unless --no-build or --isu is given. Where that `isu`
has no `run` command yet, the `run_isu` example (the same library call) stands in for it.
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
    "int_loop": {"n": 6000000},
    "sieve": {"n": 4000000},
    "insertion_sort": {"n": 4500, "seed": 42},
    "word_count": {"n": 600000, "vocab": 5000, "seed": 7},
    "matrix_product": {"n": 180, "seed": 3},
}

MAX_STEPS = 10**12


def release_dir():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "release")


def build():
    subprocess.run(["cargo", "build", "--release", "-p", "isu_host", "--bin", "isu",
                    "--example", "run_isu"], cwd=ROOT, check=True)


def runner(isu):
    """The command that runs FILE on ARGS: `isu run` when the binary has it, else the
    run_isu example (the same library call)."""
    probe = subprocess.run([isu, "run", "--help"], capture_output=True)
    if probe.returncode == 0:
        return lambda file, args: [isu, "run", file, "--args", args, "--max-steps", str(MAX_STEPS)]
    example = os.path.join(release_dir(), "examples", "run_isu")
    return lambda file, args: [example, file, args, str(MAX_STEPS)]


def timed(cmd):
    """Runs cmd; its CPU time (user + system, of the whole process) and wall time, and its
    output as JSON. CPU time is the measure: on a loaded machine wall time mostly measures
    the other processes."""
    before = os.times()
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return cpu, wall, json.loads(proc.stdout)


def best_of(cmds, repeat):
    """Runs the commands in turn, `repeat` rounds (so that each sees the same load on a busy
    machine), and gives for each its least CPU time, least wall time and last output."""
    best = [[math.inf, math.inf, None] for _ in cmds]
    for _ in range(repeat):
        for b, cmd in zip(best, cmds):
            cpu, wall, result = timed(cmd)
            b[0] = min(b[0], cpu)
            b[1] = min(b[1], wall)
            b[2] = result
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--isu", help="the isu binary to use (implies --no-build)")
    ap.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    opts = ap.parse_args()
    isu = opts.isu
    if isu is None:
        if not opts.no_build:
            build()
        isu = os.path.join(release_dir(), "isu")
    command = runner(isu)
    names = opts.names or list(BENCHES)
    rows = []
    for name in names:
        args = json.dumps(BENCHES[name])
        isu_cmd = command(os.path.join(HERE, name + ".isu"), args)
        py_cmd = [sys.executable, os.path.join(HERE, name + ".py"), args]
        (c_isu, w_isu, r_isu), (c_py, w_py, r_py) = best_of([isu_cmd, py_cmd], opts.repeat)
        if r_isu != r_py:
            sys.exit(f"{name}: isu gave {r_isu}, python gave {r_py}")
        rows.append((name, c_isu, c_py, c_isu / c_py, w_isu, w_py))
    print(f"{'benchmark':<16} {'isu cpu s':>10} {'CPython cpu s':>14} {'ratio':>6}"
          f" {'isu wall s':>11} {'CPython wall s':>15}")
    for name, c_isu, c_py, ratio, w_isu, w_py in rows:
        print(f"{name:<16} {c_isu:>10.3f} {c_py:>14.3f} {ratio:>6.2f} {w_isu:>11.3f} {w_py:>15.3f}")
    geo = math.exp(sum(math.log(r[3]) for r in rows) / len(rows))
    print(f"{'geometric mean':<16} {'':>10} {'':>14} {geo:>6.2f}")
    print(f"(ratio = isu / CPython CPU time, user + system, of whole processes; best of {opts.repeat};"
          f" CPython {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
