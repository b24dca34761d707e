//! The work budget (spec/semantics.md 7, "Work") on programs of strings,
//! maps and nested arrays, which the random programs of the differential
//! test do not build: each program in `tests/work/` runs under every budget
//! from 0 up (and a small size limit besides), by the reference interpreter
//! and by the Python backend, and every outcome (the value, or the error's
//! code and step) must agree. So each charge is checked where it falls and
//! against the errors around it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use isu_backend_python::PythonBackend;
use isu_host::conformance::{backend_report, prepare, Case, Options};
use isu_host::executor::ViaBackend;
use isu_host::functions::Functions;
use isu_plugin_api::Backend;
use std::path::Path;
use std::sync::Arc;

/// Budgets 0..BUDGETS; each program's runs need fewer.
const BUDGETS: u64 = 48;

#[test]
fn every_budget_stops_where_the_interpreter_stops() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/work");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "isu"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut cases = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        for max_size in [1_000, 6] {
            for steps in 0..BUDGETS {
                cases.push(Case {
                    name: format!("{stem}_steps{steps}_size{max_size}"),
                    path: file.clone(),
                    text: format!(
                        "; limits: max_steps={steps} max_size={max_size}\n; needs: limit_steps limit_size limit_work\n{text}"
                    ),
                });
            }
        }
    }
    let options = Options::default();
    let packs = Functions::default();
    let prepared = prepare(&cases, &packs, &options);
    let backend = Arc::new(PythonBackend);
    let features = backend.info().features;
    let executor = ViaBackend::new(backend, "python", packs);
    let report = backend_report(&prepared, &executor, &features, &options);
    eprintln!("{}", report.summary());
    let problems: Vec<String> = report.failures.iter().map(ToString::to_string).collect();
    assert!(
        problems.is_empty() && report.unsupported == 0,
        "{} difference(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
