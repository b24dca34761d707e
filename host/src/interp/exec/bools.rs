//! Bool expressions, evaluated to a `bool` without boxing: conditions of
//! IF and WHILE, comparisons, `and`/`or` short-circuiting.

use super::eval::{array_elem, expr_span};
use super::fault::{unexpected, R};
use super::Machine;
use crate::interp::compile::{Cmp, Ex};
use crate::interp::value::{Elem, Value};

impl Machine<'_, '_> {
    /// A bool expression: leaves inline at the caller, the rest in
    /// [`Machine::eval_bool_node`].
    #[inline(always)]
    pub(super) fn eval_bool(&self, e: &Ex) -> R<bool> {
        match e {
            Ex::Const(Value::Bool(b)) => Ok(*b),
            Ex::CmpVK(op, x, xs, k) => {
                let x = self.read_int(*x, *xs)?;
                Ok(compare(*op, x.cmp(k)))
            }
            Ex::CmpVV(op, x, xs, y, ys) => {
                let x = self.read_int(*x, *xs)?;
                let y = self.read_int(*y, *ys)?;
                Ok(compare(*op, x.cmp(&y)))
            }
            _ => self.eval_bool_node(e),
        }
    }

    #[inline(never)]
    pub(super) fn eval_bool_node(&self, e: &Ex) -> R<bool> {
        match e {
            Ex::Const(Value::Bool(b)) => Ok(*b),
            Ex::Not(a) => Ok(!self.eval_bool(a)?),
            Ex::And(a, b) => Ok(self.eval_bool(a)? && self.eval_bool(b)?),
            Ex::Or(a, b) => Ok(self.eval_bool(a)? || self.eval_bool(b)?),
            Ex::IndexArr(base, index, span) => {
                let base = self.eval_ref(base)?;
                let i = self.eval_int(index)?;
                let Value::Array(xs) = base.get() else {
                    return unexpected("the base of an array index", base.get(), *span);
                };
                match array_elem(xs, i, *span)? {
                    Elem::Bool(x) | Elem::Ref(&Value::Bool(x)) => Ok(x),
                    other => unexpected("a bool element", &other.to_value(), *span),
                }
            }
            Ex::CmpVK(op, x, xs, k) => {
                let x = self.read_int(*x, *xs)?;
                Ok(compare(*op, x.cmp(k)))
            }
            Ex::CmpVV(op, x, xs, y, ys) => {
                let x = self.read_int(*x, *xs)?;
                let y = self.read_int(*y, *ys)?;
                Ok(compare(*op, x.cmp(&y)))
            }
            Ex::CmpXK(op, a, k) => {
                let x = self.eval_int(a)?;
                Ok(compare(*op, x.cmp(k)))
            }
            Ex::IndexArrVV(slot, var_span, islot, ispan, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.read_int(*islot, *ispan)?;
                let Value::Array(xs) = base else {
                    return unexpected("the base of an array index", base, *span);
                };
                match array_elem(xs, i, *span)? {
                    Elem::Bool(x) | Elem::Ref(&Value::Bool(x)) => Ok(x),
                    other => unexpected("a bool element", &other.to_value(), *span),
                }
            }
            Ex::CmpXV(op, a, y, ys) => {
                let x = self.eval_int(a)?;
                let y = self.read_int(*y, *ys)?;
                Ok(compare(*op, x.cmp(&y)))
            }
            Ex::IndexArrV(slot, var_span, index, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.eval_int(index)?;
                let Value::Array(xs) = base else {
                    return unexpected("the base of an array index", base, *span);
                };
                match array_elem(xs, i, *span)? {
                    Elem::Bool(x) | Elem::Ref(&Value::Bool(x)) => Ok(x),
                    other => unexpected("a bool element", &other.to_value(), *span),
                }
            }
            Ex::CmpInt(op, a, b) => {
                let x = self.eval_int(a)?;
                let y = self.eval_int(b)?;
                Ok(compare(*op, x.cmp(&y)))
            }
            Ex::Cmp(op, a, b) => {
                let x = self.eval_ref(a)?;
                let y = self.eval_ref(b)?;
                Ok(compare_values(*op, x.get(), y.get()))
            }
            Ex::CmpSized(op, a, b, span) => {
                let x = self.eval_ref(a)?;
                let y = self.eval_ref(b)?;
                let r = compare_values(*op, x.get(), y.get());
                self.spend_comparison(x.get(), y.get(), *span)?;
                Ok(r)
            }
            Ex::Pack(call, span) if call.func.is_scalar() => {
                match self.call_pack_scalars(call, *span)? {
                    Value::Bool(b) => Ok(b),
                    v => unexpected("a bool expression", &v, *span),
                }
            }
            _ => match self.eval_ref(e)?.get() {
                Value::Bool(b) => Ok(*b),
                v => unexpected("a bool expression", v, expr_span(e)),
            },
        }
    }
}

/// `op` on two values of one type.
fn compare_values(op: Cmp, x: &Value, y: &Value) -> bool {
    match op {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y,
        _ => compare(op, x.cmp(y)),
    }
}

pub(super) fn compare(op: Cmp, o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match op {
        Cmp::Eq => o == Equal,
        Cmp::Ne => o != Equal,
        Cmp::Lt => o == Less,
        Cmp::Le => o != Greater,
        Cmp::Gt => o == Greater,
        Cmp::Ge => o != Less,
    }
}
