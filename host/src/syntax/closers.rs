//! The closers a text lacks, placed by its layout.
//!
//! Indentation has no meaning in Isu, but models indent as the canonical
//! text does: every line inside a block deeper than the line that opened it,
//! its END as deep as that line, and one expression per field line. So when
//! the brackets of a text do not balance, its layout often shows where each
//! missing closer goes:
//!
//! - a block ends before the first line indented no deeper than the line of
//!   its BEGIN (or `{`), unless that line is the block's own closer;
//! - the brackets of an expression end before the next line that starts a
//!   field, a section or a step (no expression holds such a line);
//! - the brackets of an expression end before a closer of a bracket outside
//!   them (`(const 0]` lacks its `)` before the `]`);
//! - whatever is open at the end of the text ends there.
//!
//! A [`Plan`] is such a placement, and it is kept only when it is certain:
//! with its closers inserted, the text balances. The structure pass then
//! reports each missing closer where the plan puts it, with the fix that
//! inserts it (`isu fix` and the repair loop apply it), and the outline reads
//! the text with the closers in place, so that a step whose END is missing
//! still has the extent its layout shows, and a patch replacing it replaces
//! that step and nothing after it.

use super::lexer;
use super::repair;
use super::structure::{self, line_indent, Delim, Event, Frame, Scanner, MAX_NESTING};
use super::token::{Kw, Pos, Spanned, Tok};
use crate::diag::{Code, Diagnostic, Fix};
use isu_plugin_api::Span;

/// Where a missing closer goes, and why there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Before a line indented no deeper than the opener's line (the token
    /// starting that line).
    Dedent(Span),
    /// Before a line that starts a field, a section or a step (its first
    /// token).
    Statement(Span),
    /// Before the closer of a bracket outside it (that closer, and what it
    /// closes).
    Closer(Span, Delim),
    /// At the end of the text.
    End,
}

/// One closer the text lacks.
#[derive(Debug, Clone, Copy)]
pub struct Missing<'a> {
    /// The opener that is never closed.
    pub frame: Frame<'a>,
    /// Where the closer goes: just after this position (the end of the last
    /// token before the cut).
    pub at: Pos,
    pub cut: Cut,
}

impl Missing<'_> {
    /// The text that inserts this closer at [`Missing::at`]: a block's closer
    /// on a line of its own, indented as the line that opened the block; an
    /// expression's right where it ends.
    pub fn text(&self) -> String {
        let closer = self.frame.delim.close_text().trim_matches('`');
        if self.frame.block {
            let indent = self.frame.indent.saturating_sub(1) as usize;
            format!("\n{}{closer}", " ".repeat(indent))
        } else {
            closer.to_owned()
        }
    }
}

/// A certain placement of every closer a text lacks, innermost first at each
/// place.
#[derive(Debug, Clone)]
pub struct Plan<'a> {
    pub missing: Vec<Missing<'a>>,
}

impl Plan<'_> {
    /// The text that inserts, at the place of `missing[k]`, its closer and
    /// those of the frames inside it that close at the same place (inner
    /// ones first): what a fix for `missing[k]` inserts, so that whichever
    /// fix of one place is applied first, the closers come in their order.
    pub fn text_up_to(&self, k: usize) -> String {
        let at = self.missing[k].at;
        let first = self.missing[..k]
            .iter()
            .rposition(|m| m.at != at)
            .map_or(0, |p| p + 1);
        self.missing[first..=k].iter().map(Missing::text).collect()
    }

    /// `toks` with a zero-width closer token at the place of each missing
    /// one: a balanced token stream.
    pub fn close<'a>(&self, toks: &[Spanned<'a>]) -> Vec<Spanned<'a>> {
        let mut out = Vec::with_capacity(toks.len() + self.missing.len());
        let mut missing = self.missing.iter().peekable();
        for &t in toks {
            while let Some(m) = missing.next_if(|m| m.at.off <= t.0.off) {
                out.push((m.at, closer_token(m.frame.delim), m.at));
            }
            out.push(t);
        }
        for m in missing {
            out.push((m.at, closer_token(m.frame.delim), m.at));
        }
        out
    }
}

fn closer_token(d: Delim) -> Tok<'static> {
    match d {
        Delim::Begin => Tok::Kw(Kw::End),
        Delim::Brace => Tok::RBrace,
        Delim::Paren => Tok::RParen,
        Delim::Bracket => Tok::RBracket,
    }
}

/// The placement of the closers `toks` (the repaired tokens of `text`)
/// lacks, when its layout shows it and it balances the text; `None` when
/// nothing is missing, when the text has a closer too many or of the wrong
/// kind, or when the layout does not tell.
pub fn plan<'a>(text: &str, toks: &[Spanned<'a>]) -> Option<Plan<'a>> {
    let missing = place(text, toks)?;
    if missing.is_empty() {
        return None;
    }
    let plan = Plan { missing };
    // Certain only if the text balances with the closers in place.
    let mut fixed = text.to_owned();
    for (k, m) in plan.missing.iter().enumerate().rev() {
        let last_here = plan.missing.get(k + 1).is_none_or(|n| n.at != m.at);
        if last_here {
            fixed.insert_str(m.at.off as usize, &plan.text_up_to(k));
        }
    }
    let lexed = lexer::lex(&fixed);
    let repaired = repair::repair(&fixed, lexed.tokens);
    structure::balanced(&fixed, &repaired.tokens, lexed.end).then_some(plan)
}

