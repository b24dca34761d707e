//! Where control goes: whether a step *completes* (control can pass on to
//! the step after it) and which steps can be reached at all.
//!
//! Every step completes but a `RETURN`, a `BREAK`, a `CONTINUE`, a `SEQ`
//! whose block holds a step that never completes, an `IF` neither of whose
//! branches completes, and a `LOOP` whose `ITER` is `(while (const true))`
//! and whose body holds no `BREAK` of its own (only a `RETURN` leaves it).
//! Other loops may run no round, so they complete. A block that does not
//! complete ends in a `RETURN`, or (inside a loop body) in a `BREAK` or
//! `CONTINUE` (or runs forever); the steps after a step that never completes
//! are unreachable.

use crate::iir::{Block, ExprNode, Iter, Node, Program, Step, StepId};
use crate::literal::Literal;
use std::collections::BTreeMap;

/// `(while (const true))`: a loop only a `RETURN` leaves.
pub fn never_ends(iter: &Iter) -> bool {
    matches!(
        iter,
        Iter::While { cond, .. } if matches!(cond.node, ExprNode::Const { value: Literal::Bool(true) })
    )
}

/// Whether control can pass from the step to the one after it.
pub fn completes(s: &Step) -> bool {
    match &s.node {
        Node::Assign { .. } => true,
        Node::Return { .. } | Node::Break | Node::Continue => false,
        Node::Seq { block } => block_completes(block),
        Node::If {
            then_block,
            else_block,
            ..
        } => block_completes(then_block) || block_completes(else_block),
        Node::Loop { iter, body } => !never_ends(iter) || breaks(body),
    }
}

/// Whether the block holds a `BREAK` of the loop around it (one not inside
/// a nested `LOOP`), reachable or not.
pub fn breaks(b: &Block) -> bool {
    holds_own(b, &|n| matches!(n, Node::Break))
}

/// Whether the block holds a `BREAK` or a `CONTINUE` of the loop around it:
/// a round of it may end before the end of its body.
pub fn exits(b: &Block) -> bool {
    holds_own(b, &|n| matches!(n, Node::Break | Node::Continue))
}

fn holds_own(b: &Block, hit: &dyn Fn(&Node) -> bool) -> bool {
    b.steps.iter().any(|s| match &s.node {
        Node::Loop { .. } => false,
        node => hit(node) || node.blocks().into_iter().any(|b| holds_own(b, hit)),
    })
}

/// Whether control can reach the end of the block (an empty block does).
pub fn block_completes(b: &Block) -> bool {
    b.steps.iter().all(completes)
}

/// The index of the first step of the block that never completes, if one
/// does: the steps after it are unreachable.
pub fn first_end(b: &Block) -> Option<usize> {
    b.steps.iter().position(|s| !completes(s))
}

/// For every step with an ID: whether it completes and whether it can be
/// reached.
#[derive(Debug, Clone, Default)]
pub struct Flow {
    steps: BTreeMap<StepId, Reach>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Reach {
    completes: bool,
    reachable: bool,
}

impl Flow {
    /// Whether each step of `program` completes and is reachable.
    pub fn of(program: &Program) -> Flow {
        let mut f = Flow::default();
        f.block(&program.body, true);
        f
    }

    /// Records the block's steps; whether the block completes.
    fn block(&mut self, b: &Block, reachable: bool) -> bool {
        let mut live = reachable;
        let mut all = true;
        for s in &b.steps {
            let completes = match &s.node {
                Node::Seq { block } => self.block(block, live),
                Node::If {
                    then_block,
                    else_block,
                    ..
                } => {
                    let t = self.block(then_block, live);
                    let e = self.block(else_block, live);
                    t || e
                }
                Node::Loop { iter, body } => {
                    self.block(body, live);
                    !never_ends(iter) || breaks(body)
                }
                Node::Assign { .. } => true,
                Node::Return { .. } | Node::Break | Node::Continue => false,
            };
            if let Some(id) = &s.id {
                let reach = Reach {
                    completes,
                    reachable: live,
                };
                self.steps.insert(id.clone(), reach);
            }
            live &= completes;
            all &= completes;
        }
        all
    }

    /// Whether the step completes (`false` for an unknown ID).
    pub fn completes(&self, id: &StepId) -> bool {
        self.steps.get(id).is_some_and(|r| r.completes)
    }

    /// Whether some run can reach the step.
    pub fn is_reachable(&self, id: &StepId) -> bool {
        self.steps.get(id).is_some_and(|r| r.reachable)
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

    #[test]
    fn returns_and_endless_loops_end_their_blocks() {
        let t = || boolean(true);
        let p = program(
            "f",
            &[("c", Type::Bool)],
            Type::Int,
            vec![],
            &[("x", Type::Int)],
            vec![
                if_(
                    "S1",
                    var("c", Type::Bool),
                    vec![ret("S1_1", int(1)), set("S1_2", "x", int(2))],
                    vec![],
                ),
                while_(
                    "S2",
                    t(),
                    vec![if_("S2_1", t(), vec![ret("S2_1_1", int(3))], vec![])],
                ),
                ret("S3", int(4)),
            ],
        );
        let f = Flow::of(&p);
        assert!(f.completes(&id("S1")), "the empty ELSE completes");
        assert!(!f.completes(&id("S1_1")));
        assert!(!f.is_reachable(&id("S1_2")) && f.completes(&id("S1_2")));
        assert!(!f.completes(&id("S2")), "(while (const true)) never ends");
        assert!(f.is_reachable(&id("S2_1_1")));
        assert!(!f.is_reachable(&id("S3")));
        assert!(!block_completes(&p.body));
        assert_eq!(first_end(&p.body), Some(1));
    }

    #[test]
    fn a_break_ends_its_block_and_lets_its_loop_complete() {
        let p = program(
            "f",
            &[("c", Type::Bool)],
            Type::Int,
            vec![],
            &[("x", Type::Int)],
            vec![
                while_(
                    "S1",
                    boolean(true),
                    vec![
                        if_("S1_1", var("c", Type::Bool), vec![brk("S1_1_1")], vec![]),
                        while_(
                            "S1_2",
                            boolean(true),
                            vec![cont("S1_2_1"), set("S1_2_2", "x", int(1))],
                        ),
                    ],
                ),
                ret("S2", int(4)),
            ],
        );
        let f = Flow::of(&p);
        assert!(f.completes(&id("S1")), "its BREAK leaves the loop");
        assert!(f.is_reachable(&id("S2")));
        assert!(
            !f.completes(&id("S1_2")),
            "the inner loop has no BREAK of its own"
        );
        assert!(!f.completes(&id("S1_2_1")) && !f.is_reachable(&id("S1_2_2")));
        assert!(!block_completes(&p.body), "it ends in a RETURN");
    }
}
