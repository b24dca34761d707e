//! Definite assignment: the `LOCAL`s that *may* hold a value, and those that
//! *must*, where each step starts (`ARGS` and `STATE` always hold one).
//!
//! Both are forward passes over the steps in execution order. An `ASSIGN`
//! gives its `TARGET`'s variable a value (an element `TARGET` reads it
//! first, so it had one); a `range` or `each` loop gives its variable one in
//! every round. Where two paths meet after an `IF`, a variable may hold a
//! value if it does on either path and must if it does on both; a path that
//! never completes ([`super::flow`]) does not reach the meeting point.
//!
//! A loop may run no round. Its body is analysed with the loop variable
//! assigned; for *may*, also with everything the body assigns anywhere,
//! since a later round sees what an earlier one wrote. After the loop, a
//! variable must hold a value only if it did before; it may hold one if it
//! may before or (when a round can end, at the end of the body or by a
//! `BREAK` or `CONTINUE`) after any round. A `BREAK` or `CONTINUE`, like a
//! `RETURN`, does not complete: the steps after it in its block see nothing
//! from its path.
//!
//! The validator reports a read of a `LOCAL` outside the *may* set (it can
//! never have a value there); executors skip the run-time check of a read
//! inside the *must* set.

use super::flow::{breaks, exits, never_ends};
use super::vars::assigned_in;
use crate::iir::{Block, Node, Program, Step, StepId};
use std::collections::{BTreeMap, BTreeSet};

/// Which of the two analyses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// May hold a value: assigned on some path.
    May,
    /// Must hold a value: assigned on every path.
    Must,
}

/// The `LOCAL`s assigned (in the sense of the mode) where each reachable
/// step starts.
#[derive(Debug, Clone)]
pub struct Assigned {
    mode: Mode,
    locals: BTreeSet<String>,
    before: BTreeMap<StepId, BTreeSet<String>>,
}

impl Assigned {
    /// The `LOCAL`s that may hold a value where each step starts.
    pub fn may(program: &Program) -> Assigned {
        Assigned::of(program, Mode::May)
    }

    /// The `LOCAL`s that surely hold a value where each step starts.
    pub fn must(program: &Program) -> Assigned {
        Assigned::of(program, Mode::Must)
    }

    fn of(program: &Program, mode: Mode) -> Assigned {
        let mut a = Assigned {
            mode,
            locals: program.locals.iter().map(|d| d.name.name.clone()).collect(),
            before: BTreeMap::new(),
        };
        a.block(&program.body, BTreeSet::new());
        a
    }

    /// The set where the step starts; `None` for a step no run reaches (or
    /// without an ID).
    pub fn before(&self, id: &StepId) -> Option<&BTreeSet<String>> {
        self.before.get(id)
    }

    /// Whether `name` holds a value where the step starts, in the sense of
    /// the mode: always for an `ARGS` or `STATE` variable; for a `LOCAL`
    /// when it is in the step's set (never in a step no run reaches).
    pub fn holds(&self, id: &StepId, name: &str) -> bool {
        !self.locals.contains(name) || self.before(id).is_some_and(|s| s.contains(name))
    }

    fn add(&self, name: &str, set: &mut BTreeSet<String>) {
        if self.locals.contains(name) {
            set.insert(name.to_owned());
        }
    }

    /// The set after the block, entered with `state`; `None` when it never
    /// completes.
    fn block(&mut self, b: &Block, state: BTreeSet<String>) -> Option<BTreeSet<String>> {
        let mut state = Some(state);
        for s in &b.steps {
            let cur = state?;
            state = self.step(s, cur);
        }
        state
    }

