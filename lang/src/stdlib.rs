//! The standard functions: names, signatures and documentation, in one table.
//!
//! The host's validator types calls with this table, the interpreter and
//! every backend dispatch on [`Builtin`] (matching it exhaustively, so a new
//! standard function is a compile error until each implements it), and
//! `spec/stdlib.md` documents the same table (a test keeps them in step).
//! Signatures are small patterns with the type variables `T`, `K` and `V`; a
//! function may have several overloads (`LEN` of an array, a map or a string).

use crate::codes::RuntimeCode;
use crate::types::Type;
use std::collections::BTreeMap;

/// The standard function a call resolves to. The variants are in the order
/// of their names, which is the order of [`STDLIB`]: `STDLIB[b as usize]` is
/// the entry of `b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Builtin {
    /// `ABS`.
    Abs,
    /// `CEIL`.
    Ceil,
    /// `CHARS`.
    Chars,
    /// `CONCAT`.
    Concat,
    /// `CONTAINS`.
    Contains,
    /// `FLOAT`.
    Float,
    /// `FLOOR`.
    Floor,
    /// `INDEX_OF`.
    IndexOf,
    /// `JOIN`.
    Join,
    /// `LEN`.
    Len,
    /// `LOWER`.
    Lower,
    /// `MAP_GET`.
    MapGet,
    /// `MAP_GET_OR`.
    MapGetOr,
    /// `MAP_HAS`.
    MapHas,
    /// `MAP_KEYS`.
    MapKeys,
    /// `MAP_SET`.
    MapSet,
    /// `MAX`.
    Max,
    /// `MIN`.
    Min,
    /// `PARSE_FLOAT`.
    ParseFloat,
    /// `PARSE_INT`.
    ParseInt,
    /// `POP`.
    Pop,
    /// `PUSH`.
    Push,
    /// `REPEAT`.
    Repeat,
    /// `REVERSE`.
    Reverse,
    /// `ROUND`.
    Round,
    /// `SLICE`.
    Slice,
    /// `SORT`.
    Sort,
    /// `SPLIT`.
    Split,
    /// `SPLIT_WHITESPACE`.
    SplitWhitespace,
    /// `SQRT`.
    Sqrt,
    /// `TO_STRING`.
    ToString,
    /// `TRUNC`.
    Trunc,
    /// `UPPER`.
    Upper,
}

