//! The values of expressions under the facts: an interval that surely holds
//! an int expression's value, the ints inside a collection expression's
//! value (its leaves: a product of two matrix entries made by `(mod x 201)`
//! cannot overflow), and whether an index surely lies in its array.

use super::super::interval::Interval;
use super::super::Decls;
use super::env::{hull, place_type, Env, Leaves};
use crate::iir::{BinaryOp, Expr, ExprNode, Place, UnaryOp};
use crate::literal::Literal;
use crate::stdlib::Builtin;
use crate::types::Type;
use crate::update::{in_place, Update};

impl Env {
    /// An interval that surely holds the value of an int expression.
    pub fn interval(&self, e: &Expr) -> Interval {
        match &e.node {
            ExprNode::Const {
                value: Literal::Int(v),
            } => Interval::exact(*v),
            ExprNode::Var { name } => self.var_interval(name),
            ExprNode::Unary {
                op: UnaryOp::Neg,
                arg,
            } => (-self.interval(arg)).clamp(),
            ExprNode::Binary { op, lhs, rhs } => {
                let (l, r) = (self.interval(lhs), self.interval(rhs));
                let single_signed = r.lo > 0 || r.hi < 0;
                match op {
                    BinaryOp::Add => (l + r).clamp(),
                    BinaryOp::Sub => (l - r).clamp(),
                    BinaryOp::Mul => self.product(lhs, rhs).clamp(),
                    BinaryOp::Div if single_signed => l.quot(r).clamp(),
                    BinaryOp::Mod if single_signed => l.remainder(r),
                    _ => Interval::FULL,
                }
            }
            ExprNode::Call { func, args } => match (Builtin::of(func), args.as_slice()) {
                (Some(Builtin::Len), _) => Interval::LEN,
                // A position, or -1.
                (Some(Builtin::IndexOf), _) => Interval::new(-1, Interval::LEN.hi),
                (Some(Builtin::Abs), [a]) => self.interval(a).abs().clamp(),
                (Some(Builtin::Min), [a, b]) => self.interval(a).min(self.interval(b)),
                (Some(Builtin::Max), [a, b]) => self.interval(a).max(self.interval(b)),
                (Some(Builtin::MapGet), [m, _]) => self.element_interval(m),
                (Some(Builtin::MapGetOr), [m, _, d]) => {
                    let (x, y) = (self.element_interval(m), self.interval(d));
                    x.hull(y)
                }
                _ => Interval::FULL,
            },
            ExprNode::Index { base, .. } => self.element_interval(base),
            ExprNode::If {
                cond,
                then_expr,
                else_expr,
            } => {
                let t = self.learned(cond, true).interval(then_expr);
                t.hull(self.learned(cond, false).interval(else_expr))
            }
            _ => Interval::FULL,
        }
    }

    /// The exact interval of `(mul l r)` before its check (a square is
    /// never negative).
    pub fn product(&self, l: &Expr, r: &Expr) -> Interval {
        if l.same(r) {
            self.interval(l).square()
        } else {
            self.interval(l) * self.interval(r)
        }
    }

    /// The values the variable of `(range i START END [STEP])` takes.
    pub fn range_values(&self, start: &Expr, end: &Expr, step: Option<&Expr>) -> Interval {
        let (a, b) = (self.interval(start), self.interval(end));
        let (up, down) = match step.map(|s| self.interval(s)) {
            None => (true, false),
            Some(iv) => (iv.hi > 0, iv.lo < 0),
        };
        match (up, down) {
            (true, false) => Interval::new(a.lo, a.lo.max(b.hi - 1)),
            (false, true) => Interval::new(a.hi.min(b.lo + 1), a.hi),
            _ => a.hull(b),
        }
    }

    /// The ints `e` holds: its value if it is an int, its leaves if it is an
    /// array or map, none otherwise.
    pub fn value_leaves(&self, e: &Expr) -> Leaves {
        match e.ty.as_ref() {
            Some(Type::Int) => Some(self.interval(e)),
            Some(Type::Array(_) | Type::Map(..)) => self.leaves_of(e),
            _ => None,
        }
    }

    /// The leaves of an array or map expression.
    pub fn leaves_of(&self, e: &Expr) -> Leaves {
        let full = Some(Interval::FULL);
        match &e.node {
            ExprNode::Const { value } => literal_leaves(value),
            ExprNode::Var { name } => self.leaves(name),
            ExprNode::Index { base, .. } => self.leaves_of(base),
            ExprNode::Call { func, args } => match (Builtin::of(func), args.as_slice()) {
                (Some(Builtin::Push), [a, x]) => hull(self.leaves_of(a), self.value_leaves(x)),
                (
                    Some(Builtin::Pop | Builtin::Slice | Builtin::Sort | Builtin::Reverse),
                    [a, ..],
                ) => self.leaves_of(a),
                (Some(Builtin::Concat), [a, b]) => hull(self.leaves_of(a), self.leaves_of(b)),
                (Some(Builtin::Repeat), [x, _]) => self.value_leaves(x),
                (Some(Builtin::MapSet), [m, _, v]) => hull(self.leaves_of(m), self.value_leaves(v)),
                (Some(Builtin::MapGet), [m, _]) => self.leaves_of(m),
                (Some(Builtin::MapGetOr), [m, _, d]) => {
                    hull(self.leaves_of(m), self.value_leaves(d))
                }
                (Some(Builtin::Chars | Builtin::SplitWhitespace), _) => None,
                (Some(Builtin::MapKeys), [m]) => match m.ty.as_ref() {
                    Some(Type::Map(k, _)) if **k == Type::Int => full,
                    _ => None,
                },
                _ => full,
            },
            _ => full,
        }
    }

