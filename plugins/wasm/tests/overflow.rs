//! The overflow checks of `add` and `sub`: with an operand whose sign the
//! value bounds know (one compare of the result with the other operand),
//! and the exact test where they know none. Each runs in wasmtime and in
//! the interpreter at and around the ends of the 64-bit range, with the
//! known operand of either sign and on either side, and both agree; some
//! outcomes are written out too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;

const MAX: i64 = i64::MAX;
const MIN: i64 = i64::MIN;

/// `RETURN (op x e)` (or `(op e x)` when `swap`), where `e` is made of `y`
/// by `small` (a value the bounds know: `(mod y 5)` is in -4..4,
/// `(call ABS (mod y 5))` in 0..4, `(sub 0 (call ABS (mod y 5)))` in -4..0).
fn prog(op: &str, small: &str, swap: bool) -> String {
    let (l, r) = if swap {
        (small.to_owned(), "(var x)".to_owned())
    } else {
        ("(var x)".to_owned(), small.to_owned())
    };
    func(
        "x: int, y: int",
        "int",
        "",
        &format!("    RETURN:\n      EXPR: ({op} {l} {r})\n"),
    )
}

#[test]
fn add_and_sub_by_a_known_operand_fail_exactly_where_they_overflow() {
    let smalls = [
        "(mod (var y) (const 5))",
        "(call ABS (mod (var y) (const 5)))",
        "(sub (const 0) (call ABS (mod (var y) (const 5))))",
    ];
    let xs = [MAX, MAX - 3, MAX - 4, 0, -7, MIN, MIN + 3, MIN + 4];
    let ys = [-4, -3, -1, 0, 1, 3, 4];
    let mut programs = Vec::new();
    for small in smalls {
        programs.push(prog("add", small, false));
        programs.push(prog("add", small, true));
        programs.push(prog("sub", small, false));
        programs.push(prog("sub", small, true));
    }
    let mut overflows = 0;
    for text in &programs {
        for x in xs {
            for y in ys {
                let got = both(text, &format!(r#"{{"x": {x}, "y": {y}}}"#), None);
                overflows += usize::from(got.starts_with("error int_overflow"));
            }
        }
    }
    assert!(overflows > 50, "{overflows} overflows");
    let add = prog("add", smalls[0], false);
    assert_eq!(
        both(&add, &format!(r#"{{"x": {MAX}, "y": 1}}"#), None),
        "error int_overflow at S1"
    );
    assert_eq!(
        both(&add, &format!(r#"{{"x": {MAX}, "y": -1}}"#), None),
        (MAX - 1).to_string()
    );
    assert_eq!(
        both(&add, &format!(r#"{{"x": {MIN}, "y": -4}}"#), None),
        "error int_overflow at S1"
    );
    let sub = prog("sub", smalls[0], false);
    assert_eq!(
        both(&sub, &format!(r#"{{"x": {MIN}, "y": 4}}"#), None),
        "error int_overflow at S1"
    );
    assert_eq!(
        both(&sub, &format!(r#"{{"x": {MAX}, "y": -1}}"#), None),
        "error int_overflow at S1"
    );
    assert_eq!(
        both(&sub, &format!(r#"{{"x": {MAX}, "y": 1}}"#), None),
        (MAX - 1).to_string()
    );
}