/// A type pattern of a signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pat {
    /// `int`.
    Int,
    /// `float`.
    Float,
    /// `bool`.
    Bool,
    /// `string`.
    Str,
    /// `T[]`.
    Array(&'static Pat),
    /// `map<K, V>`.
    Map(&'static Pat, &'static Pat),
    /// Any type, the same at every `T` of one overload.
    T,
    /// A map key type (`int` or `string`).
    K,
    /// Any type: a map's values.
    V,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// One signature of a standard function.
pub struct Overload {
    /// The parameters' types.
    pub params: &'static [Pat],
    /// The result's type.
    pub ret: Pat,
}

/// One standard function.
#[derive(Debug, Clone, Copy)]
pub struct StdFn {
    /// The name as called: `LEN`.
    pub name: &'static str,
    /// Its enum value.
    pub builtin: Builtin,
    /// Its signatures.
    pub overloads: &'static [Overload],
    /// What it does, one sentence.
    pub doc: &'static str,
    /// The runtime errors it can raise (besides the limits).
    pub errors: &'static [RuntimeCode],
    /// Whether its result can hold more elements (or characters) than its
    /// arguments, so building it checks the size limit first.
    pub grows: bool,
}

const ARR_T: Pat = Pat::Array(&Pat::T);
const MAP_KV: Pat = Pat::Map(&Pat::K, &Pat::V);

macro_rules! ov {
    ([$($p:expr),*] -> $r:expr) => {
        Overload { params: &[$($p),*], ret: $r }
    };
}

/// Every standard function, sorted by name.
pub const STDLIB: &[StdFn] = &[
    StdFn {
        name: "ABS",
        builtin: Builtin::Abs,
        overloads: &[
            ov!([Pat::Int] -> Pat::Int),
            ov!([Pat::Float] -> Pat::Float),
        ],
        doc: "The absolute value of an int (of the minimum int, an error) or of a float.",
        errors: &[RuntimeCode::IntOverflow],
        grows: false,
    },
    StdFn {
        name: "CEIL",
        builtin: Builtin::Ceil,
        overloads: &[ov!([Pat::Float] -> Pat::Int)],
        doc: "The least int not below a float; outside the int range, an error.",
        errors: &[RuntimeCode::IntOverflow],
        grows: false,
    },
    StdFn {
        name: "CHARS",
        builtin: Builtin::Chars,
        overloads: &[ov!([Pat::Str] -> Pat::Array(&Pat::Str))],
        doc: "The Unicode scalar values of a string, each as a string of one character.",
        errors: &[],
        grows: true,
    },
    StdFn {
        name: "CONCAT",
        builtin: Builtin::Concat,
        overloads: &[
            ov!([Pat::Str, Pat::Str] -> Pat::Str),
            ov!([ARR_T, ARR_T] -> ARR_T),
        ],
        doc: "Two strings, or two arrays, one after the other.",
        errors: &[],
        grows: true,
    },
    StdFn {
        name: "CONTAINS",
        builtin: Builtin::Contains,
        overloads: &[
            ov!([Pat::Str, Pat::Str] -> Pat::Bool),
            ov!([ARR_T, Pat::T] -> Pat::Bool),
        ],
        doc: "Whether the second string occurs in the first (the empty string occurs in every string), or whether an element of the array equals the value.",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "FLOAT",
        builtin: Builtin::Float,
        overloads: &[ov!([Pat::Int] -> Pat::Float)],
        doc: "The float nearest an int (ties to even beyond 2^53).",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "FLOOR",
        builtin: Builtin::Floor,
        overloads: &[ov!([Pat::Float] -> Pat::Int)],
        doc: "The greatest int not above a float; outside the int range, an error.",
        errors: &[RuntimeCode::IntOverflow],
        grows: false,
    },
    StdFn {
        name: "INDEX_OF",
        builtin: Builtin::IndexOf,
        overloads: &[
            ov!([Pat::Str, Pat::Str] -> Pat::Int),
            ov!([ARR_T, Pat::T] -> Pat::Int),
        ],
        doc: "Where the second string first occurs in the first, in characters (0 for the empty string), or the index of the first element of the array equal to the value; -1 when there is none.",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "JOIN",
        builtin: Builtin::Join,
        overloads: &[ov!([Pat::Array(&Pat::Str), Pat::Str] -> Pat::Str)],
        doc: "The strings of an array with the separator between each two.",
        errors: &[],
        grows: true,
    },
    StdFn {
        name: "LEN",
        builtin: Builtin::Len,
        overloads: &[
            ov!([ARR_T] -> Pat::Int),
            ov!([MAP_KV] -> Pat::Int),
            ov!([Pat::Str] -> Pat::Int),
        ],
        doc: "The number of elements of an array, of entries of a map, or of Unicode scalar values of a string.",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "LOWER",
        builtin: Builtin::Lower,
        overloads: &[ov!([Pat::Str] -> Pat::Str)],
        doc: "The string with ASCII A-Z turned to a-z; every other character unchanged.",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "MAP_GET",
        builtin: Builtin::MapGet,
        overloads: &[ov!([MAP_KV, Pat::K] -> Pat::V)],
        doc: "The value of a key; a missing key is an error.",
        errors: &[RuntimeCode::MissingKey],
        grows: false,
    },
    StdFn {
        name: "MAP_GET_OR",
        builtin: Builtin::MapGetOr,
        overloads: &[ov!([MAP_KV, Pat::K, Pat::V] -> Pat::V)],
        doc: "The value of a key, or the default when the map lacks it.",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "MAP_HAS",
        builtin: Builtin::MapHas,
        overloads: &[ov!([MAP_KV, Pat::K] -> Pat::Bool)],
        doc: "Whether the map holds the key.",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "MAP_KEYS",
        builtin: Builtin::MapKeys,
        overloads: &[ov!([MAP_KV] -> Pat::Array(&Pat::K))],
        doc: "The keys of a map in ascending order (ints numerically, strings by code point).",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "MAP_SET",
        builtin: Builtin::MapSet,
        overloads: &[ov!([MAP_KV, Pat::K, Pat::V] -> MAP_KV)],
        doc: "The map with the key set to the value (inserted or replaced).",
        errors: &[],
        grows: true,
    },
    StdFn {
        name: "MAX",
        builtin: Builtin::Max,
        overloads: &[
            ov!([Pat::Int, Pat::Int] -> Pat::Int),
            ov!([Pat::Float, Pat::Float] -> Pat::Float),
        ],
        doc: "The larger of two ints or two floats (the first unless the second is greater).",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "MIN",
        builtin: Builtin::Min,
        overloads: &[
            ov!([Pat::Int, Pat::Int] -> Pat::Int),
            ov!([Pat::Float, Pat::Float] -> Pat::Float),
        ],
        doc: "The smaller of two ints or two floats (the first unless the second is less).",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "PARSE_FLOAT",
        builtin: Builtin::ParseFloat,
        overloads: &[ov!([Pat::Str] -> Pat::Float)],
        doc: "The float a string spells, as Python's float() reads ASCII text (sign, digits, fraction, exponent, _ between digits, blanks around); no inf or nan.",
        errors: &[RuntimeCode::InvalidNumber, RuntimeCode::FloatNotFinite],
        grows: false,
    },
    StdFn {
        name: "PARSE_INT",
        builtin: Builtin::ParseInt,
        overloads: &[ov!([Pat::Str] -> Pat::Int)],
        doc: "The int a string spells: an optional '-' then one or more ASCII digits, nothing else, within 64 bits.",
        errors: &[RuntimeCode::ParseIntFailed],
        grows: false,
    },
    StdFn {
        name: "POP",
        builtin: Builtin::Pop,
        overloads: &[ov!([ARR_T] -> ARR_T)],
        doc: "The array without its last element; an empty array is an error.",
        errors: &[RuntimeCode::EmptyCollection],
        grows: false,
    },
    StdFn {
        name: "PUSH",
        builtin: Builtin::Push,
        overloads: &[ov!([ARR_T, Pat::T] -> ARR_T)],
        doc: "The array with the value appended.",
        errors: &[],
        grows: true,
    },
    StdFn {
        name: "REPEAT",
        builtin: Builtin::Repeat,
        overloads: &[ov!([Pat::T, Pat::Int] -> ARR_T)],
        doc: "An array of n copies of the value; a negative n is an error.",
        errors: &[RuntimeCode::NegativeCount],
        grows: true,
    },
    StdFn {
        name: "REVERSE",
        builtin: Builtin::Reverse,
        overloads: &[ov!([ARR_T] -> ARR_T), ov!([Pat::Str] -> Pat::Str)],
        doc: "The elements of an array, or the characters (Unicode scalar values) of a string, in reverse order.",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "ROUND",
        builtin: Builtin::Round,
        overloads: &[ov!([Pat::Float] -> Pat::Int)],
        doc: "The int nearest a float, halves to even (Python's round); outside the int range, an error.",
        errors: &[RuntimeCode::IntOverflow],
        grows: false,
    },
    StdFn {
        name: "SLICE",
        builtin: Builtin::Slice,
        overloads: &[
            ov!([ARR_T, Pat::Int, Pat::Int] -> ARR_T),
            ov!([Pat::Str, Pat::Int, Pat::Int] -> Pat::Str),
        ],
        doc: "The elements (or characters) from start up to end, exclusive; 0 <= start <= end <= LEN or it is an error.",
        errors: &[RuntimeCode::IndexOutOfRange],
        grows: false,
    },
    StdFn {
        name: "SORT",
        builtin: Builtin::Sort,
        overloads: &[
            ov!([Pat::Array(&Pat::Int)] -> Pat::Array(&Pat::Int)),
            ov!([Pat::Array(&Pat::Str)] -> Pat::Array(&Pat::Str)),
        ],
        doc: "The elements in ascending order: ints by value, strings by code point, as `lt` orders them.",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "SPLIT",
        builtin: Builtin::Split,
        overloads: &[ov!([Pat::Str, Pat::Str] -> Pat::Array(&Pat::Str))],
        doc: "The pieces of the string between the occurrences of the separator, found from the left without overlapping; empty pieces are kept, so n separators give n + 1 pieces. An empty separator is an error.",
        errors: &[RuntimeCode::EmptySeparator],
        grows: true,
    },
    StdFn {
        name: "SPLIT_WHITESPACE",
        builtin: Builtin::SplitWhitespace,
        overloads: &[ov!([Pat::Str] -> Pat::Array(&Pat::Str))],
        doc: "The non-empty pieces of a string between runs of ASCII whitespace (space, \\t, \\n, \\r, \\x0b, \\x0c).",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "SQRT",
        builtin: Builtin::Sqrt,
        overloads: &[ov!([Pat::Float] -> Pat::Float)],
        doc: "The square root of a float; below zero, an error.",
        errors: &[RuntimeCode::OutOfDomain],
        grows: false,
    },
    StdFn {
        name: "TO_STRING",
        builtin: Builtin::ToString,
        overloads: &[ov!([Pat::Int] -> Pat::Str), ov!([Pat::Float] -> Pat::Str)],
        doc: "The decimal text of an int, with '-' when negative; of a float, Python's repr (0.1, 2.0, -0.0, 1e+16).",
        errors: &[],
        grows: false,
    },
    StdFn {
        name: "TRUNC",
        builtin: Builtin::Trunc,
        overloads: &[ov!([Pat::Float] -> Pat::Int)],
        doc: "The int of a float without its fraction (toward zero); outside the int range, an error.",
        errors: &[RuntimeCode::IntOverflow],
        grows: false,
    },
    StdFn {
        name: "UPPER",
        builtin: Builtin::Upper,
        overloads: &[ov!([Pat::Str] -> Pat::Str)],
        doc: "The string with ASCII a-z turned to A-Z; every other character unchanged.",
        errors: &[],
        grows: false,
    },
];

/// The standard function of this name.
pub fn lookup(name: &str) -> Option<&'static StdFn> {
    STDLIB
        .binary_search_by(|f| f.name.cmp(name))
        .ok()
        .map(|i| &STDLIB[i])
}

