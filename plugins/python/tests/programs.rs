//! The backend's own programs (tests/programs/*.isu, in the case format of
//! conformance/): each compiles, and each run gives what its `; run:` line
//! says.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use isu_backend_python::PythonBackend;
use isu_host::pipeline;
use isu_host::Source;
use isu_plugin_api::{Backend, CompileOptions, ExecLimits, Literal};
use std::path::Path;

/// A budget of loop rounds far above what any of these programs needs, and
/// low enough that one that runs out does so quickly.
const LIMITS: ExecLimits = ExecLimits {
    max_steps: 1_000_000,
    max_size: 10_000_000,
};

/// `(args, expected)` of every `; run: ARGS => EXPECTED` line.
fn runs(text: &str) -> Vec<(Literal, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("; run:") else {
            continue;
        };
        let (args, expected) = rest.split_once("=>").expect("ARGS => EXPECTED");
        let args: Literal = serde_json::from_str(args.trim()).expect("args");
        let expected = expected.trim();
        let expected = if expected.starts_with("error ") {
            expected.to_owned()
        } else {
            serde_json::from_str::<Literal>(expected)
                .expect("value")
                .to_string()
        };
        out.push((args, expected));
    }
    out
}

#[test]
fn every_program_gives_its_expected_results() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let extra = std::env::var("ISU_EXTRA_CASES").ok();
    let mut files: Vec<_> = std::iter::once(dir)
        .chain(extra.map(Into::into))
        .flat_map(|d: std::path::PathBuf| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "isu"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let fe = pipeline::check(&Source::new(name.clone(), text.clone()));
        let Some(program) = fe.valid_program() else {
            failures.push(format!("{name}: does not check: {:?}", fe.diags));
            continue;
        };
        let artifacts = match PythonBackend.compile(program, &CompileOptions::default()) {
            Ok(a) => a,
            Err(d) => {
                failures.push(format!("{name}: does not compile: {d:?}"));
                continue;
            }
        };
        for (args, expected) in runs(&text) {
            count += 1;
            let got = match PythonBackend.execute(&artifacts, &args, &LIMITS) {
                Ok(v) => v.to_string(),
                Err(d) => format!(
                    "error {} at {}{}",
                    d.code,
                    d.step.as_deref().unwrap_or("-"),
                    if d.kind == "RuntimeError" {
                        String::new()
                    } else {
                        format!(" ({})", d.message)
                    }
                ),
            };
            if got != expected {
                failures.push(format!("{name} {args}: expected {expected}, got {got}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{count} runs:\n{}",
        failures.join("\n")
    );
}
