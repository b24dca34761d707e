//! The outline of a text: every step whose header is recognizable, with the
//! canonical ID it has (or would have once the text parses) and the extent of
//! its text, computed from the tokens alone, so that it exists even for a
//! text that does not parse.
//!
//! It names the step of a ParseError (the innermost step whose text holds the
//! error) and lets a patch replace the text of a step that does not parse.
//! Steps are numbered as canonicalization numbers them: the steps of the root
//! block `S1, S2, ...`, the children of `S2` across all its blocks `S2_1,
//! S2_2, ...`; a line that only looks like a header (`BREAK:`) is no step.

use super::structure::{self, Scanner};
use super::token::{Kw, Spanned, Tok};
use isu_plugin_api::StepId;
use std::collections::HashMap;

/// One step of the outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutlineStep {
    /// The canonical ID of the step.
    pub id: StepId,
    /// The ID written on its header, if any.
    pub written: Option<String>,
    /// The byte range of its text: from its header to its last token.
    pub lo: u32,
    pub hi: u32,
    /// The column of its header (1-based).
    pub col: u32,
    /// Its kind, when the header names one (`SEQ`, `IF`, ...).
    pub kind: Option<Kw>,
    /// The description its header gives, if any.
    pub desc: Option<String>,
    /// The end of its header's line (its last token on the header's line).
    pub header_hi: u32,
}

/// The steps of a text, in source order (so an enclosing step comes before
/// the steps inside it).
pub fn outline(toks: &[Spanned<'_>]) -> Vec<OutlineStep> {
    let all: Vec<usize> = (0..toks.len()).collect();
    let mut sc = Scanner::default();
    // The path of each step, by the index of its header token.
    let mut paths: HashMap<usize, Vec<u32>> = HashMap::new();
    // Children numbered so far, by the header of the parent (`None`: root).
    let mut counts: HashMap<Option<usize>, u32> = HashMap::new();
    let mut out = Vec::new();
    for i in 0..toks.len() {
        // The step being read before token `i` (brackets a keyword finds
        // open were never closed: dropped first, as `step_over` would).
        if let Some(k) = sc.open_expression(&toks[i].1) {
            sc.pop_to(k);
        }
        let before = sc.level().and_then(|l| l.step).map(|s| s.header);
        sc.step_over(toks, i, all.get(i + 1).copied());
        let Some(step) = sc.level().and_then(|l| l.step) else {
            continue;
        };
        if step.header != i || before == Some(i) || (step.kind.is_none() && step.id.is_none()) {
            continue;
        }
        // The parent: the step owning the innermost block, or the root.
        let parent = sc
            .stack
            .iter()
            .rev()
            .find(|f| f.block)
            .and_then(|f| f.owner.step)
            .map(|s| s.header);
        let n = counts.entry(parent).or_insert(0);
        *n += 1;
        let mut path = parent
            .and_then(|p| paths.get(&p).cloned())
            .unwrap_or_default();
        if parent.is_some() && path.is_empty() {
            continue; // a block of something that is no step
        }
        path.push(*n);
        let (lo, hi) = structure::step_extent(toks, &all, i);
        let last = hi.saturating_sub(1).max(lo);
        let line = &toks[lo..=last.max(lo)];
        let header = line
            .iter()
            .take_while(|t| t.0.line == toks[lo].0.line)
            .collect::<Vec<_>>();
        let desc = header.iter().find_map(|t| match t.1 {
            Tok::Str(raw) => Some(super::lexer::unescape(raw)),
            _ => None,
        });
        out.push(OutlineStep {
            id: StepId::from_path(&path),
            written: step.id.map(str::to_owned),
            lo: toks[lo].0.off,
            hi: toks[last].2.off,
            col: toks[lo].0.col,
            kind: step.kind,
            desc,
            header_hi: header.last().map_or(toks[lo].2.off, |t| t.2.off),
        });
        paths.insert(i, path);
    }
    out
}

/// The innermost step whose text holds the bytes `lo..hi`.
pub fn innermost(steps: &[OutlineStep], lo: u32, hi: u32) -> Option<&OutlineStep> {
    steps
        .iter()
        .filter(|s| s.lo <= lo && hi <= s.hi.max(s.lo + 1))
        .max_by_key(|s| s.lo)
}
