//! Which variables are live after each `ASSIGN`: read again, on some path,
//! before they are next assigned. A step that stores the array or map of a
//! variable dead after it may store the value itself rather than a copy:
//! nothing looks at it through that variable again.
//!
//! A backward pass: a plain `ASSIGN` kills its variable and then adds what
//! it reads (an element `TARGET` reads its variable, so it stays live); an
//! `IF` joins its branches; a `RETURN` reads only its `EXPR`; a `BREAK` has
//! what is live after its loop, a `CONTINUE` what is live at its head; a loop's head
//! holds what is live after it and what a round reads before assigning,
//! found by iterating until nothing grows.

use super::vars::{each_place_read, each_read};
use crate::iir::{Block, Expr, Iter, Node, Place, Program, StepId};
use std::collections::{BTreeMap, BTreeSet};

type Live = BTreeSet<String>;

/// The live variables after each `ASSIGN` step, by step ID.
#[derive(Debug, Clone, Default)]
pub struct Liveness {
    after: BTreeMap<StepId, Live>,
    /// For each loop around the step being walked (innermost last): what is
    /// live after it (where a `BREAK` goes) and at its head (where a
    /// `CONTINUE` goes), as far as found.
    loops: Vec<(Live, Live)>,
}

impl Liveness {
    /// The variables live after each `ASSIGN` of `program`.
    pub fn of(program: &Program) -> Liveness {
        let mut l = Liveness::default();
        l.block(&program.body, &Live::new());
        l
    }

    /// The variables live after the step (an `ASSIGN`).
    pub fn after(&self, id: &StepId) -> Option<&Live> {
        self.after.get(id)
    }

    /// The variables live before `b`, given those live after it.
    fn block(&mut self, b: &Block, out: &Live) -> Live {
        let mut live = out.clone();
        for step in b.steps.iter().rev() {
            live = match &step.node {
                Node::Seq { block } => self.block(block, &live),
                Node::Assign { target, expr } => {
                    if let Some(id) = &step.id {
                        self.after.insert(id.clone(), live.clone());
                    }
                    if let Place::Var { name, .. } = target {
                        live.remove(name);
                    }
                    each_place_read(target, &mut |n, _| {
                        live.insert(n.to_owned());
                    });
                    add_reads(expr, &mut live);
                    live
                }
                Node::If {
                    cond,
                    then_block,
                    else_block,
                } => {
                    let mut l = self.block(then_block, &live);
                    l.extend(self.block(else_block, &live));
                    add_reads(cond, &mut l);
                    l
                }
                Node::Return { expr } => {
                    let mut l = Live::new();
                    add_reads(expr, &mut l);
                    l
                }
                Node::Loop { iter, body } => self.looping(iter, body, &live),
                Node::Break => self.loops.last().map(|l| l.0.clone()).unwrap_or_default(),
                Node::Continue => self.loops.last().map(|l| l.1.clone()).unwrap_or_default(),
            };
        }
        live
    }

    fn looping(&mut self, iter: &Iter, body: &Block, out: &Live) -> Live {
        let var = iter.var().map(|v| v.name.as_str());
        let mut head = out.clone();
        if let Iter::While { cond, .. } = iter {
            add_reads(cond, &mut head);
        }
        loop {
            self.loops.push((out.clone(), head.clone()));
            let body_in = self.block(body, &head);
            self.loops.pop();
            let mut body_in = body_in;
            if let Some(v) = var {
                body_in.remove(v);
            }
            let before = head.len();
            head.extend(body_in);
            if head.len() == before {
                break;
            }
        }
        let mut live = head;
        if !matches!(iter, Iter::While { .. }) {
            for e in iter.exprs() {
                add_reads(e, &mut live);
            }
        }
        live
    }
}

