//! Differential testing: random well-typed programs (`host/tests/gen/typed.rs`)
//! compiled to native executables and run on random arguments, against the
//! reference interpreter; the outcomes (value, or error code and step) must
//! agree. A short fixed-seed run here; set `ISU_DIFF_PROGRAMS` (and
//! `ISU_DIFF_SEED`) for a long one.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../../host/tests/gen/typed.rs"]
mod typed;

use isu_backend_llvm::LlvmBackend;

#[test]
fn random_programs_run_as_in_the_interpreter() {
    let count = typed::program_count(40);
    let seed = std::env::var("ISU_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x1505_2026_11ee_0014);
    let (failures, summary) = typed::differential(&LlvmBackend::new(), "llvm", count, seed);
    eprintln!("{summary}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
