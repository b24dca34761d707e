//! Float expressions, evaluated to an `f64` without boxing: one IEEE-754
//! operation each, rounded to nearest even, never fused; a division by zero
//! and a result that is not finite are errors (`spec/semantics.md`,
//! "Floats").

use super::eval::expr_span;
use super::fault::{fault, unexpected, Fault, R};
use super::Machine;
use crate::interp::compile::{Arith, Ex};
use crate::interp::value::Value;
use isu_lang::float::repr;
use isu_lang::RuntimeCode;
use isu_plugin_api::Span;

impl Machine<'_, '_> {
    /// A float expression.
    pub(super) fn eval_float(&self, e: &Ex) -> R<f64> {
        match e {
            Ex::Const(Value::Float(x)) => Ok(x.0),
            Ex::FloatArith(op, a, b, span) => {
                let x = self.eval_float(a)?;
                let y = self.eval_float(b)?;
                float_arith(*op, x, y, *span)
            }
            // The negation of a finite float is finite: `(neg 0.0)` is -0.0.
            Ex::FloatNeg(a, _) => Ok(-self.eval_float(a)?),
            _ => match self.eval_ref(e)?.get() {
                Value::Float(x) => Ok(x.0),
                v => unexpected("a float expression", v, expr_span(e)),
            },
        }
    }
}

/// `(op x y)` on two floats: `div` by zero (either sign) is
/// `division_by_zero`, a result beyond the float range `float_not_finite`;
/// `mod` takes ints only, which the validator ensures.
pub(super) fn float_arith(op: Arith, x: f64, y: f64, span: Span) -> R<f64> {
    let r = match op {
        Arith::Add => x + y,
        Arith::Sub => x - y,
        Arith::Mul => x * y,
        Arith::Div if y == 0.0 => return Err(float_fault(op, x, y, span)),
        Arith::Div => x / y,
        Arith::Mod => return unexpected("mod of two floats", &Value::float(x), span),
    };
    if r.is_finite() {
        Ok(r)
    } else {
        Err(float_fault(op, x, y, span))
    }
}

#[cold]
#[inline(never)]
fn float_fault(op: Arith, x: f64, y: f64, span: Span) -> Box<Fault> {
    let name = op.name();
    let by_zero = op == Arith::Div && y == 0.0;
    let (x, y) = (repr(x), repr(y));
    if by_zero {
        fault(
            RuntimeCode::DivisionByZero,
            span,
            format!("({name} {x} {y}): division by zero"),
        )
    } else {
        let mut f = fault(
            RuntimeCode::FloatNotFinite,
            span,
            format!("({name} {x} {y}) is beyond the float range (about 1.8e+308 in size)"),
        );
        f.hint =
            Some("floats are finite: scale the values down, or check them before the step".into());
        f
    }
}
