//! Strings, arrays, maps and the standard functions, end to end.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;

fn ret(args: &str, returns: &str, e: &str) -> String {
    func(
        args,
        returns,
        "",
        &format!("    RETURN:\n      EXPR: {e}\n"),
    )
}

#[test]
fn strings() {
    let s = |e: &str, args: &str, want: &str| {
        let t = ret("s: string, t: string", "string", e);
        assert_eq!(run(&t, args), want, "{e}");
    };
    let st = r#"{"s": "Hello Wörld", "t": "日本"}"#;
    s("(call CONCAT (var s) (var t))", st, r#""Hello Wörld日本""#);
    s("(call LOWER (var s))", st, r#""hello wörld""#);
    s(
        "(call SLICE (var s) (const 6) (const 11))",
        st,
        r#""Wörld""#,
    );
    s("(call SLICE (var t) (const 1) (const 2))", st, r#""本""#);
    s(
        "(call TO_STRING (const -9223372036854775808))",
        st,
        r#""-9223372036854775808""#,
    );
    s("(call TO_STRING (const 0))", st, r#""0""#);
    s(
        "(call JOIN (call SPLIT_WHITESPACE (var s)) (const \"-\"))",
        st,
        r#""Hello-Wörld""#,
    );
    s(
        "(call JOIN (call CHARS (var t)) (const \", \"))",
        st,
        r#""日, 本""#,
    );
    s(
        "(call SLICE (var t) (const 1) (const 3))",
        st,
        "error index_out_of_range at S1",
    );
    let n = |e: &str, args: &str, want: &str| {
        let t = ret("s: string, t: string", "int", e);
        assert_eq!(run(&t, args), want, "{e}");
    };
    n("(call LEN (var s))", st, "11");
    n("(call LEN (call CHARS (var t)))", st, "2");
    n(
        "(call LEN (call SPLIT_WHITESPACE (const \" \\t a\\nb  c \")))",
        st,
        "3",
    );
    for (text, want) in [
        ("007", "7"),
        ("-0", "0"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("9223372036854775807", "9223372036854775807"),
        ("9223372036854775808", "error parse_int_failed at S1"),
        ("", "error parse_int_failed at S1"),
        ("-", "error parse_int_failed at S1"),
        ("+1", "error parse_int_failed at S1"),
        ("1 ", "error parse_int_failed at S1"),
        ("99999999999999999999", "error parse_int_failed at S1"),
    ] {
        n(
            "(call PARSE_INT (var s))",
            &format!(r#"{{"s": "{text}", "t": ""}}"#),
            want,
        );
    }
    let b = |e: &str, want: &str| {
        let t = ret("s: string, t: string", "bool", e);
        assert_eq!(run(&t, r#"{"s": "abc", "t": "abd"}"#), want, "{e}");
    };
    b("(lt (var s) (var t))", "true");
    b("(ge (var s) (var t))", "false");
    b(
        "(eq (var s) (call SLICE (const \"xabc\") (const 1) (const 4)))",
        "true",
    );
    b("(ne (var s) (var t))", "true");
    b("(lt (const \"ab\") (var s))", "true");
    b("(lt (const \"\u{e9}\") (const \"\u{1f600}\"))", "true");
}

#[test]
fn arrays() {
    let a = |e: &str, want: &str| {
        let t = ret("xs: int[]", "int[]", e);
        assert_eq!(run(&t, r#"{"xs": [1, 2, 3]}"#), want, "{e}");
    };
    a("(call PUSH (var xs) (const 4))", "[1, 2, 3, 4]");
    a("(call POP (var xs))", "[1, 2]");
    a(
        "(call POP (call POP (call POP (call POP (var xs)))))",
        "error empty_collection at S1",
    );
    a("(call SLICE (var xs) (const 1) (const 3))", "[2, 3]");
    a(
        "(call SLICE (var xs) (const 2) (const 1))",
        "error index_out_of_range at S1",
    );
    a("(call CONCAT (var xs) (var xs))", "[1, 2, 3, 1, 2, 3]");
    a("(call REPEAT (const 7) (const 3))", "[7, 7, 7]");
    a(
        "(call REPEAT (const 7) (const -1))",
        "error negative_count at S1",
    );
    a("(const [])", "[]");
    let i = |e: &str, want: &str| {
        let t = ret("xs: int[]", "int", e);
        assert_eq!(run(&t, r#"{"xs": [1, 2, 3]}"#), want, "{e}");
    };
    i("(index (var xs) (const 2))", "3");
    i(
        "(index (var xs) (const 3))",
        "error index_out_of_range at S1",
    );
    i(
        "(index (var xs) (const -1))",
        "error index_out_of_range at S1",
    );
    i("(index (call PUSH (var xs) (const 9)) (const 3))", "9");
    let n = ret(
        "xss: string[][]",
        "string[][]",
        "(call PUSH (var xss) (index (var xss) (const 0)))",
    );
    assert_eq!(run(&n, r#"{"xss": [["a"], []]}"#), r#"[["a"], [], ["a"]]"#);
    let e = ret(
        "xss: int[][]",
        "bool",
        "(eq (var xss) (const [[1], [2, 3]]))",
    );
    assert_eq!(run(&e, r#"{"xss": [[1], [2, 3]]}"#), "true");
    assert_eq!(run(&e, r#"{"xss": [[1], [2, 4]]}"#), "false");
}

#[test]
fn maps() {
    let m = |e: &str, want: &str| {
        let t = ret("m: map<string,int>", "map<string,int>", e);
        assert_eq!(run(&t, r#"{"m": {"b": 2, "a": 1}}"#), want, "{e}");
    };
    m(
        "(call MAP_SET (var m) (const \"c\") (const 3))",
        r#"{"a": 1, "b": 2, "c": 3}"#,
    );
    m(
        "(call MAP_SET (var m) (const \"a\") (const 5))",
        r#"{"a": 5, "b": 2}"#,
    );
    m("(const {})", "{}");
    let v = |e: &str, want: &str| {
        let t = ret("m: map<string,int>", "int", e);
        assert_eq!(run(&t, r#"{"m": {"b": 2, "a": 1}}"#), want, "{e}");
    };
    v("(index (var m) (const \"b\"))", "2");
    v("(index (var m) (const \"z\"))", "error missing_key at S1");
    v("(call MAP_GET (var m) (const \"a\"))", "1");
    v("(call MAP_GET_OR (var m) (const \"z\") (const 9))", "9");
    v("(call LEN (var m))", "2");
    let k = ret("m: map<int,string>", "int[]", "(call MAP_KEYS (var m))");
    assert_eq!(
        run(&k, r#"{"m": {"10": "x", "-2": "y", "3": "z"}}"#),
        "[-2, 3, 10]"
    );
    let h = ret(
        "m: map<int,string>",
        "bool",
        "(call MAP_HAS (var m) (const 3))",
    );
    assert_eq!(
        run(&h, r#"{"m": {"10": "x", "-2": "y", "3": "z"}}"#),
        "true"
    );
    let back = ret("m: map<int,string>", "map<int,string>", "(var m)");
    assert_eq!(
        run(&back, r#"{"m": {"10": "x", "-2": "y"}}"#),
        r#"{"-2": "y", "10": "x"}"#
    );
}

#[test]
fn element_targets_update_in_place_with_value_semantics() {
    let text = func(
        "xs: int[][]",
        "int[][]",
        "ys: int[][]",
        "    ASSIGN:\n      TARGET: ys\n      EXPR: (var xs)\n    ASSIGN:\n      TARGET: (index (index ys (const 1)) (const 0))\n      EXPR: (const 9)\n    ASSIGN:\n      TARGET: (index ys (const 0))\n      EXPR: (call PUSH (index (var ys) (const 0)) (const 5))\n    RETURN:\n      EXPR: (call CONCAT (var xs) (var ys))\n",
    );
    assert_eq!(
        run(&text, r#"{"xs": [[1], [2]]}"#),
        "[[1], [2], [1, 5], [9]]"
    );
    assert_eq!(
        run(&text, r#"{"xs": [[1]]}"#),
        "error index_out_of_range at S2"
    );
    let maps = func(
        "words: string[]",
        "map<string,string[]>",
        "m: map<string,string[]>, w: string, k: string",
        "    ASSIGN:\n      TARGET: m\n      EXPR: (const {})\n    LOOP:\n      ITER: (each w (var words))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: k\n          EXPR: (call LOWER (var w))\n        IF:\n          COND: (not (call MAP_HAS (var m) (var k)))\n          THEN: BEGIN\n            ASSIGN:\n              TARGET: (index m (var k))\n              EXPR: (const [])\n          END\n          ELSE: BEGIN\n          END\n        ASSIGN:\n          TARGET: (index m (var k))\n          EXPR: (call PUSH (index (var m) (var k)) (var w))\n      END\n    RETURN:\n      EXPR: (var m)\n",
    );
    assert_eq!(
        run(&maps, r#"{"words": ["A", "b", "a", "B", "c"]}"#),
        r#"{"a": ["A", "a"], "b": ["b", "B"], "c": ["c"]}"#
    );
}

#[test]
fn size_limits() {
    let limits = isu_plugin_api::ExecLimits {
        max_steps: 1000,
        max_size: 5,
    };
    let r = |e: &str, want: &str| {
        let t = ret("xs: int[], s: string", "int", e);
        assert_eq!(
            run_with(&t, r#"{"xs": [1, 2, 3, 4, 5], "s": "abc"}"#, limits),
            want,
            "{e}"
        );
    };
    r(
        "(call LEN (call PUSH (var xs) (const 1)))",
        "error size_limit at S1",
    );
    r(
        "(call LEN (call REPEAT (const 1) (const 6)))",
        "error size_limit at S1",
    );
    r("(call LEN (call REPEAT (const 1) (const 5)))", "5");
    r(
        "(call LEN (call CONCAT (var s) (var s)))",
        "error size_limit at S1",
    );
    r(
        "(call LEN (call JOIN (call CHARS (var s)) (const \"-\")))",
        "5",
    );
    r(
        "(call LEN (call JOIN (call CHARS (var s)) (const \"--\")))",
        "error size_limit at S1",
    );
    // The result counts as JSON nodes: an array of 5 ints is 6.
    let t = ret("xs: int[], s: string", "int[]", "(var xs)");
    assert_eq!(
        run_with(&t, r#"{"xs": [1, 2, 3, 4, 5], "s": ""}"#, limits),
        "error size_limit at S1"
    );
}

#[test]
fn fuel_runs_out_at_the_loop() {
    let text = func(
        "",
        "int",
        "k: int",
        "    ASSIGN:\n      TARGET: k\n      EXPR: (const 0)\n    LOOP:\n      ITER: (while (const true))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: k\n          EXPR: (add (var k) (const 1))\n      END\n    RETURN:\n      EXPR: (var k)\n",
    );
    let limits = isu_plugin_api::ExecLimits {
        max_steps: 1000,
        max_size: 100,
    };
    assert_eq!(run_with(&text, "{}", limits), "error step_limit at S2");
    // A budget of N lets exactly N rounds run.
    let three = func(
        "n: int",
        "int",
        "i: int",
        "    LOOP:\n      ITER: (range i (const 0) (var n))\n      BODY: BEGIN\n      END\n    RETURN:\n      EXPR: (var n)\n",
    );
    let limits = isu_plugin_api::ExecLimits {
        max_steps: 3,
        max_size: 100,
    };
    assert_eq!(run_with(&three, r#"{"n": 3}"#, limits), "3");
    assert_eq!(
        run_with(&three, r#"{"n": 4}"#, limits),
        "error step_limit at S1"
    );
}

#[test]
fn bools_take_a_byte_and_survive_every_array_operation() {
    let b = |e: &str, want: &str| {
        let t = ret("bs: bool[]", "bool[]", e);
        assert_eq!(run(&t, r#"{"bs": [true, false, true]}"#), want, "{e}");
    };
    b(
        "(call PUSH (var bs) (const false))",
        "[true, false, true, false]",
    );
    b("(call POP (var bs))", "[true, false]");
    b("(call SLICE (var bs) (const 1) (const 3))", "[false, true]");
    b(
        "(call CONCAT (var bs) (const [false, true]))",
        "[true, false, true, false, true]",
    );
    b("(call REPEAT (const true) (const 3))", "[true, true, true]");
    b(
        "(call CONCAT (const [true, false, false]) (var bs))",
        "[true, false, false, true, false, true]",
    );
    let eq = ret(
        "bs: bool[]",
        "bool",
        "(eq (var bs) (const [true, false, true]))",
    );
    assert_eq!(run(&eq, r#"{"bs": [true, false, true]}"#), "true");
    assert_eq!(run(&eq, r#"{"bs": [true, true, true]}"#), "false");
    let nested = ret(
        "m: map<string,bool[]>",
        "map<string,bool[]>",
        "(call MAP_SET (var m) (const \"b\") (call PUSH (call MAP_GET (var m) (const \"a\")) (const true)))",
    );
    assert_eq!(
        run(&nested, r#"{"m": {"a": [false]}}"#),
        r#"{"a": [false], "b": [false, true]}"#
    );
    let store = func(
        "n: int",
        "bool[]",
        "bs: bool[], i: int",
        "    ASSIGN:\n      TARGET: bs\n      EXPR: (call REPEAT (const false) (var n))\n    LOOP:\n      ITER: (range i (const 0) (var n) (const 2))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: (index bs (var i))\n          EXPR: (const true)\n      END\n    RETURN:\n      EXPR: (var bs)\n",
    );
    assert_eq!(
        run(&store, r#"{"n": 5}"#),
        "[true, false, true, false, true]"
    );
    let strs = ret(
        "ss: string[]",
        "string[]",
        "(call CONCAT (call SLICE (var ss) (const 1) (const 2)) (const [\"z\"]))",
    );
    assert_eq!(run(&strs, r#"{"ss": ["a", "b", "c"]}"#), r#"["b", "z"]"#);
}
