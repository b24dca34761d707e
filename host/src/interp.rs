//! The reference interpreter: the semantic oracle of Isu. Every backend is
//! judged against what [`run`] returns, and `spec/semantics.md` describes
//! the same behaviour in words.
//!
//! A run compiles the canonical, validated program to an internal form
//! ([`compile`]: slots instead of names, [`Builtin`](crate::stdlib::Builtin)s
//! instead of function names), checks the arguments against `ARGS`, then walks
//! the compiled steps ([`exec`]) with a fuel counter and size limits
//! ([`limits`]), optionally writing a JSONL trace ([`trace`]). Runtime errors
//! come back as [`Diagnostic`]s naming the step, the failing expression's
//! span and the values of the variables the step reads.

mod builtins;
mod compile;
mod exec;
mod history;
mod items;
mod key;
mod limits;
mod record;
mod table;
mod text;
mod trace;
mod value;

pub use limits::RunOptions;

use crate::diag::Diagnostic;
use crate::functions::Functions;
use compile::Compiled;
use exec::{Budget, Machine};
use isu_plugin_api::{Literal, Program, RuntimeCode, StepId};
use std::io::Write;
use trace::Tracer;
use value::Value;

/// Runs `program` (canonical and validated) on `args`, a JSON object mapping
/// every ARGS name to a value of its type, and returns the value of the
/// RETURN that ended the run. With `trace`, one JSON event per executed step
/// is written to it (see `spec/semantics.md`, "Traces").
///
/// The arguments are checked before anything runs: a missing, unknown or
/// ill-typed one is an `invalid_argument` error.
#[allow(clippy::result_large_err)] // the API the CLI and backends share
pub fn run(
    program: &Program,
    args: &serde_json::Value,
    opts: &RunOptions,
    trace: Option<&mut dyn Write>,
) -> Result<Literal, Diagnostic> {
    run_with(program, args, opts, trace, &Functions::default())
}

/// [`run`], where the program may call the functions of loaded packs
/// (validated with the same table). A pack function's runtime error names
/// the calling step, as a standard function's does.
#[allow(clippy::result_large_err)] // the API the CLI and backends share
pub fn run_with(
    program: &Program,
    args: &serde_json::Value,
    opts: &RunOptions,
    trace: Option<&mut dyn Write>,
    packs: &Functions,
) -> Result<Literal, Diagnostic> {
    Runnable::new(program, packs)?
        .run(args, opts, trace)
        .map(|(lit, _)| lit)
}

/// A program compiled for the interpreter once, to run as often as asked
/// (the IO examples, the runs of a conformance case).
#[derive(Debug)]
pub struct Runnable {
    compiled: Compiled,
}

impl Runnable {
    /// Compiles `program` (canonical and validated), or says why it cannot
    /// run (an `internal_error`: the validator should have refused it).
    #[allow(clippy::result_large_err)] // the API the CLI and backends share
    pub fn new(program: &Program, packs: &Functions) -> Result<Runnable, Diagnostic> {
        Ok(Runnable {
            compiled: compile_program(program, packs).map_err(|d| *d)?,
        })
    }

    /// Runs it on `args`, as [`run`] does; the result, and the step of the
    /// RETURN that gave it.
    #[allow(clippy::result_large_err)] // the API the CLI and backends share
    pub fn run(
        &self,
        args: &serde_json::Value,
        opts: &RunOptions,
        trace: Option<&mut dyn Write>,
    ) -> Result<(Literal, Option<StepId>), Diagnostic> {
        let bound = bind_json_args(&self.compiled, args).map_err(|d| *d)?;
        execute(&self.compiled, bound, opts, trace)
            .map(|(lit, step)| (lit, step.cloned()))
            .map_err(|d| {
                let mut d = *d;
                // The arguments bound, so they are a literal object.
                if let Ok(args) = isu_plugin_api::json::from_value::<Literal>(args.clone()) {
                    history::explain_error(&self.compiled, &args, opts, &mut d);
                }
                d
            })
    }

    /// Explains a `test_mismatch` of the run on `args` whose result came from
    /// the RETURN at `ret`: the returned variables' values after each step
    /// that changed them (`history`) and a hint naming the last change.
    pub fn explain_mismatch(
        &self,
        args: &Literal,
        opts: &RunOptions,
        ret: &StepId,
        d: &mut Diagnostic,
    ) {
        history::explain_mismatch(&self.compiled, args, opts, ret, d);
    }
}

