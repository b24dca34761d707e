//! `isu run` and `isu test`: a program run by the reference interpreter, or
//! with `--target T` by the backend plugin of T, through one path
//! ([`crate::executor`]) and with one output contract: a value as JSON, or
//! the runtime error object with exit 5; TestFails with exit 6. A failure of
//! a backend itself exits 8.

use super::output::{print_json, read_source, report, write_atomically};
use super::plugins::{manifest_failure, EXIT_PLUGIN};
use super::{Common, Format};
use crate::diag::{exit_code, Code, Diagnostic};
use crate::executor::{self, Executed, Executor, Interpreter, Loaded, ViaBackend};
use crate::interp;
use crate::pipeline;
use crate::plugins::isolated::{HostCommand, IsolatedBackend};
use crate::plugins::target::{BackendFailure, BuildError};
use crate::plugins::{PluginKind, Registry};
use crate::source::Source;
use anyhow::{Context, Result};
use isu_plugin_api::{ExecLimits, Program, Settings};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;

/// The limits of a run, as flags.
#[derive(Debug, Clone, clap::Args)]
pub struct Limits {
    /// Loop rounds a run may make before it stops with `step_limit` at that LOOP.
    #[arg(long, default_value_t = interp::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,
    /// Elements of a collection, or characters of a string, before `size_limit`.
    #[arg(long, default_value_t = interp::DEFAULT_MAX_SIZE)]
    pub max_size: usize,
}

impl Limits {
    /// The limits of an execution, whatever runs it.
    pub fn exec_limits(&self) -> ExecLimits {
        ExecLimits {
            max_steps: self.max_steps,
            max_size: self.max_size as u64,
        }
    }
}

/// `--set NAME=VALUE` (repeatable): the named settings of the target's
/// backend (`isu plugins` lists them).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SetArgs {
    /// A setting of the target's backend, `NAME=VALUE` (repeatable; `isu plugins` lists them).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_setting, requires = "target")]
    pub set: Vec<(String, String)>,
}

impl SetArgs {
    /// The settings, a later `--set` of a name replacing an earlier one.
    pub fn settings(&self) -> Settings {
        self.set.iter().cloned().collect()
    }
}

fn parse_setting(text: &str) -> std::result::Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
        _ => Err(format!("`{text}` is not NAME=VALUE")),
    }
}

/// Where a program runs: the interpreter, or with `--target` the backend
/// plugin of that target with its settings; and the `--plugins` manifest flag.
#[derive(Debug, Clone, Default)]
pub struct On {
    pub target: Option<String>,
    pub settings: Settings,
    /// The wall-clock limit of each call of a backend run in a plugin host.
    pub timeout: Option<std::time::Duration>,
    pub manifest: Option<PathBuf>,
}

