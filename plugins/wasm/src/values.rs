//! Values across the boundary, host side: JSON literals checked against the
//! ARGS types and written in the module's binary encoding, and results read
//! back into literals (`spec/wasm-abi.md`, "Values"). A struct's fields are
//! read from the module's `isu.meta` ([`Structs`]).

use crate::layout::Structs;
use isu_plugin_api::{Literal, Type};
use std::collections::BTreeMap;

/// Why an argument does not fit its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch(pub String);

/// Appends the encoding of `lit` as a value of `ty`, whose structs are
/// those of `types`.
pub fn encode(
    lit: &Literal,
    ty: &Type,
    types: &Structs,
    out: &mut Vec<u8>,
    path: &mut String,
) -> Result<(), Mismatch> {
    match (ty, lit) {
        (Type::Int, Literal::Int(i)) => out.extend_from_slice(&i.to_le_bytes()),
        // A float, or an int binary64 holds exactly (`Literal::as_float`).
        (Type::Float, Literal::Float(_) | Literal::Int(_)) => match lit.as_float() {
            Some(x) => out.extend_from_slice(&x.to_le_bytes()),
            None => {
                return Err(Mismatch(format!(
                    "{}expected a float, found the integer {lit}, which no float equals",
                    at(path)
                )))
            }
        },
        (Type::Bool, Literal::Bool(b)) => out.push(u8::from(*b)),
        (Type::String, Literal::Str(s)) => put_str(s, out)?,
        (Type::Array(e), Literal::Array(items)) => {
            put_len(items.len(), out)?;
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                encode(item, e, types, out, path)?;
                path.truncate(len);
            }
        }
        (Type::Map(k, v), Literal::Object(entries)) => {
            put_len(entries.len(), out)?;
            match **k {
                Type::Int => {
                    let mut sorted = BTreeMap::new();
                    for (key, val) in entries {
                        let Some(i) = isu_plugin_api::literal::int_key(key) else {
                            return Err(Mismatch(format!(
                                "{path}: the key {key:?} is not the decimal text of an int ({ty} has int keys)"
                            )));
                        };
                        sorted.insert(i, (key, val));
                    }
                    for (i, (key, val)) in sorted {
                        out.extend_from_slice(&i.to_le_bytes());
                        let len = path.len();
                        path.push_str(&format!("[{key:?}]"));
                        encode(val, v, types, out, path)?;
                        path.truncate(len);
                    }
                }
                Type::String => {
                    // A BTreeMap of Strings is in byte order: the map's order.
                    for (key, val) in entries {
                        put_str(key, out)?;
                        let len = path.len();
                        path.push_str(&format!("[{key:?}]"));
                        encode(val, v, types, out, path)?;
                        path.truncate(len);
                    }
                }
                _ => {
                    return Err(Mismatch(format!(
                        "{ty} cannot hold values: its key type is neither int nor string"
                    )))
                }
            }
        }
        (Type::Struct(name), Literal::Object(entries)) => {
            let fields = types.fields(ty);
            if fields.is_empty() {
                return Err(Mismatch(format!(
                    "{}{name} is no struct of the program",
                    at(path)
                )));
            }
            if let Some(extra) = entries.keys().find(|k| types.field(ty, k).is_none()) {
                return Err(Mismatch(format!("{}{name} has no field {extra}", at(path))));
            }
            for f in fields {
                let Some(val) = entries.get(&f.name) else {
                    return Err(Mismatch(format!(
                        "{}the field {} of {name} is missing",
                        at(path),
                        f.name
                    )));
                };
                let len = path.len();
                path.push_str(&format!(".{}", f.name));
                encode(val, &f.ty, types, out, path)?;
                path.truncate(len);
            }
        }
        _ => {
            return Err(Mismatch(format!(
                "{}expected {ty}, found {}",
                at(path),
                lit.kind_name()
            )))
        }
    }
    Ok(())
}

/// `at [1].x: `, where a message's value lies (nothing at the top).
fn at(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("at {path}: ")
    }
}

fn put_len(n: usize, out: &mut Vec<u8>) -> Result<(), Mismatch> {
    let n = u32::try_from(n).map_err(|_| Mismatch(format!("{n} items do not fit in 32 bits")))?;
    out.extend_from_slice(&n.to_le_bytes());
    Ok(())
}

