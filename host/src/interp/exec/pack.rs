//! Calls of pack functions (`math.GCD`), within the run's size limit.
//!
//! A function whose parameters and result are all scalars (int, float,
//! bool) is called on the scalars themselves ([`PackFn::call_scalars`]): its
//! arguments are evaluated by the typed evaluators, nothing is converted to
//! a literal or back, and the call spends no work, since the work of a pack
//! call is the sizes of its arguments and of its result
//! (`isu_lang::work::of_pack`) and a scalar's size is 0; nor can a scalar
//! result be longer than the size limit. Any other call crosses as
//! literals, and spends their sizes.
//!
//! [`PackFn::call_scalars`]: crate::functions::PackFn::call_scalars

use super::fault::{fault, Fault, R};
use super::Machine;
use crate::interp::compile::{Ex, PackCall};
use crate::interp::value::{self, Value};
use isu_lang::types::Type;
use isu_lang::RuntimeCode;
use isu_plugin_api::{Literal, PluginDiagnostic, Scalar, Span};

impl Machine<'_, '_> {
    /// Calls a pack function within the run's size limit: the arguments
    /// cross as literals (as scalars when all are, and the result too), the
    /// result comes back as a value of the declared return type, and the
    /// call spends the sizes of both.
    pub(super) fn call_pack(&self, call: &PackCall, span: Span) -> R<Value> {
        if call.func.is_scalar() {
            return self.call_pack_scalars(call, span);
        }
        let name = &call.func.name;
        let max_size = self.budget.max_size as u64;
        let mut units = 0u64;
        let mut arg = |a: &Ex| self.pack_arg(a, &mut units, name, span);
        let pack = |args: &[Literal]| call.func.call(args, max_size);
        // The arguments of a call of few are an array on the stack of their
        // number.
        let answer = match &*call.args {
            [] => pack(&[]),
            [a] => pack(&[arg(a)?]),
            [a, b] => pack(&[arg(a)?, arg(b)?]),
            [a, b, c] => pack(&[arg(a)?, arg(b)?, arg(c)?]),
            [a, b, c, d] => pack(&[arg(a)?, arg(b)?, arg(c)?, arg(d)?]),
            all => pack(&all.iter().map(arg).collect::<R<Vec<_>>>()?),
        };
        let lit = answer.map_err(|d| pack_fault(name, d, span))?;
        let result = pack_value(call, &lit, span)?;
        if result.length() > max_size {
            return Err(fault(
                RuntimeCode::SizeLimit,
                span,
                format!("the result of {name} is larger than the size limit"),
            ));
        }
        // The work of a pack call (`isu_lang::work::of_pack`): the sizes of
        // its arguments and of its result.
        units = units.saturating_add(result.size_upto(self.fuel.get()));
        self.spend_work(units, span)?;
        Ok(result)
    }

    /// A call of a pack function whose parameters and result are all
    /// scalars (see the module's doc): the arguments on the stack, the
    /// result taken as it comes when it is of the declared type.
    /// The int and bool evaluators call it directly (no [`Machine::eval`]
    /// on the way).
    #[inline]
    pub(super) fn call_pack_scalars(&self, call: &PackCall, span: Span) -> R<Value> {
        match (&call.func.signature.ret, self.pack_scalar(call, span)?) {
            (Type::Int, Scalar::Int(i)) => Ok(Value::Int(i)),
            (Type::Bool, Scalar::Bool(b)) => Ok(Value::Bool(b)),
            // A float, or a result of another type, by the rule of every
            // result read against a declared type.
            (_, other) => pack_value(call, &other.to_literal(), span),
        }
    }

    /// The scalar a scalar pack function returns (see the module's doc):
    /// the arguments evaluated by the typed evaluators onto the stack.
    #[inline(always)]
    fn pack_scalar(&self, call: &PackCall, span: Span) -> R<Scalar> {
        let max_size = self.budget.max_size as u64;
        let params = &call.func.signature.params;
        let arg = |i: usize, a: &Ex| self.scalar_arg(params.get(i), a, span);
        let pack = |args: &[Scalar]| call.func.call_scalars(args, max_size);
        let answer = match &*call.args {
            [] => pack(&[]),
            [a] => pack(&[arg(0, a)?]),
            [a, b] => pack(&[arg(0, a)?, arg(1, b)?]),
            [a, b, c] => pack(&[arg(0, a)?, arg(1, b)?, arg(2, c)?]),
            [a, b, c, d] => pack(&[arg(0, a)?, arg(1, b)?, arg(2, c)?, arg(3, d)?]),
            all => {
                let args = all.iter().enumerate().map(|(i, a)| arg(i, a));
                pack(&args.collect::<R<Vec<_>>>()?)
            }
        };
        answer.map_err(|d| pack_fault(&call.func.name, d, span))
    }

    /// An argument of a scalar call, of the parameter's type `ty`.
    #[inline(always)]
    fn scalar_arg(&self, ty: Option<&Type>, a: &Ex, span: Span) -> R<Scalar> {
        match ty {
            Some(Type::Int) => self.eval_int(a).map(Scalar::Int),
            Some(Type::Bool) => self.eval_bool(a).map(Scalar::Bool),
            Some(Type::Float) => self.eval_float(a).map(Scalar::Float),
            _ => Err(fault(
                RuntimeCode::InternalError,
                span,
                "an argument of a scalar pack call is not a scalar".to_owned(),
            )),
        }
    }

    /// An argument of a pack call as the literal that crosses, its size
    /// added to `units`.
    #[inline]
    fn pack_arg(&self, a: &Ex, units: &mut u64, name: &str, span: Span) -> R<Literal> {
        let v = self.eval_ref(a)?;
        *units = units.saturating_add(v.get().size_upto(self.fuel.get()));
        match v.get() {
            Value::Int(i) => Ok(Literal::Int(*i)),
            Value::Float(x) => Ok(Literal::Float(x.0)),
            Value::Bool(b) => Ok(Literal::Bool(*b)),
            // Any value a run holds crosses: its size is bounded by the
            // limits already, and the call spends it.
            other => {
                let mut budget = usize::MAX;
                value::to_literal(other, &mut budget).ok_or_else(|| {
                    fault(
                        RuntimeCode::InternalError,
                        span,
                        format!("an argument of {name} holds no value"),
                    )
                })
            }
        }
    }
}

/// The value of what a pack function returned, of its declared return type,
/// or `pack_failed`.
fn pack_value(call: &PackCall, lit: &Literal, span: Span) -> R<Value> {
    let ret = &call.func.signature.ret;
    // A pack's signature names no struct.
    value::from_literal(lit, ret, &[]).map_err(|m| {
        fault(
            RuntimeCode::PackFailed,
            span,
            format!(
                "{} returned {lit}, which is not of type {ret}: {}",
                call.func.name, m.message
            ),
        )
    })
}

/// The runtime error of a pack call that failed with `d`: the pack's code
/// when it is one of a program's runtime errors, else `pack_failed`.
#[cold]
fn pack_fault(name: &str, d: PluginDiagnostic, span: Span) -> Box<Fault> {
    let code = RuntimeCode::from_text(&d.code).filter(|c| c.is_program_error());
    match code {
        Some(code) => fault(code, span, format!("{name}: {}", d.message)),
        None => fault(
            RuntimeCode::PackFailed,
            span,
            format!("{name} failed: {} [{}]", d.message, d.code),
        ),
    }
}
