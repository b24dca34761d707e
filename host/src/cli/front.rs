//! `isu fmt`, `isu parse`, `isu check`: the front end's commands.

use super::output::{json_report_with, print_json, read_source, report};
use super::write::{write_file, Options as WriteOptions};
use super::{Common, Failure, Format, EXIT_NOT_CANONICAL};
use crate::diag::{exit_code, has_errors};
use crate::functions::Functions;
use crate::{pipeline, service};
use anyhow::{Context, Result};
use serde_json::Value;
use std::path::Path;

/// Refuses `--write` of standard input, before anything is read.
pub fn refuse_writing_stdin(file: &Path, write: bool) -> Result<()> {
    if write && file.as_os_str() == "-" {
        return Err(Failure::usage(
            "--write rewrites the file it reads, and standard input (`-`) is not a file",
            "name the file to rewrite, or drop --write to print the result",
        )
        .into());
    }
    Ok(())
}

/// `isu fmt FILE [--check] [--write [--force]]`.
pub fn fmt(common: &Common, check: bool, write: bool, options: WriteOptions) -> Result<i32> {
    refuse_writing_stdin(&common.file, write)?;
    let src = read_source(&common.file)?;
    let formatted = service::format(&src);
    let fe = &formatted.front;
    let Some(text) = formatted.text.clone() else {
        report(common.format, &fe.diags, Some(&src), Vec::new())?;
        return Ok(exit_code(&fe.diags));
    };
    let canonical = formatted.is_canonical(&src);
    if check && !canonical && common.format == Format::Human {
        eprintln!(
            "{} is not in canonical form; `isu fmt --write` rewrites it",
            src.name
        );
    }
    if write && !canonical {
        write_file(&common.file, text.as_bytes(), options)
            .with_context(|| format!("rewriting {}", common.file.display()))?;
    }
    let fields = vec![
        ("canonical", Value::Bool(canonical)),
        ("text", Value::String(text.clone())),
    ];
    report(common.format, &fe.diags, Some(&src), fields)?;
    if common.format == Format::Human && !check && !write {
        print!("{text}");
    }
    Ok(if check && !canonical {
        EXIT_NOT_CANONICAL
    } else {
        0
    })
}

/// `isu parse FILE`: the canonical IIR as JSON, written as it is serialized.
pub fn parse(common: &Common) -> Result<i32> {
    let src = read_source(&common.file)?;
    let fe = pipeline::parse_canonical(&src);
    let iir = fe.program.as_ref().filter(|_| !has_errors(&fe.diags));
    match common.format {
        Format::Human => {
            report(Format::Human, &fe.diags, Some(&src), Vec::new())?;
            if let Some(iir) = iir {
                print_json(iir)?;
            }
        }
        Format::Json => json_report_with(&fe.diags, Vec::new(), iir.map(|p| ("iir", p)))?,
    }
    let code = exit_code(&fe.diags);
    left_to_the_exit(src, fe);
    Ok(code)
}

/// `isu check FILE`: every error of parsing, canonicalization and validation.
pub fn check(common: &Common) -> Result<i32> {
    let src = read_source(&common.file)?;
    let fe = service::check(&src, &Functions::default());
    report(common.format, &fe.diags, Some(&src), Vec::new())?;
    if common.format == Format::Human && !has_errors(&fe.diags) {
        eprintln!("{}: ok", src.name);
    }
    let code = exit_code(&fe.diags);
    left_to_the_exit(src, fe);
    Ok(code)
}

/// Leaves a program and its text for the process's exit to free: the
/// command is done with them, and taking a large program apart piece by
/// piece costs a tenth of the command's time for nothing.
fn left_to_the_exit(src: crate::source::Source, fe: pipeline::FrontEnd) {
    std::mem::forget(src);
    std::mem::forget(fe);
}
