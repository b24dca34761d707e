//! The work a loop does once instead of every round, and the map search
//! that remembers its last entry, keep every result, error and step: each
//! program runs in wasmtime and in the interpreter on arguments where the
//! hoisted test holds and where it does not (an index out of range in the
//! first, a middle or the last round; a start below 0; an offset past the
//! end; the budget spent first), and gives what the interpreter gives,
//! which for some of them is written out too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;

/// `s = s + xs[i] * xs[i + k]` over `range i lo hi`, then `xs[i] = s` in
/// a second loop over the same range.
fn sums() -> String {
    func(
        "xs: int[], lo: int, hi: int",
        "int[]",
        "i: int, s: int",
        "    ASSIGN:\n      TARGET: s\n      EXPR: (const 0)\n    LOOP:\n      ITER: (range i (var lo) (var hi))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: s\n          EXPR: (add (var s) (mul (index (var xs) (var i)) (index (var xs) (add (var i) (const 1)))))\n      END\n    LOOP:\n      ITER: (range i (var lo) (var hi))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: (index xs (var i))\n          EXPR: (var s)\n      END\n    RETURN:\n      EXPR: (call PUSH (var xs) (var s))\n",
    )
}

#[test]
fn hoisted_index_checks_fail_where_the_checked_loop_fails() {
    let text = sums();
    assert_eq!(
        both(&text, r#"{"xs": [1, 2, 3, 4], "lo": 0, "hi": 3}"#, None),
        "[20, 20, 20, 4, 20]"
    );
    assert_eq!(
        both(&text, r#"{"xs": [1, 2, 3, 4], "lo": 0, "hi": 4}"#, None),
        "error index_out_of_range at S2_1"
    );
    assert_eq!(
        both(&text, r#"{"xs": [1, 2, 3, 4], "lo": -1, "hi": 2}"#, None),
        "error index_out_of_range at S2_1"
    );
    for args in [
        r#"{"xs": [], "lo": 0, "hi": 0}"#,
        r#"{"xs": [], "lo": 0, "hi": 1}"#,
        r#"{"xs": [5], "lo": 0, "hi": 1}"#,
        r#"{"xs": [1, 2, 3, 4], "lo": 2, "hi": 1}"#,
        r#"{"xs": [1, 2, 3, 4], "lo": 3, "hi": 3}"#,
        r#"{"xs": [1, 2, 3, 4], "lo": 1, "hi": 3}"#,
        r#"{"xs": [1, 2, 3, 4], "lo": 0, "hi": 9223372036854775807}"#,
        r#"{"xs": [1, 2, 3, 4], "lo": -9223372036854775808, "hi": 2}"#,
        r#"{"xs": [3037000500, 3037000500], "lo": 0, "hi": 1}"#,
    ] {
        both(&text, args, None);
    }
    // The budget runs out in the rounds of the first loop: before the
    // index fails, or after.
    for steps in [1, 2, 3, 5, 7] {
        both(
            &text,
            r#"{"xs": [1, 2, 3, 4], "lo": 0, "hi": 3}"#,
            Some(steps),
        );
        both(
            &text,
            r#"{"xs": [1, 2, 3, 4], "lo": 0, "hi": 4}"#,
            Some(steps),
        );
    }
}

#[test]
fn a_value_made_its_own_before_the_loop_leaves_its_other_holders_alone() {
    // ys shares xs's value when the loop starts; the stores change xs only.
    let text = func(
        "xs: int[]",
        "int[][]",
        "ys: int[], i: int",
        "    ASSIGN:\n      TARGET: ys\n      EXPR: (var xs)\n    LOOP:\n      ITER: (range i (const 0) (call LEN (var xs)))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: (index xs (var i))\n          EXPR: (mul (index (var xs) (var i)) (const 2))\n      END\n    RETURN:\n      EXPR: (call PUSH (call PUSH (const []) (var xs)) (var ys))\n",
    );
    assert_eq!(
        both(&text, r#"{"xs": [1, 2, 3]}"#, None),
        "[[2, 4, 6], [1, 2, 3]]"
    );
    // Shared again in every round: each store copies.
    let text = func(
        "xs: int[]",
        "int[][]",
        "ys: int[], i: int",
        "    ASSIGN:\n      TARGET: ys\n      EXPR: (const [])\n    LOOP:\n      ITER: (range i (const 0) (call LEN (var xs)))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: ys\n          EXPR: (var xs)\n        ASSIGN:\n          TARGET: (index xs (var i))\n          EXPR: (const 0)\n      END\n    RETURN:\n      EXPR: (call PUSH (call PUSH (const []) (var xs)) (var ys))\n",
    );
    assert_eq!(
        both(&text, r#"{"xs": [1, 2, 3]}"#, None),
        "[[0, 0, 0], [0, 0, 3]]"
    );
}

#[test]
fn a_remembered_map_entry_is_checked_before_it_is_trusted() {
    // Two maps updated in turn, keys inserted before the remembered entry
    // (which moves it), and one key read from the other map.
    let text = func(
        "keys: string[]",
        "int[]",
        "m: map<string,int>, n: map<string,int>, w: string",
        "    ASSIGN:\n      TARGET: m\n      EXPR: (const {})\n    ASSIGN:\n      TARGET: n\n      EXPR: (const {})\n    LOOP:\n      ITER: (each w (var keys))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: (index m (var w))\n          EXPR: (add (call MAP_GET_OR (var m) (var w) (const 0)) (const 1))\n        ASSIGN:\n          TARGET: (index n (call CONCAT (var w) (var w)))\n          EXPR: (add (call MAP_GET_OR (var n) (var w) (const 0)) (const 10))\n      END\n    RETURN:\n      EXPR: (call PUSH (call PUSH (call PUSH (call PUSH (const []) (index (var m) (const \"b\"))) (index (var m) (const \"a\"))) (call LEN (call MAP_KEYS (var n)))) (call MAP_GET_OR (var n) (const \"bb\") (const -1)))\n",
    );
    assert_eq!(
        both(
            &text,
            r#"{"keys": ["b", "a", "b", "c", "a", "b", "bb"]}"#,
            None
        ),
        "[3, 2, 4, 10]"
    );
    both(&text, r#"{"keys": ["z", "y", "x", "w", "x", "z"]}"#, None);
    both(&text, r#"{"keys": []}"#, None);
}

/// `xs[i] = xs[i] + 1` over `range i lo hi k` where the bounds know the
/// step `k` positive (inside `IF k > 0`): hoisted like a constant step;
/// the checked copy fails at the round whose index leaves the array.
#[test]
fn a_step_the_bounds_prove_positive_hoists_its_checks() {
    let text = func(
        "xs: int[], lo: int, hi: int, k: int",
        "int[]",
        "i: int",
        "    IF:\n      COND: (gt (var k) (const 0))\n      THEN: BEGIN\n        LOOP:\n          ITER: (range i (var lo) (var hi) (var k))\n          BODY: BEGIN\n            ASSIGN:\n              TARGET: (index xs (var i))\n              EXPR: (add (index (var xs) (var i)) (const 1))\n          END\n      END\n      ELSE: BEGIN\n      END\n    RETURN:\n      EXPR: (var xs)\n",
    );
    assert_eq!(
        both(
            &text,
            r#"{"xs": [1, 2, 3, 4, 5], "lo": 0, "hi": 5, "k": 2}"#,
            None
        ),
        "[2, 2, 4, 4, 6]"
    );
    assert_eq!(
        both(
            &text,
            r#"{"xs": [1, 2, 3, 4, 5], "lo": 0, "hi": 7, "k": 3}"#,
            None
        ),
        "error index_out_of_range at S1_1_1"
    );
    for args in [
        r#"{"xs": [1, 2, 3, 4, 5], "lo": 0, "hi": 6, "k": 3}"#,
        r#"{"xs": [1, 2, 3, 4, 5], "lo": -2, "hi": 5, "k": 2}"#,
        r#"{"xs": [1, 2, 3, 4, 5], "lo": 4, "hi": 9223372036854775807, "k": 9223372036854775807}"#,
        r#"{"xs": [1, 2, 3, 4, 5], "lo": 3, "hi": 1, "k": 1}"#,
        r#"{"xs": [1, 2, 3, 4, 5], "lo": 0, "hi": 5, "k": -1}"#,
    ] {
        both(&text, args, None);
    }
    for steps in [0, 1, 2, 3] {
        both(
            &text,
            r#"{"xs": [1, 2, 3, 4, 5], "lo": 0, "hi": 7, "k": 3}"#,
            Some(steps),
        );
        both(
            &text,
            r#"{"xs": [1, 2, 3, 4, 5], "lo": 0, "hi": 5, "k": 2}"#,
            Some(steps),
        );
    }
}
