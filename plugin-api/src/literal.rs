//! JSON literals as Isu writes them: in `(const ...)`, `IO` examples and values
//! crossing a boundary.
//!
//! A literal is JSON without `null` and without fractions: integers are 64-bit,
//! objects keep their keys sorted (so two equal literals print the same) and may
//! not repeat a key.

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// An Isu value as JSON: a literal of the program, an argument or a result.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Literal {
    /// `true` or `false`.
    Bool(bool),
    /// A 64-bit signed integer.
    Int(i64),
    /// A string.
    Str(String),
    /// A JSON array.
    Array(Vec<Literal>),
    /// A JSON object; keys sorted. A map with int keys writes them as decimal strings.
    Object(BTreeMap<String, Literal>),
}

impl Literal {
    /// A word for the JSON kind of this literal, for messages ("an array").
    pub fn kind_name(&self) -> &'static str {
        match self {
            Literal::Bool(_) => "a boolean",
            Literal::Int(_) => "an integer",
            Literal::Str(_) => "a string",
            Literal::Array(_) => "an array",
            Literal::Object(_) => "an object",
        }
    }
}

/// The canonical text: JSON with `", "` between items and `": "` after keys,
/// strings escaped as serde_json escapes them.
impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Bool(b) => write!(f, "{b}"),
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Str(s) => write_json_string(f, s),
            Literal::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Literal::Object(entries) => {
                f.write_str("{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write_json_string(f, k)?;
                    write!(f, ": {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// Writes `s` as a JSON string literal.
pub fn write_json_string(f: &mut impl fmt::Write, s: &str) -> fmt::Result {
    f.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            '\u{8}' => f.write_str("\\b")?,
            '\u{c}' => f.write_str("\\f")?,
            c if (c as u32) < 0x20 || c == '\u{7f}' => write!(f, "\\u{:04x}", c as u32)?,
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

impl Serialize for Literal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Literal::Bool(b) => s.serialize_bool(*b),
            Literal::Int(i) => s.serialize_i64(*i),
            Literal::Str(v) => s.serialize_str(v),
            Literal::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Literal::Object(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Literal {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LiteralVisitor)
    }
}

struct LiteralVisitor;

impl<'de> Visitor<'de> for LiteralVisitor {
    type Value = Literal;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value without null or fractions")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Literal, E> {
        Ok(Literal::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Literal, E> {
        Ok(Literal::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Literal, E> {
        i64::try_from(v)
            .map(Literal::Int)
            .map_err(|_| E::custom(format!("integer {v} does not fit in 64 signed bits")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Literal, E> {
        Err(E::custom(format!(
            "{v} is not an integer; Isu has no fractions"
        )))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Literal, E> {
        Ok(Literal::Str(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Literal, E> {
        Ok(Literal::Str(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Literal, E> {
        Err(E::custom("null is not an Isu value"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Literal, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Literal::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Literal, A::Error> {
        let mut entries = BTreeMap::new();
        while let Some((k, v)) = map.next_entry::<String, Literal>()? {
            if entries.contains_key(&k) {
                return Err(de::Error::custom(format!("key {k:?} appears twice")));
            }
            entries.insert(k, v);
        }
        Ok(Literal::Object(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Literal, String> {
        serde_json::from_str(s).map_err(|e| e.to_string())
    }

    #[test]
    fn round_trips_and_prints_canonically() {
        let lit = parse(r#"{"b": [1, -2, true], "a": "x\"y"}"#);
        assert_eq!(
            lit.map(|l| l.to_string()),
            Ok(r#"{"a": "x\"y", "b": [1, -2, true]}"#.to_owned())
        );
    }

    #[test]
    fn rejects_null_fractions_big_ints_and_repeated_keys() {
        assert!(parse("null").err().unwrap_or_default().contains("null"));
        assert!(parse("1.5").err().unwrap_or_default().contains("fractions"));
        assert!(parse("9223372036854775808")
            .err()
            .unwrap_or_default()
            .contains("64"));
        assert!(parse(r#"{"a": 1, "a": 2}"#)
            .err()
            .unwrap_or_default()
            .contains("twice"));
        assert_eq!(parse("-9223372036854775808"), Ok(Literal::Int(i64::MIN)));
    }

    #[test]
    fn escapes_control_characters_like_json() {
        let s = Literal::Str("a\u{1}\n".into()).to_string();
        assert_eq!(s, r#""a\u0001\n""#);
        assert_eq!(parse(&s), Ok(Literal::Str("a\u{1}\n".into())));
    }
}
