//! Vocabulary 4 on many inputs: `SORT` of arrays of every length up to a
//! few merge passes (repeats, extremes, strings sharing prefixes, non-ASCII),
//! and `INDEX_OF`, `CONTAINS` and `SPLIT` of strings over a small alphabet
//! (where the substring search falls back along its borders), each run by
//! the reference interpreter and by the backend; the outcomes must agree.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use isu_backend_wasm::WasmBackend;
use isu_host::interp::{self, RunOptions};
use isu_plugin_api::{Backend, ExecLimits};

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

    fn word(&mut self, alphabet: &[&str], max: u64) -> String {
        let n = self.next(max + 1);
        (0..n)
            .map(|_| alphabet[self.next(alphabet.len() as u64) as usize])
            .collect()
    }
}

fn interpreted(text: &str, args: &str) -> String {
    let p = program(text);
    let json: serde_json::Value = serde_json::from_str(args).unwrap();
    match interp::run(&p, &json, &RunOptions::from(ExecLimits::DEFAULT), None) {
        Ok(v) => v.to_string(),
        Err(d) => format!(
            "error {} at {}",
            d.code.as_str(),
            d.step.map_or("-".to_owned(), |s| s.to_string())
        ),
    }
}

/// Runs `text` on every argument set of `runs` in both; returns how many.
fn agree(text: &str, runs: &[String]) -> usize {
    let b = WasmBackend::new();
    let p = program(text);
    let arts = compile(&b, &p);
    let mut failures = Vec::new();
    for args in runs {
        let want = interpreted(text, args);
        let got = show(b.execute(&arts, &lit(args), &options()));
        let same = match (
            serde_json::from_str::<serde_json::Value>(&got),
            serde_json::from_str::<serde_json::Value>(&want),
        ) {
            (Ok(x), Ok(y)) => x == y,
            _ => got == want,
        };
        if !same {
            failures.push(format!("args {args}: interpreter {want}, wasm {got}"));
        }
    }
    assert!(failures.is_empty(), "{}\n{text}", failures.join("\n"));
    runs.len()
}

#[test]
fn sort_orders_ints_and_strings_as_the_interpreter() {
    let mut rng = Rng(0x5047_2026);
    let ints = func(
        "xs: int[]",
        "int[][]",
        "",
        "    RETURN:\n      EXPR: (call PUSH (call PUSH (const []) (call SORT (var xs))) (var xs))\n",
    );
    let edges = [i64::MIN, i64::MAX, -1, 0, 1];
    let runs: Vec<String> = (0..70u64)
        .map(|n| {
            let xs: Vec<String> = (0..n)
                .map(|_| match rng.next(4) {
                    0 => edges[rng.next(5) as usize].to_string(),
                    1 => (rng.next(5) as i64 - 2).to_string(),
                    _ => (rng.next(1 << 40) as i64 - (1 << 39)).to_string(),
                })
                .collect();
            format!(r#"{{"xs": [{}]}}"#, xs.join(", "))
        })
        .collect();
    let n = agree(&ints, &runs);
    let strings = func(
        "ws: string[]",
        "string[]",
        "",
        "    RETURN:\n      EXPR: (call SORT (var ws))\n",
    );
    let alphabet = ["a", "b", "B", "é", "日", "\\u0000", "ab"];
    let runs: Vec<String> = (0..70u64)
        .map(|n| {
            let ws: Vec<String> = (0..n)
                .map(|_| format!("\"{}\"", rng.word(&alphabet, 11)))
                .collect();
            format!(r#"{{"ws": [{}]}}"#, ws.join(", "))
        })
        .collect();
    let n = n + agree(&strings, &runs);
    eprintln!("{n} runs compared");
}

#[test]
fn substring_search_and_split_agree_with_the_interpreter() {
    let mut rng = Rng(0x005E_A2C4);
    let text = func(
        "s: string, t: string",
        "string[]",
        "",
        "    IF:\n      COND: (call CONTAINS (var s) (var t))\n      THEN: BEGIN\n        RETURN:\n          EXPR: (call PUSH (call SPLIT (var s) (var t)) (call TO_STRING (call INDEX_OF (var s) (var t))))\n      END\n      ELSE: BEGIN\n        RETURN:\n          EXPR: (call PUSH (call PUSH (call SPLIT (var s) (var t)) (const \"absent\")) (call TO_STRING (call INDEX_OF (var s) (var t))))\n      END\n",
    );
    let mut runs = Vec::new();
    for alphabet in [
        &["a", "b"][..],
        &["a", "ñ", "ab"][..],
        &["x", "日", "本"][..],
    ] {
        for _ in 0..150 {
            let s = rng.word(alphabet, 24);
            let t = rng.word(alphabet, 5);
            runs.push(format!(r#"{{"s": "{s}", "t": "{t}"}}"#));
        }
    }
    for (s, t) in [
        ("aabaabaaab", "aabaaab"),
        ("abababababc", "ababc"),
        ("aaaaaaaaab", "aaab"),
        ("aaa", "aa"),
        ("abc", "abcd"),
        ("", ""),
        ("", "a"),
        ("abc", ""),
    ] {
        runs.push(format!(r#"{{"s": "{s}", "t": "{t}"}}"#));
    }
    let n = agree(&text, &runs);
    eprintln!("{n} runs compared");
}

/// The searches are linear and the sort O(n log n): a needle that almost
/// matches everywhere in a long haystack (some 10^10 steps for a naive
/// search), and a long array, finish at once.
#[test]
fn long_inputs_take_linear_search_and_n_log_n_sort() {
    let steps = [
        ("a", "(call JOIN (call REPEAT (const \"a\") (var n)) (const \"\"))"),
        ("t", "(call CONCAT (call SLICE (var a) (const 0) (div (var n) (const 2))) (const \"b\"))"),
        ("xs", "(call PUSH (const []) (call INDEX_OF (var a) (var t)))"),
        ("xs", "(call PUSH (var xs) (call INDEX_OF (call CONCAT (var a) (var t)) (var t)))"),
        ("xs", "(call PUSH (var xs) (call LEN (call SPLIT (var a) (var t))))"),
        ("xs", "(call PUSH (var xs) (call LEN (call SPLIT (var a) (const \"aaa\"))))"),
        ("xs", "(call CONCAT (var xs) (call SLICE (call SORT (call REPEAT (var n) (var n))) (const 0) (const 1)))"),
    ];
    let mut body = String::new();
    for (target, expr) in steps {
        body.push_str(&format!(
            "    ASSIGN:\n      TARGET: {target}\n      EXPR: {expr}\n"
        ));
    }
    body.push_str("    RETURN:\n      EXPR: (var xs)\n");
    let text = func("n: int", "int[]", "a: string, t: string, xs: int[]", &body);
    let runs = vec![r#"{"n": 200000}"#.to_owned()];
    let started = std::time::Instant::now();
    agree(&text, &runs);
    eprintln!("took {:?}", started.elapsed());
    assert_eq!(run(&text, &runs[0]), "[-1, 200000, 1, 66667, 200000]");
}
