//! Runtime values: ints, bools, strings, and arrays, maps and structs shared by
//! reference count with copy-on-write, so that assigning or passing a
//! collection is O(1) and never aliases (a write goes through
//! [`Rc::make_mut`], which copies only when someone else holds the value).
//!
//! Also the conversions at the edges: JSON literals to values (checked against
//! a type), values to literals (for results), and values to the truncated JSON
//! that diagnostics and traces show.

pub use super::items::{Elem, Items};
pub use super::key::Key;
pub use super::record::Record;
pub use super::table::Table;
pub use super::text::Text;
use isu_plugin_api::{Literal, StructDef, Type};
use std::fmt::Write as _;
use std::rc::Rc;

/// An array value.
pub type Array = Rc<Items>;
/// A map value: keys are `Int` or `Str` values (one kind per map), seen in
/// ascending order (ints numerically, strings by code point).
pub type Map = Rc<Table>;

/// One runtime value. Equality and order are structural; the order is only
/// used between two ints, two floats or two strings (comparisons, map keys).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Value {
    /// The content of a `LOCAL` slot before its first assignment. It never
    /// leaves a slot: reading it is an `uninitialized_read`.
    Unset,
    Int(i64),
    Float(Float),
    Bool(bool),
    Str(Rc<Text>),
    Array(Array),
    Map(Map),
    Struct(Rc<Record>),
}

/// A float value: finite binary64, since every operation whose result would
/// not be finite fails instead (`float_not_finite`). Its equality and order
/// are IEEE's, total on finite values: `-0.0` equals `0.0`, as the
/// language's `eq` says.
#[derive(Debug, Clone, Copy)]
pub struct Float(pub f64);

impl PartialEq for Float {
    fn eq(&self, other: &Float) -> bool {
        self.0 == other.0
    }
}

impl Eq for Float {}

impl PartialOrd for Float {
    fn partial_cmp(&self, other: &Float) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Float {
    fn cmp(&self, other: &Float) -> std::cmp::Ordering {
        // Finite values are never unordered.
        self.0
            .partial_cmp(&other.0)
            .unwrap_or(std::cmp::Ordering::Equal)
    }
}

impl Value {
    pub fn float(x: f64) -> Value {
        Value::Float(Float(x))
    }

    pub fn str(s: &str) -> Value {
        Value::Str(Rc::new(Text::of(s)))
    }

    pub fn string(s: String) -> Value {
        Value::Str(Rc::new(Text::new(s)))
    }

    pub fn array(items: Vec<Value>) -> Value {
        Value::Array(Rc::new(Items::from_values(items)))
    }

    /// The length of a string, array or map (characters, elements or
    /// entries); an int or a bool has none.
    pub fn length(&self) -> u64 {
        let n = match self {
            Value::Str(s) => s.chars(),
            Value::Array(xs) => xs.len(),
            Value::Map(m) => m.len(),
            Value::Unset | Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Struct(_) => 0,
        };
        n as u64
    }

    /// The size work counts (`isu_lang::work`): the characters of a string;
    /// the elements of an array plus their sizes; the entries of a map plus
    /// the sizes of their keys and values; the fields of a struct plus
    /// their sizes. The walk stops once the size passes `limit`, returning
    /// some size above it.
    pub fn size_upto(&self, limit: u64) -> u64 {
        let vals: &[Value] = match self {
            Value::Struct(r) => {
                let mut n = r.count() as u64;
                for (_, v) in r.iter() {
                    n = n.saturating_add(v.size_upto(limit.saturating_sub(n)));
                    if n > limit {
                        break;
                    }
                }
                return n;
            }
            Value::Array(xs) => match &**xs {
                Items::Vals(vs) => vs,
                Items::Ints(_) | Items::Bools(_) => return self.length(),
            },
            Value::Map(m) => {
                let mut n = 0u64;
                for (k, v) in m.entries() {
                    n = n.saturating_add(1 + k.size());
                    n = n.saturating_add(v.size_upto(limit.saturating_sub(n)));
                    if n > limit {
                        break;
                    }
                }
                return n;
            }
            _ => return self.length(),
        };
        let mut n = 0u64;
        for v in vals {
            n = n.saturating_add(1);
            n = n.saturating_add(v.size_upto(limit.saturating_sub(n)));
            if n > limit {
                break;
            }
        }
        n
    }

