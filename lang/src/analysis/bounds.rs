//! Bounds: what is known about int values where each step starts, so that
//! executors can drop the checks that cannot fire (an overflow check where
//! the result's interval fits in 64 bits, an index check where the index is
//! known to lie in its array).
//!
//! The facts ([`Env`]) are an interval for each int variable, an interval
//! holding every int inside each array or map variable (its *leaves*), and
//! for index variables the arrays whose length they are known to be below.
//! The pass walks the program in execution order, as it runs: an assignment
//! sets what it assigned, an expression evaluated without an error tells
//! what it needed (an index that was read lies in its array), a condition
//! adds what it says inside its branch (and on the right of its `and`), a
//! loop's head holds what holds in every round ([`head`]), and two paths
//! meet in what both know. The values of expressions under the facts are
//! in [`values`].
//!
//! An executor reads the facts where a step's own fields are evaluated
//! ([`Bounds::before`]), where a `while` evaluates its `COND`
//! ([`Bounds::head`]) and where a `STATE` initializer runs
//! ([`Bounds::state`]); on the right of an `and` (`or`) it adds what the
//! left side being true (false) says ([`Env::learned`]).

mod env;
mod head;
mod values;

pub use env::{hull, Env, Leaves};
use head::Round;

use super::flow::never_ends;
use super::Decls;
use crate::iir::{Block, Iter, Node, Place, Program, Step, StepId};
use crate::types::Type;
use crate::update::in_place;
use std::collections::BTreeMap;

/// The facts where each reachable step starts.
#[derive(Debug, Clone, Default)]
pub struct Bounds {
    state: Vec<Env>,
    before: BTreeMap<StepId, Env>,
    head: BTreeMap<StepId, Env>,
}

impl Bounds {
    /// The intervals of a typed program, by step.
    pub fn of(program: &Program) -> Bounds {
        let decls = Decls::of(program);
        let mut w = Walk {
            decls: &decls,
            out: Bounds::default(),
            breaks: Vec::new(),
        };
        let mut env = Env::at_start(&decls);
        for s in &program.state {
            w.out.state.push(env.clone());
            let value = (s.ty == Type::Int).then(|| env.interval(&s.init));
            let leaves = env.leaves_of(&s.init);
            env.evaluated(&s.init);
            env.assign(&s.name.name, value);
            if decls.is_collection(&s.name.name) {
                env.set_leaves(&s.name.name, leaves);
            }
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
    /// facts at each of its `BREAK`s so far.
    breaks: Vec<Vec<Env>>,
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
                let stored = env.stored_leaves(target, expr, self.decls);
                let root = target.root().0;
                let value = (self.decls.ty(root) == Some(&Type::Int)).then(|| env.interval(expr));
                let index = env.index_facts(expr);
                env.evaluated_target(target, self.decls);
                env.evaluated(expr);
                match (target, in_place(target, expr)) {
                    (Place::Var { name, .. }, None) => {
                        env.assign(name, value);
                        env.set_index_facts(name, index);
                    }
                    (Place::Var { name, .. }, Some(_)) => env.length_changed(name),
                    (Place::Index { .. } | Place::Field { .. }, _) => {}
                }
                if let Some((v, leaves)) = stored {
                    match target {
                        Place::Var { .. } if in_place(target, expr).is_none() => {
                            env.set_leaves(&v, leaves)
                        }
                        _ => env.add_leaves(&v, leaves),
                    }
                }
                Some(env)
            }
            Node::If {
                cond,
                then_block,
                else_block,
            } => {
                let t = self.block(then_block, env.learned(cond, true));
                let e = self.block(else_block, env.learned(cond, false));
                match (t, e) {
                    (Some(t), Some(e)) => Some(t.join(&e)),
                    (t, e) => t.or(e),
                }
            }
            Node::Loop { iter, body } => self.looping(s.id.as_ref(), iter, body, env),
            Node::Return { .. } => None,
            Node::Break => {
                if let Some(exits) = self.breaks.last_mut() {
                    exits.push(env);
                }
                None
            }
            // The loop's head holds what the body may change, so it holds
            // where CONTINUE starts the next round.
            Node::Continue => None,
        }
    }

    fn looping(
        &mut self,
        id: Option<&StepId>,
        iter: &Iter,
        body: &Block,
        mut env: Env,
    ) -> Option<Env> {
        let var = iter.var().map(|v| v.name.as_str());
        // What the loop variable is in every round, and what it holds.
        let (values, leaves, index) = match iter {
            Iter::Range {
                start, end, step, ..
            } => {
                // Below the length END read at the start, while no round
                // changes that length.
                let mut index = env.range_index_facts(end, step.as_ref());
                index.retain(|a| !head::length_may_change(body, a));
                (
                    Some(env.range_values(start, end, step.as_ref())),
                    None,
                    index,
                )
            }
            Iter::Each { var, seq, .. } => {
                let elem_int = self.decls.ty(&var.name) == Some(&Type::Int);
                let values = elem_int.then(|| env.element_interval(seq));
                let leaves = self
                    .decls
                    .is_collection(&var.name)
                    .then(|| env.leaves_of(seq));
                (values, leaves, Vec::new())
            }
            Iter::While { .. } => (None, None, Vec::new()),
        };
        if !matches!(iter, Iter::While { .. }) {
            for e in iter.exprs() {
                env.evaluated(e);
            }
        }
        let round = var.map(|var| Round {
            var,
            values,
            leaves,
        });
        env.enter_loop_head(body, round, self.decls);
        if let Some(id) = id {
            self.out.head.insert(id.clone(), env.clone());
        }
        let mut inner = match iter {
            Iter::While { cond, .. } => env.learned(cond, true),
            _ => env.clone(),
        };
        if let Some(v) = var {
            inner.assign(v, values);
            inner.set_index_facts(v, index);
            if let Some(l) = leaves {
                inner.set_leaves(v, l);
            }
        }
        self.breaks.push(Vec::new());
        self.block(body, inner);
        let exits = self.breaks.pop().unwrap_or_default();
        let after = self.after_loop(iter, var, leaves, env);
        // A BREAK leaves with the facts where it stands.
        after.into_iter().chain(exits).reduce(|acc, e| acc.join(&e))
    }

    /// The facts after the loop's last round (not by a `BREAK`); `None`
    /// when it has none.
    fn after_loop(
        &self,
        iter: &Iter,
        var: Option<&str>,
        leaves: Option<Leaves>,
        mut env: Env,
    ) -> Option<Env> {
        if never_ends(iter) {
            return None;
        }
        Some(match iter {
            Iter::While { cond, .. } => env.learned(cond, false),
            _ => {
                if let Some(v) = var {
                    // No round, or some: its old value or a new one.
                    env.forget(v);
                    if let Some(l) = leaves {
                        env.add_leaves(v, l);
                    }
                }
                env
            }
        })
    }
}

#[cfg(test)]
mod tests;
