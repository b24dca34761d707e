//! Running programs: the reference interpreter and every backend behind one
//! interface, so `isu run`, `isu test` and the conformance runner take one
//! path whatever runs the program, and IO testing exists once
//! ([`test_examples`]).
//!
//! An [`Executor`] loads a program once (the interpreter compiles it to its
//! own form, a backend compiles it to artifacts) into a [`Loaded`] program,
//! which runs as often as asked. What a run gives is [`Executed`]: a value,
//! an error of the program as the interpreter reports it, or a failure of the
//! backend itself.

use crate::diag::{Code, Diagnostic, VarValue};
use crate::functions::Functions;
use crate::interp::{self, RunOptions};
use crate::plugins::isolated::{HostCommand, IsolatedBackend};
use crate::plugins::target::{self, BackendFailure, BuildError};
use crate::plugins::Registry;
use isu_plugin_api::codec::Codec;
use isu_plugin_api::{
    Artifact, Backend, CompileOptions, ExecLimits, ExecOptions, Literal, Program, RuntimeCode,
    Settings, StepId,
};
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// The name of the interpreter among executors.
pub const INTERPRETER: &str = "interpreter";

/// What one run gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Executed {
    /// The result, and the step of the RETURN that gave it when the executor
    /// knows (the interpreter does).
    Value {
        value: Literal,
        step: Option<StepId>,
    },
    /// A runtime error of the program, as the interpreter reports it.
    Error(Diagnostic),
    /// The backend itself failed.
    Failed(BackendFailure),
}

/// Something that runs programs: the interpreter, or a backend for a target.
pub trait Executor: Sync {
    /// `interpreter`, or the target.
    fn name(&self) -> &str;

    /// Prepares a canonical, validated program to run.
    fn load<'e>(&'e self, program: &Program) -> Result<Box<dyn Loaded + 'e>, BuildError>;
}

/// A program ready to run.
pub trait Loaded {
    /// Runs the program on `args` (a JSON object of its ARGS) within
    /// `limits`; with `trace`, the interpreter writes one JSON event per
    /// executed step to it (a backend refuses to trace).
    fn run(
        &self,
        args: &serde_json::Value,
        limits: &ExecLimits,
        trace: Option<&mut dyn Write>,
    ) -> Executed;

    /// Adds to the `test_mismatch` `d` of the run on `args` what explains it,
    /// when the executor can (the interpreter: the history of the returned
    /// variables, see [`interp::Runnable::explain_mismatch`]).
    fn explain_mismatch(
        &self,
        _args: &Literal,
        _limits: &ExecLimits,
        _ret: &StepId,
        _d: &mut Diagnostic,
    ) {
    }
}

/// What runs programs for a command: the interpreter with the functions of
/// the registry's packs, or with `target` the backend serving it, with
/// `settings`. A backend whose `execute` runs native code runs in a plugin
/// host process of its own, each call within `timeout`.
pub fn for_target(
    reg: &Registry,
    target: Option<&str>,
    settings: &Settings,
    timeout: Option<Duration>,
) -> Result<Box<dyn Executor>, BuildError> {
    let Some(t) = target else {
        return Ok(Box::new(Interpreter::new(reg.functions.clone())));
    };
    let (entry, mut backend) = reg.backend(t).map_err(BuildError::NoBackend)?;
    if backend.info().execute.is_some_and(|e| e.native) {
        let command = HostCommand::this_isu(timeout).map_err(|e| {
            BuildError::NoBackend(format!("cannot find this isu to run a plugin host: {e}"))
        })?;
        let isolated = IsolatedBackend::start(&command, &entry.file).map_err(|r| {
            BuildError::NoBackend(format!(
                "plugin `{}` could not start in a plugin host: {}\n  fix: {}",
                entry.name, r.message, r.fix
            ))
        })?;
        backend = Arc::new(isolated);
    }
    let via = ViaBackend::new(backend, t, reg.functions.clone());
    Ok(Box::new(
        via.with_settings(settings.clone()).with_timeout(timeout),
    ))
}

/// The reference interpreter as an executor, with the functions of the
/// loaded packs.
#[derive(Debug, Clone, Default)]
pub struct Interpreter {
    pub packs: Functions,
}

impl Interpreter {
    pub fn new(packs: Functions) -> Interpreter {
        Interpreter { packs }
    }
}

impl Executor for Interpreter {
    fn name(&self) -> &str {
        INTERPRETER
    }

