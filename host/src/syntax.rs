//! Isu text to IIR: the lexer, the lalrpop grammar and the lowering of
//! S-expressions. Owned by the parser work; this is the contract other phases use.

use crate::diag::Diagnostic;
use crate::source::Source;
use isu_plugin_api::Program;

/// The result of parsing one file: the program (when the text had the shape of
/// one) and every diagnostic found.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub program: Option<Program>,
    pub diags: Vec<Diagnostic>,
}

/// Parses a whole Isu file into IIR (not yet canonical: steps may lack IDs).
pub fn parse(src: &Source) -> Parsed {
    let _ = src;
    Parsed {
        program: None,
        diags: Vec::new(),
    }
}
