//! Types under inference: a [`Type`] that may still have holes where a literal
//! leaves it open (`(const [])` is an array of something), and the matching of
//! standard-function signatures against such types.
//!
//! Typing is bidirectional: an expression's own partial type ([`PTy`]) is
//! synthesized bottom-up, joined with what its context expects, and the result,
//! once it has no holes, is pushed back down to fix every literal.

use crate::stdlib::Pat;
use isu_plugin_api::Type;
use std::fmt;

/// A type with possible holes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PTy {
    Int,
    Float,
    Bool,
    Str,
    Array(Box<PTy>),
    Map(Box<PTy>, Box<PTy>),
    /// A struct of `TYPES`, by name.
    Struct(String),
    /// The keys of a JSON object literal: `string`, or also `int` when every key
    /// is a decimal int. Nothing else fixing it, it is `string`.
    Key {
        int_ok: bool,
    },
    /// Nothing fixes this part yet (the elements of `[]`).
    Any,
    /// Hidden by an error that has been reported already: matches everything,
    /// and nothing more is said about it.
    Error,
}

/// Why a partial type has no full type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hole {
    /// A literal leaves it open and nothing around it fixes it.
    Open,
    /// It depends on something already reported as an error.
    Poisoned,
}

impl PTy {
    pub(crate) fn of(ty: &Type) -> PTy {
        match ty {
            Type::Int => PTy::Int,
            Type::Float => PTy::Float,
            Type::Bool => PTy::Bool,
            Type::String => PTy::Str,
            Type::Array(e) => PTy::Array(Box::new(PTy::of(e))),
            Type::Map(k, v) => PTy::Map(Box::new(PTy::of(k)), Box::new(PTy::of(v))),
            Type::Struct(name) => PTy::Struct(name.clone()),
        }
    }

    pub(crate) fn array(elem: PTy) -> PTy {
        PTy::Array(Box::new(elem))
    }

    pub(crate) fn map(key: PTy, value: PTy) -> PTy {
        PTy::Map(Box::new(key), Box::new(value))
    }

    /// The most specific type both describe, or `None` when they conflict.
    pub(crate) fn join(&self, other: &PTy) -> Option<PTy> {
        use PTy::*;
        Some(match (self, other) {
            // An error hides a type unless the other side fixes it entirely.
            (Error, t) | (t, Error) => {
                if t.resolve().is_ok() {
                    t.clone()
                } else {
                    Error
                }
            }
            (Any, t) | (t, Any) => t.clone(),
            (Int, Int) => Int,
            (Float, Float) => Float,
            (Bool, Bool) => Bool,
            (Str, Str) | (Key { .. }, Str) | (Str, Key { .. }) => Str,
            (Key { int_ok: true }, Int) | (Int, Key { int_ok: true }) => Int,
            (Key { int_ok: a }, Key { int_ok: b }) => Key { int_ok: *a && *b },
            (Array(a), Array(b)) => PTy::array(a.join(b)?),
            (Map(k1, v1), Map(k2, v2)) => PTy::map(k1.join(k2)?, v1.join(v2)?),
            (Struct(a), Struct(b)) if a == b => Struct(a.clone()),
            _ => return None,
        })
    }

    /// The full type, with object keys defaulting to `string`.
    pub(crate) fn resolve(&self) -> Result<Type, Hole> {
        match self {
            PTy::Int => Ok(Type::Int),
            PTy::Float => Ok(Type::Float),
            PTy::Bool => Ok(Type::Bool),
            PTy::Str | PTy::Key { .. } => Ok(Type::String),
            PTy::Struct(name) => Ok(Type::Struct(name.clone())),
            PTy::Array(e) => Ok(Type::array(e.resolve()?)),
            PTy::Map(k, v) => {
                // A poisoned part wins over an open one: nothing is reported then.
                match (k.resolve(), v.resolve()) {
                    (Ok(k), Ok(v)) => Ok(Type::map(k, v)),
                    (Err(Hole::Poisoned), _) | (_, Err(Hole::Poisoned)) => Err(Hole::Poisoned),
                    _ => Err(Hole::Open),
                }
            }
            PTy::Any => Err(Hole::Open),
            PTy::Error => Err(Hole::Poisoned),
        }
    }

    /// Whether some object keys in it could be ints as well as strings.
    pub(crate) fn has_int_keys(&self) -> bool {
        match self {
            PTy::Key { int_ok } => *int_ok,
            PTy::Array(e) => e.has_int_keys(),
            PTy::Map(k, v) => k.has_int_keys() || v.has_int_keys(),
            _ => false,
        }
    }

    /// Whether a value of this type may key a map (as far as is known).
    pub(crate) fn may_key(&self) -> bool {
        matches!(
            self,
            PTy::Int | PTy::Str | PTy::Key { .. } | PTy::Any | PTy::Error
        )
    }
}

/// Like the canonical type text, with `?` for a hole.
impl fmt::Display for PTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PTy::Int => f.write_str("int"),
            PTy::Float => f.write_str("float"),
            PTy::Bool => f.write_str("bool"),
            PTy::Str | PTy::Key { .. } => f.write_str("string"),
            PTy::Array(e) => write!(f, "{e}[]"),
            PTy::Map(k, v) => write!(f, "map<{k},{v}>"),
            PTy::Struct(name) => f.write_str(name),
            PTy::Any | PTy::Error => f.write_str("?"),
        }
    }
}

