//! The facts at one point of a program, and how statements and conditions
//! change them.

use super::super::interval::{Interval, MAX, MAX_LEN, MIN};
use super::super::Decls;
use crate::iir::{BinaryOp, Expr, ExprNode, Place, UnaryOp};
use crate::types::Type;
use crate::update::in_place;
use std::collections::{BTreeMap, BTreeSet};

/// The ints an array or map holds, at any depth: `None` when it holds none.
pub type Leaves = Option<Interval>;

/// What two sets of ints hold together.
pub fn hull(a: Leaves, b: Leaves) -> Leaves {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.hull(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// What is known at a point: every fact holds on every path to it. A
/// variable missing from a map is one nothing is known about.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Env {
    /// Intervals of int variables.
    pub(super) ranges: BTreeMap<String, Interval>,
    /// The ints inside collection variables.
    pub(super) elems: BTreeMap<String, Leaves>,
    /// For an int variable, the array variables whose length it is below.
    pub(super) below: BTreeMap<String, BTreeSet<String>>,
}

impl Env {
    /// What holds when the function starts: the `LOCAL` collections hold no
    /// ints yet (they hold no value at all).
    pub fn at_start(decls: &Decls) -> Env {
        let elems = decls
            .iter()
            .filter(|&(n, _, _)| decls.is_local(n) && decls.is_collection(n))
            .map(|(n, _, _)| (n.to_owned(), None))
            .collect();
        Env {
            elems,
            ..Env::default()
        }
    }

    /// The interval of an int variable.
    pub fn var_interval(&self, var: &str) -> Interval {
        self.ranges.get(var).copied().unwrap_or(Interval::FULL)
    }

    /// The ints the collection variable holds.
    pub fn leaves(&self, var: &str) -> Leaves {
        self.elems.get(var).copied().unwrap_or(Some(Interval::FULL))
    }

    /// Whether the int variable is below the length of the array variable.
    pub fn is_below(&self, var: &str, array: &str) -> bool {
        self.below.get(var).is_some_and(|a| a.contains(array))
    }

    /// The arrays whose length the int variable is below.
    pub(super) fn below_of(&self, var: &str) -> Vec<String> {
        self.below
            .get(var)
            .map_or_else(Vec::new, |a| a.iter().cloned().collect())
    }

    /// The collection variable now holds exactly these ints.
    pub fn set_leaves(&mut self, var: &str, leaves: Leaves) {
        if leaves == Some(Interval::FULL) {
            self.elems.remove(var);
        } else {
            self.elems.insert(var.to_owned(), leaves);
        }
    }

    /// The collection variable holds these ints as well.
    pub fn add_leaves(&mut self, var: &str, leaves: Leaves) {
        let all = hull(self.leaves(var), leaves);
        self.set_leaves(var, all);
    }

    /// `var` was just given a value in `iv` (`None`: not an int): what was
    /// known about its old value, as an int or as an array, is gone.
    pub fn assign(&mut self, var: &str, iv: Option<Interval>) {
        self.set_interval(var, iv.unwrap_or(Interval::FULL));
        self.below.remove(var);
        self.length_changed(var);
    }

    /// The array variable's length may have changed.
    pub fn length_changed(&mut self, array: &str) {
        for arrays in self.below.values_mut() {
            arrays.remove(array);
        }
        self.below.retain(|_, a| !a.is_empty());
    }

    /// The int variable (just assigned) is below the length of these arrays.
    pub fn set_index_facts(&mut self, var: &str, arrays: Vec<String>) {
        if !arrays.is_empty() {
            self.below.entry(var.to_owned()).or_default().extend(arrays);
        }
    }

    /// `var` is known to lie in `iv` as well.
    pub fn refine(&mut self, var: &str, iv: Interval) {
        let cur = self.var_interval(var);
        let lo = cur.lo.max(iv.lo);
        let hi = cur.hi.min(iv.hi);
        // An empty interval means the point cannot be reached; knowing
        // nothing is then as true as anything.
        if lo <= hi {
            self.ranges.insert(var.to_owned(), Interval::new(lo, hi));
        }
    }

    /// Forgets what was known of an int variable's value.
    pub fn forget(&mut self, var: &str) {
        self.ranges.remove(var);
        self.below.remove(var);
    }

    /// Sets what is known of an int variable's interval (`FULL`: nothing).
    pub fn set_interval(&mut self, var: &str, iv: Interval) {
        if iv == Interval::FULL {
            self.ranges.remove(var);
        } else {
            self.ranges.insert(var.to_owned(), iv);
        }
    }

    /// What both of two ways to reach a point know.
    pub fn join(&self, other: &Env) -> Env {
        let ranges = self
            .ranges
            .iter()
            .filter_map(|(k, a)| {
                let b = other.ranges.get(k)?;
                Some((k.clone(), a.hull(*b)))
            })
            .collect();
        let elems = self
            .elems
            .iter()
            .filter_map(|(k, a)| Some((k.clone(), hull(*a, *other.elems.get(k)?))))
            .collect();
        let below = self
            .below
            .iter()
            .filter_map(|(k, a)| {
                let both: BTreeSet<String> = a.intersection(other.below.get(k)?).cloned().collect();
                (!both.is_empty()).then(|| (k.clone(), both))
            })
            .collect();
        Env {
            ranges,
            elems,
            below,
        }
    }

    /// What the widening of a loop's head `self` to `next` (which holds
    /// it) knows: each bound still moving is given up, to the end of the
    /// 64-bit range, so that the rounds of finding the head end.
    pub fn widen(&self, next: &Env) -> Env {
        let mut out = next.clone();
        for (k, a) in &next.ranges {
            if let Some(old) = self.ranges.get(k) {
                out.set_interval(k, widened(*old, *a));
            }
        }
        for (k, a) in &next.elems {
            if let (Some(Some(old)), Some(new)) = (self.elems.get(k), a) {
                out.set_leaves(k, Some(widened(*old, *new)));
            }
        }
        out
    }

    /// The facts after the `STATE` variable `var` was given `init`.
    pub fn initialized(&mut self, var: &str, init: &Expr, decls: &Decls) {
        let value = (decls.ty(var) == Some(&Type::Int)).then(|| self.interval(init));
        let leaves = self.leaves_of(init);
        self.evaluated(init);
        self.assign(var, value);
        if decls.is_collection(var) {
            self.set_leaves(var, leaves);
        }
    }

    /// Whether every fact of `weaker` holds where these facts do: each of
    /// its intervals and sets of ints holds this one's, and each variable
    /// it says is below an array's length is so here too.
    pub fn within(&self, weaker: &Env) -> bool {
        let ranges = weaker.ranges.iter().all(|(k, w)| {
            let s = self.var_interval(k);
            w.lo <= s.lo && s.hi <= w.hi
        });
        let elems = weaker.elems.iter().all(|(k, w)| match (self.leaves(k), w) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(s), Some(w)) => w.lo <= s.lo && s.hi <= w.hi,
        });
        let below = weaker
            .below
            .iter()
            .all(|(k, arrays)| arrays.iter().all(|a| self.is_below(k, a)));
        ranges && elems && below
    }

    /// The facts after `ASSIGN target expr` ran without an error: what it
    /// read, and what it gave its variable (an int's interval and the
    /// arrays it is below, a collection's ints; an in-place update changes
    /// a length and adds ints).
    pub fn assigned(&mut self, target: &Place, expr: &Expr, decls: &Decls) {
        let stored = self.stored_leaves(target, expr, decls);
        let root = target.root().0;
        let value = (decls.ty(root) == Some(&Type::Int)).then(|| self.interval(expr));
        let index = self.index_facts(expr);
        self.evaluated_target(target, decls);
        self.evaluated(expr);
        let whole = matches!(target, Place::Var { .. }) && in_place(target, expr).is_none();
        match target {
            Place::Var { name, .. } if whole => {
                self.assign(name, value);
                self.set_index_facts(name, index);
            }
            Place::Var { name, .. } => self.length_changed(name),
            Place::Index { .. } | Place::Field { .. } => {}
        }
        if let Some((v, leaves)) = stored {
            if whole {
                self.set_leaves(&v, leaves);
            } else {
                self.add_leaves(&v, leaves);
            }
        }
    }

    /// The facts where `cond` was just found `truth`.
    pub fn learned(&self, cond: &Expr, truth: bool) -> Env {
        let mut env = self.clone();
        env.learn(cond, truth, self);
        env
    }

    /// Adds what `cond` being `truth` says; `at` gives the intervals of the
    /// other sides of comparisons.
    fn learn(&mut self, cond: &Expr, truth: bool, at: &Env) {
        self.evaluated(cond);
        match &cond.node {
            ExprNode::Unary {
                op: UnaryOp::Not,
                arg,
            } => self.learn(arg, !truth, at),
            ExprNode::Binary { op, lhs, rhs } => match (op, truth) {
                (BinaryOp::And, true) | (BinaryOp::Or, false) => {
                    self.learn(lhs, truth, at);
                    let inner = at.learned(lhs, truth);
                    self.learn(rhs, truth, &inner);
                }
                (BinaryOp::And | BinaryOp::Or, _) => {}
                _ => {
                    let Some(op) = (if truth { Some(*op) } else { op.negated() }) else {
                        return;
                    };
                    if lhs.ty != Some(Type::Int) {
                        return;
                    }
                    if let ExprNode::Var { name } = &lhs.node {
                        if let Some(iv) = bound(op, at.interval(rhs)) {
                            self.refine(name, iv);
                        }
                        if let Some(a) = length_bound(op, rhs) {
                            self.set_index_facts(name, vec![a.to_owned()]);
                        }
                    }
                    if let ExprNode::Var { name } = &rhs.node {
                        if let Some(iv) = bound(flip(op), at.interval(lhs)) {
                            self.refine(name, iv);
                        }
                        if let Some(a) = length_bound(flip(op), lhs) {
                            self.set_index_facts(name, vec![a.to_owned()]);
                        }
                    }
                }
            },
            _ => {}
        }
    }

    /// Adds what evaluating `e` without an error says, whatever its value:
    /// an array index that was read lies in the array. Only parts evaluated
    /// on every path count (not the right side of `and`, `or`).
    pub fn evaluated(&mut self, e: &Expr) {
        match &e.node {
            ExprNode::Const { .. } | ExprNode::Var { .. } => {}
            ExprNode::Unary { arg, .. } => self.evaluated(arg),
            ExprNode::Binary { op, lhs, rhs } => {
                self.evaluated(lhs);
                if !matches!(op, BinaryOp::And | BinaryOp::Or) {
                    self.evaluated(rhs);
                }
            }
            ExprNode::Index { base, index } => {
                self.evaluated(base);
                self.evaluated(index);
                if matches!(base.ty, Some(Type::Array(_))) {
                    if let ExprNode::Var { name } = &base.node {
                        self.indexed(name, index);
                    }
                    if let ExprNode::Var { name } = &index.node {
                        self.refine(name, Interval::new(0, MAX_LEN - 1));
                    }
                }
            }
            ExprNode::Call { args, .. } => {
                for a in args {
                    self.evaluated(a);
                }
            }
            ExprNode::Struct { fields, .. } => {
                for f in fields {
                    self.evaluated(&f.value);
                }
            }
            ExprNode::Field { base, .. } => self.evaluated(base),
            ExprNode::List { items } => {
                for item in items {
                    self.evaluated(item);
                }
            }
            // Only the condition is evaluated on every path.
            ExprNode::If { cond, .. } => self.evaluated(cond),
        }
    }

    /// Adds what storing into an element `TARGET` without an error says: its
    /// keys were evaluated, and each array index lies in its array.
    pub fn evaluated_target(&mut self, target: &Place, decls: &Decls) {
        let mut p = target;
        loop {
            let (base, index) = match p {
                Place::Var { .. } => break,
                Place::Field { base, .. } => {
                    p = base;
                    continue;
                }
                Place::Index { base, index, .. } => (base, index),
            };
            self.evaluated(index);
            if matches!(place_type(base, decls), Some(Type::Array(_))) {
                if let Place::Var { name, .. } = &**base {
                    self.indexed(name, index);
                }
                if let ExprNode::Var { name } = &index.node {
                    self.refine(name, Interval::new(0, MAX_LEN - 1));
                }
            }
            p = base;
        }
    }

    /// The array variable was indexed with `index` without an error.
    fn indexed(&mut self, array: &str, index: &Expr) {
        if let ExprNode::Var { name } = &index.node {
            self.set_index_facts(name, vec![array.to_owned()]);
        }
    }
}

