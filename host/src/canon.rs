//! Canonicalization: step IDs by the canonical scheme, and the canonical text.

use crate::diag::Diagnostic;
use isu_plugin_api::Program;

/// Gives every step its canonical ID; reports missing IDs (without AUTO_ID),
/// malformed or repeated IDs, and renumbering (as a warning with the map).
pub fn canonicalize(program: &mut Program) -> Vec<Diagnostic> {
    let _ = program;
    Vec::new()
}

/// The canonical Isu text of a program.
pub fn print(program: &Program) -> String {
    let _ = program;
    String::new()
}
