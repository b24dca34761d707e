//! Statements: SEQ, ASSIGN, IF, LOOP (range, each, while) and RETURN, with
//! the step budget each loop round spends and the debug location of each step.

use super::{bug, is_heap, ty_of, Lowering, Res, Val, Var};
use crate::abi::{RuntimeCode, What};
use inkwell::basic_block::BasicBlock;
use inkwell::values::{IntValue, PointerValue};
use inkwell::IntPredicate;
use isu_plugin_api::analysis::flow::breaks;
use isu_plugin_api::analysis::interval::Interval;
use isu_plugin_api::analysis::vars::{assigned_in, computes_with};
use isu_plugin_api::update::{in_place, Update};
use isu_plugin_api::visit::{self, Visit};
use isu_plugin_api::work;
use isu_plugin_api::{Block, Expr, ExprNode, Iter, Literal, Node, Place, Span, Step, Type};
use std::collections::BTreeSet;

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
        if let Some(id) = &s.id {
            self.env = self.bounds.before(id);
            self.assume_guarded();
        }
        match &s.node {
            Node::Seq { block } => self.block(block)?,
            Node::Assign { target, expr } => self.assign(target, expr)?,
            Node::If {
                cond,
                then_block,
                else_block,
            } => self.if_(cond, then_block, else_block)?,
            Node::Loop { iter, body } => self.loop_(iter, body, s)?,
            Node::Return { expr } => self.return_(expr, s.span)?,
            Node::Break | Node::Continue => {
                let Some(&(exit, next)) = self.loops.last() else {
                    return bug(
                        "a BREAK or CONTINUE outside a loop (the program was not validated)",
                    );
                };
                let to = if matches!(s.node, Node::Break) {
                    exit
                } else {
                    next
                };
                self.b.build_unconditional_branch(to)?;
            }
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
        // The result holds a reference of its own, so that dropping what
        // the function holds below leaves it alone.
        let v = self.own(v, &ty)?;
        let slot = self.to_slot(v, &ty)?;
        if is_heap(&ty) {
            let site = self.site(What::Plain, span, None);
            let t = self.tdesc(&ty);
            self.call(
                "isu_check_result",
                &[slot.into(), t.into(), self.i32(site).into()],
            )?;
        } else {
            // An int or a bool is one JSON value: more than a size limit of
            // 0 lets through.
            let site = self.site(What::Plain, span, None);
            self.call(
                "isu_check_size",
                &[self.i64(1).into(), self.i32(site).into()],
            )?;
        }
        self.b.build_store(self.result, slot)?;
        self.drop_held()?;
        self.b.build_return(None)?;
        Ok(())
    }

    /// Drops every value the function holds when it returns: its
    /// variables' (the arguments it was given included, and a `LOCAL`
    /// never set, null, which dropping skips) and the arrays of the `each`
    /// loops it returns from, so that a call leaves nothing allocated but
    /// its result (`spec/llvm-abi.md`, "Symbols").
    fn drop_held(&mut self) -> Res<()> {
        let vars: Vec<(PointerValue<'ctx>, Type)> = self
            .vars
            .values()
            .filter(|v| is_heap(&v.ty))
            .map(|v| (v.slot, v.ty.clone()))
            .collect();
        for (slot, ty) in vars {
            let v = self.b.build_load(self.llty(&ty), slot, "held")?;
            self.drop_value(v, &ty)?;
        }
        for (xs, ty) in self.walked.clone().into_iter().rev() {
            self.drop_value(xs, &ty)?;
        }
        Ok(())
    }

    fn assign(&mut self, target: &Place, expr: &Expr) -> Res<()> {
        let Place::Var { name, span } = target else {
            return self.assign_index(target, expr);
        };
        let var = self.var(name)?.clone();
        if let Some(u) = in_place(target, expr) {
            let (op, rest) = (u.op, u.rest);
            // The variable's reference moves into the call.
            let cur = self.read_var(name, *span)?;
            let new = self.apply_update(op, cur.v, &var, rest, expr.span)?;
            self.b.build_store(var.slot, new)?;
        } else {
            let v = self.expr(expr)?;
            if work::assign_copies(target, expr) {
                self.spend_copy(v.v, &var.ty, expr.span)?;
            }
            let v = self.own(v, &var.ty)?;
            if var.size.is_some() {
                let site = self.site(What::Plain, *span, None);
                self.hold_var(&var, v, site)?;
            }
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

    /// Applies the in-place function `op` to `cur`, the value of `var`
    /// (owned, moved into the call), with the rest of its arguments; the new
    /// value.
    pub fn apply_update(
        &mut self,
        op: Update,
        cur: inkwell::values::BasicValueEnum<'ctx>,
        var: &Var<'ctx>,
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
        let ty = var.ty.clone();
        self.call_update(op, cur, &ty, var, &args, span)
    }

    /// Calls the in-place function `op` on `cur`, of type `ty`, a part of
    /// `var` (or the whole), with the other arguments evaluated (owned as
    /// the function takes them); drops what it borrowed. Its own errors,
    /// then its work, then the memory its result adds to `var` are checked.
    pub fn call_update(
        &mut self,
        op: Update,
        cur: inkwell::values::BasicValueEnum<'ctx>,
        ty: &Type,
        var: &Var<'ctx>,
        args: &[(Val<'ctx>, Type)],
        span: Span,
    ) -> Res<inkwell::values::BasicValueEnum<'ctx>> {
        let mut passed = vec![(cur, ty)];
        passed.extend(args.iter().map(|(v, t)| (v.v, t)));
        let lens = self.measure_args(op.builtin(), true, &passed)?;
        let held = match var.size {
            Some(_) => Some(self.update_sizes(op, cur, ty, args)?),
            None => None,
        };
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
                let r = self.call(
                    "isu_concat",
                    &[cur.into(), y.v.into(), t.into(), site.into()],
                )?;
                self.release(*y, yt)?;
                r
            }
            _ => return bug(format!("{op:?} with {} more arguments", args.len())),
        };
        self.spend_call(op.builtin(), true, &lens, None, span)?;
        if let Some((old, added)) = held {
            let site = self.site(What::Plain, span, None);
            self.hold(var, old, added, site)?;
        }
        Ok(new)
    }

    /// The sizes an in-place `op` of `cur` by `args` takes away and puts in
    /// (`spec/semantics.md` 7), measured before the call takes them.
    fn update_sizes(
        &mut self,
        op: Update,
        cur: inkwell::values::BasicValueEnum<'ctx>,
        ty: &Type,
        args: &[(Val<'ctx>, Type)],
    ) -> Res<(IntValue<'ctx>, IntValue<'ctx>)> {
        let zero = self.i64(0);
        let one = self.i64(1);
        Ok(match (op, ty, args) {
            (Update::Push, _, [(v, vt)]) => {
                let n = self.full_size(v.v, vt)?;
                (zero, self.b.build_int_add(n, one, "")?)
            }
            (Update::Concat, _, [(y, yt)]) => (zero, self.full_size(y.v, yt)?),
            (Update::Pop, Type::Array(et), []) => {
                let len = self.call("isu_len", &[cur.into()])?.into_int_value();
                let last = self.b.build_int_sub(len, one, "")?;
                let n = self.elem_size(cur, last, et)?;
                (self.b.build_int_add(n, one, "")?, zero)
            }
            (Update::MapSet, Type::Map(kt, vt), [(k, _), (v, _)]) => {
                let n = self.full_size(v.v, vt)?;
                let (old, new, _) = self.entry_sizes(cur, k.v, kt, vt, n)?;
                (old, new)
            }
            _ => (zero, zero),
        })
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

    fn loop_(&mut self, iter: &Iter, body: &Block, s: &Step) -> Res<()> {
        let hoisted = self.hoist(iter, body)?;
        let r = self.loop_rounds(iter, body, s);
        self.unhoist(hoisted);
        r
    }

    fn loop_rounds(&mut self, iter: &Iter, body: &Block, s: &Step) -> Res<()> {
        let limit = self.site(What::Plain, s.span, None);
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
                // COND runs before every round: what holds at the loop's head.
                if let Some(id) = &s.id {
                    self.env = self.bounds.head(id);
                    self.assume_guarded();
                }
                let c = self.expr(cond)?.int();
                self.b.build_conditional_branch(c, round, exit)?;
                self.b.position_at_end(round);
                self.spend(limit)?;
                self.loop_body(body, exit, head)?;
                if self.reachable() {
                    self.b.build_unconditional_branch(head)?;
                }
                self.b.position_at_end(exit);
                Ok(())
            }
        }
    }

    /// The body of a loop: a `BREAK` in it branches to `exit`, a
    /// `CONTINUE` to `next`.
    fn loop_body(
        &mut self,
        body: &Block,
        exit: BasicBlock<'ctx>,
        next: BasicBlock<'ctx>,
    ) -> Res<()> {
        self.loops.push((exit, next));
        let r = self.block(body);
        self.loops.pop();
        r
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
            let is_zero =
                self.b
                    .build_int_compare(IntPredicate::EQ, step, i64t.const_zero(), "")?;
            self.fail_if(is_zero, RuntimeCode::ZeroStep, site, None)?;
        }
        if counted(body) {
            // Which way it counts: by its constant step, or by what the
            // bounds know of the step's sign.
            let up = match (by_const, by) {
                (Some(k), _) => (k != 0).then_some(k > 0),
                (None, Some(e)) => {
                    let iv = self.env.interval(e);
                    (iv.lo > 0 || iv.hi < 0).then_some(iv.lo > 0)
                }
                (None, None) => None,
            };
            // A counted loop: its rounds are known before the first.
            let trip = self.trip_count(first, last, step, up)?;
            let guard = up.and_then(|up| self.in_range_guard(var, first, step, up, body));
            // The variable's values, carried from round to round (the one
            // after the last may wrap: nothing reads it).
            let next = self.slots.build_alloca(i64t, &format!("{var}.next"))?;
            self.b.build_store(next, first)?;
            return self.counted(trip, limit, body, guard, |l, _| {
                let i = l.b.build_load(i64t, next, var)?.into_int_value();
                let after = l.b.build_int_add(i, step, "")?;
                l.b.build_store(next, after)?;
                l.b.build_store(v.slot, i)?;
                l.mark_assigned(var)
            });
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
        self.loop_body(body, exit, latch)?;
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
        let w = self.i64(slot_width(&ety));
        let assign = |l: &mut Self, k: IntValue<'ctx>| -> Res<()> {
            let s = l
                .call("isu_get", &[xs.into(), k.into(), w.into()])?
                .into_int_value();
            let x = l.of_slot(s, &ety)?;
            l.hold_var(&v, x, limit)?;
            if is_heap(&ety) {
                l.inc(x, &ety)?;
                let old = l.b.build_load(l.llty(&ety), v.slot, "old")?;
                l.drop_value(old, &ety)?;
            }
            l.b.build_store(v.slot, x)?;
            l.mark_assigned(var)
        };
        self.walked.push((xs, seq_ty.clone()));
        if counted(body) {
            self.counted(n, limit, body, None, assign)?;
            self.walked.pop();
            return self.drop_value(xs, &seq_ty);
        }
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
        assign(self, k)?;
        let next = self.b.build_int_add(k, i64t.const_int(1, false), "")?;
        self.b.build_store(i, next)?;
        self.loop_body(body, exit, head)?;
        self.walked.pop();
        if self.reachable() {
            self.b.build_unconditional_branch(head)?;
        }
        self.b.position_at_end(exit);
        self.drop_value(xs, &seq_ty)?;
        Ok(())
    }
}

impl<'ctx> Lowering<'ctx, '_> {
    /// The rounds of `(range i first last step)`, exactly: 0 when `first` is
    /// already at or past `last`, else the count of values before it. `up`
    /// is the step's sign where it is known (`Some(true)`: positive). The
    /// division runs only for a loop that has rounds (a loop entered many
    /// times with none, as the sieve's inner loop past the square root,
    /// costs a comparison).
    fn trip_count(
        &mut self,
        first: IntValue<'ctx>,
        last: IntValue<'ctx>,
        step: IntValue<'ctx>,
        up: Option<bool>,
    ) -> Res<IntValue<'ctx>> {
        let zero = self.i64(0);
        match up {
            Some(true) => self.trip_for(first, last, step),
            Some(false) => {
                let mag = self.b.build_int_sub(zero, step, "")?;
                self.trip_for(last, first, mag)
            }
            None => {
                let up = self.trip_for(first, last, step)?;
                let mag = self.b.build_int_sub(zero, step, "")?;
                let down = self.trip_for(last, first, mag)?;
                let positive = self
                    .b
                    .build_int_compare(IntPredicate::SGT, step, zero, "")?;
                Ok(self
                    .b
                    .build_select(positive, up, down, "")?
                    .into_int_value())
            }
        }
    }

    /// The count of the values from `lo` by `by` (its magnitude, not 0)
    /// below `hi`: 0 unless `lo < hi`, else `(hi - lo - 1) / by + 1`, where
    /// `hi - lo` fits in 64 bits unsigned. The division is behind a branch.
    fn trip_for(
        &mut self,
        lo: IntValue<'ctx>,
        hi: IntValue<'ctx>,
        by: IntValue<'ctx>,
    ) -> Res<IntValue<'ctx>> {
        let (zero, one) = (self.i64(0), self.i64(1));
        let some = self.b.build_int_compare(IntPredicate::SLT, lo, hi, "")?;
        let Some(from) = self.b.get_insert_block() else {
            return bug("a trip count outside a block");
        };
        let count = self.block_named("trip");
        let join = self.block_named("tripped");
        self.b.build_conditional_branch(some, count, join)?;
        self.b.position_at_end(count);
        let diff = self.b.build_int_sub(hi, lo, "")?;
        let less = self.b.build_int_sub(diff, one, "")?;
        let q = self.b.build_int_unsigned_div(less, by, "")?;
        let n = self.b.build_int_add(q, one, "")?;
        self.b.build_unconditional_branch(join)?;
        self.b.position_at_end(join);
        let trip = self.b.build_phi(self.cx.i64_type(), "trip")?;
        trip.add_incoming(&[(&n, count), (&zero, from)]);
        Ok(trip.as_basic_value().into_int_value())
    }

    /// A loop of `trip` rounds whose body holds no loop, so that nothing but
    /// its own rounds spends the step budget while it runs: the budget is
    /// charged up front. It runs min(trip, budget) rounds and, when the budget
    /// was short, stops with `step_limit` at `limit` where the next round
    /// would have started: what charging every round does, without a check
    /// per round. `round(r)` assigns the loop variable of round `r` (from 0).
    ///
    /// With a `guard`, the rounds run in one of two copies of the loop: the
    /// one without the index checks of the guard's arrays at the loop
    /// variable when, before the first round, every value the variable will
    /// take lies in each of those arrays (whose lengths no round changes),
    /// else the one with every check. The checks the lowering reports are
    /// those of the second.
    fn counted(
        &mut self,
        trip: IntValue<'ctx>,
        limit: i32,
        body: &Block,
        guard: Option<Guard<'ctx>>,
        mut round: impl FnMut(&mut Self, IntValue<'ctx>) -> Res<()>,
    ) -> Res<()> {
        let i64t = self.cx.i64_type();
        let fuel = self.b.build_load(i64t, self.fuel, "fuel")?.into_int_value();
        let enough = self
            .b
            .build_int_compare(IntPredicate::ULE, trip, fuel, "")?;
        let allowed = self
            .b
            .build_select(enough, trip, fuel, "allowed")?
            .into_int_value();
        let after = self.block_named("endrounds");
        match guard {
            None => self.rounds(allowed, body, &mut round, after)?,
            Some(g) => {
                let holds = self.guard_holds(&g, allowed)?;
                let fast = self.block_named("in_range");
                let checked = self.block_named("checked");
                self.b.build_conditional_branch(holds, fast, checked)?;
                self.b.position_at_end(checked);
                let steps = self.next_step;
                self.rounds(allowed, body, &mut round, after)?;
                let (end, checks) = (self.next_step, self.checks.len());
                // The same steps again, numbered alike.
                self.next_step = steps;
                self.b.position_at_end(fast);
                let pairs: Vec<(String, String)> = g
                    .arrays
                    .iter()
                    .map(|a| (a.clone(), g.var.clone()))
                    .collect();
                self.in_range.extend(pairs.iter().cloned());
                if g.small {
                    self.small.push(g.var.clone());
                }
                let r = self.rounds(allowed, body, &mut round, after);
                for p in &pairs {
                    self.in_range.remove(p);
                }
                if g.small {
                    self.small.pop();
                }
                r?;
                self.checks.truncate(checks);
                if self.next_step != end {
                    return bug("the two copies of a loop's body number their steps apart");
                }
            }
        }
        self.b.position_at_end(after);
        let short = self.b.build_not(enough, "")?;
        self.fail_if(short, RuntimeCode::StepLimit, limit, None)?;
        let left = self.b.build_int_sub(fuel, trip, "")?;
        self.b.build_store(self.fuel, left)?;
        Ok(())
    }
}

