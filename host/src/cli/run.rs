//! `isu run` and `isu test`: the reference interpreter from the command line.

use super::output::{read_source, report, write_atomically};
use super::{Common, Format};
use crate::diag::{exit_code, Code, Diagnostic};
use crate::interp::{self, RunOptions};
use crate::pipeline;
use anyhow::{Context, Result};
use serde_json::Value;
use std::path::PathBuf;

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
    pub fn options(&self) -> RunOptions {
        RunOptions {
            max_steps: self.max_steps,
            max_size: self.max_size,
        }
    }
    /// The same limits for a backend plugin.
    pub fn exec_limits(&self) -> isu_plugin_api::ExecLimits {
        isu_plugin_api::ExecLimits {
            max_steps: self.max_steps,
            max_size: self.max_size as u64,
        }
    }
}

/// Where a program runs: the interpreter, or with `--target` the backend
/// plugin of that target; and the `--plugins` manifest flag.
#[derive(Debug, Clone, Default)]
pub struct On {
    pub target: Option<String>,
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

/// `isu run FILE --args JSON [--trace OUT] [--max-steps N] [--max-size N]`.
pub fn run(
    common: &Common,
    args: &str,
    trace: Option<&PathBuf>,
    limits: &Limits,
    on: &On,
) -> Result<i32> {
    let src = read_source(&common.file)?;
    let reg = super::target::registry(on.manifest.as_deref(), on.target.is_some());
    let fe = pipeline::check_with(&src, &reg.functions);
    let Some(program) = fe.valid_program() else {
        report(common.format, &fe.diags, Some(&src), Vec::new())?;
        return Ok(exit_code(&fe.diags));
    };
    let args = match read_args(args)? {
        Ok(v) => v,
        Err(d) => {
            let diags = [fe.diags.clone(), vec![d]].concat();
            report(common.format, &diags, Some(&src), Vec::new())?;
            return Ok(exit_code(&diags));
        }
    };
    if let Some(t) = &on.target {
        let exec = limits.exec_limits();
        return super::target::run(
            &reg,
            t,
            program,
            &args,
            &exec,
            &fe.diags,
            &src,
            common.format,
        );
    }
    let mut trace_buf = Vec::new();
    let result = interp::run_with(
        program,
        &args,
        &limits.options(),
        trace.map(|_| &mut trace_buf as &mut dyn std::io::Write),
        &reg.functions,
    );
    if let Some(path) = trace {
        write_atomically(path, &String::from_utf8_lossy(&trace_buf))
            .with_context(|| format!("writing the trace {}", path.display()))?;
    }
    match result {
        Ok(value) => {
            let value = serde_json::to_value(&value).context("serializing the result")?;
            match common.format {
                Format::Human => {
                    super::output::human_diags(&fe.diags, Some(&src));
                    super::output::print_json(&value)?;
                }
                Format::Json => {
                    report(Format::Json, &fe.diags, Some(&src), vec![("value", value)])?
                }
            }
            Ok(0)
        }
        Err(d) => {
            let diags = [fe.diags.clone(), vec![d]].concat();
            report(common.format, &diags, Some(&src), Vec::new())?;
            Ok(exit_code(&diags))
        }
    }
}

/// `isu test FILE`: every IO example; each one that does not hold is a TestFail.
pub fn test(common: &Common, limits: &Limits, on: &On) -> Result<i32> {
    let src = read_source(&common.file)?;
    let reg = super::target::registry(on.manifest.as_deref(), on.target.is_some());
    let fe = pipeline::check_with(&src, &reg.functions);
    let Some(program) = fe.valid_program() else {
        report(common.format, &fe.diags, Some(&src), Vec::new())?;
        return Ok(exit_code(&fe.diags));
    };
    if let Some(t) = &on.target {
        let exec = limits.exec_limits();
        return super::target::test(&reg, t, program, &exec, &fe.diags, &src, common.format);
    }
    let fails = interp::test_examples_with(program, &limits.options(), &reg.functions);
    let total = program.io.input.len();
    let failed = fails.len().min(total);
    let diags = [fe.diags.clone(), fails].concat();
    let fields = vec![
        ("examples", Value::from(total)),
        ("passed", Value::from(total - failed)),
        ("failed", Value::from(failed)),
    ];
    report(common.format, &diags, Some(&src), fields)?;
    if common.format == Format::Human {
        eprintln!(
            "{}: {total} examples, {} passed, {failed} failed",
            src.name,
            total - failed
        );
    }
    Ok(exit_code(&diags))
}
