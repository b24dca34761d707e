//! What the text of a program says beyond its IIR: the comments, how each
//! step's header was written, and where a declaration can be added.
//!
//! The IIR holds no comments (it stays byte for byte what it was), so the
//! parser hands this side table over beside it. Each comment is attached to
//! an [`Anchor`]: the line it precedes (a section, a field, a step's header,
//! or the END of a block), named by section and field keywords and by the
//! offset at which the step starts in the source (the `lo` of the step's
//! span, which canonicalization and patching keep for every step they keep).
//! The printer writes each comment before the line of its anchor, at that
//! line's indentation; fixes use the headers to rewrite step IDs and the
//! lists to add declarations.

use super::token::Kw;
use isu_plugin_api::Span;
use std::collections::BTreeMap;

/// The line a comment precedes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Anchor {
    /// A section's line (`FUNC:`, `STATE: [...]`).
    Section(Kw),
    /// A field of META, FUNC or IO (`NAME: f`).
    SectionField(Kw, Kw),
    /// The root `SEQ: BEGIN` under `STEPS:`.
    Root,
    /// The header of the step starting at this offset.
    Step(u32),
    /// A field of the step starting at this offset (`COND:`, `THEN: BEGIN`).
    Field(u32, Kw),
    /// The END of a block of the step starting at this offset: the block of a
    /// field (THEN, ELSE, BODY), or a nested SEQ's own (`None`).
    End(u32, Option<Kw>),
    /// The END of the root SEQ.
    RootEnd,
    /// After the last line.
    FileEnd,
}

/// The comments of a program, by the line they precede; each is its text
/// from the `;` on, in source order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comments {
    by_anchor: BTreeMap<Anchor, Vec<String>>,
}

impl Comments {
    /// The comments before the line of `anchor`.
    pub fn at(&self, anchor: Anchor) -> &[String] {
        self.by_anchor.get(&anchor).map_or(&[], Vec::as_slice)
    }

    pub fn is_empty(&self) -> bool {
        self.by_anchor.is_empty()
    }

    /// These comments without those inside the step starting at `at` (before
    /// its fields and ENDs), keeping those before its header: what is left
    /// when a patch replaces the step.
    pub fn without_inside(&self, at: u32) -> Comments {
        let mut out = self.clone();
        out.by_anchor
            .retain(|a, _| !matches!(a, Anchor::Field(s, _) | Anchor::End(s, _) if *s == at));
        out
    }

    /// How many comment lines there are.
    pub fn len(&self) -> usize {
        self.by_anchor.values().map(Vec::len).sum()
    }
}

/// Where a step header stands in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// From the first token of the header to its last (the description, or
    /// the kind and its `:`).
    pub span: Span,
    /// Where its ID is written, if it is.
    pub id: Option<Span>,
}

/// A header as the language writes it: `S2: LOOP "walk"` with an ID;
/// `LOOP:` or `LOOP "walk"` without.
pub fn header_text(kind: &str, id: Option<&str>, desc: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(id) = id {
        out.push_str(id);
        out.push_str(": ");
    }
    out.push_str(kind);
    match desc {
        Some(d) => {
            out.push(' ');
            let _ = isu_plugin_api::literal::write_json_string(&mut out, d);
        }
        None if id.is_none() => out.push(':'),
        None => {}
    }
    out
}

/// The end of a bracket list (`ARGS`, `STATE`, `LOCAL`): where an item is
/// added, and whether the list is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListEnd {
    /// The offset of the closing `]`, with its line and column.
    pub close: Span,
    pub empty: bool,
}

/// The side table of one parsed program.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layout {
    pub comments: Comments,
    /// Each step's header, by the offset at which the step starts, in source
    /// order.
    headers: Vec<(u32, Header)>,
    /// The end of the LOCAL list, when there is a LOCAL section.
    pub locals: Option<ListEnd>,
    /// Where the `STEPS:` section starts (a missing LOCAL goes before it).
    pub steps_at: Option<Span>,
    /// Where each anchor's line starts (while building, when there are
    /// comments to attach).
    anchors: Vec<(u32, Anchor)>,
    /// Whether to record anchors: whether the text has comments.
    anchoring: bool,
}

impl Layout {
    /// A layout to build, recording anchors when the text has comments.
    pub(super) fn new(with_comments: bool) -> Layout {
        Layout {
            anchoring: with_comments,
            ..Layout::default()
        }
    }

    /// Records that the line of `anchor` starts at `offset`.
    pub(super) fn anchor(&mut self, offset: u32, anchor: Anchor) {
        if self.anchoring {
            self.anchors.push((offset, anchor));
        }
    }

    /// Records the header of the step starting at `at` (steps come in source
    /// order).
    pub(super) fn header_at(&mut self, at: u32, header: Header) {
        self.headers.push((at, header));
    }

    /// The header of the step starting at `at`.
    pub fn header(&self, at: u32) -> Option<&Header> {
        self.headers
            .binary_search_by_key(&at, |&(lo, _)| lo)
            .ok()
            .map(|i| &self.headers[i].1)
    }

    /// Attaches each comment (its span in `text`) to the first anchor after
    /// it, or to the end of the file.
    pub(super) fn attach_comments(&mut self, text: &str, comments: &[Span]) {
        let mut anchors = std::mem::take(&mut self.anchors);
        anchors.sort_by_key(|&(off, _)| off);
        for c in comments {
            let at = anchors.partition_point(|&(off, _)| off < c.hi);
            let anchor = anchors.get(at).map_or(Anchor::FileEnd, |&(_, a)| a);
            let line = text
                .get(c.lo as usize..c.hi as usize)
                .unwrap_or(";")
                .to_owned();
            self.comments
                .by_anchor
                .entry(anchor)
                .or_default()
                .push(line);
        }
    }
}
