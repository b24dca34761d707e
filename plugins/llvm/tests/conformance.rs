//! The conformance suite on the LLVM backend: every case of
//! `conformance/cases/*.isu` compiled, run as a native executable, and compared with
//! both the case's expectation and the reference interpreter (the value, or
//! the error code and step).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use isu_backend_llvm::LlvmBackend;
use isu_host::cases::{parse_runs, Expect};
use isu_host::interp::{self, RunOptions};
use isu_plugin_api::{Backend, ExecLimits, Literal};

/// What the interpreter says, in the form `show` writes.
fn interpreted(p: &isu_plugin_api::Program, args: &serde_json::Value, opts: &RunOptions) -> String {
    match interp::run(p, args, opts, None) {
        Ok(v) => v.to_string(),
        Err(d) => format!(
            "error {} at {}",
            d.code.as_str(),
            d.step
                .as_ref()
                .map(|s| s.to_string())
                .unwrap_or_else(|| "-".into())
        ),
    }
}

#[test]
fn every_conformance_case_agrees_with_the_interpreter() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../conformance/cases");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "isu"));
    files.sort();
    assert!(!files.is_empty(), "no cases in {dir}");
    let backend = LlvmBackend::new();
    let opts = RunOptions::default();
    let limits = ExecLimits {
        max_steps: opts.max_steps,
        max_size: opts.max_size as u64,
    };
    let mut failures = Vec::new();
    let mut runs_total = 0;
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(file).unwrap();
        let runs = parse_runs(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let p = program(&text);
        let arts = match backend.compile(&p, &Default::default()) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{name}: compile failed: {e:?}"));
                continue;
            }
        };
        for r in &runs {
            runs_total += 1;
            let args: Literal = serde_json::from_value(r.args.clone()).unwrap();
            let got = show(backend.execute(&arts, &args, &limits));
            let want = match &r.expect {
                Expect::Value(v) => v.to_string(),
                e => e.to_string(),
            };
            let oracle = interpreted(&p, &r.args, &opts);
            if got != want || got != oracle {
                failures.push(format!(
                    "{name}:{}: llvm gave {got}; the case expects {want}; the interpreter gives {oracle}",
                    r.line
                ));
            }
        }
    }
    println!(
        "conformance on llvm: {} of {runs_total} runs in {} cases agree",
        runs_total - failures.len(),
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
