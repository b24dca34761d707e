//! The JSON Schemas under `spec/` are the ones `isu schema` prints (from the
//! code; `ISU_BLESS=1` rewrites them), each is a valid 2020-12 schema, and the
//! diagnostic schema covers every field of `Diagnostic`. That the schemas
//! accept every IIR and diagnostic the tests produce is checked in
//! `grammar_agreement.rs`, with Python's jsonschema too.

mod common;

use isu_host::diag::{Fix, Label, Location, LoopRound, ValueChange, VarValue};
use isu_host::llm::Decision;
use isu_host::schema::{self, Which};
use isu_host::{Code, Diagnostic, Kind, Severity};
use serde_json::{json, Value};
use std::path::Path;

const FILES: &[(Which, &str)] = &[
    (Which::Iir, "iir.schema.json"),
    (Which::Diagnostic, "diagnostic.schema.json"),
    (Which::Envelope, "envelope.schema.json"),
    (Which::Patch, "patch-report.schema.json"),
];

fn validator(which: Which) -> jsonschema::Validator {
    let s = schema::schema(which, &[]);
    jsonschema::draft202012::meta::validate(&s).unwrap_or_else(|e| panic!("{which:?}: {e}"));
    jsonschema::validator_for(&s).unwrap_or_else(|e| panic!("{which:?}: {e}"))
}

fn errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc).map(|e| e.to_string()).collect()
}

#[test]
fn spec_schemas_are_the_generated_ones() {
    for (which, file) in FILES {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../spec")
            .join(file);
        let text = schema::pretty(&schema::schema(*which, &[]));
        common::snapshot::check(&path, &text).unwrap_or_else(|e| panic!("{e}"));
        let _ = validator(*which);
    }
}

/// A diagnostic with every field set: a field added to `Diagnostic` must be
/// added here (the literal names them all), and then to the schema, which
/// refuses unknown properties.
fn full_diagnostic() -> Diagnostic {
    let span = Location {
        line: 2,
        column: 3,
        start: 10,
        end: 14,
    };
    Diagnostic {
        kind: Kind::RuntimeError,
        code: Code::Runtime(isu_plugin_api::RuntimeCode::DivisionByZero),
        severity: Severity::Error,
        step: isu_plugin_api::StepId::parse("S2_1"),
        source_step: Some("S5_1".into()),
        span: Some(span),
        message: "division by zero".into(),
        expected: Some(json!(1)),
        actual: Some(json!([0])),
        vars: vec![VarValue {
            name: "n".into(),
            value: json!(0),
        }],
        rounds: vec![LoopRound {
            step: "S2".into(),
            round: 3,
            var: Some("x".into()),
            value: Some(json!(0)),
        }],
        history: vec![ValueChange {
            step: "S2_1".into(),
            var: "m".into(),
            index: vec![json!("k")],
            value: json!(1),
            round: Some(LoopRound {
                step: "S2".into(),
                round: 2,
                var: None,
                value: None,
            }),
        }],
        hint: Some("check n first".into()),
        fix: Some(Fix::replace(
            isu_plugin_api::Span {
                lo: 10,
                hi: 14,
                line: 2,
                col: 3,
            },
            "(var n)",
        )),
        labels: vec![Label {
            span,
            message: "here".into(),
        }],
        notes: vec!["n is the divisor".into()],
        pending: None,
    }
}

#[test]
fn the_diagnostic_schema_covers_every_field() {
    let v = validator(Which::Diagnostic);
    let full = full_diagnostic().to_json();
    assert_eq!(errors(&v, &full), Vec::<String>::new());
    // Each kind with its own codes only.
    let mut wrong = full.clone();
    wrong["kind"] = json!("ParseError");
    assert!(
        !errors(&v, &wrong).is_empty(),
        "a runtime code under ParseError"
    );
    let mut extra = full.clone();
    extra["note"] = json!("x");
    assert!(!errors(&v, &extra).is_empty(), "an unknown field");
    for code in Code::ALL {
        let d = Diagnostic::error(code, "m").to_json();
        assert_eq!(errors(&v, &d), Vec::<String>::new(), "{code}");
    }
}

#[test]
fn the_envelope_schema_restricts_decisions() {
    let all = validator(Which::Envelope);
    let first = jsonschema::validator_for(&schema::schema(
        Which::Envelope,
        &[Decision::Submit, Decision::GiveUp],
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let reply = |d: &str| json!({"decision": d, "artifact": "PATCH:\n", "reason": "r"});
    assert!(errors(&all, &reply("patch")).is_empty());
    assert!(!errors(&first, &reply("patch")).is_empty());
    assert!(errors(&first, &reply("give_up")).is_empty());
    assert!(!errors(&all, &json!({"decision": "submit", "artifact": "x"})).is_empty());
    assert!(!errors(
        &all,
        &json!({"decision": "submit", "artifact": "x", "reason": "", "extra": 1})
    )
    .is_empty());
    let long = "r".repeat(isu_host::llm::envelope::MAX_REASON + 1);
    assert!(!errors(
        &all,
        &json!({"decision": "submit", "artifact": "x", "reason": long})
    )
    .is_empty());
}
