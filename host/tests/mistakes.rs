//! The mistakes models make, as data: each `test_data/mistakes/NAME.isu`
//! holds one kind of mistake, and its leading comment lines say what the
//! front end must answer:
//!
//! - `; first: CODE LINE:COL hint: HINT`: the first diagnostic has this code,
//!   place and exact hint (the most specific error comes first);
//! - `; also: CODE LINE:COL hint: HINT`: some diagnostic has these;
//! - `; step: LINE:COL STEP`: the diagnostic at this place names this step;
//! - `; source_step: LINE:COL ID`: the diagnostic at this place shows this ID
//!   as the one written on its step (which canonicalization renumbered);
//! - `; accepted`: no error (the input is loose, the output strict);
//! - `; fixed: valid` or `; fixed: CODE CODE ...`: after `isu fix`, no error
//!   is left, or these codes are.
//!
//! Beside each, `NAME.diag.json` holds every diagnostic of `isu check` and
//! `NAME.fixed.isu` the text `isu fix` makes (golden files:
//! `ISU_BLESS=1 cargo test -p isu_host --test mistakes` rewrites them).

mod common;

use common::snapshot;
use datatest_stable::Utf8Path;
use isu_host::diag::has_errors;
use isu_host::plugins::PackFunctions;
use isu_host::{fix, pipeline, Diagnostic, Source};

fn sibling(path: &Utf8Path, suffix: &str) -> std::path::PathBuf {
    let stem = path.file_stem().unwrap_or_default();
    path.with_file_name(format!("{stem}{suffix}"))
        .into_std_path_buf()
}

/// `CODE LINE:COL hint: HINT` → its parts.
fn expectation(rest: &str) -> Result<(String, u32, u32, Option<String>), String> {
    let (head, hint) = match rest.split_once(" hint: ") {
        Some((h, hint)) => (h, Some(hint.to_owned())),
        None => (rest, None),
    };
    let mut parts = head.split_whitespace();
    let code = parts.next().ok_or("no code")?.to_owned();
    let place = parts.next().ok_or("no LINE:COL")?;
    let (line, col) = place.split_once(':').ok_or("no LINE:COL")?;
    let line = line.parse().map_err(|_| format!("bad line in {place}"))?;
    let col = col.parse().map_err(|_| format!("bad column in {place}"))?;
    Ok((code, line, col, hint))
}

fn at(d: &Diagnostic) -> (u32, u32) {
    d.span.map_or((0, 0), |s| (s.line, s.column))
}

fn matches(d: &Diagnostic, code: &str, line: u32, col: u32, hint: &Option<String>) -> bool {
    d.code.as_str() == code
        && at(d) == (line, col)
        && (hint.is_none() || d.hint.as_deref() == hint.as_deref())
}

fn describe(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| {
            let (l, c) = at(d);
            format!(
                "  {} {l}:{c} step {:?} hint: {}",
                d.code,
                d.step.as_ref().map(|s| s.as_str()),
                d.hint.as_deref().unwrap_or("-")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn pretty(value: &impl serde::Serialize) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}

fn mistake(path: &Utf8Path, text: String) -> datatest_stable::Result<()> {
    let src = Source::new(path.file_name().unwrap_or_default(), text.as_str());
    let fe = pipeline::check(&src);
    let diags = &fe.diags;
    let mut checked = 0;
    for line in text.lines().take_while(|l| l.starts_with(';')) {
        let directive = line.trim_start_matches(';').trim();
        if let Some(rest) = directive.strip_prefix("first: ") {
            let (code, l, c, hint) = expectation(rest)?;
            let first = diags.first().ok_or("no diagnostic at all")?;
            if !matches(first, &code, l, c, &hint) {
                return Err(
                    format!("the first diagnostic is not `{rest}`:\n{}", describe(diags)).into(),
                );
            }
        } else if let Some(rest) = directive.strip_prefix("also: ") {
            let (code, l, c, hint) = expectation(rest)?;
            if !diags.iter().any(|d| matches(d, &code, l, c, &hint)) {
                return Err(format!("no diagnostic `{rest}` among:\n{}", describe(diags)).into());
            }
        } else if let Some(rest) = directive.strip_prefix("step: ") {
            let (place, step) = rest.split_once(' ').ok_or("step: LINE:COL STEP")?;
            let (l, c) = place.split_once(':').ok_or("step: LINE:COL STEP")?;
            let want = (l.parse::<u32>()?, c.parse::<u32>()?);
            let found = diags
                .iter()
                .any(|d| at(d) == want && d.step.as_ref().is_some_and(|s| s.as_str() == step));
            if !found {
                return Err(format!(
                    "no diagnostic at {place} in step {step}:\n{}",
                    describe(diags)
                )
                .into());
            }
        } else if let Some(rest) = directive.strip_prefix("source_step: ") {
            let (place, written) = rest.split_once(' ').ok_or("source_step: LINE:COL ID")?;
            let (l, c) = place.split_once(':').ok_or("source_step: LINE:COL ID")?;
            let want = (l.parse::<u32>()?, c.parse::<u32>()?);
            let found = diags
                .iter()
                .any(|d| at(d) == want && d.source_step.as_deref() == Some(written));
            if !found {
                return Err(format!(
                    "no diagnostic at {place} written {written}:\n{}",
                    describe(diags)
                )
                .into());
            }
        } else if directive == "accepted" {
            if has_errors(diags) {
                return Err(format!("expected no error:\n{}", describe(diags)).into());
            }
        } else if let Some(rest) = directive.strip_prefix("fixed: ") {
            let fixed = fix::fix(&src, &PackFunctions::default());
            let left: Vec<&str> = fixed
                .front
                .diags
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.code.as_str())
                .collect();
            let want: Vec<&str> = if rest == "valid" {
                Vec::new()
            } else {
                rest.split_whitespace().collect()
            };
            if left != want {
                return Err(format!(
                    "after isu fix, expected {want:?} left, got:\n{}\n{}",
                    describe(&fixed.front.diags),
                    fixed.text
                )
                .into());
            }
            snapshot::check(&sibling(path, ".fixed.isu"), &fixed.text)?;
        } else {
            continue;
        }
        checked += 1;
    }
    if checked == 0 {
        return Err("the case states no expectation (`; first:`, `; accepted`, ...)".into());
    }
    Ok(snapshot::check(
        &sibling(path, ".diag.json"),
        &pretty(diags),
    )?)
}

datatest_stable::harness! {
    { test = mistake, root = "test_data/mistakes", pattern = r"^[^.]+\.isu$" },
}
