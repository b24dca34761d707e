//! Differential testing: random well-typed programs (`isu_lang::build`)
//! compiled to native executables and run on random arguments, against the
//! reference interpreter (`isu_host::differential`); the outcomes (value, or
//! error code and step) must agree. A short fixed-seed run here; set
//! `ISU_DIFF_PROGRAMS` (and `ISU_DIFF_SEED`) for a long one.

use isu_backend_llvm::LlvmBackend;
use isu_host::differential::{compare, program_count};

#[test]
fn random_programs_run_as_in_the_interpreter() {
    let count = program_count(40);
    let seed = std::env::var("ISU_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x1505_2026_11ee_0014);
    let d = compare(&LlvmBackend::new(), count, seed);
    eprintln!("{}", d.summary());
    if let Err(e) = d.verdict(count) {
        panic!("{e}");
    }
}
