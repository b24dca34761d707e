//! Linear memory stays bounded: over many calls from one host (each call
//! starts from an empty heap) and within one call (objects are freed when
//! their last reference goes, and their blocks reused).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use isu_backend_wasm::exec::{encode_args, Loaded};
use isu_backend_wasm::{compile_module, meta::Meta, WasmBackend};
use isu_plugin_api::ExecLimits;

/// Builds strings, arrays and a map in a loop of `n` rounds.
fn churn() -> String {
    func(
        "n: int, words: string[]",
        "int",
        "i: int, s: string, xs: int[], m: map<string,int>, w: string, total: int",
        "    ASSIGN:\n      TARGET: total\n      EXPR: (const 0)\n    ASSIGN:\n      TARGET: m\n      EXPR: (const {})\n    LOOP:\n      ITER: (range i (const 0) (var n))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: s\n          EXPR: (call CONCAT (call TO_STRING (var i)) (const \" items\"))\n        ASSIGN:\n          TARGET: xs\n          EXPR: (call REPEAT (var i) (const 8))\n        ASSIGN:\n          TARGET: xs\n          EXPR: (call PUSH (var xs) (call LEN (var s)))\n        ASSIGN:\n          TARGET: w\n          EXPR: (index (var words) (mod (var i) (call LEN (var words))))\n        ASSIGN:\n          TARGET: (index m (var w))\n          EXPR: (add (call MAP_GET_OR (var m) (var w) (const 0)) (index (var xs) (const 8)))\n        ASSIGN:\n          TARGET: total\n          EXPR: (add (var total) (call LEN (call SPLIT_WHITESPACE (var s))))\n      END\n    RETURN:\n      EXPR: (add (var total) (call LEN (var m)))\n",
    )
}

fn loaded(text: &str) -> Loaded {
    let p = program(text);
    let c = compile_module(&p).unwrap();
    let runner = WasmBackend::new();
    let runner = runner.runner().unwrap();
    let module = runner.module(&c.wasm).unwrap();
    Loaded::new(runner.engine(), &module, Meta::read(&c.wasm).unwrap()).unwrap()
}

#[test]
fn many_calls_from_one_host_do_not_grow_memory() {
    let text = churn();
    let mut inst = loaded(&text);
    let args = encode_args(
        &inst.meta.clone(),
        &lit(r#"{"n": 3, "words": ["a", "bb", "a"]}"#),
    )
    .unwrap();
    let limits = LIMITS;
    let mut after_warm_up = 0;
    for k in 0..100_000 {
        let r = inst.call(&args, &limits).unwrap();
        assert_eq!(r.to_string(), "8");
        if k == 100 {
            after_warm_up = inst.pages();
        }
    }
    assert_eq!(inst.pages(), after_warm_up, "memory grew after warm-up");
    assert!(after_warm_up <= 4, "{after_warm_up} pages for a small call");
}

#[test]
fn one_long_call_reuses_freed_blocks() {
    let text = churn();
    let mut inst = loaded(&text);
    let small = encode_args(
        &inst.meta.clone(),
        &lit(r#"{"n": 1000, "words": ["a", "bb", "ccc"]}"#),
    )
    .unwrap();
    inst.call(&small, &LIMITS).unwrap();
    let pages = inst.pages();
    let big = encode_args(
        &inst.meta.clone(),
        &lit(r#"{"n": 200000, "words": ["a", "bb", "ccc"]}"#),
    )
    .unwrap();
    let r = inst.call(&big, &LIMITS).unwrap();
    assert_eq!(r.to_string(), "400003");
    assert_eq!(inst.pages(), pages, "200k rounds of garbage grew memory");
}

#[test]
fn errors_leave_the_instance_usable() {
    let text = func(
        "xs: int[], i: int",
        "int",
        "",
        "    RETURN:\n      EXPR: (index (var xs) (var i))\n",
    );
    let mut inst = loaded(&text);
    let meta = inst.meta.clone();
    let bad = encode_args(&meta, &lit(r#"{"xs": [1, 2], "i": 5}"#)).unwrap();
    let good = encode_args(&meta, &lit(r#"{"xs": [1, 2], "i": 1}"#)).unwrap();
    for _ in 0..1000 {
        let e = inst.call(&bad, &LIMITS).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.step.as_deref()),
            ("index_out_of_range", Some("S1"))
        );
        assert_eq!(inst.call(&good, &LIMITS).unwrap().to_string(), "2");
    }
    let small = ExecLimits {
        max_steps: 0,
        max_size: 10,
        ..ExecLimits::DEFAULT
    };
    // Fuel counts loop rounds and work: a program without loops whose
    // calls and copies touch no string, array or map runs on none.
    assert_eq!(inst.call(&good, &small).unwrap().to_string(), "2");
}

/// Builds, copies and changes structs in a loop of `n` rounds: records are
/// freed with what their fields hold, and a shared one is copied before a
/// write.
fn struct_churn() -> String {
    let step = |target: &str, expr: &str| {
        format!("        ASSIGN:\n          TARGET: {target}\n          EXPR: {expr}\n")
    };
    let body = [
        step(
            "b",
            "(struct bag (at (struct pt (x (var i)) (tag (call TO_STRING (var i))))) (xs (call REPEAT (var i) (const 4))))",
        ),
        step("c", "(var b)"),
        step("(field (field c at) x)", "(add (field (field (var c) at) x) (const 1))"),
        step("(field c xs)", "(call PUSH (field (var c) xs) (const 1))"),
        step("bs", "(call PUSH (var bs) (var c))"),
        "        IF:\n          COND: (eq (call LEN (var bs)) (const 4))\n          THEN: BEGIN\n    "
            .to_owned()
            + &step("bs", "(const [])")
            + "          END\n          ELSE: BEGIN\n          END\n",
        step(
            "total",
            "(add (var total) (sub (field (field (var c) at) x) (field (field (var b) at) x)))",
        ),
    ]
    .concat();
    func(
        "n: int",
        "int",
        "i: int, b: bag, c: bag, bs: bag[], total: int",
        &format!(
            "    ASSIGN:\n      TARGET: total\n      EXPR: (const 0)\n    ASSIGN:\n      TARGET: bs\n      EXPR: (const [])\n    LOOP:\n      ITER: (range i (const 0) (var n))\n      BODY: BEGIN\n{body}      END\n    RETURN:\n      EXPR: (add (var total) (call LEN (var bs)))\n"
        ),
    )
    .replacen(
        "LOCAL:",
        "TYPES: [pt = {x: int, tag: string}, bag = {at: pt, xs: int[]}]\nLOCAL:",
        1,
    )
}

#[test]
fn one_long_call_frees_its_structs() {
    let mut inst = loaded(&struct_churn());
    let small = encode_args(&inst.meta.clone(), &lit(r#"{"n": 1000}"#)).unwrap();
    assert_eq!(inst.call(&small, &LIMITS).unwrap().to_string(), "1000");
    let pages = inst.pages();
    let big = encode_args(&inst.meta.clone(), &lit(r#"{"n": 50002}"#)).unwrap();
    assert_eq!(inst.call(&big, &LIMITS).unwrap().to_string(), "50004");
    assert_eq!(inst.pages(), pages, "50k rounds of structs grew memory");
}
