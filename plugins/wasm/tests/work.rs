//! The work budget (`spec/semantics.md` 7, `isu_lang::work`): every
//! standard function that spends, in place and not, the copies an `ASSIGN`
//! makes, in a `STATE` initializer and in loops, run under every budget from
//! 0 to one unit more than the run needs, and with a small size limit; each
//! outcome (the value, or the error's code and step) must be the reference
//! interpreter's, so the charges, their order and their steps agree exactly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use isu_backend_wasm::WasmBackend;
use isu_host::interp::{self, RunOptions};
use isu_plugin_api::{Backend, ExecLimits, ExecOptions, Program};

fn interpreted(p: &Program, args: &str, limits: ExecLimits) -> String {
    let json: serde_json::Value = serde_json::from_str(args).unwrap();
    let opts = RunOptions::from(limits);
    match interp::run(p, &json, &opts, None) {
        Ok(v) => v.to_string(),
        Err(d) => format!(
            "error {} at {}",
            d.code.as_str(),
            d.step.map_or("-".to_owned(), |s| s.to_string())
        ),
    }
}

/// Runs `text` on each of `runs` under every budget up to the one its run
/// needs (found with the interpreter) and one more, with the size limits
/// `sizes`; returns how many runs were compared.
fn sweep(text: &str, runs: &[&str], sizes: &[u64]) -> usize {
    let b = WasmBackend::new();
    let p = program(text);
    let arts = compile(&b, &p);
    let mut compared = 0;
    let mut failures = Vec::new();
    for args in runs {
        for &max_size in sizes {
            let mut spent_all = false;
            for max_steps in 0..400u64 {
                let limits = ExecLimits {
                    max_steps,
                    max_size,
                    ..ExecLimits::DEFAULT
                };
                let want = interpreted(&p, args, limits);
                let got = show(b.execute(&arts, &lit(args), &ExecOptions::new(limits)));
                compared += 1;
                if got != want {
                    failures.push(format!(
                        "args {args}, max_steps {max_steps}, max_size {max_size}: interpreter {want}, wasm {got}"
                    ));
                }
                if !want.starts_with("error step_limit") {
                    if spent_all {
                        break;
                    }
                    spent_all = true;
                }
            }
            assert!(spent_all, "{args}: more than 400 units");
        }
    }
    assert!(failures.is_empty(), "{}\n{text}", failures.join("\n"));
    compared
}

const SIZES: &[u64] = &[1000, 6];

/// Runs `text` on each of `runs` under every memory limit from 0 to one
/// past the most its variables hold (found with the interpreter: the
/// first limit it runs under), with the default budget; returns how many
/// runs were compared and how many of them stopped with `memory_limit`.
fn memory_sweep(text: &str, runs: &[&str]) -> (usize, usize) {
    let b = WasmBackend::new();
    let p = program(text);
    let arts = compile(&b, &p);
    let (mut compared, mut stopped) = (0, 0);
    let mut failures = Vec::new();
    for args in runs {
        let mut passed = false;
        for max_memory in 0..400u64 {
            let limits = ExecLimits {
                max_memory,
                ..ExecLimits::DEFAULT
            };
            let want = interpreted(&p, args, limits);
            let got = show(b.execute(&arts, &lit(args), &ExecOptions::new(limits)));
            compared += 1;
            if want.starts_with("error memory_limit") {
                stopped += 1;
            }
            if got != want {
                failures.push(format!(
                    "args {args}, max_memory {max_memory}: interpreter {want}, wasm {got}"
                ));
            }
            if !want.starts_with("error memory_limit") {
                if passed {
                    break;
                }
                passed = true;
            }
        }
        assert!(passed, "{args}: more than 400 units of memory");
    }
    assert!(failures.is_empty(), "{}\n{text}", failures.join("\n"));
    (compared, stopped)
}

