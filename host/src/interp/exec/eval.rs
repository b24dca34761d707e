//! Values of expressions: borrowed out of the slots or the constants where
//! they can be ([`Val::Ref`]), computed otherwise; calls of standard and
//! pack functions.

use super::fault::{fault, located, unexpected, Fault, R};
use super::Machine;
use crate::interp::builtins;
use crate::interp::compile::{Ex, Slot};
use crate::interp::value::{Elem, Items, Record, Value};
use isu_lang::RuntimeCode;
use isu_plugin_api::Span;
use std::rc::Rc;

/// A value borrowed from the frame or a constant, or computed.
pub(super) enum Val<'a> {
    Ref(&'a Value),
    Own(Value),
}

impl<'a> From<Elem<'a>> for Val<'a> {
    #[inline(always)]
    fn from(e: Elem<'a>) -> Val<'a> {
        match e {
            Elem::Ref(v) => Val::Ref(v),
            Elem::Int(i) => Val::Own(Value::Int(i)),
            Elem::Bool(b) => Val::Own(Value::Bool(b)),
        }
    }
}

impl Val<'_> {
    #[inline(always)]
    pub(super) fn get(&self) -> &Value {
        match self {
            Val::Ref(v) => v,
            Val::Own(v) => v,
        }
    }

    pub(super) fn into_owned(self) -> Value {
        match self {
            Val::Ref(v) => v.clone(),
            Val::Own(v) => v,
        }
    }
}

impl Machine<'_, '_> {
    #[inline(always)]
    pub(super) fn read(&self, slot: Slot, span: Span) -> R<&Value> {
        match self.slots.get(slot as usize) {
            Some(Value::Unset) | None => Err(self.unset(slot, span)),
            Some(v) => Ok(v),
        }
    }

    /// The value of an int variable.
    #[inline(always)]
    pub(super) fn read_int(&self, slot: Slot, span: Span) -> R<i64> {
        match self.slots.get(slot as usize) {
            Some(Value::Int(i)) => Ok(*i),
            Some(Value::Unset) | None => Err(self.unset(slot, span)),
            Some(other) => unexpected("an int variable", other, span),
        }
    }

    #[cold]
    #[inline(never)]
    fn unset(&self, slot: Slot, span: Span) -> Box<Fault> {
        let name = self
            .c
            .vars
            .get(slot as usize)
            .map_or("?", |v| v.name.as_str());
        let mut f = fault(
            RuntimeCode::UninitializedRead,
            span,
            format!("`{name}` is read before any assignment to it"),
        );
        f.hint = Some(format!("assign `{name}` on every path before this step"));
        f
    }

    pub(super) fn eval(&self, e: &Ex) -> R<Value> {
        match e {
            Ex::Const(v) => Ok(v.clone()),
            Ex::Var(s, span) => self.read(*s, *span).cloned(),
            Ex::Neg(..)
            | Ex::Arith(..)
            | Ex::ArithVK(..)
            | Ex::ArithVV(..)
            | Ex::ArithXK(..)
            | Ex::ArithVX(..) => self.eval_int(e).map(Value::Int),
            Ex::FloatNeg(..) | Ex::FloatArith(..) => self.eval_float(e).map(Value::float),
            Ex::Not(_)
            | Ex::CmpInt(..)
            | Ex::CmpVK(..)
            | Ex::CmpVV(..)
            | Ex::CmpXK(..)
            | Ex::CmpXV(..)
            | Ex::Cmp(..)
            | Ex::CmpSized(..)
            | Ex::And(..)
            | Ex::Or(..) => self.eval_bool(e).map(Value::Bool),
            Ex::Index(..)
            | Ex::IndexArr(..)
            | Ex::IndexArrV(..)
            | Ex::IndexArrVV(..)
            | Ex::IndexMap(..) => self.eval_ref(e).map(Val::into_owned),
            Ex::Call1(b, a, span) => {
                let a = self.eval_ref(a)?;
                let r = builtins::call1(*b, a.get(), self.budget.max_size)
                    .map_err(|f| located(f, *span))?;
                self.spend_call(*b, &[a.get()], Some(&r), *span)?;
                Ok(r)
            }
            Ex::Call2(b, args, span) => {
                let [a, c] = &**args;
                let a = self.eval_ref(a)?;
                let c = self.eval_ref(c)?;
                let r = builtins::call2(*b, a.get(), c.get(), self.budget.max_size)
                    .map_err(|f| located(f, *span))?;
                self.spend_call(*b, &[a.get(), c.get()], Some(&r), *span)?;
                Ok(r)
            }
            Ex::Call3(b, args, span) => {
                let [a, c, d] = &**args;
                let a = self.eval_ref(a)?;
                let c = self.eval_ref(c)?;
                let d = self.eval_ref(d)?;
                let r = builtins::call3(*b, a.get(), c.get(), d.get(), self.budget.max_size)
                    .map_err(|f| located(f, *span))?;
                self.spend_call(*b, &[a.get(), c.get(), d.get()], Some(&r), *span)?;
                Ok(r)
            }
            Ex::Copy(e, span) => {
                let v = self.eval(e)?;
                self.spend_work(v.size_upto(self.fuel.get()), *span)?;
                Ok(v)
            }
            Ex::Pack(call, span) => self.call_pack(call, *span),
            Ex::Struct(fields) => {
                let mut out = Vec::with_capacity(fields.len());
                for (name, e) in fields.iter() {
                    out.push((name.clone(), self.eval(e)?));
                }
                Ok(Value::Struct(Rc::new(Record::new(out))))
            }
            Ex::Field(..) | Ex::IndexStr(..) => self.eval_ref(e).map(Val::into_owned),
            Ex::List(items, span) => {
                let values = items.iter().map(|i| self.eval(i)).collect::<R<Vec<_>>>()?;
                builtins::check_size("(list ...)", values.len(), self.budget.max_size)
                    .map_err(|f| located(f, *span))?;
                Ok(Value::array(values))
            }
            Ex::IfElse(parts) => {
                let [cond, then_expr, else_expr] = &**parts;
                self.eval(if self.eval_bool(cond)? {
                    then_expr
                } else {
                    else_expr
                })
            }
        }
    }