    /// A word for the kind of value, for internal error messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Unset => "no value",
            Value::Int(_) => "an int",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a bool",
            Value::Str(_) => "a string",
            Value::Array(_) => "an array",
            Value::Map(_) => "a map",
            Value::Struct(_) => "a struct",
        }
    }
}

/// Why a JSON value does not have the type asked for: where in the value
/// (`[2]`, `["a"]`, empty at the top) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    pub path: String,
    pub message: String,
}

/// The value of a JSON literal of type `ty`, or where it does not conform.
/// A `map<int,V>` is a JSON object whose keys are the canonical decimal text
/// of an int (`"-3"`, `"0"`, `"42"`: no `+`, no leading zeros, no `-0`).
/// A struct of `types` is a JSON object with exactly its fields.
pub fn from_literal(lit: &Literal, ty: &Type, types: &[StructDef]) -> Result<Value, Mismatch> {
    let mut path = String::new();
    convert(lit, ty, types, &mut path).map_err(|message| Mismatch { path, message })
}

fn convert(
    lit: &Literal,
    ty: &Type,
    types: &[StructDef],
    path: &mut String,
) -> Result<Value, String> {
    match (ty, lit) {
        (Type::Int, Literal::Int(i)) => Ok(Value::Int(*i)),
        // An integer stands for a float when binary64 holds it exactly.
        (Type::Float, Literal::Float(_) | Literal::Int(_)) => match lit.as_float() {
            Some(x) => Ok(Value::float(x)),
            None => Err(format!(
                "expected a float, found the integer {lit}, which no float equals (an integer stands for a float only when binary64 holds it exactly)"
            )),
        },
        (Type::Bool, Literal::Bool(b)) => Ok(Value::Bool(*b)),
        (Type::String, Literal::Str(s)) => Ok(Value::str(s.as_str())),
        (Type::Array(elem), Literal::Array(items)) => {
            let mut out = match **elem {
                Type::Int => Items::Ints(Vec::with_capacity(items.len())),
                Type::Bool => Items::Bools(Vec::with_capacity(items.len())),
                _ => Items::Vals(Vec::with_capacity(items.len())),
            };
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                let _ = write!(path, "[{i}]");
                out.push(convert(item, elem, types, path)?);
                path.truncate(len);
            }
            Ok(Value::Array(Rc::new(out)))
        }
        (Type::Map(key, val), Literal::Object(entries)) => {
            let mut out = Table::default();
            for (k, v) in entries {
                let len = path.len();
                let mut quoted = String::new();
                let _ = isu_plugin_api::literal::write_json_string(&mut quoted, k);
                let _ = write!(path, "[{quoted}]");
                let key = match **key {
                    Type::Int => Key::Int(isu_lang::literal::int_key(k).ok_or_else(|| {
                        format!("the key {quoted} is not the decimal text of an int (map<{key},{val}> has int keys)")
                    })?),
                    Type::String => Key::Str(super::key::StrKey::new(Rc::new(Text::of(k)))),
                    _ => return Err(format!("map<{key},{val}> cannot hold values: its key type is neither int nor string")),
                };
                out.insert(key, convert(v, val, types, path)?);
                path.truncate(len);
            }
            Ok(Value::Map(Rc::new(out)))
        }
        (Type::Struct(name), Literal::Object(entries)) => {
            let def = types
                .iter()
                .find(|d| d.name.name == *name)
                .ok_or_else(|| format!("{name} is no struct of the program"))?;
            if let Some(extra) = entries.keys().find(|k| def.field(k).is_none()) {
                return Err(format!("{name} has no field {extra}"));
            }
            let mut fields = Vec::with_capacity(def.fields.len());
            for field in &def.fields {
                let f = &field.name.name;
                let v = entries
                    .get(f)
                    .ok_or_else(|| format!("the field {f} of {name} is missing"))?;
                let len = path.len();
                let _ = write!(path, ".{f}");
                fields.push((Rc::from(f.as_str()), convert(v, &field.ty, types, path)?));
                path.truncate(len);
            }
            Ok(Value::Struct(Rc::new(Record::new(fields))))
        }
        _ => Err(format!(
            "expected {}, found {}",
            type_words(ty),
            lit.kind_name()
        )),
    }
}

