//! Bounds: what is known about int values where each step starts, so that
//! executors can drop the checks that cannot fire (an overflow check where
//! the result's interval fits in 64 bits, an index check where the index is
//! known to lie in its array).
//!
//! The facts ([`Env`]) are an interval for each int variable, an interval
//! holding every int inside each array or map variable (its *leaves*), and
//! for index variables the arrays whose length they are known to be below.
//! The pass is flow-sensitive: it threads the facts through the steps in
//! the order they run. An assignment sets what it assigned, an expression
//! evaluated without an error tells what it needed (an index that was read
//! lies in its array), a condition adds what it says inside its branch (and
//! on the right of its `and`), and two paths meet in what both know. A
//! loop's head is where every way into a round meets: the facts before the
//! loop, the end of the body and each `CONTINUE`; the body is walked from
//! the head until the head holds what it brings back (widened after a few
//! rounds, so that this ends), and the facts after the loop join the
//! head's, where the loop ends by itself, with each `BREAK`'s. What a
//! `range` or `each` gives its variable each round is in [`round`]; the
//! values of expressions under the facts are in [`values`].
//!
//! An executor reads the facts where a step's own fields are evaluated
//! ([`Bounds::before`]), where a `while` evaluates its `COND`
//! ([`Bounds::head`]) and where a `STATE` initializer runs
//! ([`Bounds::state`]); on the right of an `and` (`or`) it adds what the
//! left side being true (false) says ([`Env::learned`]).

mod env;
#[cfg(test)]
pub(crate) mod mutation;
mod round;
mod values;

pub use env::{hull, Env, Leaves};
pub(crate) use round::Round;

use super::flow::never_ends;
use super::Decls;
use crate::iir::{Block, Iter, Node, Program, Step, StepId};
use std::collections::BTreeMap;

/// The facts where each reachable step starts: what the checker
/// ([`super::proof`]) derives again before a backend drops a check on them.
#[derive(Debug, Clone, Default)]
pub struct Bounds {
    state: Vec<Env>,
    before: BTreeMap<StepId, Env>,
    head: BTreeMap<StepId, Env>,
}

impl Bounds {
    /// The intervals of a typed program, by step.
    pub fn of(program: &Program) -> Bounds {
        Bounds::walk(program, false)
    }

    fn walk(program: &Program, first_round_only: bool) -> Bounds {
        let decls = Decls::of(program);
        let mut w = Walk {
            decls: &decls,
            out: Bounds::default(),
            exits: Vec::new(),
            first_round_only,
        };
        let mut env = Env::at_start(&decls);
        for s in &program.state {
            w.out.state.push(env.clone());
            env.initialized(&s.name.name, &s.init, &decls);
        }
        w.block(&program.body, env);
        w.out
    }

    /// The facts where the `STATE` initializer of index `i` runs.
    pub fn state(&self, i: usize) -> Env {
        self.state.get(i).cloned().unwrap_or_default()
    }

    /// The facts where the step's own fields are evaluated (for a `LOOP`,
    /// the `ITER` of a `range` or `each`). A step no run reaches knows
    /// nothing.
    pub fn before(&self, id: &StepId) -> Env {
        self.before.get(id).cloned().unwrap_or_default()
    }

    /// The facts at a loop's head, which hold in every round: where a
    /// `while` evaluates its `COND`.
    pub fn head(&self, id: &StepId) -> Env {
        self.head.get(id).cloned().unwrap_or_default()
    }
}

struct Walk<'d> {
    decls: &'d Decls,
    out: Bounds,
    /// For each loop around the step being walked (innermost last), the
    /// facts at each of its `BREAK`s and `CONTINUE`s in the current round.
    exits: Vec<Exits>,
    /// Whether a loop's head is taken for the facts before it, without
    /// the rounds that find what the body brings back (a wrong analysis,
    /// for the checker's test).
    first_round_only: bool,
}

/// Where the rounds of a loop leave its body other than by its end.
#[derive(Default)]
struct Exits {
    breaks: Vec<Env>,
    continues: Vec<Env>,
}