impl Builtin {
    /// The standard function a call of `name` resolves to, if any.
    pub fn of(name: &str) -> Option<Builtin> {
        lookup(name).map(|f| f.builtin)
    }

    /// Its entry in [`STDLIB`].
    pub fn info(self) -> &'static StdFn {
        &STDLIB[self as usize]
    }

    /// The name programs call it by: `MAP_GET`.
    pub fn name(self) -> &'static str {
        self.info().name
    }
}

impl StdFn {
    /// The number of arguments every overload takes.
    pub fn arity(&self) -> usize {
        self.overloads.first().map_or(0, |o| o.params.len())
    }
}

/// Type variable bindings while matching one overload.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Bindings {
    vars: BTreeMap<char, Type>,
}

impl Bindings {
    fn bind(&mut self, var: char, ty: &Type) -> bool {
        match self.vars.get(&var) {
            Some(bound) => bound == ty,
            None => {
                self.vars.insert(var, ty.clone());
                true
            }
        }
    }

    /// The type a pattern stands for under these bindings, if every variable in
    /// it is bound.
    pub fn instantiate(&self, pat: &Pat) -> Option<Type> {
        Some(match pat {
            Pat::Int => Type::Int,
            Pat::Float => Type::Float,
            Pat::Bool => Type::Bool,
            Pat::Str => Type::String,
            Pat::Array(e) => Type::array(self.instantiate(e)?),
            Pat::Map(k, v) => Type::map(self.instantiate(k)?, self.instantiate(v)?),
            Pat::T => self.vars.get(&'T')?.clone(),
            Pat::K => self.vars.get(&'K')?.clone(),
            Pat::V => self.vars.get(&'V')?.clone(),
        })
    }

