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
mod closers;
mod cst;
mod cursor;
mod errors;
mod layout;
mod lexer;
mod lower;
mod outline;
mod repair;
mod rewrite;
mod structure;
mod token;
pub mod vocab;

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

pub use cursor::{cursor, declared, Cursor, DeclKind, Declared, Lexeme, Slot, Word};
pub use layout::{header_text, Anchor, Comments, Layout};
pub use outline::OutlineStep;
pub use token::Kw;

use crate::diag::{has_errors, Code, Diagnostic};
use crate::source::Source;
use isu_plugin_api::{Decl, Program, Span, StateVar, Step, StepId, StructDef};
use lalrpop_util::ParseError;
use std::convert::Infallible;
use token::{Pos, Spanned, Tok};

pub use structure::MAX_NESTING;
pub use vocab::{KEYWORDS, OPERATORS};

/// The result of parsing one file: the program (when the text had the shape of
/// one), every diagnostic found, and what the text says beyond the IIR.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The program; `Some` exactly when `diags` holds no error.
    pub program: Option<Program>,
    /// Every error, ordered by position in the text (an error inside the span
    /// of another comes first: the more specific one).
    pub diags: Vec<Diagnostic>,
    /// The comments, the headers as written, where declarations go.
    pub layout: Layout,
}

/// A patch file: `PATCH:` and its entries, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchFile {
    pub entries: Vec<PatchEntry>,
}

/// One edit of a patch file: what it does, to what, with what.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchEntry {
    pub op: PatchOp,
    pub target: PatchTarget,
    pub items: PatchItems,
    pub span: Span,
}

/// The operation of a patch entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchOp {
    /// `REPLACE S2:` and exactly one step; `REPLACE STATE t:` and exactly one entry.
    Replace,
    /// `INSERT_AFTER S2:` and steps; `INSERT_AFTER LOCAL x:` and entries.
    InsertAfter,
    /// `INSERT_BEFORE S2:` and steps; `INSERT_BEFORE STATE t:` and entries.
    InsertBefore,
    /// `INSERT_INTO S2 THEN:` (`S2:` for a SEQ or LOOP, `STEPS:` for the
    /// root) and steps, first in the block; `INSERT_INTO STATE:` and
    /// entries, first in the section.
    InsertInto,
    /// `DELETE S2`, `DELETE STATE t`.
    Delete,
}

impl PatchOp {
    pub fn keyword(self) -> Kw {
        match self {
            PatchOp::Replace => Kw::Replace,
            PatchOp::InsertAfter => Kw::InsertAfter,
            PatchOp::InsertBefore => Kw::InsertBefore,
            PatchOp::InsertInto => Kw::InsertInto,
            PatchOp::Delete => Kw::Delete,
        }
    }
}

/// What a patch entry names, by the program it was written against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchTarget {
    /// A step, by ID.
    Step(StepId),
    /// A block of a step (`S2 THEN`; `S2` alone for a SEQ's or LOOP's one block).
    Block(StepId, Option<Kw>),
    /// The root block (`STEPS`).
    Root,
    /// An entry of STATE, LOCAL or TYPES, by name.
    Declaration(Kw, String),
    /// The STATE, LOCAL or TYPES section as a whole.
    Section(Kw),
}

impl std::fmt::Display for PatchTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PatchTarget::Step(id) | PatchTarget::Block(id, None) => write!(f, "{id}"),
            PatchTarget::Block(id, Some(kw)) => write!(f, "{id} {}", kw.as_str()),
            PatchTarget::Root => f.write_str(Kw::Steps.as_str()),
            PatchTarget::Declaration(kw, name) => write!(f, "{} {name}", kw.as_str()),
            PatchTarget::Section(kw) => f.write_str(kw.as_str()),
        }
    }
}

/// What an entry brings: steps, or entries of a declaration section.
#[derive(Debug, Clone, PartialEq)]
pub enum PatchItems {
    None,
    Steps(Vec<Step>),
    State(Vec<StateVar>),
    Local(Vec<Decl>),
    Types(Vec<StructDef>),
}

