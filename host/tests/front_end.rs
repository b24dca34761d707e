//! The front end's golden tests, as data.
//!
//! - `test_data/ok/NAME.isu`: parses and validates without error. Checked
//!   against `NAME.canon.isu` (the canonical text), `NAME.iir.json` (the
//!   canonical IIR, which must also satisfy `spec/iir.schema.json`) and, when
//!   the front end warns, `NAME.diag.json`. The canonical text is a fixed point
//!   of `fmt` and parses to the same IIR.
//! - `test_data/err/NAME.isu`: fails. Checked against `NAME.diag.json`, every
//!   diagnostic of `pipeline::check` as JSON.
//!
//! `ISU_BLESS=1 cargo test -p isu_host --test front_end` rewrites the golden files.

mod common;

use common::snapshot;
use datatest_stable::Utf8Path;
use isu_host::diag::has_errors;
use isu_host::{canon, pipeline, Source};
use std::path::Path;
use std::sync::OnceLock;

fn sibling(path: &Utf8Path, suffix: &str) -> std::path::PathBuf {
    let stem = path.file_stem().unwrap_or_default();
    path.with_file_name(format!("{stem}{suffix}"))
        .into_std_path_buf()
}

fn diags_json(diags: &[isu_host::Diagnostic]) -> String {
    let mut s = serde_json::to_string_pretty(diags).unwrap_or_default();
    s.push('\n');
    s
}

fn schema() -> &'static jsonschema::Validator {
    static SCHEMA: OnceLock<jsonschema::Validator> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/iir.schema.json"),
        )
        .unwrap_or_default();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        match jsonschema::validator_for(&value) {
            Ok(v) => v,
            Err(e) => panic!("spec/iir.schema.json is not a valid schema: {e}"),
        }
    })
}

/// Checks IIR JSON against `spec/iir.schema.json`, listing every violation.
pub fn check_schema(iir: &serde_json::Value) -> Result<(), String> {
    let errors: Vec<String> = schema()
        .iter_errors(iir)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "IIR violates spec/iir.schema.json:\n{}",
            errors.join("\n")
        ))
    }
}

fn ok_case(path: &Utf8Path, text: String) -> datatest_stable::Result<()> {
    let src = Source::new(path.as_str(), text);
    let fe = pipeline::check(&src);
    if has_errors(&fe.diags) {
        return Err(format!(
            "expected no errors, got:\n{}",
            isu_host::diag::render(&fe.diags, Some(&src), false)
        )
        .into());
    }
    let Some(program) = fe.program.as_ref() else {
        return Err("no program and no error".into());
    };
    // The canonical text, and that it is a fixed point.
    let canonical = canon::print(program);
    snapshot::check(&sibling(path, ".canon.isu"), &canonical)?;
    let again = pipeline::parse_canonical(&Source::new("canonical", canonical.clone()));
    let Some(reparsed) = again.program.as_ref().filter(|_| !has_errors(&again.diags)) else {
        return Err("the canonical text does not parse".into());
    };
    let reprinted = canon::print(reparsed);
    if reprinted != canonical {
        return Err(format!(
            "fmt is not a fixed point:\n{}",
            snapshot::line_diff(&canonical, &reprinted)
        )
        .into());
    }
    // The IIR of parse (untyped), its schema, and determinism.
    let parsed = pipeline::parse_canonical(&src);
    check_schema(&serde_json::to_value(&parsed.program)?)?;
    let mut iir_text = serde_json::to_string_pretty(&parsed.program)?;
    iir_text.push('\n');
    let twice = serde_json::to_string_pretty(&pipeline::parse_canonical(&src).program)?;
    if twice + "\n" != iir_text {
        return Err("parsing twice gave different IIR".into());
    }
    snapshot::check(&sibling(path, ".iir.json"), &iir_text)?;
    // The validated (typed) IIR satisfies the schema too.
    check_schema(&serde_json::to_value(program)?)?;
    let diag_path = sibling(path, ".diag.json");
    if fe.diags.is_empty() {
        if diag_path.exists() && !snapshot::blessing() {
            return Err(format!(
                "{} exists but the front end reports nothing",
                diag_path.display()
            )
            .into());
        }
        if snapshot::blessing() {
            let _ = std::fs::remove_file(&diag_path);
        }
        Ok(())
    } else {
        Ok(snapshot::check(&diag_path, &diags_json(&fe.diags))?)
    }
}

fn err_case(path: &Utf8Path, text: String) -> datatest_stable::Result<()> {
    let src = Source::new(path.file_name().unwrap_or_default(), text);
    let fe = pipeline::check(&src);
    if !has_errors(&fe.diags) {
        return Err("expected at least one error, got none".into());
    }
    // Human rendering never fails and names every code.
    let human = isu_host::diag::render(&fe.diags, Some(&src), false);
    for d in &fe.diags {
        if !human.contains(d.code.as_str()) {
            return Err(format!("rendering lost code {}", d.code).into());
        }
    }
    Ok(snapshot::check(
        &sibling(path, ".diag.json"),
        &diags_json(&fe.diags),
    )?)
}

datatest_stable::harness! {
    { test = ok_case, root = "test_data/ok", pattern = r"^[^.]+\.isu$" },
    { test = err_case, root = "test_data/err", pattern = r"^[^.]+\.isu$" },
}
