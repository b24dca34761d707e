//! The conformance cases (`conformance/cases/*.isu`) through the whole
//! pipeline (parse, canonicalize, validate, interpret), each run checked
//! against its `; run:` line; and the golden traces
//! (`host/test_data/trace/*.isu`, each run's JSONL trace in `*.jsonl`,
//! rewritten by `ISU_BLESS=1`).

mod common;

use datatest_stable::Utf8Path;
use isu_host::cases::{self, Expect};
use isu_host::interp::{self, RunOptions};
use isu_host::{diag, pipeline, Diagnostic, Source};
use isu_plugin_api::{Literal, Program};

fn front_end(path: &Utf8Path, text: &str) -> datatest_stable::Result<Program> {
    let src = Source::new(path.as_str(), text);
    let fe = pipeline::check(&src);
    match fe.valid_program() {
        Some(p) => Ok(p.clone()),
        None => Err(format!(
            "the case is not a valid program:\n{}",
            diag::render(&fe.diags, Some(&src), false)
        )
        .into()),
    }
}

/// Whether a run gave what its line expects: the value, or the error code
/// in the step.
fn outcome_matches(expect: &Expect, got: &Result<Literal, Diagnostic>) -> bool {
    match (expect, got) {
        (Expect::Value(want), Ok(v)) => want == v,
        (Expect::Error { code, step }, Err(d)) => d.code == *code && d.step == *step,
        _ => false,
    }
}

fn run_case(path: &Utf8Path, text: String) -> datatest_stable::Result<()> {
    let runs = cases::parse_runs(&text)?;
    let program = front_end(path, &text)?;
    let opts = RunOptions::default();
    let mut failures = Vec::new();
    for run in &runs {
        let got = interp::run(&program, &run.args, &opts, None);
        if !outcome_matches(&run.expect, &got) {
            let got = match got {
                Ok(v) => v.to_string(),
                Err(d) => d.to_json().to_string(),
            };
            failures.push(format!(
                "line {}: {} => {}\n  got {got}",
                run.line, run.args, run.expect
            ));
        }
    }
    for d in interp::test_examples(&program, &opts) {
        failures.push(format!("IO example failed: {}", d.to_json()));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

fn golden_trace(path: &Utf8Path, text: String) -> datatest_stable::Result<()> {
    let runs = cases::parse_runs(&text)?;
    let program = front_end(path, &text)?;
    let mut trace = Vec::new();
    for run in &runs {
        let got = interp::run(
            &program,
            &run.args,
            &RunOptions::default(),
            Some(&mut trace),
        );
        if !outcome_matches(&run.expect, &got) {
            return Err(format!("line {}: expected {}, got {got:?}", run.line, run.expect).into());
        }
    }
    let trace = String::from_utf8(trace)?;
    common::snapshot::check(path.with_extension("jsonl").as_std_path(), &trace)?;
    Ok(())
}

datatest_stable::harness! {
    { test = run_case, root = "../conformance/cases", pattern = r"\.isu$" },
    { test = golden_trace, root = "test_data/trace", pattern = r"\.isu$" },
}
