//! The input and output schemas (JSON Schema 2020-12) of the three tools.

use serde_json::{json, Value};

const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// One diagnostic, as `spec/errors.md` shapes it.
fn diagnostic() -> Value {
    json!({
        "type": "object",
        "required": ["kind", "code", "severity", "message"],
        "properties": {
            "kind": {"type": "string"},
            "code": {"type": "string"},
            "severity": {"enum": ["error", "warning"]},
            "step": {"type": "string"},
            "message": {"type": "string"},
            "hint": {"type": "string"},
        },
    })
}

/// The members every answer has: `ok` and `diagnostics`.
fn answer(required: &[&str], properties: Value) -> Value {
    let mut props = json!({
        "ok": {"type": "boolean"},
        "diagnostics": {"type": "array", "items": diagnostic()},
    });
    if let (Some(all), Some(more)) = (props.as_object_mut(), properties.as_object()) {
        all.extend(more.clone());
    }
    let mut req = vec!["ok", "diagnostics"];
    req.extend(required);
    json!({"$schema": DIALECT, "type": "object", "required": req, "properties": props})
}

pub fn tree_input() -> Value {
    json!({
        "$schema": DIALECT,
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "the object to start from: \"\" is the root; e.g. programs, programs/examples/sum_evens.isu, stdlib", "default": ""},
            "depth": {"type": "integer", "minimum": 0, "maximum": super::MAX_TREE_DEPTH, "default": 1, "description": "how many levels below the path to list (0: the object alone)"},
        },
        "additionalProperties": false,
    })
}

pub fn tree_output() -> Value {
    answer(
        &[],
        json!({
            "objects": {"type": "integer", "description": "how many objects the tree lists"},
            "tree": {"$ref": "#/$defs/node"},
        }),
    )
    .as_object()
    .map(|o| {
        let mut o = o.clone();
        o.insert(
            "$defs".into(),
            json!({"node": {
                "type": "object",
                "required": ["name", "path", "kind", "children"],
                "properties": {
                    "name": {"type": "string"},
                    "path": {"type": "string"},
                    "kind": {"type": "string"},
                    "children": {
                        "description": "every child, or null when the node is at the depth's edge (or its program does not parse)",
                        "anyOf": [{"type": "array", "items": {"$ref": "#/$defs/node"}}, {"type": "null"}],
                    },
                    "error": diagnostic(),
                },
            }}),
        );
        Value::Object(o)
    })
    .unwrap_or(Value::Null)
}

pub fn inspect_input() -> Value {
    json!({
        "$schema": DIALECT,
        "type": "object",
        "required": ["path"],
        "properties": {
            "path": {"type": "string", "description": "the object's path, as tree shows it"},
        },
        "additionalProperties": false,
    })
}

pub fn inspect_output() -> Value {
    answer(
        &[],
        json!({
            "path": {"type": "string"},
            "kind": {"type": "string"},
            "description": {"type": "string"},
            "data": {"type": "object"},
            "interfaces": {"type": "array", "items": {
                "type": "object",
                "required": ["name", "doc", "operations"],
                "properties": {
                    "name": {"type": "string"},
                    "doc": {"type": "string"},
                    "operations": {"type": "array", "items": {
                        "type": "object",
                        "required": ["name", "doc", "signature", "params"],
                        "properties": {
                            "name": {"type": "string"},
                            "doc": {"type": "string"},
                            "signature": {"type": "string"},
                            "params": {"type": "array", "items": {
                                "type": "object",
                                "required": ["name", "type", "required", "doc"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "type": {"type": "string"},
                                    "required": {"type": "boolean"},
                                    "doc": {"type": "string"},
                                },
                            }},
                        },
                    }},
                },
            }},
        }),
    )
}

pub fn invoke_input() -> Value {
    json!({
        "$schema": DIALECT,
        "type": "object",
        "required": ["target", "interface", "operation"],
        "properties": {
            "target": {"type": "string", "description": "the object's path"},
            "interface": {"type": "string", "description": "the interface, as inspect names it (isu.program, isu.step, isu.backend, isu.function)"},
            "operation": {"type": "string", "description": "the operation of that interface"},
            "arguments": {"type": "object", "description": "the named arguments ({} for none)", "default": {}},
        },
        "additionalProperties": false,
    })
}

pub fn invoke_output() -> Value {
    answer(
        &[],
        json!({
            "outcome": {"enum": ["ok", "failed", "unknown"], "description": "unknown: the call did not finish in time and was not retried"},
            "target": {"type": "string"},
            "interface": {"type": "string"},
            "operation": {"type": "string"},
            "result": {"type": "object", "description": "the operation's own members (see its signature)"},
            "reference_errors": {"type": "array", "items": {"type": "string"}, "description": "references the succeeded operation could not fetch"},
        }),
    )
}
