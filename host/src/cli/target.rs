//! `isu run --target T` and `isu test --target T`: the interpreter's
//! commands through a backend plugin, with the same output contract (a
//! value as JSON, or the runtime error object with exit 5; TestFails with
//! exit 6). A failure of the backend itself exits 8.

use super::output::{print_json, report};
use super::plugins::EXIT_PLUGIN;
use super::Format;
use crate::diag::{exit_code, Diagnostic};
use crate::plugins::target::{self, BackendFailure, BuildError, Executed};
use crate::plugins::{PluginKind, Registry};
use crate::source::Source;
use anyhow::{Context, Result};
use isu_plugin_api::{Artifact, ExecLimits, Literal, Program};
use serde_json::{json, Value};

/// The plugins for a command that runs a program: all of them when a target
/// is asked for (`needed`), else the packs only. A manifest that cannot be
/// used is a warning; the command goes on with the other layers.
pub fn registry(manifest: Option<&std::path::Path>, needed: bool) -> Registry {
    let kinds: &[PluginKind] = if needed {
        &[PluginKind::Backend, PluginKind::Pack]
    } else {
        &[PluginKind::Pack]
    };
    super::plugins::registry(manifest, kinds)
}

/// Compiles `program` for `target`, or reports why not (exit code in `Err`).
fn compile(
    reg: &Registry,
    program: &Program,
    target: &str,
    diags: &[Diagnostic],
    src: &Source,
    format: Format,
) -> Result<std::result::Result<Vec<Artifact>, i32>> {
    match target::build(reg, program, target, &[]) {
        Ok(a) => Ok(Ok(a)),
        Err(BuildError::Program(more)) => {
            let all = [diags.to_vec(), more].concat();
            report(format, &all, Some(src), Vec::new())?;
            Ok(Err(exit_code(&all)))
        }
        Err(e) => {
            match format {
                Format::Json => print_json(&json!({
                    "ok": false,
                    "diagnostics": diags.iter().map(Diagnostic::to_json).collect::<Vec<_>>(),
                    "backend_error": e.to_string(),
                }))?,
                Format::Human => {
                    report(format, diags, Some(src), Vec::new())?;
                    eprintln!("error: {e}");
                }
            }
            Ok(Err(EXIT_PLUGIN))
        }
    }
}

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

/// `isu run FILE --target T`: compile, execute once with `args`, report as
/// `isu run` does.
#[allow(clippy::too_many_arguments)]
pub fn run(
    reg: &Registry,
    target: &str,
    program: &Program,
    args: &Value,
    limits: &ExecLimits,
    diags: &[Diagnostic],
    src: &Source,
    format: Format,
) -> Result<i32> {
    let artifacts = match compile(reg, program, target, diags, src, format)? {
        Ok(a) => a,
        Err(code) => return Ok(code),
    };
    let (_, backend) = reg.backend(target).map_err(anyhow::Error::msg)?;
    let args: Literal = match serde_json::from_value(args.clone()) {
        Ok(a) => a,
        Err(e) => {
            let d = Diagnostic::error(
                crate::diag::Code::InvalidArgument,
                format!("the arguments are not Isu values: {e}"),
            );
            let all = [diags.to_vec(), vec![d]].concat();
            report(format, &all, Some(src), Vec::new())?;
            return Ok(exit_code(&all));
        }
    };
    match target::execute(backend.as_ref(), target, &artifacts, &args, limits) {
        Executed::Value(v) => {
            let value = serde_json::to_value(&v).context("serializing the result")?;
            match format {
                Format::Human => {
                    super::output::human_diags(diags, Some(src));
                    print_json(&value)?;
                }
                Format::Json => report(Format::Json, diags, Some(src), vec![("value", value)])?,
            }
            Ok(0)
        }
        Executed::Error(d) => {
            let all = [diags.to_vec(), vec![d]].concat();
            report(format, &all, Some(src), Vec::new())?;
            Ok(exit_code(&all))
        }
        Executed::Failed(f) => backend_failed(&f, format),
    }
}

/// `isu test FILE --target T`: every IO example through the backend.
pub fn test(
    reg: &Registry,
    target: &str,
    program: &Program,
    limits: &ExecLimits,
    diags: &[Diagnostic],
    src: &Source,
    format: Format,
) -> Result<i32> {
    let artifacts = match compile(reg, program, target, diags, src, format)? {
        Ok(a) => a,
        Err(code) => return Ok(code),
    };
    let (_, backend) = reg.backend(target).map_err(anyhow::Error::msg)?;
    let fails = match target::test_examples(backend.as_ref(), target, &artifacts, program, limits) {
        Ok(fails) => fails,
        Err(failure) => return backend_failed(&failure, format),
    };
    let total = program.io.input.len();
    let all = [diags.to_vec(), fails].concat();
    super::run::report_tests(format, &all, src, total, Some(target))
}
