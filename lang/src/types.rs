//! Isu's static types.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A static type of Isu v0.
///
/// JSON form: `"int"`, `"float"`, `"bool"`, `"string"`, `{"array": T}`, `{"map": [K, V]}`,
/// `{"struct": "point"}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Type {
    /// 64-bit signed integer.
    Int,
    /// IEEE-754 binary64, finite only (`spec/semantics.md`, "Floats").
    Float,
    /// `true` or `false`.
    Bool,
    /// UTF-8 text; lengths count Unicode scalar values.
    String,
    /// `T[]`.
    Array(Box<Type>),
    /// `map<K,V>`; `K` is `int` or `string` in a valid program.
    Map(Box<Type>, Box<Type>),
    /// A struct declared in `TYPES`, by its name.
    Struct(String),
}

impl Type {
    /// `elem[]`.
    pub fn array(elem: Type) -> Type {
        Type::Array(Box::new(elem))
    }

    /// `map<key,value>`.
    pub fn map(key: Type, value: Type) -> Type {
        Type::Map(Box::new(key), Box::new(value))
    }

    /// Whether a value of this type may key a map.
    pub fn is_map_key(&self) -> bool {
        matches!(self, Type::Int | Type::String)
    }
}

/// The canonical text of a type: `int`, `string[]`, `map<string,int[]>`.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int => f.write_str("int"),
            Type::Float => f.write_str("float"),
            Type::Bool => f.write_str("bool"),
            Type::String => f.write_str("string"),
            Type::Array(elem) => write!(f, "{elem}[]"),
            Type::Map(k, v) => write!(f, "map<{k},{v}>"),
            Type::Struct(name) => f.write_str(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_canonical_text() {
        let t = Type::array(Type::map(Type::String, Type::array(Type::Int)));
        assert_eq!(t.to_string(), "map<string,int[]>[]");
    }

    #[test]
    fn json_form() {
        let t = Type::map(Type::Int, Type::array(Type::Bool));
        let json = serde_json::to_string(&t).unwrap_or_default();
        assert_eq!(json, r#"{"map":["int",{"array":"bool"}]}"#);
        let back: Type = serde_json::from_str(&json).unwrap_or(Type::Int);
        assert_eq!(back, t);
        let point = serde_json::to_string(&Type::Struct("point".into())).unwrap_or_default();
        assert_eq!(point, r#"{"struct":"point"}"#);
        let floats = serde_json::to_string(&Type::array(Type::Float)).unwrap_or_default();
        assert_eq!(floats, r#"{"array":"float"}"#);
        assert_eq!(
            Type::map(Type::String, Type::Float).to_string(),
            "map<string,float>"
        );
    }
}