fn put_str(s: &str, out: &mut Vec<u8>) -> Result<(), Mismatch> {
    put_len(s.len(), out)?;
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

/// Reads a value of `ty`, whose structs are those of `types`, from `bytes`
/// at `*at`.
pub fn decode(bytes: &[u8], at: &mut usize, ty: &Type, types: &Structs) -> Option<Literal> {
    Some(match ty {
        Type::Int => Literal::Int(i64::from_le_bytes(take::<8>(bytes, at)?)),
        Type::Float => Literal::Float(f64::from_le_bytes(take::<8>(bytes, at)?)),
        Type::Bool => Literal::Bool(take::<1>(bytes, at)?[0] != 0),
        Type::String => Literal::Str(get_str(bytes, at)?),
        Type::Array(e) => {
            let n = u32::from_le_bytes(take::<4>(bytes, at)?) as usize;
            let mut items = Vec::with_capacity(n.min(bytes.len()));
            for _ in 0..n {
                items.push(decode(bytes, at, e, types)?);
            }
            Literal::Array(items)
        }
        Type::Map(k, v) => {
            let n = u32::from_le_bytes(take::<4>(bytes, at)?) as usize;
            let mut entries = BTreeMap::new();
            for _ in 0..n {
                let key = match **k {
                    Type::Int => i64::from_le_bytes(take::<8>(bytes, at)?).to_string(),
                    _ => get_str(bytes, at)?,
                };
                entries.insert(key, decode(bytes, at, v, types)?);
            }
            Literal::Object(entries)
        }
        Type::Struct(_) => {
            let mut fields = BTreeMap::new();
            for f in types.fields(ty) {
                fields.insert(f.name.clone(), decode(bytes, at, &f.ty, types)?);
            }
            Literal::Object(fields)
        }
    })
}

fn take<const N: usize>(bytes: &[u8], at: &mut usize) -> Option<[u8; N]> {
    let chunk = bytes.get(*at..at.checked_add(N)?)?;
    *at += N;
    chunk.try_into().ok()
}

fn get_str(bytes: &[u8], at: &mut usize) -> Option<String> {
    let n = u32::from_le_bytes(take::<4>(bytes, at)?) as usize;
    let chunk = bytes.get(*at..at.checked_add(n)?)?;
    *at += n;
    String::from_utf8(chunk.to_vec()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Literal {
        serde_json::from_str(s).unwrap_or(Literal::Bool(false))
    }

    /// `point = {x: int, y: int}`, `pin = {at: point, tags: string[], on: bool}`.
    fn structs() -> Structs {
        serde_json::from_str(
            r#"{"point": [{"name": "x", "type": "int"}, {"name": "y", "type": "int"}],
                "pin": [{"name": "at", "type": {"struct": "point"}},
                        {"name": "tags", "type": {"array": "string"}},
                        {"name": "on", "type": "bool"}]}"#,
        )
        .unwrap_or_default()
    }

    #[test]
    fn a_struct_is_its_fields_in_declaration_order() {
        let ty = Type::Struct("point".into());
        let mut out = Vec::new();
        let given = lit(r#"{"y": 2, "x": 1}"#);
        assert_eq!(
            encode(&given, &ty, &structs(), &mut out, &mut String::new()),
            Ok(())
        );
        assert_eq!(&out[..8], &1i64.to_le_bytes());
        assert_eq!(&out[8..], &2i64.to_le_bytes());
        for bad in [r#"{"x": 1}"#, r#"{"x": 1, "y": 2, "z": 3}"#, "[1, 2]"] {
            let err = encode(
                &lit(bad),
                &ty,
                &structs(),
                &mut Vec::new(),
                &mut String::new(),
            );
            assert!(err.is_err(), "{bad}");
        }
    }

    #[test]
    fn round_trips_every_type() {
        let cases = [
            ("-5", Type::Int),
            ("true", Type::Bool),
            (r#""héllo""#, Type::String),
            ("[[1, 2], []]", Type::array(Type::array(Type::Int))),
            (
                r#"{"-2": ["a"], "10": [], "3": ["b"]}"#,
                Type::map(Type::Int, Type::array(Type::String)),
            ),
            (
                r#"{"b": true, "a": false}"#,
                Type::map(Type::String, Type::Bool),
            ),
            (
                r#"{"at": {"x": 1, "y": -2}, "tags": ["p"], "on": true}"#,
                Type::Struct("pin".into()),
            ),
        ];
        let none = structs();
        for (text, ty) in cases {
            let mut out = Vec::new();
            assert_eq!(
                encode(&lit(text), &ty, &none, &mut out, &mut String::new()),
                Ok(())
            );
            let mut at = 0;
            assert_eq!(decode(&out, &mut at, &ty, &none), Some(lit(text)), "{text}");
            assert_eq!(at, out.len());
        }
    }

    #[test]
    fn int_keys_are_written_in_numeric_order() {
        let mut out = Vec::new();
        let ty = Type::map(Type::Int, Type::Bool);
        assert_eq!(
            encode(
                &lit(r#"{"10": true, "9": false}"#),
                &ty,
                &Structs::default(),
                &mut out,
                &mut String::new()
            ),
            Ok(())
        );
        assert_eq!(&out[4..12], &9i64.to_le_bytes());
    }

    #[test]
    fn mismatches_are_reported() {
        let ty = Type::array(Type::Int);
        let err = encode(
            &lit(r#"[1, "x"]"#),
            &ty,
            &Structs::default(),
            &mut Vec::new(),
            &mut String::new(),
        );
        assert_eq!(
            err,
            Err(Mismatch("at [1]: expected int, found a string".into()))
        );
        let ty = Type::map(Type::Int, Type::Int);
        for bad in ["01", "-0", "x", "+1"] {
            let json = format!(r#"{{"{bad}": 1}}"#);
            assert!(
                encode(
                    &lit(&json),
                    &ty,
                    &Structs::default(),
                    &mut Vec::new(),
                    &mut String::new()
                )
                .is_err(),
                "{bad}"
            );
        }
        assert_eq!(
            decode(&[1, 2], &mut 0, &Type::Int, &Structs::default()),
            None
        );
    }
}
