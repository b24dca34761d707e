//! Ints, bools and control flow, end to end.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;

fn sum_evens() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/sum_evens.isu"
    ))
    .unwrap()
}

#[test]
fn sum_evens_runs() {
    assert_eq!(run(&sum_evens(), r#"{"xs": [1, 2, 3, 4]}"#), "6");
    assert_eq!(run(&sum_evens(), r#"{"xs": []}"#), "0");
}

fn arith(op: &str) -> String {
    func(
        "a: int, b: int",
        "int",
        "",
        &format!("    RETURN:\n      EXPR: ({op} (var a) (var b))\n"),
    )
}

#[test]
fn checked_arithmetic_matches_the_interpreter() {
    let max = i64::MAX;
    let min = i64::MIN;
    let cases: &[(&str, i64, i64, &str)] = &[
        ("add", 1, 2, "3"),
        ("add", max, 1, "error int_overflow at S1"),
        ("add", min, -1, "error int_overflow at S1"),
        ("sub", min, 1, "error int_overflow at S1"),
        ("sub", -1, max, "-9223372036854775808"),
        ("mul", 3, -4, "-12"),
        ("mul", max, 2, "error int_overflow at S1"),
        ("mul", min, -1, "error int_overflow at S1"),
        ("mul", -1, min, "error int_overflow at S1"),
        (
            "mul",
            4_294_967_296,
            4_294_967_296,
            "error int_overflow at S1",
        ),
        ("mul", 3_037_000_499, 3_037_000_499, "9223372030926249001"),
        ("div", 7, -2, "-3"),
        ("div", -7, 2, "-3"),
        ("div", 1, 0, "error division_by_zero at S1"),
        ("div", min, -1, "error int_overflow at S1"),
        ("mod", -7, 2, "-1"),
        ("mod", 7, -2, "1"),
        ("mod", min, -1, "0"),
        ("mod", 1, 0, "error division_by_zero at S1"),
    ];
    for (op, a, b, want) in cases {
        let got = run(&arith(op), &format!(r#"{{"a": {a}, "b": {b}}}"#));
        assert_eq!(&got, want, "({op} {a} {b})");
    }
}

#[test]
fn constant_operands_are_checked_too() {
    let prog = |e: &str| {
        func(
            "a: int",
            "int",
            "",
            &format!("    RETURN:\n      EXPR: {e}\n"),
        )
    };
    let cases: &[(&str, i64, &str)] = &[
        (
            "(add (var a) (const 5))",
            i64::MAX - 5,
            "9223372036854775807",
        ),
        (
            "(add (var a) (const 5))",
            i64::MAX - 4,
            "error int_overflow at S1",
        ),
        (
            "(add (var a) (const -5))",
            i64::MIN + 4,
            "error int_overflow at S1",
        ),
        (
            "(sub (var a) (const 2))",
            i64::MIN + 1,
            "error int_overflow at S1",
        ),
        (
            "(sub (var a) (const -2))",
            i64::MAX - 1,
            "error int_overflow at S1",
        ),
        (
            "(mul (var a) (const 3))",
            i64::MAX / 3 + 1,
            "error int_overflow at S1",
        ),
        (
            "(mul (var a) (const -3))",
            i64::MIN / 3,
            "9223372036854775806",
        ),
        (
            "(mul (var a) (const -1))",
            i64::MIN,
            "error int_overflow at S1",
        ),
        (
            "(div (var a) (const -1))",
            i64::MIN,
            "error int_overflow at S1",
        ),
        ("(mod (var a) (const -1))", i64::MIN, "0"),
        ("(div (var a) (const 0))", 5, "error division_by_zero at S1"),
        ("(neg (var a))", i64::MIN, "error int_overflow at S1"),
        ("(call ABS (var a))", i64::MIN, "error int_overflow at S1"),
        ("(call ABS (var a))", -3, "3"),
        ("(call MIN (var a) (const 2))", -3, "-3"),
        ("(call MAX (var a) (const 2))", -3, "2"),
    ];
    for (e, a, want) in cases {
        assert_eq!(
            &run(&prog(e), &format!(r#"{{"a": {a}}}"#)),
            want,
            "{e} with {a}"
        );
    }
}

#[test]
fn loops_and_branches() {
    let text = func(
        "n: int",
        "int",
        "i: int, s: int",
        "    ASSIGN:\n      TARGET: s\n      EXPR: (const 0)\n    LOOP:\n      ITER: (range i (var n) (const 0) (const -2))\n      BODY: BEGIN\n        IF:\n          COND: (and (gt (var i) (const 3)) (not (eq (var i) (const 8))))\n          THEN: BEGIN\n            ASSIGN:\n              TARGET: s\n              EXPR: (add (var s) (var i))\n          END\n          ELSE: BEGIN\n          END\n      END\n    RETURN:\n      EXPR: (var s)\n",
    );
    // 10 + 6 + 4 (8 skipped, 2 not > 3)
    assert_eq!(run(&text, r#"{"n": 10}"#), "20");
    let w = func(
        "n: int",
        "int",
        "k: int",
        "    ASSIGN:\n      TARGET: k\n      EXPR: (const 0)\n    LOOP:\n      ITER: (while (lt (mul (var k) (var k)) (var n)))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: k\n          EXPR: (add (var k) (const 1))\n      END\n    RETURN:\n      EXPR: (var k)\n",
    );
    assert_eq!(run(&w, r#"{"n": 50}"#), "8");
}

#[test]
fn zero_step_and_dynamic_steps() {
    let text = func(
        "a: int, b: int, c: int",
        "int",
        "i: int, s: int",
        "    ASSIGN:\n      TARGET: s\n      EXPR: (const 0)\n    LOOP:\n      ITER: (range i (var a) (var b) (var c))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: s\n          EXPR: (add (var s) (const 1))\n      END\n    RETURN:\n      EXPR: (var s)\n",
    );
    assert_eq!(run(&text, r#"{"a": 0, "b": 10, "c": 3}"#), "4");
    assert_eq!(run(&text, r#"{"a": 10, "b": 0, "c": -3}"#), "4");
    assert_eq!(
        run(&text, r#"{"a": 0, "b": 10, "c": 0}"#),
        "error zero_step at S2"
    );
    let big = r#"{"a": 9223372036854775800, "b": 9223372036854775807, "c": 5}"#;
    assert_eq!(run(&text, big), "2");
}

#[test]
fn uninitialized_reads_are_errors() {
    let text = func(
        "c: bool",
        "int",
        "x: int",
        "    IF:\n      COND: (var c)\n      THEN: BEGIN\n        ASSIGN:\n          TARGET: x\n          EXPR: (const 1)\n      END\n      ELSE: BEGIN\n      END\n    RETURN:\n      EXPR: (var x)\n",
    );
    assert_eq!(run(&text, r#"{"c": true}"#), "1");
    assert_eq!(
        run(&text, r#"{"c": false}"#),
        "error uninitialized_read at S2"
    );
}