    /// Matches `ty` against `pat`, binding variables; false when it cannot match.
    pub fn unify(&mut self, pat: &Pat, ty: &Type) -> bool {
        match (pat, ty) {
            (Pat::Int, Type::Int)
            | (Pat::Float, Type::Float)
            | (Pat::Bool, Type::Bool)
            | (Pat::Str, Type::String) => true,
            (Pat::Array(p), Type::Array(t)) => self.unify(p, t),
            (Pat::Map(pk, pv), Type::Map(k, v)) => self.unify(pk, k) && self.unify(pv, v),
            (Pat::T, t) => self.bind('T', t),
            (Pat::K, t) => t.is_map_key() && self.bind('K', t),
            (Pat::V, t) => self.bind('V', t),
            _ => false,
        }
    }
}

/// Whether a pattern could match a value of this type (ignoring other
/// arguments), so a caller can tell "wrong type" from "wrong function".
pub fn pat_text(pat: &Pat) -> String {
    match pat {
        Pat::Int => "int".into(),
        Pat::Float => "float".into(),
        Pat::Bool => "bool".into(),
        Pat::Str => "string".into(),
        Pat::Array(e) => format!("{}[]", pat_text(e)),
        Pat::Map(k, v) => format!("map<{},{}>", pat_text(k), pat_text(v)),
        Pat::T => "T".into(),
        Pat::K => "K".into(),
        Pat::V => "V".into(),
    }
}