    fn step(&mut self, s: &Step, cur: BTreeSet<String>) -> Option<BTreeSet<String>> {
        if let Some(id) = &s.id {
            self.before.insert(id.clone(), cur.clone());
        }
        match &s.node {
            Node::Seq { block } => self.block(block, cur),
            Node::Assign { target, .. } => {
                let mut out = cur;
                self.add(target.root().0, &mut out);
                Some(out)
            }
            Node::If {
                then_block,
                else_block,
                ..
            } => {
                let t = self.block(then_block, cur.clone());
                let e = self.block(else_block, cur);
                match (t, e) {
                    (Some(t), Some(e)) => Some(match self.mode {
                        Mode::May => t.union(&e).cloned().collect(),
                        Mode::Must => t.intersection(&e).cloned().collect(),
                    }),
                    (t, e) => t.or(e),
                }
            }
            Node::Loop { iter, body } => {
                let mut inner = cur.clone();
                if let Some(v) = iter.var() {
                    self.add(&v.name, &mut inner);
                }
                if self.mode == Mode::May {
                    for name in assigned_in(body) {
                        self.add(name, &mut inner);
                    }
                }
                let body_out = self.block(body, inner.clone());
                if never_ends(iter) && !breaks(body) {
                    return None;
                }
                // A round that ends early (BREAK, CONTINUE) still leaves
                // what it assigned before.
                let round_ends = body_out.is_some() || exits(body);
                Some(match self.mode {
                    Mode::May if round_ends => inner,
                    _ => cur,
                })
            }
            Node::Return { .. } | Node::Break | Node::Continue => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::*;
    use crate::types::Type;

    fn id(s: &str) -> StepId {
        StepId::parse(s).unwrap_or_else(|| StepId::from_path(&[99]))
    }

    fn set_of(a: &Assigned, step: &str) -> Vec<String> {
        a.before(&id(step))
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default()
    }

    #[test]
    fn may_and_must_meet_differently() {
        let int_t = || Type::Int;
        let c = || var("c", Type::Bool);
        let p = program(
            "f",
            &[("c", Type::Bool), ("n", int_t())],
            int_t(),
            vec![],
            &[
                ("x", int_t()),
                ("y", int_t()),
                ("i", int_t()),
                ("z", int_t()),
            ],
            vec![
                if_(
                    "S1",
                    c(),
                    vec![set("S1_1", "x", int(1))],
                    vec![set("S1_2", "y", int(2))],
                ),
                if_(
                    "S2",
                    c(),
                    vec![set("S2_1", "y", int(1))],
                    vec![ret("S2_2", int(0))],
                ),
                range(
                    "S3",
                    "i",
                    int(0),
                    var("n", int_t()),
                    None,
                    vec![set("S3_1", "z", var("i", int_t()))],
                ),
                ret("S4", var("y", int_t())),
            ],
        );
        let may = Assigned::may(&p);
        let must = Assigned::must(&p);
        assert_eq!(set_of(&may, "S2"), ["x", "y"]);
        assert!(set_of(&must, "S2").is_empty());
        // The ELSE returns: after the IF, y holds its THEN value.
        assert_eq!(set_of(&must, "S3"), ["y"]);
        // In the body: the loop variable, and (may) what a round assigns.
        assert_eq!(set_of(&must, "S3_1"), ["i", "y"]);
        assert_eq!(set_of(&may, "S3_1"), ["i", "x", "y", "z"]);
        // After the loop, which may run no round.
        assert_eq!(set_of(&must, "S4"), ["y"]);
        assert_eq!(set_of(&may, "S4"), ["i", "x", "y", "z"]);
        assert!(
            must.holds(&id("S4"), "n"),
            "an argument always holds a value"
        );
        assert!(!must.holds(&id("S4"), "z"));
    }

    #[test]
    fn a_round_ended_by_break_or_continue_still_assigns() {
        let p = program(
            "f",
            &[("n", Type::Int)],
            Type::Int,
            vec![],
            &[("i", Type::Int), ("x", Type::Int), ("y", Type::Int)],
            vec![
                range(
                    "S1",
                    "i",
                    int(0),
                    var("n", Type::Int),
                    None,
                    vec![
                        set("S1_1", "x", int(1)),
                        brk("S1_2"),
                        set("S1_3", "y", int(2)),
                    ],
                ),
                while_(
                    "S2",
                    boolean(true),
                    vec![set("S2_1", "y", int(3)), brk("S2_2")],
                ),
                ret("S3", var("x", Type::Int)),
            ],
        );
        let may = Assigned::may(&p);
        let must = Assigned::must(&p);
        // The BREAK after x's assignment: after the loop x may hold a value.
        assert_eq!(set_of(&may, "S2"), ["i", "x", "y"]);
        assert!(set_of(&must, "S2").is_empty());
        // The (while (const true)) loop with a BREAK completes: S3 is reached.
        assert!(may.before(&id("S3")).is_some());
        assert_eq!(set_of(&must, "S3"), Vec::<String>::new());
    }
}
