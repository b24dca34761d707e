//! Differential testing: random well-typed programs (`isu_lang::build`), run
//! through `isu_host::differential` by the reference interpreter and by the
//! Python backend on random arguments; the outcomes must agree. Set
//! `ISU_DIFF_PROGRAMS` for more.

use isu_backend_python::PythonBackend;
use isu_host::differential::{compare, program_count};

#[test]
fn random_programs_run_as_in_the_interpreter() {
    let count = program_count(40);
    let d = compare(&PythonBackend, count, 0x1505_2026_dead_beef);
    eprintln!("{}", d.summary());
    if let Err(e) = d.verdict(count) {
        panic!("{e}");
    }
}
