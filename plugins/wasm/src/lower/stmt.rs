//! Statements: SEQ, ASSIGN, IF, LOOP (range, each, while) and RETURN, with
//! the fuel they spend and the code range each step covers.

use super::{bug, ty_of, work, Lowering, Res, StepRange, Var};
use crate::asm::Label;
use crate::layout::{elem, is_heap, DATA, LEN};
use crate::module::Rt;
use crate::runtime::{self, load32, load_val};
use isu_plugin_api::analysis::stable;
use isu_plugin_api::update::{in_place, Update};
use isu_plugin_api::work::has_size;
use isu_plugin_api::RuntimeCode;
use isu_plugin_api::{Block, Expr, ExprNode, Iter, Node, Place, Step};
use wasm_encoder::{BlockType, ValType};

impl Lowering<'_> {
    pub fn block(&mut self, b: &Block) -> Res<()> {
        for s in &b.steps {
            // Steps after a RETURN still get their numbers (and dead code).
            self.step(s)?;
        }
        Ok(())
    }

    fn step(&mut self, s: &Step) -> Res<()> {
        let ix = self.next_step;
        self.next_step += 1;
        let step = ix as i32;
        let start = self.a.offset();
        if let Some(id) = &s.id {
            self.env = self.bounds.before(id);
            self.assume_hoisted();
        }
        self.here = s.id.clone();
        if self.fuel_model.per_step {
            self.spend(step);
        }
        match &s.node {
            Node::Seq { block } => self.block(block)?,
            Node::Assign { target, expr } => self.assign(target, expr, step)?,
            Node::If {
                cond,
                then_block,
                else_block,
            } => self.if_(cond, then_block, else_block, step)?,
            Node::Loop { iter, body } => self.loop_(s.id.as_ref(), iter, body, step)?,
            Node::Return { expr } => {
                let ty = ty_of(expr)?.clone();
                if ty != self.ret_ty {
                    return bug(format!(
                        "RETURN of {ty} from a function returning {}",
                        self.ret_ty
                    ));
                }
                self.expr(expr, step)?;
                let enc = self.mb.rt(Rt::Encode(ty));
                self.a.i32(step).i().call(enc).return_();
            }
            Node::Break | Node::Continue => {
                let Some(&(exit, next)) = self.loops.last() else {
                    return bug(
                        "a BREAK or CONTINUE outside a loop (the program was not validated)",
                    );
                };
                self.a.br(if matches!(s.node, Node::Break) {
                    exit
                } else {
                    next
                });
            }
        }
        self.ranges.push(StepRange {
            start,
            end: self.a.offset(),
            step: ix,
        });
        Ok(())
    }

    fn assign(&mut self, target: &Place, expr: &Expr, step: i32) -> Res<()> {
        match target {
            Place::Var { name, .. } => {
                if let Some(up) = in_place(target, expr) {
                    let var = self.var(name)?.clone();
                    // The variable's reference moves into the call.
                    self.read_var(name, step)?;
                    self.apply_update(up.op, &var, up.rest, step)?;
                    self.a.set(var.local);
                } else {
                    let var = self.var(name)?.clone();
                    let own = self.expr(expr, step)?;
                    if work::assign_copies(target, expr) {
                        // The copy's length, before anything is stored.
                        self.work_copy(expr, step);
                    }
                    self.own(own, &var.ty);
                    self.mem_hold(name, step)?;
                    if is_heap(&var.ty) {
                        self.a.get(var.local);
                        runtime::emit_drop(self.mb, &mut self.a, &var.ty);
                    }
                    self.a.set(var.local);
                }
                self.mark_assigned(name)?;
                Ok(())
            }
            Place::Index { .. } | Place::Field { .. } => self.assign_place(target, expr, step),
        }
    }

    /// Sets the run-time flag of an int or bool LOCAL just assigned.
    pub fn mark_assigned(&mut self, name: &str) -> Res<()> {
        let var = self.var(name)?.clone();
        if let Some(flag) = var.flag {
            self.a.i32(1).set(flag);
        }
        Ok(())
    }

    /// With the collection of the variable `var` (owned) on the stack,
    /// evaluates the rest of the arguments of `op` and calls it, spends its
    /// work (in place: not the collection's), and checks and counts what it
    /// adds to the live size; the new collection is left on the stack.
    pub fn apply_update(&mut self, op: Update, var: &Var, rest: &[Expr], step: i32) -> Res<()> {
        let ty = &var.ty;
        // The arguments, kept for measuring what the update adds.
        let mut kept = Vec::new();
        let mut tys = vec![ty];
        tys.extend(work::arg_types(rest)?);
        let mut w = work::plan(op.builtin(), true, &tys, ty);
        let delta;
        match (op, rest) {
            (Update::Push, [v]) => {
                let own = self.expr(v, step)?;
                self.work_arg(&mut w, 1, v);
                self.own(own, elem(ty));
                self.keep(&mut kept, elem(ty), has_size(elem(ty)));
                let f = self.mb.rt(Rt::Push(ty.clone()));
                let d = self.update_delta(op, ty, var.local, &kept);
                self.a.i32(step).i().call(f);
                delta = d;
            }
            (Update::Pop, []) => {
                let f = self.mb.rt(Rt::Pop(ty.clone()));
                let d = self.update_delta(op, ty, var.local, &kept);
                self.a.i32(step).i().call(f);
                delta = d;
            }
            (Update::MapSet, [k, v]) => {
                let (kt, vt) = crate::layout::key_value(ty);
                let (kt, vt) = (kt.clone(), vt.clone());
                let own = self.expr(k, step)?;
                self.work_arg(&mut w, 1, k);
                self.own(own, &kt);
                self.keep(&mut kept, &kt, true);
                let own = self.expr(v, step)?;
                self.work_arg(&mut w, 2, v);
                self.own(own, &vt);
                self.keep(&mut kept, &vt, true);
                let f = self.mb.rt(Rt::MapSet(ty.clone()));
                let d = self.update_delta(op, ty, var.local, &kept);
                self.a.i32(step).i().call(f);
                delta = d;
            }
            (Update::Concat, [b]) => {
                let own = self.expr(b, step)?;
                self.work_arg(&mut w, 1, b);
                self.keep(&mut kept, ty, true);
                let held = self.hold(own, ty);
                let f = match ty {
                    isu_plugin_api::Type::String => self.mb.rt(Rt::ConcatStr),
                    _ => self.mb.rt(Rt::ConcatArr(ty.clone())),
                };
                let d = self.update_delta(op, ty, var.local, &kept);
                self.a.i32(step).i().call(f);
                delta = d;
                self.release_held(vec![held]);
            }
            _ => return bug(format!("{op:?} with {} more arguments", rest.len())),
        }
        self.work_spend(w, step);
        if let Some(sz) = var.size {
            let r = self.a.temp(ValType::I32);
            if delta.reads_result() {
                self.a.tee(r);
            }
            self.update_done(delta, r, sz, step);
            self.a.release(r);
        }
        for l in kept {
            self.a.release(l);
        }
        Ok(())
    }

    /// Keeps a copy of the value of `ty` on the stack in a scratch local
    /// (when `needed`), for measuring it later.
    fn keep(&mut self, kept: &mut Vec<crate::asm::Local>, ty: &isu_plugin_api::Type, needed: bool) {
        if needed {
            let l = self.a.temp(crate::layout::val_type(ty));
            self.a.tee(l);
            kept.push(l);
        }
    }

    fn if_(&mut self, cond: &Expr, then_b: &Block, else_b: &Block, step: i32) -> Res<()> {
        self.expr(cond, step)?;
        self.a.if_(BlockType::Empty);
        self.block(then_b)?;
        self.a.else_();
        self.block(else_b)?;
        self.a.end();
        Ok(())
    }

    /// The body of a loop, whose variable was just given its round's value,
    /// in a block of its own: a `BREAK` leaves `exit`, a `CONTINUE` the
    /// body's block, to what comes after the body in the round.
    pub(super) fn loop_body(&mut self, body: &Block, var: Option<&str>, exit: Label) -> Res<()> {
        if let Some(v) = var {
            self.mark_assigned(v)?;
        }
        let next = self.a.block(BlockType::Empty);
        self.loops.push((exit, next));
        let r = self.block(body);
        self.loops.pop();
        self.a.end();
        r
    }

    /// A loop: first, the variables it stores into and never shares
    /// (`analysis::stable`) are made their own, once, so that the element
    /// stores of its rounds need not test it.
    fn loop_(
        &mut self,
        id: Option<&isu_plugin_api::StepId>,
        iter: &Iter,
        body: &Block,
        step: i32,
    ) -> Res<()> {
        let kept = stable::kept(iter, body, &self.decls);
        let mut made = Vec::new();
        for name in stored_into(body) {
            let holds =
                !self.decls.is_local(name) || id.is_some_and(|id| self.must.holds(id, name));
            if kept.keeps_own(name) && holds && !self.owned.iter().any(|o| o == name) {
                let var = self.var(name)?.clone();
                self.make_own(var.local, &var.ty);
                made.push(name.to_owned());
            }
        }
        let depth = self.owned.len();
        self.owned.extend(made);
        let r = self.loop_kind(id, iter, body, &kept, step);
        self.owned.truncate(depth);
        r
    }

    fn loop_kind(
        &mut self,
        id: Option<&isu_plugin_api::StepId>,
        iter: &Iter,
        body: &Block,
        kept: &stable::Kept,
        step: i32,
    ) -> Res<()> {
        match iter {
            Iter::Range {
                var,
                start,
                end,
                step: by,
                ..
            } => {
                let ends = (start, end, by.as_ref());
                self.range(id, &var.name, ends, body, kept, step)
            }
            Iter::Each { var, seq, .. } => self.each(&var.name, seq, body, step),
            Iter::While { cond, .. } => {
                let exit = self.a.block(BlockType::Empty);
                let top = self.a.loop_(BlockType::Empty);
                // COND runs before every round: what holds at the loop's head.
                if let Some(id) = id {
                    self.env = self.bounds.head(id);
                    self.assume_hoisted();
                }
                self.expr(cond, step)?;
                self.a.i().i32_eqz();
                self.a.br_if(exit);
                self.spend(step);
                self.loop_body(body, None, exit)?;
                self.a.br(top);
                self.a.end();
                self.a.end();
                Ok(())
            }
        }
    }

    /// A `range` loop; with a positive step (a constant, or one the value
    /// bounds prove so), in two versions when its index checks can be hoisted ([`super::hoist`]).
    fn range(
        &mut self,
        id: Option<&isu_plugin_api::StepId>,
        var: &str,
        (start, end, by): (&Expr, &Expr, Option<&Expr>),
        body: &Block,
        kept: &stable::Kept,
        step: i32,
    ) -> Res<()> {
        let v = self.var(var)?.clone();
        let cur = self.a.local(ValType::I64);
        let last = self.a.local(ValType::I64);
        self.expr(start, step)?;
        self.a.set(cur);
        self.expr(end, step)?;
        self.a.set(last);
        let by_const = match by {
            None => Some(1),
            Some(Expr {
                node:
                    ExprNode::Const {
                        value: isu_plugin_api::Literal::Int(k),
                    },
                ..
            }) => Some(*k),
            Some(_) => None,
        };
        let by_local = self.a.local(ValType::I64);
        match (by, by_const) {
            (_, Some(0)) => {
                runtime::raise(
                    self.mb,
                    &mut self.a,
                    RuntimeCode::ZeroStep,
                    runtime::StepArg::Const(step),
                );
            }
            (Some(e), None) => {
                self.expr(e, step)?;
                self.a.tee(by_local).i().i64_eqz();
                self.raise_if(RuntimeCode::ZeroStep, step);
            }
            _ => {}
        }
        // A step known positive: a constant, or one the value bounds prove.
        let positive = match (by, by_const) {
            (_, Some(k)) => k > 0,
            (Some(e), None) => self.env.interval(e).lo > 0,
            (None, None) => false,
        };
        let hoisted = match positive && self.hoisted.is_none() {
            true => self.hoistable(id, var, body, kept),
            false => None,
        };
        let rounds = Rounds {
            var,
            v: &v,
            cur,
            last,
            by_const,
            by_local,
        };
        let Some(h) = hoisted else {
            return self.rounds(&rounds, body, step);
        };
        self.hoist_test(&h, cur, last)?;
        self.a.if_(BlockType::Empty);
        let first_step = self.next_step;
        self.hoisted = Some(h);
        let fast = self.rounds(&rounds, body, step);
        self.hoisted = None;
        fast?;
        // The version with every check: the same steps again (their code
        // ranges are those of the first version).
        let (after, kept_ranges) = (self.next_step, self.ranges.len());
        self.a.else_();
        self.next_step = first_step;
        self.rounds(&rounds, body, step)?;
        if self.next_step != after {
            return bug("the two versions of a loop numbered its steps apart");
        }
        self.ranges.truncate(kept_ranges);
        self.a.end();
        Ok(())
    }

    /// The rounds of a `range` loop whose first and end values are in
    /// `cur` and `last`.
    fn rounds(&mut self, r: &Rounds<'_>, body: &Block, step: i32) -> Res<()> {
        if !self.fuel_model.per_step && super::counted::counted(body) {
            return self.counted_rounds(r, body, step);
        }
        let Rounds {
            var,
            v,
            cur,
            last,
            by_const,
            by_local,
        } = *r;
        let exit = self.a.block(BlockType::Empty);
        let top = self.a.loop_(BlockType::Empty);
        // Still in range?
        match by_const {
            Some(k) if k > 0 => {
                self.a.get(cur).get(last).i().i64_ge_s();
            }
            Some(_) => {
                self.a.get(cur).get(last).i().i64_le_s();
            }
            None => {
                self.a.get(cur).get(last).i().i64_ge_s();
                self.a.get(cur).get(last).i().i64_le_s();
                self.a.get(by_local).i64(0).i().i64_gt_s().select();
            }
        }
        self.a.br_if(exit);
        self.spend(step);
        self.a.get(cur).set(v.local);
        self.loop_body(body, Some(var), exit)?;
        // Next, unless it would leave the 64-bit range (then the range is done).
        match by_const {
            Some(1) => {
                self.a.get(cur).i64(1).i().i64_add();
                self.a.set(cur);
            }
            Some(k) if k > 0 => {
                self.a.get(cur).i64(i64::MAX - k).i().i64_gt_s();
                self.a.br_if(exit);
                self.a.get(cur).i64(k).i().i64_add();
                self.a.set(cur);
            }
            Some(k) => {
                self.a.get(cur).i64(i64::MIN - k).i().i64_lt_s();
                self.a.br_if(exit);
                self.a.get(cur).i64(k).i().i64_add();
                self.a.set(cur);
            }
            None => {
                let next = self.a.temp(ValType::I64);
                self.a.get(cur).get(by_local).i().i64_add();
                self.a.set(next);
                // Overflow: the sign of the sum differs from both operands'.
                self.a.get(cur).get(next).i().i64_xor();
                self.a
                    .get(by_local)
                    .get(next)
                    .i()
                    .i64_xor()
                    .i64_and()
                    .i64_const(0)
                    .i64_lt_s();
                self.a.br_if(exit);
                self.a.get(next).set(cur);
                self.a.release(next);
            }
        }
        self.a.br(top);
        self.a.end();
        self.a.end();
        Ok(())
    }

    fn each(&mut self, var: &str, seq: &Expr, body: &Block, step: i32) -> Res<()> {
        let v = self.var(var)?.clone();
        let seq_ty = ty_of(seq)?.clone();
        let ety = elem(&seq_ty).clone();
        let xs = self.a.local(ValType::I32);
        let n = self.a.local(ValType::I32);
        let i = self.a.local(ValType::I32);
        // The loop holds the array, so changes to its variable in the body
        // (copied on write) do not change what it walks.
        let own = self.expr(seq, step)?;
        self.own(own, &seq_ty);
        self.a.tee(xs);
        load32(&mut self.a, LEN);
        self.a.set(n);
        self.a.i32(0).set(i);
        let exit = self.a.block(BlockType::Empty);
        let top = self.a.loop_(BlockType::Empty);
        self.a.get(i).get(n).i().i32_ge_u();
        self.a.br_if(exit);
        self.spend(step);
        runtime::elem_addr(&mut self.a, xs, i, crate::layout::slot_shift(&ety));
        load_val(&mut self.a, &ety, DATA);
        // The variable takes the element: counted after the round's unit.
        self.mem_hold(var, step)?;
        if is_heap(&ety) {
            runtime::emit_inc(self.mb, &mut self.a, &ety);
            self.a.get(v.local);
            runtime::emit_drop(self.mb, &mut self.a, &ety);
        }
        self.a.set(v.local);
        self.loop_body(body, Some(var), exit)?;
        self.a.get(i).i32(1).i().i32_add();
        self.a.set(i);
        self.a.br(top);
        self.a.end();
        self.a.end();
        self.a.get(xs);
        runtime::emit_drop(self.mb, &mut self.a, &seq_ty);
        Ok(())
    }
}

/// The variables of the element and field `TARGET`s of a block, at any
/// depth: those whose stores test that the value is their own.
fn stored_into(b: &Block) -> std::collections::BTreeSet<&str> {
    let mut out = std::collections::BTreeSet::new();
    for s in &b.steps {
        if let Node::Assign {
            target: target @ (Place::Index { .. } | Place::Field { .. }),
            ..
        } = &s.node
        {
            out.insert(target.root().0);
        }
        for inner in s.node.blocks() {
            out.extend(stored_into(inner));
        }
    }
    out
}

/// What the rounds of a `range` loop work with: its variable, the locals
/// of its current and end values, its step (a constant, or in a local).
pub(super) struct Rounds<'v> {
    pub var: &'v str,
    pub v: &'v Var,
    pub cur: crate::asm::Local,
    pub last: crate::asm::Local,
    pub by_const: Option<i64>,
    pub by_local: crate::asm::Local,
}