    /// A value, borrowed where it can be: leaves (constants, variables,
    /// var-indexed array reads) inline at the caller, the rest in
    /// [`Machine::eval_ref_node`].
    #[inline(always)]
    pub(super) fn eval_ref<'a>(&'a self, e: &'a Ex) -> R<Val<'a>> {
        match e {
            Ex::Const(v) => Ok(Val::Ref(v)),
            Ex::Var(s, span) => self.read(*s, *span).map(Val::Ref),
            Ex::IndexArrVV(slot, var_span, islot, ispan, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.read_int(*islot, *ispan)?;
                match base {
                    Value::Array(xs) => array_elem(xs, i, *span).map(Val::from),
                    other => unexpected("the base of an array index", other, *span),
                }
            }
            _ => self.eval_ref_node(e),
        }
    }

    #[inline(never)]
    pub(super) fn eval_ref_node<'a>(&'a self, e: &'a Ex) -> R<Val<'a>> {
        match e {
            Ex::Const(v) => Ok(Val::Ref(v)),
            Ex::Var(s, span) => self.read(*s, *span).map(Val::Ref),
            Ex::Index(base, index, span) => {
                let base = self.eval_ref(base)?;
                let key = self.eval_ref(index)?;
                match base {
                    Val::Ref(b) => element(b, key.get(), *span),
                    Val::Own(b) => element(&b, key.get(), *span).map(|x| Val::Own(x.into_owned())),
                }
            }
            Ex::IndexArrVV(slot, var_span, islot, ispan, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.read_int(*islot, *ispan)?;
                match base {
                    Value::Array(xs) => array_elem(xs, i, *span).map(Val::from),
                    other => unexpected("the base of an array index", other, *span),
                }
            }
            Ex::IndexArrV(slot, var_span, index, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.eval_int(index)?;
                match base {
                    Value::Array(xs) => array_elem(xs, i, *span).map(Val::from),
                    other => unexpected("the base of an array index", other, *span),
                }
            }
            Ex::IndexArr(base, index, span) => {
                let base = self.eval_ref(base)?;
                let i = self.eval_int(index)?;
                match base {
                    Val::Ref(Value::Array(xs)) => array_elem(xs, i, *span).map(Val::from),
                    Val::Own(Value::Array(xs)) => {
                        array_elem(&xs, i, *span).map(|x| Val::Own(x.to_value()))
                    }
                    other => unexpected("the base of an array index", other.get(), *span),
                }
            }
            Ex::IndexStr(base, index, span) => {
                let base = self.eval_ref(base)?;
                let i = self.eval_int(index)?;
                match base.get() {
                    Value::Str(s) => {
                        let u = match usize::try_from(i) {
                            Ok(u) if u < s.chars() => u,
                            _ => return Err(char_out_of_range(i, s.chars(), *span)),
                        };
                        Ok(Val::Own(Value::Str(Rc::new(s.slice(u, u + 1)))))
                    }
                    other => unexpected("the base of a string index", other, *span),
                }
            }
            Ex::IfElse(parts) => {
                let [cond, then_expr, else_expr] = &**parts;
                self.eval_ref(if self.eval_bool(cond)? {
                    then_expr
                } else {
                    else_expr
                })
            }
            Ex::IndexMap(base, key, span) => {
                let base = self.eval_ref(base)?;
                let key = self.eval_ref(key)?;
                let found = match base {
                    Val::Ref(Value::Map(m)) => builtins::map_get(m, key.get())
                        .map(Val::Ref)
                        .map_err(|f| located(f, *span)),
                    Val::Own(Value::Map(m)) => builtins::map_get(&m, key.get())
                        .map(|x| Val::Own(x.clone()))
                        .map_err(|f| located(f, *span)),
                    other => unexpected("the base of a map index", other.get(), *span),
                }?;
                // A string key spends its size, as MAP_GET's does.
                self.spend_work(key.get().size_upto(self.fuel.get()), *span)?;
                Ok(found)
            }
            Ex::Field(base, name, span) => {
                let base = self.eval_ref(base)?;
                match base {
                    Val::Ref(b) => field(b, name, *span).map(Val::Ref),
                    Val::Own(b) => field(&b, name, *span).map(|x| Val::Own(x.clone())),
                }
            }
            _ => self.eval(e).map(Val::Own),
        }
    }
}

