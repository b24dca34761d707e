//! The backend end to end on hand-built IIR: compile, run with python3,
//! compare with what Isu's semantics say.

use crate::build::*;
use crate::PythonBackend;
use isu_plugin_api::{Backend, BinaryOp as B, CompileOptions, ExecLimits, Literal, Program, Type};

const LIMITS: ExecLimits = ExecLimits {
    max_steps: 100_000_000,
    max_size: 10_000_000,
};

fn source(p: &Program) -> String {
    let a = PythonBackend.compile(p, &CompileOptions::default()).expect("compiles");
    String::from_utf8(a[0].bytes.clone()).expect("utf-8")
}

/// Runs `p` on `args`; the result as JSON text, or `error CODE at STEP`.
fn run_with(p: &Program, args: &str, limits: ExecLimits) -> String {
    let a = PythonBackend.compile(p, &CompileOptions::default()).expect("compiles");
    let args: Literal = serde_json::from_str(args).expect("args");
    match PythonBackend.execute(&a, &args, &limits) {
        Ok(v) => v.to_string(),
        Err(d) if d.kind == "RuntimeError" => {
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
                    vec![set("S1_1_1", "total", bin(B::Add, var("total", Type::Int), var("x", Type::Int)))],
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

fn with_packs(p: &Program, args: &str) -> String {
    use isu_plugin_api::{Lowering, Pack};
    let pack = isu_pack_math::MathPack;
    let lowerings: Vec<Lowering> = ["GCD", "IS_PRIME"]
        .iter()
        .map(|f| Lowering {
            function: format!("math.{f}"),
            target: "python".into(),
            source: pack.lower(f, "python").expect("a python lowering"),
        })
        .collect();
    let options = CompileOptions {
        target: "python".into(),
        emit: vec![],
        lowerings,
    };
    let a = PythonBackend.compile(p, &options).expect("compiles");
    let args: Literal = serde_json::from_str(args).expect("args");
    match PythonBackend.execute(&a, &args, &LIMITS) {
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
