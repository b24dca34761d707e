//! The structure pass: BEGIN/END, `{`/`}`, `(`/`)`, `[`/`]` matched on one
//! stack before the grammar runs, so that a missing or extra closer is
//! reported as what it is ("expected END to close the BEGIN of S2's THEN
//! opened at line 7, found `)`") rather than as the grammar error it causes
//! somewhere later. The same scanner tells the grammar's error messages where
//! they are (which step, which field) and finds the extent of a step for
//! error recovery.

use super::closers;
use super::token::{Kw, Pos, Spanned, Tok};
use super::vocab::statement_advice;
use crate::diag::{Code, Diagnostic};

/// How many blocks, parentheses and brackets may be open at once. Deeper text
/// is refused with `nesting_too_deep`, so no later phase recurses without bound.
pub const MAX_NESTING: usize = 100;

/// The four kinds of bracket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delim {
    Begin,
    Brace,
    Paren,
    Bracket,
}

impl Delim {
    pub fn opener(tok: &Tok<'_>) -> Option<Delim> {
        match tok {
            Tok::Kw(Kw::Begin) => Some(Delim::Begin),
            Tok::LBrace => Some(Delim::Brace),
            Tok::LParen => Some(Delim::Paren),
            Tok::LBracket | Tok::Subscript => Some(Delim::Bracket),
            _ => None,
        }
    }

    pub fn closer(tok: &Tok<'_>) -> Option<Delim> {
        match tok {
            Tok::Kw(Kw::End) => Some(Delim::Begin),
            Tok::RBrace => Some(Delim::Brace),
            Tok::RParen => Some(Delim::Paren),
            Tok::RBracket => Some(Delim::Bracket),
            _ => None,
        }
    }

    pub fn open_text(self) -> &'static str {
        match self {
            Delim::Begin => "BEGIN",
            Delim::Brace => "`{`",
            Delim::Paren => "`(`",
            Delim::Bracket => "`[`",
        }
    }

    pub fn close_text(self) -> &'static str {
        match self {
            Delim::Begin => "END",
            Delim::Brace => "`}`",
            Delim::Paren => "`)`",
            Delim::Bracket => "`]`",
        }
    }
}

/// A step as the scanner sees it: its header's first token and what it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepRef<'a> {
    /// Index of the header's first token.
    pub header: usize,
    pub id: Option<&'a str>,
    pub kind: Option<Kw>,
    pub pos: Pos,
}

impl StepRef<'_> {
    /// How messages name the step: `S2`, or `the IF at line 5`.
    pub fn name(&self) -> String {
        match (self.id, self.kind) {
            (Some(id), _) => id.to_owned(),
            (None, Some(k)) => format!("the {} at line {}", k.as_str(), self.pos.line),
            (None, None) => format!("the step at line {}", self.pos.line),
        }
    }
}

/// What an opener belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Owner<'a> {
    pub step: Option<StepRef<'a>>,
    pub field: Option<Kw>,
    pub section: Option<Kw>,
    /// The root `SEQ: BEGIN` under `STEPS:`.
    pub root: bool,
}

impl Owner<'_> {
    /// `S2's THEN`, `the THEN of the IF at line 5`, `S3`, `the root SEQ`,
    /// `IO's INPUT`, `STATE`; empty when nothing is known.
    pub fn phrase(&self) -> String {
        if self.root {
            return "the root SEQ".to_owned();
        }
        match (self.step, self.field, self.section) {
            (Some(step), Some(f), _) => match step.id {
                Some(id) => format!("{id}'s {}", f.as_str()),
                None => format!("the {} of {}", f.as_str(), step.name()),
            },
            (Some(step), None, _) => step.name(),
            (None, Some(f), Some(s)) => format!("{}'s {}", s.as_str(), f.as_str()),
            (None, Some(f), None) => f.as_str().to_owned(),
            (None, None, Some(s)) => s.as_str().to_owned(),
            (None, None, None) => String::new(),
        }
    }
}

