//! Differential testing: random valid programs of the one generator, run by
//! the reference interpreter and by the Python backend on random arguments
//! under random limits (`isu_host::differential`, `isu fuzz`'s machinery);
//! the outcomes must agree. The programs call the functions of the packs
//! that ship with isu too, linked in. Set `ISU_DIFF_PROGRAMS` (and
//! `ISU_DIFF_SEED`) for a longer run.

use isu_backend_python::PythonBackend;
use isu_host::differential::check;
use isu_host::functions::Functions;
use std::sync::Arc;

#[test]
fn random_programs_run_as_in_the_interpreter() {
    let table = Functions::linked(isu_packs::SHIPPED);
    match check(
        Arc::new(PythonBackend),
        "python",
        &table,
        300,
        0x1505_2026_dead_beef,
    ) {
        Ok(r) => eprintln!("{}", r.summary()),
        Err(e) => panic!("{e}"),
    }
}
