//! The front end as one call: parse, canonicalize, validate.

use crate::diag::{has_errors, Diagnostic};
use crate::plugins::PackFunctions;
use crate::source::Source;
use crate::syntax::Layout;
use crate::{canon, fix, syntax, validate};
use isu_plugin_api::Program;

/// What the front end made of one source text.
#[derive(Debug, Clone)]
pub struct FrontEnd {
    /// The canonical program, when the text parsed. It is typed (every
    /// expression's `ty` set) when `diags` holds no error.
    pub program: Option<Program>,
    /// Every error and warning, in the order the phases found them.
    pub diags: Vec<Diagnostic>,
    /// What the text says beyond the IIR: its comments and where things stand.
    pub layout: Layout,
}

impl FrontEnd {
    /// The program, if it parsed and no phase reported an error.
    pub fn valid_program(&self) -> Option<&Program> {
        if has_errors(&self.diags) {
            None
        } else {
            self.program.as_ref()
        }
    }
}

/// Parses and canonicalizes `src`, without validating: what `isu parse` and
/// `isu fmt` need.
pub fn parse_canonical(src: &Source) -> FrontEnd {
    let parsed = syntax::parse(src);
    let mut diags = parsed.diags;
    let program = parsed.program.map(|mut p| {
        let from = diags.len();
        diags.extend(canon::canonicalize(&mut p));
        fix::attach(&mut diags[from..], &p, &parsed.layout, &src.text);
        p
    });
    FrontEnd {
        program,
        diags,
        layout: parsed.layout,
    }
}

/// Parses, canonicalizes and validates `src`. Validation runs only when parsing
/// and canonicalization found no error, so every error it reports is real.
pub fn check(src: &Source) -> FrontEnd {
    check_with(src, &PackFunctions::default())
}

/// [`check`], where calls may also name the functions of loaded packs.
pub fn check_with(src: &Source, packs: &PackFunctions) -> FrontEnd {
    let mut fe = parse_canonical(src);
    if !has_errors(&fe.diags) {
        if let Some(p) = fe.program.as_mut() {
            let from = fe.diags.len();
            fe.diags.extend(validate::validate_with(p, packs));
            fix::attach(&mut fe.diags[from..], p, &fe.layout, &src.text);
        }
    }
    fe
}
