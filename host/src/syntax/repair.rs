//! The repair pass: slips that models make in the words of a program,
//! corrected on the tokens before the grammar runs.
//!
//! A keyword in another case or under another name (`loop:`, `Steps:`,
//! `CONDITION:` in an IF, `RETURN:` in FUNC), `True` where JSON has `true`,
//! and `ELSE IF:` (which Isu writes `ELSE: BEGIN IF: ... END`) are each
//! reported as an error with the fix that writes them right, and the grammar
//! then sees the program as it was meant. So one slip gives one error, and
//! every other error of the file is still found in the same run.

use super::token::{Kw, Spanned, Tok};
use super::vocab::{keyword_meant, literal_meant, names_another_keyword};
use crate::diag::{Code, Diagnostic, Fix};

/// The tokens as meant, and what was corrected.
#[derive(Debug)]
pub struct Repaired<'a> {
    pub tokens: Vec<Spanned<'a>>,
    pub diags: Vec<Diagnostic>,
    /// Whether `tokens` differ from the lexer's.
    pub changed: bool,
}

/// Corrects the tokens of `text`. A text without slips (the common case)
/// keeps its token vector as it is.
pub fn repair<'a>(text: &str, toks: Vec<Spanned<'a>>) -> Repaired<'a> {
    let mut r = Repairer {
        text,
        toks: &toks,
        edits: Vec::new(),
        diags: Vec::new(),
        nesting: 0,
        section: None,
        kind: None,
        kinds: Vec::new(),
    };
    let mut i = 0;
    while i < toks.len() {
        i = r.token(i);
    }
    let Repairer {
        mut edits, diags, ..
    } = r;
    if edits.is_empty() {
        return Repaired {
            tokens: toks,
            diags,
            changed: false,
        };
    }
    // Stable: insertions registered ahead stay in order among themselves.
    edits.sort_by_key(|e| e.from);
    let mut out = Vec::with_capacity(toks.len() + 8);
    let mut at = 0;
    for e in edits {
        out.extend_from_slice(&toks[at..e.from.max(at)]);
        out.extend(e.with);
        at = at.max(e.to);
    }
    out.extend_from_slice(&toks[at.min(toks.len())..]);
    Repaired {
        tokens: out,
        diags,
        changed: true,
    }
}

/// Tokens `from..to` of the input replaced by `with` (an insertion when
/// `from == to`).
struct TokenEdit<'a> {
    from: usize,
    to: usize,
    with: Vec<Spanned<'a>>,
}

struct Repairer<'t, 'a> {
    text: &'t str,
    toks: &'t [Spanned<'a>],
    edits: Vec<TokenEdit<'a>>,
    diags: Vec<Diagnostic>,
    /// Open `(` and `[`: inside them no keyword stands.
    nesting: usize,
    /// The section the text is in.
    section: Option<Kw>,
    /// The kind of the step whose fields come now, in the innermost block.
    kind: Option<Kw>,
    /// The step kinds of the enclosing blocks.
    kinds: Vec<Option<Kw>>,
}

