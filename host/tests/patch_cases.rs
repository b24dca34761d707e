//! Patch cases, as data: each folder of `test_data/patch/` holds
//!
//! - `program.isu`: a program (it may not validate, nor even parse: patches
//!   repair);
//! - `patch.isu`: a patch for it;
//! - either `expected.isu` (the patched text: canonical when it parses) and
//!   `expected.json` (`{"valid": .., "renumbered": {old: new},
//!   "diagnostics": [...]}`, every diagnostic of the patched text),
//! - or `expected_error.json`: every diagnostic of a refused patch (a target
//!   the program lacks, or a patch text that does not parse).
//!
//! `ISU_BLESS=1 cargo test -p isu_host --test patch_cases` rewrites the
//! expected files; review them as diffs.

mod common;

use common::snapshot;
use datatest_stable::Utf8Path;
use isu_host::diag::has_errors;
use isu_host::plugins::PackFunctions;
use isu_host::{canon, patch, pipeline, syntax, Diagnostic, Source};
use std::path::{Path, PathBuf};

/// What `expected.json` holds beside the patched text.
#[derive(serde::Serialize)]
struct Report<'a> {
    valid: bool,
    renumbered: serde_json::Value,
    diagnostics: &'a [Diagnostic],
}

fn pretty(value: &impl serde::Serialize) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}

/// Checks the files of an outcome and makes sure the other outcome's files
/// are absent (removing them when blessing).
fn expect(dir: &Path, present: &[(&str, String)], absent: &[&str]) -> Result<(), String> {
    for name in absent {
        let path = dir.join(name);
        if snapshot::blessing() {
            let _ = std::fs::remove_file(&path);
        } else if path.exists() {
            return Err(format!(
                "{} exists, but the case turned out otherwise:\n{}",
                path.display(),
                present
                    .iter()
                    .map(|(n, text)| format!("{n}:\n{text}"))
                    .collect::<String>()
            ));
        }
    }
    for (name, text) in present {
        snapshot::check(&dir.join(name), text)?;
    }
    Ok(())
}

fn refused(dir: &Path, diags: &[Diagnostic]) -> Result<(), String> {
    expect(
        dir,
        &[("expected_error.json", pretty(&diags))],
        &["expected.isu", "expected.json"],
    )
}

fn patch_case(path: &Utf8Path, program_text: String) -> datatest_stable::Result<()> {
    let dir: PathBuf = path
        .parent()
        .map(|p| p.as_std_path().to_owned())
        .unwrap_or_default();
    let src = Source::new("program.isu", program_text);
    let patch_src = Source::new("patch.isu", std::fs::read_to_string(dir.join("patch.isu"))?);
    let (patch_file, patch_diags) = syntax::parse_patch(&patch_src);
    let patch_file = match patch_file {
        Some(p) if !has_errors(&patch_diags) => p,
        _ => return Ok(refused(&dir, &patch_diags)?),
    };
    match patch::apply_to_source(&src, &patch_file, &PackFunctions::default()) {
        Ok(out) => {
            // A result that parses is canonical: formatting it changes nothing.
            let again = pipeline::parse_canonical(&Source::new("expected.isu", out.text.as_str()));
            if let Some(p) = &again.program {
                if canon::print_with(p, &again.layout.comments) != out.text {
                    return Err("the patched text is not canonical".into());
                }
            } else if out.program.is_some() {
                return Err("a patched program whose text does not parse".into());
            }
            let report = Report {
                valid: out.is_valid(),
                renumbered: out.renumbered_json(),
                diagnostics: &out.diags,
            };
            Ok(expect(
                &dir,
                &[
                    ("expected.isu", out.text.clone()),
                    ("expected.json", pretty(&report)),
                ],
                &["expected_error.json"],
            )?)
        }
        Err(diags) => {
            if !has_errors(&diags) {
                return Err(format!("refused without an error: {diags:?}").into());
            }
            Ok(refused(&dir, &diags)?)
        }
    }
}

datatest_stable::harness! {
    { test = patch_case, root = "test_data/patch", pattern = r"program\.isu$" },
}
