//! What holds at a loop head, in every round: the facts before the loop,
//! weakened by what the body may change.
//!
//! An int variable the body only moves one way keeps the bound it cannot
//! cross (lower/env.rs). For the other variables the body assigns, and the
//! collections it stores into, the head holds what they held before the
//! loop and whatever the body may give them; what the body gives can depend
//! on the head itself (`s = (mod (add s x) p)`), so the head is found by
//! starting from the entry and adding what the body's assignments give under
//! the head found so far, until nothing grows. Each round's answer is sound
//! for the rounds it covers and the last one for all; variables still
//! growing after a few rounds are given up on.

use super::env::{hull, Leaves};
use super::Gen;
use crate::interval::Interval;
use isu_plugin_api::{Block, Iter, Node, Place, Type};
use std::collections::BTreeMap;

/// The most rounds spent finding a loop head.
const ROUNDS: usize = 4;

/// What the variables in question hold at the head.
#[derive(Debug, Clone, PartialEq)]
struct Head {
    ints: BTreeMap<String, Interval>,
    leaves: BTreeMap<String, Leaves>,
}

impl Gen {
    /// Weakens the facts to what holds at the head of a loop over `body`;
    /// `var` is the loop's own variable with the values its rounds give it,
    /// which the body sees (the head itself keeps the variable's old facts).
    pub(super) fn enter_loop_head(&mut self, body: &Block, var: Option<(&str, Interval)>) {
        let ints = self.env.widen_for(body);
        let outside = var.map(|(v, _)| self.env.interval(v));
        let mut head = Head {
            ints,
            leaves: BTreeMap::new(),
        };
        let mut names = BTreeMap::new();
        self.gives(body, &mut names, &mut BTreeMap::new());
        for v in names.keys() {
            head.leaves.insert(v.clone(), self.env.leaves(v));
        }
        if head.ints.is_empty() && head.leaves.is_empty() {
            return;
        }
        let stable = self.find_head(body, &mut head, var);
        if let (Some((v, _)), Some(iv)) = (var, outside) {
            self.env.set_interval(v, iv);
        }
        if stable {
            self.assume(&head);
            return;
        }
        for v in head.ints.keys() {
            self.env.set_interval(v, Interval::FULL);
        }
        for v in head.leaves.keys() {
            self.env.set_leaves(v, Some(Interval::FULL));
        }
    }

    /// Grows `head` until the body gives nothing more; whether it stopped.
    fn find_head(&mut self, body: &Block, head: &mut Head, var: Option<(&str, Interval)>) -> bool {
        for _ in 0..ROUNDS {
            self.assume(head);
            if let Some((v, values)) = var {
                self.env.set_interval(v, values);
            }
            let mut next = head.clone();
            let mut ints = BTreeMap::new();
            self.gives(body, &mut next.leaves, &mut ints);
            for (v, iv) in next.ints.iter_mut() {
                // A variable assigned some way the body cannot tell is gone.
                let given = ints.get(v).copied().unwrap_or(Interval::FULL);
                *iv = Interval::new(iv.lo.min(given.lo), iv.hi.max(given.hi));
            }
            if next == *head {
                return true;
            }
            *head = next;
        }
        false
    }

    fn assume(&mut self, head: &Head) {
        for (v, iv) in &head.ints {
            self.env.set_interval(v, *iv);
        }
        for (v, l) in &head.leaves {
            self.env.set_leaves(v, *l);
        }
    }

    /// Adds to `leaves` what the block stores into collection variables,
    /// and to `ints` the values it gives int variables by ASSIGN or as a
    /// loop variable (a variable given a value some other way gets `FULL`),
    /// all under the current facts.
    fn gives(
        &self,
        b: &Block,
        leaves: &mut BTreeMap<String, Leaves>,
        ints: &mut BTreeMap<String, Interval>,
    ) {
        let give = |ints: &mut BTreeMap<String, Interval>, v: &str, iv: Interval| {
            let old = ints.get(v).copied();
            let new = old.map_or(iv, |o| Interval::new(o.lo.min(iv.lo), o.hi.max(iv.hi)));
            ints.insert(v.to_owned(), new);
        };
        for step in &b.steps {
            match &step.node {
                Node::Assign { target, expr } => {
                    if let Some((v, l)) = self.stored_leaves(target, expr) {
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
                        let is_int = self.facts.var(&var.name).is_some_and(|d| d.ty == Type::Int);
                        if is_int {
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
                self.gives(inner, leaves, ints);
            }
        }
    }
}
