//! The `; checks:` lines of the cases: for a backend that leaves out the
//! checks the value bounds prove cannot fire, the checks it emits must be
//! exactly those the cases name, step by step. Each such backend's
//! `tests/checks.rs` counts its own checks and calls [`verify`].

use super::{builtin_cases, Case};
use crate::cases;
use crate::functions::Functions;
use crate::pipeline;
use crate::source::Source;
use isu_plugin_api::{Program, RuntimeCode};
use std::collections::BTreeMap;

/// A backend's checks of a program: how many of each runtime error it
/// emits in each step (by step ID, `-` outside the steps).
pub type Checks = BTreeMap<(RuntimeCode, String), usize>;

/// Every difference between the checks `count` finds in the built-in cases
/// with `; checks:` lines and what those lines say, one line each, with the
/// case's name; and how many cases were compared.
pub fn verify(count: impl Fn(&Program) -> Result<Checks, String>) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut compared = 0;
    for case in builtin_cases() {
        match differences(&case, &count) {
            Ok(None) => {}
            Ok(Some(d)) => {
                compared += 1;
                out.extend(d.into_iter().map(|d| format!("{}: {d}", case.name)));
            }
            Err(e) => out.push(format!("{}: {e}", case.name)),
        }
    }
    (out, compared)
}

/// The differences of one case; `None` when it has no `; checks:` line.
fn differences(
    case: &Case,
    count: &impl Fn(&Program) -> Result<Checks, String>,
) -> Result<Option<Vec<String>>, String> {
    let file = cases::parse(&case.text).map_err(|e| format!("bad case directive: {e}"))?;
    if file.checks.is_empty() {
        return Ok(None);
    }
    let src = Source::new(case.path.display().to_string(), case.text.as_str());
    let fe = pipeline::check_with(&src, &Functions::default());
    let program = fe
        .valid_program()
        .ok_or_else(|| "the case is not a valid program".to_owned())?;
    Ok(Some(file.checks_differ(&count(program)?)))
}