/// Reads `--args`: JSON text, or `@FILE` for a file holding it.
fn read_args(spec: &str) -> Result<std::result::Result<Value, Diagnostic>> {
    let (text, origin) = match spec.strip_prefix('@') {
        Some(path) => (
            std::fs::read_to_string(path).with_context(|| format!("reading --args file {path}"))?,
            path.to_owned(),
        ),
        None => (spec.to_owned(), "--args".to_owned()),
    };
    Ok(serde_json::from_str(&text).map_err(|e| {
        Diagnostic::error(Code::InvalidArgument, format!("{origin} is not JSON: {e}"))
            .with_hint(r#"pass the arguments as one JSON object, e.g. --args '{"xs": [1, 2]}'"#)
    }))
}

/// A command's checked program, with what it needs to report and to run.
struct Checked {
    src: Source,
    reg: Registry,
    program: Program,
    diags: Vec<Diagnostic>,
}

/// The plugins for a command that runs a program: all of them when a target
/// is asked for (`needed`), else the packs only. A manifest that cannot be
/// used is an error (reported, exit code in `Err`) when a target is asked
/// for; otherwise a warning, and the command goes on without packs.
pub fn registry(
    manifest: Option<&std::path::Path>,
    needed: bool,
    format: Format,
) -> Result<std::result::Result<Registry, i32>> {
    let kinds: &[PluginKind] = if needed {
        &[PluginKind::Backend, PluginKind::Pack]
    } else {
        &[PluginKind::Pack]
    };
    match Registry::from_environment_of(manifest, kinds) {
        Ok(reg) => Ok(Ok(reg)),
        Err(e) if needed => Ok(Err(manifest_failure(&e, format)?)),
        Err(e) => {
            tracing::warn!("plugin manifest ignored: {e}");
            Ok(Ok(Registry::default()))
        }
    }
}

/// Reads and checks the program with the plugins it needs ([`registry`]).
/// The exit code in `Err` when it cannot run.
fn checked(common: &Common, on: &On) -> Result<std::result::Result<Checked, i32>> {
    let src = read_source(&common.file)?;
    let reg = match registry(on.manifest.as_deref(), on.target.is_some(), common.format)? {
        Ok(reg) => reg,
        Err(code) => return Ok(Err(code)),
    };
    let fe = pipeline::check_with(&src, &reg.functions);
    let Some(program) = fe.valid_program().cloned() else {
        report(common.format, &fe.diags, Some(&src), Vec::new())?;
        return Ok(Err(exit_code(&fe.diags)));
    };
    Ok(Ok(Checked {
        src,
        reg,
        program,
        diags: fe.diags,
    }))
}

/// What runs the program: the interpreter, or the backend of `--target`;
/// a backend that runs native code runs in a plugin host process of its own.
fn executor(c: &Checked, on: &On) -> std::result::Result<Box<dyn Executor>, BuildError> {
    let Some(t) = &on.target else {
        return Ok(Box::new(Interpreter::new(c.reg.functions.clone())));
    };
    let (entry, mut backend) = c.reg.backend(t).map_err(BuildError::NoBackend)?;
    if backend.info().execute.is_some_and(|e| e.native) {
        let command = HostCommand::this_isu(on.timeout).map_err(|e| {
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
    let via = ViaBackend::new(backend, t, c.reg.functions.clone());
    Ok(Box::new(via.with_settings(on.settings.clone())))
}

/// The program loaded by what runs it, or the exit code of why not (after
/// reporting it).
fn load<'e>(
    c: &Checked,
    executor: std::result::Result<&'e dyn Executor, BuildError>,
    format: Format,
) -> Result<std::result::Result<Box<dyn Loaded + 'e>, i32>> {
    let loaded = executor.and_then(|e| e.load(&c.program));
    match loaded {
        Ok(l) => Ok(Ok(l)),
        Err(BuildError::Program(more)) => {
            let all = [c.diags.clone(), more].concat();
            report(format, &all, Some(&c.src), Vec::new())?;
            Ok(Err(exit_code(&all)))
        }
        Err(e) => {
            match format {
                Format::Json => print_json(&json!({
                    "ok": false,
                    "diagnostics": c.diags.iter().map(Diagnostic::to_json).collect::<Vec<_>>(),
                    "backend_error": e.to_string(),
                }))?,
                Format::Human => {
                    report(format, &c.diags, Some(&c.src), Vec::new())?;
                    eprintln!("error: {e}");
                }
            }
            Ok(Err(EXIT_PLUGIN))
        }
    }
}

fn backend_failed(failures: &[BackendFailure], format: Format) -> Result<i32> {
    match format {
        Format::Json => print_json(&json!({
            "ok": false,
            "diagnostics": [],
            "backend_error": failures.iter().map(BackendFailure::to_json).collect::<Vec<_>>(),
        }))?,
        Format::Human => {
            for f in failures {
                eprintln!("error: {f}");
            }
        }
    }
    Ok(EXIT_PLUGIN)
}

/// `isu run FILE --args JSON [--trace OUT] [--max-steps N] [--max-size N]
/// [--target T [--set NAME=VALUE]...]`.
pub fn run(
    common: &Common,
    args: &str,
    trace: Option<&PathBuf>,
    limits: &Limits,
    on: &On,
) -> Result<i32> {
    let c = match checked(common, on)? {
        Ok(c) => c,
        Err(code) => return Ok(code),
    };
    let args = match read_args(args)? {
        Ok(v) => v,
        Err(d) => {
            let diags = [c.diags.clone(), vec![d]].concat();
            report(common.format, &diags, Some(&c.src), Vec::new())?;
            return Ok(exit_code(&diags));
        }
    };
    let executor = executor(&c, on);
    let loaded = match load(&c, executor.as_deref().map_err(Clone::clone), common.format)? {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let mut trace_buf = Vec::new();
    let sink = trace.map(|_| &mut trace_buf as &mut dyn std::io::Write);
    let result = loaded.run(&args, &limits.exec_limits(), sink);
    if let Some(path) = trace {
        write_atomically(path, &String::from_utf8_lossy(&trace_buf))
            .with_context(|| format!("writing the trace {}", path.display()))?;
    }
    match result {
        Executed::Value { value, .. } => {
            let value = serde_json::to_value(&value).context("serializing the result")?;
            match common.format {
                Format::Human => {
                    super::output::human_diags(&c.diags, Some(&c.src));
                    print_json(&value)?;
                }
                Format::Json => {
                    report(Format::Json, &c.diags, Some(&c.src), vec![("value", value)])?
                }
            }
            Ok(0)
        }
        Executed::Error(d) => {
            let diags = [c.diags.clone(), vec![d]].concat();
            report(common.format, &diags, Some(&c.src), Vec::new())?;
            Ok(exit_code(&diags))
        }
        Executed::Failed(f) => backend_failed(&[f], common.format),
    }
}

/// `isu test FILE [--target T [--set NAME=VALUE]...]`: every IO example;
/// each one that does not hold is a TestFail.
pub fn test(common: &Common, limits: &Limits, on: &On) -> Result<i32> {
    let c = match checked(common, on)? {
        Ok(c) => c,
        Err(code) => return Ok(code),
    };
    let executor = executor(&c, on);
    let loaded = match load(&c, executor.as_deref().map_err(Clone::clone), common.format)? {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let name = on.target.as_deref().unwrap_or(executor::INTERPRETER);
    let (fails, failures) =
        executor::test_examples(loaded.as_ref(), name, &c.program, &limits.exec_limits());
    if !failures.is_empty() {
        return backend_failed(&failures, common.format);
    }
    let total = c.program.io.input.len();
    let failed = fails.len().min(total);
    let diags = [c.diags.clone(), fails].concat();
    let mut fields = vec![
        ("examples", Value::from(total)),
        ("passed", Value::from(total - failed)),
        ("failed", Value::from(failed)),
    ];
    if let Some(t) = &on.target {
        fields.insert(0, ("target", Value::from(t.as_str())));
    }
    report(common.format, &diags, Some(&c.src), fields)?;
    if common.format == Format::Human {
        let on = on
            .target
            .as_ref()
            .map_or(String::new(), |t| format!(" on {t}"));
        eprintln!(
            "{}{on}: {total} examples, {} passed, {failed} failed",
            c.src.name,
            total - failed
        );
    }
    Ok(exit_code(&diags))
}