/// One open bracket.
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    pub delim: Delim,
    pub pos: Pos,
    pub end: Pos,
    pub owner: Owner<'a>,
    /// A statement block (BEGIN, or `{` after THEN/ELSE/BODY) rather than
    /// brackets of an expression or a JSON value.
    pub block: bool,
    /// Column of the first non-blank character of the opener's line
    /// (computed only when indentation is consulted).
    pub indent: u32,
    /// Inside a block: the step whose header came last, and its fields so far.
    pub level: Level<'a>,
}

impl Frame<'_> {
    /// `the BEGIN of S2's THEN`, `the `(` in S2's COND`.
    pub fn describe(&self) -> String {
        let phrase = self.owner.phrase();
        if phrase.is_empty() {
            format!("the {}", self.delim.open_text())
        } else if self.block {
            format!("the {} of {phrase}", self.delim.open_text())
        } else {
            format!("the {} in {phrase}", self.delim.open_text())
        }
    }
}

/// The statement level of a block (or of the file's top): the current step
/// and the fields seen since its header.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Level<'a> {
    pub step: Option<StepRef<'a>>,
    pub fields: FieldSet,
    pub last_field: Option<Kw>,
}

/// A small set of field keywords.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FieldSet(u64);

impl FieldSet {
    pub fn insert(&mut self, k: Kw) {
        self.0 |= 1 << (k as u64);
    }

    pub fn contains(&self, k: Kw) -> bool {
        self.0 & (1 << (k as u64)) != 0
    }
}

/// The scanner's state: the open brackets, the top level and the section.
#[derive(Debug, Clone, Default)]
pub struct Scanner<'a> {
    pub stack: Vec<Frame<'a>>,
    pub top: Level<'a>,
    pub section: Option<Kw>,
    /// `SEQ:` under `STEPS:` was just seen: the next BEGIN is the root's.
    root_pending: bool,
    /// The last three tokens fed, most recent first.
    hist: [Option<Tok<'a>>; 3],
}

/// What a token fed to the scanner means for the bracket stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Other,
    Open(Delim),
    Close(Delim),
}

