//! What a text holds at a point, read from its tokens alone, so that it is
//! known while the text does not parse (an editor's text, mid-edit): the
//! word at the point, what may be written there, and the names the text
//! declares.
//!
//! The structure scanner that names the steps of a broken text ([`super::outline`])
//! says where the point stands (the section, the step and its fields so
//! far, the block or the brackets around it); this module turns that into
//! a [`Slot`]. It decides nothing about which words exist: the caller
//! takes keywords, operators, types and functions from their tables.

use super::lexer;
use super::repair;
use super::structure::{self, Delim, Scanner};
use super::token::{Kw, Pos, Spanned, Tok};
use isu_plugin_api::Span;

/// What a word of the text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lexeme {
    Keyword(Kw),
    /// A name: a variable, a function (`LEN`, `math.GCD`), an operator
    /// (`add`), a type (`int`), a struct or a field.
    Name,
    StepId,
    Number,
    String,
    /// `true`, `false`, `null`.
    Literal,
}

/// One word of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word {
    pub lexeme: Lexeme,
    pub span: Span,
}

/// What may be written at a point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    /// The first word of a line outside every block: a section, or a field
    /// of the `section` the point is in that is not `given` yet.
    Section { section: Option<Kw>, given: Vec<Kw> },
    /// The first word of a line in a block: a step's header, or a field of
    /// the step of kind `step` the point is in that is not `given` yet.
    Statement { step: Option<Kw>, given: Vec<Kw> },
    /// The kind of a step, after its ID (`S2: `).
    StepKind,
    /// The value of a field, on the field's line (`COND: `): an expression,
    /// a place (`TARGET`), an iterator (`ITER`), a type (`RETURNS`).
    Value { field: Kw },
    /// The head of an S-expression, right after its `(`; `field` is the
    /// field the expression is in (`ITER` takes `range`, `each`, `while`).
    Operator { field: Option<Kw> },
    /// The function of a `(call ...)`.
    Function,
    /// A variable: the name of a `(var ...)`, a loop variable, the root of
    /// a place.
    Variable,
    /// A type: after `name:` in ARGS, STATE, LOCAL or a struct of TYPES.
    Type,
    /// Anything else: a value, a string, a comment, past the end.
    Other,
}

/// Where a point of a text stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    /// The word the point is in or right after (being written), if any.
    pub word: Option<Word>,
    /// What may be written in the place of that word, or at the point.
    pub slot: Slot,
}

/// Where a name is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclKind {
    /// An argument (`FUNC`'s `ARGS`).
    Arg,
    /// A `STATE` variable.
    State,
    /// A `LOCAL` variable.
    Local,
    /// A struct of `TYPES`.
    Struct,
}

/// A name the text declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    pub name: String,
    pub kind: DeclKind,
    /// Where the name is written.
    pub name_span: Span,
    /// The type as written (for a struct: its fields as written), blanks
    /// between tokens made single.
    pub ty: String,
    /// The whole declaration: the name to the end of its type.
    pub span: Span,
}

/// The tokens of `text`, with the slips the repair pass reads as meant
/// (`loop:` as `LOOP:`) read so.
fn tokens(text: &str) -> Vec<Spanned<'_>> {
    repair::repair(text, lexer::lex(text).tokens).tokens
}

fn word_of(t: &Spanned<'_>) -> Option<Word> {
    let lexeme = match t.1 {
        Tok::Kw(k) => Lexeme::Keyword(k),
        Tok::Ident(_) => Lexeme::Name,
        Tok::StepId(_) => Lexeme::StepId,
        Tok::Int(_) | Tok::Float(_) => Lexeme::Number,
        Tok::Str(_) => Lexeme::String,
        Tok::True | Tok::False | Tok::Null => Lexeme::Literal,
        _ => return None,
    };
    Some(Word {
        lexeme,
        span: t.0.to(t.2),
    })
}

