//! `isu run` and `isu test`: the reference interpreter from the command line.

use super::output::{read_source, report};
use super::write::{Options as WriteOptions, Output};
use super::{Common, Format};
use crate::diag::{exit_code, Code, Diagnostic};
use crate::interp::{self, RunOptions};
use crate::pipeline;
use anyhow::{Context, Result};
use isu_plugin_api::ExecLimits;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The limits of a run, as flags.
#[derive(Debug, Clone, clap::Args)]
pub struct Limits {
    /// Loop rounds a run may make before it stops with `step_limit` at that LOOP.
    #[arg(long, default_value_t = ExecLimits::DEFAULT.max_steps)]
    pub max_steps: u64,
    /// Elements of a collection, or characters of a string, before `size_limit`.
    #[arg(long, default_value_t = ExecLimits::DEFAULT.max_size)]
    pub max_size: u64,
}

impl Limits {
    pub fn options(&self) -> RunOptions {
        RunOptions::from(self.exec_limits())
    }
    /// The same limits for a backend plugin.
    pub fn exec_limits(&self) -> ExecLimits {
        ExecLimits {
            max_steps: self.max_steps,
            max_size: self.max_size,
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
        Diagnostic::error(Code::InvalidArgument, format!("{origin} is not Isu JSON: {e}"))
            .with_hint(r#"pass the arguments as one JSON object of Isu values (integers in the 64-bit range, no null, no key twice), e.g. --args '{"xs": [1, 2]}'"#)
    }))
}

/// `isu run FILE --args JSON [--trace OUT] [--max-steps N] [--max-size N]`.
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
    let result = interp::run_with(
        program,
        &args,
        &limits.options(),
        trace_out.as_mut().map(|o| o as &mut dyn std::io::Write),
        &reg.functions,
    );
    if let (Some(out), Some((path, _))) = (trace_out, trace) {
        out.commit()
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
    let diags = [fe.diags.clone(), fails].concat();
    report_tests(common.format, &diags, &src, total, None)
}

/// Reports a test run: the diagnostics, how many of the `total` examples
/// passed and failed, and its outcome (`passed`, `failed`, or `no_examples`
/// for a program whose IO has none). Returns the exit code: that of the
/// first error, else [`super::EXIT_NO_EXAMPLES`] when there was nothing to
/// run, else 0.
pub fn report_tests(
    format: Format,
    diags: &[Diagnostic],
    src: &crate::source::Source,
    total: usize,
    target: Option<&str>,
) -> Result<i32> {
    let failed = diags
        .iter()
        .filter(|d| d.kind == crate::diag::Kind::TestFail && d.is_error())
        .count()
        .min(total);
    let outcome = match (total, failed) {
        (0, _) => "no_examples",
        (_, 0) if !crate::diag::has_errors(diags) => "passed",
        _ => "failed",
    };
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