/// Walks the tokens, closing by layout what is left open.
fn place<'a>(text: &str, toks: &[Spanned<'a>]) -> Option<Vec<Missing<'a>>> {
    let mut sc = Scanner::default();
    let mut missing = Vec::new();
    for i in 0..toks.len() {
        let (pos, tok, tok_end) = toks[i];
        let here = pos.to(tok_end);
        let first_on_line = i == 0 || toks[i - 1].0.line < pos.line;
        let before = if i == 0 { pos } else { toks[i - 1].2 };
        if first_on_line {
            if starts_statement(toks, i) {
                while sc.stack.last().is_some_and(|f| !f.block) {
                    let frame = sc.stack.pop()?;
                    missing.push(Missing {
                        frame,
                        at: before,
                        cut: Cut::Statement(here),
                    });
                }
            }
            while let Some(&top) = sc.stack.last() {
                let own_closer = Delim::closer(&tok) == Some(top.delim) && pos.col == top.indent;
                if !top.block || pos.col > top.indent || own_closer {
                    break;
                }
                sc.stack.pop();
                missing.push(Missing {
                    frame: top,
                    at: before,
                    cut: Cut::Dedent(here),
                });
            }
        }
        match sc.feed(toks, i, (i + 1 < toks.len()).then_some(i + 1)) {
            Event::Other => {}
            Event::Open(d) => {
                if sc.stack.len() >= MAX_NESTING {
                    return None;
                }
                let indent = line_indent(text, pos.off);
                let frame = sc.frame(toks, i, d, indent);
                sc.stack.push(frame);
            }
            Event::Close(d) => {
                let k = sc.stack.iter().rposition(|f| f.delim == d)?;
                // Only the brackets of an expression may be skipped.
                if sc.stack[k + 1..].iter().any(|f| f.block) {
                    return None;
                }
                for frame in sc.stack.split_off(k + 1).into_iter().rev() {
                    missing.push(Missing {
                        frame,
                        at: before,
                        cut: Cut::Closer(here, d),
                    });
                }
                sc.stack.pop();
            }
        }
    }
    let last = toks.last().map_or(Pos::default(), |t| t.2);
    while let Some(frame) = sc.stack.pop() {
        missing.push(Missing {
            frame,
            at: last,
            cut: Cut::End,
        });
    }
    Some(missing)
}

/// Whether token `i`, the first of its line, starts a field, a section, a
/// step or a patch entry: a keyword, or a step ID before `:` or a kind.
fn starts_statement(toks: &[Spanned<'_>], i: usize) -> bool {
    match toks[i].1 {
        Tok::Kw(_) => true,
        Tok::StepId(_) => matches!(toks.get(i + 1).map(|t| t.1), Some(Tok::Colon | Tok::Kw(_))),
        _ => false,
    }
}

impl Plan<'_> {
    /// What the plan reports: an error for each block left open, and one for
    /// each run of expression brackets that close at one place (named by the
    /// outermost), each with the fix that inserts its closers where the plan
    /// puts them.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for (k, m) in self.missing.iter().enumerate() {
            let inner_of_next = self
                .missing
                .get(k + 1)
                .is_some_and(|n| n.at == m.at && !n.frame.block && !m.frame.block);
            if inner_of_next {
                continue;
            }
            out.push(self.diagnostic(k));
        }
        out
    }

    fn diagnostic(&self, k: usize) -> Diagnostic {
        let m = &self.missing[k];
        let f = &m.frame;
        let close = f.delim.close_text();
        // The expression brackets closing here with it, inner first.
        let run: Vec<&str> = self.missing[..=k]
            .iter()
            .rev()
            .take_while(|n| n.at == m.at && !n.frame.block)
            .map(|n| n.frame.delim.close_text())
            .collect();
        let lacks = if run.len() > 1 {
            let all: Vec<&str> = run.iter().rev().copied().collect();
            format!(" (it lacks {})", all.join(" "))
        } else {
            String::new()
        };
        let opened = format!("{} opened at line {}", f.describe(), f.pos.line);
        let place = if f.block {
            format!(
                "on a line of its own after line {}, indented as line {}",
                m.at.line, f.pos.line
            )
        } else {
            format!("at the end of line {}", m.at.line)
        };
        let (code, message, span, hint) = match m.cut {
            Cut::Dedent(next) => (
                Code::UnclosedBlock,
                format!(
                    "expected {close} to close {opened}, before line {}, which is indented no deeper than line {}{lacks}",
                    next.line, f.pos.line
                ),
                f.pos.to(f.end),
                format!("add {close} {place}"),
            ),
            Cut::Statement(next) => (
                Code::UnclosedBlock,
                format!(
                    "expected {close} to close {opened}, before line {}: an expression ends before the next field or step{lacks}",
                    next.line
                ),
                f.pos.to(f.end),
                format!("add {} {place}", run.join(" ")),
            ),
            Cut::Closer(found, d) => (
                Code::MismatchedClose,
                format!(
                    "expected {close} to close {opened}, found {}{lacks}",
                    d.close_text()
                ),
                found,
                format!("add {} before the {}", run.join(" "), d.close_text()),
            ),
            Cut::End => (
                Code::UnclosedBlock,
                format!("expected {close} to close {opened}, found the end of the file{lacks}"),
                f.pos.to(f.end),
                if f.block {
                    format!("add {close} at the end of the file, indented as line {}", f.pos.line)
                } else {
                    format!("add {} at the end of the file", run.join(" "))
                },
            ),
        };
        let at = Span {
            lo: m.at.off,
            hi: m.at.off,
            line: m.at.line,
            col: m.at.col,
        };
        let mut d = Diagnostic::error(code, message)
            .at(span)
            .with_label(at, format!("{close} expected here"))
            .with_hint(hint)
            .with_fix(Fix::replace(at, self.text_up_to(k)));
        if matches!(m.cut, Cut::Closer(..)) {
            d = d.with_label(f.pos.to(f.end), "opened here");
        }
        d
    }
}
