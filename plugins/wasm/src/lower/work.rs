//! Work (`spec/semantics.md` 7, `isu_lang::work`): what a call of a
//! standard function and a copying `ASSIGN` spend from the fuel besides
//! loop rounds, charged as the reference interpreter charges it.
//!
//! The charge is planned from the static types: a call whose row names no
//! size of a string, array or map among its arguments and result emits
//! nothing. Otherwise each measured argument's size is added to an `i64`
//! scratch local right after the argument is evaluated (the runtime call
//! may move or free it), the result's right after the call, and the sum is
//! spent after the call succeeded, before anything uses its result: the
//! call's own errors come first, then `step_limit` at the call's step.
//!
//! A flat value's size (`size_is_length`: a string, or an array or map of
//! ints and bools) is its length, read from its header; a nested value's is
//! walked by the runtime's `size` no further than past the fuel left when
//! it is measured. The fuel only goes down until the charge, so a walk cut
//! short gives a size above what is left then too: the same `step_limit`.

use super::{Lowering, Res};
use crate::asm::Local;
use crate::layout::{CHARS, LEN};
use crate::module::Rt;
use crate::runtime::{self, load32, StepArg};
use isu_plugin_api::work::{self, Measure};
use isu_plugin_api::{BinaryOp, Builtin, Expr, ExprNode, Literal, RuntimeCode, Type};
use wasm_encoder::ValType;

pub use isu_plugin_api::work::assign_copies;

/// What one call (or copy) spends, and the running sum of what was measured.
#[derive(Debug)]
pub struct Work {
    /// Arguments whose size is added to the sum, by position.
    args: Vec<bool>,
    /// Whether the result's size is added.
    result: bool,
    /// Whether `REPEAT`'s result size is added: its length times one plus
    /// the size of argument 0.
    repeated: bool,
    /// The sum so far (`None` until something was measured).
    acc: Option<Local>,
    /// The sizes of constant arguments, known when lowering.
    konst: u64,
    /// One plus argument 0's size, kept for `repeated`.
    each: Option<Local>,
}

impl Work {
    /// A charge that spends nothing.
    pub fn none() -> Work {
        Work {
            args: Vec::new(),
            result: false,
            repeated: false,
            acc: None,
            konst: 0,
            each: None,
        }
    }
}

/// The charge of a call of `b` (an in-place update when `in_place`) with
/// arguments of types `args` (as passed: for an in-place update, the
/// place's type first) returning `ret`.
pub fn plan(b: Builtin, in_place: bool, args: &[&Type], ret: &Type) -> Work {
    let sized = |i: usize| args.get(i).is_some_and(|t| work::has_size(t));
    let mut w = Work::none();
    w.args = vec![false; args.len()];
    for m in work::of(b).measures(in_place) {
        match m {
            Measure::Arg(i) if sized(i) => {
                if let Some(a) = w.args.get_mut(i) {
                    *a = true;
                }
            }
            Measure::Result if work::has_size(ret) => w.result = true,
            Measure::Repeated if work::has_size(ret) => w.repeated = true,
            _ => {}
        }
    }
    w
}

/// The charge of a comparison `op` of two values of type `ty`
/// (`work::COMPARISON`: the sizes of both, when they have one).
pub fn plan_comparison(op: BinaryOp, ty: &Type) -> Work {
    let mut w = Work::none();
    w.args = vec![work::comparison_spends(op, Some(ty)); 2];
    w
}

/// The charge of a call of a pack function with arguments of types `args`
/// returning `ret` (`work::of_pack`): the sizes of its arguments and of its
/// result.
pub fn plan_pack(args: &[&Type], ret: &Type) -> Work {
    let mut w = Work::none();
    w.args = vec![false; args.len()];
    for m in work::of_pack(args.len()) {
        match m {
            Measure::Arg(i) if args.get(i).is_some_and(|t| work::has_size(t)) => {
                if let Some(a) = w.args.get_mut(i) {
                    *a = true;
                }
            }
            Measure::Result if work::has_size(ret) => w.result = true,
            _ => {}
        }
    }
    w
}

/// The size of a constant, known when lowering: a string, or an array of
/// ints, bools, strings and such arrays. (A map constant is left to run
/// time: its JSON keys may name fewer entries.)
fn literal_size(l: &Literal) -> Option<u64> {
    match l {
        Literal::Int(_) | Literal::Float(_) | Literal::Bool(_) => Some(0),
        Literal::Str(s) => u64::try_from(s.chars().count()).ok(),
        Literal::Array(xs) => xs
            .iter()
            .try_fold(0u64, |n, x| n.checked_add(1)?.checked_add(literal_size(x)?)),
        Literal::Object(_) => None,
    }
}

/// The size of a constant string or array expression, known when lowering.
fn static_size(e: &Expr) -> Option<u64> {
    match &e.node {
        ExprNode::Const { value } if matches!(e.ty, Some(Type::String | Type::Array(_))) => {
            literal_size(value)
        }
        _ => None,
    }
}

/// The types of a call's arguments (validation filled them in).
pub fn arg_types(args: &[Expr]) -> Res<Vec<&Type>> {
    args.iter().map(super::ty_of).collect()
}

