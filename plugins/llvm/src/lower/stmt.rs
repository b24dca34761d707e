//! Statements: SEQ, ASSIGN, IF, LOOP (range, each, while) and RETURN, with
//! the step budget each loop round spends and the debug location of each step.

use super::{bug, is_heap, ty_of, Lowering, Res, Val};
use crate::abi::{ErrorCode, What};
use crate::lang::{update_of, Update};
use inkwell::IntPredicate;
use isu_plugin_api::{Block, Expr, ExprNode, Iter, Literal, Node, Place, Span, Step, Type};

impl<'ctx> Lowering<'ctx, '_> {
    pub fn block(&mut self, b: &Block) -> Res<()> {
        for s in &b.steps {
            self.step(s)?;
        }
        Ok(())
    }

    fn step(&mut self, s: &Step) -> Res<()> {
        let ix = self.next_step as i32;
        self.next_step += 1;
        let outer = self.step;
        self.step = ix;
        if !self.reachable() {
            // Code after a RETURN: still lowered (its steps keep their
            // numbers), in a block nothing branches to.
            let dead = self.block_named("dead");
            self.b.position_at_end(dead);
        }
        self.dbg.at(self.cx, &self.b, s.span);
        match &s.node {
            Node::Seq { block } => self.block(block)?,
            Node::Assign { target, expr } => self.assign(target, expr)?,
            Node::If {
                cond,
                then_block,
                else_block,
            } => self.if_(cond, then_block, else_block)?,
            Node::Loop { iter, body } => self.loop_(iter, body, s.span)?,
            Node::Return { expr } => self.return_(expr, s.span)?,
        }
        self.step = outer;
        Ok(())
    }

    fn return_(&mut self, expr: &Expr, span: Span) -> Res<()> {
        let ty = ty_of(expr)?.clone();
        if ty != self.ret_ty {
            return bug(format!(
                "RETURN of {ty} from a function returning {}",
                self.ret_ty
            ));
        }
        let v = self.expr(expr)?;
        let slot = self.to_slot(v.v, &ty)?;
        if is_heap(&ty) {
            let site = self.site(What::Plain, span, None);
            let t = self.tdesc(&ty);
            self.call(
                "isu_check_result",
                &[slot.into(), t.into(), self.i32(site).into()],
            )?;
        }
        self.b.build_store(self.result, slot)?;
        self.b.build_return(None)?;
        Ok(())
    }

    fn assign(&mut self, target: &Place, expr: &Expr) -> Res<()> {
        let Place::Var { name, span } = target else {
            return self.assign_index(target, expr);
        };
        let var = self.var(name)?.clone();
        if let Some((op, rest)) = update_of(target, expr) {
            // The variable's reference moves into the call.
            let cur = self.read_var(name, *span)?;
            let new = self.apply_update(op, cur.v, &var.ty, rest, expr.span)?;
            self.b.build_store(var.slot, new)?;
        } else {
            let v = self.expr(expr)?;
            let v = self.own(v, &var.ty)?;
            if is_heap(&var.ty) {
                let old = self.b.build_load(self.llty(&var.ty), var.slot, "old")?;
                self.drop_value(old, &var.ty)?;
            }
            self.b.build_store(var.slot, v)?;
        }
        self.mark_assigned(name)
    }

    pub fn mark_assigned(&mut self, name: &str) -> Res<()> {
        if let Some(flag) = self.var(name)?.flag {
            self.b
                .build_store(flag, self.cx.bool_type().const_int(1, false))?;
        }
        Ok(())
    }

    /// Applies the in-place function `op` to `cur` (owned, moved into the
    /// call) with the rest of its arguments; the new value.
    pub fn apply_update(
        &mut self,
        op: Update,
        cur: inkwell::values::BasicValueEnum<'ctx>,
        ty: &Type,
        rest: &[Expr],
        span: Span,
    ) -> Res<inkwell::values::BasicValueEnum<'ctx>> {
        let mut args = Vec::with_capacity(rest.len());
        for (i, r) in rest.iter().enumerate() {
            let rty = ty_of(r)?.clone();
            let v = self.expr(r)?;
            // CONCAT borrows its second argument; the others take theirs.
            let v = if op == Update::Concat && i == 0 {
                v
            } else {
                Val::owned(self.own(v, &rty)?)
            };
            args.push((v, rty));
        }
        self.call_update(op, cur, ty, &args, span)
    }

    /// Calls the in-place function `op` on `cur` with the other arguments
    /// evaluated (owned as the function takes them); drops what it borrowed.
    pub fn call_update(
        &mut self,
        op: Update,
        cur: inkwell::values::BasicValueEnum<'ctx>,
        ty: &Type,
        args: &[(Val<'ctx>, Type)],
        span: Span,
    ) -> Res<inkwell::values::BasicValueEnum<'ctx>> {
        let site = self.site(What::Plain, span, None);
        let t = self.tdesc(ty);
        let site = self.i32(site);
        let new = match (op, args) {
            (Update::Push, [(v, vt)]) => {
                let s = self.to_slot(v.v, vt)?;
                self.call("isu_push", &[cur.into(), s.into(), t.into(), site.into()])?
            }
            (Update::Pop, []) => self.call("isu_pop", &[cur.into(), t.into(), site.into()])?,
            (Update::MapSet, [(k, kt), (v, vt)]) => {
                let ks = self.to_slot(k.v, kt)?;
                let vs = self.to_slot(v.v, vt)?;
                self.call(
                    "isu_map_set",
                    &[cur.into(), ks.into(), vs.into(), t.into(), site.into()],
                )?
            }
            (Update::Concat, [(y, yt)]) => {
                let r = self.call("isu_concat", &[cur.into(), y.v.into(), t.into(), site.into()])?;
                self.release(*y, yt)?;
                r
            }
            _ => return bug(format!("{op:?} with {} more arguments", args.len())),
        };
        Ok(new)
    }

    fn if_(&mut self, cond: &Expr, then_b: &Block, else_b: &Block) -> Res<()> {
        let c = self.expr(cond)?.int();
        let then_bb = self.block_named("then");
        let else_bb = self.block_named("else");
        let join = self.block_named("endif");
        self.b.build_conditional_branch(c, then_bb, else_bb)?;
        for (bb, block) in [(then_bb, then_b), (else_bb, else_b)] {
            self.b.position_at_end(bb);
            self.block(block)?;
            if self.reachable() {
                self.b.build_unconditional_branch(join)?;
            }
        }
        self.b.position_at_end(join);
        Ok(())
    }

    fn loop_(&mut self, iter: &Iter, body: &Block, span: Span) -> Res<()> {
        let limit = self.site(What::Plain, span, None);
        match iter {
            Iter::Range {
                var,
                start,
                end,
                step: by,
                span: iter_span,
            } => self.range(&var.name, start, end, by.as_ref(), *iter_span, body, limit),
            Iter::Each { var, seq, .. } => self.each(&var.name, seq, body, limit),
            Iter::While { cond, .. } => {
                let head = self.block_named("while");
                let round = self.block_named("round");
                let exit = self.block_named("endwhile");
                self.b.build_unconditional_branch(head)?;
                self.b.position_at_end(head);
                let c = self.expr(cond)?.int();
                self.b.build_conditional_branch(c, round, exit)?;
                self.b.position_at_end(round);
                self.spend(limit)?;
                self.block(body)?;
                if self.reachable() {
                    self.b.build_unconditional_branch(head)?;
                }
                self.b.position_at_end(exit);
                Ok(())
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn range(
        &mut self,
        var: &str,
        start: &Expr,
        end: &Expr,
        by: Option<&Expr>,
        iter_span: Span,
        body: &Block,
        limit: i32,
    ) -> Res<()> {
        let i64t = self.cx.i64_type();
        let v = self.var(var)?.clone();
        let first = self.expr(start)?.int();
        let last = self.expr(end)?.int();
        let by_const = match by {
            None => Some(1),
            Some(Expr {
                node:
                    ExprNode::Const {
                        value: Literal::Int(k),
                    },
                ..
            }) => Some(*k),
            Some(_) => None,
        };
        let step = match by {
            Some(e) => self.expr(e)?.int(),
            None => self.i64(1),
        };
        if by_const != Some(1) && by_const.is_none_or(|k| k == 0) {
            let zero_span = by.map_or(iter_span, |e| e.span);
            let site = self.site(What::Plain, zero_span, None);
            let is_zero = self
                .b
                .build_int_compare(IntPredicate::EQ, step, i64t.const_zero(), "")?;
            self.fail_if(is_zero, ErrorCode::ZeroStep, site, None)?;
        }
        let cur = self.slots.build_alloca(i64t, &format!("{var}.next"))?;
        self.b.build_store(cur, first)?;
        let head = self.block_named("range");
        let round = self.block_named("round");
        let latch = self.block_named("next");
        let exit = self.block_named("endrange");
        self.b.build_unconditional_branch(head)?;
        self.b.position_at_end(head);
        let c = self.b.build_load(i64t, cur, "i")?.into_int_value();
        let up = self.b.build_int_compare(IntPredicate::SLT, c, last, "")?;
        let down = self.b.build_int_compare(IntPredicate::SGT, c, last, "")?;
        let more = match by_const {
            Some(k) if k > 0 => up,
            Some(_) => down,
            None => {
                let positive =
                    self.b
                        .build_int_compare(IntPredicate::SGT, step, i64t.const_zero(), "")?;
                self.b
                    .build_select(positive, up, down, "")?
                    .into_int_value()
            }
        };
        self.b.build_conditional_branch(more, round, exit)?;
        self.b.position_at_end(round);
        self.spend(limit)?;
        self.b.build_store(v.slot, c)?;
        self.mark_assigned(var)?;
        self.block(body)?;
        if self.reachable() {
            self.b.build_unconditional_branch(latch)?;
        }
        // The next value, unless it leaves the 64-bit range (then the range is done).
        self.b.position_at_end(latch);
        let c = self.b.build_load(i64t, cur, "i")?.into_int_value();
        let (next, over) = self.overflow_op("llvm.sadd.with.overflow", c, step)?;
        self.b.build_store(cur, next)?;
        self.b.build_conditional_branch(over, exit, head)?;
        self.b.position_at_end(exit);
        Ok(())
    }

    fn each(&mut self, var: &str, seq: &Expr, body: &Block, limit: i32) -> Res<()> {
        let i64t = self.cx.i64_type();
        let v = self.var(var)?.clone();
        let seq_ty = ty_of(seq)?.clone();
        let Type::Array(ety) = &seq_ty else {
            return bug(format!("each over a {seq_ty}"));
        };
        let ety = (**ety).clone();
        // The loop holds the array, so changes to its variable in the body
        // (copied on write) do not change what it walks.
        let xs = self.expr(seq)?;
        let xs = self.own(xs, &seq_ty)?;
        let n = self.call("isu_len", &[xs.into()])?.into_int_value();
        let i = self.slots.build_alloca(i64t, &format!("{var}.index"))?;
        self.b.build_store(i, i64t.const_zero())?;
        let head = self.block_named("each");
        let round = self.block_named("round");
        let exit = self.block_named("endeach");
        self.b.build_unconditional_branch(head)?;
        self.b.position_at_end(head);
        let k = self.b.build_load(i64t, i, "k")?.into_int_value();
        let more = self.b.build_int_compare(IntPredicate::SLT, k, n, "")?;
        self.b.build_conditional_branch(more, round, exit)?;
        self.b.position_at_end(round);
        self.spend(limit)?;
        let w = self.i64(slot_width(&ety));
        let s = self
            .call("isu_get", &[xs.into(), k.into(), w.into()])?
            .into_int_value();
        let x = self.from_slot(s, &ety)?;
        if is_heap(&ety) {
            self.inc(x, &ety)?;
            let old = self.b.build_load(self.llty(&ety), v.slot, "old")?;
            self.drop_value(old, &ety)?;
        }
        self.b.build_store(v.slot, x)?;
        self.mark_assigned(var)?;
        let next = self.b.build_int_add(k, i64t.const_int(1, false), "")?;
        self.b.build_store(i, next)?;
        self.block(body)?;
        if self.reachable() {
            self.b.build_unconditional_branch(head)?;
        }
        self.b.position_at_end(exit);
        self.drop_value(xs, &seq_ty)?;
        Ok(())
    }
}

/// The bytes of an array slot holding a value of `elem`.
pub fn slot_width(elem: &Type) -> i64 {
    if *elem == Type::Bool {
        1
    } else {
        8
    }
}
