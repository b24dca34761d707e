//! What is known about the ints inside arrays and maps: for a variable
//! holding a collection, an interval that holds every int in it, at any
//! depth (its "leaves"). Reading an element then has a known interval, so
//! arithmetic on elements can skip checks that cannot fire: a product of two
//! matrix entries made by `(mod x 201)` cannot overflow.
//!
//! The facts flow with the other facts of the environment (lower/env.rs): an
//! assignment sets them, a PUSH or an element assignment adds to them, two
//! branches meet in their hull, and a loop head holds what lower/head.rs
//! finds.

use super::env::{hull, Leaves};
use super::Gen;
use crate::facts;
use crate::interval::Interval;
use isu_plugin_api::{Expr, ExprNode, Literal, Place, Type};

impl Gen {
    /// The ints `e` holds: its value if it is an int, its leaves if it is an
    /// array or map, none otherwise.
    pub(super) fn value_leaves(&self, e: &Expr) -> Leaves {
        match e.ty.as_ref() {
            Some(Type::Int) => Some(self.interval(e)),
            Some(Type::Array(_) | Type::Map(..)) => self.leaves_of(e),
            _ => None,
        }
    }

    /// The leaves of an array or map expression.
    pub(super) fn leaves_of(&self, e: &Expr) -> Leaves {
        let full = Some(Interval::FULL);
        match &e.node {
            ExprNode::Const { value } => literal_leaves(value),
            ExprNode::Var { name } => self.env.leaves(name),
            ExprNode::Index { base, .. } => self.leaves_of(base),
            ExprNode::Call { func, args } => match (func.as_str(), args.as_slice()) {
                ("PUSH", [a, x]) => hull(self.leaves_of(a), self.value_leaves(x)),
                ("POP" | "SLICE", [a, ..]) => self.leaves_of(a),
                ("CONCAT", [a, b]) => hull(self.leaves_of(a), self.leaves_of(b)),
                ("REPEAT", [x, _]) => self.value_leaves(x),
                ("MAP_SET", [m, _, v]) => hull(self.leaves_of(m), self.value_leaves(v)),
                ("MAP_GET", [m, _]) => self.leaves_of(m),
                ("MAP_GET_OR", [m, _, d]) => hull(self.leaves_of(m), self.value_leaves(d)),
                ("CHARS" | "SPLIT_WHITESPACE", _) => None,
                ("MAP_KEYS", [m]) => match m.ty.as_ref() {
                    Some(Type::Map(k, _)) if **k == Type::Int => full,
                    _ => None,
                },
                _ => full,
            },
            _ => full,
        }
    }

    /// The interval of an int read out of the collection `base`.
    pub(super) fn element_interval(&self, base: &Expr) -> Interval {
        self.leaves_of(base).unwrap_or(Interval::FULL)
    }

    /// The collection variable an ASSIGN stores into and the ints it
    /// stores there (all its ints, for a plain assignment to the variable):
    /// `None` when the variable is not a collection.
    pub(super) fn stored_leaves(&self, target: &Place, expr: &Expr) -> Option<(String, Leaves)> {
        let (root, _) = target.root();
        let is_collection = self
            .facts
            .var(root)
            .is_some_and(|v| crate::pytype::is_collection(&v.ty));
        if !is_collection {
            return None;
        }
        let leaves = match (target, facts::update(target, expr)) {
            (_, Some(up)) => match up.op {
                facts::UpdateOp::Pop => None,
                facts::UpdateOp::MapSet => up.rest.get(1).and_then(|v| self.value_leaves(v)),
                facts::UpdateOp::Push | facts::UpdateOp::Concat => {
                    up.rest.first().and_then(|v| self.value_leaves(v))
                }
            },
            (Place::Var { .. }, None) => self.leaves_of(expr),
            (Place::Index { .. }, None) => self.value_leaves(expr),
        };
        Some((root.to_owned(), leaves))
    }
}

/// The ints in a constant.
fn literal_leaves(value: &Literal) -> Leaves {
    match value {
        Literal::Int(v) => Some(Interval::exact(*v)),
        Literal::Bool(_) | Literal::Str(_) => None,
        Literal::Array(items) => items.iter().map(literal_leaves).fold(None, hull),
        Literal::Object(entries) => entries.values().map(literal_leaves).fold(None, hull),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ints_in_constants() {
        let v = Literal::Array(vec![
            Literal::Array(vec![Literal::Int(3)]),
            Literal::Array(vec![Literal::Int(-2), Literal::Int(9)]),
        ]);
        assert_eq!(literal_leaves(&v), Some(Interval::new(-2, 9)));
        assert_eq!(literal_leaves(&Literal::Array(vec![])), None);
        assert_eq!(
            hull(None, Some(Interval::exact(1))),
            Some(Interval::exact(1))
        );
    }
}
