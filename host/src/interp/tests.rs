//! Tests of the interpreter on IIR built in code. The conformance cases
//! (`conformance/cases/*.isu`, run by `tests/run_cases.rs`) cover the language
//! through the whole front end; these cover what text cannot reach (programs
//! the validator would refuse, such as one without a RETURN) and the API.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::result_large_err)]

use super::*;
use crate::diag::Code;
use isu_lang::build::{assign, each, if_, pidx, pvar, range, ret, set, while_};
use isu_lang::RuntimeCode;
use isu_plugin_api::{
    BinaryOp, Block, Decl, Example, Expr, ExprNode, Func, Ident, Io, Span, StateVar, Step, StepId,
    Type, UnaryOp, IIR_FORMAT,
};
use serde_json::json;

fn sp() -> Span {
    Span::default()
}

fn ident(name: &str) -> Ident {
    Ident {
        name: name.into(),
        span: sp(),
    }
}

fn lit(json: serde_json::Value) -> Literal {
    serde_json::from_value(json).unwrap()
}

fn k(json: serde_json::Value, ty: Type) -> Expr {
    Expr {
        span: sp(),
        ty: Some(ty),
        node: ExprNode::Const { value: lit(json) },
    }
}

fn int(i: i64) -> Expr {
    k(json!(i), Type::Int)
}

fn var(name: &str) -> Expr {
    Expr::new(ExprNode::Var { name: name.into() }, sp())
}

fn ivar(name: &str) -> Expr {
    Expr {
        ty: Some(Type::Int),
        ..var(name)
    }
}

fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    Expr::new(
        ExprNode::Binary {
            op,
            lhs: Box::new(a),
            rhs: Box::new(b),
        },
        sp(),
    )
}

fn neg(a: Expr) -> Expr {
    Expr::new(
        ExprNode::Unary {
            op: UnaryOp::Neg,
            arg: Box::new(a),
        },
        sp(),
    )
}

fn index(a: Expr, i: Expr) -> Expr {
    Expr::new(
        ExprNode::Index {
            base: Box::new(a),
            index: Box::new(i),
        },
        sp(),
    )
}

fn call(f: &str, args: Vec<Expr>) -> Expr {
    Expr::new(
        ExprNode::Call {
            func: f.into(),
            args,
        },
        sp(),
    )
}

fn id(s: &str) -> Option<StepId> {
    StepId::parse(s)
}

fn set_at(s: &str, name: &str, keys: Vec<Expr>, e: Expr) -> Step {
    assign(s, keys.into_iter().fold(pvar(name), pidx), e)
}

fn decls(vs: &[(&str, Type)]) -> Vec<Decl> {
    vs.iter()
        .map(|(n, t)| Decl {
            name: ident(n),
            ty: t.clone(),
            span: sp(),
        })
        .collect()
}