    fn load<'e>(&'e self, program: &Program) -> Result<Box<dyn Loaded + 'e>, BuildError> {
        let runnable = interp::Runnable::new(program, &self.packs)
            .map_err(|d| BuildError::Program(vec![d]))?;
        Ok(Box::new(runnable))
    }
}

impl Loaded for interp::Runnable {
    fn run(
        &self,
        args: &serde_json::Value,
        limits: &ExecLimits,
        trace: Option<&mut dyn Write>,
    ) -> Executed {
        match interp::Runnable::run(self, args, &RunOptions::from(*limits), trace) {
            Ok((value, step)) => Executed::Value { value, step },
            Err(d) => Executed::Error(d),
        }
    }

    fn explain_mismatch(
        &self,
        args: &Literal,
        limits: &ExecLimits,
        ret: &StepId,
        d: &mut Diagnostic,
    ) {
        interp::Runnable::explain_mismatch(self, args, &RunOptions::from(*limits), ret, d);
    }
}

/// A backend serving one target as an executor: it compiles with the
/// lowerings of the pack functions a program calls and with the settings
/// given, and runs the artifacts. A program it compiled once is not
/// compiled again (compiling is deterministic and the limits are given when
/// it runs), so runs of one program under many limits build it once.
pub struct ViaBackend {
    pub backend: Arc<dyn Backend + Send + Sync>,
    pub target: String,
    pub packs: Functions,
    pub settings: Settings,
    /// How long each run may take, told to the backend
    /// (`ExecOptions::timeout_ms`); `None`: as long as it takes.
    pub timeout: Option<Duration>,
    built: std::sync::Mutex<std::collections::BTreeMap<String, Vec<Artifact>>>,
}

impl std::fmt::Debug for ViaBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ViaBackend")
            .field("target", &self.target)
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl ViaBackend {
    pub fn new(
        backend: Arc<dyn Backend + Send + Sync>,
        target: &str,
        packs: Functions,
    ) -> ViaBackend {
        ViaBackend {
            backend,
            target: target.to_owned(),
            packs,
            settings: Settings::new(),
            timeout: None,
            built: Default::default(),
        }
    }

    pub fn with_settings(mut self, settings: Settings) -> ViaBackend {
        self.settings = settings;
        self.built = Default::default();
        self
    }

    pub fn with_timeout(mut self, timeout: Option<Duration>) -> ViaBackend {
        self.timeout = timeout;
        self
    }
}

impl Executor for ViaBackend {
    fn name(&self) -> &str {
        &self.target
    }

    fn load<'e>(&'e self, program: &Program) -> Result<Box<dyn Loaded + 'e>, BuildError> {
        let options = CompileOptions {
            target: self.target.clone(),
            settings: self.settings.clone(),
            ..CompileOptions::default()
        };
        let key = serde_json::to_string(program).unwrap_or_default();
        let known = self.built.lock().ok().and_then(|b| b.get(&key).cloned());
        let artifacts = match known {
            Some(a) => a,
            None => {
                let a = target::compile_with(&self.packs, self.backend.as_ref(), program, options)?;
                if let Ok(mut b) = self.built.lock() {
                    b.insert(key, a.clone());
                }
                a
            }
        };
        Ok(Box::new(Built {
            via: self,
            artifacts,
        }))
    }
}

/// What a backend built, ready to run.
struct Built<'e> {
    via: &'e ViaBackend,
    artifacts: Vec<Artifact>,
}

impl Loaded for Built<'_> {
    fn run(
        &self,
        args: &serde_json::Value,
        limits: &ExecLimits,
        trace: Option<&mut dyn Write>,
    ) -> Executed {
        let target = &self.via.target;
        if trace.is_some() {
            return Executed::Failed(BackendFailure {
                target: target.clone(),
                diagnostic: isu_plugin_api::PluginDiagnostic::backend(
                    isu_plugin_api::BackendCode::CannotExecute,
                    "only the interpreter writes traces; run without a target to trace",
                ),
            });
        }
        // What the interpreter refuses before running, a backend never sees.
        let args = match isu_plugin_api::json::from_value::<Literal>(args.clone()) {
            Ok(a) => a,
            Err(e) => {
                return Executed::Error(Diagnostic::error(
                    RuntimeCode::InvalidArgument,
                    format!("the arguments are not Isu values: {e}"),
                ))
            }
        };
        let options = ExecOptions {
            limits: *limits,
            settings: self.via.settings.clone(),
            timeout_ms: self
                .via
                .timeout
                .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
        };
        target::execute(
            self.via.backend.as_ref(),
            target,
            &self.artifacts,
            &args,
            &options,
        )
    }
}