/// Where the byte `offset` of `text` stands.
pub fn cursor(text: &str, offset: u32) -> Cursor {
    let toks = tokens(text);
    // The word holding the point, or ending right at it.
    let at_word = toks
        .iter()
        .position(|t| t.0.off <= offset && offset <= t.2.off && word_of(t).is_some())
        .filter(|&i| !(toks[i].2.off == offset && next_starts_at(&toks, i, offset)));
    let word = at_word.and_then(|i| word_of(&toks[i]));
    // The first token the slot is about: the word, or what follows the point.
    let at = at_word.unwrap_or_else(|| toks.partition_point(|t| t.0.off < offset));
    if matches!(
        word,
        Some(Word {
            lexeme: Lexeme::String | Lexeme::Number | Lexeme::Literal,
            ..
        })
    ) || in_comment(text, offset)
    {
        return Cursor {
            word,
            slot: Slot::Other,
        };
    }
    let live: Vec<usize> = (0..toks.len()).collect();
    let sc = structure::context_at(&toks, &live, at);
    let line = match word {
        Some(w) => w.span.line,
        None => line_of(text, offset),
    };
    let prev = at.checked_sub(1).map(|p| &toks[p]);
    let first_on_line = prev.is_none_or(|p| p.2.line < line);
    Cursor {
        word,
        slot: slot(&toks, &sc, at, prev, first_on_line),
    }
}

/// Whether another token starts right where token `i` ends (the point
/// between `x` and `)` belongs to `x`, but between `(` and `x` to `x`).
fn next_starts_at(toks: &[Spanned<'_>], i: usize, offset: u32) -> bool {
    toks.get(i + 1)
        .is_some_and(|n| n.0.off == offset && word_of(n).is_some())
}

fn in_comment(text: &str, offset: u32) -> bool {
    let start = text
        .get(..offset as usize)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |p| p + 1);
    text.get(start..offset as usize)
        .is_some_and(|l| l.trim_start().starts_with(';'))
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: u32) -> u32 {
    let end = (offset as usize).min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u32
        + 1
}

