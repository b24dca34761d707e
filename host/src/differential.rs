//! The differential test each backend runs: a short fixed-seed run of
//! [`crate::fuzz`] on the backend called in-process through its trait,
//! every program of the one generator (`isu_lang::build::RandomPrograms`)
//! run by the reference interpreter and by the backend, outcomes compared.
//! `ISU_DIFF_PROGRAMS` and `ISU_DIFF_SEED` make it a longer or another run.

use crate::functions::Functions;
use crate::fuzz::{self, Plan, Report, Shard, Target};
use isu_plugin_api::Backend;
use std::sync::Arc;

/// How many random programs a backend's test compares: `ISU_DIFF_PROGRAMS`
/// when set to a number, else `default`.
pub fn program_count(default: u64) -> u64 {
    env_number("ISU_DIFF_PROGRAMS").unwrap_or(default)
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}

/// Runs `count` programs (or `ISU_DIFF_PROGRAMS`) of `seed` (or
/// `ISU_DIFF_SEED`) with the pack functions of `table` on `backend` serving
/// `target`. `Err` when a program differs (with each difference's case file)
/// or when fewer than half of the programs were compared (the generator must
/// make valid programs the backend supports).
pub fn check(
    backend: Arc<dyn Backend + Send + Sync>,
    target: &str,
    table: &Functions,
    default: u64,
    seed: u64,
) -> Result<Report, String> {
    let count = program_count(default);
    let plan = Plan {
        seed: env_number("ISU_DIFF_SEED").unwrap_or(seed),
        count,
        shard: Shard::WHOLE,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        shrink_tries: 200,
        shrink_most: 20,
    };
    // A long run (more programs than the test's own) tells how far it is.
    let long = count > default;
    let mut told = 0;
    let report = fuzz::run(&plan, &[Target::new(target, backend)], table, &mut |r| {
        if long {
            for f in r.findings.iter().skip(told) {
                eprintln!(
                    "DIFF program {}: {} (interpreter {})\n{}",
                    f.index, f.got, f.expected, f.case
                );
            }
            told = r.findings.len();
            eprintln!("{}", r.summary().trim_end().replace('\n', "; "));
        }
    });
    let compared = report.targets.first().map_or(0, |t| t.compared);
    if !report.findings.is_empty() {
        let cases: Vec<String> = report
            .findings
            .iter()
            .map(|f| {
                format!(
                    "{}: {} (interpreter {})\n{}",
                    f.index, f.got, f.expected, f.case
                )
            })
            .collect();
        return Err(format!("{}{}", report.summary(), cases.join("\n")));
    }
    if compared * 2 < count {
        return Err(format!(
            "{}only {compared} of {count} random programs were compared",
            report.summary()
        ));
    }
    Ok(report)
}
