//! Patches on a program whose text does not parse: the entries edit the text
//! of their targets, found by the outline of the text (the steps whose
//! headers are intact, with the canonical IDs they will have), and the whole
//! text is parsed again.
//!
//! `REPLACE S3:` puts the canonical text of the new step in the place of the
//! text of `S3` (from its header to its last token), at the header's
//! indentation; `DELETE S3` removes the lines of `S3`. The inserts need a
//! program that parses, since the IDs of the steps after the new ones would
//! have to change in the text, and so do entries on declarations: make the
//! program parse first.

use super::Patched;
use crate::canon::{self, IdMap};
use crate::diag::{Code, Diagnostic};
use crate::functions::Functions;
use crate::pipeline;
use crate::source::Source;
use crate::syntax::{self, OutlineStep, PatchEntry, PatchFile, PatchItems, PatchOp, PatchTarget};
use isu_plugin_api::StepId;

/// One edit of the text: bytes `lo..hi` become `text`, for entry `entry`
/// (from 1) on step `target`.
struct TextEdit {
    lo: u32,
    hi: u32,
    text: String,
    entry: usize,
    target: StepId,
}

/// Applies `patch` to the text of `src` (see the module's documentation).
pub(super) fn apply(
    src: &Source,
    patch: &PatchFile,
    packs: &Functions,
) -> Result<Patched, Vec<Diagnostic>> {
    let text = src.text.as_str();
    let steps = syntax::outline_of(text);
    let mut edits: Vec<TextEdit> = Vec::new();
    let mut errors = Vec::new();
    for (i, entry) in patch.entries.iter().enumerate() {
        let number = i + 1;
        let (PatchTarget::Step(target), PatchOp::Replace | PatchOp::Delete) =
            (&entry.target, entry.op)
        else {
            errors.push(needs_parse(number, entry));
            continue;
        };
        let Some(s) = steps.iter().find(|s| &s.id == target) else {
            errors.push(unknown(number, entry, target, &steps));
            continue;
        };
        let edit = match &entry.items {
            PatchItems::Steps(new) if entry.op == PatchOp::Replace => {
                let Some(step) = new.first() else {
                    continue;
                };
                let mut new = step.clone();
                let id = s
                    .written
                    .as_deref()
                    .and_then(StepId::parse)
                    .unwrap_or_else(|| target.clone());
                canon::number_step(&mut new, &id);
                let indent = s.col.saturating_sub(1) as usize;
                let printed = canon::print_step(&new, indent);
                TextEdit {
                    lo: s.lo,
                    hi: s.hi,
                    text: printed.trim_start().trim_end_matches('\n').to_owned(),
                    entry: number,
                    target: target.clone(),
                }
            }
            _ => {
                let (lo, hi) = whole_lines(text, s.lo, s.hi);
                TextEdit {
                    lo,
                    hi,
                    text: String::new(),
                    entry: number,
                    target: target.clone(),
                }
            }
        };
        if let Some(other) = edits.iter().find(|e| e.lo < edit.hi && edit.lo < e.hi) {
            errors.push(
                Diagnostic::error(
                    Code::InvalidPatch,
                    format!(
                        "entry {number} edits {target}, whose text overlaps that of {} which entry {} edits",
                        other.target, other.entry
                    ),
                )
                .at(entry.span())
                .in_step(Some(target))
                .with_hint("in a program that does not parse, each step's text is edited once: merge the two entries"),
            );
            continue;
        }
        edits.push(edit);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    edits.sort_by_key(|e| e.lo);
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for e in &edits {
        out.push_str(&text[at..e.lo as usize]);
        out.push_str(&e.text);
        at = e.hi as usize;
    }
    out.push_str(&text[at..]);

    let fe = pipeline::parse_canonical(&Source::new("<patched>", out.as_str()));
    let Some(program) = &fe.program else {
        return Ok(Patched {
            program: None,
            text: out,
            renumbered: Vec::new(),
            diags: fe.diags,
        });
    };
    // Where each step the edits left alone landed, and its ID there.
    let mut renumbered: IdMap = Vec::new();
    for s in &steps {
        if edits
            .iter()
            .any(|e| e.lo <= s.lo && s.lo < e.hi.max(e.lo + 1))
        {
            continue;
        }
        let shift: i64 = edits
            .iter()
            .filter(|e| e.hi <= s.lo)
            .map(|e| e.text.len() as i64 - i64::from(e.hi - e.lo))
            .sum();
        let lo = (i64::from(s.lo) + shift) as u32;
        let now = program
            .steps()
            .into_iter()
            .find(|p| p.span.lo == lo)
            .and_then(|p| p.id.clone());
        if let Some(now) = now.filter(|now| *now != s.id) {
            renumbered.push((s.id.clone(), now));
        }
    }
    let canonical = canon::print_with(program, &fe.layout.comments);
    let checked = pipeline::check_with(&Source::new("<patched>", canonical.as_str()), packs);
    Ok(Patched {
        program: checked.program,
        text: canonical,
        renumbered,
        diags: checked.diags,
    })
}

/// The whole lines of `lo..hi`: from the start of `lo`'s line through the
/// line break after `hi`.
fn whole_lines(text: &str, lo: u32, hi: u32) -> (u32, u32) {
    let start = text[..lo as usize].rfind('\n').map_or(0, |p| p + 1);
    let end = text[hi as usize..]
        .find('\n')
        .map_or(text.len(), |p| hi as usize + p + 1);
    (start as u32, end as u32)
}

/// The error for an entry whose target is not in the outline.
/// The error for an entry that text mode cannot apply: an insert, or an
/// entry on a declaration.
fn needs_parse(number: usize, entry: &PatchEntry) -> Diagnostic {
    let head = entry.head();
    Diagnostic::error(
        Code::InvalidPatch,
        format!(
            "{head} (entry {number}): the program does not parse, and {} needs one that does",
            entry.keyword()
        ),
    )
    .at(entry.span())
    .in_step(entry.step())
    .with_hint("first make the program parse: REPLACE (or DELETE) the steps whose text does not parse, then make the other changes")
}

/// The error for an entry whose target is not in the outline.
fn unknown(
    number: usize,
    entry: &PatchEntry,
    target: &StepId,
    steps: &[OutlineStep],
) -> Diagnostic {
    let parent = &target.path()[..target.path().len().saturating_sub(1)];
    let siblings: Vec<&str> = steps
        .iter()
        .filter(|s| {
            let p = s.id.path();
            p.len() == parent.len() + 1 && p.starts_with(parent)
        })
        .map(|s| s.id.as_str())
        .collect();
    let hint = if siblings.is_empty() {
        "the program's text does not parse: its steps are those whose headers are intact; run `isu check` to see them".to_owned()
    } else {
        format!("the steps there are {}", siblings.join(", "))
    };
    Diagnostic::error(
        Code::UnknownStep,
        format!(
            "{} {target} (entry {number}): the program has no step {target} whose header can be read",
            entry.keyword()
        ),
    )
    .at(entry.span())
    .in_step(Some(target))
    .with_actual(target.as_str())
    .with_hint(hint)
}