impl Walk<'_> {
    /// The facts after the block; `None` when it never completes.
    fn block(&mut self, b: &Block, env: Env) -> Option<Env> {
        let mut env = Some(env);
        for s in &b.steps {
            let cur = env?;
            env = self.step(s, cur);
        }
        env
    }

    fn step(&mut self, s: &Step, mut env: Env) -> Option<Env> {
        if let Some(id) = &s.id {
            self.out.before.insert(id.clone(), env.clone());
        }
        match &s.node {
            Node::Seq { block } => self.block(block, env),
            Node::Assign { target, expr } => {
                env.assigned(target, expr, self.decls);
                Some(env)
            }
            Node::If {
                cond,
                then_block,
                else_block,
            } => {
                let t = self.block(then_block, env.learned(cond, true));
                let e = self.block(else_block, env.learned(cond, false));
                join_all([t, e])
            }
            Node::Loop { iter, body } => self.looping(s.id.as_ref(), iter, body, env),
            Node::Return { .. } => None,
            Node::Break => {
                if let Some(exits) = self.exits.last_mut() {
                    exits.breaks.push(env);
                }
                None
            }
            Node::Continue => {
                if let Some(exits) = self.exits.last_mut() {
                    exits.continues.push(env);
                }
                None
            }
        }
    }

    /// A loop, walked round after round from its head until the head holds
    /// what every way back to it brings (the end of the body, each
    /// `CONTINUE`); the facts after it join the head's where the loop ends
    /// by itself and every `BREAK`'s.
    fn looping(&mut self, id: Option<&StepId>, iter: &Iter, body: &Block, env: Env) -> Option<Env> {
        let round = Round::start(iter, &env, self.decls, self.exits.len());
        let entry = round.enter(env, iter);
        let mut head = entry.clone();
        let mut rounds = 0;
        let (back, mut breaks) = loop {
            let (back, breaks) = self.round(iter, body, &round, &head);
            let next = join_all([Some(head.clone()), back.clone()]).unwrap_or_default();
            if next == head || self.first_round_only {
                break (back, breaks);
            }
            rounds += 1;
            head = if rounds >= WIDEN_AFTER {
                head.widen(&next)
            } else {
                next
            };
        };
        // One round of narrowing: what the widened head brings back, with
        // the entry, is a head too when it holds what it brings back itself.
        if rounds >= WIDEN_AFTER {
            let narrowed = join_all([Some(entry), back]).unwrap_or_default();
            if narrowed != head {
                let (again, exits) = self.round(iter, body, &round, &narrowed);
                if again.as_ref().map_or(true, |a| a.within(&narrowed)) {
                    (head, breaks) = (narrowed, exits);
                } else {
                    breaks = self.round(iter, body, &round, &head).1;
                }
            }
        }
        if let Some(id) = id {
            self.out.head.insert(id.clone(), head.clone());
        }
        let ended = (!never_ends(iter)).then(|| match iter {
            Iter::While { cond, .. } => head.learned(cond, false),
            _ => head,
        });
        let after = join_all(breaks.into_iter().map(Some).chain([ended]));
        after.map(|a| round.leave(a))
    }

    /// One round of the loop from the facts at its head: what it brings
    /// back to the head (the end of the body joined with each `CONTINUE`'s),
    /// and the facts at each `BREAK`.
    fn round(
        &mut self,
        iter: &Iter,
        body: &Block,
        round: &Round,
        head: &Env,
    ) -> (Option<Env>, Vec<Env>) {
        self.exits.push(Exits::default());
        let end = self.block(body, round.begin(iter, head));
        let exits = self.exits.pop().unwrap_or_default();
        let back = join_all(exits.continues.into_iter().map(Some).chain([end]));
        (back, exits.breaks)
    }
}

/// Rounds of a loop whose head has not settled before it is widened: each
/// bound still moving goes to the end of the 64-bit range.
const WIDEN_AFTER: usize = 3;

/// What every one of the ways to a point knows; `None` when none reaches it.
pub(crate) fn join_all(envs: impl IntoIterator<Item = Option<Env>>) -> Option<Env> {
    envs.into_iter().flatten().reduce(|acc, e| acc.join(&e))
}

#[cfg(test)]
pub(crate) mod tests;
