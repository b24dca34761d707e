//! `isu fmt`, `isu parse`, `isu check`: the front end's commands.

use super::output::{read_source, report, write_atomically};
use super::{Common, Format, EXIT_NOT_CANONICAL};
use crate::diag::{exit_code, has_errors};
use crate::{canon, pipeline};
use anyhow::{Context, Result};
use serde_json::Value;

/// `isu fmt FILE [--check] [--write]`.
pub fn fmt(common: &Common, check: bool, write: bool) -> Result<i32> {
    let src = read_source(&common.file)?;
    let fe = pipeline::parse_canonical(&src);
    let Some(program) = fe.program.as_ref().filter(|_| !has_errors(&fe.diags)) else {
        report(common.format, &fe.diags, Some(&src), Vec::new())?;
        return Ok(exit_code(&fe.diags));
    };
    let text = canon::print_with(program, &fe.layout.comments);
    let canonical = text == src.text;
    if check && !canonical && common.format == Format::Human {
        eprintln!(
            "{} is not in canonical form; `isu fmt --write` rewrites it",
            src.name
        );
    }
    if write && !canonical {
        write_atomically(&common.file, &text)
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

/// `isu parse FILE`: the canonical IIR as JSON.
pub fn parse(common: &Common) -> Result<i32> {
    let src = read_source(&common.file)?;
    let fe = pipeline::parse_canonical(&src);
    let iir = match (&fe.program, has_errors(&fe.diags)) {
        (Some(p), false) => Some(serde_json::to_value(p).context("serializing IIR")?),
        _ => None,
    };
    match common.format {
        Format::Human => {
            report(Format::Human, &fe.diags, Some(&src), Vec::new())?;
            if let Some(iir) = &iir {
                super::output::print_json(iir)?;
            }
        }
        Format::Json => {
            let fields = iir.into_iter().map(|v| ("iir", v)).collect();
            report(Format::Json, &fe.diags, Some(&src), fields)?;
        }
    }
    Ok(exit_code(&fe.diags))
}

/// `isu check FILE`: every error of parsing, canonicalization and validation.
pub fn check(common: &Common) -> Result<i32> {
    let src = read_source(&common.file)?;
    let fe = pipeline::check(&src);
    report(common.format, &fe.diags, Some(&src), Vec::new())?;
    if common.format == Format::Human && !has_errors(&fe.diags) {
        eprintln!("{}: ok", src.name);
    }
    Ok(exit_code(&fe.diags))
}