fn add_reads(e: &Expr, out: &mut Live) {
    each_read(e, &mut |n, _| {
        out.insert(n.to_owned());
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::*;
    use crate::iir::BinaryOp as B;
    use crate::literal::Literal;
    use crate::types::Type;

    fn id(s: &str) -> StepId {
        StepId::parse(s).unwrap_or_else(|| StepId::from_path(&[99]))
    }

    #[test]
    fn a_row_rebuilt_every_round_is_dead_after_it_is_stored() {
        let ints = Type::array(Type::Int);
        let grid = Type::array(ints.clone());
        let p = program(
            "g",
            &[("n", Type::Int)],
            grid.clone(),
            vec![(
                "out",
                grid.clone(),
                lit(Literal::Array(vec![]), grid.clone()),
            )],
            &[("row", ints.clone()), ("i", Type::Int)],
            vec![
                range(
                    "S1",
                    "i",
                    int(0),
                    var("n", Type::Int),
                    None,
                    vec![
                        set(
                            "S1_1",
                            "row",
                            call("REPEAT", vec![int(0), var("i", Type::Int)], ints.clone()),
                        ),
                        set(
                            "S1_2",
                            "out",
                            call(
                                "PUSH",
                                vec![var("out", grid.clone()), var("row", ints.clone())],
                                grid.clone(),
                            ),
                        ),
                    ],
                ),
                ret("S2", var("out", grid.clone())),
            ],
        );
        let l = Liveness::of(&p);
        let after = l.after(&id("S1_2")).cloned().unwrap_or_default();
        assert!(!after.contains("row"), "{after:?}");
        assert!(after.contains("out"), "{after:?}");
        // In a loop that reads `row` before assigning it, it stays live.
        let q = program(
            "h",
            &[("n", Type::Int)],
            ints.clone(),
            vec![(
                "row",
                ints.clone(),
                lit(Literal::Array(vec![]), ints.clone()),
            )],
            &[("i", Type::Int), ("c", ints.clone())],
            vec![
                range(
                    "S1",
                    "i",
                    int(0),
                    var("n", Type::Int),
                    None,
                    vec![
                        set("S1_1", "c", var("row", ints.clone())),
                        set(
                            "S1_2",
                            "row",
                            call(
                                "PUSH",
                                vec![
                                    var("row", ints.clone()),
                                    bin(B::Add, var("i", Type::Int), int(0)),
                                ],
                                ints.clone(),
                            ),
                        ),
                    ],
                ),
                ret("S2", var("row", ints.clone())),
            ],
        );
        let l = Liveness::of(&q);
        assert!(l.after(&id("S1_1")).is_some_and(|a| a.contains("row")));
    }

    #[test]
    fn break_carries_what_is_live_after_the_loop_and_continue_what_is_live_at_its_head() {
        let p = program(
            "f",
            &[("n", Type::Int)],
            Type::Int,
            vec![],
            &[("i", Type::Int), ("x", Type::Int), ("y", Type::Int)],
            vec![
                set("S1", "x", int(0)),
                set("S2", "y", int(0)),
                while_(
                    "S3",
                    bin(B::Lt, var("x", Type::Int), var("n", Type::Int)),
                    vec![
                        set("S3_1", "x", bin(B::Add, var("x", Type::Int), int(1))),
                        if_(
                            "S3_2",
                            boolean(true),
                            vec![brk("S3_2_1")],
                            vec![cont("S3_2_2")],
                        ),
                        set("S3_3", "y", int(5)),
                    ],
                ),
                ret("S4", var("y", Type::Int)),
            ],
        );
        let l = Liveness::of(&p);
        let after = |s: &str| -> Vec<String> {
            l.after(&id(s))
                .map(|v| v.iter().cloned().collect())
                .unwrap_or_default()
        };
        // After S3_1: the BREAK path reads y (S4), the CONTINUE path x and n
        // (the head's COND) and y.
        assert_eq!(after("S3_1"), ["n", "x", "y"]);
        // S3_3 is never reached, but y stays live through the BREAK.
        assert_eq!(after("S2"), ["n", "x", "y"]);
    }
}