/// `int`, `an array (int[])`: how a message names what a type wants.
fn type_words(ty: &Type) -> String {
    match ty {
        Type::Int => "an int".to_owned(),
        Type::Float => "a float".to_owned(),
        Type::Bool => "a bool".to_owned(),
        Type::String => "a string".to_owned(),
        Type::Array(_) => format!("an array ({ty})"),
        Type::Map(..) | Type::Struct(_) => format!("an object ({ty})"),
    }
}

/// The literal of a value, or `None` when it would hold more than `budget`
/// nodes in all (a value built by sharing, such as `REPEAT` of a big array,
/// can be far larger written out than in memory).
pub fn to_literal(v: &Value, budget: &mut usize) -> Option<Literal> {
    *budget = budget.checked_sub(1)?;
    Some(match v {
        Value::Unset => return None,
        Value::Int(i) => Literal::Int(*i),
        Value::Float(x) => Literal::Float(x.0),
        Value::Bool(b) => Literal::Bool(*b),
        Value::Str(s) => Literal::Str(s.as_str().to_owned()),
        Value::Array(items) => Literal::Array(
            items
                .iter()
                .map(|x| to_literal(&x, budget))
                .collect::<Option<_>>()?,
        ),
        Value::Map(entries) => Literal::Object(
            entries
                .iter()
                .map(|(k, x)| Some((k.text(), to_literal(x, budget)?)))
                .collect::<Option<_>>()?,
        ),
        Value::Struct(r) => Literal::Object(
            r.iter()
                .map(|(k, x)| Some((k.to_owned(), to_literal(x, budget)?)))
                .collect::<Option<_>>()?,
        ),
    })
}

/// How many elements (or entries) of an array (or map) a shown value keeps.
pub const SHOW_ITEMS: usize = 10;
/// How many characters of a string a shown value keeps.
pub const SHOW_CHARS: usize = 80;

/// Writes the JSON of a value for people and traces, truncated: an array
/// keeps its first [`SHOW_ITEMS`] elements and then a string `"… N more"`;
/// a map keeps its first [`SHOW_ITEMS`] entries (in key order) and then the
/// key `"… N more"` with the value `"…"`; a string keeps its first
/// [`SHOW_CHARS`] characters and ends in `"… N more chars"`.
/// An unassigned variable shows as `null`, which no Isu value is.
pub fn write_shown(v: &Value, out: &mut String) {
    match v {
        Value::Unset => out.push_str("null"),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(x) => out.push_str(&isu_lang::float::repr(x.0)),
        Value::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        Value::Str(s) => write_shown_str(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, x) in items.iter().take(SHOW_ITEMS).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_shown(&x, out);
            }
            if items.len() > SHOW_ITEMS {
                let _ = write!(out, ",\"… {} more\"", items.len() - SHOW_ITEMS);
            }
            out.push(']');
        }
        Value::Map(entries) => {
            out.push('{');
            for (i, (k, x)) in entries.first(SHOW_ITEMS).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = isu_plugin_api::literal::write_json_string(out, &k.text());
                out.push(':');
                write_shown(x, out);
            }
            if entries.len() > SHOW_ITEMS {
                let _ = write!(out, ",\"… {} more\":\"…\"", entries.len() - SHOW_ITEMS);
            }
            out.push('}');
        }
        Value::Struct(r) => {
            out.push('{');
            for (i, (k, x)) in r.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = isu_plugin_api::literal::write_json_string(out, k);
                out.push(':');
                write_shown(x, out);
            }
            out.push('}');
        }
    }
}

fn write_shown_str(s: &Text, out: &mut String) {
    if s.chars() <= SHOW_CHARS {
        let _ = isu_plugin_api::literal::write_json_string(out, s.as_str());
    } else {
        let head: String = s.as_str().chars().take(SHOW_CHARS).collect();
        let more = format!("{head}… {} more chars", s.chars() - SHOW_CHARS);
        let _ = isu_plugin_api::literal::write_json_string(out, &more);
    }
}

