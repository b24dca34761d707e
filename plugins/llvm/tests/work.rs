//! The budget sweep (`isu_host::conformance::sweep`): every program of
//! `conformance/sweep/` under every small step budget and two size limits,
//! on the LLVM backend and the interpreter, with the same outcomes.
#![cfg(isu_llvm)]

use isu_backend_llvm::LlvmBackend;
use isu_host::conformance::sweep;
use std::sync::Arc;

#[test]
fn every_budget_stops_where_the_interpreter_stops() {
    match sweep::check_backend(Arc::new(LlvmBackend::new()), "llvm") {
        Ok(report) => eprintln!("{}", report.summary()),
        Err(e) => panic!("{e}"),
    }
}