fn slot(
    toks: &[Spanned<'_>],
    sc: &Scanner<'_>,
    at: usize,
    prev: Option<&Spanned<'_>>,
    first_on_line: bool,
) -> Slot {
    let innermost = sc.stack.last();
    match innermost {
        Some(f) if !f.block => return in_brackets(toks, sc, f.delim, f.pos.off, at),
        _ => {}
    }
    if matches!(prev.map(|p| p.1), Some(Tok::Colon))
        && matches!(at.checked_sub(2).map(|p| toks[p].1), Some(Tok::StepId(_)))
        && !first_on_line
    {
        return Slot::StepKind;
    }
    let level = sc.level().copied().unwrap_or_default();
    if first_on_line {
        let given = |kind: Kw| -> Vec<Kw> {
            kind.field_order()
                .iter()
                .copied()
                .filter(|k| level.fields.contains(*k))
                .collect()
        };
        return match innermost {
            Some(_) => {
                let step = level.step.and_then(|s| s.kind);
                Slot::Statement {
                    step,
                    given: step.map(given).unwrap_or_default(),
                }
            }
            None => Slot::Section {
                section: sc.section,
                given: sc.section.map(given).unwrap_or_default(),
            },
        };
    }
    // On a field's line, after its `:`.
    match (level.last_field, prev.map(|p| p.1)) {
        (Some(Kw::Returns), Some(Tok::Colon)) => Slot::Type,
        (Some(field), Some(Tok::Colon)) if field.is_field() => Slot::Value { field },
        _ => Slot::Other,
    }
}

/// The slot of a point inside an expression's `(` or a list's `[` or `{`
/// that opens at `open`.
fn in_brackets(toks: &[Spanned<'_>], sc: &Scanner<'_>, delim: Delim, open: u32, at: usize) -> Slot {
    let Ok(first) = toks.binary_search_by_key(&open, |t| t.0.off) else {
        return Slot::Other;
    };
    // The items between the opener and the point, at the opener's depth.
    let mut items: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate().take(at).skip(first + 1) {
        if depth == 0 && !matches!(t.1, Tok::RParen | Tok::RBracket | Tok::RBrace) {
            items.push(i);
        }
        match t.1 {
            Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::Subscript => depth += 1,
            Tok::RParen | Tok::RBracket | Tok::RBrace => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let owner = sc.owner_here();
    match delim {
        Delim::Paren => {
            let head = items.first().map(|&i| toks[i].1);
            match (items.len(), head) {
                (0, _) => Slot::Operator { field: owner.field },
                (1, Some(Tok::Ident("call"))) => Slot::Function,
                (1, Some(Tok::Ident("var" | "range" | "each"))) => Slot::Variable,
                (1, Some(Tok::Ident("index" | "field"))) if owner.field == Some(Kw::Target) => {
                    Slot::Variable
                }
                _ => Slot::Other,
            }
        }
        Delim::Bracket | Delim::Brace => {
            let declares = matches!(owner.section, Some(Kw::State | Kw::Local | Kw::Types))
                || owner.field == Some(Kw::Args);
            let after_name = matches!(items.as_slice(), [.., n, c]
                if matches!(toks[*n].1, Tok::Ident(_)) && toks[*c].1 == Tok::Colon);
            if declares && after_name {
                Slot::Type
            } else {
                Slot::Other
            }
        }
        Delim::Begin => Slot::Other,
    }
}

/// Every name `text` declares, in the order written: the arguments, the
/// STATE and LOCAL variables, the structs of TYPES.
pub fn declared(text: &str) -> Vec<Declared> {
    let toks = tokens(text);
    let mut sc = Scanner::default();
    let mut out = Vec::new();
    for i in 0..toks.len() {
        // A name first in a list of declarations: `[` or `,` before, `:`
        // (`=` for a struct) after, at the list's own depth.
        if let (Some(f), Tok::Ident(name)) = (sc.stack.last(), toks[i].1) {
            let first = i > 0 && matches!(toks[i - 1].1, Tok::LBracket | Tok::Comma);
            let kind = match (f.delim, f.owner.section, f.owner.field) {
                (Delim::Bracket, _, Some(Kw::Args)) => Some(DeclKind::Arg),
                (Delim::Bracket, Some(Kw::State), _) => Some(DeclKind::State),
                (Delim::Bracket, Some(Kw::Local), _) => Some(DeclKind::Local),
                (Delim::Bracket, Some(Kw::Types), _) => Some(DeclKind::Struct),
                _ => None,
            };
            let sep = match kind {
                Some(DeclKind::Struct) => Tok::Eq,
                _ => Tok::Colon,
            };
            if let (true, Some(kind), Some(next)) = (first, kind, toks.get(i + 1)) {
                if next.1 == sep {
                    let (ty, end) = type_text(text, &toks, i + 2, kind);
                    out.push(Declared {
                        name: name.to_owned(),
                        kind,
                        name_span: toks[i].0.to(toks[i].2),
                        ty,
                        span: toks[i].0.to(end),
                    });
                }
            }
        }
        sc.step_over(&toks, i, Some(i + 1).filter(|&n| n < toks.len()));
    }
    out
}

/// The text of the type starting at token `from`: up to the `,` or `]` of
/// the list (a STATE variable's `=`), outside `<...>`, `(...)`, `{...}`.
fn type_text(text: &str, toks: &[Spanned<'_>], from: usize, kind: DeclKind) -> (String, Pos) {
    let mut depth = 0i32;
    let mut parts: Vec<&str> = Vec::new();
    let mut end = toks
        .get(from.saturating_sub(1))
        .map(|t| t.2)
        .unwrap_or_default();
    for t in toks.iter().skip(from) {
        match t.1 {
            Tok::Comma | Tok::RBracket if depth <= 0 => break,
            Tok::Eq if depth <= 0 && kind != DeclKind::Struct => break,
            Tok::Kw(_) => break,
            Tok::Lt | Tok::LParen | Tok::LBrace | Tok::LBracket | Tok::Subscript => depth += 1,
            Tok::Gt | Tok::RParen | Tok::RBrace | Tok::RBracket => depth -= 1,
            _ => {}
        }
        parts.push(text.get(t.0.off as usize..t.2.off as usize).unwrap_or(""));
        end = t.2;
    }
    (join_type(&parts), end)
}

/// Type tokens joined as canonical text writes them: a space after `,`
/// and `:`, none elsewhere.
fn join_type(parts: &[&str]) -> String {
    let mut out = String::new();
    for p in parts {
        out.push_str(p);
        if matches!(*p, "," | ":") {
            out.push(' ');
        }
    }
    out
}

#[cfg(test)]
mod tests;
