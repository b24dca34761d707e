//! Counted `range` loops: the rounds of a loop whose body holds no loop,
//! spends no work (`work::block_spends`) and has no `BREAK` are charged all
//! at once. Before the first round the loop's number of rounds, `trip`, is
//! worked out from its first value, end and step; it runs `min(trip,
//! fuel)` rounds, counted down in a local, without a budget test or a
//! range test per round; then, when the fuel was short, it fails with
//! `step_limit` at the `LOOP` where the next round would have started,
//! else `trip` units are spent. Nothing else touches the fuel while the
//! rounds run, so this is what charging each round does: every error of a
//! round comes first, `step_limit` where it would have been.

use super::stmt::Rounds;
use super::{Lowering, Res};
use isu_plugin_api::analysis::flow::breaks;
use isu_plugin_api::work::block_spends;
use isu_plugin_api::{Block, Node, RuntimeCode};
use wasm_encoder::{BlockType, ValType};

/// Whether the rounds of a loop over `body` may be charged before the first
/// ([`Lowering::counted_rounds`]).
pub fn counted(body: &Block) -> bool {
    holds_no_loop(body) && !block_spends(body) && !breaks(body)
}

/// Whether a block holds no `LOOP` at any depth.
fn holds_no_loop(b: &Block) -> bool {
    b.steps.iter().all(|s| match &s.node {
        Node::Loop { .. } => false,
        other => other.blocks().into_iter().all(holds_no_loop),
    })
}

impl Lowering<'_> {
    /// The rounds of a counted `range` loop ([`counted`]).
    pub(super) fn counted_rounds(&mut self, r: &Rounds<'_>, body: &Block, step: i32) -> Res<()> {
        let trip = self.a.local(ValType::I64);
        let left = self.a.local(ValType::I64);
        self.push_trip(r);
        self.a.tee(trip);
        // The rounds run: min(trip, fuel), unsigned.
        let fuel = self.fuel;
        self.a.get(fuel).get(trip).get(fuel).i().i64_le_u();
        self.a.i().select();
        self.a.set(left);
        let exit = self.a.block(BlockType::Empty);
        let top = self.a.loop_(BlockType::Empty);
        self.a.get(left).i().i64_eqz();
        self.a.br_if(exit);
        self.a.get(left).i64(1).i().i64_sub();
        self.a.set(left);
        self.a.get(r.cur).set(r.v.local);
        self.loop_body(body, Some(r.var), exit)?;
        // The next value (after the last round it may wrap, unread).
        match r.by_const {
            Some(k) => {
                self.a.get(r.cur).i64(k).i().i64_add();
            }
            None => {
                self.a.get(r.cur).get(r.by_local).i().i64_add();
            }
        }
        self.a.set(r.cur);
        self.a.br(top);
        self.a.end();
        self.a.end();
        // Short of fuel: fails where the next round would have started.
        self.a.get(trip).get(fuel).i().i64_gt_u();
        self.raise_if(RuntimeCode::StepLimit, step);
        self.a.get(fuel).get(trip).i().i64_sub();
        self.a.set(fuel);
        Ok(())
    }

    /// Pushes the number of rounds (`i64`, unsigned) of the `range` loop
    /// whose first and end values are in `cur` and `last`: 0 when the first
    /// value is past the end, else `(|last - cur| - 1) / |by| + 1`, all
    /// unsigned (so no difference overflows).
    fn push_trip(&mut self, r: &Rounds<'_>) {
        match r.by_const {
            Some(k) if k > 0 => self.trip(r, false, |l| {
                if k != 1 {
                    l.a.i64(k).i().i64_div_u();
                }
            }),
            Some(k) => {
                // |k| as an unsigned 64-bit number (2^63 for i64::MIN).
                let m = i64::from_ne_bytes(k.unsigned_abs().to_ne_bytes());
                self.trip(r, true, |l| {
                    l.a.i64(m).i().i64_div_u();
                })
            }
            None => {
                let by = r.by_local;
                self.a.get(by).i64(0).i().i64_gt_s();
                self.a.if_(BlockType::Result(ValType::I64));
                self.trip(r, false, |l| {
                    l.a.get(by).i().i64_div_u();
                });
                self.a.else_();
                self.trip(r, true, |l| {
                    l.a.i64(0).get(by).i().i64_sub().i64_div_u();
                });
                self.a.end();
            }
        }
    }

    /// The trip of a loop counting up (`down` false) or down: with `(lo, hi)`
    /// its first and end values (its end and first counting down), `lo < hi ?
    /// (hi - lo - 1) / |by| + 1 : 0`, `divide` dividing the top of the stack
    /// by `|by|`.
    fn trip(&mut self, r: &Rounds<'_>, down: bool, divide: impl FnOnce(&mut Self)) {
        let (lo, hi) = if down {
            (r.last, r.cur)
        } else {
            (r.cur, r.last)
        };
        self.a.get(lo).get(hi).i().i64_lt_s();
        self.a.if_(BlockType::Result(ValType::I64));
        self.a.get(hi).get(lo).i().i64_sub();
        self.a.i64(1).i().i64_sub();
        divide(self);
        self.a.i64(1).i().i64_add();
        self.a.else_();
        self.a.i64(0);
        self.a.end();
    }
}
