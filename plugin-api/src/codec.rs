//! Isu values in the JSON form of an engine that cannot hold them as Isu's
//! JSON has them, and back: for a backend whose generated program reads its
//! arguments and writes its result as JSON.
//!
//! - **Ints as strings** ([`Ints::Strings`]): an engine whose JSON numbers
//!   are doubles (JavaScript, Lua, jq) loses every int beyond 2^53; as
//!   decimal text (`"-9007199254740993"`) an int crosses exactly, and the
//!   program reads it with `BigInt(s)` or its like.
//! - **Structs as arrays** ([`Structs::Arrays`]): a struct as the array of
//!   its fields' values in declaration order (`TYPES`), for an engine that
//!   holds records as tuples; as objects ([`Structs::Objects`]) a struct
//!   has exactly its declared fields.
//!
//! Floats cross as JSON numbers with a fraction or an exponent, in the
//! shortest digits that read back to the same bits, which every engine's
//! JSON reads exactly; an integer where a float is expected stands for the
//! float of its value when binary64 holds it exactly, and encoding or
//! decoding turns it into that float.
//!
//! [`Codec::encode`] turns a value of a type into the engine's form;
//! [`Codec::decode`] reads the engine's form back, refusing anything not of
//! the type (a missing or extra field, an int key that is not an int's
//! canonical text, an int outside 64 bits). [`Codec::encode_args`] and
//! [`Codec::decode_result`] do this for a whole run: the arguments checked
//! against `ARGS` ([`crate::args::check_args`]), the result read with
//! Isu's JSON reader and refused as `plugin_bad_output` when it is not of
//! `RETURNS`.
//!
//! ```
//! use isu_plugin_api::codec::Codec;
//! use isu_plugin_api::{Literal, Type};
//!
//! let codec = Codec::new(&[]).ints_as_strings();
//! let big = Literal::Int(i64::MAX);
//! let ty = Type::array(Type::Int);
//! let encoded = codec.encode(&Literal::Array(vec![big.clone()]), &ty).unwrap();
//! assert_eq!(encoded.to_string(), r#"["9223372036854775807"]"#);
//! assert_eq!(codec.decode(&encoded, &ty), Ok(Literal::Array(vec![big])));
//! ```

use crate::args::{check_args, Mismatch};
use crate::backend::PluginDiagnostic;
use crate::backend_codes::BackendCode;
use crate::iir::{Program, StructDef};
use crate::literal::{int_key, write_json_string, Literal};
use crate::types::Type;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How ints cross.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ints {
    /// As JSON numbers, as Isu's JSON has them.
    Numbers,
    /// As strings of their canonical decimal text (`"-12"`).
    Strings,
}

/// How structs cross.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Structs {
    /// As objects of exactly their declared fields, as Isu's JSON has them.
    Objects,
    /// As arrays of their fields' values, in declaration order.
    Arrays,
}

/// The form values take in an engine's JSON, with the structs of a program.
#[derive(Debug, Clone, Copy)]
pub struct Codec<'t> {
    /// How ints cross.
    pub ints: Ints,
    /// How structs cross.
    pub structs: Structs,
    types: &'t [StructDef],
}

impl<'t> Codec<'t> {
    /// Isu's own form (ints as numbers, structs as objects), for a program
    /// whose structs are `types` (its `TYPES`).
    pub fn new(types: &'t [StructDef]) -> Codec<'t> {
        Codec {
            ints: Ints::Numbers,
            structs: Structs::Objects,
            types,
        }
    }

    /// The same, with ints as decimal strings.
    pub fn ints_as_strings(mut self) -> Codec<'t> {
        self.ints = Ints::Strings;
        self
    }

