//! `isu run` and `isu test`: a program run by the reference interpreter, or
//! with `--target T` by the backend plugin of T, through one path
//! ([`crate::executor`]) and with one output contract: a value as JSON, or
//! the runtime error object with exit 5; TestFails with exit 6. A failure of
//! a backend itself exits 8.

use super::output::{print_json, read_source, report};
use super::plugins::EXIT_PLUGIN;
use super::write::{Options as WriteOptions, Output};
use super::{Common, Format};
use crate::diag::{exit_code, Diagnostic};
use crate::executor::{self, Executed, Executor, Loaded};
use crate::plugins::target::{BackendFailure, BuildError};
use crate::plugins::{PluginKind, Registry};
use crate::service;
use crate::source::Source;
use anyhow::{Context, Result};
use isu_plugin_api::{ExecLimits, Program, RuntimeCode, Settings};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The limits of a run, as flags.
#[derive(Debug, Clone, clap::Args)]
pub struct Limits {
    /// The fuel of a run: loop rounds, and the work of calls and copies on long
    /// values (spec/semantics.md 7), before it stops with `step_limit`.
    #[arg(long, default_value_t = ExecLimits::DEFAULT.max_steps)]
    pub max_steps: u64,
    /// Elements of a collection, or characters of a string, before `size_limit`.
    #[arg(long, default_value_t = ExecLimits::DEFAULT.max_size)]
    pub max_size: u64,
    /// The live size all variables of a run may hold together (characters,
    /// elements and entries, spec/semantics.md 7), before `memory_limit`.
    #[arg(long, default_value_t = ExecLimits::DEFAULT.max_memory)]
    pub max_memory: u64,
}

impl Limits {
    /// The limits of an execution, whatever runs it.
    pub fn exec_limits(&self) -> ExecLimits {
        ExecLimits {
            max_steps: self.max_steps,
            max_size: self.max_size,
            max_memory: self.max_memory,
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

/// Reads `--args`: JSON text, or `@FILE` for a file holding it. The text is
/// read as every JSON entering Isu is (`isu_plugin_api::json`): exact
/// 64-bit integers, no repeated key.
fn read_args(spec: &str) -> Result<std::result::Result<Value, Diagnostic>> {
    let (text, origin) = match spec.strip_prefix('@') {
        Some(path) => (
            std::fs::read_to_string(path).with_context(|| format!("reading --args file {path}"))?,
            path.to_owned(),
        ),
        None => (spec.to_owned(), "--args".to_owned()),
    };
    Ok(isu_plugin_api::json::parse(&text).map_err(|e| {
        Diagnostic::error(RuntimeCode::InvalidArgument, format!("{origin} is not Isu JSON: {e}"))
            .with_hint(r#"pass the arguments as one JSON object of Isu values (integers in the 64-bit range, no null, no key twice), e.g. --args '{"xs": [1, 2]}'"#)
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
/// used is a warning; the command goes on with the other layers.
pub fn registry(manifest: Option<&Path>, needed: bool) -> Registry {
    let kinds: &[PluginKind] = if needed {
        &[PluginKind::Backend, PluginKind::Pack]
    } else {
        &[PluginKind::Pack]
    };
    super::plugins::registry(manifest, kinds)
}

/// Reads and checks the program with the plugins it needs ([`registry`]).
/// The exit code in `Err` when it cannot run.
fn checked(common: &Common, on: &On) -> Result<std::result::Result<Checked, i32>> {
    let src = read_source(&common.file)?;
    let reg = registry(on.manifest.as_deref(), on.target.is_some());
    let valid = match service::valid(&src, &reg.functions) {
        Ok(v) => v,
        Err(diags) => {
            report(common.format, &diags, Some(&src), Vec::new())?;
            return Ok(Err(exit_code(&diags)));
        }
    };
    Ok(Ok(Checked {
        src,
        reg,
        program: valid.program,
        diags: valid.diags,
    }))
}

/// What runs the program: the interpreter, or the backend of `--target`
/// ([`executor::for_target`]).
fn executor(c: &Checked, on: &On) -> std::result::Result<Box<dyn Executor>, BuildError> {
    executor::for_target(&c.reg, on.target.as_deref(), &on.settings, on.timeout)
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

/// Reports the failure of a backend itself; exit 8.
fn backend_failed(failure: &BackendFailure, format: Format) -> Result<i32> {
    match format {
        Format::Json => print_json(&json!({
            "ok": false,
            "diagnostics": [],
            "backend_error": [failure.to_json()],
        }))?,
        Format::Human => eprintln!("error: {failure}"),
    }
    Ok(EXIT_PLUGIN)
}

/// `isu run FILE --args JSON [--trace OUT] [--max-steps N] [--max-size N]
/// [--target T [--set NAME=VALUE]...]`.
pub fn run(
    common: &Common,
    args: &str,
    trace: Option<(&Path, WriteOptions)>,
    limits: &Limits,
    on: &On,
) -> Result<i32> {
    if let Some((path, _)) = trace {
        super::write::refuse_dash(path)?;
    }
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
    // The trace goes to its file as the run makes it, and is flushed at the
    // end whether the run returned or failed.
    let mut trace_out = match trace {
        Some((path, options)) => Some(Output::create(
            path,
            WriteOptions {
                as_it_goes: true,
                ..options
            },
        )?),
        None => None,
    };
    let result = loaded.run(
        &args,
        &limits.exec_limits(),
        trace_out.as_mut().map(|o| o as &mut dyn std::io::Write),
    );
    if let (Some(out), Some((path, _))) = (trace_out, trace) {
        out.commit()
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
        Executed::Failed(f) => backend_failed(&f, common.format),
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
    let tested = match service::test(loaded.as_ref(), name, &c.program, &limits.exec_limits()) {
        Ok(tested) => tested,
        Err(failure) => return backend_failed(&failure, common.format),
    };
    report_tests(
        common.format,
        &c.diags,
        &tested,
        &c.src,
        on.target.as_deref(),
    )
}

/// Reports a test run: the check's warnings and the TestFails, how many
/// examples passed and failed, and its outcome (`passed`, `failed`, or
/// `no_examples` for a program whose IO has none). Returns the exit code:
/// that of the first error, else [`super::EXIT_NO_EXAMPLES`] when there was
/// nothing to run, else 0.
pub fn report_tests(
    format: Format,
    warnings: &[Diagnostic],
    tested: &service::Tested,
    src: &crate::source::Source,
    target: Option<&str>,
) -> Result<i32> {
    let diags = &[warnings, tested.fails.as_slice()].concat();
    let (total, failed, outcome) = (tested.examples, tested.failed(), tested.outcome());
    let mut fields = Vec::new();
    if let Some(t) = target {
        fields.push(("target", Value::from(t)));
    }
    fields.extend([
        ("outcome", Value::from(outcome)),
        ("examples", Value::from(total)),
        ("passed", Value::from(total - failed)),
        ("failed", Value::from(failed)),
    ]);
    report(format, diags, Some(src), fields)?;
    if format == Format::Human {
        let on = target.map_or(String::new(), |t| format!(" on {t}"));
        if total == 0 {
            eprintln!(
                "{}{on}: no examples: IO gives no INPUT and OUTPUT, so nothing was tested",
                src.name
            );
        } else {
            eprintln!(
                "{}{on}: {total} examples, {} passed, {failed} failed",
                src.name,
                total - failed
            );
        }
    }
    Ok(match exit_code(diags) {
        0 if total == 0 => super::EXIT_NO_EXAMPLES,
        code => code,
    })
}
