//! The conformance suite on the LLVM backend, in-process through its trait
//! (each case built to a native executable, run as a subprocess), by the one
//! runner (`isu_host::conformance`): every run of every case must give what
//! the reference interpreter gives (the value, or the error's code and step),
//! and the results must be exactly those of `conformance.toml`.
#![cfg(isu_llvm)]

use isu_backend_llvm::LlvmBackend;
use std::path::Path;
use std::sync::Arc;

#[test]
fn the_suite_runs_as_expected() {
    let expectations = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance.toml");
    let report = isu_host::conformance::check_backend(
        Arc::new(LlvmBackend::new()),
        "llvm",
        &expectations,
        &isu_host::functions::Functions::linked(isu_packs::SHIPPED),
    );
    match report {
        Ok(r) => eprintln!("{}", r.summary()),
        Err(e) => panic!("{e}"),
    }
}
