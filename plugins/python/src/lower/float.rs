//! Floats as Python's own: a Python float is an IEEE-754 binary64, and its
//! `+ - * /` round once each, as Isu's do (spec/semantics.md, "Floats").
//! What Python does not do alone: a result that is not finite (an infinity
//! from overflow; NaN cannot arise from finite operands but through one) is
//! `float_not_finite`, checked inline as `_t - _t == 0.0`, false for an
//! infinity and for NaN. Division by 0.0 raises Python's ZeroDivisionError,
//! which the generated function turns into `division_by_zero` before any
//! check of the quotient.

use super::expr::Codes;
use super::{invalid, Gen, R};
use crate::py::{Prec, Py};
use isu_plugin_api::{BinaryOp, Expr};

impl Gen {
    /// `(op l r)` on two floats: arithmetic, checked, or a comparison.
    pub(super) fn float_binary(&mut self, op: BinaryOp, l: &Expr, r: &Expr) -> R<Py> {
        let sym = match op {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => return self.compare(op, l, r),
            _ => return Err(invalid(format!("`{}` does not take floats", op.name()))),
        };
        let prec = if matches!(op, BinaryOp::Add | BinaryOp::Sub) {
            Prec::Sum
        } else {
            Prec::Term
        };
        let (a, b) = (self.expr(l)?, self.expr(r)?);
        let raw = Py::binary(&a, sym, &b, prec);
        Ok(Py::new(
            format!(
                "_t if (_t := {}) - _t == 0.0 else _not_finite(\"{}\")",
                raw.text,
                op.name()
            ),
            Prec::Cond,
        ))
    }

    /// `(neg a)` of a float: never fails (`-0.0` of `0.0`).
    pub(super) fn float_neg(&mut self, arg: &Expr) -> R<Py> {
        let a = self.expr(arg)?;
        Ok(Py::new(format!("-{}", a.above(Prec::Unary)), Prec::Unary))
    }
}

/// The runtime errors of `(op l r)` itself, on two floats.
pub(super) fn codes(op: BinaryOp) -> Codes {
    match op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul => Codes::NOT_FINITE,
        BinaryOp::Div => Codes::NOT_FINITE.with(Codes::DIVISION_BY_ZERO),
        _ => Codes::NONE,
    }
}