/// The type of the value at a place.
pub(super) fn place_type(p: &Place, decls: &Decls) -> Option<Type> {
    match p {
        Place::Var { name, .. } => decls.ty(name).cloned(),
        Place::Index { base, .. } => match place_type(base, decls)? {
            Type::Array(e) => Some(*e),
            Type::Map(_, v) => Some(*v),
            _ => None,
        },
        // The analyses know no struct declarations; no fact is the safe one.
        Place::Field { .. } => None,
    }
}

/// The array whose length `e` is at most, when `x op e` holding means `x`
/// is below it: `x < LEN(a)`, or `x <= LEN(a) - k` with `k >= 1`.
fn length_bound(op: BinaryOp, e: &Expr) -> Option<&str> {
    match (op, super::values::len_minus(e)?) {
        (BinaryOp::Lt, (a, k)) if k >= 0 => Some(a),
        (BinaryOp::Le, (a, k)) if k >= 1 => Some(a),
        _ => None,
    }
}

/// The values `x` can have when `x op e` holds and `e` lies in `iv`.
fn bound(op: BinaryOp, iv: Interval) -> Option<Interval> {
    Some(match op {
        BinaryOp::Lt => Interval::new(MIN, iv.hi - 1),
        BinaryOp::Le => Interval::new(MIN, iv.hi),
        BinaryOp::Gt => Interval::new(iv.lo + 1, MAX),
        BinaryOp::Ge => Interval::new(iv.lo, MAX),
        BinaryOp::Eq => iv,
        _ => return None,
    })
}

/// `new` (which holds `old`) with each bound that moved given up.
fn widened(old: Interval, new: Interval) -> Interval {
    Interval::new(
        if new.lo < old.lo { MIN } else { new.lo },
        if new.hi > old.hi { MAX } else { new.hi },
    )
}

/// `a op b` as `b op' a`.
fn flip(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        other => other,
    }
}
