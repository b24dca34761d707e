//! `isu patch FILE PATCHFILE [--write] [--allow-invalid]`: step-level edits
//! on any program that parses (and on steps whose own text does not),
//! re-validated.

use super::front::refuse_writing_stdin;
use super::output::{read_source, report};
use super::write::{write_file, Options as WriteOptions};
use super::{Common, Format};
use crate::diag::exit_code;
use crate::functions::Functions;
use crate::service;
use crate::source::Source;
use anyhow::{Context, Result};
use serde_json::Value;
use std::path::Path;

/// Applies the patch; prints the patched text (or writes it with `--write`),
/// the old → new map of renumbered steps and every diagnostic of the result.
/// `--write` writes only a result that validates, unless `allow_invalid`.
/// Any error leaves the file as it was.
pub fn patch(
    common: &Common,
    patch_file: &Path,
    write: bool,
    allow_invalid: bool,
    options: WriteOptions,
) -> Result<i32> {
    refuse_writing_stdin(&common.file, write)?;
    let src = read_source(&common.file)?;
    let patch_src = read_source(patch_file)?;
    let patched = match service::patch(&src, &patch_src, &Functions::default()) {
        Ok(p) => p,
        Err(errors) => {
            report(common.format, &errors, Some(&patch_src), Vec::new())?;
            return Ok(exit_code(&errors));
        }
    };
    let valid = patched.is_valid();
    let written = write && (valid || allow_invalid);
    if written {
        write_file(&common.file, patched.text.as_bytes(), options)
            .with_context(|| format!("rewriting {}", common.file.display()))?;
    }
    let out = Source::new(format!("{} (patched)", src.name), patched.text.as_str());
    match common.format {
        Format::Human => {
            super::output::human_diags(&patched.diags, Some(&out));
            for (old, new) in &patched.renumbered {
                eprintln!("renumbered {old} -> {new}");
            }
            if write && !written {
                eprintln!(
                    "{} was not rewritten: the patched program is not valid (--allow-invalid writes it anyway)",
                    src.name
                );
            }
            if !written {
                print!("{}", patched.text);
            }
        }
        Format::Json => report(
            Format::Json,
            &patched.diags,
            Some(&out),
            vec![
                ("text", Value::String(patched.text.clone())),
                ("renumbered", patched.renumbered_json()),
                ("written", Value::Bool(written)),
            ],
        )?,
    }
    Ok(exit_code(&patched.diags))
}
