//! Work (`spec/semantics.md` 7, `isu_lang::work`): what a call of a
//! standard function and a copying `ASSIGN` spend from the fuel besides
//! loop rounds, charged as the reference interpreter charges it.
//!
//! The charge is planned from the static types: a call whose row names no
//! length of a string, array or map among its arguments and result emits
//! nothing. Otherwise each measured argument's length (characters of a
//! string, elements of an array, entries of a map) is added to an `i64`
//! scratch local right after the argument is evaluated (the runtime call
//! may move or free it), the result's right after the call, and the sum is
//! spent after the call succeeded, before anything uses its result: the
//! call's own errors come first, then `step_limit` at the call's step.

use super::{Lowering, Res};
use crate::asm::Local;
use crate::layout::{CHARS, LEN};
use crate::runtime::{self, load32, StepArg};
use isu_plugin_api::lang::work::{self, Measure};
use isu_plugin_api::{Builtin, Expr, ExprNode, Literal, RuntimeCode, Type};
use wasm_encoder::ValType;

pub use isu_plugin_api::lang::work::assign_copies;

/// What one call (or copy) spends, and the running sum of what was measured.
#[derive(Debug)]
pub struct Work {
    /// Arguments whose length is added to the sum.
    args: [bool; 3],
    /// Whether the result's length is added.
    result: bool,
    /// Whether the result's length times argument 0's is added (`REPEAT`).
    repeated: bool,
    /// The sum so far (`None` until something was measured).
    acc: Option<Local>,
    /// The lengths of constant arguments, known when lowering.
    konst: u64,
    /// Argument 0's length, kept for `repeated`.
    arg0: Option<Local>,
}

impl Work {
    /// A charge that spends nothing.
    pub fn none() -> Work {
        Work {
            args: [false; 3],
            result: false,
            repeated: false,
            acc: None,
            konst: 0,
            arg0: None,
        }
    }
}

/// The offset of the length work counts in a value of `ty`, if it has one.
fn length_field(ty: &Type) -> Option<u64> {
    match ty {
        Type::String => Some(CHARS),
        _ if work::counts(ty) => Some(LEN),
        _ => None,
    }
}

/// The charge of a call of `b` (an in-place update when `in_place`) with
/// arguments of types `args` (as passed: for an in-place update, the
/// place's type first) returning `ret`.
pub fn plan(b: Builtin, in_place: bool, args: &[&Type], ret: &Type) -> Work {
    let counts = |i: usize| args.get(i).is_some_and(|t| work::counts(t));
    let mut w = Work::none();
    for m in work::of(b).measures(in_place) {
        match m {
            Measure::Arg(i) if i < 3 && counts(i) => {
                if let Some(a) = w.args.get_mut(i) {
                    *a = true;
                }
            }
            Measure::Result if work::counts(ret) => w.result = true,
            Measure::Repeated if work::counts(ret) && counts(0) => w.repeated = true,
            _ => {}
        }
    }
    w
}

/// The length of a constant string or array, known when lowering. (A map
/// constant is left to run time: its JSON keys may name fewer entries.)
fn static_length(e: &Expr) -> Option<u64> {
    match &e.node {
        ExprNode::Const {
            value: Literal::Str(s),
        } if e.ty == Some(Type::String) => u64::try_from(s.chars().count()).ok(),
        ExprNode::Const {
            value: Literal::Array(xs),
        } if matches!(e.ty, Some(Type::Array(_))) => u64::try_from(xs.len()).ok(),
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

    /// With a value of `ty` on the stack, pushes its length as `i64` too.
    fn push_length(&mut self, ty: &Type) {
        let off = length_field(ty).unwrap_or(LEN);
        let p = self.a.temp(ValType::I32);
        self.a.tee(p).get(p);
        self.a.release(p);
        load32(&mut self.a, off);
        self.a.i().i64_extend_i32_u();
    }

    /// With argument `i` (the expression `arg`) just evaluated on the stack:
    /// measures it when `w` counts it (a constant's length is known now);
    /// the stack is left as it was.
    pub fn work_arg(&mut self, w: &mut Work, i: usize, arg: &Expr) {
        let counted = w.args.get(i).copied().unwrap_or(false);
        let keep0 = i == 0 && w.repeated;
        let Some(ty) = arg.ty.as_ref() else {
            return;
        };
        if !counted && !keep0 {
            return;
        }
        match static_length(arg) {
            Some(n) if !keep0 => {
                w.konst = w.konst.saturating_add(n);
                return;
            }
            Some(n) => {
                self.a.i64(i64::try_from(n).unwrap_or(i64::MAX));
            }
            None => self.push_length(ty),
        }
        if keep0 {
            let l = self.a.temp(ValType::I64);
            if counted {
                self.a.tee(l);
            } else {
                self.a.set(l);
            }
            w.arg0 = Some(l);
        }
        if counted {
            self.work_add(w);
        }
    }

    /// With the call's result (of type `ty`) on the stack: measures it when
    /// `w` counts it; the stack is left as it was.
    pub fn work_result(&mut self, w: &mut Work, ty: &Type) {
        if !w.result && !w.repeated {
            return;
        }
        self.push_length(ty);
        if w.repeated {
            let r = self.a.temp(ValType::I64);
            self.a.set(r);
            if w.result {
                self.a.get(r);
                self.work_add(w);
            }
            if let Some(l0) = w.arg0.take() {
                self.a.get(r).get(l0).i().i64_mul();
                self.work_add(w);
                self.a.release(l0);
            }
            self.a.release(r);
        } else {
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
        if let Some(l0) = w.arg0.take() {
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
    /// copies: spends its length at `step` (nothing when its type has no
    /// length); the stack is left as it was.
    pub fn work_copy(&mut self, e: &Expr, step: i32) {
        let Some(ty) = e.ty.as_ref() else {
            return;
        };
        if length_field(ty).is_none() {
            return;
        }
        let mut w = Work::none();
        match static_length(e) {
            Some(n) => w.konst = n,
            None => {
                self.push_length(ty);
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
