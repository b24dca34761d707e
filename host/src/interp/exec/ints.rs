//! Int expressions, evaluated to an `i64` without boxing: the fused
//! variable/constant forms inline at the caller, checked arithmetic.

use super::eval::{array_elem, expr_span, out_of_range};
use super::fault::{fault, unexpected, Fault, R};
use super::Machine;
use crate::interp::compile::{Arith, Ex};
use crate::interp::value::{Elem, Items, Value};
use isu_lang::RuntimeCode;
use isu_plugin_api::Span;

impl Machine<'_, '_> {
    /// An int expression: leaves (constants, variables, fused var/const
    /// arithmetic) and var-indexed reads inline at the caller, the rest in
    /// [`Machine::eval_int_node`].
    #[inline(always)]
    pub(super) fn eval_int(&self, e: &Ex) -> R<i64> {
        match e {
            Ex::Const(Value::Int(k)) => Ok(*k),
            Ex::Var(s, span) => self.read_int(*s, *span),
            Ex::ArithVK(op, x, xs, k, span) => {
                let x = self.read_int(*x, *xs)?;
                arith(*op, x, *k, *span)
            }
            Ex::ArithVV(op, x, xs, y, ys, span) => {
                let x = self.read_int(*x, *xs)?;
                let y = self.read_int(*y, *ys)?;
                arith(*op, x, y, *span)
            }
            Ex::IndexArrVV(slot, var_span, islot, ispan, span) => {
                let i = self.read_int(*islot, *ispan);
                match (self.read(*slot, *var_span)?, i?) {
                    (Value::Array(xs), i) => match &**xs {
                        Items::Ints(v) => match usize::try_from(i).ok().and_then(|u| v.get(u)) {
                            Some(x) => Ok(*x),
                            None => Err(out_of_range(i, v.len(), *span)),
                        },
                        _ => self.eval_int_node(e),
                    },
                    _ => self.eval_int_node(e),
                }
            }
            _ => self.eval_int_node(e),
        }
    }

    #[inline(never)]
    pub(super) fn eval_int_node(&self, e: &Ex) -> R<i64> {
        match e {
            Ex::Const(Value::Int(k)) => Ok(*k),
            Ex::Var(s, span) => match self.read(*s, *span)? {
                Value::Int(i) => Ok(*i),
                v => unexpected("an int variable", v, *span),
            },
            Ex::Arith(op, a, b, span) => {
                let x = self.eval_int(a)?;
                let y = self.eval_int(b)?;
                arith(*op, x, y, *span)
            }
            Ex::ArithVK(op, x, xs, k, span) => {
                let x = self.read_int(*x, *xs)?;
                arith(*op, x, *k, *span)
            }
            Ex::ArithVV(op, x, xs, y, ys, span) => {
                let x = self.read_int(*x, *xs)?;
                let y = self.read_int(*y, *ys)?;
                arith(*op, x, y, *span)
            }
            Ex::ArithXK(op, a, k, span) => {
                let x = self.eval_int(a)?;
                arith(*op, x, *k, *span)
            }
            Ex::ArithVX(op, x, xs, b, span) => {
                let x = self.read_int(*x, *xs)?;
                let y = self.eval_int(b)?;
                arith(*op, x, y, *span)
            }
            Ex::IndexArrVV(slot, var_span, islot, ispan, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.read_int(*islot, *ispan)?;
                match base {
                    Value::Array(xs) => match &**xs {
                        Items::Ints(v) => match usize::try_from(i).ok().and_then(|u| v.get(u)) {
                            Some(x) => Ok(*x),
                            None => Err(out_of_range(i, v.len(), *span)),
                        },
                        other => match array_elem(other, i, *span)? {
                            Elem::Int(x) | Elem::Ref(&Value::Int(x)) => Ok(x),
                            e => unexpected("an int element", &e.to_value(), *span),
                        },
                    },
                    other => unexpected("the base of an array index", other, *span),
                }
            }
            Ex::IndexArrV(slot, var_span, index, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.eval_int(index)?;
                let Value::Array(xs) = base else {
                    return unexpected("the base of an array index", base, *span);
                };
                int_at(xs, i, *span)
            }
            Ex::IndexArr(base, index, span) => {
                let base = self.eval_ref(base)?;
                let i = self.eval_int(index)?;
                let Value::Array(xs) = base.get() else {
                    return unexpected("the base of an array index", base.get(), *span);
                };
                int_at(xs, i, *span)
            }
            Ex::Neg(a, span) => {
                let x = self.eval_int(a)?;
                x.checked_neg().ok_or_else(|| {
                    fault(
                        RuntimeCode::IntOverflow,
                        *span,
                        format!("neg {x} does not fit in 64 bits"),
                    )
                })
            }
            Ex::Pack(call, span) if call.func.is_scalar() => {
                match self.call_pack_scalars(call, *span)? {
                    Value::Int(i) => Ok(i),
                    v => unexpected("an int expression", &v, *span),
                }
            }
            _ => match self.eval_ref(e)?.get() {
                Value::Int(i) => Ok(*i),
                v => unexpected("an int expression", v, expr_span(e)),
            },
        }
    }
}

/// The int element `i` of an array: straight out of a compact array, through
/// [`array_elem`] otherwise.
#[inline(always)]
fn int_at(xs: &Items, i: i64, span: Span) -> R<i64> {
    match xs {
        Items::Ints(v) => match usize::try_from(i).ok().and_then(|u| v.get(u)) {
            Some(x) => Ok(*x),
            None => Err(out_of_range(i, v.len(), span)),
        },
        other => int_elem(other, i, span),
    }
}

#[inline(never)]
fn int_elem(xs: &Items, i: i64, span: Span) -> R<i64> {
    match array_elem(xs, i, span)? {
        Elem::Int(x) | Elem::Ref(&Value::Int(x)) => Ok(x),
        other => unexpected("an int element", &other.to_value(), span),
    }
}

/// Checked int arithmetic: overflow and division by zero are errors; `div`
/// truncates toward zero, `mod` has the dividend's sign, MIN mod -1 is 0.
#[inline(always)]
pub(super) fn arith(op: Arith, x: i64, y: i64, span: Span) -> R<i64> {
    let r = match op {
        Arith::Add => x.checked_add(y),
        Arith::Sub => x.checked_sub(y),
        Arith::Mul => x.checked_mul(y),
        Arith::Div if y != 0 => x.checked_div(y),
        Arith::Mod if y != 0 => Some(x.wrapping_rem(y)),
        Arith::Div | Arith::Mod => return Err(arith_fault(op, x, y, span)),
    };
    match r {
        Some(r) => Ok(r),
        None => Err(arith_fault(op, x, y, span)),
    }
}

/// The error of `(op x y)`: division by zero or overflow.
#[cold]
#[inline(never)]
fn arith_fault(op: Arith, x: i64, y: i64, span: Span) -> Box<Fault> {
    let name = op.name();
    if y == 0 && matches!(op, Arith::Div | Arith::Mod) {
        fault(
            RuntimeCode::DivisionByZero,
            span,
            format!("({name} {x} 0): division by zero"),
        )
    } else {
        fault(
            RuntimeCode::IntOverflow,
            span,
            format!("({name} {x} {y}) does not fit in 64 bits"),
        )
    }
}
