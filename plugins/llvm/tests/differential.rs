//! Differential testing: random valid programs of the one generator,
//! compiled to native executables and run on random arguments under random
//! limits, against the reference interpreter (`isu_host::differential`,
//! `isu fuzz`'s machinery); the outcomes (value, or error code and step)
//! must agree. A short fixed-seed run here; set `ISU_DIFF_PROGRAMS` (and
//! `ISU_DIFF_SEED`) for a long one.
//!
//! The programs call the functions of the packs that ship with isu too,
//! linked in.
#![cfg(isu_llvm)]

use isu_backend_llvm::LlvmBackend;
use isu_host::differential::check;
use isu_host::functions::Functions;
use std::sync::Arc;

#[test]
fn random_programs_run_as_in_the_interpreter() {
    let table = Functions::linked(isu_packs::SHIPPED);
    match check(
        Arc::new(LlvmBackend::new()),
        "llvm",
        &table,
        200,
        0x1505_2026_11ee_0014,
    ) {
        Ok(r) => eprintln!("{}", r.summary()),
        Err(e) => panic!("{e}"),
    }
}