/// Compiles a program, or says why it cannot run.
fn compile_program(program: &Program, packs: &Functions) -> Result<Compiled, Box<Diagnostic>> {
    compile::compile(program, packs)
        .map_err(|e| Box::new(Diagnostic::error(e.code, e.message).at(e.span)))
}

/// Runs a compiled program on bound arguments; the result and the step of
/// the RETURN that produced it.
fn execute<'c>(
    compiled: &'c Compiled,
    args: Vec<Value>,
    opts: &RunOptions,
    trace: Option<&mut dyn Write>,
) -> Result<(Literal, Option<&'c isu_plugin_api::StepId>), Box<Diagnostic>> {
    let budget = Budget {
        max_steps: opts.max_steps,
        max_size: opts.max_size,
        max_memory: opts.max_memory,
    };
    let tracer = trace.map(Tracer::new);
    let mut m = Machine::new(compiled, args, budget, tracer);
    let result = m.run();
    let ret_step = m.return_step().and_then(|s| compiled.steps.get(s as usize));
    let result = result.and_then(|v| {
        let mut budget = opts.max_size;
        value::to_literal(&v, &mut budget).ok_or_else(|| {
            let d = Diagnostic::error(
                RuntimeCode::SizeLimit,
                format!(
                    "the result would hold more than {} JSON values in all (the size limit)",
                    opts.max_size
                ),
            );
            Box::new(match ret_step {
                Some(s) => d.at(s.span).in_step(Some(&s.id)),
                None => d,
            })
        })
    });
    if let Some(t) = m.take_tracer() {
        if let Err(e) = t.finish() {
            return Err(Box::new(Diagnostic::error(
                RuntimeCode::TraceWriteFailed,
                format!("could not write the trace: {e}"),
            )));
        }
    }
    result.map(|lit| (lit, ret_step.map(|s| &s.id)))
}

/// Checks a JSON object of arguments against ARGS and returns their values
/// in ARGS order.
fn bind_json_args(c: &Compiled, args: &serde_json::Value) -> Result<Vec<Value>, Box<Diagnostic>> {
    let serde_json::Value::Object(obj) = args else {
        return Err(Box::new(
            Diagnostic::error(
                RuntimeCode::InvalidArgument,
                format!(
                    "the arguments must be a JSON object mapping each ARGS name to its value, not {}",
                    json_kind(args)
                ),
            )
            .with_expected(args_text(c)),
        ));
    };
    let entries = obj.iter().map(|(k, v)| {
        let lit = serde_json::from_value::<Literal>(v.clone()).map_err(|e| e.to_string());
        (k.as_str(), lit)
    });
    bind_args(c, entries)
}

/// The values of the arguments, from `(name, literal or why there is none)`.
fn bind_args<'a>(
    c: &Compiled,
    entries: impl Iterator<Item = (&'a str, Result<Literal, String>)>,
) -> Result<Vec<Value>, Box<Diagnostic>> {
    let mut given: std::collections::BTreeMap<&str, Result<Literal, String>> = entries.collect();
    let mut out = Vec::with_capacity(c.n_args);
    for var in &c.vars[..c.n_args] {
        let bad = |msg: String| {
            Err(Box::new(
                Diagnostic::error(RuntimeCode::InvalidArgument, msg)
                    .with_expected(var.ty.to_string()),
            ))
        };
        match given.remove(var.name.as_str()) {
            None => {
                return bad(format!(
                    "the argument `{}` ({}) is missing",
                    var.name, var.ty
                ))
            }
            Some(Err(why)) => {
                return bad(format!(
                    "the argument `{}` is not an Isu value: {why}",
                    var.name
                ))
            }
            Some(Ok(lit)) => match value::from_literal(&lit, &var.ty, &c.types) {
                Ok(v) => out.push(v),
                Err(m) => {
                    let at = if m.path.is_empty() {
                        String::new()
                    } else {
                        format!(" at {}", m.path)
                    };
                    return bad(format!(
                        "the argument `{}` does not have its type {}:{at} {}",
                        var.name, var.ty, m.message
                    ));
                }
            },
        }
    }
    if let Some(name) = given.keys().next() {
        return Err(Box::new(Diagnostic::error(
            RuntimeCode::InvalidArgument,
            format!("`{name}` is not an argument; ARGS are {}", args_text(c)),
        )));
    }
    Ok(out)
}

/// `[xs: int[], n: int]`.
fn args_text(c: &Compiled) -> String {
    let parts: Vec<String> = c.vars[..c.n_args]
        .iter()
        .map(|v| format!("{}: {}", v.name, v.ty))
        .collect();
    format!("[{}]", parts.join(", "))
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests;