/// One step per scenario: `which` picks the one that runs.
fn scenarios(args: &str, locals: &str, cases: &[&str], end: &str) -> String {
    let mut steps = String::new();
    for (i, c) in cases.iter().enumerate() {
        steps.push_str(&format!(
            "    IF:\n      COND: (eq (var which) (const {i}))\n      THEN: BEGIN\n{c}      END\n      ELSE: BEGIN\n      END\n"
        ));
    }
    steps.push_str(end);
    func(args, "int", locals, &steps)
}

fn assign(target: &str, expr: &str) -> String {
    format!("        ASSIGN:\n          TARGET: {target}\n          EXPR: {expr}\n")
}

/// A LOOP of the scenario whose body is `body` (steps at the scenario's
/// indentation).
fn loop_(iter: &str, body: &str) -> String {
    let body: String = body.lines().map(|l| format!("    {l}\n")).collect();
    format!("        LOOP:\n          ITER: {iter}\n          BODY: BEGIN\n{body}          END\n")
}

fn ret(expr: &str) -> String {
    format!("        RETURN:\n          EXPR: {expr}\n")
}

#[test]
fn reads_and_builds_spend_as_in_the_interpreter() {
    let cases: Vec<String> = [
        assign("cs", "(call CHARS (var s))") + &ret("(call LEN (var cs))"),
        ret("(call LEN (call LOWER (call CONCAT (var s) (var s))))"),
        ret("(call PARSE_INT (var s))"),
        ret("(call LEN (call SPLIT_WHITESPACE (var s)))"),
        ret("(call LEN (call MAP_KEYS (var m)))"),
        ret("(call LEN (call JOIN (var xs) (const \"-é-\")))"),
        ret("(call LEN (call SLICE (var s) (const 1) (const 3)))"),
        ret("(call LEN (call SLICE (var xs) (const 0) (const 2)))"),
        assign("xss", "(call REPEAT (var xs) (var k))") + &ret("(call LEN (var xss))"),
        ret("(call LEN (call REPEAT (var s) (var k)))"),
        ret("(call LEN (call REPEAT (var k) (var k)))"),
        ret("(call LEN (call REPEAT (call MAP_KEYS (var m)) (var k)))"),
        ret("(add (call LEN (var s)) (call MAP_GET_OR (call MAP_SET (const {}) (var s) (const 1)) (const \"a\") (const 7)))"),
        ret("(call LEN (call TO_STRING (call LEN (call JOIN (call CHARS (var s)) (var s)))))"),
        // Nested values: sizes are walked.
        ret("(call LEN (call REPEAT (call REPEAT (var k) (var k)) (var k)))"),
        assign("ii", "(call REPEAT (call REPEAT (const 1) (var k)) (var k))")
            + &assign("jj", "(var ii)")
            + &assign("(index jj (const 0))", "(index (var ii) (const 1))")
            + &ret("(call LEN (var jj))"),
        assign("xss", "(call PUSH (call PUSH (const []) (var xs)) (call CHARS (var s)))")
            + &assign("xss", "(call PUSH (var xss) (var xs))")
            + &assign("cs", "(call CHARS (call JOIN (index (var xss) (const 0)) (var s)))")
            + &ret("(call LEN (call REPEAT (var xss) (var k)))"),
        // Constants' sizes are known when lowering.
        ret("(call LEN (call PUSH (const [[\"ab\"], []]) (var xs)))"),
        ret("(call LEN (call REPEAT (const \"ab\") (var k)))"),
        ret("(call LEN (call CONCAT (const \"xyé\") (var s)))"),
        ret("(call LEN (call PUSH (const [\"a\", \"b\"]) (var s)))"),
        ret("(call LEN (call CONCAT (const \"xy\") (const \"z\")))"),
        ret("(call LEN (call CONCAT (const \"x\") (const \"\")))"),
        ret("(call LEN (call MAP_SET (const {\"a\": 1}) (const \"bc\") (var k)))"),
        // Vocabulary 4: searching, splitting, sorting, UPPER.
        ret("(call LEN (call UPPER (call CONCAT (var s) (var s))))"),
        ret("(call INDEX_OF (call SORT (var xs)) (index (call SORT (var xs)) (const 0)))"),
        ret("(call INDEX_OF (call SORT (call CHARS (var s))) (const \"b\"))"),
        ret("(add (call INDEX_OF (var s) (const \"7\")) (call LEN (call SPLIT (var s) (const \" \"))))"),
        ret("(call LEN (call SPLIT (var s) (call SLICE (var s) (const 0) (const 0))))"),
        ret("(call LEN (call SPLIT (const \"a,b,12,c\") (var s)))"),
        ret("(call INDEX_OF (var xs) (var s))"),
        assign("xss", "(call PUSH (call PUSH (const []) (var xs)) (call CHARS (var s)))")
            + &ret("(call INDEX_OF (var xss) (call CHARS (var s)))"),
    ]
    .to_vec();
    let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
    let text = scenarios(
        "which: int, s: string, xs: string[], m: map<string,int>, k: int",
        "cs: string[], xss: string[][], ii: int[][], jj: int[][]",
        &cases,
        "    RETURN:\n      EXPR: (const 0)\n",
    );
    let mut runs = Vec::new();
    let inputs = [
        (r#""a é 1""#, r#"["ab", "ü"]"#, r#"{"a": 1, "b": 2}"#, 2),
        (r#""12""#, r#"[]"#, r#"{}"#, 0),
        (r#""  -7  ""#, r#"["x", "yz", "w"]"#, r#"{"é": 3}"#, 3),
        (r#""Ab""#, r#"["abc"]"#, r#"{"a": 1}"#, -1),
    ];
    let all: Vec<String> = (0..cases.len())
        .flat_map(|w| {
            inputs.iter().map(move |(s, xs, m, k)| {
                format!(r#"{{"which": {w}, "s": {s}, "xs": {xs}, "m": {m}, "k": {k}}}"#)
            })
        })
        .collect();
    runs.extend(all.iter().map(String::as_str));
    let n = sweep(&text, &runs, SIZES);
    eprintln!("{n} runs compared");
    let (n, stopped) = memory_sweep(&text, &runs);
    eprintln!("{n} runs compared under memory limits, {stopped} stopped by them");
}

#[test]
fn stores_and_copies_spend_as_in_the_interpreter() {
    let cases: Vec<String> = [
        // Not in place: the copied collection counts.
        assign("ys", "(call PUSH (var xs) (var s))") + &ret("(call LEN (var ys))"),
        assign("t", "(call CONCAT (var s) (var s))") + &ret("(call LEN (var t))"),
        assign("n", "(call MAP_SET (var m) (var s) (var xs))") + &ret("(call LEN (var n))"),
        assign("ys", "(call POP (var xs))") + &ret("(call LEN (var ys))"),
        // In place: it does not.
        assign("xs", "(call PUSH (var xs) (var s))") + &ret("(call LEN (var xs))"),
        assign("s", "(call CONCAT (var s) (var s))") + &ret("(call LEN (var s))"),
        assign("m", "(call MAP_SET (var m) (var s) (var xs))") + &ret("(call LEN (var m))"),
        assign("xs", "(call POP (var xs))") + &ret("(call LEN (var xs))"),
        // In place at an element.
        assign("xss", "(call PUSH (const []) (var xs))")
            + &assign(
                "(index xss (const 0))",
                "(call PUSH (index (var xss) (const 0)) (var s))",
            )
            + &ret("(call LEN (index (var xss) (const 0)))"),
        assign("n", "(call MAP_SET (const {}) (const \"k\") (var xs))")
            + &assign(
                "(index n (const \"k\"))",
                "(call CONCAT (index (var n) (const \"k\")) (var xs))",
            )
            + &ret("(call LEN (index (var n) (const \"k\")))"),
        assign("n", "(call MAP_SET (const {}) (const \"k\") (var xs))")
            + &assign(
                "(index n (const \"k\"))",
                "(call POP (index (var n) (const \"k\")))",
            )
            + &ret("(call LEN (index (var n) (const \"k\")))"),
        // Copies.
        assign("t", "(var s)") + &ret("(call LEN (var t))"),
        assign("ys", "(var xs)") + &ret("(call LEN (var ys))"),
        assign("n", "(var m)") + &ret("(call LEN (var n))"),
        assign("t", "(const \"héllo\")") + &ret("(call LEN (var t))"),
        assign("t", "(index (var xs) (const 0))") + &ret("(call LEN (var t))"),
        assign("ys", "(call MAP_GET (var m) (var s))") + &ret("(call LEN (var ys))"),
        assign("ys", "(call MAP_GET_OR (var m) (var s) (var xs))") + &ret("(call LEN (var ys))"),
        assign("xss", "(call PUSH (const []) (var xs))")
            + &assign("(index xss (const 0))", "(var xs)")
            + &assign("(index (index xss (const 0)) (const 0))", "(var s)")
            + &ret("(call LEN (index (var xss) (const 0)))"),
        assign("n", "(var m)")
            + &assign("(index n (var s))", "(var xs)")
            + &assign("(index n (const \"new\"))", "(index (var n) (var s))")
            + &ret("(call LEN (var n))"),
        // Loops whose bodies spend.
        loop_(
            "(range i (const 0) (const 4))",
            &(assign("s", "(call CONCAT (var s) (const \"ab\"))")
                + &assign("xs", "(call PUSH (var xs) (var s))")),
        ) + &ret("(call LEN (var xs))"),
        assign("ys", "(const [])")
            + &loop_(
                "(each t (var xs))",
                &assign("ys", "(call PUSH (var ys) (var t))"),
            )
            + &ret("(call LEN (var ys))"),
        assign("i", "(const 0)")
            + &loop_(
                "(while (lt (call LEN (var s)) (const 9)))",
                &assign(
                    "s",
                    "(call CONCAT (var s) (call CONCAT (var s) (const \"a\")))",
                ),
            )
            + &ret("(call LEN (var s))"),
    ]
    .to_vec();
    let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
    let text = scenarios(
        "which: int, s: string, xs: string[], m: map<string,string[]>",
        "t: string, ys: string[], n: map<string,string[]>, xss: string[][], i: int",
        &cases,
        "    RETURN:\n      EXPR: (const 0)\n",
    );
    let inputs = [
        (r#""ab""#, r#"["x", "yé"]"#, r#"{"ab": ["q"], "c": []}"#),
        (r#""""#, r#"[]"#, r#"{}"#),
        (r#""é""#, r#"["abc"]"#, r#"{"é": ["1", "2", "3"]}"#),
    ];
    let all: Vec<String> = (0..cases.len())
        .flat_map(|w| {
            inputs.iter().map(move |(s, xs, m)| {
                format!(r#"{{"which": {w}, "s": {s}, "xs": {xs}, "m": {m}}}"#)
            })
        })
        .collect();
    let runs: Vec<&str> = all.iter().map(String::as_str).collect();
    let n = sweep(&text, &runs, SIZES);
    eprintln!("{n} runs compared");
    let (n, stopped) = memory_sweep(&text, &runs);
    eprintln!("{n} runs compared under memory limits, {stopped} stopped by them");
    assert!(stopped > 0);
}

#[test]
fn a_state_initializer_spends_at_no_step() {
    let text = "META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: [s: string]\n  RETURNS: int\nSTATE: [cs: string[] = (call CHARS (var s)), t: string = (var s), u: string = (call CONCAT (var s) (var s))]\nLOCAL: []\nSTEPS:\n  SEQ: BEGIN\n    ASSIGN:\n      TARGET: t\n      EXPR: (var u)\n    RETURN:\n      EXPR: (add (call LEN (var cs)) (call LEN (var t)))\n  END\n";
    let runs = [r#"{"s": "abé"}"#, r#"{"s": ""}"#];
    let n = sweep(text, &runs, SIZES);
    eprintln!("{n} runs compared");
    let (n, stopped) = memory_sweep(text, &runs);
    eprintln!("{n} runs compared under memory limits, {stopped} stopped by them");
    assert!(stopped > 0);
}

/// The shared budget sweep (`isu_host::conformance::sweep`): the programs of
/// `conformance/sweep/` under every small budget, as the other backends run
/// them.
#[test]
fn the_shared_sweep_stops_where_the_interpreter_stops() {
    let backend = std::sync::Arc::new(WasmBackend::new());
    match isu_host::conformance::sweep::check_backend(backend, "wasm") {
        Ok(report) => eprintln!("{}", report.summary()),
        Err(e) => panic!("{e}"),
    }
}

/// The memory limit (`spec/semantics.md` 7): every kind of store, under
/// every memory limit up to the one the run needs, as in the interpreter.
#[test]
fn stores_count_memory_as_in_the_interpreter() {
    let cases: Vec<String> = [
        // Whole variables: larger, smaller, and back.
        assign("t", "(call CONCAT (var s) (var s))")
            + &assign("t", "(var s)")
            + &assign("t", "(const \"\")")
            + &assign("s", "(const \"abcdefgh\")")
            + &ret("(call LEN (var t))"),
        assign("r", "(index (var xss) (const 0))")
            + &assign("acc", "(var r)")
            + &assign("acc", "(const [])")
            + &ret("(call LEN (var r))"),
        // In place: PUSH, POP, CONCAT, MAP_SET, of ints and of sized values.
        assign("is", "(call PUSH (var is) (const 7))")
            + &assign("is", "(call POP (var is))")
            + &assign("is", "(call POP (var is))")
            + &assign("is", "(call CONCAT (var is) (var is))")
            + &ret("(call LEN (var is))"),
        assign("xss", "(call PUSH (var xss) (call CHARS (var s)))")
            + &assign("xss", "(call POP (var xss))")
            + &assign("xss", "(call CONCAT (var xss) (var xss))")
            + &assign("xss", "(call POP (var xss))")
            + &ret("(call LEN (var xss))"),
        assign("s", "(call CONCAT (var s) (var s))") + &ret("(call LEN (var s))"),
        assign("mi", "(call MAP_SET (var mi) (const 1) (const 5))")
            + &assign("mi", "(call MAP_SET (var mi) (const 1) (const 6))")
            + &assign("mi", "(call MAP_SET (var mi) (const 2) (const 6))")
            + &ret("(call LEN (var mi))"),
        assign("ms", "(call MAP_SET (var ms) (const \"a\") (var s))")
            + &assign("ms", "(call MAP_SET (var ms) (const \"a\") (const \"\"))")
            + &assign(
                "ms",
                "(call MAP_SET (var ms) (var s) (call CONCAT (var s) (var s)))",
            )
            + &ret("(call LEN (var ms))"),
        // Elements: of ints (a new map key adds), of sized values, nested.
        assign("(index mi (const 3))", "(const 1)")
            + &assign("(index mi (const 3))", "(const 2)")
            + &assign("(index is (const 0))", "(const 9)")
            + &ret("(call LEN (var mi))"),
        assign("(index ms (const \"a\"))", "(var s)")
            + &assign("(index ms (const \"a\"))", "(const \"z\")")
            + &assign("(index ms (var s))", "(call CONCAT (var s) (const \"!\"))")
            + &ret("(call LEN (var ms))"),
        assign("(index xss (const 0))", "(call CHARS (var s))")
            + &assign(
                "(index (index xss (const 0)) (const 0))",
                "(const \"long one\")",
            )
            + &assign("(index (index xss (const 0)) (const 0))", "(const \"\")")
            + &ret("(call LEN (var xss))"),
        assign(
            "(index xss (const 0))",
            "(call PUSH (index (var xss) (const 0)) (var s))",
        ) + &assign(
            "(index xss (const 0))",
            "(call POP (index (var xss) (const 0)))",
        ) + &assign(
            "(index xss (const 0))",
            "(call CONCAT (index (var xss) (const 0)) (index (var xss) (const 0)))",
        ) + &ret("(call LEN (index (var xss) (const 0)))"),
        assign("mx", "(const {})")
            + &assign("(index mx (var s))", "(call CHARS (var s))")
            + &assign(
                "(index mx (var s))",
                "(call PUSH (index (var mx) (var s)) (const \"q\"))",
            )
            + &assign("(index mx (var s))", "(call POP (index (var mx) (var s)))")
            + &assign("(index (index mx (var s)) (const 0))", "(const \"abc\")")
            + &ret("(call LEN (var mx))"),
        assign("mm", "(const {})")
            + &assign("(index mm (const 1))", "(var ms)")
            + &assign(
                "(index mm (const 1))",
                "(call MAP_SET (index (var mm) (const 1)) (const \"k\") (var s))",
            )
            + &assign(
                "(index mm (const 1))",
                "(call MAP_SET (index (var mm) (const 1)) (const \"k\") (const \"\"))",
            )
            + &assign("(index (index mm (const 1)) (var s))", "(var s)")
            + &ret("(call LEN (var mm))"),
        // Loop variables, and a loop that keeps every version.
        loop_(
            "(each r (var xss))",
            &assign("t", "(call JOIN (var r) (const \"\"))"),
        ) + &ret("(call LEN (var t))"),
        loop_(
            "(range k (const 0) (const 4))",
            &(assign("t", "(call CONCAT (var t) (var s))")
                + &assign("acc", "(call PUSH (var acc) (var t))")),
        ) + &ret("(call LEN (var acc))"),
    ]
    .to_vec();
    let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
    let text = scenarios(
        "which: int, s: string, xss: string[][], ms: map<string,string>, mi: map<int,int>, is: int[]",
        "t: string, acc: string[], r: string[], k: int, mx: map<string,string[]>, mm: map<int,map<string,string>>",
        &cases,
        "    RETURN:\n      EXPR: (const 0)\n",
    );
    let inputs = [
        (
            r#""ab""#,
            r#"[["x", "yé"], []]"#,
            r#"{"ab": "q", "c": ""}"#,
            r#"{"1": 2}"#,
            "[1, 2]",
        ),
        (r#""é""#, r#"[[], ["abc"]]"#, r#"{}"#, r#"{}"#, "[4]"),
        (
            r#""abcdefghijklmnop""#,
            r#"[["a", "b", "c"], ["d"], ["e", "f"]]"#,
            r#"{"x": "abcdefghijkl"}"#,
            r#"{"1": 1, "2": 2, "3": 3}"#,
            "[1, 2, 3, 4, 5]",
        ),
    ];
    let all: Vec<String> = (0..cases.len())
        .flat_map(|w| {
            inputs.iter().map(move |(s, xss, ms, mi, is)| {
                format!(r#"{{"which": {w}, "s": {s}, "xss": {xss}, "ms": {ms}, "mi": {mi}, "is": {is}}}"#)
            })
        })
        .collect();
    let runs: Vec<&str> = all.iter().map(String::as_str).collect();
    let (n, stopped) = memory_sweep(&text, &runs);
    eprintln!("{n} runs compared under memory limits, {stopped} stopped by them");
    assert!(stopped > 0);
    let n = sweep(&text, &runs, SIZES);
    eprintln!("{n} runs compared");
}

/// A store that adds fails when the live size after it passes the limit,
/// even when the arguments alone already pass it and the value stored is
/// nested (walked no further than needed): `a` (4 units) takes `b` (10),
/// adding 6 to 14. (The interpreter's walk, cut short past a room of 0,
/// measures `b` as 2 and stores it under limits 0 to 13: spec/semantics.md
/// 7 says it fails, as here.)
#[test]
fn a_nested_store_that_adds_fails_past_the_limit_even_over_it_already() {
    let text = func(
        "a: int[][], b: int[][]",
        "int",
        "",
        "    ASSIGN:\n      TARGET: a\n      EXPR: (var b)\n    RETURN:\n      EXPR: (call LEN (var a))\n",
    );
    let b = WasmBackend::new();
    let p = program(&text);
    let arts = compile(&b, &p);
    let args = lit(r#"{"a": [[1, 2, 3]], "b": [[1], [1], [1], [1], [1]]}"#);
    for max_memory in [0, 1, 13, 14, 19, 20] {
        let limits = ExecLimits {
            max_memory,
            ..ExecLimits::DEFAULT
        };
        let got = show(b.execute(&arts, &args, &ExecOptions::new(limits)));
        let want = if max_memory < 20 {
            "error memory_limit at S1"
        } else {
            "5"
        };
        assert_eq!(got, want, "max_memory {max_memory}");
    }
}

/// Structs (`spec/semantics.md` 7: a struct's size is its fields plus their
/// sizes): copied, built, stored into field by field, updated in place
/// through fields, held in arrays and maps, under every budget and memory
/// limit up to the one the run needs, as in the interpreter.
#[test]
fn structs_spend_and_count_as_in_the_interpreter() {
    let cases: Vec<String> = [
        assign("q", "(var p)")
            + &assign("(field q name)", "(var s)")
            + &ret("(call LEN (field (var q) name))"),
        assign(
            "q",
            "(struct bag (name (var s)) (xs (const [1, 2])) (at (struct pt (x (const 1)) (y (const 2)))))",
        ) + &ret("(field (field (var q) at) x)"),
        assign("(field p xs)", "(call PUSH (field (var p) xs) (const 7))")
            + &assign("(field p xs)", "(call CONCAT (field (var p) xs) (field (var p) xs))")
            + &assign("(field p xs)", "(call POP (field (var p) xs))")
            + &ret("(call LEN (field (var p) xs))"),
        assign("r", "(call PUSH (var ps) (var p))") + &ret("(call LEN (var r))"),
        assign("ps", "(call PUSH (var ps) (var p))")
            + &assign("(field (index ps (const 0)) name)", "(var s)")
            + &ret("(call LEN (var ps))"),
        loop_(
            "(each c (var ps))",
            &assign("(field c at)", "(field (var p) at)"),
        ) + &ret("(call LEN (var ps))"),
        assign("m", "(call MAP_SET (var m) (var s) (var p))")
            + &assign(
                "(field (index m (var s)) xs)",
                "(call PUSH (field (index (var m) (var s)) xs) (const 1))",
            )
            + &ret("(call LEN (field (index (var m) (var s)) xs))"),
        assign("r", "(call REPEAT (var p) (const 3))")
            + &assign("(field (index r (const 1)) name)", "(var s)")
            + &ret("(call LEN (var r))"),
        assign("(index m (var s))", "(var p)")
            + &assign("(field (field (index m (var s)) at) y)", "(const 5)")
            + &ret("(field (field (index (var m) (var s)) at) y)"),
        assign("t", "(field (var p) at)")
            + &assign("(field p at)", "(struct pt (x (const 3)) (y (const 4)))")
            + &ret("(field (var t) x)"),
        assign("q", "(call MAP_GET_OR (var m) (const \"zz\") (var p))")
            + &ret("(call LEN (field (var q) xs))"),
        ret("(add (call INDEX_OF (var ps) (var p)) (call LEN (var ps)))"),
    ]
    .to_vec();
    let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
    let text = scenarios(
        "which: int, p: bag, ps: bag[], m: map<string,bag>, s: string",
        "q: bag, r: bag[], c: bag, t: pt",
        &cases,
        "    RETURN:\n      EXPR: (const 0)\n",
    )
    .replacen(
        "LOCAL:",
        "TYPES: [pt = {x: int, y: int}, bag = {name: string, xs: int[], at: pt}]\nLOCAL:",
        1,
    );
    let p = r#"{"name": "ab", "xs": [1, 2], "at": {"x": 1, "y": 2}}"#;
    let empty = r#"{"name": "", "xs": [], "at": {"x": 0, "y": 0}}"#;
    let inputs = [
        (
            p.to_owned(),
            format!("[{p}, {empty}]"),
            format!(r#"{{"a": {p}}}"#),
            r#""a""#,
        ),
        (
            empty.to_owned(),
            "[]".to_owned(),
            "{}".to_owned(),
            r#""xyz""#,
        ),
    ];
    let all: Vec<String> = (0..cases.len())
        .flat_map(|w| {
            inputs.iter().map(move |(p, ps, m, s)| {
                format!(r#"{{"which": {w}, "p": {p}, "ps": {ps}, "m": {m}, "s": {s}}}"#)
            })
        })
        .collect();
    let runs: Vec<&str> = all.iter().map(String::as_str).collect();
    // Every scenario runs to its RETURN when nothing limits it.
    let prog = program(&text);
    for args in &runs {
        let out = interpreted(&prog, args, ExecLimits::DEFAULT);
        assert!(!out.starts_with("error"), "{args}: {out}");
    }
    let n = sweep(&text, &runs, SIZES);
    eprintln!("{n} runs compared");
    let (n, stopped) = memory_sweep(&text, &runs);
    eprintln!("{n} runs compared under memory limits, {stopped} stopped by them");
    assert!(stopped > 0);
}

/// `range` loops whose rounds are charged all at once (their bodies hold
/// no loop, spend nothing and have no BREAK): up and down, by constant and
/// variable steps, empty, at the ends of the 64-bit range, with a round
/// that fails, a CONTINUE and a RETURN; every budget gives the
/// interpreter's outcome, so `step_limit` comes where the next round would
/// have started and every error of a round before it.
#[test]
fn counted_loops_stop_where_the_interpreter_stops() {
    let sum = assign("t", "(add (var t) (var i))");
    let cases: Vec<String> = [
        loop_("(range i (const 0) (var n))", &sum) + &ret("(var t)"),
        loop_("(range i (var n) (const 0) (const -1))", &sum) + &ret("(var t)"),
        loop_("(range i (const 0) (var n) (var k))", &sum) + &ret("(var t)"),
        loop_("(range i (var n) (const -3) (var k))", &sum) + &ret("(var t)"),
        loop_("(range i (const 1) (var n) (const 3))", &sum) + &ret("(var t)"),
        loop_("(range i (var n) (const 1) (const -2))", &sum) + &ret("(var t)"),
        // A round that fails (division by zero at i = 3).
        loop_(
            "(range i (const 0) (var n))",
            &assign("t", "(add (var t) (div (const 12) (sub (var i) (const 3))))"),
        ) + &ret("(var t)"),
        // Near the ends of the 64-bit range.
        loop_(
            "(range i (sub (const 9223372036854775807) (var n)) (const 9223372036854775807) (const 2))",
            &assign("t", "(add (var t) (const 1))"),
        ) + &ret("(var t)"),
        loop_(
            "(range i (add (const -9223372036854775808) (var n)) (const -9223372036854775808) (var k))",
            &assign("t", "(add (var t) (const 1))"),
        ) + &ret("(var t)"),
        // A CONTINUE and a RETURN in the body.
        loop_(
            "(range i (const 0) (var n))",
            &format!(
                "        IF:\n          COND: (eq (mod (var i) (const 2)) (const 0))\n          THEN: BEGIN\n            CONTINUE\n          END\n          ELSE: BEGIN\n          END\n{sum}        IF:\n          COND: (gt (var t) (const 12))\n          THEN: BEGIN\n            RETURN:\n              EXPR: (var t)\n          END\n          ELSE: BEGIN\n          END\n"
            ),
        ) + &ret("(var t)"),
        // Two loops in a row: the second sees what the first left.
        loop_("(range i (const 0) (var n))", &sum)
            + &loop_("(range i (var n) (const 0) (var k))", &sum)
            + &ret("(var t)"),
    ]
    .iter()
    .map(|c| assign("t", "(const 0)") + c)
    .collect();
    let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
    let text = scenarios(
        "which: int, n: int, k: int",
        "i: int, t: int",
        &cases,
        "    RETURN:\n      EXPR: (const 0)\n",
    );
    let ins = [(0, 1), (1, 1), (7, 2), (9, -3), (8, 5), (5, -1), (-4, 3)];
    let all: Vec<String> = (0..cases.len())
        .flat_map(|w| {
            ins.iter()
                .map(move |(n, k)| format!(r#"{{"which": {w}, "n": {n}, "k": {k}}}"#))
        })
        .collect();
    let runs: Vec<&str> = all.iter().map(String::as_str).collect();
    let n = sweep(&text, &runs, SIZES);
    eprintln!("{n} runs compared");
}
