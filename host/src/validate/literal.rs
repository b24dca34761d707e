//! JSON literals against types: whether a literal is a value of a type (for
//! `(const ...)`, `IO` examples and run arguments), and the partial type a
//! literal has on its own.

use super::text::a;
use super::types::PTy;
use isu_lang::literal::int_key;
use isu_plugin_api::{Literal, StructDef, Type};

/// Where in a literal it stops being a value of the type, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LitMismatch {
    /// The path from the literal's root: `""`, `[2]`, `["a"][0]`.
    pub path: String,
    /// What is wrong there: `is a string ("a"), expected int`.
    pub problem: String,
}

impl LitMismatch {
    /// The message with `root` naming the literal: `xs[2] is a string ("a"), expected int`.
    pub(crate) fn message(&self, root: &str) -> String {
        format!("{root}{} {}", self.path, self.problem)
    }
}

/// Checks that `lit`, a JSON value from outside the program (an argument, an
/// `IO` example, a result), is a value of `ty`. The message names the place
/// that is wrong, from the root called `value`: `value[2] is a string ("a"),
/// expected int`. A struct's value is a JSON object with exactly the fields
/// `types` declares; a float may be written as an integer binary64 holds
/// exactly ([`Literal::as_float`]).
pub fn literal_conforms(lit: &Literal, ty: &Type, types: &[StructDef]) -> Result<(), String> {
    literal_conforms_named(lit, ty, types, "value")
}

/// As [`literal_conforms`], with the root called `name` (an argument's name):
/// `xs[2] is a string ("a"), expected int`.
pub fn literal_conforms_named(
    lit: &Literal,
    ty: &Type,
    types: &[StructDef],
    name: &str,
) -> Result<(), String> {
    conform_json(lit, ty, types).map_err(|m| m.message(name))
}

/// [`conform`] for a JSON value from outside the program, where an integer
/// binary64 holds exactly stands for a float (`spec/semantics.md`, "JSON
/// form of values").
pub(crate) fn conform_json(
    lit: &Literal,
    ty: &Type,
    types: &[StructDef],
) -> Result<(), LitMismatch> {
    let mut path = String::new();
    conform_at(lit, ty, types, Floats::AlsoExactInts, &mut path)
        .map_err(|problem| LitMismatch { path, problem })
}

/// What a float may be written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Floats {
    /// Only a number with a fraction or an exponent: in a `(const ...)`,
    /// whose literal's form is its type.
    Written,
    /// Also an integer binary64 holds exactly: in JSON from outside.
    AlsoExactInts,
}

/// Checks that `lit`, a `(const ...)`, is a value of `ty`, saying where it
/// is not. Only the structs of `types` have values (a `(const ...)` passes
/// none: a struct value is made by `(struct ...)` alone). A float is
/// written with a fraction or an exponent (`2.0`), never as an integer.
pub(crate) fn conform(lit: &Literal, ty: &Type, types: &[StructDef]) -> Result<(), LitMismatch> {
    let mut path = String::new();
    conform_at(lit, ty, types, Floats::Written, &mut path)
        .map_err(|problem| LitMismatch { path, problem })
}

