//! Floats (spec/semantics.md, "Floats"): LLVM's `double`, one IEEE-754
//! operation per operator, rounded to nearest even. The instructions carry
//! no fast-math flags and the target machine is generic x86-64 (no FMA), so
//! LLVM neither fuses nor reassociates them. A result that is not finite is
//! `float_not_finite`; a division by 0.0 is `division_by_zero` first.

use super::{bug, ty_of, Lowering, Res, Val};
use crate::abi::{RuntimeCode, What};
use inkwell::intrinsics::Intrinsic;
use inkwell::values::{FloatValue, IntValue};
use inkwell::FloatPredicate;
use isu_plugin_api::{BinaryOp, Builtin as B, Expr, Span};

/// 2^63, the least float above every int.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

impl<'ctx> Lowering<'ctx, '_> {
    /// `(op lhs rhs)` on two floats: arithmetic, checked, or a comparison.
    pub fn float_binary(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
    ) -> Res<Val<'ctx>> {
        use BinaryOp::*;
        let x = self.expr(lhs)?.float();
        let y = self.expr(rhs)?.float();
        let pred = match op {
            Eq => FloatPredicate::OEQ,
            Ne => FloatPredicate::ONE,
            Lt => FloatPredicate::OLT,
            Le => FloatPredicate::OLE,
            Gt => FloatPredicate::OGT,
            Ge => FloatPredicate::OGE,
            Add | Sub | Mul | Div => {
                let shown = Some((self.bits(x)?, self.bits(y)?));
                if op == Div {
                    let site = self.site(What::FloatDiv, span, None);
                    let zero = self.cx.f64_type().const_zero();
                    let by_zero = self
                        .b
                        .build_float_compare(FloatPredicate::OEQ, y, zero, "")?;
                    self.fail_if(by_zero, RuntimeCode::DivisionByZero, site, shown)?;
                }
                let (r, what) = match op {
                    Add => (self.b.build_float_add(x, y, "fadd")?, What::Add),
                    Sub => (self.b.build_float_sub(x, y, "fsub")?, What::Sub),
                    Mul => (self.b.build_float_mul(x, y, "fmul")?, What::Mul),
                    _ => (self.b.build_float_div(x, y, "fdiv")?, What::Div),
                };
                let site = self.site(what, span, None);
                self.check_finite(r, site, shown)?;
                return Ok(Val::borrowed(r));
            }
            _ => return bug(format!("`{}` of floats", op.name())),
        };
        Ok(Val::borrowed(self.b.build_float_compare(pred, x, y, "")?))
    }

    /// `float_not_finite` at `site` unless `r` is finite (`|r| < inf` is
    /// false for both infinities and for NaN).
    fn check_finite(
        &mut self,
        r: FloatValue<'ctx>,
        site: i32,
        shown: Option<(IntValue<'ctx>, IntValue<'ctx>)>,
    ) -> Res<()> {
        let abs = self.float_intrinsic("llvm.fabs", r)?;
        let inf = self.cx.f64_type().const_float(f64::INFINITY);
        let finite = self
            .b
            .build_float_compare(FloatPredicate::OLT, abs, inf, "")?;
        let not_finite = self.b.build_not(finite, "")?;
        self.fail_if(not_finite, RuntimeCode::FloatNotFinite, site, shown)
    }

    /// The bits of a float, as the messages show it.
    fn bits(&self, x: FloatValue<'ctx>) -> Res<IntValue<'ctx>> {
        Ok(self
            .b
            .build_bit_cast(x, self.cx.i64_type(), "")?
            .into_int_value())
    }

    /// `name.f64(x)` of a unary intrinsic of doubles.
    fn float_intrinsic(&self, name: &str, x: FloatValue<'ctx>) -> Res<FloatValue<'ctx>> {
        let f64t = self.cx.f64_type();
        let Some(decl) =
            Intrinsic::find(name).and_then(|i| i.get_declaration(self.m, &[f64t.into()]))
        else {
            return bug(format!("LLVM has no intrinsic {name}"));
        };
        let r = self.b.build_call(decl, &[x.into()], "")?;
        match r.try_as_basic_value().basic() {
            Some(v) => Ok(v.into_float_value()),
            None => bug(format!("{name} gave no value")),
        }
    }

    /// The calls of the float functions and of the float overloads (ABS,
    /// MIN, MAX, TO_STRING), from their evaluated arguments; `None` for any
    /// other call. `site` is the call's plain error site.
    pub fn float_call(
        &mut self,
        b: B,
        args: &[Expr],
        vals: &[Val<'ctx>],
        span: Span,
        site: IntValue<'ctx>,
    ) -> Res<Option<Val<'ctx>>> {
        let floats = args
            .first()
            .map(ty_of)
            .transpose()?
            .is_some_and(|t| *t == isu_plugin_api::Type::Float);
        let f64t = self.cx.f64_type();
        let v = match (b, vals) {
            (B::Float, [n]) => self
                .b
                .build_signed_int_to_float(n.int(), f64t, "float")?
                .into(),
            (B::Trunc | B::Floor | B::Ceil | B::Round, [x]) => {
                let name = match b {
                    B::Trunc => "llvm.trunc",
                    B::Floor => "llvm.floor",
                    B::Ceil => "llvm.ceil",
                    _ => "llvm.roundeven",
                };
                let r = self.float_intrinsic(name, x.float())?;
                let lo = f64t.const_float(-TWO_63);
                let hi = f64t.const_float(TWO_63);
                let above = self.b.build_float_compare(FloatPredicate::OGE, r, lo, "")?;
                let below = self.b.build_float_compare(FloatPredicate::OLT, r, hi, "")?;
                let fits = self.b.build_and(above, below, "")?;
                let outside = self.b.build_not(fits, "")?;
                let s = self.site(What::Plain, span, None);
                let shown = Some((self.bits(x.float())?, self.bits(x.float())?));
                self.fail_if(outside, RuntimeCode::IntOverflow, s, shown)?;
                self.b
                    .build_float_to_signed_int(r, self.cx.i64_type(), "")?
                    .into()
            }
            (B::Sqrt, [x]) => {
                let zero = f64t.const_zero();
                let below = self
                    .b
                    .build_float_compare(FloatPredicate::OLT, x.float(), zero, "")?;
                let s = self.site(What::Plain, span, None);
                self.fail_if(below, RuntimeCode::OutOfDomain, s, None)?;
                self.float_intrinsic("llvm.sqrt", x.float())?.into()
            }
            (B::ParseFloat, [s]) => {
                let r = self.call("isu_parse_float", &[s.v.into(), site.into()])?;
                self.release(*s, &isu_plugin_api::Type::String)?;
                r
            }
            (B::Abs, [x]) if floats => self.float_intrinsic("llvm.fabs", x.float())?.into(),
            // As Python's min and max: the first unless the second is
            // strictly below (above) it, so MIN(0.0, -0.0) is 0.0.
            (B::Min | B::Max, [x, y]) if floats => {
                let pred = if b == B::Min {
                    FloatPredicate::OLT
                } else {
                    FloatPredicate::OGT
                };
                let c = self.b.build_float_compare(pred, y.float(), x.float(), "")?;
                self.b.build_select(c, y.float(), x.float(), "")?
            }
            (B::ToString, [x]) if floats => {
                return Ok(Some(Val::owned(
                    self.call("isu_float_to_string", &[x.v.into()])?,
                )))
            }
            _ => return Ok(None),
        };
        Ok(Some(Val::borrowed(v)))
    }
}
