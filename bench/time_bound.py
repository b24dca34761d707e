#!/usr/bin/env python3
"""The time bound of the step budget (spec/semantics.md 7, "Time"): how long one unit of the budget
can take on the reference interpreter, the worst over a sweep of the costliest operations per unit.

Each probe is a program whose loop spends its budget on one operation, round after round, until it
stops with step_limit: a loop round with nothing else to do, comparisons of strings and collections
(equal, so that the comparison reads them whole), lookups by string keys in big maps and stores by them, the searches,
SORT, the builders and copies, an in-place MAP_SET with int keys (no work but the round's unit, and
a search of a growing map), and MAP_KEYS of a map that grew since its last key order. Its values come in as arguments (`--args @FILE`), so that no setup
spends the budget. The measure is the CPU time (user + system, as the OS accounts it for the child)
of `isu run` with a budget of B units, less that of the same run with a budget of 1 (start-up: the
process, the program, the arguments), divided by B - 1: nanoseconds a unit. B is calibrated so
that a run takes about --seconds; every run must end with step_limit.

A loop round is charged one unit whatever its body holds, so a round's time grows with the steps
its body runs: the `round_steps_K` probes (K int ASSIGNs a round) measure it, and the table gives
their time a unit and a step. The other probes' time a unit is what the work of calls and
comparisons costs, whatever the program.

Usage: bench/time_bound.py [--isu PATH] [--seconds S] [--rounds R] [--json FILE] [NAME ...]
--isu defaults to target/release/isu (build it with `cargo build --release -p isu_host --bin isu`).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

N = 1_000_000


def program(name, args, local, body, ret="0"):
    """An Isu program whose loop runs `body` (lines of statements) until the budget ends."""
    lines = [
        "META:",
        "  AUTO_ID: true",
        "FUNC:",
        f"  NAME: {name}",
        f"  ARGS: [{', '.join(args)}]",
        "  RETURNS: int",
        "STATE: []",
        f"LOCAL: [{', '.join(['z: int'] + local)}]",
        "STEPS:",
        "  SEQ: BEGIN",
        "    ASSIGN:",
        "      TARGET: z",
        "      EXPR: (const 0)",
        "    LOOP:",
        # A loop that never ends (z is never changed) and that the
        # validator does not know never ends.
        "      ITER: (while (ge (var z) (const 0)))",
        "      BODY: BEGIN",
    ]
    for stmt in body:
        lines += ["        " + line for line in stmt.splitlines()]
    lines += ["      END", "    RETURN:", f"      EXPR: (const {ret})", "  END", ""]
    return "\n".join(lines)


def assign(target, expr):
    return f"ASSIGN:\n  TARGET: {target}\n  EXPR: {expr}"


def iff(cond, stmt):
    inner = "\n".join("    " + line for line in stmt.splitlines())
    return f"IF:\n  COND: {cond}\n  THEN: BEGIN\n{inner}\n  END\n  ELSE: BEGIN\n  END"


def probes():
    """(name, what, program text, arguments) of every probe."""
    out = []

    def add(name, what, args, local, body, values):
        out.append((name, what, program(name, args, local, body), values))

    add("round_empty", "a round with an empty body", [], [], [], {})
    for k in (1, 10, 40):
        add(f"round_steps_{k}", f"a round of {k} int ASSIGNs", [], ["k: int"],
            [assign("k", "(add (var z) (const 1))")] * k, {})
    long_a = "a" * N
    add("eq_strings", "eq on two equal strings of 1,000,000 characters", ["s: string", "t: string"],
        ["b: bool"], [assign("b", "(eq (var s) (var t))")], {"s": long_a, "t": long_a})
    add("eq_short_strings", "eq on two equal strings of 8 characters", ["s: string", "t: string"],
        ["b: bool"], [assign("b", "(eq (var s) (var t))")], {"s": "abcdefgh", "t": "abcdefgh"})
    add("lt_strings", "lt on two strings of 1,000,000 characters, different at the end",
        ["s: string", "t: string"], ["b: bool"], [assign("b", "(lt (var s) (var t))")],
        {"s": long_a, "t": "a" * (N - 1) + "b"})
    add("eq_int_arrays", "eq on two equal int[] of 1,000,000", ["xs: int[]", "ys: int[]"],
        ["b: bool"], [assign("b", "(eq (var xs) (var ys))")],
        {"xs": list(range(N)), "ys": list(range(N))})
    add("eq_nested_empty_rows", "eq on two equal int[][] of 1,000,000 empty rows",
        ["g: int[][]", "h: int[][]"], ["b: bool"], [assign("b", "(eq (var g) (var h))")],
        {"g": [[]] * N, "h": [[]] * N})
    add("eq_string_arrays", "eq on two equal string[] of 1,000,000 one-character strings",
        ["xs: string[]", "ys: string[]"], ["b: bool"], [assign("b", "(eq (var xs) (var ys))")],
        {"xs": ["a"] * N, "ys": ["a"] * N})
    small_map = {f"k{i}": i for i in range(N // 4)}
    add("eq_maps", "eq on two equal map<string,int> of 250,000 entries",
        ["m: map<string,int>", "n: map<string,int>"], ["b: bool"],
        [assign("b", "(eq (var m) (var n))")], {"m": small_map, "n": small_map})
    big_map = {f"key{i:07d}": i for i in range(N)}
    add("map_get_string_key", "MAP_GET by a 10-character key in a map of 1,000,000",
        ["m: map<string,int>", "s: string"], ["v: int"],
        [assign("v", "(call MAP_GET (var m) (var s))")], {"m": big_map, "s": "key0765432"})
    add("map_has_string_key", "MAP_HAS by a missing 10-character key in a map of 1,000,000",
        ["m: map<string,int>", "s: string"], ["b: bool"],
        [assign("b", "(call MAP_HAS (var m) (var s))")], {"m": big_map, "s": "key0765432x"})
    add("assign_long_string_key", "an ASSIGN to the entry of a 1,000,000-character key",
        ["m: map<string,int>", "s: string"], [], [assign("(index m (var s))", "(var z)")],
        {"m": {long_a: 1}, "s": long_a})
    add("assign_string_key", "an ASSIGN to an entry by a 10-character key in a map of 1,000,000",
        ["m: map<string,int>", "s: string"], [], [assign("(index m (var s))", "(var z)")],
        {"m": big_map, "s": "key0765432"})
    add("map_keys_after_insert", "MAP_KEYS of a growing map<int,int> after each new key",
        ["m: map<int,int>", "i: int"], ["ks: int[]"],
        [assign("m", "(call MAP_SET (var m) (var i) (var i))"), assign("i", "(add (var i) (const 1))"),
         assign("ks", "(call MAP_KEYS (var m))")],
        {"m": {}, "i": 0})
    add("map_set_int_in_place", "an in-place MAP_SET of a new int key into a growing map",
        ["m: map<int,int>", "i: int"], [],
        [assign("m", "(call MAP_SET (var m) (var i) (var i))"), assign("i", "(add (var i) (const 1))")],
        {"m": {}, "i": 0})
    add("map_set_int_in_place_existing", "an in-place MAP_SET of an int key into a map of 1,000,000",
        ["m: map<int,int>", "i: int"], [],
        [assign("m", "(call MAP_SET (var m) (var i) (var i))"),
         assign("i", "(mod (add (var i) (const 7919)) (const 1000000))")],
        {"m": {str(i): i for i in range(N)}, "i": 0})
    add("contains_string_array", "CONTAINS, missing, in a string[] of 1,000,000",
        ["xs: string[]", "s: string"], ["b: bool"], [assign("b", "(call CONTAINS (var xs) (var s))")],
        {"xs": ["a"] * N, "s": "b"})
    add("index_of_text", "INDEX_OF of a 1,000-character needle missing from 1,000,000 characters",
        ["s: string", "t: string"], ["i: int"], [assign("i", "(call INDEX_OF (var s) (var t))")],
        {"s": long_a, "t": "a" * 999 + "b"})
    add("sort_ints", "SORT of 1,000,000 ints in descending order", ["xs: int[]"], ["ys: int[]"],
        [assign("ys", "(call SORT (var xs))")], {"xs": list(range(N, 0, -1))})
    words = [f"{'p' * 20}{(i * 7919) % N:07d}" for i in range(N // 10)]
    add("sort_strings", "SORT of 100,000 strings of 27 characters with a common prefix of 20",
        ["xs: string[]"], ["ys: string[]"], [assign("ys", "(call SORT (var xs))")], {"xs": words})
    add("split_whitespace", "SPLIT_WHITESPACE of 1,000,000 characters of one-letter words",
        ["s: string"], ["ws: string[]"], [assign("ws", "(call SPLIT_WHITESPACE (var s))")],
        {"s": "a " * (N // 2)})
    add("join", "JOIN of 1,000,000 one-character strings", ["xs: string[]"], ["s: string"],
        [assign("s", "(call JOIN (var xs) (const \"\"))")], {"xs": ["a"] * N})
    add("chars", "CHARS of 1,000,000 characters", ["s: string"], ["cs: string[]"],
        [assign("cs", "(call CHARS (var s))")], {"s": long_a})
    add("copy_nested", "an ASSIGN copying an int[][] of 1,000,000 empty rows", ["g: int[][]"],
        ["h: int[][]"], [assign("h", "(var g)")], {"g": [[]] * N})
    add("push_copy", "PUSH onto a copy of an int[] of 1,000,000", ["xs: int[]"], ["ys: int[]"],
        [assign("ys", "(call PUSH (var xs) (const 1))")], {"xs": list(range(N))})
    add("map_keys", "MAP_KEYS of a map<string,int> of 250,000", ["m: map<string,int>"],
        ["ks: string[]"], [assign("ks", "(call MAP_KEYS (var m))")], {"m": small_map})
    add("repeat_strings", "REPEAT of a 1-character string 1,000,000 times", [], ["xs: string[]"],
        [assign("xs", "(call REPEAT (const \"a\") (const 1000000))")], {})
    return out


def cpu_of(cmd):
    """The CPU time of running `cmd` (user + system of the child), and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, p