impl<'a> Scanner<'a> {
    /// The innermost statement level: the top of the innermost block, or
    /// `None` inside an expression's brackets.
    pub fn level(&self) -> Option<&Level<'a>> {
        match self.stack.last() {
            None => Some(&self.top),
            Some(f) if f.block => Some(&f.level),
            Some(_) => None,
        }
    }

    fn level_mut(&mut self) -> Option<&mut Level<'a>> {
        match self.stack.last_mut() {
            None => Some(&mut self.top),
            Some(f) if f.block => Some(&mut f.level),
            Some(_) => None,
        }
    }

    /// The innermost step around the current position: the current step of the
    /// innermost block, or else the step owning that block, and so on outward.
    pub fn innermost_step(&self) -> Option<StepRef<'a>> {
        for f in self.stack.iter().rev() {
            if f.block {
                if let Some(s) = f.level.step {
                    return Some(s);
                }
            }
            if let Some(s) = f.owner.step {
                return Some(s);
            }
        }
        self.top.step
    }

    /// The innermost open expression bracket's owner, or the statement level's
    /// current step and field.
    pub fn owner_here(&self) -> Owner<'a> {
        match self.stack.last() {
            Some(f) if !f.block => f.owner,
            _ => {
                let (step, field) = self
                    .level()
                    .map_or((None, None), |l| (l.step, l.last_field));
                Owner {
                    step,
                    field,
                    section: self.section,
                    root: false,
                }
            }
        }
    }

    /// The token fed before the last one, and the one before that.
    pub fn recent(&self, back: usize) -> Option<Tok<'a>> {
        self.hist.get(back).copied().flatten()
    }

    /// Feeds token `i` of `toks`; `next` is the index of the token after it
    /// (tokens may be skipped). Openers and closers are reported back as
    /// events for the caller to apply with [`Scanner::push`] and
    /// [`Scanner::pop_to`].
    pub fn feed(&mut self, toks: &[Spanned<'a>], i: usize, next: Option<usize>) -> Event {
        let (pos, tok, _) = toks[i];
        let next_tok = next.map(|n| toks[n].1);
        let colon_next = next_tok == Some(Tok::Colon);
        let event = match tok {
            Tok::Kw(k) if k.is_section() && self.stack.is_empty() && colon_next => {
                self.section = Some(k);
                self.top = Level::default();
                self.root_pending = false;
                Event::Other
            }
            Tok::Kw(k) if k.is_patch_entry() && self.stack.is_empty() => {
                self.section = Some(k);
                self.top = Level::default();
                Event::Other
            }
            // `S2: KIND` or `S2 KIND`.
            Tok::StepId(id)
                if colon_next || matches!(next_tok, Some(Tok::Kw(k)) if k.is_step_kind()) =>
            {
                let after = if colon_next {
                    next.map(|n| n + 1)
                } else {
                    next
                };
                let kind = after.and_then(|n| toks.get(n)).and_then(|t| match t.1 {
                    Tok::Kw(k) if k.is_step_kind() => Some(k),
                    _ => None,
                });
                self.start_step(i, Some(id), kind, pos);
                Event::Other
            }
            // A header without an ID, in any of its forms; not the kind of
            // `S2: IF` or `S2 IF`, which belongs to the header of S2.
            Tok::Kw(k)
                if k.is_step_kind()
                    && !matches!(self.hist[0], Some(Tok::StepId(_)))
                    && !(self.hist[0] == Some(Tok::Colon)
                        && matches!(self.hist[1], Some(Tok::StepId(_)))) =>
            {
                if k == Kw::Seq && self.stack.is_empty() && self.section == Some(Kw::Steps) {
                    self.root_pending = true;
                } else {
                    self.start_step(i, None, Some(k), pos);
                }
                Event::Other
            }
            // A line `WORD:` in a block that is no field: a statement Isu
            // does not have (`BREAK:`), taken as a step of its own.
            Tok::Ident(_)
                if colon_next
                    && self.stack.last().is_some_and(|f| f.block)
                    && (i == 0 || toks[i - 1].0.line < pos.line) =>
            {
                self.start_step(i, None, None, pos);
                Event::Other
            }
            Tok::Kw(k) if k.is_field() && colon_next => {
                if let Some(level) = self.level_mut() {
                    level.fields.insert(k);
                    level.last_field = Some(k);
                }
                Event::Other
            }
            t => match (Delim::opener(&t), Delim::closer(&t)) {
                (Some(d), _) => Event::Open(d),
                (_, Some(d)) => Event::Close(d),
                _ => Event::Other,
            },
        };
        self.hist = [Some(tok), self.hist[0], self.hist[1]];
        event
    }

    fn start_step(&mut self, i: usize, id: Option<&'a str>, kind: Option<Kw>, pos: Pos) {
        if let Some(level) = self.level_mut() {
            *level = Level {
                step: Some(StepRef {
                    header: i,
                    id,
                    kind,
                    pos,
                }),
                ..Level::default()
            };
        }
    }

    /// The frame an opener just fed (token `i`) would push; `indent` is only
    /// kept for the caller's heuristics.
    pub fn frame(
        &mut self,
        toks: &[Spanned<'a>],
        i: usize,
        delim: Delim,
        indent: u32,
    ) -> Frame<'a> {
        let (pos, _, end) = toks[i];
        let block = match delim {
            Delim::Begin => true,
            // hist[0] is the `{` itself.
            Delim::Brace => {
                self.recent(1) == Some(Tok::Colon)
                    && matches!(self.recent(2), Some(Tok::Kw(k)) if k.is_block_field())
            }
            Delim::Paren | Delim::Bracket => false,
        };
        let mut owner = self.owner_here();
        if delim == Delim::Begin && self.root_pending {
            owner = Owner {
                root: true,
                ..Owner::default()
            };
            self.root_pending = false;
        }
        if block {
            if let Some(step) = owner.step {
                // `S3: SEQ BEGIN`: the block is the SEQ's own, not a field's.
                if step.kind == Some(Kw::Seq)
                    && self.level().is_some_and(|l| l.last_field.is_none())
                {
                    owner.field = None;
                }
            }
        }
        Frame {
            delim,
            pos,
            end,
            owner,
            block,
            indent,
            level: Level::default(),
        }
    }

    /// A keyword cannot stand inside the brackets of an expression or a JSON
    /// value: if some are open when one comes, they were never closed. Returns
    /// the index of the outermost such bracket, for the caller to report and pop.
    pub fn open_expression(&self, tok: &Tok<'_>) -> Option<usize> {
        if !matches!(tok, Tok::Kw(_)) {
            return None;
        }
        let n = self.stack.iter().rev().take_while(|f| !f.block).count();
        (n > 0).then(|| self.stack.len() - n)
    }

    /// Moves past token `i` without reporting anything: brackets a keyword
    /// finds open are dropped, a closer closes the innermost frame of its
    /// kind, and nesting past [`MAX_NESTING`] is not followed. What the
    /// outline and [`context_at`] need from the structure of a text that may
    /// be broken.
    pub fn step_over(&mut self, toks: &[Spanned<'a>], i: usize, next: Option<usize>) {
        if let Some(k) = self.open_expression(&toks[i].1) {
            self.pop_to(k);
        }
        match self.feed(toks, i, next) {
            Event::Other => {}
            Event::Open(d) => {
                if self.stack.len() < MAX_NESTING {
                    let f = self.frame(toks, i, d, 0);
                    self.stack.push(f);
                }
            }
            Event::Close(d) => {
                if let Some(k) = self.stack.iter().rposition(|f| f.delim == d) {
                    self.pop_to(k);
                }
            }
        }
    }

    /// Pops frames down to (and including) the `k`-th from the bottom.
    pub fn pop_to(&mut self, k: usize) -> Vec<Frame<'a>> {
        self.stack.split_off(k)
    }
}

