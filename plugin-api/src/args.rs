//! A run's arguments checked against the program's `ARGS`, as the reference
//! interpreter checks them before it runs: a JSON object with every
//! argument and no other, each value of its declared type, a map with int
//! keys keyed by their canonical decimal text ([`crate::literal::int_key`]),
//! a struct with exactly its declared fields, a float as a float or as an
//! integer binary64 holds exactly ([`Literal::as_float`]: such an integer
//! is the float of its value, which [`crate::codec::Codec::encode`] makes it). Anything else is the runtime
//! error `invalid_argument` without a step (`spec/semantics.md`), which a
//! backend answers before it runs anything.
//!
//! ```
//! use isu_plugin_api::args::check_args;
//! use isu_plugin_api::build::{program, ret, var};
//! use isu_plugin_api::{Literal, Type};
//!
//! let n = var("n", Type::Int);
//! let p = program("id", &[("n", Type::Int)], Type::Int, vec![], &[], vec![ret("S1", n)]);
//! let ok: Literal = serde_json::from_str(r#"{"n": 3}"#).unwrap();
//! assert_eq!(check_args(&p, &ok).map(|a| a.len()), Ok(1));
//! let bad: Literal = serde_json::from_str(r#"{"n": true}"#).unwrap();
//! let err = check_args(&p, &bad).unwrap_err();
//! assert_eq!(err.code, "invalid_argument");
//! assert_eq!(err.message, "the argument `n` does not have its type int: expected an int, found a boolean");
//! ```

use crate::backend::PluginDiagnostic;
use crate::codes::RuntimeCode;
use crate::iir::{Program, StructDef};
use crate::literal::{int_key, write_json_string, Literal};
use crate::types::Type;
use std::fmt::Write as _;

/// Why a value is not of a type: where in the value (`[2]`, `["k"]`,
/// `.field`, empty at the top) and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The path to the part that is wrong, from the value's top.
    pub path: String,
    /// What is wrong there, one phrase.
    pub message: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at {} {}", self.path, self.message)
        }
    }
}

/// Checks that `value` is a value of `ty`, the structs it names declared in
/// `types` (the program's `TYPES`).
pub fn check_value(value: &Literal, ty: &Type, types: &[StructDef]) -> Result<(), Mismatch> {
    let mut path = String::new();
    walk(value, ty, types, &mut path).map_err(|message| Mismatch { path, message })
}

