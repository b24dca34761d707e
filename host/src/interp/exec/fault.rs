//! The runtime errors of the machine: a [`Fault`] is built where a check
//! fails (cold paths, kept out of the evaluators) and learns its step on the
//! way out.

use super::Machine;
use crate::interp::builtins::Failure;
use crate::interp::compile::{Arith, Slot, StepIx};
use crate::interp::value::Value;
use isu_lang::RuntimeCode;
use isu_plugin_api::Span;

/// A runtime error on its way out of the machine.
#[derive(Debug)]
pub struct Fault {
    pub code: RuntimeCode,
    pub message: String,
    pub span: Span,
    /// The step it belongs to, once known.
    pub step: Option<StepIx>,
    pub hint: Option<String>,
}

pub type R<T> = Result<T, Box<Fault>>;

pub(super) fn fault(code: RuntimeCode, span: Span, message: impl Into<String>) -> Box<Fault> {
    Box::new(Fault {
        code,
        message: message.into(),
        span,
        step: None,
        hint: None,
    })
}

pub(super) fn located(f: Failure, span: Span) -> Box<Fault> {
    fault(f.code, span, f.message)
}

/// A value of the wrong kind where the validator guarantees another.
pub(super) fn unexpected<T>(what: &str, v: &Value, span: Span) -> R<T> {
    Err(fault(
        RuntimeCode::InternalError,
        span,
        format!(
            "{what} is {} (the program was not validated)",
            v.kind_name()
        ),
    ))
}

impl Machine<'_, '_> {
    #[cold]
    #[inline(never)]
    pub(super) fn out_of_fuel(&self, step: StepIx) -> Box<Fault> {
        let span = self.c.steps[step as usize].span;
        let mut f = fault(
            RuntimeCode::StepLimit,
            span,
            format!(
                "the run used up its budget of {} loop rounds",
                self.budget.max_steps
            ),
        );
        f.step = Some(step);
        f.hint = Some("a loop that never ends? If not, raise the limit (--max-steps)".into());
        f
    }

    #[cold]
    #[inline(never)]
    pub(super) fn unset(&self, slot: Slot, span: Span) -> Box<Fault> {
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
}

/// The error of `(op x y)`: division by zero or overflow.
#[cold]
#[inline(never)]
pub(super) fn arith_fault(op: Arith, x: i64, y: i64, span: Span) -> Box<Fault> {
    let name = match op {
        Arith::Add => "add",
        Arith::Sub => "sub",
        Arith::Mul => "mul",
        Arith::Div => "div",
        Arith::Mod => "mod",
    };
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

#[cold]
#[inline(never)]
pub(super) fn out_of_range(i: i64, len: usize, span: Span) -> Box<Fault> {
    fault(
        RuntimeCode::IndexOutOfRange,
        span,
        format!("index {i} is out of range for an array of length {len}"),
    )
}
