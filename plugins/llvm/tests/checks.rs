//! The checks the lowering emits (before LLVM's optimizer, which may drop
//! more; `module::checks`) are those the conformance cases' `; checks:`
//! lines name: overflow and index checks are left out where the language's
//! value bounds (`isu_lang::analysis::bounds`) prove they cannot fire, and
//! kept everywhere else. The runs of those cases are the suite's.
#![cfg(isu_llvm)]

use isu_backend_llvm::module;
use isu_host::conformance::checks::verify;

#[test]
fn the_checks_are_those_the_cases_name() {
    let (differences, compared) = verify(|p| module::checks(p).map_err(|e| e.to_string()));
    assert!(
        compared >= 3,
        "only {compared} cases have `; checks:` lines"
    );
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
