//! The schema of one diagnostic (design.md section 3), from the table of
//! codes in `diag.rs`: each kind with exactly its codes.

use super::iir::step_id;
use super::{described, object, DRAFT};
use crate::diag::{Code, Kind};
use serde_json::{json, Value};

pub fn diagnostic() -> Value {
    let location = object(
        vec![
            ("line", json!({ "type": "integer", "minimum": 0 })),
            ("column", json!({ "type": "integer", "minimum": 0 })),
            ("start", json!({ "type": "integer", "minimum": 0 })),
            ("end", json!({ "type": "integer", "minimum": 0 })),
        ],
        &["line", "column", "start", "end"],
    );
    let by_kind: Vec<Value> = Kind::ALL
        .iter()
        .map(|&kind| {
            let codes: Vec<&str> = Code::ALL
                .iter()
                .filter(|c| c.kind() == kind)
                .map(|c| c.as_str())
                .collect();
            json!({
                "properties": {
                    "kind": { "const": kind.as_str() },
                    "code": { "enum": codes },
                },
            })
        })
        .collect();
    let mut root = object(
        vec![
            (
                "kind",
                json!({ "enum": Kind::ALL.iter().map(|k| k.as_str()).collect::<Vec<_>>() }),
            ),
            (
                "code",
                described(
                    json!({ "type": "string" }),
                    "A stable code of spec/errors.md.",
                ),
            ),
            ("severity", json!({ "enum": ["error", "warning"] })),
            (
                "step",
                described(step_id(), "The step the error belongs to (its canonical ID)."),
            ),
            (
                "source_step",
                described(
                    json!({ "type": "string", "minLength": 1 }),
                    "The ID written on that step in the source, when it is not `step`.",
                ),
            ),
            (
                "span",
                described(
                    json!({ "$ref": "#/$defs/Location" }),
                    "Where in the source text.",
                ),
            ),
            ("message", json!({ "type": "string", "minLength": 1 })),
            (
                "expected",
                described(json!({}), "What was expected (any JSON)."),
            ),
            ("actual", described(json!({}), "What there was (any JSON).")),
            (
                "vars",
                described(
                    json!({
                        "type": "array",
                        "minItems": 1,
                        "items": object(
                            vec![("name", json!({ "type": "string" })), ("value", json!({}))],
                            &["name", "value"],
                        ),
                    }),
                    "The variables the failing step read, with their values.",
                ),
            ),
            (
                "rounds",
                described(
                    json!({ "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/LoopRound" } }),
                    "The loop rounds in progress when a runtime error happened, outermost first.",
                ),
            ),
            (
                "history",
                described(
                    json!({
                        "type": "array",
                        "minItems": 1,
                        "items": object(
                            vec![
                                ("step", step_id()),
                                ("var", json!({ "type": "string" })),
                                ("index", json!({ "type": "array", "minItems": 1 })),
                                ("value", json!({})),
                                ("round", json!({ "$ref": "#/$defs/LoopRound" })),
                            ],
                            &["step", "var", "value"],
                        ),
                    }),
                    "For a test_mismatch: the returned variables' values after each step that changed them (the last 20).",
                ),
            ),
            ("hint", json!({ "type": "string", "minLength": 1 })),
            (
                "fix",
                described(
                    object(
                        vec![
                            (
                                "applicability",
                                json!({ "enum": ["machine_applicable", "maybe_incorrect"] }),
                            ),
                            (
                                "edits",
                                json!({
                                    "type": "array",
                                    "minItems": 1,
                                    "items": object(
                                        vec![
                                            ("span", json!({ "$ref": "#/$defs/Location" })),
                                            ("replacement", json!({ "type": "string" })),
                                        ],
                                        &["span", "replacement"],
                                    ),
                                }),
                            ),
                        ],
                        &["applicability", "edits"],
                    ),
                    "An edit of the text that repairs what is reported; `isu fix` applies the machine_applicable ones.",
                ),
            ),
            (
                "labels",
                json!({
                    "type": "array",
                    "minItems": 1,
                    "items": object(
                        vec![("span", json!({ "$ref": "#/$defs/Location" })), ("message", json!({ "type": "string" }))],
                        &["span", "message"],
                    ),
                }),
            ),
            (
                "notes",
                described(
                    json!({
                        "type": "array",
                        "minItems": 1,
                        "items": { "type": "string", "minLength": 1 },
                    }),
                    "More lines of explanation (a backend's notes).",
                ),
            ),
        ],
        &["kind", "code", "severity", "message"],
    );
    if let Some(obj) = root.as_object_mut() {
        obj.insert("$schema".into(), json!(DRAFT));
        obj.insert(
            "$id".into(),
            json!("https://isu.dev/spec/diagnostic.schema.json"),
        );
        obj.insert("title".into(), json!("An Isu diagnostic"));
        obj.insert(
            "description".into(),
            json!("One error or warning of any phase (design.md section 3); each kind has its own codes."),
        );
        obj.insert("oneOf".into(), Value::Array(by_kind));
        let round = object(
            vec![
                ("step", step_id()),
                ("round", json!({ "type": "integer", "minimum": 0 })),
                ("var", json!({ "type": "string" })),
                ("value", json!({})),
            ],
            &["step", "round"],
        );
        obj.insert(
            "$defs".into(),
            json!({
                "Location": described(location, "Line and column (1-based, column in Unicode scalar values) and byte offsets start..end."),
                "LoopRound": described(round, "A loop round: the LOOP's step, the round (from 1), and the loop variable's value in it."),
            }),
        );
    }
    root
}