impl<'a> Repairer<'_, 'a> {
    fn first_on_line(&self, i: usize) -> bool {
        i == 0 || self.toks[i - 1].0.line < self.toks[i].0.line
    }

    fn last_on_line(&self, i: usize) -> bool {
        self.toks
            .get(i + 1)
            .is_none_or(|n| n.0.line > self.toks[i].0.line)
    }

    fn next(&self, i: usize) -> Option<Tok<'a>> {
        self.toks.get(i + 1).map(|t| t.1)
    }

    /// `S2:` just before token `i`: a header's kind stands here.
    fn after_step_id(&self, i: usize) -> bool {
        i >= 2 && self.toks[i - 1].1 == Tok::Colon && matches!(self.toks[i - 2].1, Tok::StepId(_))
    }

    /// What holds the fields here: the section at the top level, the step
    /// kind inside STEPS.
    fn holder(&self) -> Option<Kw> {
        if self.section == Some(Kw::Steps) && (self.kind.is_some() || !self.kinds.is_empty()) {
            self.kind.or(Some(Kw::Steps))
        } else {
            self.section
        }
    }

    /// Reads token `i`, correcting it if need be; returns the index of the
    /// next token.
    fn token(&mut self, i: usize) -> usize {
        let (l, tok, r) = self.toks[i];
        let fixed = match tok {
            Tok::Ident(_) | Tok::Kw(_) if self.nesting == 0 => {
                if let Some(next) = self.else_if(i) {
                    return next;
                }
                self.keyword(i, tok, word_of(&tok))
            }
            Tok::Ident(word)
                if matches!(self.section, Some(Kw::Meta | Kw::Io))
                    && matches!(literal_meant(word), Some(Some(_))) =>
            {
                Some(self.literal(i, word))
            }
            _ => None,
        };
        if let Some(t) = fixed {
            self.edits.push(TokenEdit {
                from: i,
                to: i + 1,
                with: vec![(l, t, r)],
            });
        }
        let tok = fixed.unwrap_or(tok);
        let colon_next = self.next(i) == Some(Tok::Colon) || self.missing_colon(i, tok);
        self.track(tok, colon_next);
        i + 1
    }

    /// A section or field keyword, or `SEQ` before its block, starting its
    /// line without the `:` it takes (`COND (gt ...)`, `THEN BEGIN`, `STEPS`
    /// alone, `SEQ BEGIN`): read with it,
    /// reported with the fix that writes it. `true` when it was missing.
    fn missing_colon(&mut self, i: usize, tok: Tok<'a>) -> bool {
        let Tok::Kw(k) = tok else {
            return false;
        };
        // `SEQ BEGIN` without an ID is a header that lacks its `:` (with
        // an ID, `S3: SEQ BEGIN` is right).
        let seq_block =
            k == Kw::Seq && matches!(self.next(i), Some(Tok::Kw(Kw::Begin) | Tok::LBrace));
        if self.nesting > 0
            || !(k.is_field() || k.is_section() || seq_block)
            || !self.first_on_line(i)
            || self.next(i) == Some(Tok::Colon)
        {
            return false;
        }
        let (_, _, r) = self.toks[i];
        let at = r.to(r);
        self.diags.push(
            Diagnostic::error(
                Code::MissingColon,
                format!("`{}` is written with a `:` after it", k.as_str()),
            )
            .at(self.toks[i].0.to(r))
            .with_hint(format!("write {}:", k.as_str()))
            .with_fix(Fix::replace(at, ":")),
        );
        self.edits.push(TokenEdit {
            from: i + 1,
            to: i + 1,
            with: vec![(r, Tok::Colon, r)],
        });
        true
    }

    /// Follows sections, blocks and step kinds; `colon_next`: a `:` follows
    /// the token (as written, or as the repair reads it).
    fn track(&mut self, tok: Tok<'a>, colon_next: bool) {
        match tok {
            Tok::LParen | Tok::LBracket | Tok::Subscript => self.nesting += 1,
            Tok::RParen | Tok::RBracket => self.nesting = self.nesting.saturating_sub(1),
            _ if self.nesting > 0 => {}
            Tok::Kw(k) if k.is_section() && colon_next && self.kinds.is_empty() => {
                self.section = Some(k);
                self.kind = None;
            }
            Tok::Kw(k) if k.is_step_kind() => self.kind = Some(k),
            Tok::Kw(Kw::Begin) | Tok::LBrace => {
                self.kinds.push(self.kind);
                self.kind = None;
            }
            Tok::Kw(Kw::End) | Tok::RBrace => self.kind = self.kinds.pop().flatten(),
            _ => {}
        }
    }

    /// A word where a keyword stands, if it means one: corrected, reported.
    fn keyword(&mut self, i: usize, tok: Tok<'a>, word: &str) -> Option<Tok<'a>> {
        // A keyword as written stands unless it is another one's other name.
        if let Tok::Kw(k) = tok {
            if !names_another_keyword(k) {
                return None;
            }
        }
        let in_header = self.after_step_id(i);
        if !(self.first_on_line(i) || in_header) {
            return None;
        }
        let holder = self.holder();
        // The place's own words first, then a statement's, then any keyword
        // in another case.
        let statement = (self.section == Some(Kw::Steps)).then_some(Kw::Steps);
        let any = matches!(tok, Tok::Ident(_)).then_some(None);
        let meant = [Some(holder), Some(statement), any]
            .into_iter()
            .flatten()
            .find_map(|h| keyword_meant(word, h).filter(|&k| self.fits(i, k, in_header)))?;
        if let Tok::Kw(k) = tok {
            if k == meant {
                return None;
            }
        }
        let (l, _, r) = self.toks[i];
        let span = l.to(r);
        let written = &self.text[l.off as usize..r.off as usize];
        let same_word = written.eq_ignore_ascii_case(meant.as_str());
        let message = if same_word {
            format!(
                "keywords are upper case: `{written}` is written {}",
                meant.as_str()
            )
        } else {
            format!(
                "`{written}` is not an Isu keyword{}: the word for it is {}",
                holder_phrase(holder),
                meant.as_str()
            )
        };
        self.diags.push(
            Diagnostic::error(Code::MisspeltKeyword, message)
                .at(span)
                .with_hint(format!("write {}", meant.as_str()))
                .with_fix(Fix::replace(span, meant.as_str())),
        );
        Some(Tok::Kw(meant))
    }

    /// Whether keyword `kw` can stand at token `i` (in a header after `S2:`
    /// when `in_header`): a field or section before its `:`, a step kind
    /// before its `:`, a description or the line's end, END alone on its line.
    fn fits(&self, i: usize, kw: Kw, in_header: bool) -> bool {
        let next = self.next(i);
        let colon_next = next == Some(Tok::Colon);
        match kw {
            _ if in_header => kw.is_step_kind(),
            Kw::Begin => true,
            Kw::End => self.last_on_line(i),
            k if k.is_step_kind() => {
                colon_next || matches!(next, Some(Tok::Str(_))) || self.last_on_line(i)
            }
            _ => colon_next,
        }
    }

    /// `True`, `False` inside META or IO, where JSON has `true` and `false`.
    fn literal(&mut self, i: usize, word: &str) -> Tok<'a> {
        let (l, _, r) = self.toks[i];
        let lit = literal_meant(word).flatten().unwrap_or("false");
        let span = l.to(r);
        self.diags.push(
            Diagnostic::error(
                Code::InvalidLiteral,
                format!("`{word}` is not JSON: the booleans are true and false"),
            )
            .at(span)
            .with_hint(format!("write {lit}"))
            .with_fix(Fix::replace(span, lit)),
        );
        if lit == "true" {
            Tok::True
        } else {
            Tok::False
        }
    }

    /// `ELSE IF` (or `ELSEIF`, `ELIF`) in an IF: read as `ELSE: BEGIN IF:`,
    /// with an `END` after that IF. Returns the index after what it took.
    fn else_if(&mut self, i: usize) -> Option<usize> {
        if !self.first_on_line(i) || self.holder() != Some(Kw::If) {
            return None;
        }
        let (l, tok, r) = self.toks[i];
        // The tokens `ELSE IF` take: two words, or one (`ELIF`).
        let words = match tok {
            Tok::Kw(Kw::Else) => match self.next(i) {
                Some(Tok::Kw(Kw::If)) => 2,
                Some(Tok::Ident(w)) if w.eq_ignore_ascii_case("if") => 2,
                _ => return None,
            },
            Tok::Ident(w)
                if ["ELSEIF", "ELIF", "ELSE_IF", "ELSIF"]
                    .contains(&w.to_ascii_uppercase().as_str()) =>
            {
                1
            }
            _ => return None,
        };
        let if_at = i + words - 1;
        let colon = self.next(if_at) == Some(Tok::Colon);
        let last = if colon { if_at + 1 } else { if_at };
        let end_at = self.nested_if_end(if_at + usize::from(colon) + 1);
        let indent = (l.col as usize).saturating_sub(1);
        let (_, _, written_end) = self.toks[last];
        let written = self.text[l.off as usize..written_end.off as usize].to_owned();
        // Where the END goes: after the last token of the nested IF.
        let end_pos = match end_at.checked_sub(1) {
            Some(k) if k >= i => self.toks[k].2,
            _ => written_end,
        };
        let head_span = l.to(written_end);
        let end_span = end_pos.to(end_pos);
        let fix = Fix::edits(vec![
            (
                head_span,
                format!("ELSE: BEGIN\n{}IF:", " ".repeat(indent + 2)),
            ),
            (end_span, format!("\n{}END", " ".repeat(indent))),
        ]);
        self.diags.push(
            Diagnostic::error(
                Code::UnknownStatement,
                format!("Isu has no `{written}`: an IF inside the ELSE block is written ELSE: BEGIN IF: ... END"),
            )
            .at(head_span)
            .with_hint(format!(
                "write `ELSE: BEGIN`, then `IF:` on the next line, and `END` after that IF (at line {})",
                end_pos.line
            ))
            .with_fix(fix),
        );
        // ELSE : BEGIN, the IF (its kind tracked), its `:`; END later.
        let (il, _, ir) = self.toks[if_at];
        self.edits.push(TokenEdit {
            from: i,
            to: last + 1,
            with: vec![
                (l, Tok::Kw(Kw::Else), r),
                (l, Tok::Colon, l),
                (l, Tok::Kw(Kw::Begin), l),
                (il, Tok::Kw(Kw::If), ir),
                (ir, Tok::Colon, ir),
            ],
        });
        self.track(Tok::Kw(Kw::Begin), false);
        self.track(Tok::Kw(Kw::If), true);
        self.edits.push(TokenEdit {
            from: end_at,
            to: end_at,
            with: vec![(end_pos, Tok::Kw(Kw::End), end_pos)],
        });
        Some(last + 1)
    }

    /// The index of the first token after the IF whose fields start at
    /// `from`: the next step, section or patch entry at its level, or the
    /// closer of the block around it.
    fn nested_if_end(&self, from: usize) -> usize {
        let mut depth = 0usize;
        for k in from..self.toks.len() {
            let tok = self.toks[k].1;
            if super::structure::Delim::opener(&tok).is_some() {
                depth += 1;
                continue;
            }
            if super::structure::Delim::closer(&tok).is_some() {
                if depth == 0 {
                    return k;
                }
                depth -= 1;
                continue;
            }
            if depth > 0 || !self.first_on_line(k) {
                continue;
            }
            let colon_next = self.next(k) == Some(Tok::Colon);
            let starts = match tok {
                Tok::StepId(_) => true,
                Tok::Kw(kw) => {
                    kw.is_step_kind() || kw.is_patch_entry() || (kw.is_section() && colon_next)
                }
                Tok::Ident(w) => {
                    colon_next && keyword_meant(w, None).is_none_or(|kw| !kw.is_field())
                }
                _ => false,
            };
            if starts {
                return k;
            }
        }
        self.toks.len()
    }
}

/// Where a keyword stands, for a message: ` in FUNC`, ` in an IF`.
fn holder_phrase(holder: Option<Kw>) -> String {
    match holder {
        Some(Kw::Steps) | None => String::new(),
        Some(k) if k.is_step_kind() => format!(" in {} {}", article(k), k.as_str()),
        Some(k) => format!(" in {}", k.as_str()),
    }
}

fn article(k: Kw) -> &'static str {
    match k {
        Kw::If | Kw::Assign => "an",
        _ => "a",
    }
}

/// The text of a word token.
fn word_of<'a>(tok: &Tok<'a>) -> &'a str {
    match tok {
        Tok::Ident(w) => w,
        Tok::Kw(k) => k.as_str(),
        _ => "",
    }
}
