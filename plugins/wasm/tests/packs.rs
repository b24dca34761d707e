//! Pack functions on Wasm (`spec/plugin-abi.md`, "Lowerings for Wasm"):
//! the shipped packs' lowerings against the interpreter on many generated
//! inputs (non-ASCII text, the edges of 64-bit ints, empty strings, the size
//! and work limits), the `isu` imports no shipped lowering uses (through a
//! pack of the test's own), and each refusal of a malformed lowering (a bad
//! fixture each, under `tests/lowerings/`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::{func, lit, show};
use isu_backend_wasm::WasmBackend;
use isu_host::functions::Functions;
use isu_host::interp::{self, RunOptions};
use isu_host::pipeline::check_with;
use isu_host::Source;
use isu_plugin_api::pack::{Lowering, PackFunction, PackInfo};
use isu_plugin_api::{
    Backend, CompileOptions, ExecLimits, ExecOptions, Literal, PluginDiagnostic, Program,
    RuntimeCode,
};
use std::sync::Arc;

/// A fixed pseudo-random sequence (a 64-bit LCG), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.next(xs.len() as u64) as usize]
    }

    fn word(&mut self, alphabet: &[&str], max: u64) -> String {
        let n = self.next(max + 1);
        (0..n).map(|_| self.pick(alphabet)).collect()
    }

    fn int(&mut self) -> i64 {
        const EDGES: [i64; 9] = [
            i64::MIN,
            i64::MIN + 1,
            i64::MAX,
            i64::MAX - 1,
            -1,
            0,
            1,
            2,
            -2,
        ];
        match self.next(4) {
            0 => EDGES[self.next(EDGES.len() as u64) as usize],
            1 => self.next(41) as i64 - 20,
            2 => (self.next(1 << 62) as i64) * if self.next(2) == 0 { 1 } else { -1 },
            _ => self.next(3_100_000_000) as i64 - 50_000_000,
        }
    }
}

fn shipped() -> Functions {
    Functions::linked(isu_packs::SHIPPED)
}

fn program(text: &str, packs: &Functions) -> Program {
    let fe = check_with(&Source::new("test.isu", text), packs);
    match fe.valid_program() {
        Some(p) => p.clone(),
        None => panic!("the test program is not valid: {:?}\n{text}", fe.diags),
    }
}

/// Compiles as `isu build` does: with the lowerings for `wasm` of the pack
/// functions the program calls.
fn compile(b: &WasmBackend, p: &Program, packs: &Functions) -> Vec<isu_plugin_api::Artifact> {
    let lowerings = packs.lowerings(p, "wasm", &b.info()).unwrap();
    let opts = CompileOptions {
        target: "wasm".into(),
        lowerings,
        ..Default::default()
    };
    b.compile(p, &opts)
        .unwrap_or_else(|e| panic!("compile failed: {e:?}"))
}

fn interpreted(p: &Program, args: &str, limits: ExecLimits, packs: &Functions) -> String {
    let json: serde_json::Value = serde_json::from_str(args).unwrap();
    match interp::run_with(p, &json, &RunOptions::from(limits), None, packs) {
        Ok(v) => v.to_string(),
        Err(d) => format!(
            "error {} at {}",
            d.code.as_str(),
            d.step.map_or("-".to_owned(), |s| s.to_string())
        ),
    }
}

/// Runs `text` on every argument set of `runs` under `limits`, by the
/// interpreter and on Wasm; every outcome must agree. Returns how many
/// runs were errors (so a test can tell that it reached them).
fn agree(text: &str, runs: &[String], limits: ExecLimits, packs: &Functions) -> usize {
    let b = WasmBackend::new();
    let p = program(text, packs);
    let arts = compile(&b, &p, packs);
    let mut failures = Vec::new();
    let mut errors = 0;
    for args in runs {
        let want = interpreted(&p, args, limits, packs);
        let got = show(b.execute(&arts, &lit(args), &ExecOptions::new(limits)));
        errors += usize::from(want.starts_with("error"));
        if got != want {
            failures.push(format!("args {args}: interpreter {want}, wasm {got}"));
        }
    }
    assert!(failures.is_empty(), "{}\n{text}", failures.join("\n"));
    errors
}

