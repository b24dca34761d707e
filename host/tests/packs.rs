//! Pack functions in the front end: the validator types `(call ns.NAME ...)`
//! by the pack's declared signature, and a program calling a function no
//! loaded pack provides is refused. The pack here is linked in-process; the
//! same table is filled from pack plugins by `Registry::load`
//! (`tests/plugins.rs`).

use isu_host::functions::Functions;
use isu_host::interp::{self, RunOptions};
use isu_host::{pipeline, Source};
use isu_plugin_api::{Literal, Pack, PackFunction, PackInfo, PluginDiagnostic};
use std::sync::Arc;

#[derive(Debug)]
struct Text;

impl Pack for Text {
    fn info(&self) -> PackInfo {
        PackInfo {
            namespace: "text".into(),
            version: "0.1.0".into(),
            functions: vec![
                PackFunction {
                    name: "COUNT".into(),
                    signature: "(string, string) -> int".into(),
                    doc: "How often the second string occurs in the first.".into(),
                    errors: Vec::new(),
                },
                PackFunction {
                    name: "BROKEN".into(),
                    signature: "(string) -> int".into(),
                    doc: "Answers a string where it declares an int.".into(),
                    errors: Vec::new(),
                },
                PackFunction {
                    name: "NOT_INT".into(),
                    signature: "(int) -> int".into(),
                    doc: "Answers a bool where it declares an int.".into(),
                    errors: Vec::new(),
                },
                PackFunction {
                    name: "NOT_BOOL".into(),
                    signature: "(int) -> bool".into(),
                    doc: "Answers an int where it declares a bool.".into(),
                    errors: Vec::new(),
                },
            ],
        }
    }

    fn call(&self, function: &str, args: &[Literal]) -> Result<Literal, PluginDiagnostic> {
        match function {
            "BROKEN" => return Ok(Literal::Str("seven".into())),
            "NOT_INT" => return Ok(Literal::Bool(true)),
            "NOT_BOOL" => return Ok(Literal::Int(1)),
            _ => {}
        }
        match args {
            [Literal::Str(hay), Literal::Str(needle)] if !needle.is_empty() => {
                Ok(Literal::Int(hay.matches(needle.as_str()).count() as i64))
            }
            _ => Err(PluginDiagnostic::runtime(
                "invalid_argument",
                None,
                "empty needle",
            )),
        }
    }

    fn lower(&self, _: &str, _: &str) -> Option<String> {
        None
    }
}

fn packs() -> Functions {
    let mut t = Functions::default();
    t.add_local(Arc::new(Text));
    t
}

fn program(ret: &str, expr: &str) -> String {
    format!(
        "META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: [s: string]\n  RETURNS: {ret}\nSTEPS:\n  SEQ: BEGIN\n    RETURN:\n      EXPR: {expr}\n  END\n"
    )
}

/// The codes and messages of the errors of checking `text` with `packs`.
fn errors(text: &str, packs: &Functions) -> Vec<(String, String)> {
    let fe = pipeline::check_with(&Source::new("t.isu", text), packs);
    fe.diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code.as_str().to_owned(), d.message.clone()))
        .collect()
}

#[test]
fn a_pack_call_is_typed_by_its_signature() {
    let text = program("int", "(call text.COUNT (var s) (const \"a\"))");
    let fe = pipeline::check_with(&Source::new("t.isu", &text), &packs());
    assert!(fe.diags.is_empty(), "{:?}", fe.diags);
    let json = serde_json::to_value(fe.valid_program()).unwrap_or_default();
    let ret = &json["body"]["steps"][0]["node"]["expr"];
    assert_eq!(ret["ty"], "int");
    assert_eq!(ret["node"]["args"][1]["ty"], "string");
}

#[test]
fn without_the_pack_the_function_is_unknown() {
    let text = program("int", "(call text.COUNT (var s) (const \"a\"))");
    let errs = errors(&text, &Functions::default());
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].0, "unknown_function");
    assert!(
        errs[0]
            .1
            .contains("no loaded pack has the namespace `text`"),
        "{}",
        errs[0].1
    );
}

#[test]
fn pack_calls_report_arity_and_types() {
    let p = packs();
    let arity = errors(&program("int", "(call text.COUNT (var s))"), &p);
    assert_eq!(
        arity,
        [(
            "wrong_arity".to_owned(),
            "text.COUNT takes 2 arguments, but 1 is given".to_owned()
        )]
    );
    let arg = errors(&program("int", "(call text.COUNT (var s) (const 1))"), &p);
    assert_eq!(arg.len(), 1);
    assert_eq!(arg[0].0, "type_mismatch");
    assert!(
        arg[0].1.contains("argument 2 of text.COUNT"),
        "{}",
        arg[0].1
    );
    let ret = errors(&program("bool", "(call text.COUNT (var s) (var s))"), &p);
    assert_eq!(ret.len(), 1, "{ret:?}");
    assert_eq!(ret[0].0, "return_type_mismatch");
}

