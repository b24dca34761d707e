//! The whole suite on one backend, as a backend's own tests run it: the
//! cases built into isu ([`builtin_cases`]), the interpreter as the oracle, the backend called
//! in-process through its trait, the results held against the backend's
//! checked-in expectation file.

use super::expect::Expectations;
use super::{
    backend_report, builtin_cases, interpreter_report, prepare, Case, Options, Prepared, Report,
};
use crate::executor::ViaBackend;
use crate::functions::Functions;
use isu_plugin_api::Backend;
use std::path::Path;
use std::sync::Arc;

/// Runs every built-in case on the interpreter and on `backend`
/// serving `target`, with the functions of `packs` (a case calling a pack
/// not among them is unsupported), and compares the backend's results with the
/// expectation file at `expectations` (its unsupported and known-failing
/// cases). With `ISU_BLESS=1` the file is rewritten from the results
/// instead. `Err` lists every difference (and every failure of the
/// interpreter), one a line.
pub fn check_backend(
    backend: Arc<dyn Backend + Send + Sync>,
    target: &str,
    expectations: &Path,
    packs: &Functions,
) -> Result<Report, String> {
    let cases = builtin_cases();
    let (prepared, report) = run_in_process(&cases, backend, target, packs);
    let mut problems: Vec<String> = interpreter_report(&prepared)
        .failures
        .iter()
        .map(|f| format!("[interpreter] {f}"))
        .collect();
    if std::env::var_os("ISU_BLESS").is_some_and(|v| v == "1") {
        let text = Expectations::of(&report).to_text(target);
        std::fs::write(expectations, text)
            .map_err(|e| format!("writing {}: {e}", expectations.display()))?;
    } else {
        let text = std::fs::read_to_string(expectations).map_err(|e| {
            format!(
                "reading {}: {e} (ISU_BLESS=1 writes it from the results)",
                expectations.display()
            )
        })?;
        let expected =
            Expectations::parse(&text).map_err(|e| format!("{}: {e}", expectations.display()))?;
        problems.extend(expected.differences(&report));
    }
    verdict(
        report,
        cases.len(),
        &problems,
        &expectations.display().to_string(),
    )
}

/// Prepares `cases` (the interpreter's outcomes) and runs them on `backend`
/// serving `target`, called in-process through its trait.
pub(super) fn run_in_process(
    cases: &[Case],
    backend: Arc<dyn Backend + Send + Sync>,
    target: &str,
    packs: &Functions,
) -> (Vec<Prepared>, Report) {
    let options = Options::default();
    let prepared = prepare(cases, packs, &options);
    let features = backend.info().features;
    let executor = ViaBackend::new(backend, target, packs.clone());
    let report = backend_report(&prepared, &executor, &features, &options);
    (prepared, report)
}

/// `Ok(report)` without `problems`, else one error listing them: the
/// differences of `cases` runs from `against`.
pub(super) fn verdict(
    report: Report,
    cases: usize,
    problems: &[String],
    against: &str,
) -> Result<Report, String> {
    if problems.is_empty() {
        Ok(report)
    } else {
        Err(format!(
            "{} ({cases} cases): {} difference(s) from {against}:\n{}",
            report.summary(),
            problems.len(),
            problems.join("\n")
        ))
    }
}