def run(isu, src, args, budget):
    cmd = [isu, "run", src, "--args", "@" + args, "--max-steps", str(budget), "--format", "json"]
    cpu, p = cpu_of(cmd)
    if "step_limit" not in p.stdout + p.stderr:
        sys.exit(f"{src} with a budget of {budget} did not stop with step_limit:\n{p.stdout}{p.stderr}")
    return cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--isu", default=os.path.join(ROOT, "target", "release", "isu"))
    ap.add_argument("--seconds", type=float, default=1.0, help="about how long each measured run takes")
    ap.add_argument("--rounds", type=int, default=3, help="measured runs a probe (the median is kept)")
    ap.add_argument("--json", help="write every measure to this file")
    ap.add_argument("names", nargs="*", help="only these probes")
    opts = ap.parse_args()
    if not os.path.exists(opts.isu):
        sys.exit(f"{opts.isu} is missing: cargo build --release -p isu_host --bin isu")
    chosen = [p for p in probes() if not opts.names or p[0] in opts.names]
    results = []
    with tempfile.TemporaryDirectory(prefix="isu-time-bound-") as tmp:
        for name, what, text, values in chosen:
            src = os.path.join(tmp, name + ".isu")
            args = os.path.join(tmp, name + ".json")
            with open(src, "w") as f:
                f.write(text)
            with open(args, "w") as f:
                json.dump(values, f)
            start = min(run(opts.isu, src, args, 1) for _ in range(opts.rounds))
            # Calibrate: grow the budget until a run takes about --seconds.
            budget = 10_000
            while True:
                t = run(opts.isu, src, args, budget) - start
                if t >= opts.seconds / 4 or budget >= 10**12:
                    break
                budget *= 4
            budget = max(budget, int(budget * opts.seconds / max(t, 1e-3)))
            times = [run(opts.isu, src, args, budget) - start for _ in range(opts.rounds)]
            ns = statistics.median(times) / (budget - 1) * 1e9
            results.append({"probe": name, "what": what, "budget": budget, "start_s": start,
                            "seconds": times, "ns_per_unit": ns})
            print(f"{name:32} {ns:9.2f} ns/unit  (budget {budget:,}, start-up {start:.3f} s)  {what}",
                  flush=True)
    work = [r for r in results if not r["probe"].startswith("round_steps_")]
    steps = [r for r in results if r["probe"].startswith("round_steps_")]
    if work:
        worst = max(work, key=lambda r: r["ns_per_unit"])
        print(f"\nworst work or round a unit: {worst['ns_per_unit']:.1f} ns ({worst['probe']})")
    for r in steps:
        k = int(r["probe"].rsplit("_", 1)[1])
        print(f"{r['probe']}: {r['ns_per_unit'] / k:.1f} ns a step of the body")
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