/// The column of the first non-blank character on the line holding `off`.
pub fn line_indent(text: &str, off: u32) -> u32 {
    let bytes = text.as_bytes();
    let off = (off as usize).min(bytes.len());
    let start = bytes[..off]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let blanks = bytes[start..]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    blanks as u32 + 1
}

/// What the structure pass found.
#[derive(Debug, Default)]
pub struct Balance {
    pub diags: Vec<Diagnostic>,
    /// The offset of the earliest spot involved in a structure error: grammar
    /// errors from there on are consequences and are not reported.
    pub broken_from: Option<u32>,
    /// Nesting went past [`MAX_NESTING`]: the text is not parsed further.
    pub too_deep: bool,
}

/// Matches every bracket of `toks`. A balanced text gets an empty report.
/// When the text is not balanced, a second pass consults indentation (which
/// otherwise has no meaning) to say which block lacks its END.
pub fn check(text: &str, toks: &[Spanned<'_>], end: Pos) -> Balance {
    let plain = Matcher::new(text, toks, end, false).run();
    if plain.diags.is_empty() || plain.too_deep {
        return plain;
    }
    // Where the layout shows beyond doubt where each missing closer goes,
    // that is the report, each error with the fix that inserts its closer.
    if let Some(plan) = closers::plan(text, toks) {
        let diags = plan.diagnostics();
        let broken_from = diags.iter().filter_map(|d| d.span.map(|s| s.start)).min();
        return Balance {
            diags,
            broken_from,
            too_deep: false,
        };
    }
    let guided = Matcher::new(text, toks, end, true).run();
    if guided.diags.is_empty() {
        plain
    } else {
        guided
    }
}

/// Whether every bracket of `toks` is matched: what [`check`] reports
/// nothing for.
pub fn balanced(text: &str, toks: &[Spanned<'_>], end: Pos) -> bool {
    Matcher::new(text, toks, end, false).run().diags.is_empty()
}

struct Matcher<'t, 'a> {
    text: &'t str,
    toks: &'t [Spanned<'a>],
    end: Pos,
    /// Consult indentation to place a missing or extra END.
    guided: bool,
    scanner: Scanner<'a>,
    /// The block most recently closed, and where.
    last_closed: Option<(Frame<'a>, Pos)>,
    out: Balance,
}

impl<'t, 'a> Matcher<'t, 'a> {
    fn new(text: &'t str, toks: &'t [Spanned<'a>], end: Pos, guided: bool) -> Self {
        Matcher {
            text,
            toks,
            end,
            guided,
            scanner: Scanner::default(),
            last_closed: None,
            out: Balance::default(),
        }
    }

    fn broken_at(&mut self, off: u32) {
        self.out.broken_from = Some(self.out.broken_from.map_or(off, |b| b.min(off)));
    }

    fn run(mut self) -> Balance {
        let n = self.toks.len();
        for i in 0..n {
            let next = (i + 1 < n).then_some(i + 1);
            if let Some(k) = self.scanner.open_expression(&self.toks[i].1) {
                let open = self.scanner.pop_to(k);
                self.expression_cut(&open, i);
            }
            match self.scanner.feed(self.toks, i, next) {
                Event::Other => {}
                Event::Open(d) => {
                    let indent = if self.guided {
                        line_indent(self.text, self.toks[i].0.off)
                    } else {
                        0
                    };
                    if self.scanner.stack.len() >= MAX_NESTING {
                        self.too_deep(i);
                        return self.out;
                    }
                    let frame = self.scanner.frame(self.toks, i, d, indent);
                    self.scanner.stack.push(frame);
                }
                Event::Close(d) => self.close(i, d),
            }
        }
        let open = self.scanner.pop_to(0);
        for f in open.iter().rev() {
            self.unclosed(f, None);
        }
        self.out
    }

    /// Expression brackets still open when keyword `i` came.
    fn expression_cut(&mut self, open: &[Frame<'_>], i: usize) {
        let Some(outer) = open.first() else {
            return;
        };
        let (pos, tok, end) = self.toks[i];
        let count = if open.len() > 1 {
            let closers: Vec<&str> = open.iter().rev().map(|f| f.delim.close_text()).collect();
            format!(" (it lacks {})", closers.join(" "))
        } else {
            String::new()
        };
        self.out.diags.push(
            Diagnostic::error(
                Code::UnclosedBlock,
                format!(
                    "expected {} to close {} opened at line {}, found {}{count}",
                    outer.delim.close_text(),
                    outer.describe(),
                    outer.pos.line,
                    tok.describe()
                ),
            )
            .at(outer.pos.to(outer.end))
            .with_label(pos.to(end), "the expression must end before this")
            .with_hint("close every bracket of the expression before the next keyword"),
        );
        self.broken_at(outer.pos.off);
    }

    fn too_deep(&mut self, i: usize) {
        let (l, _, r) = self.toks[i];
        self.out.diags.push(
            Diagnostic::error(
                Code::NestingTooDeep,
                format!("nesting too deep: more than {MAX_NESTING} blocks, parentheses and brackets are open here"),
            )
            .at(l.to(r))
            .with_hint("split the work into several steps, keeping intermediate values in LOCAL variables"),
        );
        self.out.too_deep = true;
        self.broken_at(l.off);
    }

    fn close(&mut self, i: usize, d: Delim) {
        let (pos, tok, end) = self.toks[i];
        let stack = &self.scanner.stack;
        let top_matches = stack.last().is_some_and(|f| f.delim == d);
        if top_matches {
            if self.guided && matches!(d, Delim::Begin | Delim::Brace) && self.guided_close(i, d) {
                return;
            }
            if let Some(f) = self.scanner.stack.pop() {
                if f.block {
                    self.last_closed = Some((f, pos));
                }
            }
            return;
        }
        let first_on_line = i == 0 || self.toks[i - 1].0.line < pos.line;
        match stack.iter().rposition(|f| f.delim == d) {
            Some(k) => {
                let top = stack[stack.len() - 1];
                self.mismatched(&top, pos, end, tok);
                self.scanner.pop_to(k);
            }
            // A closer alone at the start of a line where a block is open was
            // meant to close that block.
            None if first_on_line && stack.last().is_some_and(|f| f.block) => {
                let top = stack[stack.len() - 1];
                self.mismatched(&top, pos, end, tok);
                self.scanner.stack.pop();
            }
            None => self.unmatched(d, pos, end),
        }
    }

    /// Indentation-guided closing of a block (only when the text is known to
    /// be unbalanced). `true` when it handled the closer.
    fn guided_close(&mut self, i: usize, d: Delim) -> bool {
        let (pos, _, _) = self.toks[i];
        let stack = &self.scanner.stack;
        let Some(&top) = stack.last() else {
            return false;
        };
        if top.indent == pos.col {
            return false;
        }
        // A block further out that this closer lines up with: the ones
        // inside it were never closed.
        let aligned = stack
            .iter()
            .enumerate()
            .rev()
            .skip(1)
            .take_while(|(_, f)| f.block)
            .find(|(_, f)| f.delim == d && f.indent == pos.col)
            .map(|(k, _)| k);
        if let Some(k) = aligned {
            let outer = stack[k];
            let inner = self.scanner.pop_to(k + 1);
            for f in inner.iter().rev() {
                self.unclosed(f, Some((pos, &outer)));
            }
            self.scanner.pop_to(k);
            self.last_closed = Some((outer, pos));
            return true;
        }
        // A closer that lines up with the block closed last: one too many.
        if let Some((closed, at)) = self.last_closed {
            if closed.delim == d && closed.indent == pos.col && closed.pos.line != pos.line {
                let (l, _, r) = self.toks[i];
                self.out.diags.push(
                    Diagnostic::error(
                        Code::UnmatchedClose,
                        format!(
                            "unmatched {}: {} opened at line {} was already closed at line {}",
                            d.close_text(),
                            closed.describe(),
                            closed.pos.line,
                            at.line
                        ),
                    )
                    .at(l.to(r))
                    .with_label(closed.pos.to(closed.end), "opened here")
                    .with_hint(format!("remove this {}", d.close_text())),
                );
                self.broken_at(l.off);
                return true;
            }
        }
        false
    }

    fn unclosed(&mut self, f: &Frame<'_>, before: Option<(Pos, &Frame<'_>)>) {
        let close = f.delim.close_text();
        let (message, label_at) = match before {
            None => (
                format!(
                    "expected {close} to close {} opened at line {}, found the end of the file",
                    f.describe(),
                    f.pos.line
                ),
                self.end,
            ),
            Some((at, outer)) => (
                format!(
                    "expected {close} to close {} opened at line {}, before the {close} at line {} (which lines up with {} opened at line {})",
                    f.describe(),
                    f.pos.line,
                    at.line,
                    outer.describe(),
                    outer.pos.line
                ),
                at,
            ),
        };
        self.out.diags.push(
            Diagnostic::error(Code::UnclosedBlock, message)
                .at(f.pos.to(f.end))
                .with_label(
                    label_at.to(label_at),
                    format!("{close} expected before here"),
                )
                .with_hint(format!("add the missing {close}")),
        );
        self.broken_at(f.pos.off);
    }

    fn mismatched(&mut self, top: &Frame<'_>, pos: Pos, end: Pos, found: Tok<'_>) {
        self.out.diags.push(
            Diagnostic::error(
                Code::MismatchedClose,
                format!(
                    "expected {} to close {} opened at line {}, found {}",
                    top.delim.close_text(),
                    top.describe(),
                    top.pos.line,
                    found.describe()
                ),
            )
            .at(pos.to(end))
            .with_label(top.pos.to(top.end), "opened here"),
        );
        self.broken_at(top.pos.off.min(pos.off));
    }

    fn unmatched(&mut self, d: Delim, pos: Pos, end: Pos) {
        let phrase = match d {
            Delim::Paren | Delim::Bracket => self.scanner.owner_here().phrase(),
            Delim::Begin | Delim::Brace => String::new(),
        };
        let where_ = if phrase.is_empty() {
            String::new()
        } else {
            format!(" in {phrase}")
        };
        let inner = self.scanner.stack.last().map(|f| {
            format!(
                " (the innermost open one is {} opened at line {})",
                f.describe(),
                f.pos.line
            )
        });
        let mut diag = Diagnostic::error(
            Code::UnmatchedClose,
            format!(
                "unmatched {}{where_}: no {} is open here{}",
                d.close_text(),
                d.open_text(),
                inner.unwrap_or_default()
            ),
        )
        .at(pos.to(end))
        .with_hint(format!("remove this {}", d.close_text()));
        if let Some(f) = self.scanner.stack.last() {
            diag = diag.with_label(f.pos.to(f.end), "innermost open bracket");
        }
        self.out.diags.push(diag);
        self.broken_at(pos.off);
    }
}

/// Where a token stands: the scanner's state just before it.
pub fn context_at<'a>(toks: &[Spanned<'a>], live: &[usize], at: usize) -> Scanner<'a> {
    let mut sc = Scanner::default();
    for (k, &i) in live.iter().enumerate() {
        if i >= at {
            break;
        }
        sc.step_over(toks, i, live.get(k + 1).copied());
    }
    sc
}

