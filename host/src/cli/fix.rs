//! `isu fix FILE [--write]`: every machine-applicable fix, to a fixed point.

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

/// Applies every certain fix, round after round; prints the fixed text (or
/// writes it with `--write`) and reports what is left, against that text.
pub fn fix(common: &Common, write: bool, options: WriteOptions) -> Result<i32> {
    refuse_writing_stdin(&common.file, write)?;
    let src = read_source(&common.file)?;
    let fixed = service::fix(&src, &Functions::default());
    let changed = fixed.text != src.text;
    if write && changed {
        write_file(&common.file, fixed.text.as_bytes(), options)
            .with_context(|| format!("rewriting {}", common.file.display()))?;
    }
    let out = Source::new(src.name.clone(), fixed.text.as_str());
    let diags = &fixed.front.diags;
    match common.format {
        Format::Human => {
            super::output::human_diags(diags, Some(&out));
            eprintln!(
                "{}: {} fixes applied in {} rounds, {} diagnostics left",
                src.name,
                fixed.applied.len(),
                fixed.rounds,
                diags.len()
            );
            if !write {
                print!("{}", fixed.text);
            }
        }
        Format::Json => {
            report(
                Format::Json,
                diags,
                Some(&out),
                vec![
                    ("text", Value::String(fixed.text.clone())),
                    ("changed", Value::Bool(changed)),
                    ("rounds", Value::from(fixed.rounds)),
                    ("applied", fixed.applied_json()),
                ],
            )?;
        }
    }
    Ok(exit_code(diags))
}