/// What lets a counted `range` run a copy of its body without the index
/// checks of some arrays at its variable ([`Lowering::counted`]).
pub struct Guard<'ctx> {
    /// The loop variable.
    var: String,
    /// Its first value and its step (not 0).
    first: IntValue<'ctx>,
    step: IntValue<'ctx>,
    /// Whether it counts up.
    up: bool,
    /// The arrays indexed by it whose lengths a loop around read.
    arrays: Vec<String>,
    /// Whether its values are tested to lie in `Interval::SMALL` too: the
    /// body computes with it (`(mul (var i) (var i))`), and the copy's
    /// bounds then know it that small, so that such arithmetic needs no
    /// overflow check there.
    small: bool,
}

impl<'ctx> Lowering<'ctx, '_> {
    /// The rounds of a counted loop, `allowed` of them, each assigning its
    /// variable (`round`) and running `body`; then on to `after`.
    fn rounds(
        &mut self,
        allowed: IntValue<'ctx>,
        body: &Block,
        round: &mut impl FnMut(&mut Self, IntValue<'ctx>) -> Res<()>,
        after: BasicBlock<'ctx>,
    ) -> Res<()> {
        let i64t = self.cx.i64_type();
        let r_slot = self.slots.build_alloca(i64t, "round")?;
        self.b.build_store(r_slot, i64t.const_zero())?;
        let head = self.block_named("rounds");
        let round_bb = self.block_named("round");
        self.b.build_unconditional_branch(head)?;
        self.b.position_at_end(head);
        let r = self.b.build_load(i64t, r_slot, "r")?.into_int_value();
        let more = self
            .b
            .build_int_compare(IntPredicate::ULT, r, allowed, "")?;
        self.b.build_conditional_branch(more, round_bb, after)?;
        self.b.position_at_end(round_bb);
        round(self, r)?;
        let next = self.b.build_int_add(r, i64t.const_int(1, false), "")?;
        self.b.build_store(r_slot, next)?;
        // No BREAK (counted loops have none): a CONTINUE goes to the next round.
        self.loop_body(body, after, head)?;
        if self.reachable() {
            self.b.build_unconditional_branch(head)?;
        }
        Ok(())
    }

    /// The guard of a counted `range` of `var` from `first` by `step`
    /// (not 0, its sign known: `up`): the arrays its body indexes at exactly `var` (reads, and the
    /// first level of element `TARGET`s), whose lengths a loop around read
    /// ([`Lowering::hoisted_length`]), where the body never assigns `var`.
    fn in_range_guard(
        &self,
        var: &str,
        first: IntValue<'ctx>,
        step: IntValue<'ctx>,
        up: bool,
        body: &Block,
    ) -> Option<Guard<'ctx>> {
        if assigned_in(body).contains(var) {
            return None;
        }
        let mut at = IndexedAt {
            var,
            arrays: BTreeSet::new(),
        };
        at.visit_block(body);
        let arrays: Vec<String> = at
            .arrays
            .into_iter()
            .filter(|a| self.hoisted_length(a).is_some())
            .map(str::to_owned)
            .collect();
        let small = computes_with(body, var);
        (!arrays.is_empty() || small).then(|| Guard {
            var: var.to_owned(),
            first,
            step,
            up,
            arrays,
            small,
        })
    }

    /// Narrows the facts of the step being lowered by what the guards of
    /// the copies around it tested ([`Guard::small`]): their variables,
    /// which no round assigns, are small everywhere in those copies.
    fn assume_guarded(&mut self) {
        for var in &self.small {
            self.env.refine(var, Interval::SMALL);
        }
    }

    /// Whether every value the guard's variable takes in `allowed` rounds
    /// lies in each of its arrays: none, or the least at least 0 and the
    /// greatest below each length. The last value, `first + (allowed - 1) *
    /// step`, is one the variable takes, so its wrapping arithmetic is exact.
    fn guard_holds(&mut self, g: &Guard<'ctx>, allowed: IntValue<'ctx>) -> Res<IntValue<'ctx>> {
        let i64t = self.cx.i64_type();
        let none = self
            .b
            .build_int_compare(IntPredicate::EQ, allowed, i64t.const_zero(), "")?;
        let rounds = self.b.build_int_sub(allowed, self.i64(1), "")?;
        let span = self.b.build_int_mul(rounds, g.step, "")?;
        let last = self.b.build_int_add(g.first, span, "last")?;
        let (lo, hi) = if g.up {
            (g.first, last)
        } else {
            (last, g.first)
        };
        let (lo_small, hi_small) = Interval::SMALL.ends();
        let least = if g.arrays.is_empty() { lo_small } else { 0 };
        let mut holds = self
            .b
            .build_int_compare(IntPredicate::SGE, lo, self.i64(least), "")?;
        if g.small {
            let below = self
                .b
                .build_int_compare(IntPredicate::SLE, hi, self.i64(hi_small), "")?;
            holds = self.b.build_and(holds, below, "")?;
        }
        for a in &g.arrays {
            let Some(slot) = self.hoisted_length(a) else {
                return bug(format!("no length of `{a}` was read before the loop"));
            };
            let n = self.b.build_load(i64t, slot, "len")?.into_int_value();
            let below = self.b.build_int_compare(IntPredicate::SLT, hi, n, "")?;
            holds = self.b.build_and(holds, below, "")?;
        }
        Ok(self.b.build_or(none, holds, "in_range")?)
    }

    /// Whether a loop around runs a copy of its body in which `index`, a
    /// read of its variable, surely lies in the array variable `array`.
    pub fn guarded(&self, array: &str, index: &Expr) -> bool {
        match &index.node {
            ExprNode::Var { name } => self.in_range.contains(&(array.to_owned(), name.clone())),
            _ => false,
        }
    }
}

