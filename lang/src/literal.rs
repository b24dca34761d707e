//! JSON literals as Isu writes them: in `(const ...)`, `IO` examples and values
//! crossing a boundary.
//!
//! A literal is JSON without `null`: a number without a fraction or an
//! exponent is a 64-bit integer, one with either is a float (finite binary64,
//! `2.0` stays a float), objects keep their keys sorted (so two equal literals
//! print the same) and may not repeat a key.

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// An Isu value as JSON: a literal of the program, an argument or a result.
///
/// Two literals are equal when they are the same JSON: floats compare by
/// their bits, so `0.0` and `-0.0` are two literals (they print differently),
/// and the conformance runner's comparison of results is bit for bit. (The
/// language's `eq` on floats is IEEE equality, under which they are equal.)
#[derive(Debug, Clone)]
pub enum Literal {
    /// `true` or `false`.
    Bool(bool),
    /// A 64-bit signed integer.
    Int(i64),
    /// A float: finite binary64, written with a fraction or an exponent.
    Float(f64),
    /// A string.
    Str(String),
    /// A JSON array.
    Array(Vec<Literal>),
    /// A JSON object; keys sorted. A map with int keys writes them as decimal strings.
    Object(BTreeMap<String, Literal>),
}

impl Literal {
    /// The float this JSON value stands for where a float is expected: a
    /// float, or an integer that binary64 holds exactly (`2` is `2.0`;
    /// `9007199254740993` is no float). This is the rule for every value read
    /// against a declared type (arguments, `IO` examples, results); in a
    /// program's `(const ...)` the literal's own form decides its type.
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Literal::Float(x) => Some(*x),
            Literal::Int(i) => crate::float::of_int_exactly(*i),
            _ => None,
        }
    }

    /// Whether two values are equal as the language's `eq` compares them:
    /// structurally, floats by IEEE equality (`-0.0` equals `0.0`). `==` on
    /// literals compares floats by their bits instead.
    pub fn equals(&self, other: &Literal) -> bool {
        match (self, other) {
            (Literal::Float(a), Literal::Float(b)) => a == b,
            (Literal::Array(a), Literal::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.equals(y))
            }
            (Literal::Object(a), Literal::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((k, x), (l, y))| k == l && x.equals(y))
            }
            _ => self == other,
        }
    }

    /// A word for the JSON kind of this literal, for messages ("an array").
    pub fn kind_name(&self) -> &'static str {
        match self {
            Literal::Bool(_) => "a boolean",
            Literal::Int(_) => "an integer",
            Literal::Float(_) => "a float",
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
            Literal::Float(x) => f.write_str(&crate::float::repr(*x)),
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

/// What a literal is compared, ordered and hashed by: its JSON, a float by
/// its bits (ordered by value, `-0.0` before `0.0`).
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Key<'a> {
    Bool(bool),
    Int(i64),
    Float(i64),
    Str(&'a str),
    Array(&'a [Literal]),
    Object(&'a BTreeMap<String, Literal>),
}

impl Literal {
    fn key(&self) -> Key<'_> {
        match self {
            Literal::Bool(b) => Key::Bool(*b),
            Literal::Int(i) => Key::Int(*i),
            Literal::Float(x) => {
                // The total order of IEEE-754 as an i64: flipping the
                // magnitude bits of negatives orders them below positives.
                let bits = x.to_bits() as i64;
                Key::Float(bits ^ (((bits >> 63) as u64) >> 1) as i64)
            }
            Literal::Str(s) => Key::Str(s),
            Literal::Array(items) => Key::Array(items),
            Literal::Object(entries) => Key::Object(entries),
        }
    }
}

impl PartialEq for Literal {
    fn eq(&self, other: &Literal) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Literal {}

impl PartialOrd for Literal {
    fn partial_cmp(&self, other: &Literal) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Literal {
    fn cmp(&self, other: &Literal) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl std::hash::Hash for Literal {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

/// The int of a map key's JSON text, when it is the canonical decimal text
/// of a 64-bit int (spec/semantics.md 2.5): an optional `-`, no `+`, no
/// leading zeros, no `-0`. Maps with int keys are JSON objects whose keys
/// are these texts.
pub fn int_key(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && text != "-0";
    if canonical {
        text.parse().ok()
    } else {
        None
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
            Literal::Float(x) => s.serialize_f64(*x),
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
        f.write_str("a JSON value without null")
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
        if v.is_finite() {
            Ok(Literal::Float(v))
        } else {
            Err(E::custom(
                "a float beyond the float range is not an Isu value",
            ))
        }
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
    fn floats_are_numbers_with_a_fraction_or_an_exponent() {
        assert_eq!(parse("1.5"), Ok(Literal::Float(1.5)));
        assert_eq!(parse("2.0"), Ok(Literal::Float(2.0)));
        assert_eq!(parse("1e3"), Ok(Literal::Float(1000.0)));
        assert_eq!(parse("2"), Ok(Literal::Int(2)));
        let xs = parse("[2.0, -0.0, 1e16, 5e-324, 0.1]").map(|l| l.to_string());
        assert_eq!(xs, Ok("[2.0, -0.0, 1e+16, 5e-324, 0.1]".to_owned()));
        let json = serde_json::to_string(&Literal::Float(2.0)).unwrap_or_default();
        assert_eq!(json, "2.0");
        assert_ne!(Literal::Float(0.0), Literal::Float(-0.0));
        let zeros = parse(r#"{"a": [0.0, 1.5]}"#).unwrap_or(Literal::Bool(false));
        let signed = parse(r#"{"a": [-0.0, 1.5]}"#).unwrap_or(Literal::Bool(true));
        assert!(zeros.equals(&signed) && zeros != signed);
        assert!(!Literal::Float(1.0).equals(&Literal::Int(1)));
        assert_ne!(Literal::Float(2.0), Literal::Int(2));
        assert!(Literal::Float(-0.0) < Literal::Float(0.0));
        assert!(Literal::Float(-1.0) < Literal::Float(-0.5));
        assert!(Literal::Float(1.0) < Literal::Float(1.5));
    }

    #[test]
    fn rejects_null_big_ints_and_repeated_keys() {
        assert!(parse("null").err().unwrap_or_default().contains("null"));
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
    fn int_keys_are_canonical_decimals() {
        for (text, want) in [
            ("0", Some(0)),
            ("-3", Some(-3)),
            ("42", Some(42)),
            ("-9223372036854775808", Some(i64::MIN)),
            ("9223372036854775807", Some(i64::MAX)),
        ] {
            assert_eq!(int_key(text), want, "{text}");
        }
        for bad in [
            "",
            "-",
            "-0",
            "01",
            "+1",
            " 1",
            "1.0",
            "x",
            "9223372036854775808",
            "١",
        ] {
            assert_eq!(int_key(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn escapes_control_characters_like_json() {
        let s = Literal::Str("a\u{1}\n".into()).to_string();
        assert_eq!(s, r#""a\u0001\n""#);
        assert_eq!(parse(&s), Ok(Literal::Str("a\u{1}\n".into())));
    }
}
