//! Differential testing: random well-typed programs, heavy on int arithmetic
//! at the edges of 64 bits, array indexes and loops (where the backend leaves
//! out the checks the value bounds prove cannot fire), run by the reference
//! interpreter and by the backend on random arguments; the outcomes must
//! agree. The programs come from a fixed seed, so a failure is reproducible;
//! set `ISU_DIFF_PROGRAMS` for more of them.

use isu_backend_wasm::WasmBackend;
use isu_host::differential::{compare, program_count};

#[test]
fn random_programs_run_as_in_the_interpreter() {
    let count = program_count(150);
    let d = compare(&WasmBackend::new(), count, 0x1505_2026_dead_beef);
    eprintln!("{}", d.summary());
    if let Err(e) = d.verdict(count) {
        panic!("{e}");
    }
}
