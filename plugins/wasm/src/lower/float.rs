//! Floats (spec/semantics.md, "Floats"): Wasm's `f64`, whose `add`, `sub`,
//! `mul`, `div`, `sqrt` and `nearest` are IEEE-754's, rounded to nearest
//! even, with no fusing. A result that is not finite is `float_not_finite`;
//! a division by 0.0 is `division_by_zero` first. The text of a float and a
//! float from text are runtime functions written in WebAssembly text
//! (`runtime/float.wat`).

use super::{bug, ty_of, Lowering, Own, Res};
use crate::module::Rt;
use isu_plugin_api::{BinaryOp, Builtin, Expr, RuntimeCode, Type};
use wasm_encoder::ValType;

/// 2^63, the least float above every int.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

impl Lowering<'_> {
    /// `(op lhs rhs)` on two floats: arithmetic, checked, or a comparison.
    pub(super) fn float_binary(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        step: i32,
    ) -> Res<()> {
        use BinaryOp::*;
        self.expr(lhs, step)?;
        self.expr(rhs, step)?;
        match op {
            Eq => self.a.i().f64_eq(),
            Ne => self.a.i().f64_ne(),
            Lt => self.a.i().f64_lt(),
            Le => self.a.i().f64_le(),
            Gt => self.a.i().f64_gt(),
            Ge => self.a.i().f64_ge(),
            Add | Sub | Mul => {
                match op {
                    Add => self.a.i().f64_add(),
                    Sub => self.a.i().f64_sub(),
                    _ => self.a.i().f64_mul(),
                };
                self.check_finite(step);
                return Ok(());
            }
            Div => {
                let y = self.a.temp(ValType::F64);
                self.a.tee(y).i().f64_const(0.0.into()).f64_eq();
                self.raise_if(RuntimeCode::DivisionByZero, step);
                self.a.get(y).i().f64_div();
                self.a.release(y);
                self.check_finite(step);
                return Ok(());
            }
            _ => return bug(format!("`{}` of floats", op.name())),
        };
        Ok(())
    }

    /// `float_not_finite` at `step` unless the float on the stack is finite
    /// (`|x| < inf` is false for both infinities and for NaN); leaves it.
    fn check_finite(&mut self, step: i32) {
        let t = self.a.temp(ValType::F64);
        self.a
            .tee(t)
            .i()
            .f64_abs()
            .f64_const(f64::INFINITY.into())
            .f64_lt()
            .i32_eqz();
        self.raise_if(RuntimeCode::FloatNotFinite, step);
        self.a.get(t);
        self.a.release(t);
    }

    /// The calls of the float functions that spend no work (all but
    /// PARSE_FLOAT) and of the float overloads (ABS, MIN, MAX, TO_STRING);
    /// `None` for any other call, which has evaluated nothing.
    pub(super) fn float_call(&mut self, b: Builtin, args: &[Expr], step: i32) -> Res<Option<Own>> {
        let floats = match args.first() {
            Some(a) => ty_of(a)? == &Type::Float,
            None => false,
        };
        match (b, args) {
            (Builtin::Float, [n]) => {
                self.expr(n, step)?;
                // Nearest, ties to even.
                self.a.i().f64_convert_i64_s();
            }
            (Builtin::Trunc | Builtin::Floor | Builtin::Ceil | Builtin::Round, [x]) => {
                self.expr(x, step)?;
                match b {
                    Builtin::Trunc => self.a.i().f64_trunc(),
                    Builtin::Floor => self.a.i().f64_floor(),
                    Builtin::Ceil => self.a.i().f64_ceil(),
                    // `nearest` rounds halves to even.
                    _ => self.a.i().f64_nearest(),
                };
                let t = self.a.temp(ValType::F64);
                self.a.tee(t).i().f64_const((-TWO_63).into()).f64_ge();
                self.a
                    .get(t)
                    .i()
                    .f64_const(TWO_63.into())
                    .f64_lt()
                    .i32_and()
                    .i32_eqz();
                self.raise_if(RuntimeCode::IntOverflow, step);
                self.a.get(t).i().i64_trunc_f64_s();
                self.a.release(t);
            }
            (Builtin::Sqrt, [x]) => {
                self.expr(x, step)?;
                let t = self.a.temp(ValType::F64);
                self.a.tee(t).i().f64_const(0.0.into()).f64_lt();
                self.raise_if(RuntimeCode::OutOfDomain, step);
                self.a.get(t).i().f64_sqrt();
                self.a.release(t);
            }
            (Builtin::Abs, [x]) if floats => {
                self.expr(x, step)?;
                self.a.i().f64_abs();
            }
            // As Python's min and max: the first unless the second is
            // strictly below (above) it, so MIN(0.0, -0.0) is 0.0.
            (Builtin::Min | Builtin::Max, [x, y]) if floats => {
                let tx = self.a.temp(ValType::F64);
                let ty_ = self.a.temp(ValType::F64);
                self.expr(x, step)?;
                self.a.set(tx);
                self.expr(y, step)?;
                self.a.set(ty_);
                self.a.get(ty_).get(tx).get(ty_).get(tx);
                if b == Builtin::Min {
                    self.a.i().f64_lt().select();
                } else {
                    self.a.i().f64_gt().select();
                }
                self.a.release(tx);
                self.a.release(ty_);
            }
            (Builtin::ToString, [x]) if floats => {
                self.expr(x, step)?;
                let f = self.mb.rt(Rt::FloatRepr);
                self.a.i().call(f);
                return Ok(Some(Own::Owned));
            }
            _ => return Ok(None),
        }
        Ok(Some(Own::Borrowed))
    }
}
