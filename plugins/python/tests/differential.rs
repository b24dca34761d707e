//! Differential testing: random well-typed programs (`host/tests/gen/typed.rs`)
//! run by the reference interpreter and by the Python backend on random
//! arguments; the outcomes must agree. Set `ISU_DIFF_PROGRAMS` for more.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../../host/tests/gen/typed.rs"]
mod typed;

use isu_backend_python::PythonBackend;

#[test]
fn random_programs_run_as_in_the_interpreter() {
    let count = typed::program_count(40);
    let (failures, summary) =
        typed::differential(&PythonBackend, "python", count, 0x1505_2026_dead_beef);
    eprintln!("{summary}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
