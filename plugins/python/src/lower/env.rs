//! What is known about the variables at the point being written: an interval
//! for int variables, and which LOCALs surely have a value. The generator
//! walks the program in execution order and keeps this up to date: an
//! assignment sets what it assigned, a condition adds what it says inside
//! its branch (and on the right of its `and`), a loop forgets what its body
//! changes, and two branches meet in what both know.

use crate::facts::{self, Drift, Facts};
use crate::interval::{Interval, MAX, MAX_LEN, MIN};
use isu_plugin_api::{BinaryOp, Block, Expr, ExprNode, Type, UnaryOp};
use std::collections::{BTreeMap, BTreeSet};

/// The ints an array or map holds, at any depth: `None` when it holds none.
pub type Leaves = Option<Interval>;

/// What two sets of ints hold together.
pub fn hull(a: Leaves, b: Leaves) -> Leaves {
    match (a, b) {
        (Some(x), Some(y)) => Some(Interval::new(x.lo.min(y.lo), x.hi.max(y.hi))),
        (x, None) => x,
        (None, y) => y,
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Env {
    ranges: BTreeMap<String, Interval>,
    set: BTreeSet<String>,
    /// The ints inside collection variables (missing: any).
    elems: BTreeMap<String, Leaves>,
}

impl Env {
    /// What holds when the function starts: ARGS and STATE have values
    /// (STATE's are set as they are written), LOCALs have none, so their
    /// collections hold no ints yet.
    pub fn at_start(facts: &Facts) -> Env {
        let local = |v: &crate::facts::Var| v.kind == crate::facts::VarKind::Local;
        let set = facts
            .vars
            .iter()
            .filter(|(_, v)| !local(v))
            .map(|(n, _)| n.clone())
            .collect();
        let elems = facts
            .vars
            .iter()
            .filter(|(_, v)| local(v) && crate::pytype::is_collection(&v.ty))
            .map(|(n, _)| (n.clone(), None))
            .collect();
        Env {
            ranges: BTreeMap::new(),
            set,
            elems,
        }
    }

    /// The ints the collection variable holds.
    pub fn leaves(&self, var: &str) -> Leaves {
        self.elems.get(var).copied().unwrap_or(Some(Interval::FULL))
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

    pub fn interval(&self, var: &str) -> Interval {
        self.ranges.get(var).copied().unwrap_or(Interval::FULL)
    }

    /// Whether the variable surely has a value here.
    pub fn is_set(&self, var: &str) -> bool {
        self.set.contains(var)
    }

    /// `var` was just assigned a value in `iv` (`None`: not an int).
    pub fn assign(&mut self, var: &str, iv: Option<Interval>) {
        self.set.insert(var.to_owned());
        match iv {
            Some(iv) if iv != Interval::FULL => {
                self.ranges.insert(var.to_owned(), iv);
            }
            _ => {
                self.ranges.remove(var);
            }
        }
    }

    /// `var` is known to lie in `iv` as well.
    pub fn refine(&mut self, var: &str, iv: Interval) {
        let cur = self.interval(var);
        let lo = cur.lo.max(iv.lo);
        let hi = cur.hi.min(iv.hi);
        // An empty interval means the point cannot be reached; knowing
        // nothing is then as true as anything.
        if lo <= hi {
            self.ranges.insert(var.to_owned(), Interval::new(lo, hi));
        }
    }

    /// Forgets what was known of a variable's value.
    pub fn forget(&mut self, var: &str) {
        self.ranges.remove(var);
    }

    /// Sets what is known of an int variable (`FULL`: nothing).
    pub fn set_interval(&mut self, var: &str, iv: Interval) {
        if iv == Interval::FULL {
            self.ranges.remove(var);
        } else {
            self.ranges.insert(var.to_owned(), iv);
        }
    }

    /// What holds in every round of a loop over `body` (and after it), as
    /// far as the drift of its assignments tells: a variable the body only
    /// moves one way keeps the bound it cannot cross. The variables the body
    /// assigns otherwise, that had a known interval, are returned (with it)
    /// and forgotten.
    pub fn widen_for(&mut self, body: &Block) -> BTreeMap<String, Interval> {
        let mut rest = BTreeMap::new();
        for v in facts::assigns(body) {
            let Some(iv) = self.ranges.get(&v).copied() else {
                continue;
            };
            match facts::drift(body, &v) {
                Some(Drift::Up) => {
                    self.ranges.insert(v, Interval::new(iv.lo, MAX));
                }
                Some(Drift::Down) => {
                    self.ranges.insert(v, Interval::new(MIN, iv.hi));
                }
                None => {
                    self.ranges.remove(&v);
                    rest.insert(v, iv);
                }
            }
        }
        rest
    }

    /// What both of two ways to reach a point know.
    pub fn join(&self, other: &Env) -> Env {
        let ranges = self
            .ranges
            .iter()
            .filter_map(|(k, a)| {
                let b = other.ranges.get(k)?;
                Some((k.clone(), Interval::new(a.lo.min(b.lo), a.hi.max(b.hi))))
            })
            .collect();
        let set = self.set.intersection(&other.set).cloned().collect();
        let elems = self
            .elems
            .iter()
            .filter_map(|(k, a)| Some((k.clone(), hull(*a, *other.elems.get(k)?))))
            .collect();
        Env { ranges, set, elems }
    }
}

/// Facts a condition gives when it evaluated to `truth`, applied to `env`.
/// `interval` gives the interval of an expression under the current facts.
pub fn learn(env: &mut Env, cond: &Expr, truth: bool, interval: &dyn Fn(&Expr) -> Interval) {
    evaluated(env, cond);
    match &cond.node {
        ExprNode::Unary {
            op: UnaryOp::Not,
            arg,
        } => learn(env, arg, !truth, interval),
        ExprNode::Binary { op, lhs, rhs } => match (op, truth) {
            (BinaryOp::And, true) | (BinaryOp::Or, false) => {
                learn(env, lhs, truth, interval);
                learn(env, rhs, truth, interval);
            }
            (BinaryOp::And | BinaryOp::Or, _) => {}
            _ => {
                let Some(op) = (if truth { Some(*op) } else { negate(*op) }) else {
                    return;
                };
                if lhs.ty != Some(Type::Int) {
                    return;
                }
                if let ExprNode::Var { name } = &lhs.node {
                    if let Some(iv) = bound(op, interval(rhs)) {
                        env.refine(name, iv);
                    }
                }
                if let ExprNode::Var { name } = &rhs.node {
                    if let Some(iv) = bound(flip(op), interval(lhs)) {
                        env.refine(name, iv);
                    }
                }
            }
        },
        _ => {}
    }
}

/// Facts that evaluating `e` without an error gives, whatever its value: an
/// array index that was read is at least 0 and below the array's length.
/// Only parts evaluated on every path count (not the right side of `and`,
/// `or`).
pub fn evaluated(env: &mut Env, e: &Expr) {
    match &e.node {
        ExprNode::Const { .. } | ExprNode::Var { .. } => {}
        ExprNode::Unary { arg, .. } => evaluated(env, arg),
        ExprNode::Binary { op, lhs, rhs } => {
            evaluated(env, lhs);
            if !matches!(op, BinaryOp::And | BinaryOp::Or) {
                evaluated(env, rhs);
            }
        }
        ExprNode::Index { base, index } => {
            evaluated(env, base);
            evaluated(env, index);
            if matches!(base.ty, Some(Type::Array(_))) {
                if let ExprNode::Var { name } = &index.node {
                    env.refine(name, Interval::new(0, MAX_LEN - 1));
                }
            }
        }
        ExprNode::Call { args, .. } => {
            for a in args {
                evaluated(env, a);
            }
        }
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

/// The comparison true exactly when `op` is false.
pub fn negate(op: BinaryOp) -> Option<BinaryOp> {
    Some(match op {
        BinaryOp::Eq => BinaryOp::Ne,
        BinaryOp::Ne => BinaryOp::Eq,
        BinaryOp::Lt => BinaryOp::Ge,
        BinaryOp::Le => BinaryOp::Gt,
        BinaryOp::Gt => BinaryOp::Le,
        BinaryOp::Ge => BinaryOp::Lt,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::*;
    use isu_plugin_api::BinaryOp as B;

    fn full(_: &Expr) -> Interval {
        Interval::FULL
    }

    fn consts(e: &Expr) -> Interval {
        match &e.node {
            ExprNode::Const {
                value: isu_plugin_api::Literal::Int(v),
            } => Interval::exact(*v),
            _ => Interval::FULL,
        }
    }

    #[test]
    fn conditions_bound_their_variables() {
        let j = || var("j", Type::Int);
        let xs = || var("xs", Type::array(Type::Int));
        // (and (ge j 0) (gt (index xs j) key)) holds: 0 <= j < MAX_LEN.
        let cond = bin(
            B::And,
            bin(B::Ge, j(), int(0)),
            bin(B::Gt, idx(xs(), j()), var("key", Type::Int)),
        );
        let mut env = Env::default();
        learn(&mut env, &cond, true, &consts);
        assert_eq!(env.interval("j"), Interval::new(0, MAX_LEN - 1));
        // It failed: nothing is known about j (either part may be false).
        let mut env = Env::default();
        learn(&mut env, &cond, false, &consts);
        assert_eq!(env.interval("j"), Interval::FULL);
        // (not (lt 10 i)): i <= 10.
        let mut env = Env::default();
        learn(
            &mut env,
            &not(bin(B::Lt, int(10), var("i", Type::Int))),
            true,
            &consts,
        );
        assert_eq!(env.interval("i"), Interval::new(MIN, 10));
        let mut env = Env::default();
        learn(
            &mut env,
            &bin(B::Lt, var("i", Type::Int), var("n", Type::Int)),
            true,
            &full,
        );
        assert_eq!(env.interval("i").lo, MIN);
    }

    #[test]
    fn branches_meet_in_what_both_know() {
        let mut a = Env::default();
        a.assign("x", Some(Interval::new(0, 5)));
        a.assign("y", Some(Interval::new(1, 1)));
        let mut b = Env::default();
        b.assign("x", Some(Interval::new(3, 9)));
        let j = a.join(&b);
        assert_eq!(j.interval("x"), Interval::new(0, 9));
        assert_eq!(j.interval("y"), Interval::FULL);
        assert!(j.is_set("x") && !j.is_set("y"));
    }
}