    /// The same, with structs as arrays of their fields' values.
    pub fn structs_as_arrays(mut self) -> Codec<'t> {
        self.structs = Structs::Arrays;
        self
    }

    fn def(&self, name: &str) -> Result<&'t StructDef, String> {
        self.types
            .iter()
            .find(|d| d.name.name == name)
            .ok_or_else(|| format!("{name} is no struct of the program"))
    }

    /// `value`, of type `ty`, in the engine's form.
    pub fn encode(&self, value: &Literal, ty: &Type) -> Result<Literal, Mismatch> {
        let mut path = String::new();
        self.walk(value, ty, &mut path, Direction::Encode)
            .map_err(|message| Mismatch { path, message })
    }

    /// `value`, in the engine's form, read back as a value of `ty`.
    pub fn decode(&self, value: &Literal, ty: &Type) -> Result<Literal, Mismatch> {
        let mut path = String::new();
        self.walk(value, ty, &mut path, Direction::Decode)
            .map_err(|message| Mismatch { path, message })
    }

    /// The arguments of a run of `program` (a JSON object of them), checked
    /// against `ARGS` (else the interpreter's `invalid_argument` error), as
    /// an array in `ARGS` order in the engine's form.
    pub fn encode_args(
        &self,
        program: &Program,
        args: &Literal,
    ) -> Result<Literal, PluginDiagnostic> {
        let values = check_args(program, args)?;
        let mut out = Vec::with_capacity(values.len());
        for (v, d) in values.into_iter().zip(&program.func.args) {
            let encoded = self.encode(v, &d.ty).map_err(|m| {
                PluginDiagnostic::backend(
                    BackendCode::InternalError,
                    format!("the argument `{}` could not be encoded: {m}", d.name.name),
                )
            })?;
            out.push(encoded);
        }
        Ok(Literal::Array(out))
    }

    /// The result `json` the engine wrote (JSON text, in the engine's
    /// form), as a value of the program's `RETURNS`; anything else is
    /// `plugin_bad_output`, saying what is wrong where.
    pub fn decode_result(
        &self,
        program: &Program,
        json: &str,
    ) -> Result<Literal, PluginDiagnostic> {
        let bad = |m: String| {
            PluginDiagnostic::backend(
                BackendCode::PluginBadOutput,
                format!(
                    "the program's result is not a value of {}: {m}",
                    program.func.returns
                ),
            )
        };
        let value: Literal = crate::json::from_str(json).map_err(|e| bad(e.to_string()))?;
        self.decode(&value, &program.func.returns)
            .map_err(|m| bad(m.to_string()))
    }

    fn walk(
        &self,
        value: &Literal,
        ty: &Type,
        path: &mut String,
        way: Direction,
    ) -> Result<Literal, String> {
        let found = |what: &str| format!("expected {what}, found {}", value.kind_name());
        match ty {
            Type::Int => match (value, self.ints, way) {
                (Literal::Int(n), Ints::Numbers, _) => Ok(Literal::Int(*n)),
                (Literal::Int(n), Ints::Strings, Direction::Encode) => {
                    Ok(Literal::Str(n.to_string()))
                }
                (Literal::Str(s), Ints::Strings, Direction::Decode) => int_key(s)
                    .map(Literal::Int)
                    .ok_or_else(|| format!("{s:?} is not the decimal text of a 64-bit int")),
                (_, Ints::Strings, Direction::Decode) => Err(found("an int as a string")),
                _ => Err(found("an int")),
            },
            // A float crosses as a JSON number with a fraction or an
            // exponent; an integer stands for the float of its value when
            // binary64 holds it exactly (`Literal::as_float`), both ways.
            Type::Float => value
                .as_float()
                .map(Literal::Float)
                .ok_or_else(|| found("a float")),
            Type::Bool => match value {
                Literal::Bool(b) => Ok(Literal::Bool(*b)),
                _ => Err(found("a bool")),
            },
            Type::String => match value {
                Literal::Str(s) => Ok(Literal::Str(s.clone())),
                _ => Err(found("a string")),
            },
            Type::Array(elem) => {
                let Literal::Array(items) = value else {
                    return Err(found("an array"));
                };
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    let _ = write!(path, "[{i}]");
                    out.push(self.walk(item, elem, path, way)?);
                    path.truncate(len);
                }
                Ok(Literal::Array(out))
            }
            Type::Map(key, val) => {
                let Literal::Object(entries) = value else {
                    return Err(found("an object"));
                };
                let mut out = BTreeMap::new();
                for (k, v) in entries {
                    let len = path.len();
                    let mut quoted = String::new();
                    let _ = write_json_string(&mut quoted, k);
                    let _ = write!(path, "[{quoted}]");
                    if **key == Type::Int && int_key(k).is_none() {
                        return Err(format!(
                            "the key {quoted} is not the decimal text of an int"
                        ));
                    }
                    out.insert(k.clone(), self.walk(v, val, path, way)?);
                    path.truncate(len);
                }
                Ok(Literal::Object(out))
            }
            Type::Struct(name) => {
                let def = self.def(name)?;
                let arrays = self.structs == Structs::Arrays;
                let fields: Vec<&Literal> = match (value, arrays, way) {
                    (Literal::Array(items), true, Direction::Decode) => {
                        if items.len() != def.fields.len() {
                            return Err(format!(
                                "{name} has {} fields, not {}",
                                def.fields.len(),
                                items.len()
                            ));
                        }
                        items.iter().collect()
                    }
                    (Literal::Object(entries), false, _)
                    | (Literal::Object(entries), true, Direction::Encode) => {
                        if let Some(extra) = entries.keys().find(|k| def.field(k).is_none()) {
                            return Err(format!("{name} has no field {extra}"));
                        }
                        let mut got = Vec::with_capacity(def.fields.len());
                        for f in &def.fields {
                            let v = entries.get(&f.name.name).ok_or_else(|| {
                                format!("the field {} of {name} is missing", f.name.name)
                            })?;
                            got.push(v);
                        }
                        got
                    }
                    _ if arrays && way == Direction::Decode => {
                        return Err(found(&format!("an array (the fields of {name})")))
                    }
                    _ => return Err(found(&format!("an object (the struct {name})"))),
                };
                let mut out = Vec::with_capacity(fields.len());
                for (f, v) in def.fields.iter().zip(fields) {
                    let len = path.len();
                    let _ = write!(path, ".{}", f.name.name);
                    out.push((f.name.name.clone(), self.walk(v, &f.ty, path, way)?));
                    path.truncate(len);
                }
                Ok(if arrays && way == Direction::Encode {
                    Literal::Array(out.into_iter().map(|(_, v)| v).collect())
                } else {
                    Literal::Object(out.into_iter().collect())
                })
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Encode,
    Decode,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{program, ret, struct_def, var};

    fn lit(json: &str) -> Literal {
        crate::json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    fn point() -> StructDef {
        struct_def("Point", &[("y", Type::Int), ("x", Type::Int)])
    }

    #[test]
    fn ints_as_strings_cross_exactly_both_ways() {
        let types = [point()];
        let codec = Codec::new(&types).ints_as_strings();
        let ty = Type::map(Type::Int, Type::Struct("Point".into()));
        let value = lit(r#"{"-1": {"x": -9223372036854775808, "y": 9007199254740993}}"#);
        let encoded = codec.encode(&value, &ty);
        let text = encoded.as_ref().map(ToString::to_string);
        assert_eq!(
            text.as_deref(),
            Ok(r#"{"-1": {"x": "-9223372036854775808", "y": "9007199254740993"}}"#)
        );
        assert_eq!(encoded.and_then(|e| codec.decode(&e, &ty)), Ok(value));
        let number = codec.decode(&lit("[1]"), &Type::array(Type::Int));
        assert_eq!(
            number,
            Err(Mismatch {
                path: "[0]".into(),
                message: "expected an int as a string, found an integer".into()
            })
        );
        let beyond = codec.decode(&lit(r#""9223372036854775808""#), &Type::Int);
        assert!(beyond.is_err_and(|m| m.message.contains("64-bit")));
        let plain = Codec::new(&types);
        assert_eq!(
            plain.encode(&lit("[1]"), &Type::array(Type::Int)),
            Ok(lit("[1]"))
        );
    }

    #[test]
    fn floats_cross_as_floats_and_exact_integers_become_floats() {
        let codec = Codec::new(&[]).ints_as_strings();
        let ty = Type::map(Type::String, Type::Float);
        let encoded = codec.encode(&lit(r#"{"a": 2, "b": -0.0, "c": 5e-324}"#), &ty);
        assert_eq!(
            encoded.as_ref().map(ToString::to_string),
            Ok(r#"{"a": 2.0, "b": -0.0, "c": 5e-324}"#.to_owned())
        );
        let back = encoded.and_then(|e| codec.decode(&e, &ty));
        assert_eq!(back, Ok(lit(r#"{"a": 2.0, "b": -0.0, "c": 5e-324}"#)));
        let text = serde_json::to_string(&lit("[0.1, 1e16, 2.0]")).unwrap_or_default();
        assert_eq!(
            text, "[0.1,1e+16,2.0]",
            "serde_json writes floats that read back"
        );
        assert_eq!(lit(&text), lit("[0.1, 1e+16, 2.0]"));
        let inexact = codec.decode(&lit("9007199254740993"), &Type::Float);
        assert!(inexact.is_err_and(|m| m.message == "expected a float, found an integer"));
    }

    #[test]
    fn structs_as_arrays_follow_the_declaration_order() {
        let types = [point()];
        let codec = Codec::new(&types).structs_as_arrays();
        let ty = Type::Struct("Point".into());
        let value = lit(r#"{"x": 1, "y": 2}"#);
        let encoded = codec.encode(&value, &ty);
        assert_eq!(encoded, Ok(lit("[2, 1]")));
        assert_eq!(codec.decode(&lit("[2, 1]"), &ty), Ok(value));
        let short = codec.decode(&lit("[2]"), &ty);
        assert_eq!(
            short.map_err(|m| m.message),
            Err("Point has 2 fields, not 1".into())
        );
        let object = codec.decode(&lit(r#"{"x": 1, "y": 2}"#), &ty);
        assert!(object.is_err_and(|m| m.message.starts_with("expected an array")));
        let objects = Codec::new(&types);
        let extra = objects.decode(&lit(r#"{"x": 1, "y": 2, "z": 3}"#), &ty);
        assert_eq!(
            extra.map_err(|m| m.message),
            Err("Point has no field z".into())
        );
    }

    #[test]
    fn a_run_is_encoded_and_its_result_decoded() {
        let p = program(
            "f",
            &[("n", Type::Int), ("m", Type::map(Type::Int, Type::Bool))],
            Type::array(Type::Int),
            vec![],
            &[],
            vec![ret("S1", var("n", Type::Int))],
        );
        let codec = Codec::new(&[]).ints_as_strings();
        let args = codec.encode_args(&p, &lit(r#"{"m": {"7": true}, "n": 5}"#));
        assert_eq!(args, Ok(lit(r#"["5", {"7": true}]"#)));
        let invalid = codec.encode_args(&p, &lit(r#"{"n": 5}"#));
        assert_eq!(invalid.map_err(|d| d.code), Err("invalid_argument".into()));
        assert_eq!(
            codec.decode_result(&p, r#"["1", "-2"]"#),
            Ok(lit("[1, -2]"))
        );
        let bad = codec.decode_result(&p, r#"["1", 2]"#).err();
        assert_eq!(
            bad.map(|d| (d.code, d.message)),
            Some((
                "plugin_bad_output".into(),
                "the program's result is not a value of int[]: at [1] expected an int as a string, found an integer".into()
            ))
        );
        let garbage = codec.decode_result(&p, "[1,").err();
        assert_eq!(garbage.map(|d| d.code), Some("plugin_bad_output".into()));
    }
}
