//! A text as the front end sees it: every diagnostic (`isu check`), the
//! canonical text (`isu fmt`), every certain fix applied (`isu fix`), a
//! patch applied (`isu patch`).

use crate::diag::{has_errors, Diagnostic};
use crate::fix::{self as fixes, Fixed};
use crate::functions::Functions;
use crate::patch::{self as patcher, Patched};
use crate::pipeline::{self, FrontEnd};
use crate::source::Source;
use crate::{canon, syntax};

/// Every diagnostic of parsing, canonicalization and validation, with the
/// functions of `packs` callable.
pub fn check(src: &Source, packs: &Functions) -> FrontEnd {
    pipeline::check_with(src, packs)
}

/// What formatting a text gives.
#[derive(Debug, Clone)]
pub struct Formatted {
    /// The front end's view of the text, without validation: a program that
    /// parses formats whether or not it is valid.
    pub front: FrontEnd,
    /// The canonical text, comments kept where they stood; `None` when the
    /// text does not parse (its errors are in `front`).
    pub text: Option<String>,
}

impl Formatted {
    /// Whether `src` is already in canonical form.
    pub fn is_canonical(&self, src: &Source) -> bool {
        self.text.as_deref() == Some(src.text.as_str())
    }
}

/// The canonical text of `src`, as `isu fmt` prints it.
pub fn format(src: &Source) -> Formatted {
    let front = pipeline::parse_canonical(src);
    let text = front
        .program
        .as_ref()
        .filter(|_| !has_errors(&front.diags))
        .map(|p| canon::print_with(p, &front.layout.comments));
    Formatted { front, text }
}

/// Every machine-applicable fix of `src`, round after round, as `isu fix`
/// applies them; what is left is in the result's `front`.
pub fn fix(src: &Source, packs: &Functions) -> Fixed {
    fixes::fix(src, packs)
}

/// Applies the patch file `patch` to `src`, as `isu patch` does: on the IIR
/// when the program parses, on its text when a step's own text does not;
/// the result re-validated. `Err` holds every error that stops the patch
/// (it does not parse, or names a step that is not there), with spans in
/// the patch's text; nothing is applied then.
pub fn patch(src: &Source, patch: &Source, packs: &Functions) -> Result<Patched, Vec<Diagnostic>> {
    let (parsed, diags) = syntax::parse_patch(patch);
    let Some(parsed) = parsed.filter(|_| !has_errors(&diags)) else {
        return Err(diags);
    };
    patcher::apply_to_source(src, &parsed, packs)
}
