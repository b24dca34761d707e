//! `BREAK` and `CONTINUE`: the last step of a block inside a loop now and
//! then (in an IF's branch, most of the time, so that the loop goes on in
//! some rounds). Each loop being made says whether a `CONTINUE` may end a
//! round of it: not where the round's last steps move the loop on (the
//! inner loop of `shift_down`); a counted `while` whose body has a
//! `CONTINUE` of its own counts first, so that every round counts.

use super::steps::Steps;
use crate::iir::*;

impl Steps<'_> {
    /// Runs `make` for the body of a loop in which a `CONTINUE` may end a
    /// round (`continues`) or only a `BREAK` may jump.
    pub fn in_loop<T>(&mut self, continues: bool, make: impl FnOnce(&mut Self) -> T) -> T {
        self.loops.push(continues);
        let made = make(self);
        self.loops.pop();
        made
    }

    /// A `BREAK` or `CONTINUE` to end a block with, now and then, inside a
    /// loop.
    pub fn exit(&mut self) -> Option<Node> {
        let continues = *self.loops.last()?;
        if !self.gen.rng.chance(10) {
            return None;
        }
        Some(if continues && self.gen.rng.chance(50) {
            Node::Continue
        } else {
            Node::Break
        })
    }
}

/// Whether a `CONTINUE` of the loop whose body is `steps` is among them (in
/// an IF or a SEQ, not in a loop of its own).
pub(super) fn continues(steps: &[Step]) -> bool {
    steps.iter().any(|s| match &s.node {
        Node::Continue => true,
        Node::If {
            then_block,
            else_block,
            ..
        } => continues(&then_block.steps) || continues(&else_block.steps),
        Node::Seq { block } => continues(&block.steps),
        _ => false,
    })
}