struct P {
    args: Vec<(&'static str, Type)>,
    state: Vec<(&'static str, Type, Expr)>,
    locals: Vec<(&'static str, Type)>,
    ret: Type,
}

impl P {
    fn new(ret: Type) -> P {
        P {
            args: Vec::new(),
            state: Vec::new(),
            locals: Vec::new(),
            ret,
        }
    }

    fn arg(mut self, n: &'static str, t: Type) -> P {
        self.args.push((n, t));
        self
    }

    fn state(mut self, n: &'static str, t: Type, e: Expr) -> P {
        self.state.push((n, t, e));
        self
    }

    fn local(mut self, n: &'static str, t: Type) -> P {
        self.locals.push((n, t));
        self
    }

    fn steps(self, steps: Vec<Step>) -> Program {
        Program {
            types: Vec::new(),
            format: IIR_FORMAT.into(),
            auto_id: false,
            func: Func {
                name: ident("f"),
                args: decls(&self.args),
                returns: self.ret,
                span: sp(),
            },
            io: Io {
                input: Vec::new(),
                output: Vec::new(),
                span: sp(),
            },
            state: self
                .state
                .into_iter()
                .map(|(n, t, e)| StateVar {
                    name: ident(n),
                    ty: t,
                    init: e,
                    span: sp(),
                })
                .collect(),
            locals: decls(&self.locals),
            body: Block { steps, span: sp() },
        }
    }
}

fn arr(t: Type) -> Type {
    Type::array(t)
}

fn go(p: &Program, args: serde_json::Value) -> Result<Literal, Diagnostic> {
    run(p, &args, &RunOptions::default(), None)
}

fn ok(p: &Program, args: serde_json::Value) -> serde_json::Value {
    let r = go(p, args).unwrap_or_else(|d| panic!("run failed: {}", d.to_json()));
    serde_json::to_value(r).unwrap()
}

fn err(p: &Program, args: serde_json::Value) -> Diagnostic {
    match go(p, args) {
        Err(d) => d,
        Ok(v) => panic!("expected an error, got {v}"),
    }
}

/// `f(a, b) = a OP b` on ints.
fn arith(op: BinaryOp) -> Program {
    P::new(Type::Int)
        .arg("a", Type::Int)
        .arg("b", Type::Int)
        .steps(vec![ret("S1", bin(op, ivar("a"), ivar("b")))])
}

#[test]
fn int_arithmetic_edges() {
    use BinaryOp::*;
    let min = i64::MIN;
    let max = i64::MAX;
    assert_eq!(ok(&arith(Div), json!({"a": -7, "b": 2})), json!(-3));
    assert_eq!(ok(&arith(Mod), json!({"a": -7, "b": 2})), json!(-1));
    assert_eq!(ok(&arith(Mod), json!({"a": 7, "b": -2})), json!(1));
    assert_eq!(ok(&arith(Mod), json!({"a": min, "b": -1})), json!(0));
    assert_eq!(ok(&arith(Sub), json!({"a": -1, "b": max})), json!(min));
    for (op, a, b, code) in [
        (Div, min, -1, RuntimeCode::IntOverflow),
        (Div, 1, 0, RuntimeCode::DivisionByZero),
        (Mod, 1, 0, RuntimeCode::DivisionByZero),
        (Add, max, 1, RuntimeCode::IntOverflow),
        (Sub, min, 1, RuntimeCode::IntOverflow),
        (Mul, 1i64 << 32, 1i64 << 31, RuntimeCode::IntOverflow),
        (Mul, min, -1, RuntimeCode::IntOverflow),
    ] {
        let d = err(&arith(op), json!({"a": a, "b": b}));
        assert_eq!(d.code, code, "{op:?} {a} {b}");
        assert_eq!(d.step, id("S1"));
        assert_eq!(d.vars.len(), 2);
    }
    let p = P::new(Type::Int)
        .arg("a", Type::Int)
        .steps(vec![ret("S1", neg(ivar("a")))]);
    assert_eq!(err(&p, json!({"a": min})).code, RuntimeCode::IntOverflow);
}

#[test]
fn falling_off_the_end_is_no_return() {
    let p = P::new(Type::Int).arg("a", Type::Int).steps(vec![if_(
        "S1",
        bin(BinaryOp::Gt, ivar("a"), int(0)),
        vec![ret("S1_1", int(1))],
        vec![],
    )]);
    assert_eq!(ok(&p, json!({"a": 5})), json!(1));
    let d = err(&p, json!({"a": 0}));
    assert_eq!((d.code, d.step), (Code::from(RuntimeCode::NoReturn), None));
}

#[test]
fn reading_an_unassigned_local_names_it() {
    let p = P::new(Type::Int)
        .arg("a", Type::Int)
        .local("x", Type::Int)
        .steps(vec![
            if_(
                "S1",
                bin(BinaryOp::Gt, ivar("a"), int(0)),
                vec![set("S1_1", "x", int(7))],
                vec![],
            ),
            ret("S2", ivar("x")),
        ]);
    assert_eq!(ok(&p, json!({"a": 1})), json!(7));
    let d = err(&p, json!({"a": 0}));
    assert_eq!(
        (d.code, d.step.clone()),
        (Code::from(RuntimeCode::UninitializedRead), id("S2"))
    );
    assert!(d.message.contains("`x`"), "{}", d.message);
    assert_eq!(d.vars[0].name, "x");
    assert_eq!(d.vars[0].value, serde_json::Value::Null);
}

#[test]
fn arrays_never_alias() {
    // ys = xs; ys[0] = 9; xs = PUSH(xs, 5); return [xs, ys]
    let p = P::new(arr(arr(Type::Int)))
        .arg("xs", arr(Type::Int))
        .local("ys", arr(Type::Int))
        .steps(vec![
            set("S1", "ys", var("xs")),
            set_at("S2", "ys", vec![int(0)], int(9)),
            set("S3", "xs", call("PUSH", vec![var("xs"), int(5)])),
            ret(
                "S4",
                call(
                    "PUSH",
                    vec![
                        call("PUSH", vec![k(json!([]), arr(arr(Type::Int))), var("xs")]),
                        var("ys"),
                    ],
                ),
            ),
        ]);
    assert_eq!(ok(&p, json!({"xs": [1, 2]})), json!([[1, 2, 5], [9, 2]]));
}

#[test]
fn nested_element_targets_copy_on_write() {
    // grid = REPEAT(row, 2); grid[1][0] = 7; return [grid, row] as grid
    let p = P::new(arr(arr(Type::Int)))
        .arg("row", arr(Type::Int))
        .local("grid", arr(arr(Type::Int)))
        .steps(vec![
            set("S1", "grid", call("REPEAT", vec![var("row"), int(2)])),
            set_at("S2", "grid", vec![int(1), int(0)], int(7)),
            set("S3", "grid", call("PUSH", vec![var("grid"), var("row")])),
            ret("S4", var("grid")),
        ]);
    assert_eq!(
        ok(&p, json!({"row": [0, 0]})),
        json!([[0, 0], [7, 0], [0, 0]])
    );
}

#[test]
fn in_place_updates_of_elements() {
    // m[k] = PUSH(m[k], v) on a map of arrays; missing key is an error of the read
    let mt = Type::map(Type::String, arr(Type::Int));
    let p = P::new(mt.clone())
        .arg("m", mt.clone())
        .arg("key", Type::String)
        .steps(vec![
            set_at(
                "S1",
                "m",
                vec![var("key")],
                call("PUSH", vec![index(var("m"), var("key")), int(3)]),
            ),
            ret("S2", var("m")),
        ]);
    assert_eq!(
        ok(&p, json!({"m": {"a": [1]}, "key": "a"})),
        json!({"a": [1, 3]})
    );
    let d = err(&p, json!({"m": {"a": [1]}, "key": "b"}));
    assert_eq!(
        (d.code, d.step),
        (Code::from(RuntimeCode::MissingKey), id("S1"))
    );
}

#[test]
fn each_iterates_over_a_snapshot() {
    // for x in xs: xs = PUSH(xs, x)  -- terminates, doubling xs
    let p = P::new(arr(Type::Int))
        .arg("xs", arr(Type::Int))
        .local("x", Type::Int)
        .steps(vec![
            each(
                "S1",
                "x",
                var("xs"),
                vec![set("S1_1", "xs", call("PUSH", vec![var("xs"), var("x")]))],
            ),
            ret("S2", var("xs")),
        ]);
    assert_eq!(ok(&p, json!({"xs": [1, 2]})), json!([1, 2, 1, 2]));
}

#[test]
fn range_reads_bounds_once_and_leaves_the_last_value() {
    // n = 3; for i in range(0, n): n = n + 1; return i * 100 + n
    let p = P::new(Type::Int)
        .arg("n", Type::Int)
        .local("i", Type::Int)
        .steps(vec![
            range(
                "S1",
                "i",
                int(0),
                ivar("n"),
                None,
                vec![set("S1_1", "n", bin(BinaryOp::Add, ivar("n"), int(1)))],
            ),
            ret(
                "S2",
                bin(
                    BinaryOp::Add,
                    bin(BinaryOp::Mul, ivar("i"), int(100)),
                    ivar("n"),
                ),
            ),
        ]);
    assert_eq!(ok(&p, json!({"n": 3})), json!(206));
    // counting down to i64::MIN does not overflow
    let p = P::new(Type::Int)
        .local("i", Type::Int)
        .state("c", Type::Int, int(0))
        .steps(vec![
            range(
                "S1",
                "i",
                int(i64::MIN + 5),
                int(i64::MIN),
                Some(int(-2)),
                vec![set("S1_1", "c", bin(BinaryOp::Add, ivar("c"), int(1)))],
            ),
            ret("S2", bin(BinaryOp::Sub, ivar("i"), int(i64::MIN))),
        ]);
    assert_eq!(ok(&p, json!({})), json!(1));
    let up = P::new(Type::Int)
        .local("i", Type::Int)
        .state("c", Type::Int, int(0))
        .steps(vec![
            range(
                "S1",
                "i",
                int(i64::MAX - 3),
                int(i64::MAX),
                Some(int(2)),
                vec![set("S1_1", "c", bin(BinaryOp::Add, ivar("c"), int(1)))],
            ),
            ret("S2", ivar("c")),
        ]);
    assert_eq!(ok(&up, json!({})), json!(2));
}

#[test]
fn zero_step_is_an_error_of_the_loop() {
    let p = P::new(Type::Int)
        .arg("s", Type::Int)
        .local("i", Type::Int)
        .steps(vec![
            range("S1", "i", int(0), int(3), Some(ivar("s")), vec![]),
            ret("S2", int(0)),
        ]);
    let d = err(&p, json!({"s": 0}));
    assert_eq!(
        (d.code, d.step),
        (Code::from(RuntimeCode::ZeroStep), id("S1"))
    );
    assert_eq!(
        d.vars.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(),
        ["s", "i"]
    );
}

#[test]
fn the_step_budget_stops_endless_loops() {
    let p = P::new(Type::Int).steps(vec![
        while_("S1", k(json!(true), Type::Bool), vec![]),
        ret("S2", int(0)),
    ]);
    let opts = RunOptions {
        max_steps: 1000,
        ..RunOptions::default()
    };
    let d = run(&p, &json!({}), &opts, None).unwrap_err();
    assert_eq!(
        (d.code, d.step),
        (Code::from(RuntimeCode::StepLimit), id("S1"))
    );
    // Without calls or copies the budget counts loop rounds: a loop of 3 rounds runs with a
    // budget of 3 and fails at the LOOP with 2; straight-line steps cost nothing.
    let q = P::new(Type::Int)
        .local("i", Type::Int)
        .local("x", Type::Int)
        .steps(vec![
            set("S1", "x", int(7)),
            range("S2", "i", int(0), int(3), None, vec![]),
            ret("S3", ivar("x")),
        ]);
    let budget = |max_steps| RunOptions {
        max_steps,
        ..RunOptions::default()
    };
    assert_eq!(run(&q, &json!({}), &budget(3), None), Ok(Literal::Int(7)));
    assert_eq!(
        run(&q, &json!({}), &budget(2), None).map_err(|d| (d.code, d.step)),
        Err((Code::from(RuntimeCode::StepLimit), id("S2")))
    );
    let straight = P::new(Type::Int)
        .local("x", Type::Int)
        .steps(vec![set("S1", "x", int(1)), ret("S2", ivar("x"))]);
    assert_eq!(
        run(&straight, &json!({}), &budget(0), None),
        Ok(Literal::Int(1))
    );
}

#[test]
fn the_size_limit_stops_growth_and_huge_results() {
    let opts = RunOptions {
        max_size: 100,
        ..RunOptions::default()
    };
    let p = P::new(arr(Type::Int))
        .arg("n", Type::Int)
        .steps(vec![ret("S1", call("REPEAT", vec![int(0), ivar("n")]))]);
    assert!(run(&p, &json!({"n": 99}), &opts, None).is_ok());
    let d = run(&p, &json!({"n": 101}), &opts, None).unwrap_err();
    assert_eq!(
        (d.code, d.step),
        (Code::from(RuntimeCode::SizeLimit), id("S1"))
    );
    // 20 x 20 shared rows are small in memory but 421 JSON values written out.
    let q = P::new(arr(arr(Type::Int))).steps(vec![ret(
        "S1",
        call(
            "REPEAT",
            vec![call("REPEAT", vec![int(0), int(20)]), int(20)],
        ),
    )]);
    let d = run(&q, &json!({}), &opts, None).unwrap_err();
    assert_eq!(
        (d.code, d.step),
        (Code::from(RuntimeCode::SizeLimit), id("S1"))
    );
}

#[test]
fn state_initializer_errors_name_the_variable() {
    let p = P::new(Type::Int)
        .arg("xs", arr(Type::Int))
        .state("first", Type::Int, index(var("xs"), int(0)))
        .steps(vec![ret("S1", ivar("first"))]);
    assert_eq!(ok(&p, json!({"xs": [4]})), json!(4));
    let d = err(&p, json!({"xs": []}));
    assert_eq!(
        (d.code, d.step.clone()),
        (Code::from(RuntimeCode::IndexOutOfRange), None)
    );
    assert!(
        d.message.contains("STATE initializer of `first`"),
        "{}",
        d.message
    );
    assert_eq!(d.vars[0].name, "xs");
}

#[test]
fn arguments_are_checked_before_running() {
    let p = P::new(Type::Int)
        .arg("xs", arr(Type::Int))
        .arg("m", Type::map(Type::Int, Type::Bool))
        .steps(vec![ret("S1", int(0))]);
    let cases = [
        (json!({"xs": []}), "`m` (map<int,bool>) is missing"),
        (
            json!({"xs": [], "m": {}, "z": 1}),
            "`z` is not an argument; ARGS are [xs: int[], m: map<int,bool>]",
        ),
        (
            json!({"xs": [1, "a"], "m": {}}),
            "does not have its type int[]: at [1] expected an int, found a string",
        ),
        (
            json!({"xs": [], "m": {"01": true}}),
            "not the decimal text of an int",
        ),
        (json!({"xs": [null], "m": {}}), "null is not an Isu value"),
        (
            json!({"xs": [1.5], "m": {}}),
            "at [0] expected an int, found a float",
        ),
        (json!([1]), "must be a JSON object"),
    ];
    for (args, msg) in cases {
        let d = err(&p, args.clone());
        assert_eq!(d.code, RuntimeCode::InvalidArgument, "{args}");
        assert!(d.message.contains(msg), "{args}: {}", d.message);
    }
    assert_eq!(ok(&p, json!({"xs": [1], "m": {"-5": true}})), json!(0));
}

#[test]
fn diagnostics_show_the_values_the_step_reads() {
    let p = P::new(Type::Int)
        .arg("xs", arr(Type::Int))
        .arg("i", Type::Int)
        .steps(vec![ret("S1", index(var("xs"), ivar("i")))]);
    let xs: Vec<i64> = (0..15).collect();
    let d = err(&p, json!({"xs": xs, "i": 15}));
    assert_eq!(d.code, RuntimeCode::IndexOutOfRange);
    assert_eq!(
        d.message,
        "index 15 is out of range for an array of length 15"
    );
    assert_eq!(
        d.vars[0].value,
        json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, "… 5 more"])
    );
    assert_eq!(d.vars[1].value, json!(15));
}

#[test]
fn traces_record_every_step() {
    let p = P::new(Type::Int)
        .arg("xs", arr(Type::Int))
        .state("t", Type::Int, int(0))
        .local("x", Type::Int)
        .steps(vec![
            each(
                "S1",
                "x",
                var("xs"),
                vec![if_(
                    "S1_1",
                    bin(BinaryOp::Gt, ivar("x"), int(1)),
                    vec![set("S1_1_1", "t", bin(BinaryOp::Add, ivar("t"), ivar("x")))],
                    vec![],
                )],
            ),
            ret("S2", ivar("t")),
        ]);
    let mut out = Vec::new();
    let r = run(
        &p,
        &json!({"xs": [1, 2]}),
        &RunOptions::default(),
        Some(&mut out),
    );
    assert_eq!(r, Ok(Literal::Int(2)));
    let expected = [
        r#"{"kind":"STATE","var":"t","value":0}"#,
        r#"{"step":"S1","kind":"LOOP","round":1,"var":"x","value":1}"#,
        r#"{"step":"S1_1","kind":"IF","branch":"else"}"#,
        r#"{"step":"S1","kind":"LOOP","round":2,"var":"x","value":2}"#,
        r#"{"step":"S1_1","kind":"IF","branch":"then"}"#,
        r#"{"step":"S1_1_1","kind":"ASSIGN","var":"t","value":2}"#,
        r#"{"step":"S1","kind":"LOOP","exit":true,"rounds":2}"#,
        r#"{"step":"S2","kind":"RETURN","value":2}"#,
    ];
    assert_eq!(String::from_utf8(out).unwrap(), expected.join("\n") + "\n");
}

#[test]
fn a_failing_trace_sink_is_reported() {
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("no space"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let p = arith(BinaryOp::Add);
    let d = run(
        &p,
        &json!({"a": 1, "b": 2}),
        &RunOptions::default(),
        Some(&mut Full),
    )
    .unwrap_err();
    assert_eq!(d.code, RuntimeCode::TraceWriteFailed);
}

#[test]
fn unvalidated_programs_are_refused_not_run() {
    let p = P::new(Type::Int).steps(vec![ret("S1", var("nope"))]);
    assert_eq!(err(&p, json!({})).code, RuntimeCode::InternalError);
    let p = P::new(Type::Int).steps(vec![ret("S1", call("math.GCD", vec![int(1), int(2)]))]);
    assert_eq!(err(&p, json!({})).code, Code::UnknownFunction);
    let untyped = Expr::new(
        ExprNode::Const {
            value: lit(json!([])),
        },
        sp(),
    );
    let p = P::new(Type::Int).steps(vec![ret("S1", call("LEN", vec![untyped]))]);
    assert_eq!(err(&p, json!({})).code, RuntimeCode::InternalError);
    // A type error the validator would catch is an internal error, not a panic.
    let p = P::new(Type::Int).steps(vec![ret(
        "S1",
        bin(BinaryOp::Add, int(1), k(json!("x"), Type::String)),
    )]);
    assert_eq!(err(&p, json!({})).code, RuntimeCode::InternalError);
}

#[test]
fn io_examples_report_mismatches_and_errors() {
    let mut p = arith(BinaryOp::Div);
    let ex = |v: serde_json::Value| Example {
        value: lit(v),
        span: sp(),
    };
    p.io.input = vec![
        ex(json!({"a": 6, "b": 3})),
        ex(json!({"a": 7, "b": 2})),
        ex(json!({"a": 1, "b": 0})),
    ];
    p.io.output = vec![ex(json!(2)), ex(json!(4)), ex(json!(0))];
    use crate::executor::{self, Executor, Interpreter};
    let interpreter = Interpreter::default();
    let loaded = interpreter.load(&p).unwrap_or_else(|e| panic!("{e}"));
    let limits = isu_plugin_api::ExecLimits::DEFAULT;
    let fails = executor::test_examples(loaded.as_ref(), executor::INTERPRETER, &p, &limits)
        .unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(fails.len(), 2);
    let m = &fails[0];
    assert_eq!((m.code, m.step.clone()), (Code::TestMismatch, id("S1")));
    assert_eq!(m.message, "IO example INPUT[1]: expected 4, got 3");
    assert_eq!(
        (m.expected.clone(), m.actual.clone()),
        (Some(json!(4)), Some(json!(3)))
    );
    assert_eq!(m.vars.len(), 2);
    let e = &fails[1];
    assert_eq!((e.code, e.step.clone()), (Code::TestError, id("S1")));
    assert!(
        e.message
            .starts_with("IO example INPUT[2] stopped with division_by_zero at S1"),
        "{}",
        e.message
    );
    assert_eq!(
        e.actual.as_ref().and_then(|a| a.get("code")),
        Some(&json!("division_by_zero"))
    );
}
