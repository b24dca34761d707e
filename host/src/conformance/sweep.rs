//! The budget sweep: programs run under every step budget from 0 up, and
//! under two size limits, and under every memory limit from 0 up, on a
//! backend and on the interpreter, whose outcomes (the value, or the
//! error's code and step) must agree. The conformance cases check each
//! limit at a few budgets; the sweep checks every charge of the work budget
//! and every store the memory limit checks (`spec/semantics.md` 7) where
//! it falls and against the errors around it, on programs of strings, maps,
//! nested arrays and structs that the random programs of the differential
//! test do not build. The programs are `conformance/sweep/*.isu`, in the
//! form of the cases; their run lines give the arguments, and only the
//! interpreter's outcome under each budget is the expectation (the results
//! written on the run lines are not read).

use super::suite::{run_in_process, verdict};
use super::{Case, Report};
use crate::functions::Functions;
use isu_plugin_api::{Backend, ExecLimits};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Budgets and memory limits `0..BUDGETS`: each program's runs need fewer.
pub const BUDGETS: u64 = 48;

/// The size limits each budget runs with: the default-sized one, and one
/// small enough that `size_limit` meets the charges.
pub const SIZES: [u64; 2] = [1_000, 6];

/// The features every backend the sweep runs on declares: the limits it
/// sweeps (each case's `; needs:` line).
const NEEDS: [&str; 4] = ["limit_steps", "limit_size", "limit_work", "limit_memory"];

/// The folder of the sweep's programs.
pub fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/sweep")
}

/// One case per program of `dir`, budget and size limit, named
/// `PROGRAM_stepsN_sizeM`, and one per memory limit, named `PROGRAM_memoryN`
/// (the default budget and size limit).
pub fn cases(dir: &Path) -> Result<Vec<Case>, String> {
    let read = |e: std::io::Error| format!("{}: {e}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(read)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(read)?;
    files.retain(|p| p.extension().is_some_and(|e| e == "isu"));
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no programs", dir.display()));
    }
    let mut cases = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut case = |name: String, limits: ExecLimits| {
            // One width for every number, so that every case of a program
            // has the same text but for the digits: its spans are the same,
            // and an executor builds it once (`ViaBackend`).
            let ExecLimits {
                max_steps,
                max_size,
                max_memory,
            } = limits;
            cases.push(Case {
                name,
                path: file.clone(),
                text: format!(
                    "; limits: max_steps={max_steps:020} max_size={max_size:020} max_memory={max_memory:020}\n; needs: {}\n{text}",
                    NEEDS.join(" ")
                ),
            });
        };
        for max_size in SIZES {
            for max_steps in 0..BUDGETS {
                let limits = ExecLimits {
                    max_steps,
                    max_size,
                    ..ExecLimits::DEFAULT
                };
                case(format!("{stem}_steps{max_steps}_size{max_size}"), limits);
            }
        }
        for max_memory in 0..BUDGETS {
            let limits = ExecLimits {
                max_memory,
                ..ExecLimits::DEFAULT
            };
            case(format!("{stem}_memory{max_memory}"), limits);
        }
    }
    Ok(cases)
}

/// Runs the sweep on `backend` serving `target`: `Err` lists every
/// outcome that differs from the interpreter's, and every case the backend
/// does not support, but for the programs that use a language feature the
/// backend does not declare (`struct`): those it does not run, and the
/// report counts them unsupported.
pub fn check_backend(
    backend: Arc<dyn Backend + Send + Sync>,
    target: &str,
) -> Result<Report, String> {
    let cases = cases(&programs_dir())?;
    let (_, report) = run_in_process(&cases, backend, target, &Functions::default());
    let mut problems: Vec<String> = report.failures.iter().map(ToString::to_string).collect();
    problems.extend(
        report
            .unsupported_cases
            .iter()
            .filter(|u| {
                u.features.is_empty() || u.features.iter().any(|f| NEEDS.contains(&f.as_str()))
            })
            .map(|u| format!("{}: unsupported: {}", u.case, u.reason)),
    );
    verdict(report, cases.len(), &problems, "the interpreter")
}
