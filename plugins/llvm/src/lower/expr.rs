//! Expressions: each gives an LLVM value and says whether it is owned or
//! borrowed. Int arithmetic is checked with LLVM's overflow intrinsics;
//! errors name the step that holds the expression and its span. Checks the
//! value bounds (`isu_lang::analysis::bounds`) prove cannot fire are left
//! out: an operation whose exact result fits in 64 bits, an index known to
//! lie in its array.

use super::stmt::slot_width;
use super::{bug, is_heap, ty_of, Lowering, Own, Res, Val};
use crate::abi::{RuntimeCode, What};
use inkwell::intrinsics::Intrinsic;
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::IntPredicate;
use isu_plugin_api::analysis::interval;
use isu_plugin_api::{BinaryOp, Expr, ExprNode, FieldInit, Literal, Span, Type, UnaryOp};

impl<'ctx> Lowering<'ctx, '_> {
    /// Reads a variable, checking that a LOCAL has a value (LLVM drops the
    /// check where every path to the read assigned it).
    pub fn read_var(&mut self, name: &str, span: Span) -> Res<Val<'ctx>> {
        let var = self.var(name)?.clone();
        let v = self.b.build_load(self.llty(&var.ty), var.slot, name)?;
        if var.is_local {
            let unset = match var.flag {
                Some(flag) => {
                    let set = self
                        .b
                        .build_load(self.cx.bool_type(), flag, "")?
                        .into_int_value();
                    self.b.build_not(set, "")?
                }
                None => self.b.build_is_null(v.into_pointer_value(), "")?,
            };
            let site = self.site(What::Var, span, Some(name));
            self.fail_if(unset, RuntimeCode::UninitializedRead, site, None)?;
        }
        Ok(Val::borrowed(v))
    }

    pub fn expr(&mut self, e: &Expr) -> Res<Val<'ctx>> {
        let ty = ty_of(e)?.clone();
        match &e.node {
            ExprNode::Const { value } => match (&ty, value) {
                (Type::Int, Literal::Int(i)) => Ok(Val::borrowed(self.i64(*i))),
                (Type::Float, Literal::Float(x)) => {
                    Ok(Val::borrowed(self.cx.f64_type().const_float(*x)))
                }
                (Type::Bool, Literal::Bool(b)) => Ok(Val::borrowed(
                    self.cx.bool_type().const_int(u64::from(*b), false),
                )),
                _ => {
                    let p = self.constant(value, &ty)?;
                    Ok(Val::borrowed(p))
                }
            },
            ExprNode::Var { name } => self.read_var(name, e.span),
            ExprNode::Unary {
                op: UnaryOp::Neg,
                arg,
            } if ty == Type::Float => {
                let x = self.expr(arg)?.float();
                Ok(Val::borrowed(self.b.build_float_neg(x, "fneg")?))
            }
            ExprNode::Binary { op, lhs, rhs } if ty_of(lhs)? == &Type::Float => {
                self.float_binary(*op, lhs, rhs, e.span)
            }
            ExprNode::Unary { op, arg } => {
                let x = self.expr(arg)?.int();
                let v = match op {
                    UnaryOp::Neg if !self.env.interval(arg).contains(interval::MIN) => {
                        self.b.build_int_nsw_neg(x, "neg")?
                    }
                    UnaryOp::Neg => {
                        let site = self.site(What::Neg, e.span, None);
                        let min = self.b.build_int_compare(
                            IntPredicate::EQ,
                            x,
                            self.i64(i64::MIN),
                            "",
                        )?;
                        self.fail_if(min, RuntimeCode::IntOverflow, site, Some((x, x)))?;
                        self.b.build_int_nsw_neg(x, "neg")?
                    }
                    UnaryOp::Not => self.b.build_not(x, "not")?,
                };
                Ok(Val::borrowed(v))
            }
            ExprNode::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, e.span),
            ExprNode::Index { base, index } => self.index(base, index),
            ExprNode::Call { func, args } => self.call_fn(func, args, &ty, e.span),
            ExprNode::Struct { fields, .. } => self.record(fields, &ty),
            ExprNode::Field { base, field } => {
                let bty = ty_of(base)?.clone();
                let (i, fty) = self.field_slot(&bty, &field.name)?;
                let b = self.expr(base)?;
                let s = self
                    .call(
                        "isu_get",
                        &[b.v.into(), self.i64(i as i64).into(), self.i64(8).into()],
                    )?
                    .into_int_value();
                let v = self.of_slot(s, &fty)?;
                self.project(b, &bty, v, &fty)
            }
            ExprNode::List { items } => self.list(items, &ty, e.span),
            ExprNode::If {
                cond,
                then_expr,
                else_expr,
            } => self.if_expr(cond, then_expr, else_expr, &ty),
        }
    }

    /// `(struct S (f E) ...)`: a new struct, its fields' values evaluated in
    /// the order the fields come (the canonical order, `TYPES`'s) and each
    /// stored in its own slot, owned.
    fn record(&mut self, fields: &[FieldInit], ty: &Type) -> Res<Val<'ctx>> {
        let n = match ty {
            Type::Struct(name) => self
                .types
                .iter()
                .find(|d| d.name.name == *name)
                .map_or(0, |d| d.fields.len()),
            _ => 0,
        };
        if n != fields.len() {
            return bug(format!("a {ty} literal with {} fields", fields.len()));
        }
        let mut values = Vec::with_capacity(n);
        for f in fields {
            let (i, fty) = self.field_slot(ty, &f.name.name)?;
            let v = self.expr(&f.value)?;
            let v = self.own(v, &fty)?;
            values.push((i, self.to_slot(v, &fty)?));
        }
        let p = self.call("isu_struct_new", &[self.i64(n as i64).into()])?;
        for (i, s) in values {
            let at = self.i64(i as i64);
            self.call(
                "isu_set",
                &[p.into(), at.into(), self.i64(8).into(), s.into()],
            )?;
        }
        Ok(Val::owned(p))
    }

    /// `(list E ...)`: the elements evaluated in order, each owned, then
    /// pushed onto a new array with room for them all (each push checks
    /// the size limit, once every element is there).
    fn list(&mut self, items: &[Expr], ty: &Type, span: Span) -> Res<Val<'ctx>> {
        let Type::Array(elem) = ty else {
            return bug(format!("(list ...) of type {ty}"));
        };
        let mut slots = Vec::with_capacity(items.len());
        for item in items {
            let v = self.expr(item)?;
            let v = self.own(v, elem)?;
            slots.push(self.to_slot(v, elem)?);
        }
        let site = self.site(What::Plain, span, None);
        let n = self.i64(slots.len() as i64);
        let w = self.i64(slot_width(elem));
        let mut xs = self.call("isu_obj_new", &[n.into(), w.into()])?;
        let t = self.tdesc(ty);
        for s in slots {
            xs = self.call(
                "isu_push",
                &[xs.into(), s.into(), t.into(), self.i32(site).into()],
            )?;
        }
        Ok(Val::owned(xs))
    }

    /// `(if C A B)`: only the branch C chooses runs, knowing what C says;
    /// both leave an owned value (of a heap type), so either can follow.
    fn if_expr(&mut self, cond: &Expr, a: &Expr, b: &Expr, ty: &Type) -> Res<Val<'ctx>> {
        let c = self.expr(cond)?.int();
        let then_bb = self.block_named("if_then");
        let else_bb = self.block_named("if_else");
        let join = self.block_named("if_value");
        self.b.build_conditional_branch(c, then_bb, else_bb)?;
        let mut incoming = Vec::with_capacity(2);
        for (bb, branch, truth) in [(then_bb, a, true), (else_bb, b, false)] {
            self.b.position_at_end(bb);
            let inner = self.env.learned(cond, truth);
            let outer = std::mem::replace(&mut self.env, inner);
            let v = self.expr(branch);
            self.env = outer;
            let v = self.own(v?, ty)?;
            if let Some(end) = self.b.get_insert_block() {
                incoming.push((v, end));
            }
            self.b.build_unconditional_branch(join)?;
        }
        self.b.position_at_end(join);
        let phi = self.b.build_phi(self.llty(ty), "if")?;
        for (v, end) in &incoming {
            phi.add_incoming(&[(v, *end)]);
        }
        let v = phi.as_basic_value();
        Ok(if is_heap(ty) {
            Val::owned(v)
        } else {
            Val::borrowed(v)
        })
    }

    fn binary(&mut self, op: BinaryOp, lhs: &Expr, rhs: &Expr, span: Span) -> Res<Val<'ctx>> {
        use BinaryOp::*;
        match op {
            Add | Sub | Mul | Div | Mod => {
                let x = self.expr(lhs)?.int();
                let y = self.expr(rhs)?.int();
                // Of operands the bounds know not negative, the quotient and
                // the remainder are the unsigned ones, which cost less.
                let (l, r) = (self.env.interval(lhs), self.env.interval(rhs));
                let unsigned = l.lo >= 0 && r.lo >= 0;
                if self.arith_cannot_fail(op, lhs, rhs) {
                    return self.arith_unchecked(op, x, y, unsigned).map(Val::borrowed);
                }
                self.arith(op, x, y, unsigned, span).map(Val::borrowed)
            }
            And | Or => {
                let x = self.expr(lhs)?.int();
                let from = self.b.get_insert_block();
                let rhs_bb = self.block_named(if op == And { "and" } else { "or" });
                let join = self.block_named("logic");
                if op == And {
                    self.b.build_conditional_branch(x, rhs_bb, join)?;
                } else {
                    self.b.build_conditional_branch(x, join, rhs_bb)?;
                }
                self.b.position_at_end(rhs_bb);
                // The right side runs only when the left is true (`and`) or
                // false (`or`), and knows it.
                let inner = self.env.learned(lhs, op == And);
                let outer = std::mem::replace(&mut self.env, inner);
                let y = self.expr(rhs);
                self.env = outer;
                let y = y?.int();
                let rhs_end = self.b.get_insert_block();
                self.b.build_unconditional_branch(join)?;
                self.b.position_at_end(join);
                let phi = self.b.build_phi(self.cx.bool_type(), "")?;
                let short = self.cx.bool_type().const_int(u64::from(op == Or), false);
                if let (Some(from), Some(rhs_end)) = (from, rhs_end) {
                    phi.add_incoming(&[(&short, from), (&y, rhs_end)]);
                }
                Ok(Val::borrowed(phi.as_basic_value()))
            }
            Eq | Ne | Lt | Le | Gt | Ge => self.compare(op, lhs, rhs, span),
        }
    }

    /// Whether the value bounds prove that `(op lhs rhs)` raises no error:
    /// the exact result fits in 64 bits (`add`, `sub`, `mul`), the divisor
    /// is not 0 and the division not MIN by -1 (`div`, and `mod`, whose
    /// LLVM `srem` of MIN by -1 is undefined).
    fn arith_cannot_fail(&self, op: BinaryOp, lhs: &Expr, rhs: &Expr) -> bool {
        use BinaryOp::*;
        let (l, r) = (self.env.interval(lhs), self.env.interval(rhs));
        match op {
            Add => (l + r).fits(),
            Sub => (l - r).fits(),
            Mul => self.env.product(lhs, rhs).fits(),
            Div | Mod => {
                let min_by_minus_one = l.contains(interval::MIN) && r.contains(-1);
                !r.contains(0) && !min_by_minus_one
            }
            _ => false,
        }
    }

    /// `(op x y)` without checks, where [`Self::arith_cannot_fail`];
    /// `unsigned`: neither operand is negative.
    fn arith_unchecked(
        &mut self,
        op: BinaryOp,
        x: IntValue<'ctx>,
        y: IntValue<'ctx>,
        unsigned: bool,
    ) -> Res<IntValue<'ctx>> {
        use BinaryOp::*;
        Ok(match op {
            Add => self.b.build_int_nsw_add(x, y, "add")?,
            Sub => self.b.build_int_nsw_sub(x, y, "sub")?,
            Mul => self.b.build_int_nsw_mul(x, y, "mul")?,
            Div | Mod => self.divide(op, x, y, unsigned)?,
            _ => return bug(format!("{op:?} is no arithmetic")),
        })
    }

    /// The quotient (`div`) or the remainder (`mod`) of `x` by `y`, which is
    /// neither 0 nor, with `x` MIN, -1: truncated, as Isu's; the unsigned
    /// instruction where neither is negative (`unsigned`).
    fn divide(
        &mut self,
        op: BinaryOp,
        x: IntValue<'ctx>,
        y: IntValue<'ctx>,
        unsigned: bool,
    ) -> Res<IntValue<'ctx>> {
        Ok(match (op, unsigned) {
            (BinaryOp::Div, false) => self.b.build_int_signed_div(x, y, "div")?,
            (BinaryOp::Div, true) => self.b.build_int_unsigned_div(x, y, "div")?,
            (_, false) => self.b.build_int_signed_rem(x, y, "mod")?,
            (_, true) => self.b.build_int_unsigned_rem(x, y, "mod")?,
        })
    }

    /// `name.i64` of an overflow intrinsic: the result and whether it overflowed.
    pub fn overflow_op(
        &mut self,
        name: &str,
        x: IntValue<'ctx>,
        y: IntValue<'ctx>,
    ) -> Res<(IntValue<'ctx>, IntValue<'ctx>)> {
        let Some(decl) = Intrinsic::find(name)
            .and_then(|i| i.get_declaration(self.m, &[self.cx.i64_type().into()]))
        else {
            return bug(format!("LLVM has no intrinsic {name}"));
        };
        let pair = self
            .b
            .build_call(decl, &[x.into(), y.into()], "")?
            .try_as_basic_value()
            .basic();
        let Some(BasicValueEnum::StructValue(pair)) = pair else {
            return bug(format!("{name} gave no pair"));
        };
        let r = self.b.build_extract_value(pair, 0, "")?.into_int_value();
        let o = self.b.build_extract_value(pair, 1, "")?.into_int_value();
        Ok((r, o))
    }

    pub fn arith(
        &mut self,
        op: BinaryOp,
        x: IntValue<'ctx>,
        y: IntValue<'ctx>,
        unsigned: bool,
        span: Span,
    ) -> Res<IntValue<'ctx>> {
        use BinaryOp::*;
        let what = match op {
            Add => What::Add,
            Sub => What::Sub,
            Mul => What::Mul,
            Div => What::Div,
            _ => What::Mod,
        };
        let site = self.site(what, span, None);
        let intrinsic = match op {
            Add => Some("llvm.sadd.with.overflow"),
            Sub => Some("llvm.ssub.with.overflow"),
            Mul => Some("llvm.smul.with.overflow"),
            _ => None,
        };
        if let Some(name) = intrinsic {
            let (r, over) = self.overflow_op(name, x, y)?;
            self.fail_if(over, RuntimeCode::IntOverflow, site, Some((x, y)))?;
            return Ok(r);
        }
        let zero = self
            .b
            .build_int_compare(IntPredicate::EQ, y, self.i64(0), "")?;
        self.fail_if(zero, RuntimeCode::DivisionByZero, site, Some((x, y)))?;
        if unsigned {
            return self.divide(op, x, y, true);
        }
        let minus_one = self
            .b
            .build_int_compare(IntPredicate::EQ, y, self.i64(-1), "")?;
        if op == Div {
            let min = self
                .b
                .build_int_compare(IntPredicate::EQ, x, self.i64(i64::MIN), "")?;
            let both = self.b.build_and(min, minus_one, "")?;
            self.fail_if(both, RuntimeCode::IntOverflow, site, Some((x, y)))?;
            Ok(self.b.build_int_signed_div(x, y, "div")?)
        } else {
            // x mod -1 is 0 (LLVM's srem of MIN by -1 is undefined): divide by 1 then.
            let safe = self
                .b
                .build_select(minus_one, self.i64(1), y, "")?
                .into_int_value();
            Ok(self.b.build_int_signed_rem(x, safe, "mod")?)
        }
    }

    fn compare(&mut self, op: BinaryOp, lhs: &Expr, rhs: &Expr, span: Span) -> Res<Val<'ctx>> {
        use BinaryOp::*;
        let ty = ty_of(lhs)?.clone();
        let x = self.expr(lhs)?;
        let y = self.expr(rhs)?;
        let signed = |op| match op {
            Eq => IntPredicate::EQ,
            Ne => IntPredicate::NE,
            Lt => IntPredicate::SLT,
            Le => IntPredicate::SLE,
            Gt => IntPredicate::SGT,
            _ => IntPredicate::SGE,
        };
        let r = match &ty {
            Type::Int | Type::Bool => {
                if ty == Type::Bool && !matches!(op, Eq | Ne) {
                    return bug("an ordering of bools");
                }
                self.b.build_int_compare(signed(op), x.int(), y.int(), "")?
            }
            Type::String if !matches!(op, Eq | Ne) => {
                let c = self
                    .call("isu_str_cmp", &[x.v.into(), y.v.into()])?
                    .into_int_value();
                let zero = self.cx.i32_type().const_zero();
                self.b.build_int_compare(signed(op), c, zero, "")?
            }
            _ => {
                if !matches!(op, Eq | Ne) {
                    return bug(format!("an ordering of {ty}"));
                }
                let xs = self.to_slot(x.v, &ty)?;
                let ys = self.to_slot(y.v, &ty)?;
                let t = self.tdesc(&ty);
                let eq = self
                    .call("isu_eq", &[xs.into(), ys.into(), t.into()])?
                    .into_int_value();
                let zero = self.cx.i32_type().const_zero();
                let pred = if op == Eq {
                    IntPredicate::NE
                } else {
                    IntPredicate::EQ
                };
                self.b.build_int_compare(pred, eq, zero, "")?
            }
        };
        // The sizes of both (`work::COMPARISON`), after the comparison.
        if let (Some(a), Some(b)) = (self.size(x.v, &ty)?, self.size(y.v, &ty)?) {
            let units = self.b.build_int_add(a, b, "")?;
            self.spend_units(units, span)?;
        }
        self.release(x, &ty)?;
        self.release(y, &ty)?;
        Ok(Val::borrowed(r))
    }

    /// `(index base i)`: an array element (index in range), a map value
    /// (key present) or a string's character (a new string of one).
    fn index(&mut self, base: &Expr, index: &Expr) -> Res<Val<'ctx>> {
        let bty = ty_of(base)?.clone();
        let b = self.expr(base)?;
        let (rty, v) = match &bty {
            Type::Array(e) => {
                let i = self.expr(index)?.int();
                let name = match &base.node {
                    ExprNode::Var { name } => Some(name.as_str()),
                    _ => None,
                };
                let proven = name
                    .is_some_and(|a| self.env.index_in_bounds(index, a) || self.guarded(a, index));
                let v = self.element(b.v, i, e, index.span, proven, name)?;
                ((**e).clone(), v)
            }
            Type::Map(k, v) => {
                let key = self.expr(index)?;
                let site = self.site(What::Plain, index.span, None);
                let ks = self.to_slot(key.v, k)?;
                let t = self.tdesc(&bty);
                let s = self
                    .call(
                        "isu_map_get",
                        &[b.v.into(), ks.into(), t.into(), self.i32(site).into()],
                    )?
                    .into_int_value();
                // A string key spends its size, as MAP_GET's does.
                if let Some(n) = self.size(key.v, k)? {
                    self.spend_units(n, index.span)?;
                }
                self.release(key, k)?;
                ((**v).clone(), self.of_slot(s, v)?)
            }
            Type::String => {
                let i = self.expr(index)?.int();
                let n = self.call("isu_nchars", &[b.v.into()])?.into_int_value();
                let out = self.b.build_int_compare(IntPredicate::UGE, i, n, "")?;
                let site = self.site(What::Char, index.span, None);
                self.fail_if(out, RuntimeCode::IndexOutOfRange, site, Some((i, n)))?;
                // In range, so the slice cannot fail.
                let next = self.b.build_int_nsw_add(i, self.i64(1), "")?;
                let t = self.tdesc(&bty);
                let c = self.call(
                    "isu_slice",
                    &[
                        b.v.into(),
                        i.into(),
                        next.into(),
                        t.into(),
                        self.i32(site).into(),
                    ],
                )?;
                self.release(b, &bty)?;
                return Ok(Val::owned(c));
            }
            other => return bug(format!("index of a {other}")),
        };
        self.project(b, &bty, v, &rty)
    }

    /// Element `i` of the array `xs` of `elem`s (the value of the variable
    /// `name`, if it is one), its index checked unless the bounds prove it
    /// in range (`proven`).
    pub fn element(
        &mut self,
        xs: BasicValueEnum<'ctx>,
        i: IntValue<'ctx>,
        elem: &Type,
        span: Span,
        proven: bool,
        name: Option<&str>,
    ) -> Res<BasicValueEnum<'ctx>> {
        if !proven {
            self.check_index(xs, i, span, name)?;
        }
        let w = self.i64(slot_width(elem));
        let s = self
            .call("isu_get", &[xs.into(), i.into(), w.into()])?
            .into_int_value();
        self.of_slot(s, elem)
    }

    /// `index_out_of_range` at `span` unless `0 <= i < LEN(xs)`; `xs` is
    /// the value of the variable `name`, if it is one (whose length a loop
    /// around may have read before its first round).
    pub fn check_index(
        &mut self,
        xs: BasicValueEnum<'ctx>,
        i: IntValue<'ctx>,
        span: Span,
        name: Option<&str>,
    ) -> Res<()> {
        let n = self.length(xs, name)?;
        let out = self.b.build_int_compare(IntPredicate::UGE, i, n, "")?;
        let site = self.site(What::Index, span, None);
        self.fail_if(out, RuntimeCode::IndexOutOfRange, site, Some((i, n)))
    }

    /// The length of the array `xs`, the value of the variable `name` if it
    /// is one: the length a loop around read before its first round, if one
    /// did.
    pub fn length(&mut self, xs: BasicValueEnum<'ctx>, name: Option<&str>) -> Res<IntValue<'ctx>> {
        if let Some(slot) = name.and_then(|n| self.hoisted_length(n)) {
            let n = self.b.build_load(self.cx.i64_type(), slot, "len")?;
            return Ok(n.into_int_value());
        }
        Ok(self.call("isu_len", &[xs.into()])?.into_int_value())
    }

    /// A value read out of a container: borrowed while the container is;
    /// taken over (a reference of its own) when the container was a
    /// temporary, which is dropped.
    pub fn project(
        &mut self,
        container: Val<'ctx>,
        cty: &Type,
        v: BasicValueEnum<'ctx>,
        vty: &Type,
    ) -> Res<Val<'ctx>> {
        if container.own == Own::Owned && is_heap(cty) {
            self.inc(v, vty)?;
            self.drop_value(container.v, cty)?;
            Ok(Val {
                v,
                own: if is_heap(vty) {
                    Own::Owned
                } else {
                    Own::Borrowed
                },
            })
        } else {
            Ok(Val::borrowed(v))
        }
    }
}
