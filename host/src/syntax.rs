//! Isu text to IIR: the lexer, the lalrpop grammar and the lowering of
//! S-expressions.
//!
//! The front end runs in four passes, each reporting what it finds and none
//! stopping at the first error:
//! 1. [`lexer`]: bytes to tokens (positions with line and column);
//! 2. [`structure`]: BEGIN/END and brackets matched on one stack, so that an
//!    unclosed block is reported as such, with where it was opened;
//! 3. the grammar (`syntax/grammar.lalrpop`): tokens to the raw tree of
//!    [`cst`]; after a grammar error the step holding it is set aside and the
//!    rest parsed again, so one mistake does not hide the next;
//! 4. [`assemble`] and [`lower`]: section and field order, types, literals,
//!    expressions, places and iterators, to IIR.

mod assemble;
mod cst;
mod errors;
mod lexer;
mod lower;
mod structure;
mod token;

lalrpop_util::lalrpop_mod!(
    // Generated code: lalrpop's driver unwraps its own state stack.
    #[allow(
        missing_debug_implementations,
        unused_qualifications,
        clippy::all,
        clippy::pedantic,
        clippy::unwrap_used,
        clippy::expect_used
    )]
    grammar,
    "/syntax/grammar.rs"
);

use crate::diag::{has_errors, Diagnostic};
use crate::source::Source;
use isu_plugin_api::{Program, Span, Step, StepId};
use lalrpop_util::ParseError;
use std::convert::Infallible;
use token::{Pos, Spanned, Tok};

pub use lower::OPERATORS;
pub use structure::MAX_NESTING;
pub use token::{Kw, KEYWORDS};

/// The result of parsing one file: the program (when the text had the shape of
/// one) and every diagnostic found.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The program; `Some` exactly when `diags` holds no error.
    pub program: Option<Program>,
    /// Every error, ordered by position in the text.
    pub diags: Vec<Diagnostic>,
}

/// A patch file: `PATCH:` and its entries, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchFile {
    pub entries: Vec<PatchEntry>,
}

/// One edit of a patch file. (A patch holds a handful of entries, so the size
/// of `Replace` next to `Delete` does not matter.)
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum PatchEntry {
    /// `REPLACE S2_1:` and exactly one step (with or without an ID).
    Replace {
        target: StepId,
        step: Step,
        span: Span,
    },
    /// `INSERT_AFTER S2:` and one or more steps.
    InsertAfter {
        target: StepId,
        steps: Vec<Step>,
        span: Span,
    },
    /// `DELETE S3`.
    Delete { target: StepId, span: Span },
}

impl PatchEntry {
    /// The step the entry edits.
    pub fn target(&self) -> &StepId {
        match self {
            PatchEntry::Replace { target, .. }
            | PatchEntry::InsertAfter { target, .. }
            | PatchEntry::Delete { target, .. } => target,
        }
    }

    pub fn span(&self) -> Span {
        match self {
            PatchEntry::Replace { span, .. }
            | PatchEntry::InsertAfter { span, .. }
            | PatchEntry::Delete { span, .. } => *span,
        }
    }
}

/// Parses a whole Isu file into IIR (not yet canonical: steps may lack IDs).
pub fn parse(src: &Source) -> Parsed {
    let mut diags = Vec::new();
    let program = front(&src.text, Goal::File, &mut diags).and_then(|(tree, end, _)| match tree {
        Tree::File(file) => assemble::program(&src.text, file, end, &mut diags),
        Tree::Patch(_) => None,
    });
    let program = program.filter(|_| !has_errors(&diags));
    sort(&mut diags);
    Parsed { program, diags }
}

/// Parses a patch file: `PATCH:` then `REPLACE S2_1:` with one step,
/// `INSERT_AFTER S2:` with one or more, `DELETE S3`. The file is `Some`
/// exactly when the diagnostics hold no error.
pub fn parse_patch(src: &Source) -> (Option<PatchFile>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let patch =
        front(&src.text, Goal::Patch, &mut diags).and_then(|(tree, _, recovered)| match tree {
            Tree::Patch(p) => assemble::patch(&src.text, p, recovered, &mut diags),
            Tree::File(_) => None,
        });
    let patch = patch.filter(|_| !has_errors(&diags));
    sort(&mut diags);
    (patch, diags)
}

/// What the grammar is asked to parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Goal {
    File,
    Patch,
}

enum Tree {
    File(cst::File),
    Patch(cst::Patch),
}

/// After this many grammar errors the parser stops looking for more.
const MAX_GRAMMAR_ERRORS: usize = 12;

