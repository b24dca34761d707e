//! `isu patch FILE PATCHFILE [--write]`: step-level edits, re-validated.

use super::front::refuse_writing_stdin;
use super::output::{read_source, report};
use super::write::{write_file, Options as WriteOptions};
use super::{Common, Format};
use crate::diag::{exit_code, has_errors};
use crate::{patch, pipeline, syntax};
use anyhow::{Context, Result};
use serde_json::Value;
use std::path::Path;

/// Applies the patch; prints the canonical text (or writes it with `--write`)
/// and the old → new map of renumbered steps. Any error leaves the file as it was.
pub fn patch(
    common: &Common,
    patch_file: &Path,
    write: bool,
    options: WriteOptions,
) -> Result<i32> {
    refuse_writing_stdin(&common.file, write)?;
    let src = read_source(&common.file)?;
    let fe = pipeline::check(&src);
    let Some(program) = fe.valid_program() else {
        report(common.format, &fe.diags, Some(&src), Vec::new())?;
        return Ok(exit_code(&fe.diags));
    };
    let patch_src = read_source(patch_file)?;
    let (parsed, diags) = syntax::parse_patch(&patch_src);
    let Some(parsed) = parsed.filter(|_| !has_errors(&diags)) else {
        report(common.format, &diags, Some(&patch_src), Vec::new())?;
        return Ok(exit_code(&diags));
    };
    let patched = match patch::apply(program, &parsed) {
        Ok(p) => p,
        Err(errors) => {
            report(common.format, &errors, None, Vec::new())?;
            return Ok(exit_code(&errors));
        }
    };
    if write {
        write_file(&common.file, patched.text.as_bytes(), options)
            .with_context(|| format!("rewriting {}", common.file.display()))?;
    }
    let renumbered = patched.renumbered_json();
    match common.format {
        Format::Human => {
            super::output::human_diags(&patched.warnings, None);
            for (old, new) in &patched.renumbered {
                eprintln!("renumbered {old} -> {new}");
            }
            if !write {
                print!("{}", patched.text);
            }
        }
        Format::Json => report(
            Format::Json,
            &patched.warnings,
            None,
            vec![
                ("text", Value::String(patched.text.clone())),
                ("renumbered", renumbered),
            ],
        )?,
    }
    Ok(0)
}
