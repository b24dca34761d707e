//! The conformance suite on the toy backend, in-process through its trait,
//! by the one runner (`isu_host::conformance`): the cases it supports give
//! what the reference interpreter gives, and the results are exactly those
//! of `conformance.toml` (the cases it does not support, nothing failing).

use isu_backend_toy::ToyBackend;
use std::path::Path;
use std::sync::Arc;

#[test]
fn the_suite_runs_as_expected() {
    let expectations = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance.toml");
    match isu_host::conformance::check_backend(
        Arc::new(ToyBackend),
        "toy",
        &expectations,
        &isu_host::functions::Functions::default(),
    ) {
        Ok(r) => eprintln!("{}", r.summary()),
        Err(e) => panic!("{e}"),
    }
}