impl Overload {
    /// `(T[], T) -> T[]`.
    pub fn text(&self) -> String {
        let params: Vec<String> = self.params.iter().map(pat_text).collect();
        format!("({}) -> {}", params.join(", "), pat_text(&self.ret))
    }

    /// The result type for these argument types, if this overload accepts them.
    pub fn apply(&self, args: &[Type]) -> Option<Type> {
        if args.len() != self.params.len() {
            return None;
        }
        let mut b = Bindings::default();
        for (p, t) in self.params.iter().zip(args) {
            if !b.unify(p, t) {
                return None;
            }
        }
        b.instantiate(&self.ret)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_lookup_finds_every_entry() {
        for w in STDLIB.windows(2) {
            assert!(w[0].name < w[1].name, "{} before {}", w[0].name, w[1].name);
        }
        for f in STDLIB {
            assert_eq!(lookup(f.name).map(|g| g.builtin), Some(f.builtin));
        }
        assert!(lookup("NOPE").is_none());
        for (i, f) in STDLIB.iter().enumerate() {
            assert_eq!(f.builtin as usize, i, "{} out of place", f.name);
            assert_eq!(f.builtin.name(), f.name);
            assert_eq!(Builtin::of(f.name), Some(f.builtin));
            assert!(f.overloads.iter().all(|o| o.params.len() == f.arity()));
        }
    }

    #[test]
    fn overloads_apply() {
        let len = lookup("LEN").map(|f| f.overloads).unwrap_or(&[]);
        let s = [Type::String];
        assert!(len.iter().any(|o| o.apply(&s) == Some(Type::Int)));
        let push = lookup("PUSH").map(|f| f.overloads[0]);
        let args = [Type::array(Type::Int), Type::Int];
        assert_eq!(
            push.and_then(|o| o.apply(&args)),
            Some(Type::array(Type::Int))
        );
        let bad = [Type::array(Type::Int), Type::String];
        assert_eq!(push.and_then(|o| o.apply(&bad)), None);
        let get = lookup("MAP_GET").map(|f| f.overloads[0]);
        let m = [Type::map(Type::Bool, Type::Int), Type::Bool];
        assert_eq!(
            get.and_then(|o| o.apply(&m)),
            None,
            "bool keys are not map keys"
        );
        assert_eq!(push.map(|o| o.text()), Some("(T[], T) -> T[]".to_owned()));
    }
}
