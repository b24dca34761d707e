//! JSON Schemas (draft 2020-12) of the JSON the toolchain reads and writes:
//! the IIR (`spec/iir.schema.json`), diagnostics, the reply envelope of the
//! repair loop and the report of `isu patch --format json`. Each is built
//! from the tables of the code it describes (operators, error codes,
//! decisions), so it cannot drift from them; tests validate every IIR and
//! diagnostic the test suite produces against them.

mod diagnostic;
mod iir;

use crate::llm::Decision;
use serde_json::{json, Map, Value};

pub use diagnostic::diagnostic;
pub use iir::iir;

/// The schemas `isu schema` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Which {
    /// The IIR JSON of `isu parse`.
    Iir,
    /// A model's reply in `isu gen` and `isu repair`.
    Envelope,
    /// One diagnostic, as every `--format json` report lists them.
    Diagnostic,
    /// The report of `isu patch --format json`.
    Patch,
}

/// The schema; `allow` restricts the envelope's decisions (empty: all).
pub fn schema(which: Which, allow: &[Decision]) -> Value {
    match which {
        Which::Iir => iir(),
        Which::Envelope => crate::llm::envelope::schema(allow),
        Which::Diagnostic => diagnostic(),
        Which::Patch => patch_report(),
    }
}

/// The text of a schema as committed under `spec/`: pretty, keys sorted,
/// with a final line break.
pub fn pretty(schema: &Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}

/// The JSON Schema dialect of every schema here.
pub const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// `{"$ref": "#/$defs/NAME"}`.
pub(crate) fn r(name: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{name}") })
}

/// A closed object: these properties, the `required` ones required, no others.
pub(crate) fn object(props: Vec<(&str, Value)>, required: &[&str]) -> Value {
    let properties: Map<String, Value> =
        props.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// `value` with a `description`.
pub(crate) fn described(mut value: Value, text: &str) -> Value {
    if let Some(obj) = value.as_object_mut() {
        obj.insert("description".into(), Value::String(text.to_owned()));
    }
    value
}

/// The report of `isu patch --format json`: whether the result validates,
/// every diagnostic (of the patched text, or those that refused the patch),
/// and when it applied, the patched text, the old → new map of renumbered
/// step IDs and whether FILE was rewritten.
fn patch_report() -> Value {
    let mut s = object(
        vec![
            ("ok", json!({"type": "boolean"})),
            (
                "diagnostics",
                json!({"type": "array", "items": {"$ref": "#/$defs/Diagnostic"}}),
            ),
            (
                "text",
                described(
                    json!({"type": "string"}),
                    "The patched text: canonical when it parses.",
                ),
            ),
            (
                "written",
                described(
                    json!({"type": "boolean"}),
                    "Whether --write rewrote FILE (only a valid result, unless --allow-invalid).",
                ),
            ),
            (
                "renumbered",
                described(
                    json!({
                        "type": "object",
                        "propertyNames": iir::step_id(),
                        "additionalProperties": iir::step_id(),
                    }),
                    "Old -> new IDs of the steps that inserts or DELETE renumbered.",
                ),
            ),
        ],
        &["ok", "diagnostics"],
    );
    let diag = diagnostic();
    if let Some(obj) = s.as_object_mut() {
        obj.insert("$schema".into(), json!(DRAFT));
        obj.insert(
            "$id".into(),
            json!("https://isu.dev/spec/patch-report.schema.json"),
        );
        obj.insert(
            "title".into(),
            json!("The report of isu patch --format json"),
        );
        let mut defs = diag.get("$defs").cloned().unwrap_or_else(|| json!({}));
        if let Some(d) = defs.as_object_mut() {
            let mut own = diag.clone();
            if let Some(o) = own.as_object_mut() {
                for k in ["$defs", "$schema", "$id", "title"] {
                    o.remove(k);
                }
            }
            d.insert("Diagnostic".into(), own);
        }
        obj.insert("$defs".into(), defs);
    }
    s
}
