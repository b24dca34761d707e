//! The golden traces: each program of `host/test_data/trace/*.isu` run by
//! the interpreter on its `; run:` lines (each giving what the line says),
//! the JSONL trace of all its runs in `*.jsonl` (rewritten by `ISU_BLESS=1`).

mod common;

use datatest_stable::Utf8Path;
use isu_host::cases::{self, Expect};
use isu_host::interp::{self, RunOptions};
use isu_host::{diag, pipeline, Source};

fn golden_trace(path: &Utf8Path, text: String) -> datatest_stable::Result<()> {
    let runs = cases::parse(&text)?.runs;
    let src = Source::new(path.as_str(), text.as_str());
    let fe = pipeline::check(&src);
    let Some(program) = fe.valid_program() else {
        let shown = diag::render(&fe.diags, Some(&src), false);
        return Err(format!("the program is not valid:\n{shown}").into());
    };
    let mut trace = Vec::new();
    for run in &runs {
        let got = interp::run(program, &run.args, &RunOptions::default(), Some(&mut trace));
        let ok = match (&run.expect, &got) {
            (Expect::Value(want), Ok(v)) => want == v,
            (Expect::Error { code, step }, Err(d)) => d.code == *code && d.step == *step,
            _ => false,
        };
        if !ok {
            return Err(format!("line {}: expected {}, got {got:?}", run.line, run.expect).into());
        }
    }
    let trace = String::from_utf8(trace)?;
    common::snapshot::check(path.with_extension("jsonl").as_std_path(), &trace)?;
    Ok(())
}

datatest_stable::harness! {
    { test = golden_trace, root = "test_data/trace", pattern = r"\.isu$" },
}
