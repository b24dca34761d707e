//! A loop's rounds: what its `ITER` gives the loop variable at the start of
//! each, read once before the first (`spec/semantics.md` 4.5).
//!
//! A `range` counting up to `LEN(a) - k` (`k >= 0`) gives values below the
//! length `a` had when the loop started; they are below its length in a
//! round only while nothing has changed that length since. That is a fact
//! like any other, carried by a variable of the analysis' own (its *end*,
//! one below END, a name no program can spell): the end is below `LEN(a)`
//! when the loop starts, every step that may change `a`'s length takes the
//! fact away as it does for any variable, and each round's value is below
//! the arrays the end is still below at the head.

use super::super::interval::Interval;
use super::super::Decls;
use super::env::{Env, Leaves};
use crate::iir::Iter;
use crate::types::Type;

/// What a loop's rounds give its variable.
#[derive(Debug, Clone)]
pub(crate) struct Round<'a> {
    /// The variable of a `range` or `each`.
    var: Option<&'a str>,
    /// Its values, for an int.
    values: Option<Interval>,
    /// The ints it holds, for a collection.
    leaves: Option<Leaves>,
    /// The arrays every value is below, while their lengths stay.
    below: Vec<String>,
    /// The name of the loop's end.
    end: String,
}

impl<'a> Round<'a> {
    /// The rounds of `iter`, from the facts before the loop; `depth` is the
    /// number of loops around it (loops at one depth never overlap, so it
    /// names the end).
    pub(crate) fn start(iter: &'a Iter, env: &Env, decls: &Decls, depth: usize) -> Round<'a> {
        let var = iter.var().map(|v| v.name.as_str());
        let end = format!("#end{depth}");
        let (values, leaves, below) = match iter {
            Iter::Range {
                start, end, step, ..
            } => (
                Some(env.range_values(start, end, step.as_ref())),
                None,
                env.range_index_facts(end, step.as_ref()),
            ),
            Iter::Each { var, seq, .. } => {
                let values =
                    (decls.ty(&var.name) == Some(&Type::Int)).then(|| env.element_interval(seq));
                let leaves = decls.is_collection(&var.name).then(|| env.leaves_of(seq));
                (values, leaves, Vec::new())
            }
            Iter::While { .. } => (None, None, Vec::new()),
        };
        Round {
            var,
            values,
            leaves,
            below,
            end,
        }
    }

    /// The facts at the loop's head the first time: the `ITER` of a `range`
    /// or `each` was evaluated, and the end is below what it is below.
    pub(crate) fn enter(&self, mut env: Env, iter: &Iter) -> Env {
        if !matches!(iter, Iter::While { .. }) {
            for e in iter.exprs() {
                env.evaluated(e);
            }
        }
        env.set_index_facts(&self.end, self.below.clone());
        env
    }

    /// The facts where a round's body starts, from the head's: a `while`'s
    /// COND was true, a `range` or `each` gave its variable the next value.
    pub(crate) fn begin(&self, iter: &Iter, head: &Env) -> Env {
        if let Iter::While { cond, .. } = iter {
            return head.learned(cond, true);
        }
        let mut env = head.clone();
        if let Some(v) = self.var {
            env.assign(v, self.values);
            env.set_index_facts(v, head.below_of(&self.end));
            if let Some(l) = self.leaves {
                env.set_leaves(v, l);
            }
        }
        env
    }

    /// The facts after the loop: its end is gone.
    pub(crate) fn leave(&self, mut env: Env) -> Env {
        env.forget(&self.end);
        env
    }
}