impl PatchItems {
    /// How many steps or entries.
    pub fn len(&self) -> usize {
        match self {
            PatchItems::None => 0,
            PatchItems::Steps(v) => v.len(),
            PatchItems::State(v) => v.len(),
            PatchItems::Local(v) => v.len(),
            PatchItems::Types(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl PatchEntry {
    /// The step the entry names: its target, or the step whose block it
    /// inserts into; `None` for the root and declarations.
    pub fn step(&self) -> Option<&StepId> {
        match &self.target {
            PatchTarget::Step(id) | PatchTarget::Block(id, _) => Some(id),
            _ => None,
        }
    }

    /// `REPLACE`, `INSERT_AFTER`, `INSERT_BEFORE`, `INSERT_INTO` or `DELETE`.
    pub fn keyword(&self) -> &'static str {
        self.op.keyword().as_str()
    }

    /// The entry's head as written: `REPLACE S2`, `INSERT_INTO STATE`.
    pub fn head(&self) -> String {
        format!("{} {}", self.keyword(), self.target)
    }

    pub fn span(&self) -> Span {
        self.span
    }
}

/// Parses a whole Isu file into IIR (not yet canonical: steps may lack IDs).
///
/// Every error that lies in the text of one step names that step: its
/// canonical ID (what `isu fmt` will number it once the text parses, and
/// what a patch names it by), and in `source_step` the ID written on it when
/// that differs.
pub fn parse(src: &Source) -> Parsed {
    let mut diags = Vec::new();
    let front = front(&src.text, Goal::File, &mut diags);
    let mut layout = Layout::new(!front.comments.is_empty());
    let before_assembly = diags.len();
    let program = front.tree.and_then(|tree| match tree {
        Tree::File(file) => assemble::program(&src.text, file, front.end, &mut diags, &mut layout),
        Tree::Patch(_) => None,
    });
    explained_by_header_errors(&mut diags, before_assembly);
    layout.attach_comments(&src.text, &front.comments);
    let program = program.filter(|_| !has_errors(&diags));
    // The outline is for naming the steps of diagnostics: only when there
    // are (the tokens are gone by now: it lexes the text again).
    let steps = if diags.is_empty() {
        Vec::new()
    } else {
        outline_of(&src.text)
    };
    for d in &mut diags {
        let Some(span) = d.span else { continue };
        if let Some(step) = outline::innermost(&steps, span.start, span.end) {
            d.source_step = step.written.clone().filter(|w| *w != step.id.as_str());
            d.step = Some(step.id.clone());
        }
    }
    sort(&mut diags);
    Parsed {
        program,
        diags,
        layout,
    }
}

/// Drops what assembly says about a header whose line already has an error
/// of the earlier passes (its rest was set aside): that the header lacks its
/// `:` or that the step lacks a field, the consequences of that error.
fn explained_by_header_errors(diags: &mut Vec<Diagnostic>, assembled_from: usize) {
    let lines: std::collections::BTreeSet<u32> = diags[..assembled_from]
        .iter()
        .filter(|d| d.is_error())
        .filter_map(|d| d.span.map(|s| s.line))
        .collect();
    let mut i = 0;
    diags.retain(|d| {
        i += 1;
        i <= assembled_from
            || !matches!(d.code, Code::MissingField | Code::HeaderForm)
            || !d.span.is_some_and(|s| lines.contains(&s.line))
    });
}

/// The steps of a text that need not parse: their canonical IDs and the
/// extents of their text (see [`outline`]).
///
/// In a text whose brackets do not balance, the closers its layout places
/// beyond doubt ([`closers`]) are read in place, so that a step whose END is
/// missing ends where its layout shows.
pub fn outline_of(text: &str) -> Vec<OutlineStep> {
    let lexed = lexer::lex(text);
    let repaired = repair::repair(text, lexed.tokens);
    let toks = repaired.tokens;
    match structure::balanced(text, &toks, lexed.end) {
        true => outline::outline(&toks),
        false => match closers::plan(text, &toks) {
            Some(plan) => outline::outline(&plan.close(&toks)),
            None => outline::outline(&toks),
        },
    }
}

/// Parses a patch file: `PATCH:` then `REPLACE S2_1:` with one step,
/// `INSERT_AFTER S2:` with one or more, `DELETE S3`. The file is `Some`
/// exactly when the diagnostics hold no error.
pub fn parse_patch(src: &Source) -> (Option<PatchFile>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let front = front(&src.text, Goal::Patch, &mut diags);
    let recovered = front.recovered;
    let patch = front.tree.and_then(|tree| match tree {
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

/// What the passes before assembly made of a text.
struct Front {
    /// The tree, unless the text is too broken for one.
    tree: Option<Tree>,
    /// The position just past the end of the text.
    end: Pos,
    /// Whether steps with grammar errors were set aside.
    recovered: bool,
    /// The comment lines.
    comments: Vec<Span>,
}

/// Lexes, repairs, checks the structure and runs the grammar, recovering at
/// the step level.
fn front(text: &str, goal: Goal, diags: &mut Vec<Diagnostic>) -> Front {
    let lexed = lexer::lex(text);
    let end = lexed.end;
    let mut out = Front {
        tree: None,
        end,
        recovered: false,
        comments: lexed.comments,
    };
    if let Some(d) = lexer::lone_carriage_return(text) {
        diags.push(d);
        return out;
    }
    let lex_spots: Vec<u32> = lexed
        .diags
        .iter()
        .filter_map(|d| d.span.map(|s| s.start))
        .collect();
    diags.extend(lexed.diags);
    let repaired = repair::repair(text, lexed.tokens);
    let toks = repaired.tokens;
    diags.extend(repaired.diags);

    let balance = structure::check(text, &toks, end);
    diags.extend(balance.diags);
    if balance.too_deep {
        return out;
    }

    // When the repair pass changed nothing, the grammar's first try reads
    // the tokens again, as the lexer makes them, so that the tree it builds
    // is never held beside all the tokens (on a large program each is many
    // times the size of the text). Only recovering from a grammar error
    // needs them all.
    let toks = if repaired.changed {
        toks
    } else {
        drop(toks);
        if let Ok(tree) = grammar_on(goal, lexer::tokens(text)) {
            out.tree = Some(tree);
            return out;
        }
        lexer::lex(text).tokens
    };

    // Token ranges set aside after grammar errors, sorted and disjoint.
    let mut removed: Vec<(usize, usize)> = Vec::new();
    let mut errors = 0;
    loop {
        let failure = match run(goal, &toks, &removed) {
            Ok(tree) => {
                out.tree = Some(tree);
                out.recovered = !removed.is_empty();
                return out;
            }
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
            first_on_line: k == 0 || found.is_some_and(|t| toks[live[k - 1]].0.line < t.0.line),
            text,
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
            return out;
        }
        // Set the innermost step around the error aside and try again; inside
        // a block but in no step (a header gone wrong), or at a line `WORD:`
        // that is no statement (`BREAK:`), the tokens from there to the next
        // step.
        let pseudo_header = failure.first_on_line
            && matches!(found, Some((_, Tok::Ident(_), _)))
            && live.get(k + 1).is_some_and(|&j| toks[j].1 == Tok::Colon)
            && cx.stack.last().is_some_and(|f| f.block);
        // On the line of a step's header, after its kind: the rest of that
        // line, so that the step's fields (and the steps in its blocks) are
        // still read.
        let on_header_line = cx.innermost_step().is_some_and(|s| {
            s.kind.is_some() && found.is_some_and(|t| t.0.line == s.pos.line && t.1 != Tok::Colon)
        });
        let (lo, hi) = match cx.innermost_step() {
            _ if pseudo_header => structure::fragment_extent(&toks, &live, at),
            Some(_) if on_header_line => {
                let line = toks[at].0.line;
                (
                    at,
                    at + toks[at..].iter().take_while(|t| t.0.line == line).count(),
                )
            }
            Some(step) => structure::step_extent(&toks, &live, step.header),
            None if cx.stack.last().is_some_and(|f| f.block) && at < toks.len() => {
                let from = match k.checked_sub(1).map(|j| (live[j], toks[live[j]].1)) {
                    Some((j, Tok::StepId(_))) => j,
                    Some((j, Tok::Kw(kw))) if kw.is_step_kind() => j,
                    _ => at,
                };
                structure::fragment_extent(&toks, &live, from)
            }
            None => {
                return out;
            }
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
            _ => Some(*t),
        }
    });
    grammar_on(goal, iter)
}

/// The grammar of `goal` on a stream of tokens.
fn grammar_on<'a>(
    goal: Goal,
    toks: impl Iterator<Item = Spanned<'a>>,
) -> Result<Tree, ParseError<Pos, Tok<'a>, Infallible>> {
    let toks = toks.map(Ok::<_, Infallible>);
    match goal {
        Goal::File => grammar::FileParser::new().parse(toks).map(Tree::File),
        Goal::Patch => grammar::PatchParser::new().parse(toks).map(Tree::Patch),
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

/// Orders diagnostics by where they point, the more specific first: by where
/// their span ends, and of two ending together the one starting later (the
/// inner one). Stable, so one spot keeps the order the passes found its
/// errors in; diagnostics without a span come last.
fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by_key(|d| {
        d.span.map_or((u32::MAX, std::cmp::Reverse(0)), |s| {
            (s.end, std::cmp::Reverse(s.start))
        })
    });
}

#[cfg(test)]
mod tests;