/// On failure `path` is left pointing at the offending part.
fn conform_at(
    lit: &Literal,
    ty: &Type,
    types: &[StructDef],
    floats: Floats,
    path: &mut String,
) -> Result<(), String> {
    match (ty, lit) {
        (Type::Int, Literal::Int(_))
        | (Type::Float, Literal::Float(_))
        | (Type::Bool, Literal::Bool(_))
        | (Type::String, Literal::Str(_)) => Ok(()),
        (Type::Float, Literal::Int(i)) if floats == Floats::AlsoExactInts => match lit.as_float() {
            Some(_) => Ok(()),
            None => Err(format!(
                "is the integer {i}, which no float equals: write the float itself ({})",
                isu_lang::float::repr(isu_lang::float::of_int(*i))
            )),
        },
        (Type::Array(elem), Literal::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                conform_at(item, elem, types, floats, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        (Type::Map(key, value), Literal::Object(entries)) => {
            if !key.is_map_key() {
                return Err(format!(
                    "cannot be {}: a map key must be int or string, not {key}",
                    a(&ty.to_string())
                ));
            }
            for (k, v) in entries {
                let len = path.len();
                path.push('[');
                path.push_str(&Literal::Str(k.clone()).to_string());
                path.push(']');
                if **key == Type::Int && int_key(k).is_none() {
                    path.truncate(len);
                    return Err(format!(
                        "has the key {}, but the keys of {} are ints, written as decimal strings such as \"7\" or \"-2\"",
                        Literal::Str(k.clone()),
                        a(&ty.to_string())
                    ));
                }
                conform_at(v, value, types, floats, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        (Type::Struct(name), Literal::Object(entries)) => {
            let Some(def) = types.iter().find(|d| d.name.name == *name) else {
                return Err(format!(
                    "is an object, expected {name}, which only (struct {name} ...) makes"
                ));
            };
            if let Some(extra) = entries.keys().find(|k| def.field(k).is_none()) {
                return Err(format!(
                    "has the field {}, which {name} does not declare",
                    Literal::Str(extra.clone())
                ));
            }
            for field in &def.fields {
                let Some(v) = entries.get(&field.name.name) else {
                    return Err(format!(
                        "lacks the field {} of {name}",
                        Literal::Str(field.name.name.clone())
                    ));
                };
                let len = path.len();
                path.push('.');
                path.push_str(&field.name.name);
                conform_at(v, &field.ty, types, floats, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        (_, lit) => Err(format!(
            "is {} ({}), expected {ty}",
            lit.kind_name(),
            short_literal(lit)
        )),
    }
}

/// The literal's text, cut short when long.
pub(crate) fn short_literal(lit: &Literal) -> String {
    shorten(&lit.to_string(), 40)
}

/// `text` cut to about `max` characters, with `...` where it was cut.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(3)).collect();
    out.push_str("...");
    out
}

/// Why a literal has no type of its own: its elements or values differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mixed {
    /// The path of the array or object that mixes types: `""`, `[1]`.
    pub path: String,
    pub message: String,
}

/// The partial type of a literal on its own: `[]` is an array of something,
/// `{"1": 2}` a map from int or string keys to int.
pub(crate) fn shape(lit: &Literal) -> Result<PTy, Mixed> {
    let mut path = String::new();
    shape_at(lit, &mut path)
}

fn shape_at(lit: &Literal, path: &mut String) -> Result<PTy, Mixed> {
    Ok(match lit {
        Literal::Bool(_) => PTy::Bool,
        Literal::Int(_) => PTy::Int,
        Literal::Float(_) => PTy::Float,
        Literal::Str(_) => PTy::Str,
        Literal::Array(items) => {
            let mut elem = PTy::Any;
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let s = shape_at(item, path)?;
                path.truncate(len);
                elem = elem.join(&s).ok_or_else(|| Mixed {
                    path: path.clone(),
                    message: format!(
                        "its element [{i}] is {}, but the elements before it are {elem}",
                        s
                    ),
                })?;
            }
            PTy::array(elem)
        }
        Literal::Object(entries) => {
            let key = PTy::Key {
                int_ok: entries.keys().all(|k| int_key(k).is_some()),
            };
            let mut value = PTy::Any;
            for (k, v) in entries {
                let len = path.len();
                path.push('[');
                path.push_str(&Literal::Str(k.clone()).to_string());
                path.push(']');
                let s = shape_at(v, path)?;
                path.truncate(len);
                value = value.join(&s).ok_or_else(|| Mixed {
                    path: path.clone(),
                    message: format!(
                        "its value at key {} is {}, but the values before it are {value}",
                        Literal::Str(k.clone()),
                        s
                    ),
                })?;
            }
            PTy::map(key, value)
        }
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn lit(json: &str) -> Literal {
        serde_json::from_str(json).unwrap_or(Literal::Bool(false))
    }

    #[test]
    fn scalars_and_nested_values_conform() {
        let t = Type::map(Type::String, Type::array(Type::Int));
        assert_eq!(
            literal_conforms(&lit(r#"{"a": [1, 2], "b": []}"#), &t, &[]),
            Ok(())
        );
        assert_eq!(
            literal_conforms(&lit("[]"), &Type::array(Type::Bool), &[]),
            Ok(())
        );
        assert_eq!(
            literal_conforms(&lit("{}"), &Type::map(Type::Int, Type::Int), &[]),
            Ok(())
        );
        assert_eq!(literal_conforms(&lit("true"), &Type::Bool, &[]), Ok(()));
    }

    #[test]
    fn mismatch_names_the_path() {
        let xs = Type::array(Type::Int);
        assert_eq!(
            literal_conforms_named(&lit(r#"[1, 2, "a"]"#), &xs, &[], "xs"),
            Err(r#"xs[2] is a string ("a"), expected int"#.to_owned())
        );
        assert_eq!(
            literal_conforms(&lit("7"), &xs, &[]),
            Err("value is an integer (7), expected int[]".to_owned())
        );
        let m = Type::map(Type::String, Type::array(Type::Int));
        assert_eq!(
            literal_conforms_named(&lit(r#"{"a": [1], "b": [true]}"#), &m, &[], "m"),
            Err(r#"m["b"][0] is a boolean (true), expected int"#.to_owned())
        );
    }

    #[test]
    fn int_keys_must_be_canonical_decimals() {
        let m = Type::map(Type::Int, Type::Bool);
        assert_eq!(
            literal_conforms(&lit(r#"{"-3": true, "10": false}"#), &m, &[]),
            Ok(())
        );
        for bad in ["01", "+1", "-0", "1.0", "x", "99999999999999999999"] {
            let text = format!("{{\"{bad}\": true}}");
            let err = literal_conforms(&lit(&text), &m, &[]).unwrap_err();
            assert!(
                err.starts_with(&format!("value has the key \"{bad}\"")),
                "{err}"
            );
        }
    }

    #[test]
    fn invalid_key_types_never_conform() {
        let m = Type::map(Type::Bool, Type::Int);
        let err = literal_conforms(&lit("{}"), &m, &[]).unwrap_err();
        assert!(
            err.contains("a map key must be int or string, not bool"),
            "{err}"
        );
    }

    #[test]
    fn long_literals_are_cut_in_messages() {
        let long = Literal::Str("x".repeat(100));
        let err = literal_conforms(&long, &Type::Int, &[]).unwrap_err();
        assert!(err.contains("...), expected int"), "{err}");
        assert!(err.len() < 80);
    }

    #[test]
    fn shapes() {
        assert_eq!(shape(&lit("[]")), Ok(PTy::array(PTy::Any)));
        assert_eq!(
            shape(&lit("[[], [1]]")),
            Ok(PTy::array(PTy::array(PTy::Int)))
        );
        assert_eq!(
            shape(&lit(r#"{"1": []}"#)),
            Ok(PTy::map(PTy::Key { int_ok: true }, PTy::array(PTy::Any)))
        );
        assert_eq!(
            shape(&lit(r#"{"a": 1}"#)),
            Ok(PTy::map(PTy::Key { int_ok: false }, PTy::Int))
        );
        let mixed = shape(&lit(r#"[[1], [1, "a"]]"#)).unwrap_err();
        assert_eq!(mixed.path, "[1]");
        assert_eq!(
            mixed.message,
            "its element [1] is string, but the elements before it are int"
        );
    }
}
