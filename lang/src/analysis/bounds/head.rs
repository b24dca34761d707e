//! What holds at a loop's head, in every round: the facts before the loop,
//! weakened by what the body may change.
//!
//! An int variable the body only moves one way keeps the bound it cannot
//! cross ([`drift`]), and an index that only moves down stays below the
//! length of an array whose length the body does not change. For the other
//! variables the body assigns, and the collections it stores into, the head
//! holds what they held before the loop and whatever the body may give
//! them; what the body gives can depend on the head itself
//! (`s = (mod (add s x) p)`), so the head is found by starting from the
//! entry and adding what the body's assignments give under the head found
//! so far, until nothing grows. Each round's answer is sound for the rounds
//! it covers and the last one for all; variables still growing after a few
//! rounds are given up on.

use super::super::interval::{Interval, MAX, MIN};
use super::super::vars::assigned_in;
use super::super::Decls;
use super::env::{hull, Env, Leaves};
use crate::iir::{BinaryOp, Block, Expr, ExprNode, Iter, Node, Place};
use crate::literal::Literal;
use crate::types::Type;
use std::collections::BTreeMap;

/// The most rounds spent finding a loop head.
const ROUNDS: usize = 4;

/// How every assignment a block makes to an int variable moves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drift {
    /// Only ever `x = x + c` with `c >= 0` (or `x - c`, `c <= 0`).
    Up,
    /// Only ever `x = x - c` with `c >= 0` (or `x + c`, `c <= 0`).
    Down,
}

/// Whether the block's assignments to `var` only ever move it one way, so
/// that a bound it had before a loop over the block holds in every round
/// and after. `None` when anything else assigns it (a loop over it too).
pub fn drift(b: &Block, var: &str) -> Option<Drift> {
    let mut seen: Option<Drift> = None;
    let mut ok = true;
    drift_into(b, var, &mut seen, &mut ok);
    if ok {
        seen
    } else {
        None
    }
}

fn drift_into(b: &Block, var: &str, seen: &mut Option<Drift>, ok: &mut bool) {
    for step in &b.steps {
        match &step.node {
            Node::Assign {
                target: Place::Var { name, .. },
                expr,
            } if name == var => match step_of(expr, var) {
                Some(d) if seen.map_or(true, |s| s == d) => *seen = Some(d),
                _ => *ok = false,
            },
            Node::Loop { iter, .. } if iter.var().is_some_and(|v| v.name == var) => *ok = false,
            _ => {}
        }
        for inner in step.node.blocks() {
            drift_into(inner, var, seen, ok);
        }
    }
}

/// `x + c` or `x - c` with `c` a constant: the direction it moves `x`.
fn step_of(e: &Expr, var: &str) -> Option<Drift> {
    let ExprNode::Binary { op, lhs, rhs } = &e.node else {
        return None;
    };
    let (
        ExprNode::Var { name },
        ExprNode::Const {
            value: Literal::Int(c),
        },
    ) = (&lhs.node, &rhs.node)
    else {
        return None;
    };
    if name != var {
        return None;
    }
    let up = match op {
        BinaryOp::Add => *c >= 0,
        BinaryOp::Sub => *c <= 0,
        _ => return None,
    };
    Some(if up { Drift::Up } else { Drift::Down })
}

/// Whether a step of the block may change the length of the variable's
/// value: anything that gives the variable itself a value (element
/// `TARGET`s do not).
pub(super) fn length_may_change(b: &Block, var: &str) -> bool {
    b.steps.iter().any(|s| {
        let own = match &s.node {
            Node::Assign {
                target: Place::Var { name, .. },
                ..
            } => name == var,
            Node::Loop { iter, .. } => iter.var().is_some_and(|v| v.name == var),
            _ => false,
        };
        own || s
            .node
            .blocks()
            .into_iter()
            .any(|inner| length_may_change(inner, var))
    })
}

/// What the variables in question hold at the head.
#[derive(Debug, Clone, PartialEq)]
struct Head {
    ints: BTreeMap<String, Interval>,
    leaves: BTreeMap<String, Leaves>,
}

/// A loop's own variable (of a `range` or `each`) and what every round
/// starts it with: its values, for an int, or the ints it holds, for a
/// collection.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Round<'a> {
    pub var: &'a str,
    pub values: Option<Interval>,
    pub leaves: Option<Leaves>,
}

impl Round<'_> {
    /// What the variable holds anywhere in a round: what the round started
    /// it with, or what the body gave it since.
    fn set_in(&self, env: &mut Env) {
        if let Some(iv) = self.values {
            env.set_interval(self.var, iv);
        }
        if let Some(l) = self.leaves {
            env.set_leaves(self.var, l);
        }
    }

    /// Adds what the body gave the variable; whether that was more.
    fn grow(
        &mut self,
        ints: &BTreeMap<String, Interval>,
        leaves: &BTreeMap<String, Leaves>,
    ) -> bool {
        let old = *self;
        if let (Some(iv), Some(given)) = (self.values.as_mut(), ints.get(self.var)) {
            *iv = iv.hull(*given);
        }
        if let (Some(l), Some(given)) = (self.leaves.as_mut(), leaves.get(self.var)) {
            *l = hull(*l, *given);
        }
        *self != old
    }
}

