//! The schema of the IIR JSON (`spec/iir.schema.json`), from the data model
//! of `isu_plugin_api::iir`: its format version, its operators, its step IDs.

use super::{described, object, r, DRAFT};
use isu_plugin_api::{BinaryOp, UnaryOp, IIR_FORMAT};
use serde_json::{json, Value};

/// The pattern every step ID matches (see `StepId::parse`).
pub fn step_id() -> Value {
    json!({ "type": "string", "pattern": "^S[1-9][0-9]{0,8}(_[1-9][0-9]{0,8})*$" })
}

fn name() -> Value {
    json!({ "type": "string", "minLength": 1 })
}

fn array_of(def: &str) -> Value {
    json!({ "type": "array", "items": r(def) })
}

/// One of a tagged union's variants: `tag` holds `value`.
fn variant(tag: &str, value: &str, props: Vec<(&str, Value)>, required: &[&str]) -> Value {
    let mut all = vec![(tag, json!({ "const": value }))];
    all.extend(props);
    let mut req = vec![tag];
    req.extend_from_slice(required);
    object(all, &req)
}

pub fn iir() -> Value {
    let span = r("Span");
    let expr = r("Expr");
    let block = r("Block");
    let unary: Vec<&str> = UnaryOp::ALL.iter().map(|o| o.name()).collect();
    let binary: Vec<&str> = BinaryOp::ALL.iter().map(|o| o.name()).collect();
    let defs = json!({
        "Span": described(
            object(
                ["lo", "hi", "line", "col"]
                    .iter()
                    .map(|k| (*k, json!({ "type": "integer", "minimum": 0 })))
                    .collect(),
                &["lo", "hi", "line", "col"],
            ),
            "Byte offsets lo..hi of the source; line and col (1-based, col in Unicode scalar values) of lo. All zeros: made by no source text.",
        ),
        "StepId": described(step_id(), "S1, S2_1, ...: canonical IDs follow the structural scheme of spec/canonical.md."),
        "Type": {
            "description": "int, float, bool, string, {\"array\": T}, {\"map\": [K, V]}, {\"struct\": NAME}",
            "oneOf": [
                { "enum": ["int", "float", "bool", "string"] },
                object(vec![("array", r("Type"))], &["array"]),
                object(
                    vec![(
                        "map",
                        json!({
                            "type": "array",
                            "prefixItems": [r("Type"), r("Type")],
                            "minItems": 2,
                            "maxItems": 2,
                        }),
                    )],
                    &["map"],
                ),
                object(vec![("struct", name())], &["struct"]),
            ],
        },
        "StructDef": described(
            object(
                vec![
                    ("name", r("Ident")),
                    ("fields", json!({ "type": "array", "items": r("Decl"), "minItems": 1 })),
                    ("span", span.clone()),
                ],
                &["name", "fields", "span"],
            ),
            "A struct of TYPES: its fields in declaration order.",
        ),
        "FieldInit": object(vec![("name", r("Ident")), ("value", expr.clone())], &["name", "value"]),
        "Literal": {
            "description": "JSON without null. A number written without a fraction or an exponent is a 64-bit signed int; one with either is a float (finite binary64; 2.0 is a float).",
            "anyOf": [
                { "type": "boolean" },
                { "type": "integer", "minimum": i64::MIN, "maximum": i64::MAX },
                { "type": "number" },
                { "type": "string" },
                { "type": "array", "items": r("Literal") },
                { "type": "object", "additionalProperties": r("Literal") },
            ],
        },
        "Ident": object(vec![("name", name()), ("span", span.clone())], &["name", "span"]),
        "Decl": object(
            vec![("name", r("Ident")), ("ty", r("Type")), ("span", span.clone())],
            &["name", "ty", "span"],
        ),
        "StateVar": object(
            vec![
                ("name", r("Ident")),
                ("ty", r("Type")),
                ("init", expr.clone()),
                ("span", span.clone()),
            ],
            &["name", "ty", "init", "span"],
        ),
        "Example": object(vec![("value", r("Literal")), ("span", span.clone())], &["value", "span"]),
        "Io": object(
            vec![
                ("input", array_of("Example")),
                ("output", array_of("Example")),
                ("span", span.clone()),
            ],
            &["input", "output", "span"],
        ),
        "Func": object(
            vec![
                ("name", r("Ident")),
                ("args", array_of("Decl")),
                ("returns", r("Type")),
                ("span", span.clone()),
            ],
            &["name", "args", "returns", "span"],
        ),
        "Block": object(vec![("steps", array_of("Step")), ("span", span.clone())], &["steps", "span"]),
        "Step": described(
            object(
                vec![
                    ("id", r("StepId")),
                    ("desc", json!({ "type": "string" })),
                    ("span", span.clone()),
                    ("node", r("Node")),
                ],
                &["id", "span", "node"],
            ),
            "A statement with its header. Canonical IIR gives every step its ID.",
        ),
        "Node": { "oneOf": [
            variant("kind", "seq", vec![("block", block.clone())], &["block"]),
            variant("kind", "assign", vec![("target", r("Place")), ("expr", expr.clone())], &["target", "expr"]),
            variant(
                "kind",
                "if",
                vec![("cond", expr.clone()), ("then", block.clone()), ("else", block.clone())],
                &["cond", "then", "else"],
            ),
            variant("kind", "loop", vec![("iter", r("Iter")), ("body", block.clone())], &["iter", "body"]),
            variant("kind", "return", vec![("expr", expr.clone())], &["expr"]),
            variant("kind", "break", vec![], &[]),
            variant("kind", "continue", vec![], &[]),
        ]},
        "Place": { "oneOf": [
            variant("place", "var", vec![("name", name()), ("span", span.clone())], &["name", "span"]),
            variant(
                "place",
                "index",
                vec![("base", r("Place")), ("index", expr.clone()), ("span", span.clone())],
                &["base", "index", "span"],
            ),
            variant(
                "place",
                "field",
                vec![("base", r("Place")), ("field", r("Ident")), ("span", span.clone())],
                &["base", "field", "span"],
            ),
        ]},
        "Iter": { "oneOf": [
            variant(
                "iter",
                "range",
                vec![
                    ("var", r("Ident")),
                    ("start", expr.clone()),
                    ("end", expr.clone()),
                    ("step", expr.clone()),
                    ("span", span.clone()),
                ],
                &["var", "start", "end", "span"],
            ),
            variant(
                "iter",
                "each",
                vec![("var", r("Ident")), ("seq", expr.clone()), ("span", span.clone())],
                &["var", "seq", "span"],
            ),
            variant("iter", "while", vec![("cond", expr.clone()), ("span", span.clone())], &["cond", "span"]),
        ]},
        "Expr": described(
            object(
                vec![("span", span.clone()), ("ty", r("Type")), ("node", r("ExprNode"))],
                &["span", "node"],
            ),
            "An expression; ty is set on every expression of a validated program. Errors in it belong to the enclosing step.",
        ),
        "ExprNode": { "oneOf": [
            variant("expr", "const", vec![("value", r("Literal"))], &["value"]),
            variant("expr", "var", vec![("name", name())], &["name"]),
            variant("expr", "unary", vec![("op", json!({ "enum": unary })), ("arg", expr.clone())], &["op", "arg"]),
            variant(
                "expr",
                "binary",
                vec![("op", json!({ "enum": binary })), ("lhs", expr.clone()), ("rhs", expr.clone())],
                &["op", "lhs", "rhs"],
            ),
            variant("expr", "index", vec![("base", expr.clone()), ("index", expr.clone())], &["base", "index"]),
            variant(
                "expr",
                "call",
                vec![
                    ("func", described(name(), "A standard function (LEN) or a pack's namespaced one (math.GCD).")),
                    ("args", array_of("Expr")),
                ],
                &["func", "args"],
            ),
            variant(
                "expr",
                "struct",
                vec![("name", name()), ("fields", array_of("FieldInit"))],
                &["name", "fields"],
            ),
            variant("expr", "field", vec![("base", expr.clone()), ("field", r("Ident"))], &["base", "field"]),
            variant("expr", "list", vec![("items", json!({ "type": "array", "items": expr.clone(), "minItems": 1 }))], &["items"]),
            variant(
                "expr",
                "if",
                vec![("cond", expr.clone()), ("then", expr.clone()), ("else", expr.clone())],
                &["cond", "then", "else"],
            ),
        ]},
    });
    let mut root = object(
        vec![
            ("format", json!({ "const": IIR_FORMAT })),
            ("auto_id", json!({ "type": "boolean" })),
            ("func", r("Func")),
            ("types", array_of("StructDef")),
            ("io", r("Io")),
            ("state", array_of("StateVar")),
            ("locals", array_of("Decl")),
            ("body", block),
        ],
        &["format", "auto_id", "func", "io", "state", "locals", "body"],
    );
    if let Some(obj) = root.as_object_mut() {
        obj.insert("$schema".into(), json!(DRAFT));
        obj.insert("$id".into(), json!("https://isu.dev/spec/iir.schema.json"));
        obj.insert(
            "title".into(),
            json!("IIR: the Isu intermediate representation"),
        );
        obj.insert(
            "description".into(),
            json!(format!("The canonical IIR of one Isu program, as `isu parse` prints it. Format {IIR_FORMAT}.")),
        );
        obj.insert("$defs".into(), defs);
    }
    root
}