/// The value of field `name` of a struct.
pub(super) fn field<'v>(base: &'v Value, name: &str, span: Span) -> R<&'v Value> {
    match base {
        Value::Struct(r) => r.get(name).ok_or_else(|| {
            fault(
                RuntimeCode::InternalError,
                span,
                format!("a struct without its field {name}"),
            )
        }),
        other => unexpected("the base of a field", other, span),
    }
}

/// The element of an array or the value of a map key.
pub(super) fn element<'v>(base: &'v Value, key: &Value, span: Span) -> R<Val<'v>> {
    match base {
        Value::Array(xs) => builtins::array_get(xs, key)
            .map(Val::from)
            .map_err(|f| located(f, span)),
        Value::Map(m) => builtins::map_get(m, key)
            .map(Val::Ref)
            .map_err(|f| located(f, span)),
        other => unexpected("the base of an index", other, span),
    }
}

pub(super) fn expr_span(e: &Ex) -> Span {
    match e {
        Ex::Var(_, s)
        | Ex::Neg(_, s)
        | Ex::Arith(_, _, _, s)
        | Ex::FloatNeg(_, s)
        | Ex::FloatArith(_, _, _, s)
        | Ex::Index(_, _, s)
        | Ex::IndexArr(_, _, s)
        | Ex::IndexArrV(_, _, _, s)
        | Ex::IndexArrVV(_, _, _, _, s)
        | Ex::ArithVK(_, _, _, _, s)
        | Ex::ArithVV(_, _, _, _, _, s)
        | Ex::ArithXK(_, _, _, s)
        | Ex::ArithVX(_, _, _, _, s)
        | Ex::IndexMap(_, _, s)
        | Ex::Call1(_, _, s)
        | Ex::Call2(_, _, s)
        | Ex::Call3(_, _, s)
        | Ex::Copy(_, s)
        | Ex::Field(_, _, s)
        | Ex::IndexStr(_, _, s)
        | Ex::List(_, s)
        | Ex::Pack(_, s)
        | Ex::CmpSized(_, _, _, s) => *s,
        Ex::Const(_)
        | Ex::Not(_)
        | Ex::CmpInt(..)
        | Ex::CmpVK(..)
        | Ex::CmpVV(..)
        | Ex::CmpXK(..)
        | Ex::CmpXV(..)
        | Ex::Cmp(..)
        | Ex::And(..)
        | Ex::Struct(_)
        | Ex::IfElse(_)
        | Ex::Or(..) => Span::default(),
    }
}

/// `i` as an index of an array of length `len`.
#[inline(always)]
pub(super) fn in_range(i: i64, len: usize, span: Span) -> R<usize> {
    match usize::try_from(i) {
        Ok(u) if u < len => Ok(u),
        _ => Err(out_of_range(i, len, span)),
    }
}

#[cold]
#[inline(never)]
pub(super) fn out_of_range(i: i64, len: usize, span: Span) -> Box<Fault> {
    fault(
        RuntimeCode::IndexOutOfRange,
        span,
        format!("index {i} is out of range for an array of length {len}"),
    )
}

#[cold]
#[inline(never)]
fn char_out_of_range(i: i64, len: usize, span: Span) -> Box<Fault> {
    fault(
        RuntimeCode::IndexOutOfRange,
        span,
        format!("index {i} is out of range for a string of length {len}"),
    )
}

/// The element `i` of an array.
#[inline(always)]
pub(super) fn array_elem(xs: &Items, i: i64, span: Span) -> R<Elem<'_>> {
    let u = in_range(i, xs.len(), span)?;
    xs.elem(u).ok_or_else(|| out_of_range(i, xs.len(), span))
}
