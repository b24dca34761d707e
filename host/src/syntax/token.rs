//! Tokens and source positions: what the lexer hands the grammar.

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
}

/// A token with its start and end.
pub type Spanned<'a> = (Pos, Tok<'a>, Pos);

macro_rules! keywords {
    ($($variant:ident = $text:literal,)*) => {
        /// The reserved upper-case words of Isu.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Kw {
            $($variant,)*
        }

        /// The reserved words, as written.
        pub const KEYWORDS: &[&str] = &[$($text,)*];

        impl Kw {
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Kw::$variant => $text,)*
                }
            }

            /// The keyword spelled `word`, if it is one.
            pub fn from_word(word: &str) -> Option<Kw> {
                match word {
                    $($text => Some(Kw::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

keywords! {
    Meta = "META",
    AutoId = "AUTO_ID",
    Func = "FUNC",
    Name = "NAME",
    Args = "ARGS",
    Returns = "RETURNS",
    Io = "IO",
    Input = "INPUT",
    Output = "OUTPUT",
    State = "STATE",
    Local = "LOCAL",
    Steps = "STEPS",
    Seq = "SEQ",
    Assign = "ASSIGN",
    If = "IF",
    Loop = "LOOP",
    Return = "RETURN",
    Cond = "COND",
    Then = "THEN",
    Else = "ELSE",
    Iter = "ITER",
    Body = "BODY",
    Target = "TARGET",
    Expr = "EXPR",
    Begin = "BEGIN",
    End = "END",
    Patch = "PATCH",
    Replace = "REPLACE",
    InsertAfter = "INSERT_AFTER",
    Delete = "DELETE",
}

impl Kw {
    /// A section keyword (`META`, `FUNC`, `IO`, `STATE`, `LOCAL`, `STEPS`).
    pub fn is_section(self) -> bool {
        matches!(
            self,
            Kw::Meta | Kw::Func | Kw::Io | Kw::State | Kw::Local | Kw::Steps
        )
    }

    /// A statement keyword (`SEQ`, `ASSIGN`, `IF`, `LOOP`, `RETURN`).
    pub fn is_step_kind(self) -> bool {
        matches!(self, Kw::Seq | Kw::Assign | Kw::If | Kw::Loop | Kw::Return)
    }

    /// A field keyword, of a section (`NAME`, `INPUT`, ...) or of a step (`COND`, ...).
    pub fn is_field(self) -> bool {
        matches!(
            self,
            Kw::AutoId
                | Kw::Name
                | Kw::Args
                | Kw::Returns
                | Kw::Input
                | Kw::Output
                | Kw::Cond
                | Kw::Then
                | Kw::Else
                | Kw::Iter
                | Kw::Body
                | Kw::Target
                | Kw::Expr
        )
    }

    /// A field whose value is a block (`THEN`, `ELSE`, `BODY`).
    pub fn is_block_field(self) -> bool {
        matches!(self, Kw::Then | Kw::Else | Kw::Body)
    }

    /// A patch entry keyword (`REPLACE`, `INSERT_AFTER`, `DELETE`).
    pub fn is_patch_entry(self) -> bool {
        matches!(self, Kw::Replace | Kw::InsertAfter | Kw::Delete)
    }
}

impl Tok<'_> {
    /// How a message names this token: the keyword, the punctuation in
    /// backquotes, or the kind and text of a literal.
    pub fn describe(&self) -> String {
        match self {
            Tok::Kw(k) => k.as_str().to_owned(),
            Tok::Ident(s) => format!("the name `{s}`"),
            Tok::StepId(s) => format!("the step ID {s}"),
            Tok::Int(i) => format!("the number {i}"),
            Tok::Str(s) => format!("the string \"{}\"", shorten(s, 30)),
            Tok::True => "`true`".to_owned(),
            Tok::False => "`false`".to_owned(),
            Tok::Null => "`null`".to_owned(),
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
            Tok::LBracket => "[",
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
