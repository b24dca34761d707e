//! Tokens and source positions: what the lexer hands the grammar.

pub use super::vocab::Kw;
use isu_plugin_api::Span;
use std::fmt;

/// A place in the source: a byte offset with its 1-based line and column (the
/// column in Unicode scalar values). The lexer computes line and column as it
/// goes, so spans need no line-table look-up. Ordered by offset.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub off: u32,
    pub line: u32,
    pub col: u32,
}

impl Pos {
    /// The span from `self` to `end` (which only lends its offset).
    pub fn to(self, end: Pos) -> Span {
        Span {
            lo: self.off,
            hi: end.off.max(self.off),
            line: self.line,
            col: self.col,
        }
    }
}

/// One token. Text-carrying tokens borrow from the source: a string token holds
/// the raw text between its quotes, escapes not yet decoded (the lexer has
/// checked them; [`super::lexer::unescape`] decodes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok<'a> {
    Kw(Kw),
    Ident(&'a str),
    StepId(&'a str),
    Int(i64),
    /// A number with a fraction or an exponent: a float, by its bits.
    Float(u64),
    Str(&'a str),
    True,
    False,
    Null,
    Colon,
    Comma,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Lt,
    Gt,
    Eq,
    /// `[` written right after a name, `)` or `]` and not followed by `]`:
    /// a subscript as other languages write it (`xs[i]`, `list[int]`).
    Subscript,
    /// An operator symbol of infix languages (`+`, `==`, `&&`, `!`): not
    /// Isu, read so that the error can say what to write instead. `<`, `>`
    /// and `=` are tokens of their own (types and STATE use them).
    Sym(&'a str),
}

/// A token with its start and end.
pub type Spanned<'a> = (Pos, Tok<'a>, Pos);

impl Tok<'_> {
    /// How a message names this token: the keyword, the punctuation in
    /// backquotes, or the kind and text of a literal.
    pub fn describe(&self) -> String {
        match self {
            Tok::Kw(k) => k.as_str().to_owned(),
            Tok::Ident(s) => format!("the name `{s}`"),
            Tok::StepId(s) => format!("the step ID {s}"),
            Tok::Int(i) => format!("the number {i}"),
            Tok::Float(bits) => format!(
                "the number {}",
                isu_lang::float::repr(f64::from_bits(*bits))
            ),
            Tok::Str(s) => format!("the string \"{}\"", shorten(s, 30)),
            Tok::True => "`true`".to_owned(),
            Tok::False => "`false`".to_owned(),
            Tok::Null => "`null`".to_owned(),
            Tok::Sym(s) => format!("`{s}`"),
            punct => format!("`{}`", punct.punct_text()),
        }
    }

    /// The text of a punctuation token (empty for other tokens).
    pub fn punct_text(&self) -> &'static str {
        match self {
            Tok::Colon => ":",
            Tok::Comma => ",",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket | Tok::Subscript => "[",
            Tok::RBracket => "]",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Lt => "<",
            Tok::Gt => ">",
            Tok::Eq => "=",
            _ => "",
        }
    }
}

impl fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

/// `s` cut to at most `max` characters, with `...` when cut.
pub fn shorten(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_owned(),
    }
}
