//! Which variables are live after each ASSIGN: read again before they are
//! next assigned. A statement that stores the array or map of a variable
//! that is dead after it may store the object itself instead of a copy:
//! nothing will look at it through that variable again.

use crate::facts::loop_var;
use isu_plugin_api::{Block, Expr, ExprNode, Iter, Node, Place, Program};
use std::collections::{BTreeMap, BTreeSet};

type Vars = BTreeSet<String>;

/// The live variables after each ASSIGN step, by step ID.
#[derive(Debug, Default)]
pub struct Liveness {
    after: BTreeMap<String, Vars>,
}

impl Liveness {
    pub fn of(program: &Program) -> Liveness {
        let mut l = Liveness::default();
        l.block(&program.body, &Vars::new());
        l
    }

    /// The variables live after the step `id` (an ASSIGN).
    pub fn after(&self, id: &str) -> Option<&Vars> {
        self.after.get(id)
    }

    /// The variables live before `b`, given those live after it.
    fn block(&mut self, b: &Block, out: &Vars) -> Vars {
        let mut live = out.clone();
        for step in b.steps.iter().rev() {
            live = match &step.node {
                Node::Seq { block } => self.block(block, &live),
                Node::Assign { target, expr } => {
                    if let Some(id) = &step.id {
                        self.after.insert(id.to_string(), live.clone());
                    }
                    if let Place::Var { name, .. } = target {
                        live.remove(name);
                    }
                    place_reads(target, &mut live);
                    reads(expr, &mut live);
                    live
                }
                Node::If {
                    cond,
                    then_block,
                    else_block,
                } => {
                    let mut l = self.block(then_block, &live);
                    l.extend(self.block(else_block, &live));
                    reads(cond, &mut l);
                    l
                }
                Node::Return { expr } => {
                    let mut l = Vars::new();
                    reads(expr, &mut l);
                    l
                }
                Node::Loop { iter, body } => self.looping(iter, body, &live),
            };
        }
        live
    }

    /// A loop: what is live at its head is live after it, or read by the
    /// body (again, in the next round) before the body assigns it.
    fn looping(&mut self, iter: &Iter, body: &Block, out: &Vars) -> Vars {
        let var = loop_var(iter);
        let mut head = out.clone();
        if let Iter::While { cond, .. } = iter {
            reads(cond, &mut head);
        }
        loop {
            let mut body_in = self.block(body, &head);
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
        match iter {
            Iter::Range {
                start, end, step, ..
            } => {
                reads(start, &mut live);
                reads(end, &mut live);
                if let Some(s) = step {
                    reads(s, &mut live);
                }
            }
            Iter::Each { seq, .. } => reads(seq, &mut live),
            Iter::While { .. } => {}
        }
        live
    }
}

fn place_reads(p: &Place, out: &mut Vars) {
    if let Place::Index { base, index, .. } = p {
        out.insert(p.root().0.to_owned());
        place_reads(base, out);
        reads(index, out);
    }
}

/// Adds the variables `e` reads.
pub fn reads(e: &Expr, out: &mut Vars) {
    match &e.node {
        ExprNode::Const { .. } => {}
        ExprNode::Var { name } => {
            out.insert(name.clone());
        }
        ExprNode::Unary { arg, .. } => reads(arg, out),
        ExprNode::Binary { lhs, rhs, .. } => {
            reads(lhs, out);
            reads(rhs, out);
        }
        ExprNode::Index { base, index } => {
            reads(base, out);
            reads(index, out);
        }
        ExprNode::Call { args, .. } => {
            for a in args {
                reads(a, out);
            }
        }
    }
}

/// How many times `e` reads the variable `var`.
pub fn count_reads(e: &Expr, var: &str) -> usize {
    match &e.node {
        ExprNode::Const { .. } => 0,
        ExprNode::Var { name } => usize::from(name == var),
        ExprNode::Unary { arg, .. } => count_reads(arg, var),
        ExprNode::Binary { lhs, rhs, .. } => count_reads(lhs, var) + count_reads(rhs, var),
        ExprNode::Index { base, index } => count_reads(base, var) + count_reads(index, var),
        ExprNode::Call { args, .. } => args.iter().map(|a| count_reads(a, var)).sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::*;
    use isu_plugin_api::{BinaryOp as B, Type};

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
                lit(isu_plugin_api::Literal::Array(vec![]), grid.clone()),
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
        let after = l.after("S1_2").cloned().unwrap_or_default();
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
                lit(isu_plugin_api::Literal::Array(vec![]), ints.clone()),
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
        assert!(l.after("S1_1").is_some_and(|a| a.contains("row")));
    }
}
