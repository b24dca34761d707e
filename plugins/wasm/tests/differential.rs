//! Differential testing: random valid programs of the one generator, run by
//! the reference interpreter and by the backend on random arguments under
//! random limits (`isu_host::differential`, `isu fuzz`'s machinery); the
//! outcomes (value, or error code and step) must agree. The programs come
//! from a fixed seed, so a failure is reproducible; set `ISU_DIFF_PROGRAMS`
//! (and `ISU_DIFF_SEED`) for a longer run.
//!
//! The programs call the functions of the packs that ship with isu too,
//! linked in.

use isu_backend_wasm::WasmBackend;
use isu_host::differential::check;
use isu_host::functions::Functions;
use std::sync::Arc;

#[test]
fn random_programs_run_as_in_the_interpreter() {
    let table = Functions::linked(isu_packs::SHIPPED);
    match check(
        Arc::new(WasmBackend::new()),
        "wasm",
        &table,
        300,
        0x1505_2026_dead_beef,
    ) {
        Ok(r) => eprintln!("{}", r.summary()),
        Err(e) => panic!("{e}"),
    }
}
