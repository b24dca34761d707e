//! Expressions: each leaves its value on the Wasm stack and says whether it
//! is owned or borrowed. Int arithmetic is checked inline (with constant
//! operands folded into cheaper checks), except where the value bounds
//! where the code runs prove the check cannot fire; errors name the step
//! that holds the expression.

use super::{bug, ty_of, work, Lowering, Own, Res};
use crate::layout::{elem, field_offset, is_heap, key_value, val_type, CHARS, DATA, LEN};
use crate::module::{g, Rt};
use crate::runtime::{self, load32, load_val};
use isu_plugin_api::analysis::interval;
use isu_plugin_api::{
    BinaryOp, Builtin, Expr, ExprNode, FieldInit, Literal, RuntimeCode, Type, UnaryOp,
};
use wasm_encoder::{BlockType, ValType};

/// The `N` arguments of a standard function (its arity was checked by the
/// validator; a call built around it is a bug of the caller).
fn arity<const N: usize>(args: &[Expr]) -> Res<&[Expr; N]> {
    match <&[Expr; N]>::try_from(args) {
        Ok(a) => Ok(a),
        Err(_) => bug(format!("a call with {} arguments, not {N}", args.len())),
    }
}

impl Lowering<'_> {
    /// Reads a variable (checking, where it may be unassigned, that it is not).
    pub fn read_var(&mut self, name: &str, step: i32) -> Res<Own> {
        let var = self.var(name)?.clone();
        let surely_set = self
            .here
            .as_ref()
            .is_some_and(|id| self.must.holds(id, name));
        if var.is_local && !surely_set {
            match var.flag {
                Some(flag) => {
                    self.a.get(flag).i().i32_eqz();
                }
                None => {
                    self.a.get(var.local).i().i32_eqz();
                }
            }
            self.raise_if(RuntimeCode::UninitializedRead, step);
        }
        self.a.get(var.local);
        Ok(Own::Borrowed)
    }

    pub fn expr(&mut self, e: &Expr, step: i32) -> Res<Own> {
        let ty = ty_of(e)?.clone();
        match &e.node {
            ExprNode::Const { value } => {
                match (&ty, value) {
                    (Type::Int, Literal::Int(i)) => {
                        self.a.i64(*i);
                    }
                    (Type::Float, Literal::Float(x)) => {
                        self.a.i().f64_const((*x).into());
                    }
                    (Type::Bool, Literal::Bool(b)) => {
                        self.a.i32(i32::from(*b));
                    }
                    _ => {
                        let at = self.static_value(value, &ty)?;
                        self.a.i32(at as i32);
                    }
                }
                Ok(Own::Borrowed)
            }
            ExprNode::Var { name } => self.read_var(name, step),
            ExprNode::Unary {
                op: UnaryOp::Neg,
                arg,
            } if ty == Type::Float => {
                self.expr(arg, step)?;
                self.a.i().f64_neg();
                Ok(Own::Borrowed)
            }
            ExprNode::Binary { op, lhs, rhs } if ty_of(lhs)? == &Type::Float => {
                self.float_binary(*op, lhs, rhs, step)?;
                Ok(Own::Borrowed)
            }
            ExprNode::Unary { op, arg } => {
                match op {
                    UnaryOp::Neg if !self.env.interval(arg).contains(interval::MIN) => {
                        self.a.i64(0);
                        self.expr(arg, step)?;
                        self.a.i().i64_sub();
                    }
                    UnaryOp::Neg => {
                        let t = self.a.temp(ValType::I64);
                        self.expr(arg, step)?;
                        self.a.tee(t).i64(i64::MIN).i().i64_eq();
                        self.raise_if(RuntimeCode::IntOverflow, step);
                        self.a.i64(0).get(t).i().i64_sub();
                        self.a.release(t);
                    }
                    UnaryOp::Not => {
                        self.expr(arg, step)?;
                        self.a.i().i32_eqz();
                    }
                }
                Ok(Own::Borrowed)
            }
            ExprNode::Binary { op, lhs, rhs } => {
                self.binary(*op, lhs, rhs, step)?;
                Ok(Own::Borrowed)
            }
            ExprNode::Index { base, index } => self.index(base, index, step),
            ExprNode::Call { func, args } => self.call(func, args, &ty, step),
            ExprNode::Struct { fields, .. } => self.struct_value(&ty, fields, step),
            ExprNode::Field { base, field } => self.field(base, &field.name, step),
            ExprNode::List { items } => self.list(items, &ty, step),
            ExprNode::If {
                cond,
                then_expr,
                else_expr,
            } => {
                // Only the branch chosen runs, and knows what COND says; both
                // leave an owned value, so that either can follow.
                self.expr(cond, step)?;
                let (yes, no) = (self.env.learned(cond, true), self.env.learned(cond, false));
                let outer = std::mem::replace(&mut self.env, yes);
                self.a.if_(BlockType::Result(val_type(&ty)));
                let r = self.expr(then_expr, step).map(|own| self.own(own, &ty));
                self.env = no;
                self.a.else_();
                let r = r.and_then(|()| self.expr(else_expr, step).map(|own| self.own(own, &ty)));
                self.a.end();
                self.env = outer;
                r?;
                Ok(if is_heap(&ty) {
                    Own::Owned
                } else {
                    Own::Borrowed
                })
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, lhs: &Expr, rhs: &Expr, step: i32) -> Res<()> {
        use BinaryOp::*;
        match op {
            Add | Sub | Mul | Div | Mod => self.arith(op, lhs, rhs, step),
            And | Or => {
                self.expr(lhs, step)?;
                // The right side runs only when the left is true (`and`) or
                // false (`or`), and knows it.
                let inner = self.env.learned(lhs, op == And);
                let outer = std::mem::replace(&mut self.env, inner);
                self.a.if_(BlockType::Result(ValType::I32));
                let r = if op == And {
                    let r = self.expr(rhs, step);
                    self.a.else_();
                    self.a.i32(0);
                    r
                } else {
                    self.a.i32(1);
                    self.a.else_();
                    self.expr(rhs, step)
                };
                self.a.end();
                self.env = outer;
                r.map(|_| ())
            }
            Eq | Ne | Lt | Le | Gt | Ge => self.compare(op, lhs, rhs, step),
        }
    }

    fn compare(&mut self, op: BinaryOp, lhs: &Expr, rhs: &Expr, step: i32) -> Res<()> {
        use BinaryOp::*;
        let ty = ty_of(lhs)?.clone();
        let mut w = work::plan_comparison(op, &ty);
        let ol = self.expr(lhs, step)?;
        self.work_arg(&mut w, 0, lhs);
        let hl = self.hold(ol, &ty);
        let or = self.expr(rhs, step)?;
        self.work_arg(&mut w, 1, rhs);
        let hr = self.hold(or, &ty);
        match &ty {
            Type::Int => {
                let mut i = self.a.i();
                match op {
                    Eq => i.i64_eq(),
                    Ne => i.i64_ne(),
                    Lt => i.i64_lt_s(),
                    Le => i.i64_le_s(),
                    Gt => i.i64_gt_s(),
                    _ => i.i64_ge_s(),
                };
            }
            Type::Bool => {
                let mut i = self.a.i();
                match op {
                    Eq => i.i32_eq(),
                    Ne => i.i32_ne(),
                    _ => return bug("an ordering of bools"),
                };
            }
            Type::String if !matches!(op, Eq | Ne) => {
                let f = self.mb.rt(Rt::StrCmp);
                self.a.i().call(f).i32_const(0);
                let mut i = self.a.i();
                match op {
                    Lt => i.i32_lt_s(),
                    Le => i.i32_le_s(),
                    Gt => i.i32_gt_s(),
                    _ => i.i32_ge_s(),
                };
            }
            _ => {
                if !matches!(op, Eq | Ne) {
                    return bug(format!("an ordering of {ty}"));
                }
                runtime::emit_eq(self.mb, &mut self.a, &ty);
                if op == Ne {
                    self.a.i().i32_eqz();
                }
            }
        }
        self.work_spend(w, step);
        self.release_held(vec![hl, hr]);
        Ok(())
    }

    fn arith(&mut self, op: BinaryOp, lhs: &Expr, rhs: &Expr, step: i32) -> Res<()> {
        use BinaryOp::*;
        if self.arith_unchecked(op, lhs, rhs, step)? {
            return Ok(());
        }
        let k = rhs.int_const();
        let x = self.a.temp(ValType::I64);
        self.expr(lhs, step)?;
        match (op, k) {
            (Add, Some(c)) => {
                // x + c overflows iff x > MAX - c (c > 0) or x < MIN - c (c < 0).
                self.a.tee(x);
                if c > 0 {
                    self.a.i64(i64::MAX - c).i().i64_gt_s();
                    self.raise_if(RuntimeCode::IntOverflow, step);
                } else if c < 0 {
                    self.a.i64(i64::MIN - c).i().i64_lt_s();
                    self.raise_if(RuntimeCode::IntOverflow, step);
                } else {
                    self.a.i().drop();
                }
                self.a.get(x).i64(c).i().i64_add();
            }
            (Sub, Some(c)) => {
                self.a.tee(x);
                if c > 0 {
                    self.a.i64(i64::MIN + c).i().i64_lt_s();
                    self.raise_if(RuntimeCode::IntOverflow, step);
                } else if c < 0 {
                    self.a.i64(i64::MAX + c).i().i64_gt_s();
                    self.raise_if(RuntimeCode::IntOverflow, step);
                } else {
                    self.a.i().drop();
                }
                self.a.get(x).i64(c).i().i64_sub();
            }
            (Mul, Some(c)) => {
                self.a.set(x);
                match c {
                    0 => {
                        self.a.i64(0);
                    }
                    1 => {
                        self.a.get(x);
                    }
                    -1 => {
                        self.a.get(x).i64(i64::MIN).i().i64_eq();
                        self.raise_if(RuntimeCode::IntOverflow, step);
                        self.a.i64(0).get(x).i().i64_sub();
                    }
                    _ => {
                        // x * c fits iff MIN / c <= x <= MAX / c (bounds swap for c < 0).
                        let (lo, hi) = if c > 0 {
                            (i64::MIN / c, i64::MAX / c)
                        } else {
                            (i64::MAX / c, i64::MIN / c)
                        };
                        self.a.get(x).i64(lo).i().i64_lt_s();
                        self.a.get(x).i64(hi).i().i64_gt_s().i32_or();
                        self.raise_if(RuntimeCode::IntOverflow, step);
                        self.a.get(x).i64(c).i().i64_mul();
                    }
                }
            }
            (Div | Mod, Some(c)) if c != 0 && c != -1 => {
                self.a.i64(c);
                if op == Div {
                    self.a.i().i64_div_s();
                } else {
                    self.a.i().i64_rem_s();
                }
            }
            _ => {
                let y = self.a.temp(ValType::I64);
                self.a.set(x);
                self.expr(rhs, step)?;
                self.a.set(y);
                match op {
                    Add | Sub => {
                        let r = self.a.temp(ValType::I64);
                        self.a.get(x).get(y);
                        if op == Add {
                            self.a.i().i64_add();
                        } else {
                            self.a.i().i64_sub();
                        }
                        self.a.tee(r);
                        match self.sign_known(op, lhs, rhs) {
                            // One operand's sign is known: the result wrapped
                            // iff it lies on the wrong side of the other one.
                            Some((other, below)) => {
                                self.a.get(if other { y } else { x });
                                if below {
                                    self.a.i().i64_lt_s();
                                } else {
                                    self.a.i().i64_gt_s();
                                }
                            }
                            None if op == Add => {
                                // The sum's sign differs from both operands'.
                                self.a.get(x).i().i64_xor();
                                self.a.get(r).get(y).i().i64_xor().i64_and();
                                self.a.i64(0).i().i64_lt_s();
                            }
                            None => {
                                // The operands' signs differ and the result's
                                // differs from x's.
                                self.a.get(x).i().i64_xor();
                                self.a.get(x).get(y).i().i64_xor().i64_and();
                                self.a.i64(0).i().i64_lt_s();
                            }
                        }
                        self.raise_if(RuntimeCode::IntOverflow, step);
                        self.a.get(r);
                        self.a.release(r);
                    }
                    Mul => {
                        let f = self.mb.rt(Rt::MulChecked);
                        // Both within 32 bits: the product fits; no check needed.
                        self.a.get(x).i64(0x8000_0000).i().i64_add();
                        self.a.get(y).i64(0x8000_0000).i().i64_add().i64_or();
                        self.a.i64(0xFFFF_FFFF).i().i64_le_u();
                        self.a.if_(BlockType::Result(ValType::I64));
                        self.a.get(x).get(y).i().i64_mul();
                        self.a.else_();
                        self.a.get(x).get(y).i32(step).i().call(f);
                        self.a.end();
                    }
                    _ => {
                        self.a.get(y).i().i64_eqz();
                        self.raise_if(RuntimeCode::DivisionByZero, step);
                        if op == Div {
                            self.a.get(x).i64(i64::MIN).i().i64_eq();
                            self.a.get(y).i64(-1).i().i64_eq().i32_and();
                            self.raise_if(RuntimeCode::IntOverflow, step);
                            self.a.get(x).get(y).i().i64_div_s();
                        } else {
                            // Wasm's rem_s gives MIN mod -1 = 0, as Isu does.
                            self.a.get(x).get(y).i().i64_rem_s();
                        }
                    }
                }
                self.a.release(y);
            }
        }
        self.a.release(x);
        Ok(())
    }

    /// For a checked `add` or `sub` with an operand whose sign the value
    /// bounds know: which operand the result is compared with (`true`: the
    /// right one) and whether it overflowed iff the result is below it
    /// (else above). `x + y` with `y >= 0` wrapped iff it is below `x`, with
    /// `y <= 0` iff above; `x - y` with `y >= 0` iff above `x`, with
    /// `y <= 0` iff below; `x + y` with `x`'s sign known, likewise with `y`.
    fn sign_known(&self, op: BinaryOp, lhs: &Expr, rhs: &Expr) -> Option<(bool, bool)> {
        let (l, r) = (self.env.interval(lhs), self.env.interval(rhs));
        let add = op == BinaryOp::Add;
        if r.lo >= 0 {
            Some((false, add))
        } else if r.hi <= 0 {
            Some((false, !add))
        } else if add && l.lo >= 0 {
            Some((true, true))
        } else if add && l.hi <= 0 {
            Some((true, false))
        } else {
            None
        }
    }

    /// Lowers `(op lhs rhs)` without checks when the value bounds prove none
    /// can fire: the exact result fits in 64 bits (`add`, `sub`, `mul`), the
    /// divisor is not 0 and not MIN by -1 (`div`, `mod`). False (nothing
    /// written) otherwise.
    fn arith_unchecked(&mut self, op: BinaryOp, lhs: &Expr, rhs: &Expr, step: i32) -> Res<bool> {
        use BinaryOp::*;
        let (l, r) = (self.env.interval(lhs), self.env.interval(rhs));
        let safe = match op {
            Add => (l + r).fits(),
            Sub => (l - r).fits(),
            Mul => self.env.product(lhs, rhs).fits(),
            Div => {
                let min_by_minus_one = l.contains(interval::MIN) && r.contains(-1);
                !r.contains(0) && !min_by_minus_one
            }
            Mod => !r.contains(0),
            _ => false,
        };
        if !safe {
            return Ok(false);
        }
        self.expr(lhs, step)?;
        self.expr(rhs, step)?;
        // Of operands not negative, the quotient and the remainder are the
        // unsigned ones, which cost less.
        let unsigned = l.lo >= 0 && r.lo >= 0;
        let mut i = self.a.i();
        match (op, unsigned) {
            (Add, _) => i.i64_add(),
            (Sub, _) => i.i64_sub(),
            (Mul, _) => i.i64_mul(),
            (Div, false) => i.i64_div_s(),
            (Div, true) => i.i64_div_u(),
            (_, false) => i.i64_rem_s(),
            (_, true) => i.i64_rem_u(),
        };
        Ok(true)
    }

    /// `(index base i)`: an array element (index in range) or a map value
    /// (key present).
    fn index(&mut self, base: &Expr, index: &Expr, step: i32) -> Res<Own> {
        let bty = ty_of(base)?.clone();
        let b = self.a.temp(ValType::I32);
        let ob = self.expr(base, step)?;
        self.a.set(b);
        let rty;
        match &bty {
            Type::Array(e) => {
                rty = (**e).clone();
                let i = self.a.temp(ValType::I64);
                let (proven, hoisted) = match &base.node {
                    ExprNode::Var { name } => match self.hoisted_index(name, index) {
                        Some(c) => (true, Some(c)),
                        None => (self.env.index_in_bounds(index, name), None),
                    },
                    _ => (false, None),
                };
                match hoisted {
                    Some(c) => self.hoisted_value(c)?,
                    None => {
                        self.expr(index, step)?;
                    }
                }
                self.keep_index(i, b, proven, step);
                self.a
                    .get(b)
                    .get(i)
                    .i()
                    .i32_wrap_i64()
                    .i32_const(crate::layout::slot_shift(&rty))
                    .i32_shl()
                    .i32_add();
                load_val(&mut self.a, &rty, DATA);
                self.a.release(i);
            }
            Type::Map(k, v) => {
                rty = (**v).clone();
                let kt = (**k).clone();
                let f = self.mb.rt(Rt::MapGet(bty.clone()));
                self.a.get(b);
                let ok = self.expr(index, step)?;
                // A string key spends its size, as MAP_GET's does.
                let mut w = work::plan(Builtin::MapGet, false, &[&bty, &kt], &rty);
                self.work_arg(&mut w, 1, index);
                let hk = self.hold(ok, &kt);
                self.a.i32(step).i().call(f);
                self.work_spend(w, step);
                if let Some((t, kt)) = hk {
                    self.a.get(t);
                    runtime::emit_drop(self.mb, &mut self.a, &kt);
                    self.a.release(t);
                }
            }
            Type::String => {
                // The character at i: a new string of one, once i is known to
                // lie below the string's length in characters.
                let i = self.a.temp(ValType::I64);
                self.expr(index, step)?;
                self.a.tee(i).get(b);
                load32(&mut self.a, CHARS);
                self.a.i().i64_extend_i32_u().i64_ge_u();
                self.raise_if(RuntimeCode::IndexOutOfRange, step);
                let f = self.mb.rt(Rt::SliceStr);
                self.a.get(b).get(i).get(i).i64(1).i().i64_add();
                self.a.i32(step).i().call(f);
                self.a.release(i);
                if ob == Own::Owned {
                    self.a.get(b);
                    runtime::emit_drop(self.mb, &mut self.a, &bty);
                }
                self.a.release(b);
                return Ok(Own::Owned);
            }
            other => return bug(format!("index of a {other}")),
        }
        let own = self.project(ob, b, &bty, &rty);
        self.a.release(b);
        Ok(own)
    }

    /// `(list E ...)`: the elements evaluated in order, each owned, then
    /// pushed onto a new array (each push checks the size limit).
    fn list(&mut self, items: &[Expr], ty: &Type, step: i32) -> Res<Own> {
        let ety = elem(ty).clone();
        let mut vals = Vec::with_capacity(items.len());
        for item in items {
            let l = self.a.temp(val_type(&ety));
            let own = self.expr(item, step)?;
            self.own(own, &ety);
            self.a.set(l);
            vals.push(l);
        }
        let new = self.mb.rt(Rt::ArrNew(crate::layout::slot_shift(&ety)));
        let push = self.mb.rt(Rt::Push(ty.clone()));
        self.a.i32(vals.len() as i32).i().call(new);
        for l in vals {
            self.a.get(l).i32(step).i().call(push);
            self.a.release(l);
        }
        Ok(Own::Owned)
    }

    /// `(struct S (f E) ...)`: the fields' values in declaration order,
    /// each owned and kept until all are there (an error in one stops the
    /// run there), then stored into a new record.
    fn struct_value(&mut self, ty: &Type, inits: &[FieldInit], step: i32) -> Res<Own> {
        let decl = self.mb.fields(ty);
        if decl.len() != inits.len() {
            return bug(format!(
                "(struct {ty}) gives {} fields of {}",
                inits.len(),
                decl.len()
            ));
        }
        let mut vals = Vec::with_capacity(decl.len());
        for f in &decl {
            let Some(init) = inits.iter().find(|i| i.name.name == f.name) else {
                return bug(format!("(struct {ty}) without its field {}", f.name));
            };
            let l = self.a.temp(val_type(&f.ty));
            let own = self.expr(&init.value, step)?;
            self.own(own, &f.ty);
            self.a.set(l);
            vals.push(l);
        }
        let new = self.mb.rt(Rt::StructNew(ty.clone()));
        let p = self.a.temp(ValType::I32);
        self.a.i().call(new);
        self.a.set(p);
        for (i, (f, l)) in decl.iter().zip(vals).enumerate() {
            self.a.get(p).get(l);
            runtime::store_val(&mut self.a, &f.ty, field_offset(i));
            self.a.release(l);
        }
        self.a.get(p);
        self.a.release(p);
        Ok(Own::Owned)
    }

    /// `(field E f)`: the field's slot of the record `E` gives.
    fn field(&mut self, base: &Expr, name: &str, step: i32) -> Res<Own> {
        let sty = ty_of(base)?.clone();
        let Some((i, fty)) = self
            .mb
            .structs
            .field(&sty, name)
            .map(|(i, t)| (i, t.clone()))
        else {
            return bug(format!("{sty} has no field {name}"));
        };
        let b = self.a.temp(ValType::I32);
        let ob = self.expr(base, step)?;
        self.a.tee(b);
        load_val(&mut self.a, &fty, field_offset(i));
        let own = self.project(ob, b, &sty, &fty);
        self.a.release(b);
        Ok(own)
    }

    /// A value read out of a container held in `b`: borrowed while the
    /// container is; taken over (a reference of its own) when the container
    /// was a temporary, which is dropped.
    fn project(&mut self, ob: Own, b: crate::asm::Local, bty: &Type, rty: &Type) -> Own {
        if ob == Own::Owned && is_heap(bty) {
            runtime::emit_inc(self.mb, &mut self.a, rty);
            self.a.get(b);
            runtime::emit_drop(self.mb, &mut self.a, bty);
            if is_heap(rty) {
                Own::Owned
            } else {
                Own::Borrowed
            }
        } else {
            Own::Borrowed
        }
    }

    /// Evaluates `e` and keeps it in a new scratch local; returns it and
    /// whether it is owned.
    fn arg_to_local(&mut self, e: &Expr, step: i32) -> Res<(crate::asm::Local, Own, Type)> {
        let ty = ty_of(e)?.clone();
        let l = self.a.temp(crate::layout::val_type(&ty));
        let own = self.expr(e, step)?;
        self.a.set(l);
        Ok((l, own, ty))
    }

    fn free_arg(&mut self, (l, own, ty): (crate::asm::Local, Own, Type)) {
        if own == Own::Owned && is_heap(&ty) {
            self.a.get(l);
            runtime::emit_drop(self.mb, &mut self.a, &ty);
        }
        self.a.release(l);
    }

    fn call(&mut self, func: &str, args: &[Expr], ty: &Type, step: i32) -> Res<Own> {
        let arg_ty = |i: usize| -> Res<Type> {
            match args.get(i) {
                Some(a) => ty_of(a).cloned(),
                None => bug(format!("{func} without argument {i}")),
            }
        };
        let Some(b) = Builtin::of(func) else {
            return match self.packs.get(func) {
                Some(&index) => self.pack_call(index, args, ty, step),
                None => bug(format!(
                    "`{func}` is neither a standard function nor a merged pack function"
                )),
            };
        };
        let tys = work::arg_types(args)?;
        let mut w = work::plan(b, false, &tys, ty);
        if let Some(own) = self.float_call(b, args, step)? {
            return Ok(own);
        }
        match b {
            // `float_call` took them.
            Builtin::Ceil
            | Builtin::Float
            | Builtin::Floor
            | Builtin::Round
            | Builtin::Sqrt
            | Builtin::Trunc => bug(format!("{} with {} arguments", b.name(), args.len())),
            Builtin::ParseFloat => {
                let [s] = arity(args)?;
                let own = self.expr(s, step)?;
                self.work_arg(&mut w, 0, s);
                let h = self.hold(own, &Type::String);
                let f = self.mb.rt(Rt::ParseFloat);
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h]);
                Ok(Own::Borrowed)
            }
            Builtin::Len => {
                let [x] = arity(args)?;
                let xt = arg_ty(0)?;
                let own = self.expr(x, step)?;
                let h = self.hold(own, &xt);
                let off = if xt == Type::String { CHARS } else { LEN };
                load32(&mut self.a, off);
                self.a.i().i64_extend_i32_u();
                self.release_held(vec![h]);
                Ok(Own::Borrowed)
            }
            Builtin::Push => {
                let [xs, v] = arity(args)?;
                let own = self.expr(xs, step)?;
                self.work_arg(&mut w, 0, xs);
                self.own(own, ty);
                let own = self.expr(v, step)?;
                self.work_arg(&mut w, 1, v);
                self.own(own, elem(ty));
                let f = self.mb.rt(Rt::Push(ty.clone()));
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                Ok(Own::Owned)
            }
            Builtin::Pop => {
                let [xs] = arity(args)?;
                let own = self.expr(xs, step)?;
                self.work_arg(&mut w, 0, xs);
                self.own(own, ty);
                let f = self.mb.rt(Rt::Pop(ty.clone()));
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                Ok(Own::Owned)
            }
            Builtin::Concat => {
                let [x, y] = arity(args)?;
                let own = self.expr(x, step)?;
                self.work_arg(&mut w, 0, x);
                self.own(own, ty);
                let own = self.expr(y, step)?;
                self.work_arg(&mut w, 1, y);
                let h = self.hold(own, ty);
                let f = match ty {
                    Type::String => self.mb.rt(Rt::ConcatStr),
                    _ => self.mb.rt(Rt::ConcatArr(ty.clone())),
                };
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h]);
                Ok(Own::Owned)
            }
            Builtin::Slice => {
                let [x, lo, hi] = arity(args)?;
                let own = self.expr(x, step)?;
                self.work_arg(&mut w, 0, x);
                let h = self.hold(own, ty);
                self.expr(lo, step)?;
                self.expr(hi, step)?;
                let f = match ty {
                    Type::String => self.mb.rt(Rt::SliceStr),
                    _ => self.mb.rt(Rt::SliceArr(ty.clone())),
                };
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h]);
                Ok(Own::Owned)
            }
            Builtin::MapHas => {
                let [m, k] = arity(args)?;
                let mt = arg_ty(0)?;
                let (kt, _) = key_value(&mt);
                let kt = kt.clone();
                let om = self.expr(m, step)?;
                let hm = self.hold(om, &mt);
                let ok = self.expr(k, step)?;
                self.work_arg(&mut w, 1, k);
                let hk = self.hold(ok, &kt);
                let f = self.mb.rt(Rt::MapFind(kt));
                self.a.i().call(f).i32_const(0).i32_ge_s();
                self.work_done(w, ty, step);
                self.release_held(vec![hm, hk]);
                Ok(Own::Borrowed)
            }
            Builtin::MapGet => {
                let [m, k] = arity(args)?;
                let mt = arg_ty(0)?;
                let (kt, _) = key_value(&mt);
                let kt = kt.clone();
                let b = self.a.temp(ValType::I32);
                let om = self.expr(m, step)?;
                self.a.tee(b);
                let ok = self.expr(k, step)?;
                self.work_arg(&mut w, 1, k);
                let hk = self.hold(ok, &kt);
                let f = self.mb.rt(Rt::MapGet(mt.clone()));
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![hk]);
                let own = self.project(om, b, &mt, ty);
                self.a.release(b);
                Ok(own)
            }
            Builtin::MapGetOr => {
                let [m, k, d] = arity(args)?;
                let mt = arg_ty(0)?;
                let am = self.arg_to_local(m, step)?;
                let ak = self.arg_to_local(k, step)?;
                self.a.get(ak.0);
                self.work_arg(&mut w, 1, k);
                self.a.i().drop();
                let ad = self.arg_to_local(d, step)?;
                let f = self.mb.rt(Rt::MapGetOr(mt));
                self.a.get(am.0).get(ak.0).get(ad.0).i().call(f);
                self.work_done(w, ty, step);
                let any_owned = is_heap(ty) && (am.1 == Own::Owned || ad.1 == Own::Owned);
                if any_owned {
                    runtime::emit_inc(self.mb, &mut self.a, ty);
                }
                self.free_arg(am);
                self.free_arg(ak);
                self.free_arg(ad);
                Ok(if any_owned { Own::Owned } else { Own::Borrowed })
            }
            Builtin::MapSet => {
                let [m, k, v] = arity(args)?;
                let (kt, vt) = key_value(ty);
                let (kt, vt) = (kt.clone(), vt.clone());
                let own = self.expr(m, step)?;
                self.work_arg(&mut w, 0, m);
                self.own(own, ty);
                let own = self.expr(k, step)?;
                self.work_arg(&mut w, 1, k);
                self.own(own, &kt);
                let own = self.expr(v, step)?;
                self.work_arg(&mut w, 2, v);
                self.own(own, &vt);
                let f = self.mb.rt(Rt::MapSet(ty.clone()));
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                Ok(Own::Owned)
            }
            Builtin::MapKeys => {
                let [m] = arity(args)?;
                let mt = arg_ty(0)?;
                let own = self.expr(m, step)?;
                self.work_arg(&mut w, 0, m);
                let h = self.hold(own, &mt);
                let f = self.mb.rt(Rt::MapKeys(mt));
                self.a.i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h]);
                Ok(Own::Owned)
            }
            Builtin::SplitWhitespace | Builtin::Lower | Builtin::Upper => {
                let [s] = arity(args)?;
                let own = self.expr(s, step)?;
                self.work_arg(&mut w, 0, s);
                let h = self.hold(own, &Type::String);
                let f = match b {
                    Builtin::Lower => self.mb.rt(Rt::Lower),
                    Builtin::Upper => self.mb.rt(Rt::Upper),
                    _ => self.mb.rt(Rt::Split),
                };
                self.a.i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h]);
                Ok(Own::Owned)
            }
            Builtin::Sort => {
                let [xs] = arity(args)?;
                let own = self.expr(xs, step)?;
                self.work_arg(&mut w, 0, xs);
                let h = self.hold(own, ty);
                let f = self.mb.rt(Rt::Sort(ty.clone()));
                self.a.i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h]);
                Ok(Own::Owned)
            }
            Builtin::Reverse => {
                let [xs] = arity(args)?;
                let own = self.expr(xs, step)?;
                self.work_arg(&mut w, 0, xs);
                let h = self.hold(own, ty);
                let f = match ty {
                    Type::String => self.mb.rt(Rt::ReverseStr),
                    _ => self.mb.rt(Rt::ReverseArr(ty.clone())),
                };
                self.a.i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h]);
                Ok(Own::Owned)
            }
            Builtin::Split => {
                let [s, sep] = arity(args)?;
                let own = self.expr(s, step)?;
                self.work_arg(&mut w, 0, s);
                let h1 = self.hold(own, &Type::String);
                let own = self.expr(sep, step)?;
                self.work_arg(&mut w, 1, sep);
                let h2 = self.hold(own, &Type::String);
                let f = self.mb.rt(Rt::SplitSep);
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h1, h2]);
                Ok(Own::Owned)
            }
            Builtin::Contains | Builtin::IndexOf => {
                let [xs, v] = arity(args)?;
                let xt = arg_ty(0)?;
                let vt = arg_ty(1)?;
                let own = self.expr(xs, step)?;
                self.work_arg(&mut w, 0, xs);
                let h1 = self.hold(own, &xt);
                let own = self.expr(v, step)?;
                self.work_arg(&mut w, 1, v);
                let h2 = self.hold(own, &vt);
                match (&xt, b) {
                    (Type::String, Builtin::Contains) => {
                        let f = self.mb.rt(Rt::StrFind);
                        self.a.i().call(f).i32_const(0).i32_ge_s();
                    }
                    (Type::String, _) => {
                        let f = self.mb.rt(Rt::IndexOfStr);
                        self.a.i().call(f);
                    }
                    (_, Builtin::Contains) => {
                        let f = self.mb.rt(Rt::IndexOfArr(xt.clone()));
                        self.a.i().call(f).i64_const(0).i64_ge_s();
                    }
                    _ => {
                        let f = self.mb.rt(Rt::IndexOfArr(xt.clone()));
                        self.a.i().call(f);
                    }
                }
                self.work_done(w, ty, step);
                self.release_held(vec![h1, h2]);
                Ok(Own::Borrowed)
            }
            Builtin::Chars => {
                let [s] = arity(args)?;
                let own = self.expr(s, step)?;
                self.work_arg(&mut w, 0, s);
                let h = self.hold(own, &Type::String);
                let f = self.mb.rt(Rt::Chars);
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h]);
                Ok(Own::Owned)
            }
            Builtin::Join => {
                let [xs, sep] = arity(args)?;
                let xt = arg_ty(0)?;
                let own = self.expr(xs, step)?;
                self.work_arg(&mut w, 0, xs);
                let h1 = self.hold(own, &xt);
                let own = self.expr(sep, step)?;
                self.work_arg(&mut w, 1, sep);
                let h2 = self.hold(own, &Type::String);
                let f = self.mb.rt(Rt::Join);
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h1, h2]);
                Ok(Own::Owned)
            }
            Builtin::ParseInt => {
                let [s] = arity(args)?;
                let own = self.expr(s, step)?;
                self.work_arg(&mut w, 0, s);
                let h = self.hold(own, &Type::String);
                let f = self.mb.rt(Rt::ParseInt);
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h]);
                Ok(Own::Borrowed)
            }
            Builtin::ToString => {
                let [n] = arity(args)?;
                self.expr(n, step)?;
                let f = self.mb.rt(Rt::ToString);
                self.a.i().call(f);
                Ok(Own::Owned)
            }
            Builtin::Abs => {
                let [n] = arity(args)?;
                let t = self.a.temp(ValType::I64);
                self.expr(n, step)?;
                if self.env.interval(n).contains(interval::MIN) {
                    self.a.tee(t).i64(i64::MIN).i().i64_eq();
                    self.raise_if(RuntimeCode::IntOverflow, step);
                } else {
                    self.a.set(t);
                }
                self.a.i64(0).get(t).i().i64_sub();
                self.a.get(t).get(t).i64(0).i().i64_lt_s().select();
                self.a.release(t);
                Ok(Own::Borrowed)
            }
            Builtin::Min | Builtin::Max => {
                let [x, y] = arity(args)?;
                let tx = self.a.temp(ValType::I64);
                let ty_ = self.a.temp(ValType::I64);
                self.expr(x, step)?;
                self.a.set(tx);
                self.expr(y, step)?;
                self.a.set(ty_);
                self.a.get(tx).get(ty_).get(tx).get(ty_);
                if b == Builtin::Min {
                    self.a.i().i64_lt_s().select();
                } else {
                    self.a.i().i64_gt_s().select();
                }
                self.a.release(tx);
                self.a.release(ty_);
                Ok(Own::Borrowed)
            }
            Builtin::Repeat => {
                let [v, n] = arity(args)?;
                let vt = arg_ty(0)?;
                let own = self.expr(v, step)?;
                self.work_arg(&mut w, 0, v);
                let h = self.hold(own, &vt);
                self.expr(n, step)?;
                let f = self.mb.rt(Rt::Repeat(vt));
                self.a.i32(step).i().call(f);
                self.work_done(w, ty, step);
                self.release_held(vec![h]);
                Ok(Own::Owned)
            }
        }
    }

    /// A call of the pack function merged at `index` ([`crate::pack`]), as
    /// the interpreter makes it: the arguments left to right; the call, whose
    /// `isu.fail` raises at `step`; the result checked against the size
    /// limit; then the work of the arguments' and the result's sizes. The
    /// arguments are borrowed by the lowering and dropped after it returns;
    /// its string, array or map result is a reference of its own.
    fn pack_call(&mut self, index: u32, args: &[Expr], ty: &Type, step: i32) -> Res<Own> {
        let tys = work::arg_types(args)?;
        let mut w = work::plan_pack(&tys, ty);
        let mut held = Vec::with_capacity(args.len());
        for (i, arg) in args.iter().enumerate() {
            let at = ty_of(arg)?.clone();
            let own = self.expr(arg, step)?;
            self.work_arg(&mut w, i, arg);
            held.push(self.hold(own, &at));
        }
        self.a.i32(step).i().global_set(g::PACK_STEP);
        self.a.i().call(index);
        match ty {
            Type::Bool => {
                self.a.i().i32_const(0).i32_ne();
            }
            Type::String | Type::Array(_) | Type::Map(..) => {
                let r = self.a.temp(ValType::I32);
                self.a.tee(r).get(r);
                load32(&mut self.a, if *ty == Type::String { CHARS } else { LEN });
                self.a
                    .i()
                    .i64_extend_i32_u()
                    .global_get(g::MAX_SIZE)
                    .i64_gt_s();
                self.raise_if(RuntimeCode::SizeLimit, step);
                self.a.release(r);
            }
            Type::Int => {}
            // `pack::merge` refuses a pack function that takes or returns
            // a struct.
            Type::Struct(_) => return bug(format!("a pack function returning {ty}")),
            // A pack's signature names no float (`Signature::parse`).
            Type::Float => return bug(format!("a pack function returning {ty}")),
        }
        self.work_done(w, ty, step);
        self.release_held(held);
        Ok(if is_heap(ty) {
            Own::Owned
        } else {
            Own::Borrowed
        })
    }
}