/// A program returning `call` of the arguments `args`, after a first step
/// that does nothing, so that errors name the call's step (S2).
fn calling(args: &str, returns: &str, call: &str) -> String {
    func(
        args,
        returns,
        "",
        &format!(
            "    ASSIGN:\n      TARGET: skip\n      EXPR: (const 0)\n    RETURN:\n      EXPR: {call}\n"
        ),
    )
    .replace("LOCAL: []", "LOCAL: [skip: int]")
}

const SMALL: ExecLimits = ExecLimits {
    max_size: 40,
    max_steps: 200,
    ..ExecLimits::DEFAULT
};

#[test]
fn math_agrees_with_the_interpreter_at_the_edges_of_64_bits() {
    let packs = shipped();
    let mut rng = Rng(0x6d61_7468);
    let mut errors = 0;
    for f in ["GCD", "LCM", "POW"] {
        let text = calling(
            "a: int, b: int",
            "int",
            &format!("(call math.{f} (var a) (var b))"),
        );
        let mut runs: Vec<String> = (0..300)
            .map(|_| {
                let (a, b) = (rng.int(), rng.int());
                // Small exponents too, where powers may still fit.
                let b = if f == "POW" && rng.next(2) == 0 {
                    b.rem_euclid(70)
                } else {
                    b
                };
                format!(r#"{{"a": {a}, "b": {b}}}"#)
            })
            .collect();
        for (a, b) in [
            (i64::MIN, 0),
            (i64::MIN, i64::MIN),
            (0, 0),
            (-2, 63),
            (2, 63),
            (-1, i64::MAX),
        ] {
            runs.push(format!(r#"{{"a": {a}, "b": {b}}}"#));
        }
        errors += agree(&text, &runs, ExecLimits::DEFAULT, &packs);
    }
    let text = calling("n: int", "int", "(call math.ISQRT (var n))");
    let mut runs: Vec<String> = (0..300)
        .map(|_| format!(r#"{{"n": {}}}"#, rng.int()))
        .collect();
    for r in [
        0i64,
        1,
        2,
        3_037_000_499,
        3_037_000_500,
        1 << 31,
        4_294_967_295,
    ] {
        for d in [-1i64, 0, 1] {
            if let Some(n) = r.checked_mul(r).and_then(|s| s.checked_add(d)) {
                runs.push(format!(r#"{{"n": {n}}}"#));
            }
        }
    }
    errors += agree(&text, &runs, ExecLimits::DEFAULT, &packs);
    let text = calling(
        "x: int, lo: int, hi: int",
        "int",
        "(call math.CLAMP (var x) (var lo) (var hi))",
    );
    let runs: Vec<String> = (0..300)
        .map(|_| {
            let (x, lo, hi) = (rng.int(), rng.int(), rng.int());
            format!(r#"{{"x": {x}, "lo": {lo}, "hi": {hi}}}"#)
        })
        .collect();
    errors += agree(&text, &runs, ExecLimits::DEFAULT, &packs);
    let text = calling(
        "xs: int[]",
        "int[]",
        "(call PUSH (call PUSH (const []) (call math.MIN (var xs))) (call math.MAX (var xs)))",
    );
    let runs: Vec<String> = (0..200)
        .map(|_| {
            let n = rng.next(45);
            let xs: Vec<String> = (0..n).map(|_| rng.int().to_string()).collect();
            format!(r#"{{"xs": [{}]}}"#, xs.join(", "))
        })
        .collect();
    // Arrays of up to 44 ints under a size limit of 40: the argument of 40
    // elements is 41 values written out, past the limit.
    errors += agree(&text, &runs, SMALL, &packs);
    assert!(errors > 200, "only {errors} runs reached an error");
}

const ALPHABET: [&str; 8] = ["a", "b", "é", "日", "😀", "0", "Z", "-"];

#[test]
fn text_agrees_with_the_interpreter_on_non_ascii_strings() {
    let packs = shipped();
    let mut rng = Rng(0x7465_7874);
    let small = ["a", "b", "é"];
    let mut errors = 0;
    for f in ["STARTS_WITH", "ENDS_WITH"] {
        let text = calling(
            "s: string, t: string",
            "bool",
            &format!("(call text.{f} (var s) (var t))"),
        );
        let runs: Vec<String> = (0..200)
            .map(|_| {
                let s = rng.word(&small, 6);
                let t = rng.word(&small, 3);
                format!(r#"{{"s": "{s}", "t": "{t}"}}"#)
            })
            .collect();
        agree(&text, &runs, ExecLimits::DEFAULT, &packs);
    }
    let text = calling(
        "s: string, old: string, new: string",
        "string",
        "(call text.REPLACE (var s) (var old) (var new))",
    );
    let runs: Vec<String> = (0..400)
        .map(|_| {
            let s = rng.word(&small, 24);
            let old = rng.word(&small, 3);
            let new = rng.word(&ALPHABET, 4);
            format!(r#"{{"s": "{s}", "old": "{old}", "new": "{new}"}}"#)
        })
        .collect();
    // Under a size limit of 40 characters and 200 units of work.
    errors += agree(&text, &runs, SMALL, &packs);
    let text = calling(
        "s: string, t: string, i: int, n: int",
        "string[]",
        "(call PUSH (call PUSH (const []) (call TO_STRING (call text.FIND (var s) (var t) (var i)))) (call text.SUBSTR (var s) (var i) (var n)))",
    );
    let runs: Vec<String> = (0..400)
        .map(|_| {
            let s = rng.word(&small, 12);
            let t = rng.word(&small, 3);
            let i = rng.next(16) as i64 - 2;
            let n = match rng.next(8) {
                0 => i64::MAX,
                1 => i64::MIN,
                _ => rng.next(10) as i64 - 1,
            };
            format!(r#"{{"s": "{s}", "t": "{t}", "i": {i}, "n": {n}}}"#)
        })
        .collect();
    errors += agree(&text, &runs, ExecLimits::DEFAULT, &packs);
    let text = calling(
        "s: string, w: int, f: string",
        "string[]",
        "(call PUSH (call PUSH (const []) (call text.PAD_LEFT (var s) (var w) (var f))) (call text.PAD_RIGHT (var s) (var w) (var f)))",
    );
    let runs: Vec<String> = (0..300)
        .map(|_| {
            let s = rng.word(&ALPHABET, 8);
            let f = rng.word(&ALPHABET, 2);
            let w = match rng.next(10) {
                0 => i64::MAX,
                1 => i64::MIN,
                _ => rng.next(46) as i64 - 3,
            };
            format!(r#"{{"s": "{s}", "w": {w}, "f": "{f}"}}"#)
        })
        .collect();
    errors += agree(&text, &runs, SMALL, &packs);
    let classes = ["0", "7", "a", "Z", "٣", "é", "-", "z"];
    let text = func(
        "s: string, n: int",
        "string[]",
        "c: string, out: string[]",
        "    ASSIGN:\n      TARGET: c\n      EXPR: (call text.CHR (var n))\n    ASSIGN:\n      TARGET: out\n      EXPR: (call PUSH (call PUSH (const []) (call REVERSE (var s))) (call TO_STRING (call text.ORD (var c))))\n    IF:\n      COND: (call text.IS_DIGIT (var s))\n      THEN: BEGIN\n        ASSIGN:\n          TARGET: out\n          EXPR: (call PUSH (var out) (const \"digits\"))\n      END\n      ELSE: BEGIN\n      END\n    IF:\n      COND: (call text.IS_ALPHA (var s))\n      THEN: BEGIN\n        ASSIGN:\n          TARGET: out\n          EXPR: (call PUSH (var out) (const \"letters\"))\n      END\n      ELSE: BEGIN\n      END\n    ASSIGN:\n      TARGET: out\n      EXPR: (call PUSH (var out) (call REVERSE (call REVERSE (var s))))\n    RETURN:\n      EXPR: (var out)\n",
    );
    let codes = [
        0i64,
        0x41,
        0x7f,
        0x80,
        0x7ff,
        0x800,
        0xd7ff,
        0xd800,
        0xdfff,
        0xe000,
        0xffff,
        0x10000,
        0x10ffff,
        0x110000,
        -1,
        i64::MIN,
        i64::MAX,
    ];
    let runs: Vec<String> = (0..300)
        .map(|k| {
            let s = if k % 2 == 0 {
                rng.word(&classes, 5)
            } else {
                rng.word(&ALPHABET, 9)
            };
            let n = if k % 3 == 0 {
                codes[rng.next(codes.len() as u64) as usize]
            } else {
                rng.next(0x11_0000) as i64
            };
            format!(r#"{{"s": "{s}", "n": {n}}}"#)
        })
        .collect();
    errors += agree(&text, &runs, ExecLimits::DEFAULT, &packs);
    assert!(errors > 150, "only {errors} runs reached an error");
}

/// REPLACE and FIND are linear: a text to replace or find that almost
/// matches everywhere in a long string (some 10^10 steps for a naive
/// search) finishes at once.
#[test]
fn long_inputs_take_linear_replace_and_find() {
    let packs = shipped();
    let text = func(
        "n: int",
        "int[]",
        "a: string, t: string, r: string, xs: int[]",
        "    ASSIGN:\n      TARGET: a\n      EXPR: (call JOIN (call REPEAT (const \"a\") (var n)) (const \"\"))\n    ASSIGN:\n      TARGET: t\n      EXPR: (call CONCAT (call SLICE (var a) (const 0) (div (var n) (const 2))) (const \"b\"))\n    ASSIGN:\n      TARGET: xs\n      EXPR: (call PUSH (const []) (call text.FIND (var a) (var t) (const 0)))\n    ASSIGN:\n      TARGET: r\n      EXPR: (call text.REPLACE (call CONCAT (var a) (var t)) (var t) (const \"é\"))\n    ASSIGN:\n      TARGET: xs\n      EXPR: (call PUSH (var xs) (call LEN (var r)))\n    ASSIGN:\n      TARGET: r\n      EXPR: (call text.REPLACE (var a) (const \"a\") (const \"bc\"))\n    ASSIGN:\n      TARGET: xs\n      EXPR: (call PUSH (var xs) (call LEN (var r)))\n    ASSIGN:\n      TARGET: xs\n      EXPR: (call PUSH (var xs) (call text.FIND (call CONCAT (var a) (var t)) (var t) (const 1)))\n    RETURN:\n      EXPR: (var xs)\n",
    );
    let runs = vec![r#"{"n": 200000}"#.to_owned()];
    agree(&text, &runs, ExecLimits::DEFAULT, &packs);
    let b = WasmBackend::new();
    let p = program(&text, &packs);
    let arts = compile(&b, &p, &packs);
    let got = show(b.execute(
        &arts,
        &lit(&runs[0]),
        &ExecOptions::new(ExecLimits::DEFAULT),
    ));
    assert_eq!(got, "[-1, 200001, 400000, 200000]");
}

// A pack of the test's own, whose lowerings use the imports the shipped
// ones do not: `arr_bool`, `arr_ref`, `alloc` and `free`, a helper function
// with a block of a multi-value type (a type index the merge remaps), and
// `retain` of an argument in an array.

fn bools(args: &[Literal]) -> Vec<bool> {
    match args.first() {
        Some(Literal::Array(xs)) => xs
            .iter()
            .map(|x| matches!(x, Literal::Bool(true)))
            .collect(),
        _ => Vec::new(),
    }
}

fn strings(args: &[Literal]) -> Vec<String> {
    match args.first() {
        Some(Literal::Array(xs)) => xs
            .iter()
            .filter_map(|x| match x {
                Literal::Str(s) => Some(s.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The test pack: `demo.COUNT_TRUE(bool[]) -> int`, `demo.LONGEST(string[])
/// -> string` (the first longest; out_of_domain for none), and
/// `demo.SUM_SQUARES(int) -> int` (0^2 + ... + (n-1)^2 through a scratch
/// block of n ints; out_of_domain for n outside 0..=1000).
#[derive(Debug, Clone, Copy)]
struct Demo;

const DEMO_FUNCTIONS: [(&str, &str, &str); 3] = [
    (
        "COUNT_TRUE",
        "(bool[]) -> int",
        include_str!("lowerings/demo/count_true.wat"),
    ),
    (
        "LONGEST",
        "(string[]) -> string",
        include_str!("lowerings/demo/longest.wat"),
    ),
    (
        "SUM_SQUARES",
        "(int) -> int",
        include_str!("lowerings/demo/sum_squares.wat"),
    ),
];

impl isu_plugin_api::Pack for Demo {
    fn info(&self) -> PackInfo {
        PackInfo {
            namespace: "demo".into(),
            version: "1.0.0".into(),
            functions: DEMO_FUNCTIONS
                .iter()
                .map(|(name, signature, _)| PackFunction {
                    name: (*name).into(),
                    signature: (*signature).into(),
                    doc: "A test function.".into(),
                    errors: Vec::new(),
                })
                .collect(),
        }
    }

    fn call(&self, function: &str, args: &[Literal]) -> Result<Literal, PluginDiagnostic> {
        let fail = |m: &str| {
            Err(PluginDiagnostic::runtime(
                RuntimeCode::OutOfDomain.as_str(),
                None,
                m.to_owned(),
            ))
        };
        match function {
            "COUNT_TRUE" => Ok(Literal::Int(
                bools(args).iter().filter(|b| **b).count() as i64
            )),
            "LONGEST" => {
                let ws = strings(args);
                let mut best: Option<&String> = None;
                for w in &ws {
                    if best.is_none_or(|b| w.chars().count() > b.chars().count()) {
                        best = Some(w);
                    }
                }
                match best {
                    Some(b) => Ok(Literal::Str(b.clone())),
                    None => fail("no strings"),
                }
            }
            "SUM_SQUARES" => match args.first() {
                Some(Literal::Int(n)) if (0..=1000).contains(n) => {
                    Ok(Literal::Int((0..*n).map(|i| i * i).sum()))
                }
                _ => fail("n outside 0..=1000"),
            },
            other => Err(PluginDiagnostic::backend(
                isu_plugin_api::BackendCode::UnknownFunction,
                format!("no function {other}"),
            )),
        }
    }

    fn lower(&self, function: &str, target: &str) -> Option<String> {
        DEMO_FUNCTIONS
            .iter()
            .find(|(name, _, _)| *name == function && target == "wasm")
            .map(|(_, _, source)| (*source).to_owned())
    }
}

#[test]
fn every_import_of_isu_works_as_documented() {
    let mut packs = Functions::default();
    packs.add_local(Arc::new(Demo));
    let text = func(
        "bs: bool[], ws: string[], n: int",
        "string[]",
        "",
        "    RETURN:\n      EXPR: (call PUSH (call PUSH (call PUSH (const []) (call TO_STRING (call demo.COUNT_TRUE (var bs)))) (call demo.LONGEST (var ws))) (call TO_STRING (call demo.SUM_SQUARES (var n))))\n",
    );
    let mut rng = Rng(0x6465_6d6f);
    let mut runs: Vec<String> = (0..100)
        .map(|_| {
            let bs: Vec<&str> = (0..rng.next(20))
                .map(|_| rng.pick(&["true", "false"]))
                .collect();
            let ws: Vec<String> = (0..rng.next(6))
                .map(|_| format!("\"{}\"", rng.word(&ALPHABET, 6)))
                .collect();
            let n = rng.next(1010) as i64 - 5;
            format!(
                r#"{{"bs": [{}], "ws": [{}], "n": {n}}}"#,
                bs.join(", "),
                ws.join(", ")
            )
        })
        .collect();
    runs.push(r#"{"bs": [], "ws": ["ab", "日本", "c"], "n": 1000}"#.to_owned());
    let errors = agree(&text, &runs, ExecLimits::DEFAULT, &packs);
    assert!(errors > 5 && errors < 60, "{errors} errors");
    let b = WasmBackend::new();
    let p = program(&text, &packs);
    let arts = compile(&b, &p, &packs);
    let got = show(b.execute(
        &arts,
        &lit(&runs[100]),
        &ExecOptions::new(ExecLimits::DEFAULT),
    ));
    assert_eq!(got, r#"["0", "ab", "332833500"]"#);
}

/// An element read past the end of an array is the lowering's bug: the
/// module traps without an Isu error, a failure of the backend rather than
/// a runtime error of the program.
#[test]
fn a_lowering_reading_past_an_array_fails_as_the_module_not_the_program() {
    let source = include_str!("lowerings/demo/count_true.wat").replace(
        "(i32.lt_u (local.get $i) (local.get $n))",
        "(i32.le_u (local.get $i) (local.get $n))",
    );
    let mut packs = Functions::default();
    packs.add_local(Arc::new(Demo));
    let p = program(
        &func(
            "bs: bool[]",
            "int",
            "",
            "    RETURN:\n      EXPR: (call demo.COUNT_TRUE (var bs))\n",
        ),
        &packs,
    );
    let b = WasmBackend::new();
    let arts = compile_with(&b, &p, "demo.COUNT_TRUE", &source).unwrap();
    let r = b.execute(
        &arts,
        &lit(r#"{"bs": [true]}"#),
        &ExecOptions::new(ExecLimits::DEFAULT),
    );
    let d = r.unwrap_err();
    assert_eq!(d.code, "backend_failed", "{d:?}");
    assert!(d.message.contains("trapped"), "{}", d.message);
}

fn compile_with(
    b: &WasmBackend,
    p: &Program,
    function: &str,
    source: &str,
) -> Result<Vec<isu_plugin_api::Artifact>, Vec<PluginDiagnostic>> {
    let opts = CompileOptions {
        target: "wasm".into(),
        lowerings: vec![Lowering {
            function: function.into(),
            target: "wasm".into(),
            source: source.into(),
        }],
        ..Default::default()
    };
    b.compile(p, &opts)
}

/// Each malformed lowering of `math.GCD` is refused with a diagnostic that
/// names the function and says what is wrong; none panics.
#[test]
fn malformed_lowerings_are_refused_by_name() {
    let packs = shipped();
    let p = program(
        &calling("a: int, b: int", "int", "(call math.GCD (var a) (var b))"),
        &packs,
    );
    let b = WasmBackend::new();
    let cases: &[(&str, &str)] = &[
        ("unparsable", "does not parse as WebAssembly text"),
        ("invalid", "is not a valid module"),
        ("unknown_import", "imports `isu.gcd`, which the module `isu` does not have"),
        ("foreign_import", "imports `env.abort`; a lowering imports only"),
        ("imported_global", "imports `isu.max`; a lowering imports only"),
        ("wrong_import_type", "imports `isu.max_size` as (func (result i32)), but it is (func (result i64))"),
        ("no_export", "does not export a function `math__GCD`"),
        ("export_not_a_function", "exports `math__GCD`, but not as a function"),
        ("exports_an_import", "exports an import of `isu` as `math__GCD`"),
        ("wrong_signature", "exports `math__GCD` as (func (param i32 i32) (result i32)), but its calls need (func (param i64 i64) (result i64))"),
        ("own_memory", "defines a memory"),
        ("own_global", "defines a global"),
        ("own_table", "defines a table"),
        ("data", "defines data segments"),
        ("start", "defines a start function"),
        ("reference_types", "uses the function type"),
    ];
    for (fixture, want) in cases {
        let path = format!(
            "{}/tests/lowerings/bad/{fixture}.wat",
            env!("CARGO_MANIFEST_DIR")
        );
        let source = std::fs::read_to_string(&path).unwrap();
        let diags = match compile_with(&b, &p, "math.GCD", &source) {
            Ok(_) => panic!("{fixture}: compiled"),
            Err(d) => d,
        };
        assert_eq!(diags.len(), 1, "{fixture}: {diags:?}");
        let d = &diags[0];
        assert_eq!(d.code, "plugin_bad_output", "{fixture}: {d:?}");
        assert!(
            d.message
                .starts_with("the wasm lowering of the pack function math.GCD "),
            "{fixture}: {}",
            d.message
        );
        assert!(d.message.contains(want), "{fixture}: {}", d.message);
    }
    // No lowering at all: the function is not supported.
    let opts = CompileOptions {
        target: "wasm".into(),
        ..Default::default()
    };
    let diags = b.compile(&p, &opts).unwrap_err();
    assert_eq!(diags[0].code, "unsupported_feature");
    assert!(
        diags[0].message.contains("math.GCD"),
        "{}",
        diags[0].message
    );
}