fn walk(value: &Literal, ty: &Type, types: &[StructDef], path: &mut String) -> Result<(), String> {
    let wrong = || {
        Err(format!(
            "expected {}, found {}",
            type_words(ty),
            value.kind_name()
        ))
    };
    match ty {
        Type::Int => match value {
            Literal::Int(_) => Ok(()),
            _ => wrong(),
        },
        Type::Float => match (value, value.as_float()) {
            (_, Some(_)) => Ok(()),
            (Literal::Int(i), None) => Err(format!(
                "expected a float, found the integer {i}, which no float equals (an integer stands for a float only when binary64 holds it exactly)"
            )),
            _ => wrong(),
        },
        Type::Bool => match value {
            Literal::Bool(_) => Ok(()),
            _ => wrong(),
        },
        Type::String => match value {
            Literal::Str(_) => Ok(()),
            _ => wrong(),
        },
        Type::Array(elem) => {
            let Literal::Array(items) = value else {
                return wrong();
            };
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                let _ = write!(path, "[{i}]");
                walk(item, elem, types, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        Type::Map(key, val) => {
            let Literal::Object(entries) = value else {
                return wrong();
            };
            for (k, v) in entries {
                let len = path.len();
                let mut quoted = String::new();
                let _ = write_json_string(&mut quoted, k);
                let _ = write!(path, "[{quoted}]");
                match **key {
                    Type::Int if int_key(k).is_none() => {
                        return Err(format!(
                            "the key {quoted} is not the decimal text of an int (map<{key},{val}> has int keys)"
                        ))
                    }
                    Type::Int | Type::String => {}
                    _ => {
                        return Err(format!(
                            "map<{key},{val}> cannot hold values: its key type is neither int nor string"
                        ))
                    }
                }
                walk(v, val, types, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        Type::Struct(name) => {
            let Literal::Object(entries) = value else {
                return wrong();
            };
            let def = types
                .iter()
                .find(|d| d.name.name == *name)
                .ok_or_else(|| format!("{name} is no struct of the program"))?;
            if let Some(extra) = entries.keys().find(|k| def.field(k).is_none()) {
                return Err(format!("{name} has no field {extra}"));
            }
            for field in &def.fields {
                let f = &field.name.name;
                let v = entries
                    .get(f)
                    .ok_or_else(|| format!("the field {f} of {name} is missing"))?;
                let len = path.len();
                let _ = write!(path, ".{f}");
                walk(v, &field.ty, types, path)?;
                path.truncate(len);
            }
            Ok(())
        }
    }
}

/// How a message names what a type wants: `an int`, `an array (int[])`.
fn type_words(ty: &Type) -> String {
    match ty {
        Type::Int => "an int".to_owned(),
        Type::Float => "a float".to_owned(),
        Type::Bool => "a bool".to_owned(),
        Type::String => "a string".to_owned(),
        Type::Array(_) => format!("an array ({ty})"),
        Type::Map(..) => format!("an object ({ty})"),
        Type::Struct(name) => format!("an object (the struct {name})"),
    }
}

/// The arguments of a run of `program`, `args` a JSON object of them, in
/// `ARGS` order, each checked against its declared type; else the
/// `invalid_argument` error the interpreter gives (no step: the run has not
/// started).
pub fn check_args<'a>(
    program: &Program,
    args: &'a Literal,
) -> Result<Vec<&'a Literal>, PluginDiagnostic> {
    let invalid =
        |m: String| PluginDiagnostic::runtime(RuntimeCode::InvalidArgument.as_str(), None, m);
    let Literal::Object(given) = args else {
        return Err(invalid(format!(
            "the arguments must be a JSON object mapping each ARGS name to its value, not {}",
            args.kind_name()
        )));
    };
    let mut out = Vec::with_capacity(program.func.args.len());
    for d in &program.func.args {
        let name = &d.name.name;
        let Some(v) = given.get(name) else {
            return Err(invalid(format!(
                "the argument `{name}` ({}) is missing",
                d.ty
            )));
        };
        check_value(v, &d.ty, &program.types).map_err(|m| {
            invalid(format!(
                "the argument `{name}` does not have its type {}: {m}",
                d.ty
            ))
        })?;
        out.push(v);
    }
    if let Some(extra) = given
        .keys()
        .find(|k| !program.func.args.iter().any(|d| &d.name.name == *k))
    {
        let declared: Vec<String> = program
            .func
            .args
            .iter()
            .map(|d| format!("{}: {}", d.name.name, d.ty))
            .collect();
        return Err(invalid(format!(
            "`{extra}` is not an argument; ARGS are [{}]",
            declared.join(", ")
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{program, ret, struct_def, var};

    fn lit(json: &str) -> Literal {
        crate::json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    fn point() -> StructDef {
        struct_def(
            "Point",
            &[("x", Type::Int), ("tags", Type::array(Type::String))],
        )
    }

    #[test]
    fn values_are_checked_all_the_way_down() {
        let types = [point()];
        let ints = Type::map(Type::Int, Type::array(Type::Bool));
        let check = |json: &str, ty: &Type| check_value(&lit(json), ty, &types);
        assert_eq!(check(r#"{"-3": [true], "0": []}"#, &ints), Ok(()));
        let bad_key = check(r#"{"03": []}"#, &ints);
        assert_eq!(
            bad_key.map_err(|m| m.to_string()),
            Err("at [\"03\"] the key \"03\" is not the decimal text of an int (map<int,bool[]> has int keys)".into())
        );
        let deep = check(r#"{"1": [true, 2]}"#, &ints);
        assert_eq!(
            deep,
            Err(Mismatch {
                path: "[\"1\"][1]".into(),
                message: "expected a bool, found an integer".into()
            })
        );
        let s = Type::Struct("Point".into());
        assert_eq!(check(r#"{"x": 1, "tags": ["a"]}"#, &s), Ok(()));
        let extra = check(r#"{"x": 1, "tags": [], "y": 2}"#, &s);
        assert_eq!(
            extra.map_err(|m| m.message),
            Err("Point has no field y".into())
        );
        let missing = check(r#"{"x": 1}"#, &s);
        assert_eq!(
            missing.map_err(|m| m.message),
            Err("the field tags of Point is missing".into())
        );
        let floats = Type::array(Type::Float);
        assert_eq!(check("[1.5, 2, -0.0, 9007199254740992]", &floats), Ok(()));
        let inexact = check("[9007199254740993]", &floats);
        assert!(inexact.is_err_and(|m| m.path == "[0]" && m.message.contains("no float equals")));
        let text = check(r#"["1.5"]"#, &floats);
        assert_eq!(
            text.map_err(|m| m.message),
            Err("expected a float, found a string".into())
        );
        let field = check(r#"{"x": 1, "tags": [3]}"#, &s);
        assert_eq!(field.map_err(|m| m.path), Err(".tags[0]".into()));
        let unknown = check("{}", &Type::Struct("Line".into()));
        assert_eq!(
            unknown.map_err(|m| m.message),
            Err("Line is no struct of the program".into())
        );
    }

    #[test]
    fn arguments_are_every_one_of_args_and_no_other() {
        let p = program(
            "f",
            &[("xs", Type::array(Type::Int)), ("n", Type::Int)],
            Type::Int,
            vec![],
            &[],
            vec![ret("S1", var("n", Type::Int))],
        );
        let given = lit(r#"{"n": 2, "xs": [1]}"#);
        let got = check_args(&p, &given);
        assert_eq!(got, Ok(vec![&lit("[1]"), &lit("2")]));
        for (json, message) in [
            (
                "[]",
                "the arguments must be a JSON object mapping each ARGS name to its value, not an array",
            ),
            (r#"{"xs": []}"#, "the argument `n` (int) is missing"),
            (
                r#"{"xs": [], "n": 1, "m": 2}"#,
                "`m` is not an argument; ARGS are [xs: int[], n: int]",
            ),
            (
                r#"{"xs": [true], "n": 1}"#,
                "the argument `xs` does not have its type int[]: at [0] expected an int, found a boolean",
            ),
        ] {
            let err = check_args(&p, &lit(json)).err();
            assert_eq!(
                err.map(|d| (d.code, d.step, d.message)),
                Some(("invalid_argument".into(), None, message.into())),
                "{json}"
            );
        }
    }
}
