//! The runtime errors of the machine: a [`Fault`] is built where a check
//! fails and learns its step on the way out. The builders of particular
//! faults (`#[cold]`) stay beside their checks.

use crate::interp::builtins::Failure;
use crate::interp::compile::StepIx;
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
