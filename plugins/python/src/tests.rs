//! The backend end to end on hand-built IIR: compile, run with python3,
//! compare with what Isu's semantics say.

use crate::PythonBackend;
use isu_plugin_api::build::*;
use isu_plugin_api::{
    Backend, BinaryOp as B, CompileOptions, DiagnosticKind, ExecLimits, ExecOptions, Literal,
    Program, Type,
};

const LIMITS: ExecLimits = ExecLimits::DEFAULT;

fn source(p: &Program) -> String {
    let a = PythonBackend
        .compile(p, &CompileOptions::default())
        .expect("compiles");
    String::from_utf8(a[0].bytes.clone()).expect("utf-8")
}

/// Runs `p` on `args`; the result as JSON text, or `error CODE at STEP`.
fn run_with(p: &Program, args: &str, limits: ExecLimits) -> String {
    let a = PythonBackend
        .compile(p, &CompileOptions::default())
        .expect("compiles");
    let args: Literal = serde_json::from_str(args).expect("args");
    match PythonBackend.execute(&a, &args, &ExecOptions::new(limits)) {
        Ok(v) => v.to_string(),
        Err(d) if d.kind == DiagnosticKind::RuntimeError => {
            format!("error {} at {}", d.code, d.step.as_deref().unwrap_or("-"))
        }
        Err(d) => panic!("backend failure: {d:?}\n{}", source(p)),
    }
}

fn run(p: &Program, args: &str) -> String {
    run_with(p, args, LIMITS)
}

fn ints() -> Type {
    Type::array(Type::Int)
}

fn sum_evens() -> Program {
    program(
        "sum_evens",
        &[("xs", ints())],
        Type::Int,
        vec![("total", Type::Int, int(0))],
        &[("x", Type::Int)],
        vec![
            each(
                "S1",
                "x",
                var("xs", ints()),
                vec![if_(
                    "S1_1",
                    bin(B::Eq, bin(B::Mod, var("x", Type::Int), int(2)), int(0)),
                    vec![set(
                        "S1_1_1",
                        "total",
                        bin(B::Add, var("total", Type::Int), var("x", Type::Int)),
                    )],
                    vec![],
                )],
            ),
            ret("S2", var("total", Type::Int)),
        ],
    )
}