/// The array variables indexed at exactly `(var VAR)`.
struct IndexedAt<'a> {
    var: &'a str,
    arrays: BTreeSet<&'a str>,
}

impl<'a> Visit<'a> for IndexedAt<'a> {
    fn visit_expr(&mut self, e: &'a Expr) {
        if let ExprNode::Index { base, index } = &e.node {
            if let (ExprNode::Var { name }, ExprNode::Var { name: i }) = (&base.node, &index.node) {
                if i == self.var && matches!(base.ty, Some(Type::Array(_))) {
                    self.arrays.insert(name);
                }
            }
        }
        visit::walk_expr(self, e);
    }

    fn visit_place(&mut self, p: &'a Place) {
        if let Place::Index { base, index, .. } = p {
            if let (Place::Var { name, .. }, ExprNode::Var { name: i }) = (&**base, &index.node) {
                if i == self.var {
                    self.arrays.insert(name);
                }
            }
        }
        visit::walk_place(self, p);
    }
}

/// Whether a loop over `body` may be counted ([`Lowering::counted`]): its
/// rounds spend nothing but their unit and no BREAK may end it early, so
/// that all its rounds can be charged before the first.
fn counted(body: &Block) -> bool {
    holds_no_loop(body) && !work::block_spends(body) && !breaks(body)
}

/// Whether a block holds no LOOP at any depth.
fn holds_no_loop(b: &Block) -> bool {
    b.steps.iter().all(|s| match &s.node {
        Node::Loop { .. } => false,
        other => other.blocks().into_iter().all(holds_no_loop),
    })
}

/// The bytes of an array slot holding a value of `elem`.
pub fn slot_width(elem: &Type) -> i64 {
    if *elem == Type::Bool {
        1
    } else {
        8
    }
}