#[test]
fn the_table_calls_the_pack() {
    let p = packs();
    let count = p.get("text.COUNT").map(|f| {
        f.call(
            &[Literal::Str("banana".into()), Literal::Str("an".into())],
            u64::MAX,
        )
    });
    assert_eq!(count, Some(Ok(Literal::Int(2))));
    assert_eq!(
        p.get("text.COUNT").map(|f| f.lower("python")),
        Some(Ok(None))
    );
}

#[test]
fn the_interpreter_calls_pack_functions_and_names_the_calling_step() {
    let p = packs();
    let text = program("int", "(call text.COUNT (var s) (const \"an\"))");
    let fe = pipeline::check_with(&Source::new("t.isu", &text), &p);
    let Some(prog) = fe.valid_program() else {
        panic!("{:?}", fe.diags);
    };
    let run = |s: &str, packs: &Functions| {
        interp::run_with(
            prog,
            &serde_json::json!({ "s": s }),
            &RunOptions::default(),
            None,
            packs,
        )
        .map_err(|d| (d.code.as_str().to_owned(), d.step.map(|s| s.to_string())))
    };
    assert_eq!(run("banana", &p), Ok(Literal::Int(2)));
    let text = program("int", "(call text.COUNT (var s) (var s))");
    let fe = pipeline::check_with(&Source::new("t.isu", &text), &p);
    let Some(empty) = fe.valid_program() else {
        panic!("{:?}", fe.diags);
    };
    let err = interp::run_with(
        empty,
        &serde_json::json!({"s": ""}),
        &RunOptions::default(),
        None,
        &p,
    );
    let err = err.map_err(|d| (d.code.as_str().to_owned(), d.step.map(|s| s.to_string())));
    assert_eq!(err, Err(("invalid_argument".into(), Some("S1".into()))));
    let without = interp::run(
        prog,
        &serde_json::json!({"s": "x"}),
        &RunOptions::default(),
        None,
    );
    assert_eq!(
        without.map_err(|d| d.code.as_str()),
        Err("unknown_function")
    );
}

#[test]
fn a_pack_answering_the_wrong_type_is_a_pack_failure() {
    let p = packs();
    let text = program("int", "(call text.BROKEN (var s))");
    let fe = pipeline::check_with(&Source::new("t.isu", &text), &p);
    let Some(prog) = fe.valid_program() else {
        panic!("{:?}", fe.diags);
    };
    let err = interp::run_with(
        prog,
        &serde_json::json!({"s": "x"}),
        &RunOptions::default(),
        None,
        &p,
    );
    let Err(d) = err else {
        panic!("{err:?}");
    };
    assert_eq!(
        (d.code.as_str(), d.step.map(|s| s.to_string())),
        ("pack_failed", Some("S1".into()))
    );
    assert!(
        d.message
            .contains("text.BROKEN returned \"seven\", which is not of type int"),
        "{}",
        d.message
    );
}

#[test]
fn a_scalar_pack_answering_the_wrong_scalar_is_a_pack_failure_in_typed_expressions() {
    // Scalar functions are called on scalars, and the int and bool
    // evaluators read their results directly: a result of the wrong type
    // is `pack_failed` there as anywhere.
    let p = packs();
    for (ret, expr, said) in [
        (
            "int",
            "(add (call text.NOT_INT (const 3)) (const 1))",
            "text.NOT_INT returned true, which is not of type int",
        ),
        (
            "bool",
            "(not (call text.NOT_BOOL (const 3)))",
            "text.NOT_BOOL returned 1, which is not of type bool",
        ),
    ] {
        let text = program(ret, expr);
        let fe = pipeline::check_with(&Source::new("t.isu", &text), &p);
        let Some(prog) = fe.valid_program() else {
            panic!("{:?}", fe.diags);
        };
        let err = interp::run_with(
            prog,
            &serde_json::json!({"s": "x"}),
            &RunOptions::default(),
            None,
            &p,
        );
        let Err(d) = err else {
            panic!("{expr}: {err:?}");
        };
        assert_eq!(
            (d.code.as_str(), d.step.map(|s| s.to_string())),
            ("pack_failed", Some("S1".into())),
            "{expr}"
        );
        assert!(d.message.contains(said), "{expr}: {}", d.message);
    }
}
