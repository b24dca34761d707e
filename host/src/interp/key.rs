//! Map keys: ints, or strings with their first eight bytes kept inline, so
//! that most comparisons in a map's search are one integer comparison
//! instead of two pointer chases and a `memcmp`. The order is that of the
//! values: ints numerically, strings by code point.

use super::value::{Text, Value};
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    Int(i64),
    Str(StrKey),
}

/// A string key: the text, and its first eight bytes as a big-endian
/// integer (zero-padded), which orders as the text does whenever two
/// prefixes differ.
#[derive(Debug, Clone)]
pub struct StrKey {
    prefix: u64,
    text: Rc<Text>,
}

impl StrKey {
    pub fn new(text: Rc<Text>) -> StrKey {
        let bytes = text.as_bytes();
        let mut head = [0u8; 8];
        let n = bytes.len().min(8);
        head[..n].copy_from_slice(&bytes[..n]);
        StrKey {
            prefix: u64::from_be_bytes(head),
            text,
        }
    }
}

impl PartialEq for StrKey {
    fn eq(&self, other: &StrKey) -> bool {
        self.prefix == other.prefix && self.text == other.text
    }
}

impl Eq for StrKey {}

impl PartialOrd for StrKey {
    fn partial_cmp(&self, other: &StrKey) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// If the zero-padded prefixes differ at byte i, either both texts have a
/// byte there and they differ, or the shorter text ends before i and is a
/// prefix of the other: either way the prefixes order as the texts do.
impl Ord for StrKey {
    #[inline]
    fn cmp(&self, other: &StrKey) -> Ordering {
        match self.prefix.cmp(&other.prefix) {
            Ordering::Equal => self.text.cmp(&other.text),
            unequal => unequal,
        }
    }
}

/// The hash of a string key: its first eight bytes as one word, then the
/// rest (see [`super::table::KeyHasher`]).
impl Hash for StrKey {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.prefix);
        if let Some(rest) = self.text.as_bytes().get(8..) {
            if !rest.is_empty() {
                state.write(rest);
            }
        }
    }
}

impl Hash for Key {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Key::Int(i) => state.write_u64(*i as u64),
            Key::Str(s) => s.hash(state),
        }
    }
}

impl Key {
    /// The size work counts of the key (`isu_lang::work`): its characters,
    /// none for an int.
    pub fn size(&self) -> u64 {
        match self {
            Key::Int(_) => 0,
            Key::Str(k) => k.text.chars() as u64,
        }
    }

    /// The key of an int or string value; `None` for any other value.
    #[inline]
    pub fn of(v: &Value) -> Option<Key> {
        match v {
            Value::Int(i) => Some(Key::Int(*i)),
            Value::Str(s) => Some(Key::Str(StrKey::new(s.clone()))),
            _ => None,
        }
    }

    pub fn to_value(&self) -> Value {
        match self {
            Key::Int(i) => Value::Int(*i),
            Key::Str(s) => Value::Str(s.text.clone()),
        }
    }

    /// The key as a JSON object key: an int in decimal, a string as it is.
    pub fn text(&self) -> String {
        match self {
            Key::Int(i) => i.to_string(),
            Key::Str(s) => s.text.as_str().to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> Key {
        Key::of(&Value::str(s)).unwrap_or(Key::Int(0))
    }

    #[test]
    fn string_keys_order_by_code_point() {
        let words = [
            "",
            "\u{0}",
            "\u{0}\u{0}",
            "B",
            "a",
            "a\u{0}",
            "ab",
            "abcdefgh",
            "abcdefgh\u{0}",
            "abcdefghi",
            "abcdefgi",
            "b",
            "é",
            "日",
            "\u{ffff}",
            "😀",
        ];
        for (i, x) in words.iter().enumerate() {
            for (j, y) in words.iter().enumerate() {
                assert_eq!(key(x).cmp(&key(y)), i.cmp(&j), "{x:?} vs {y:?}");
                assert_eq!(key(x) == key(y), i == j);
            }
        }
    }

    #[test]
    fn keys_round_trip() {
        assert_eq!(
            Key::of(&Value::Int(-3)).map(|k| k.to_value()),
            Some(Value::Int(-3))
        );
        assert_eq!(key("é").to_value(), Value::str("é"));
        assert_eq!(Key::Int(-3).text(), "-3");
        assert!(Key::of(&Value::Bool(true)).is_none());
        assert!(Key::Int(5) < Key::Int(10));
    }
}