/// Lexes, checks the structure and runs the grammar, recovering at the step
/// level. Returns the tree, the end position, and whether steps were set aside.
fn front(text: &str, goal: Goal, diags: &mut Vec<Diagnostic>) -> Option<(Tree, Pos, bool)> {
    let lexed = lexer::lex(text);
    let toks = lexed.tokens;
    let end = lexed.end;
    let lex_spots: Vec<u32> = lexed
        .diags
        .iter()
        .filter_map(|d| d.span.map(|s| s.start))
        .collect();
    diags.extend(lexed.diags);

    let balance = structure::check(text, &toks, end);
    diags.extend(balance.diags);
    if balance.too_deep {
        return None;
    }

    // Token ranges set aside after grammar errors, sorted and disjoint.
    let mut removed: Vec<(usize, usize)> = Vec::new();
    let mut errors = 0;
    loop {
        let failure = match run(goal, &toks, &removed) {
            Ok(tree) => return Some((tree, end, !removed.is_empty())),
            Err(e) => e,
        };
        let live = live_indices(toks.len(), &removed);
        let (at, found, expected) = match failure {
            ParseError::UnrecognizedToken { token, expected } => {
                (token_index(&toks, token.0), Some(token), expected)
            }
            ParseError::ExtraToken { token } => {
                (token_index(&toks, token.0), Some(token), Vec::new())
            }
            ParseError::UnrecognizedEof { expected, .. } => (toks.len(), None, expected),
            ParseError::InvalidToken { .. } | ParseError::User { .. } => {
                (toks.len(), None, Vec::new())
            }
        };
        let k = live.partition_point(|&i| i < at);
        let before = [
            k.checked_sub(1).map(|j| toks[live[j]].1),
            k.checked_sub(2).map(|j| toks[live[j]].1),
            k.checked_sub(3).map(|j| toks[live[j]].1),
        ];
        let cx = structure::context_at(&toks, &live, at);
        let failure = errors::Failure {
            found,
            end,
            expected,
            before,
        };
        let d = errors::describe(goal, &failure, &cx);
        let here = found.map_or(end.off, |t| t.0.off);
        let after_prev = k.checked_sub(1).map_or(0, |j| toks[live[j]].2.off);
        // A lexical error just before this spot (a dropped character) already
        // explains it; a structure error explains everything after it.
        let explained = lex_spots.iter().any(|&s| s >= after_prev && s <= here)
            || balance.broken_from.is_some_and(|b| here >= b);
        if !explained {
            diags.push(d);
        }
        errors += 1;
        if balance.broken_from.is_some() || errors >= MAX_GRAMMAR_ERRORS {
            return None;
        }
        // Set the innermost step around the error aside and try again; inside
        // a block but in no step (a header gone wrong), the tokens from the
        // error to the next step.
        let (lo, hi) = match cx.innermost_step() {
            Some(step) => structure::step_extent(&toks, &live, step.header),
            None if cx.stack.last().is_some_and(|f| f.block) && at < toks.len() => {
                let from = match k.checked_sub(1).map(|j| (live[j], toks[live[j]].1)) {
                    Some((j, Tok::StepId(_))) => j,
                    Some((j, Tok::Kw(kw))) if kw.is_step_kind() => j,
                    _ => at,
                };
                structure::fragment_extent(&toks, &live, from)
            }
            None => return None,
        };
        insert_range(&mut removed, lo, hi.max(lo + 1));
    }
}

fn run<'a>(
    goal: Goal,
    toks: &[Spanned<'a>],
    removed: &[(usize, usize)],
) -> Result<Tree, ParseError<Pos, Tok<'a>, Infallible>> {
    let mut next_gap = 0;
    let iter = toks.iter().enumerate().filter_map(move |(i, t)| {
        while next_gap < removed.len() && removed[next_gap].1 <= i {
            next_gap += 1;
        }
        match removed.get(next_gap) {
            Some(&(lo, _)) if lo <= i => None,
            _ => Some(Ok::<_, Infallible>(*t)),
        }
    });
    match goal {
        Goal::File => grammar::FileParser::new().parse(iter).map(Tree::File),
        Goal::Patch => grammar::PatchParser::new().parse(iter).map(Tree::Patch),
    }
}

/// The index of the token starting at `pos`.
fn token_index(toks: &[Spanned<'_>], pos: Pos) -> usize {
    toks.partition_point(|t| t.0.off < pos.off)
}

/// The indices of the tokens not set aside.
fn live_indices(n: usize, removed: &[(usize, usize)]) -> Vec<usize> {
    let mut out = Vec::with_capacity(n);
    let mut gaps = removed.iter().peekable();
    let mut i = 0;
    while i < n {
        match gaps.peek() {
            Some(&&(lo, hi)) if lo <= i => {
                i = i.max(hi);
                gaps.next();
            }
            _ => {
                out.push(i);
                i += 1;
            }
        }
    }
    out
}

/// Adds `lo..hi` to a sorted list of disjoint ranges, merging overlaps.
fn insert_range(ranges: &mut Vec<(usize, usize)>, lo: usize, hi: usize) {
    ranges.push((lo, hi));
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for &(l, h) in ranges.iter() {
        match merged.last_mut() {
            Some(last) if l <= last.1 => last.1 = last.1.max(h),
            _ => merged.push((l, h)),
        }
    }
    *ranges = merged;
}

/// Orders diagnostics by where they point (stable, so one spot keeps the
/// order the passes found its errors in).
fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by_key(|d| d.span.map_or(u32::MAX, |s| s.start));
}

#[cfg(test)]
mod tests;
