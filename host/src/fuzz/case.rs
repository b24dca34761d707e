//! A difference as a ready conformance case file (conformance/README.md):
//! a comment saying where it came from, one `; run:` line with what the
//! interpreter gives, the `; limits:` of the run, the `; needs:` of the
//! limits the run reaches, and the program in canonical text.

use super::shrink::Shrunk;
use crate::cases;
use crate::conformance::{Outcome, PreparedRuns};
use isu_plugin_api::{ExecLimits, Program};

/// The line of a case file's first `; run:` (after the comment saying where
/// the case came from).
pub const FIRST_RUN_LINE: usize = 2;

/// Where a difference was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub seed: u64,
    pub index: u64,
    pub target: String,
}

/// The case file of a shrunk difference.
pub fn text(origin: &Origin, s: &Shrunk) -> String {
    write(
        origin,
        &s.program,
        &[(s.args.to_string(), s.expected.clone())],
        s.limits,
        &s.got,
    )
}

/// The case file of run `run` of a program that was not shrunk, with every
/// run of it.
pub fn text_unshrunk(origin: &Origin, body: &PreparedRuns, run: usize) -> String {
    let runs: Vec<(String, Outcome)> = body
        .runs
        .iter()
        .zip(&body.oracle)
        .map(|(r, o)| (r.args.to_string(), o.clone()))
        .collect();
    let got = runs.get(run).map_or(String::new(), |(_, o)| o.to_string());
    write(origin, &body.program, &runs, body.limits, &got)
}

fn write(
    origin: &Origin,
    program: &Program,
    runs: &[(String, Outcome)],
    limits: ExecLimits,
    got: &str,
) -> String {
    let got: String = one_line(got);
    let comment = format!(
        "Found by `isu fuzz --seed {}` (program {}): {} gives {got}.",
        origin.seed, origin.index, origin.target
    );
    cases::text(&comment, program, runs, limits)
}

/// `text` on one line of at most 300 characters.
fn one_line(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(300) {
        Some((cut, _)) => format!("{}…", &flat[..cut]),
        None => flat,
    }
}