/// Runs a program's IO examples (`INPUT[i]` against `OUTPUT[i]`) on a loaded
/// program and returns one `TestFail` per example that does not hold, in
/// example order: a `test_mismatch` when the result differs (with
/// `expected`, `actual`, the arguments as `vars`, and where the executor
/// knows them the step of the RETURN that gave the result and in `history`
/// the returned variables' values after each step that changed them), a
/// `test_error` when the run stopped with a runtime error (with that error's
/// step, span, variables, loop rounds and hint; its code and message are in
/// the message and its JSON object is `actual`). `executor` is named in each
/// message unless it is the interpreter. Failures of a backend itself are no
/// verdict on the program: the first ends the examples there and comes back
/// instead (a missing `python3` would fail every one the same way).
pub fn test_examples(
    loaded: &dyn Loaded,
    executor: &str,
    program: &Program,
    limits: &ExecLimits,
) -> Result<Vec<Diagnostic>, Box<BackendFailure>> {
    let on = if executor == INTERPRETER {
        String::new()
    } else {
        format!(" (target {executor})")
    };
    let mut fails = Vec::new();
    for (i, (input, output)) in program.io.input.iter().zip(&program.io.output).enumerate() {
        let name = format!("IO example INPUT[{i}]");
        let arg_vars = example_vars(&input.value);
        let args = serde_json::to_value(&input.value).unwrap_or(serde_json::Value::Null);
        // An expected float may be written as an integer binary64 holds
        // exactly, and equals as `eq` says (`-0.0` is `0.0`).
        let expected = Codec::new(&program.types)
            .encode(&output.value, &program.func.returns)
            .unwrap_or_else(|_| output.value.clone());
        match loaded.run(&args, limits, None) {
            Executed::Value { value, .. } if value.equals(&expected) => {}
            Executed::Value { value, step } => {
                let mut d = Diagnostic::error(
                    Code::TestMismatch,
                    format!(
                        "{name}: expected {}, got {}{on}",
                        short(&output.value),
                        short(&value)
                    ),
                )
                .at(output.span)
                .in_step(step.as_ref())
                .with_label(input.span, "with these arguments")
                .with_expected(&output.value)
                .with_actual(&value)
                .with_vars(arg_vars);
                if let Some(step) = &step {
                    loaded.explain_mismatch(&input.value, limits, step, &mut d);
                }
                fails.push(d);
            }
            Executed::Error(e) => {
                let step = e
                    .step
                    .as_ref()
                    .map_or(String::new(), |s| format!(" at {s}"));
                let mut d = Diagnostic::error(
                    Code::TestError,
                    format!("{name} stopped with {}{step}{on}: {}", e.code, e.message),
                )
                .in_step(e.step.as_ref())
                .with_label(input.span, "with these arguments")
                .with_expected(&output.value)
                .with_actual(e.to_json())
                .with_vars(if e.vars.is_empty() {
                    arg_vars
                } else {
                    e.vars.clone()
                });
                match e.span {
                    Some(span) => d.span = Some(span),
                    None => d = d.at(output.span),
                }
                d.hint = e.hint.clone();
                d.rounds = e.rounds.clone();
                d.notes = e.notes.clone();
                fails.push(d);
            }
            Executed::Failed(f) => return Err(Box::new(f)),
        }
    }
    Ok(fails)
}

/// [`test_examples`] by the interpreter with the functions of `packs`: a
/// program the interpreter cannot load gives that error.
pub fn test_on_interpreter(
    program: &Program,
    limits: &ExecLimits,
    packs: &Functions,
) -> Vec<Diagnostic> {
    let interpreter = Interpreter::new(packs.clone());
    let fails = match interpreter.load(program) {
        Ok(loaded) => test_examples(loaded.as_ref(), INTERPRETER, program, limits)
            .unwrap_or_else(|f| vec![Diagnostic::error(RuntimeCode::InternalError, f.to_string())]),
        Err(BuildError::Program(diags)) => diags,
        Err(e) => vec![Diagnostic::error(RuntimeCode::InternalError, e.to_string())],
    };
    fails
}

/// The arguments of an example, as the variables of a diagnostic.
fn example_vars(input: &Literal) -> Vec<VarValue> {
    match input {
        Literal::Object(entries) => entries
            .iter()
            .map(|(k, v)| VarValue {
                name: k.clone(),
                value: serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A literal's text for a message, cut after 200 characters.
fn short(lit: &Literal) -> String {
    let text = lit.to_string();
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}