/// The type variables of one signature match, bound to partial types.
#[derive(Debug, Default, Clone)]
pub(crate) struct Bindings {
    t: Option<PTy>,
    k: Option<PTy>,
    v: Option<PTy>,
}

impl Bindings {
    fn slot(&mut self, pat: &Pat) -> Option<&mut Option<PTy>> {
        match pat {
            Pat::T => Some(&mut self.t),
            Pat::K => Some(&mut self.k),
            Pat::V => Some(&mut self.v),
            _ => None,
        }
    }

    fn bind(&mut self, var: &Pat, ty: &PTy) -> bool {
        let Some(slot) = self.slot(var) else {
            return false;
        };
        let joined = match slot {
            Some(bound) => bound.join(ty),
            None => Some(ty.clone()),
        };
        match joined {
            Some(j) => {
                *slot = Some(j);
                true
            }
            None => false,
        }
    }

    /// Matches `ty` against `pat`, binding variables; false when it cannot match.
    pub(crate) fn unify(&mut self, pat: &Pat, ty: &PTy) -> bool {
        match (pat, ty) {
            // A key hidden by an error accepts anything quietly.
            (Pat::K, t) if !t.may_key() => self.k == Some(PTy::Error),
            (Pat::K, t) => self.bind(pat, t),
            (Pat::T | Pat::V, t) => self.bind(pat, t),
            (_, PTy::Any) => true,
            (_, PTy::Error) => {
                self.poison(pat);
                true
            }
            (Pat::Int, PTy::Int | PTy::Key { int_ok: true })
            | (Pat::Float, PTy::Float)
            | (Pat::Bool, PTy::Bool)
            | (Pat::Str, PTy::Str | PTy::Key { .. }) => true,
            (Pat::Array(p), PTy::Array(t)) => self.unify(p, t),
            (Pat::Map(pk, pv), PTy::Map(k, v)) => self.unify(pk, k) && self.unify(pv, v),
            _ => false,
        }
    }

    /// Binds every variable in `pat` to the error type.
    fn poison(&mut self, pat: &Pat) {
        match pat {
            Pat::Array(p) => self.poison(p),
            Pat::Map(k, v) => {
                self.poison(k);
                self.poison(v);
            }
            Pat::T | Pat::K | Pat::V => {
                self.bind(pat, &PTy::Error);
            }
            Pat::Int | Pat::Float | Pat::Bool | Pat::Str => {}
        }
    }

    /// The partial type `pat` stands for; unbound variables are holes.
    pub(crate) fn instantiate(&self, pat: &Pat) -> PTy {
        let var = |b: &Option<PTy>| b.clone().unwrap_or(PTy::Any);
        match pat {
            Pat::Int => PTy::Int,
            Pat::Float => PTy::Float,
            Pat::Bool => PTy::Bool,
            Pat::Str => PTy::Str,
            Pat::Array(e) => PTy::array(self.instantiate(e)),
            Pat::Map(k, v) => PTy::map(self.instantiate(k), self.instantiate(v)),
            Pat::T => var(&self.t),
            Pat::K => var(&self.k),
            Pat::V => var(&self.v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_fills_holes_and_refuses_conflicts() {
        let open = PTy::array(PTy::Any);
        assert_eq!(
            open.join(&PTy::of(&Type::array(Type::Int))),
            Some(PTy::array(PTy::Int))
        );
        assert_eq!(PTy::Int.join(&PTy::Str), None);
        assert_eq!(PTy::array(PTy::Int).join(&PTy::array(PTy::Bool)), None);
        assert_eq!(PTy::Key { int_ok: true }.join(&PTy::Int), Some(PTy::Int));
        assert_eq!(PTy::Key { int_ok: false }.join(&PTy::Int), None);
        assert_eq!(PTy::Key { int_ok: false }.join(&PTy::Str), Some(PTy::Str));
        assert_eq!(PTy::Error.join(&PTy::Int), Some(PTy::Int));
        assert_eq!(PTy::Error.join(&PTy::array(PTy::Any)), Some(PTy::Error));
    }

    #[test]
    fn resolve_defaults_keys_and_reports_holes() {
        let m = PTy::map(PTy::Key { int_ok: true }, PTy::Int);
        assert_eq!(m.resolve(), Ok(Type::map(Type::String, Type::Int)));
        assert_eq!(PTy::array(PTy::Any).resolve(), Err(Hole::Open));
        assert_eq!(
            PTy::map(PTy::Any, PTy::Error).resolve(),
            Err(Hole::Poisoned)
        );
        assert_eq!(PTy::array(PTy::Any).to_string(), "?[]");
    }

    #[test]
    fn unify_binds_variables_across_parameters() {
        let mut b = Bindings::default();
        assert!(b.unify(&Pat::Array(&Pat::T), &PTy::array(PTy::Any)));
        assert!(b.unify(&Pat::T, &PTy::Int));
        assert_eq!(b.instantiate(&Pat::Array(&Pat::T)), PTy::array(PTy::Int));
        assert!(!b.unify(&Pat::T, &PTy::Str));
        let mut b = Bindings::default();
        assert!(!b.unify(&Pat::K, &PTy::Bool), "bool is no map key");
        let mut b = Bindings::default();
        assert!(b.unify(&Pat::Map(&Pat::K, &Pat::V), &PTy::Error));
        assert_eq!(b.instantiate(&Pat::V), PTy::Error);
    }
}