/// The tokens of the step whose header starts at `header`: up to the next
/// step header at its level, the END or `}` of its block, a section or patch
/// keyword at its level, or the end. `live` lists the tokens not yet removed.
/// Brackets left open at the start of a line that begins with a keyword or a
/// step header were never closed (no expression spans such a line), so a
/// step with an unclosed `(` still ends before its block's `END`.
pub fn step_extent(toks: &[Spanned<'_>], live: &[usize], header: usize) -> (usize, usize) {
    // Past the header itself: `S2: IF` or `IF:`.
    let header_len = if matches!(toks[header].1, Tok::StepId(_)) {
        3
    } else {
        2
    };
    extent(toks, live, header, header_len)
}

/// Whether the token at `live[k]` starts a step, section or patch entry at
/// the statement level: `S2:` or `S2 KIND`, a step kind, `SECTION:`, a patch
/// entry, or a line `WORD:` whose word is no field (a statement Isu lacks).
fn starts_unit(toks: &[Spanned<'_>], live: &[usize], k: usize) -> bool {
    let i = live[k];
    let next = live.get(k + 1).map(|&n| toks[n].1);
    let colon_next = next == Some(Tok::Colon);
    let first_on_line = k == 0 || toks[live[k - 1]].0.line < toks[i].0.line;
    match toks[i].1 {
        Tok::StepId(_) => colon_next || matches!(next, Some(Tok::Kw(kw)) if kw.is_step_kind()),
        Tok::Kw(kw) if kw.is_step_kind() => !matches!(
            k.checked_sub(1).map(|p| toks[live[p]].1),
            Some(Tok::StepId(_) | Tok::Colon)
        ),
        Tok::Kw(kw) if kw.is_section() => colon_next,
        Tok::Kw(kw) => kw.is_patch_entry(),
        Tok::Ident(word) => first_on_line && (colon_next || statement_advice(word).is_some()),
        _ => false,
    }
}

/// The tokens from `from` (which is not a well-formed step header) up to the
/// next step header, closer of the enclosing block, section or patch keyword.
pub fn fragment_extent(toks: &[Spanned<'_>], live: &[usize], from: usize) -> (usize, usize) {
    extent(toks, live, from, 1)
}

fn extent(
    toks: &[Spanned<'_>],
    live: &[usize],
    header: usize,
    header_len: usize,
) -> (usize, usize) {
    // `live` is sorted: find the header by bisection.
    let Ok(start) = live.binary_search(&header) else {
        return (header, header + 1);
    };
    // The brackets and blocks open inside the step.
    let mut open: Vec<Delim> = Vec::new();
    let mut k = start + 1;
    while k < live.len() && k < start + header_len && Delim::opener(&toks[live[k]].1).is_none() {
        k += 1;
    }
    while k < live.len() {
        let i = live[k];
        let tok = toks[i].1;
        let first_on_line = toks[live[k - 1]].0.line < toks[i].0.line;
        if first_on_line && (matches!(tok, Tok::Kw(_)) || starts_unit(toks, live, k)) {
            // No expression holds a line that starts with a keyword or a step
            // header: brackets still open there were never closed.
            while matches!(open.last(), Some(Delim::Paren | Delim::Bracket)) {
                open.pop();
            }
        }
        if let Some(d) = Delim::opener(&tok) {
            open.push(d);
        } else if Delim::closer(&tok).is_some() {
            if open.pop().is_none() {
                return (header, i);
            }
        } else if open.is_empty() && starts_unit(toks, live, k) {
            return (header, i);
        }
        k += 1;
    }
    (header, toks.len())
}