impl Env {
    /// Weakens the facts to what holds at the head of a loop over `body`;
    /// `round` is the loop's own variable with what its rounds give it,
    /// which the body sees (the head itself keeps the variable's old facts).
    pub fn enter_loop_head(&mut self, body: &Block, round: Option<Round>, decls: &Decls) {
        let ints = self.widen_for(body, decls);
        let outside = round.map(|r| (r.var, self.var_interval(r.var), self.leaves(r.var)));
        let mut head = Head {
            ints,
            leaves: BTreeMap::new(),
        };
        let mut names = BTreeMap::new();
        self.gives(body, decls, &mut names, &mut BTreeMap::new());
        for v in names.keys() {
            head.leaves.insert(v.clone(), self.leaves(v));
        }
        if head.ints.is_empty() && head.leaves.is_empty() {
            return;
        }
        let stable = self.find_head(body, decls, &mut head, round);
        if let Some((v, iv, leaves)) = outside {
            self.set_interval(v, iv);
            self.set_leaves(v, leaves);
        }
        if stable {
            self.assume(&head);
            return;
        }
        for v in head.ints.keys() {
            self.set_interval(v, Interval::FULL);
        }
        for v in head.leaves.keys() {
            self.set_leaves(v, Some(Interval::FULL));
        }
    }

    /// What holds in every round of a loop over `body` (and after it), as
    /// far as the drift of its assignments tells: a variable the body only
    /// moves one way keeps the bound it cannot cross (and, moving down, the
    /// lengths it is below). The variables the body assigns otherwise, that
    /// had a known interval, are returned (with it) and forgotten; so are
    /// the index facts of arrays whose length the body may change.
    fn widen_for(&mut self, body: &Block, decls: &Decls) -> BTreeMap<String, Interval> {
        let mut rest = BTreeMap::new();
        for v in assigned_in(body) {
            if decls.is_collection(v) && length_may_change(body, v) {
                self.length_changed(v);
            }
            let d = drift(body, v);
            if d != Some(Drift::Down) {
                self.forget_below(v);
            }
            let Some(iv) = self.known_interval(v) else {
                continue;
            };
            match d {
                Some(Drift::Up) => self.set_interval(v, Interval::new(iv.lo, MAX)),
                Some(Drift::Down) => self.set_interval(v, Interval::new(MIN, iv.hi)),
                None => {
                    self.set_interval(v, Interval::FULL);
                    rest.insert(v.to_owned(), iv);
                }
            }
        }
        rest
    }

    /// Grows `head` until the body gives nothing more; whether it stopped.
    ///
    /// The body's assignments are evaluated under the head's facts, not in
    /// order, so every variable they read must hold there whatever the body
    /// may have done to it earlier in the round: the loop's own variable
    /// holds what the round started it with or what the body gave it since
    /// (the next round starts it afresh, whatever the body did).
    fn find_head(
        &mut self,
        body: &Block,
        decls: &Decls,
        head: &mut Head,
        mut round: Option<Round>,
    ) -> bool {
        for _ in 0..ROUNDS {
            self.assume(head);
            if let Some(r) = &round {
                r.set_in(self);
            }
            let mut next = head.clone();
            let mut ints = BTreeMap::new();
            self.gives(body, decls, &mut next.leaves, &mut ints);
            for (v, iv) in next.ints.iter_mut() {
                // A variable assigned some way the body cannot tell is gone.
                *iv = iv.hull(ints.get(v).copied().unwrap_or(Interval::FULL));
            }
            let grew = round.as_mut().is_some_and(|r| r.grow(&ints, &next.leaves));
            if next == *head && !grew {
                return true;
            }
            *head = next;
        }
        false
    }

    fn assume(&mut self, head: &Head) {
        for (v, iv) in &head.ints {
            self.set_interval(v, *iv);
        }
        for (v, l) in &head.leaves {
            self.set_leaves(v, *l);
        }
    }

    /// Adds to `leaves` what the block stores into collection variables,
    /// and to `ints` the values it gives int variables by ASSIGN or as a
    /// loop variable (a variable given a value some other way gets `FULL`),
    /// all under the current facts.
    fn gives(
        &self,
        b: &Block,
        decls: &Decls,
        leaves: &mut BTreeMap<String, Leaves>,
        ints: &mut BTreeMap<String, Interval>,
    ) {
        let give = |ints: &mut BTreeMap<String, Interval>, v: &str, iv: Interval| {
            let old = ints.get(v).copied();
            let new = old.map_or(iv, |o| o.hull(iv));
            ints.insert(v.to_owned(), new);
        };
        for step in &b.steps {
            match &step.node {
                Node::Assign { target, expr } => {
                    if let Some((v, l)) = self.stored_leaves(target, expr, decls) {
                        let old = leaves.get(&v).copied().flatten();
                        leaves.insert(v, hull(old, l));
                    } else if let Place::Var { name, .. } = target {
                        give(ints, name, self.interval(expr));
                    }
                }
                Node::Loop { iter, .. } => match iter {
                    Iter::Range {
                        var,
                        start,
                        end,
                        step,
                        ..
                    } => {
                        let values = self.range_values(start, end, step.as_ref());
                        give(ints, &var.name, values);
                    }
                    Iter::Each { var, seq, .. } => {
                        if decls.ty(&var.name) == Some(&Type::Int) {
                            give(ints, &var.name, self.element_interval(seq));
                        } else {
                            let old = leaves.get(&var.name).copied().flatten();
                            leaves.insert(var.name.clone(), hull(old, self.leaves_of(seq)));
                        }
                    }
                    Iter::While { .. } => {}
                },
                _ => {}
            }
            for inner in step.node.blocks() {
                self.gives(inner, decls, leaves, ints);
            }
        }
    }
}