impl Lowering<'_> {
    /// Adds the `i64` on the stack to the sum of `w`.
    fn work_add(&mut self, w: &mut Work) {
        match w.acc {
            Some(acc) => {
                self.a.get(acc).i().i64_add();
                self.a.set(acc);
            }
            None => {
                let acc = self.a.temp(ValType::I64);
                self.a.set(acc);
                w.acc = Some(acc);
            }
        }
    }

    /// With a value of `ty` (with a size) on the stack, pushes its size as
    /// `i64` too: its length from the header when it is flat, else walked
    /// no further than past the fuel left.
    fn push_size(&mut self, ty: &Type) {
        let p = self.a.temp(ValType::I32);
        self.a.tee(p).get(p);
        self.a.release(p);
        match ty {
            Type::String => {
                load32(&mut self.a, CHARS);
                self.a.i().i64_extend_i32_u();
            }
            _ if work::size_is_length(ty) => {
                load32(&mut self.a, LEN);
                self.a.i().i64_extend_i32_u();
            }
            _ => {
                let f = self.mb.rt(Rt::Size(ty.clone()));
                self.a.get(self.fuel).i().call(f);
            }
        }
    }

    /// With argument `i` (the expression `arg`) just evaluated on the stack:
    /// measures it when `w` counts it (a constant's size is known now);
    /// the stack is left as it was.
    pub fn work_arg(&mut self, w: &mut Work, i: usize, arg: &Expr) {
        let counted = w.args.get(i).copied().unwrap_or(false);
        let Some(ty) = arg.ty.as_ref() else {
            return;
        };
        let keep0 = i == 0 && w.repeated && work::has_size(ty);
        if !counted && !keep0 {
            return;
        }
        match static_size(arg) {
            Some(n) if !keep0 => {
                w.konst = w.konst.saturating_add(n);
                return;
            }
            Some(n) => {
                self.a.i64(i64::try_from(n).unwrap_or(i64::MAX));
            }
            None => self.push_size(ty),
        }
        if keep0 {
            let l = self.a.temp(ValType::I64);
            if counted {
                self.a.tee(l);
            } else {
                self.a.set(l);
            }
            w.each = Some(l);
        }
        if counted {
            self.work_add(w);
        }
    }

    /// With the call's result (of type `ty`) on the stack: measures it when
    /// `w` counts it; the stack is left as it was.
    pub fn work_result(&mut self, w: &mut Work, ty: &Type) {
        if w.result {
            self.push_size(ty);
            self.work_add(w);
        }
        if w.repeated {
            // The result's length times one plus argument 0's size, as
            // unsigned 64-bit numbers, saturating.
            let r = self.a.temp(ValType::I64);
            let each = self.a.temp(ValType::I64);
            let p = self.a.temp(ValType::I32);
            self.a.tee(p).get(p);
            self.a.release(p);
            load32(&mut self.a, LEN);
            self.a.i().i64_extend_i32_u();
            self.a.set(r);
            match w.each.take() {
                Some(l0) => {
                    self.a.get(l0).i64(1).i().i64_add();
                    self.a.release(l0);
                }
                None => {
                    self.a.i64(1);
                }
            }
            self.a.set(each);
            // r * each, or all ones when it does not fit: each > MAX / r.
            self.a.get(r).get(each).i().i64_mul();
            self.a.i64(-1);
            self.a.get(each);
            self.a.i64(-1);
            self.a.i64(1).get(r).get(r).i().i64_eqz().select();
            self.a.i().i64_div_u().i64_le_u().select();
            self.a.release(each);
            self.a.release(r);
            self.work_add(w);
        }
    }

    /// With the call's result (of type `ty`) on the stack: measures it and
    /// spends the call's work ([`Lowering::work_result`], then
    /// [`Lowering::work_spend`]).
    pub fn work_done(&mut self, mut w: Work, ty: &Type, step: i32) {
        self.work_result(&mut w, ty);
        self.work_spend(w, step);
    }

    /// Spends what `w` measured at `step`: `step_limit` when fewer units
    /// are left. Emits nothing when nothing was measured, and compares with
    /// a constant when only constants were.
    pub fn work_spend(&mut self, mut w: Work, step: i32) {
        if let Some(l0) = w.each.take() {
            self.a.release(l0);
        }
        let k = i64::try_from(w.konst).unwrap_or(i64::MAX);
        match w.acc.take() {
            None if k == 0 => {}
            // One unit: the round's check.
            None if k == 1 => self.spend(step),
            None => {
                self.a.i64(k);
                self.spend_top(step);
            }
            Some(acc) => {
                self.a.get(acc);
                if k != 0 {
                    self.a.i64(k).i().i64_add();
                }
                self.a.release(acc);
                self.spend_top(step);
            }
        }
    }

    /// With a value (the expression `e`) on the stack that an `ASSIGN`
    /// copies: spends its size at `step` (nothing when its type has none);
    /// the stack is left as it was.
    pub fn work_copy(&mut self, e: &Expr, step: i32) {
        let Some(ty) = e.ty.as_ref() else {
            return;
        };
        if !work::has_size(ty) {
            return;
        }
        let mut w = Work::none();
        match static_size(e) {
            Some(n) => w.konst = n,
            None => {
                self.push_size(ty);
                self.work_add(&mut w);
            }
        }
        self.work_spend(w, step);
    }

    /// Spends the units (`i64`) on top of the stack at `step`: `step_limit`
    /// when fewer are left (one unsigned comparison), else subtracts them.
    fn spend_top(&mut self, step: i32) {
        let units = self.a.temp(ValType::I64);
        let fuel = self.fuel;
        self.a.tee(units).get(fuel).i().i64_gt_u();
        runtime::raise_if(
            self.mb,
            &mut self.a,
            RuntimeCode::StepLimit,
            StepArg::Const(step),
        );
        self.a.get(fuel).get(units).i().i64_sub();
        self.a.set(fuel);
        self.a.release(units);
    }
}