    /// The interval of an int read out of the collection `base`.
    pub fn element_interval(&self, base: &Expr) -> Interval {
        self.leaves_of(base).unwrap_or(Interval::FULL)
    }

    /// The collection variable an `ASSIGN` stores into and the ints it
    /// stores there (all its ints, for a plain assignment to the variable):
    /// `None` when the variable is not a collection.
    pub fn stored_leaves(
        &self,
        target: &Place,
        expr: &Expr,
        decls: &Decls,
    ) -> Option<(String, Leaves)> {
        let (root, _) = target.root();
        if !decls.is_collection(root) {
            return None;
        }
        let leaves = match (target, in_place(target, expr)) {
            (_, Some(up)) => match up.op {
                Update::Pop => None,
                Update::MapSet => up.rest.get(1).and_then(|v| self.value_leaves(v)),
                Update::Push | Update::Concat => up.rest.first().and_then(|v| self.value_leaves(v)),
            },
            (Place::Var { .. }, None) => self.leaves_of(expr),
            (Place::Index { .. } | Place::Field { .. }, None) => self.value_leaves(expr),
        };
        Some((root.to_owned(), leaves))
    }

    /// Whether evaluating `index` gives an index of the array variable
    /// `array` (`0 <= index < LEN(array)`), so the check of reading or
    /// storing there cannot fire: it is not negative, and it is a variable
    /// below the array's length, or such a variable minus a constant.
    pub fn index_in_bounds(&self, index: &Expr, array: &str) -> bool {
        self.interval(index).lo >= 0 && self.index_facts(index).iter().any(|a| a == array)
    }

    /// Whether the level `(index base index)` of an element `TARGET` is an
    /// array element surely in range, so storing there needs no check: the
    /// level's container is an array variable and the index in its bounds.
    pub fn target_in_bounds(&self, base: &Place, index: &Expr, decls: &Decls) -> bool {
        match (base, place_type(base, decls)) {
            (Place::Var { name, .. }, Some(Type::Array(_))) => self.index_in_bounds(index, name),
            _ => false,
        }
    }

    /// The arrays whose length the value of `e` is surely below: those of a
    /// variable, or of a variable minus a constant that is not negative.
    pub fn index_facts(&self, e: &Expr) -> Vec<String> {
        match &e.node {
            ExprNode::Var { name } => self.below_of(name),
            ExprNode::Binary { op, lhs, rhs } => match (op, &lhs.node, rhs.int_const()) {
                (BinaryOp::Sub, ExprNode::Var { name }, Some(k)) if k >= 0 => self.below_of(name),
                (BinaryOp::Add, ExprNode::Var { name }, Some(k)) if k <= 0 => self.below_of(name),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// The arrays every value of `(range i START END [STEP])` is below,
    /// where END is `LEN(a)` or `LEN(a) - k` (`k >= 0`) and the range counts
    /// up.
    pub fn range_index_facts(&self, end: &Expr, step: Option<&Expr>) -> Vec<String> {
        let up = step.map_or(true, |s| self.interval(s).lo > 0);
        match len_minus(end) {
            Some((a, k)) if up && k >= 0 => vec![a.to_owned()],
            _ => Vec::new(),
        }
    }
}

/// `LEN(a)` of an array variable `a` as `(a, 0)`; `LEN(a) - k` (or
/// `LEN(a) + -k`) with a constant `k` as `(a, k)`.
pub(super) fn len_minus(e: &Expr) -> Option<(&str, i128)> {
    fn len_of(e: &Expr) -> Option<&str> {
        let ExprNode::Call { func, args } = &e.node else {
            return None;
        };
        match (Builtin::of(func), args.as_slice()) {
            (Some(Builtin::Len), [a]) if matches!(a.ty, Some(Type::Array(_))) => match &a.node {
                ExprNode::Var { name } => Some(name.as_str()),
                _ => None,
            },
            _ => None,
        }
    }
    if let Some(a) = len_of(e) {
        return Some((a, 0));
    }
    let ExprNode::Binary { op, lhs, rhs } = &e.node else {
        return None;
    };
    let (a, k) = (len_of(lhs)?, i128::from(rhs.int_const()?));
    match op {
        BinaryOp::Sub => Some((a, k)),
        BinaryOp::Add => Some((a, -k)),
        _ => None,
    }
}

/// The ints in a constant.
pub fn literal_leaves(value: &Literal) -> Leaves {
    match value {
        Literal::Int(v) => Some(Interval::exact(*v)),
        Literal::Bool(_) | Literal::Float(_) | Literal::Str(_) => None,
        Literal::Array(items) => items.iter().map(literal_leaves).fold(None, hull),
        Literal::Object(entries) => entries.values().map(literal_leaves).fold(None, hull),
    }
}