/// The shown (truncated) JSON of a value as a `serde_json::Value`, for
/// diagnostics. (JSON objects there print their keys in string order.)
pub fn shown_json(v: &Value) -> serde_json::Value {
    let mut s = String::new();
    write_shown(v, &mut s);
    serde_json::from_str(&s).unwrap_or(serde_json::Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Literal {
        serde_json::from_str(s).unwrap_or(Literal::Bool(false))
    }

    fn shown(v: &Value) -> String {
        let mut s = String::new();
        write_shown(v, &mut s);
        s
    }

    #[test]
    fn values_stay_two_words() {
        // Slots, general arrays and map entries hold values by the million:
        // a wider value costs memory bandwidth everywhere.
        assert_eq!(std::mem::size_of::<Value>(), 16);
        assert_eq!(std::mem::size_of::<Key>(), 16);
    }

    #[test]
    fn literals_convert_by_type_and_back() {
        let ty = Type::map(Type::Int, Type::array(Type::String));
        let v = from_literal(
            &lit(r#"{"10": ["a"], "-2": [], "3": ["b", "c"]}"#),
            &ty,
            &[],
        );
        let v = v.unwrap_or(Value::Unset);
        let Value::Map(m) = &v else {
            panic!("not a map: {v:?}")
        };
        let keys: Vec<&Key> = m.keys().collect();
        assert_eq!(keys, [&Key::Int(-2), &Key::Int(3), &Key::Int(10)]);
        let back = to_literal(&v, &mut 100);
        assert_eq!(
            back,
            Some(lit(r#"{"-2": [], "10": ["a"], "3": ["b", "c"]}"#))
        );
    }

    #[test]
    fn mismatches_say_where() {
        let ty = Type::array(Type::map(Type::String, Type::Int));
        let err = from_literal(&lit(r#"[{"a": 1}, {"b": true}]"#), &ty, &[]);
        assert_eq!(
            err,
            Err(Mismatch {
                path: r#"[1]["b"]"#.into(),
                message: "expected an int, found a boolean".into()
            })
        );
        let ty = Type::map(Type::Int, Type::Int);
        for bad in ["01", "+1", "-0", "", "x", "99999999999999999999"] {
            let json = format!(r#"{{"{bad}": 1}}"#);
            let err = from_literal(&lit(&json), &ty, &[]).err().map(|m| m.message);
            assert!(
                err.is_some_and(|m| m.contains("not the decimal text")),
                "{bad}"
            );
        }
        let err = from_literal(&lit("[1]"), &Type::Int, &[])
            .err()
            .map(|m| m.message);
        assert_eq!(err.as_deref(), Some("expected an int, found an array"));
    }

    #[test]
    fn to_literal_stops_at_the_budget() {
        let inner = Value::array(vec![Value::Int(1); 10]);
        let outer = Value::array(vec![inner; 10]);
        assert!(to_literal(&outer, &mut 111).is_some());
        assert!(to_literal(&outer, &mut 110).is_none());
    }

    #[test]
    fn shown_values_are_truncated() {
        let v = Value::array((0..12).map(Value::Int).collect());
        assert_eq!(shown(&v), r#"[0,1,2,3,4,5,6,7,8,9,"… 2 more"]"#);
        let long = Value::str(&"é".repeat(SHOW_CHARS + 3));
        assert!(shown(&long).ends_with("é… 3 more chars\""));
        let m: Table = (0..11).map(|i| (Key::Int(i), Value::Bool(true))).collect();
        let s = shown(&Value::Map(Rc::new(m)));
        assert!(s.starts_with(r#"{"0":true,"1":true,"2":true"#), "{s}");
        assert!(s.ends_with(r#""9":true,"… 1 more":"…"}"#), "{s}");
        assert_eq!(shown(&Value::Unset), "null");
        assert_eq!(shown_json(&Value::str("a\"b")), serde_json::json!("a\"b"));
    }
}