#[test]
fn sum_evens_runs() {
    let p = sum_evens();
    assert_eq!(run(&p, r#"{"xs": [1, 2, 3, 4]}"#), "6");
    assert_eq!(run(&p, r#"{"xs": []}"#), "0");
    assert_eq!(
        run(&p, r#"{"xs": [9223372036854775806, 2]}"#),
        "error int_overflow at S1_1_1"
    );
    println!("{}", source(&p));
}

/// The `python` lowerings of the `math` pack (plugins/testing/pack), as
/// that pack gives them. (A copy: both crates export an abi_stable root
/// module, so one test binary cannot link both.)
const MATH_GCD: &str = "\
def math__GCD(a, b):
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    if a > 9223372036854775807:
        raise OverflowError(\"int_overflow\")
    return a
";

const MATH_IS_PRIME: &str = "\
def math__IS_PRIME(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True
";

fn with_packs(p: &Program, args: &str) -> String {
    use isu_plugin_api::Lowering;
    let lowerings: Vec<Lowering> = [("math.GCD", MATH_GCD), ("math.IS_PRIME", MATH_IS_PRIME)]
        .iter()
        .map(|(f, source)| Lowering {
            function: (*f).into(),
            target: "python".into(),
            source: (*source).into(),
        })
        .collect();
    let options = CompileOptions {
        target: "python".into(),
        lowerings,
        ..CompileOptions::default()
    };
    let a = PythonBackend.compile(p, &options).expect("compiles");
    let args: Literal = serde_json::from_str(args).expect("args");
    match PythonBackend.execute(&a, &args, &ExecOptions::new(LIMITS)) {
        Ok(v) => v.to_string(),
        Err(d) => format!("error {} at {}", d.code, d.step.as_deref().unwrap_or("-")),
    }
}

#[test]
fn pack_functions_are_called_and_their_errors_located() {
    let a = || var("a", Type::Int);
    let p = program(
        "gcd_of",
        &[("a", Type::Int), ("b", Type::Int)],
        Type::Int,
        vec![],
        &[],
        vec![
            if_(
                "S1",
                call("math.IS_PRIME", vec![a()], Type::Bool),
                vec![ret("S1_1", int(-1))],
                vec![],
            ),
            ret(
                "S2",
                call("math.GCD", vec![a(), var("b", Type::Int)], Type::Int),
            ),
        ],
    );
    assert_eq!(with_packs(&p, r#"{"a": 12, "b": -18}"#), "6");
    assert_eq!(with_packs(&p, r#"{"a": 7, "b": 1}"#), "-1");
    assert_eq!(
        with_packs(&p, r#"{"a": -9223372036854775808, "b": 0}"#),
        "error int_overflow at S2"
    );
    // Without the pack's definition there is nothing to call.
    let missing = PythonBackend.compile(&p, &CompileOptions::default());
    assert!(matches!(missing, Err(d) if d[0].code == "unsupported_feature"));
}

fn int_var(n: &str) -> isu_plugin_api::Expr {
    var(n, Type::Int)
}

/// The text of the generated function (from its `def` on).
fn function_text(p: &Program) -> String {
    let src = source(p);
    let start = src.find("\ndef ").expect("a def");
    let end = src
        .find("\n# Isu names")
        .expect("the tables after the function");
    src[start..end].to_owned()
}

#[test]
fn loop_facts_drop_checks_that_cannot_fire() {
    // (range i 0 (LEN xs)): i is an index of xs, and i + 1 cannot overflow.
    let xs = || var("xs", ints());
    let p = program(
        "pairs",
        &[("xs", ints())],
        Type::Int,
        vec![("total", Type::Int, int(0))],
        &[("i", Type::Int)],
        vec![
            range(
                "S1",
                "i",
                int(0),
                call("LEN", vec![xs()], Type::Int),
                None,
                vec![set(
                    "S1_1",
                    "total",
                    bin(
                        B::Add,
                        idx(xs(), int_var("i")),
                        bin(B::Add, int_var("i"), int(1)),
                    ),
                )],
            ),
            ret("S2", int_var("total")),
        ],
    );
    let f = function_text(&p);
    assert!(f.contains("total = xs[i] + (i + 1)"), "{f}");
    assert!(f.contains("for i in _seq if _fuel >= 0"), "{f}");
    assert_eq!(run(&p, r#"{"xs": [5, 6]}"#), "8");
}

#[test]
fn negative_indexes_fail_instead_of_counting_from_the_end() {
    let p = program(
        "at",
        &[("xs", ints()), ("k", Type::Int)],
        Type::Int,
        vec![],
        &[],
        vec![ret(
            "S1",
            idx(var("xs", ints()), bin(B::Sub, int_var("k"), int(1))),
        )],
    );
    let f = function_text(&p);
    assert!(f.contains("_i if (_i := "), "{f}");
    assert_eq!(run(&p, r#"{"xs": [5, 6], "k": 2}"#), "6");
    assert_eq!(
        run(&p, r#"{"xs": [5, 6], "k": 0}"#),
        "error index_out_of_range at S1"
    );
    assert_eq!(
        run(&p, r#"{"xs": [5, 6], "k": 3}"#),
        "error index_out_of_range at S1"
    );
    assert_eq!(
        run(&p, r#"{"xs": [5], "k": -9223372036854775808}"#),
        "error int_overflow at S1"
    );
}

#[test]
fn div_and_mod_truncate_for_every_sign_and_form() {
    // (div a b), (mod a b), (div a 3), (mod a -3), (mod (add a 0) 3): helpers
    // and inline forms agree with Isu's definitions.
    let a = || int_var("a");
    let b = || int_var("b");
    let arr = |items: Vec<isu_plugin_api::Expr>| {
        items
            .into_iter()
            .fold(lit(Literal::Array(vec![]), ints()), |acc, x| {
                call("PUSH", vec![acc, x], ints())
            })
    };
    let p = program(
        "divmod",
        &[("a", Type::Int), ("b", Type::Int)],
        ints(),
        vec![],
        &[],
        vec![ret(
            "S1",
            arr(vec![
                bin(B::Div, a(), b()),
                bin(B::Mod, a(), b()),
                bin(B::Div, a(), int(3)),
                bin(B::Mod, a(), int(-3)),
                bin(B::Mod, bin(B::Add, a(), int(0)), int(3)),
            ]),
        )],
    );
    for (x, y) in [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 5), (-9, 3)] {
        let q = x / y;
        let r = x % y;
        let expect = format!("[{q}, {r}, {}, {}, {}]", x / 3, x % 3, x % 3);
        assert_eq!(
            run(&p, &format!(r#"{{"a": {x}, "b": {y}}}"#)),
            expect,
            "{x} {y}"
        );
    }
    assert_eq!(
        run(&p, r#"{"a": -9223372036854775808, "b": -1}"#),
        "error int_overflow at S1"
    );
    assert_eq!(
        run(&p, r#"{"a": 1, "b": 0}"#),
        "error division_by_zero at S1"
    );
}

#[test]
fn boolean_constants_and_negations_read_plainly() {
    let flag = || var("flag", Type::Bool);
    let p = program(
        "logic",
        &[("flag", Type::Bool), ("a", Type::Int), ("b", Type::Int)],
        Type::Bool,
        vec![],
        &[],
        vec![ret(
            "S1",
            bin(
                B::And,
                bin(B::Eq, flag(), boolean(true)),
                bin(
                    B::Or,
                    not(bin(B::Lt, int_var("a"), int_var("b"))),
                    bin(B::Ne, boolean(true), flag()),
                ),
            ),
        )],
    );
    let f = function_text(&p);
    assert!(
        f.contains("return _scalar_result(flag and (a >= b or not flag), _max_size)"),
        "{f}"
    );
    assert_eq!(run(&p, r#"{"flag": true, "a": 2, "b": 1}"#), "true");
    assert_eq!(run(&p, r#"{"flag": true, "a": 1, "b": 2}"#), "false");
    assert_eq!(run(&p, r#"{"flag": false, "a": 2, "b": 1}"#), "false");
}

#[test]
fn element_targets_are_checked_before_expr_when_order_shows() {
    // (index xs (add k 1)) = (div 1 d): the target's overflow comes first.
    let p = program(
        "order",
        &[("xs", ints()), ("k", Type::Int), ("d", Type::Int)],
        ints(),
        vec![],
        &[],
        vec![
            assign(
                "S1",
                pidx(pvar("xs"), bin(B::Add, int_var("k"), int(1))),
                bin(B::Div, int(1), int_var("d")),
            ),
            ret("S2", var("xs", ints())),
        ],
    );
    let f = function_text(&p);
    assert!(f.contains("_k = "), "{f}");
    assert_eq!(
        run(&p, r#"{"xs": [0], "k": 9223372036854775807, "d": 0}"#),
        "error int_overflow at S1"
    );
    assert_eq!(
        run(&p, r#"{"xs": [0], "k": 5, "d": 0}"#),
        "error index_out_of_range at S1"
    );
    assert_eq!(
        run(&p, r#"{"xs": [0], "k": 0, "d": 1}"#),
        "error index_out_of_range at S1"
    );
    assert_eq!(run(&p, r#"{"xs": [0, 0], "k": 0, "d": 1}"#), "[0, 1]");
    // xs[i] = xs[i] + 1 fails alike in either order: one plain statement.
    let q = program(
        "bump",
        &[("xs", ints()), ("i", Type::Int)],
        ints(),
        vec![],
        &[],
        vec![
            assign(
                "S1",
                pidx(pvar("xs"), int_var("i")),
                bin(B::Add, idx(var("xs", ints()), int_var("i")), int(1)),
            ),
            ret("S2", var("xs", ints())),
        ],
    );
    let f = function_text(&q);
    assert!(!f.contains("_k = "), "{f}");
    assert_eq!(run(&q, r#"{"xs": [1, 2], "i": 1}"#), "[1, 3]");
    assert_eq!(
        run(&q, r#"{"xs": [1, 2], "i": -1}"#),
        "error index_out_of_range at S1"
    );
}

#[test]
fn map_has_keeps_the_map_first_when_both_can_fail_differently() {
    let m = Type::map(Type::Int, Type::map(Type::Int, Type::Int));
    let p = program(
        "has",
        &[("m", m.clone()), ("k", Type::Int)],
        Type::Bool,
        vec![],
        &[],
        vec![ret(
            "S1",
            call(
                "MAP_HAS",
                vec![idx(var("m", m), int(1)), bin(B::Add, int_var("k"), int(1))],
                Type::Bool,
            ),
        )],
    );
    assert!(function_text(&p).contains("_map_has("));
    assert_eq!(
        run(&p, r#"{"m": {}, "k": 9223372036854775807}"#),
        "error missing_key at S1"
    );
    assert_eq!(run(&p, r#"{"m": {"1": {"3": 0}}, "k": 2}"#), "true");
}

#[test]
fn while_loops_spend_fuel_round_by_round() {
    let p = program(
        "count",
        &[("n", Type::Int)],
        Type::Int,
        vec![("i", Type::Int, int(0))],
        &[],
        vec![
            while_(
                "S1",
                bin(B::Lt, int_var("i"), int_var("n")),
                vec![set("S1_1", "i", bin(B::Add, int_var("i"), int(1)))],
            ),
            ret("S2", int_var("i")),
        ],
    );
    let small = ExecLimits {
        max_steps: 10,
        max_size: 100,
        ..ExecLimits::DEFAULT
    };
    assert_eq!(run_with(&p, r#"{"n": 10}"#, small), "10");
    assert_eq!(
        run_with(&p, r#"{"n": 11}"#, small),
        "error step_limit at S1"
    );
    // i only grows from 0: no overflow check on i + 1 would be wrong, as
    // i < n keeps it below MAX.
    assert!(function_text(&p).contains("i = i + 1\n"));
}

#[test]
fn a_range_with_a_step_of_zero_fails_at_its_loop() {
    let p = program(
        "zero",
        &[("s", Type::Int)],
        Type::Int,
        vec![("n", Type::Int, int(0))],
        &[("i", Type::Int)],
        vec![
            range(
                "S1",
                "i",
                int(0),
                int(3),
                Some(int_var("s")),
                vec![set("S1_1", "n", bin(B::Add, int_var("n"), int(1)))],
            ),
            ret("S2", int_var("n")),
        ],
    );
    assert_eq!(run(&p, r#"{"s": 0}"#), "error zero_step at S1");
    assert_eq!(run(&p, r#"{"s": 2}"#), "2");
    assert_eq!(run(&p, r#"{"s": -1}"#), "0");
}

#[test]
fn state_errors_have_no_step_and_python_names_are_safe() {
    let p = program(
        "len",
        &[("len", Type::Int), ("if", Type::Int)],
        Type::Int,
        vec![("_t", Type::Int, neg(int_var("len")))],
        &[("l", Type::Int)],
        vec![
            seq(
                "S1",
                vec![set("S1_1", "l", bin(B::Add, int_var("_t"), int_var("if")))],
            ),
            if_("S2", boolean(true), vec![], vec![]),
            ret("S3", int_var("l")),
        ],
    );
    let src = source(&p);
    assert!(src.contains("def len_(len_: int, if_: int, *,"), "{src}");
    assert_eq!(run(&p, r#"{"len": 2, "if": 5}"#), "3");
    assert_eq!(
        run(&p, r#"{"len": -9223372036854775808, "if": 0}"#),
        "error int_overflow at -"
    );
    assert!(function_text(&p).contains("if True:\n            pass\n"));
}

#[test]
fn strings_and_their_functions() {
    let s = || var("s", Type::String);
    let strs = Type::array(Type::String);
    let p = program(
        "words",
        &[("s", Type::String)],
        Type::String,
        vec![],
        &[],
        vec![ret(
            "S1",
            call(
                "JOIN",
                vec![
                    call(
                        "SPLIT_WHITESPACE",
                        vec![call("LOWER", vec![s()], Type::String)],
                        strs,
                    ),
                    string("+"),
                ],
                Type::String,
            ),
        )],
    );
    assert_eq!(
        run(&p, r#"{"s": " Ab\u000bCD\u00a0É\u001fx "}"#),
        "\"ab+cd\u{a0}É\\u001fx\""
    );
}

#[test]
fn sort_split_upper_contains_index_of() {
    // UPPER(s) split at t, sorted, joined with "|"; then where t is in s (in
    // characters) and whether it is.
    let s = || var("s", Type::String);
    let t = || var("t", Type::String);
    let strs = Type::array(Type::String);
    let p = program(
        "vocab",
        &[("s", Type::String), ("t", Type::String)],
        strs.clone(),
        vec![],
        &[],
        vec![ret(
            "S1",
            call(
                "PUSH",
                vec![
                    call(
                        "PUSH",
                        vec![
                            call(
                                "PUSH",
                                vec![
                                    lit(Literal::Array(vec![]), strs.clone()),
                                    call(
                                        "JOIN",
                                        vec![
                                            call(
                                                "SORT",
                                                vec![call(
                                                    "SPLIT",
                                                    vec![
                                                        call("UPPER", vec![s()], Type::String),
                                                        t(),
                                                    ],
                                                    strs.clone(),
                                                )],
                                                strs.clone(),
                                            ),
                                            string("|"),
                                        ],
                                        Type::String,
                                    ),
                                ],
                                strs.clone(),
                            ),
                            call(
                                "TO_STRING",
                                vec![call("INDEX_OF", vec![s(), t()], Type::Int)],
                                Type::String,
                            ),
                        ],
                        strs.clone(),
                    ),
                    call(
                        "TO_STRING",
                        vec![call(
                            "INDEX_OF",
                            vec![
                                lit(
                                    Literal::Array(vec![Literal::Bool(false), Literal::Bool(true)]),
                                    Type::array(Type::Bool),
                                ),
                                call("CONTAINS", vec![s(), t()], Type::Bool),
                            ],
                            Type::Int,
                        )],
                        Type::String,
                    ),
                ],
                strs,
            ),
        )],
    );
    // Only ASCII letters change case (str.upper would make "SS" of "ß");
    // positions count characters; an empty needle is found at 0.
    assert_eq!(
        run(&p, r#"{"s": "straße, àb, a", "t": ", "}"#),
        r#"["A|STRAßE|àB", "6", "1"]"#
    );
    assert_eq!(
        run(&p, r#"{"s": "ñandú, ñu", "t": "ñu"}"#),
        r#"["ñANDú, ñU", "7", "1"]"#
    );
    assert_eq!(run(&p, r#"{"s": "ab", "t": "x"}"#), r#"["AB", "-1", "0"]"#);
    assert_eq!(
        run(&p, r#"{"s": "ab", "t": ""}"#),
        "error empty_separator at S1"
    );
    let text = function_text(&p);
    assert!(
        text.contains("s.find(t)") && text.contains("t in s"),
        "{text}"
    );
}

#[test]
fn an_operand_leaves_its_overflow_check_to_the_sum_only_when_that_is_the_same() {
    // (add (mul a a) (abs c)): a*a >= 0 and ABS(c) >= 0, so the sum is above
    // MAX whenever the product is: one check.
    let a = || int_var("a");
    let sum = |rhs| {
        program(
            "sq",
            &[("a", Type::Int), ("c", Type::Int), ("xs", ints())],
            Type::Int,
            vec![],
            &[],
            vec![ret("S1", bin(B::Add, bin(B::Mul, a(), a()), rhs))],
        )
    };
    let p = sum(call("ABS", vec![int_var("c")], Type::Int));
    let f = function_text(&p);
    assert!(f.contains("a * a + _abs(c)"), "{f}");
    let big = 3037000500_i64; // big * big > MAX
    assert_eq!(
        run(&p, &format!(r#"{{"a": {big}, "c": 0, "xs": []}}"#)),
        "error int_overflow at S1"
    );
    assert_eq!(run(&p, r#"{"a": 3, "c": -4, "xs": []}"#), "13");
    // With c that may be negative, the product overflowing does not make
    // the sum overflow: the product keeps its check.
    let q = sum(int_var("c"));
    assert!(function_text(&q).contains("_t := a * a"));
    assert_eq!(
        run(
            &q,
            &format!(r#"{{"a": {big}, "c": -9223372036854775807, "xs": []}}"#)
        ),
        "error int_overflow at S1"
    );
    // A right operand that can fail otherwise (an index) keeps the order:
    // the product's overflow comes first.
    let r = sum(idx(var("xs", ints()), int(0)));
    assert!(function_text(&r).contains("_t := a * a"));
    assert_eq!(
        run(&r, &format!(r#"{{"a": {big}, "c": 0, "xs": []}}"#)),
        "error int_overflow at S1"
    );
}

/// PUSH of ints in a loop, CONCAT onto a string, an insert into a map of
/// ints (and a store over its key, which adds nothing), a POP that gives one
/// back and a MAP_SET that adds a key, under limits around the exact need
/// (the conformance cases store strings; these store ints); and the code the
/// hot loop gets.
#[test]
fn memory_is_counted_at_each_store_that_adds() {
    let words = Type::map(Type::String, Type::Int);
    let p = program(
        "hold",
        &[("n", Type::Int), ("s", Type::String)],
        Type::Int,
        vec![
            ("xs", ints(), lit(Literal::Array(vec![]), ints())),
            ("t", Type::String, string("")),
            (
                "m",
                words.clone(),
                lit(Literal::Object(Default::default()), words.clone()),
            ),
        ],
        &[("i", Type::Int)],
        vec![
            range(
                "S1",
                "i",
                int(0),
                int_var("n"),
                None,
                vec![set(
                    "S1_1",
                    "xs",
                    call("PUSH", vec![var("xs", ints()), int_var("i")], ints()),
                )],
            ),
            set(
                "S2",
                "t",
                call(
                    "CONCAT",
                    vec![var("t", Type::String), var("s", Type::String)],
                    Type::String,
                ),
            ),
            assign("S3", pidx(pvar("m"), var("s", Type::String)), int(1)),
            // Stored again: the key is there, nothing is added.
            assign("S4", pidx(pvar("m"), var("s", Type::String)), int(2)),
            set("S5", "xs", call("POP", vec![var("xs", ints())], ints())),
            set(
                "S6",
                "m",
                call(
                    "MAP_SET",
                    vec![var("m", words.clone()), string("q"), int(5)],
                    words.clone(),
                ),
            ),
            ret("S7", call("LEN", vec![var("xs", ints())], Type::Int)),
        ],
    );
    let args = r#"{"n": 3, "s": "ab"}"#;
    // s 2, xs 3, t 2, m 1 + 2 (10 in all); then xs 2, and m 1 + 1 more.
    let with = |max_memory| ExecLimits {
        max_memory,
        ..ExecLimits::DEFAULT
    };
    assert_eq!(run_with(&p, args, with(11)), "2");
    assert_eq!(run_with(&p, args, with(10)), "error memory_limit at S6");
    assert_eq!(run_with(&p, args, with(9)), "error memory_limit at S3");
    assert_eq!(run_with(&p, args, with(6)), "error memory_limit at S2");
    assert_eq!(run_with(&p, args, with(4)), "error memory_limit at S1_1");
    // The arguments alone pass the limit: only a store that adds fails.
    assert_eq!(
        run_with(&p, r#"{"n": 0, "s": "ab"}"#, with(1)),
        "error memory_limit at S2"
    );
    let text = function_text(&p);
    assert!(
        text.contains("xs.append(i)\n"),
        "the hot loop appends as before:\n{text}"
    );
    assert!(!text.contains("_m_xs"), "xs's size needs no local:\n{text}");
}
