//! The lexer: Isu text to tokens, byte by byte (no regular expressions).
//!
//! It never stops at an error: a bad character is reported and skipped, a bad
//! number still yields an int token, a bad escape or an unterminated string
//! still yields a string token, so the grammar sees the shape the writer meant.
//! Comment lines (first non-space character `;`) and whitespace (spaces, line
//! breaks, a carriage return before a line break) produce no tokens.

use super::token::{Kw, Pos, Spanned, Tok};
use crate::diag::{Code, Diagnostic, Fix};
use isu_plugin_api::{Span, StepId};

/// The tokens of one text, the position just past its end, the comment
/// lines, and the lexical errors.
#[derive(Debug)]
pub struct Lexed<'a> {
    pub tokens: Vec<Spanned<'a>>,
    pub end: Pos,
    /// Each comment line: the span from its `;` to the end of the line
    /// (without the line break and trailing blanks).
    pub comments: Vec<Span>,
    pub diags: Vec<Diagnostic>,
}

/// The error for the first carriage return of `text` that is not followed by
/// a line feed, if there is one. Isu lines end with LF or CRLF; a lone CR
/// (an old Mac line end) would otherwise not end a line, and a comment
/// before it would swallow the rest of the text, so the text is refused
/// there and then, before anything else is reported about it.
pub fn lone_carriage_return(text: &str) -> Option<Diagnostic> {
    let bytes = text.as_bytes();
    let at = (0..bytes.len()).find(|&i| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'))?;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..at].bytes().filter(|&b| b == b'\n').count() + 1;
    let col = text[line_start..at].chars().count() + 1;
    let span = isu_plugin_api::Span {
        lo: at as u32,
        hi: at as u32 + 1,
        line: line as u32,
        col: col as u32,
    };
    Some(
        Diagnostic::error(
            Code::LoneCarriageReturn,
            "a carriage return (CR) that is not followed by a line feed: Isu lines end with LF or CRLF",
        )
        .at(span)
        .with_hint("save the file with LF (or CRLF) line ends"),
    )
}

/// Splits `text` into tokens.
pub fn lex(text: &str) -> Lexed<'_> {
    let mut lx = Lexer::new(text, text.len() / 4);
    while lx.i < lx.bytes.len() {
        lx.step();
    }
    let end = lx.pos(lx.bytes.len());
    Lexed {
        tokens: lx.tokens,
        end,
        comments: lx.comments,
        diags: lx.diags,
    }
}

/// The tokens of `text` one at a time, the same as [`lex`] gives (its
/// diagnostics aside), without holding them all: the grammar's pass over a
/// text the lexer has already checked needs no second copy of its tokens.
pub fn tokens(text: &str) -> impl Iterator<Item = Spanned<'_>> {
    let mut lx = Lexer::new(text, 4);
    let mut next = 0;
    std::iter::from_fn(move || loop {
        if let Some(&t) = lx.tokens.get(next) {
            next += 1;
            if next == lx.tokens.len() {
                lx.tokens.clear();
                lx.diags.clear();
                lx.comments.clear();
                next = 0;
            }
            return Some(t);
        }
        if lx.i >= lx.bytes.len() {
            return None;
        }
        lx.step();
    })
}

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
    line: u32,
    /// Column bookkeeping: `col_base` is the column at byte `col_base_off` of
    /// the current line. Positions are asked for in increasing order, so
    /// counting from the last one keeps the whole pass linear.
    col_base_off: usize,
    col_base: u32,
    /// Whether the current line has had anything but blanks (a `;` after that
    /// is not a comment).
    line_has_token: bool,
    /// The last line on which a tab was reported (one report per line).
    tab_line: u32,
    tokens: Vec<Spanned<'a>>,
    comments: Vec<Span>,
    diags: Vec<Diagnostic>,
}

fn is_word_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A byte of an operator symbol of infix languages (`+`, `&&`, `!=`).
fn is_symbol_byte(b: u8) -> bool {
    matches!(b, b'+' | b'*' | b'/' | b'%' | b'!' | b'&' | b'|')
}

/// Whether `b` can begin something the lexer knows (a token, blank or comment).
fn starts_something(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\r'
            | b'\n'
            | b'"'
            | b'-'
            | b';'
            | b':'
            | b','
            | b'('
            | b')'
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'<'
            | b'>'
            | b'='
            | b'\''
    ) || is_symbol_byte(b)
        || b.is_ascii_digit()
        || is_word_start(b)
}

impl<'a> Lexer<'a> {
    fn peek(&self, at: usize) -> u8 {
        self.bytes.get(at).copied().unwrap_or(0)
    }

    /// The position of byte offset `off` on the current line (`off` at or
    /// after the last position asked for).
    fn pos(&mut self, off: usize) -> Pos {
        let from = self.col_base_off.min(off);
        let chars = self.bytes[from..off]
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count() as u32;
        self.col_base += chars;
        self.col_base_off = off;
        Pos {
            off: off as u32,
            line: self.line,
            col: self.col_base,
        }
    }

    fn newline(&mut self, at: usize) {
        self.line += 1;
        self.col_base_off = at + 1;
        self.col_base = 1;
        self.line_has_token = false;
    }

    fn push(&mut self, lo: usize, tok: Tok<'a>, hi: usize) {
        let l = self.pos(lo);
        let r = self.pos(hi);
        self.tokens.push((l, tok, r));
        self.line_has_token = true;
    }

    fn error(&mut self, code: Code, lo: usize, hi: usize, msg: String) -> &mut Diagnostic {
        let l = self.pos(lo);
        let r = self.pos(hi);
        self.diags.push(Diagnostic::error(code, msg).at(l.to(r)));
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    fn tab(&mut self, at: usize) {
        if self.tab_line != self.line {
            self.tab_line = self.line;
            let d = self.error(
                Code::TabCharacter,
                at,
                at + 1,
                "tab character: Isu text indents with spaces only".to_owned(),
            );
            d.hint = Some("replace each tab with spaces".to_owned());
        }
    }

    fn new(text: &'a str, capacity: usize) -> Lexer<'a> {
        Lexer {
            text,
            bytes: text.as_bytes(),
            i: 0,
            line: 1,
            col_base_off: 0,
            col_base: 1,
            line_has_token: false,
            tab_line: 0,
            tokens: Vec::with_capacity(capacity),
            comments: Vec::new(),
            diags: Vec::new(),
        }
    }

    /// Reads what starts at `self.i` (`self.i` within the text): a token,
    /// a blank, a comment, or a bad character.
    fn step(&mut self) {
        let b = self.bytes[self.i];
        match b {
            b' ' | b'\r' => self.i += 1,
            b'\n' => {
                self.newline(self.i);
                self.i += 1;
            }
            b'\t' => {
                self.tab(self.i);
                self.i += 1;
            }
            b';' if !self.line_has_token => self.comment(),
            b'"' => self.string(),
            b'0'..=b'9' => self.number(),
            b'-' if self.peek(self.i + 1).is_ascii_digit() => self.number(),
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => self.word(),
            b'-' => self.symbol(),
            b'=' if self.peek(self.i + 1) == b'=' => self.symbol(),
            b if is_symbol_byte(b) => self.symbol(),
            b'\'' => self.quoted('\''),
            b':' => self.punct(Tok::Colon),
            b',' => self.punct(Tok::Comma),
            b'(' => self.punct(Tok::LParen),
            b')' => self.punct(Tok::RParen),
            b'[' if self.tight_bracket() => self.punct(Tok::Subscript),
            b'[' => self.punct(Tok::LBracket),
            b']' => self.punct(Tok::RBracket),
            b'{' => self.punct(Tok::LBrace),
            b'}' => self.punct(Tok::RBrace),
            b'<' => self.punct(Tok::Lt),
            b'>' => self.punct(Tok::Gt),
            b'=' => self.punct(Tok::Eq),
            _ => self.invalid(),
        }
    }

    fn punct(&mut self, tok: Tok<'a>) {
        self.push(self.i, tok, self.i + 1);
        self.i += 1;
    }

    /// A comment line: kept aside to its end (tabs in it are still reported).
    fn comment(&mut self) {
        let lo = self.i;
        while self.i < self.bytes.len() && self.bytes[self.i] != b'\n' {
            if self.bytes[self.i] == b'\t' {
                self.tab(self.i);
            }
            self.i += 1;
        }
        let text = self.text[lo..self.i].trim_end();
        let l = self.pos(lo);
        let r = self.pos(lo + text.len());
        self.comments.push(l.to(r));
    }

    /// Whether the `[` here follows a name, `)` or `]` directly and opens
    /// something (not `[]`): a subscript as other languages write it.
    fn tight_bracket(&self) -> bool {
        let after = self.bytes[self.i + 1..]
            .iter()
            .find(|&&b| b != b' ')
            .copied();
        self.i > 0
            && matches!(self.bytes[self.i - 1], b')' | b']' | b'0'..=b'9' | b'A'..=b'Z' | b'a'..=b'z' | b'_')
            && after != Some(b']')
    }

    /// An operator symbol of infix languages: one token for a run such as
    /// `==`, `&&` or `!=` (but `<`, `>` and `=` alone are tokens of their own).
    fn symbol(&mut self) {
        let lo = self.i;
        let mut hi = lo + 1;
        while hi < self.bytes.len()
            && (is_symbol_byte(self.bytes[hi]) || self.bytes[hi] == b'=')
            && hi - lo < 3
        {
            hi += 1;
        }
        let tok = Tok::Sym(&self.text[lo..hi]);
        self.push(lo, tok, hi);
        self.i = hi;
    }

    /// A string in single quotes (`'x'`) or in typographic quotes (`“x”`):
    /// an error, but read as the string it is meant to be, so that nothing
    /// after it is misread. `open` is the opening quote.
    fn quoted(&mut self, open: char) {
        let close = match open {
            '“' => '”',
            '‘' => '’',
            c => c,
        };
        let lo = self.i;
        let body = lo + open.len_utf8();
        let line_end = self.bytes[body..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.bytes.len(), |p| body + p);
        let Some(end) = self.text[body..line_end].find(close).map(|p| body + p) else {
            // No closing quote on the line: the quote alone is the mistake.
            let hi = body;
            let d = self.error(
                Code::InvalidCharacter,
                lo,
                hi,
                format!(
                    "unexpected character {}: no Isu token starts with it",
                    describe_char(open)
                ),
            );
            d.hint = Some("strings use double quotes: \"text\"".to_owned());
            self.line_has_token = true;
            self.i = hi;
            return;
        };
        let hi = end + close.len_utf8();
        let inner = &self.text[body..end];
        let mut fixed = String::with_capacity(inner.len() + 2);
        let _ = isu_plugin_api::literal::write_json_string(&mut fixed, inner);
        let written = self.text[lo..hi].to_owned();
        let l = self.pos(lo);
        let r = self.pos(hi);
        let span = l.to(r);
        self.diags.push(
            Diagnostic::error(
                Code::InvalidCharacter,
                format!(
                    "{written} is a string in {}: Isu strings use double quotes",
                    if open == '\'' {
                        "single quotes"
                    } else {
                        "typographic quotes"
                    }
                ),
            )
            .at(span)
            .with_hint(format!("write {fixed}"))
            .with_fix(Fix::replace(span, fixed)),
        );
        self.tokens.push((l, Tok::Str(inner), r));
        self.line_has_token = true;
        self.i = hi;
    }

    /// A run of characters that start no token, reported once.
    fn invalid(&mut self) {
        let lo = self.i;
        let first = self.text[lo..].chars().next().unwrap_or('\u{fffd}');
        if matches!(first, '“' | '‘') {
            return self.quoted(first);
        }
        let mut hi = lo + first.len_utf8();
        if first != '-' && first != ';' {
            // `-` and `;` are invalid only where they stand, not as a run's continuation.
            while hi < self.bytes.len() && !starts_something(self.bytes[hi]) {
                hi += self.text[hi..].chars().next().map_or(1, char::len_utf8);
            }
        }
        let text = &self.text[lo..hi];
        let shown = if text.chars().count() == 1 {
            describe_char(first)
        } else {
            let shown: String = text
                .chars()
                .map(|c| {
                    if c.is_control() {
                        format!("\\u{{{:04x}}}", c as u32)
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            format!("`{shown}`")
        };
        let noun = if text.chars().count() == 1 {
            "character"
        } else {
            "characters"
        };
        let hint = char_hint(first);
        let d = self.error(
            Code::InvalidCharacter,
            lo,
            hi,
            format!("unexpected {noun} {shown}: no Isu token starts with it"),
        );
        d.hint = hint.map(str::to_owned);
        self.line_has_token = true;
        self.i = hi;
    }

    fn word(&mut self) {
        let lo = self.i;
        let mut hi = lo + 1;
        while hi < self.bytes.len() && is_word_byte(self.bytes[hi]) {
            hi += 1;
        }
        let mut dotted = false;
        if self.peek(hi) == b'.' && is_word_start(self.peek(hi + 1)) {
            dotted = true;
            hi += 2;
            while hi < self.bytes.len() && is_word_byte(self.bytes[hi]) {
                hi += 1;
            }
        }
        let text = &self.text[lo..hi];
        let tok = if dotted {
            Tok::Ident(text)
        } else {
            classify_word(text)
        };
        if let Tok::StepId(id) = tok {
            if StepId::parse(id).is_none() {
                let d = self.error(
                    Code::InvalidStepId,
                    lo,
                    hi,
                    format!("`{id}` is not a step ID: a step ID is S followed by positive numbers joined by `_`, without leading zeros (S1, S2_1, S2_1_3)"),
                );
                d.hint = Some(format!("write {}", suggest_step_id(id)));
            }
        }
        self.push(lo, tok, hi);
        self.i = hi;
    }

    fn number(&mut self) {
        let lo = self.i;
        let neg = self.bytes[lo] == b'-';
        let digits_lo = if neg { lo + 1 } else { lo };
        let mut hi = digits_lo;
        while hi < self.bytes.len() && self.bytes[hi].is_ascii_digit() {
            hi += 1;
        }
        let digits_hi = hi;
        let mut fraction = false;
        if self.peek(hi) == b'.' && self.peek(hi + 1).is_ascii_digit() {
            fraction = true;
            hi += 1;
            while hi < self.bytes.len() && self.bytes[hi].is_ascii_digit() {
                hi += 1;
            }
        }
        let mut exponent = false;
        if matches!(self.peek(hi), b'e' | b'E') {
            let mut j = hi + 1;
            if matches!(self.peek(j), b'+' | b'-') {
                j += 1;
            }
            if self.peek(j).is_ascii_digit() {
                exponent = true;
                hi = j;
                while hi < self.bytes.len() && self.bytes[hi].is_ascii_digit() {
                    hi += 1;
                }
            }
        }
        let text = &self.text[lo..hi];
        let digits = &self.text[digits_lo..digits_hi];
        let tok = if digits.len() > 1 && digits.starts_with('0') {
            let trimmed = digits.trim_start_matches('0');
            let fixed = format!(
                "{}{}{}",
                if neg { "-" } else { "" },
                if trimmed.is_empty() { "0" } else { trimmed },
                &self.text[digits_hi..hi]
            );
            let d = self.error(
                Code::InvalidNumber,
                lo,
                hi,
                format!("`{text}` has a leading zero: numbers are written as in JSON"),
            );
            d.hint = Some(format!("write {fixed}"));
            Tok::Int(0)
        } else if fraction || exponent {
            // A float; Rust reads JSON's number syntax correctly rounded.
            match text.parse::<f64>() {
                Ok(x) if x.is_finite() => Tok::Float(x.to_bits()),
                _ => {
                    self.error(
                        Code::InvalidNumber,
                        lo,
                        hi,
                        format!("`{text}` is beyond the float range: floats are finite, at most 1.7976931348623157e+308 in size"),
                    );
                    Tok::Float(0)
                }
            }
        } else {
            match parse_i64(digits, neg) {
                Some(v) => Tok::Int(v),
                None => {
                    self.error(
                        Code::IntOutOfRange,
                        lo,
                        hi,
                        format!("`{text}` does not fit in a 64-bit signed integer (-9223372036854775808 to 9223372036854775807)"),
                    );
                    Tok::Int(0)
                }
            }
        };
        self.push(lo, tok, hi);
        self.i = hi;
    }

    fn string(&mut self) {
        let lo = self.i;
        let mut j = lo + 1;
        loop {
            let Some(&b) = self.bytes.get(j) else {
                self.unterminated(lo, j);
                return;
            };
            match b {
                b'"' => {
                    let tok = Tok::Str(&self.text[lo + 1..j]);
                    self.push(lo, tok, j + 1);
                    self.i = j + 1;
                    return;
                }
                b'\n' => {
                    self.unterminated(lo, j);
                    return;
                }
                b'\r' if self.peek(j + 1) == b'\n' => {
                    self.unterminated(lo, j);
                    return;
                }
                b'\\' => j = self.escape(j),
                b'\t' => {
                    self.tab(j);
                    j += 1;
                }
                0..=0x1f | 0x7f => {
                    let d = self.error(
                        Code::InvalidCharacter,
                        j,
                        j + 1,
                        format!("control character U+{b:04X} inside a string"),
                    );
                    d.hint = Some(format!("write it as the escape \\u{b:04x}"));
                    j += 1;
                }
                _ => j += 1,
            }
        }
    }

    /// Checks the escape at `at` (a backslash) and returns the offset after it.
    fn escape(&mut self, at: usize) -> usize {
        match self.peek(at + 1) {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => at + 2,
            b'u' => {
                let Some(unit) = hex4(self.bytes, at + 2) else {
                    let end = (at + 2..(at + 6).min(self.bytes.len()))
                        .take_while(|&k| self.bytes[k].is_ascii_hexdigit())
                        .last()
                        .map_or(at + 2, |k| k + 1);
                    self.bad_escape(at, end, "`\\u` must be followed by four hex digits");
                    return end;
                };
                match unit {
                    0xD800..=0xDBFF => {
                        let low = if self.peek(at + 6) == b'\\' && self.peek(at + 7) == b'u' {
                            hex4(self.bytes, at + 8)
                        } else {
                            None
                        };
                        match low {
                            Some(0xDC00..=0xDFFF) => at + 12,
                            _ => {
                                self.bad_escape(at, at + 6, "a high surrogate escape must be followed by a low surrogate escape (\\uDC00 to \\uDFFF)");
                                at + 6
                            }
                        }
                    }
                    0xDC00..=0xDFFF => {
                        self.bad_escape(
                            at,
                            at + 6,
                            "a low surrogate escape without a high surrogate before it",
                        );
                        at + 6
                    }
                    _ => at + 6,
                }
            }
            b'\n' | b'\r' | 0 => at + 1,
            _ => {
                let c = self.text[at + 1..].chars().next().unwrap_or('?');
                let end = at + 1 + c.len_utf8();
                self.bad_escape(at, end, "JSON does not define this escape");
                end
            }
        }
    }

    fn bad_escape(&mut self, lo: usize, hi: usize, why: &str) {
        let text = self.text[lo..hi].to_owned();
        let d = self.error(
            Code::InvalidEscape,
            lo,
            hi,
            format!("invalid escape `{text}` in a string: {why}"),
        );
        d.hint = Some(
            "the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX; write a backslash as \\\\"
                .to_owned(),
        );
    }

    fn unterminated(&mut self, lo: usize, hi: usize) {
        let d = self.error(
            Code::UnterminatedString,
            lo,
            hi,
            "unterminated string: its closing `\"` is missing on this line".to_owned(),
        );
        d.hint = Some("close it with `\"` before the end of the line; write a line break inside a string as \\n".to_owned());
        let tok = Tok::Str(&self.text[lo + 1..hi]);
        self.push(lo, tok, hi);
        self.i = hi;
    }
}

/// The token of a word without a dot: a keyword, `true`/`false`/`null`, a
/// step ID (`S` followed by digits and underscores, well-formed or not) or a name.
fn classify_word(text: &str) -> Tok<'_> {
    let bytes = text.as_bytes();
    match bytes[0] {
        b'A'..=b'Z' => {
            if let Some(kw) = Kw::from_word(text) {
                return Tok::Kw(kw);
            }
            if bytes[0] == b'S'
                && bytes.len() > 1
                && bytes[1..].iter().all(|&b| b.is_ascii_digit() || b == b'_')
            {
                return Tok::StepId(text);
            }
            Tok::Ident(text)
        }
        _ => match text {
            "true" => Tok::True,
            "false" => Tok::False,
            "null" => Tok::Null,
            _ => Tok::Ident(text),
        },
    }
}

/// A well-formed step ID close to a malformed one: `S01` -> `S1`, `S1_` -> `S1`.
fn suggest_step_id(bad: &str) -> String {
    let parts: Vec<String> = bad[1..]
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let t = p.trim_start_matches('0');
            if t.is_empty() {
                "1".to_owned()
            } else {
                t.chars().take(9).collect()
            }
        })
        .collect();
    if parts.is_empty() {
        "S1".to_owned()
    } else {
        format!("S{}", parts.join("_"))
    }
}

fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    let mut v = 0u32;
    for &d in digits {
        v = v * 16 + (d as char).to_digit(16)?;
    }
    Some(v)
}

fn parse_i64(digits: &str, neg: bool) -> Option<i64> {
    let mut v: u64 = 0;
    for b in digits.bytes() {
        v = v.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    if neg {
        if v <= 1 << 63 {
            Some((v as i64).wrapping_neg())
        } else {
            None
        }
    } else {
        i64::try_from(v).ok()
    }
}

fn describe_char(c: char) -> String {
    if c.is_control() || c.is_whitespace() || c == '\u{feff}' {
        format!("U+{:04X}", c as u32)
    } else {
        format!("`{c}` (U+{:04X})", c as u32)
    }
}

fn char_hint(c: char) -> Option<&'static str> {
    Some(match c {
        '\'' => "strings use double quotes: \"text\"",
        '-' => "`-` belongs to a number such as -1; negate with (neg X), subtract with (sub A B)",
        ';' => "a comment takes a whole line: put `;` first on its own line",
        '.' => "a `.` stands only inside a pack function name such as math.GCD",
        '\u{feff}' => "remove the byte order mark",
        '\u{a0}' | '\u{3000}' => "replace it with an ordinary space",
        '“' | '”' => "strings use straight double quotes: \"text\"",
        c if c.is_alphabetic() => "names use ASCII letters, digits and `_` only",
        _ => return None,
    })
}

/// Decodes the escapes of a string token's raw text. The lexer has reported
/// any bad escape; here one is kept as written.
pub fn unescape(raw: &str) -> String {
    if !raw.contains('\\') {
        return raw.to_owned();
    }
    let bytes = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    let mut plain = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        out.push_str(&raw[plain..i]);
        let (decoded, next) = decode_escape(bytes, i);
        match decoded {
            Some(c) => out.push(c),
            None => out.push_str(&raw[i..next]),
        }
        i = next;
        plain = next;
    }
    out.push_str(&raw[plain..]);
    out
}

/// The character of the escape at `at` and the offset after it; `None` for a
/// bad escape (whose extent is then one character after the backslash).
fn decode_escape(bytes: &[u8], at: usize) -> (Option<char>, usize) {
    let simple = |c: char| (Some(c), at + 2);
    match bytes.get(at + 1) {
        Some(b'"') => simple('"'),
        Some(b'\\') => simple('\\'),
        Some(b'/') => simple('/'),
        Some(b'b') => simple('\u{8}'),
        Some(b'f') => simple('\u{c}'),
        Some(b'n') => simple('\n'),
        Some(b'r') => simple('\r'),
        Some(b't') => simple('\t'),
        Some(b'u') => match hex4(bytes, at + 2) {
            Some(hi @ 0xD800..=0xDBFF) => {
                let lo = if bytes.get(at + 6) == Some(&b'\\') && bytes.get(at + 7) == Some(&b'u') {
                    hex4(bytes, at + 8)
                } else {
                    None
                };
                match lo {
                    Some(lo @ 0xDC00..=0xDFFF) => {
                        let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                        (char::from_u32(c), at + 12)
                    }
                    _ => (None, at + 6),
                }
            }
            Some(unit) => (char::from_u32(unit), at + 6),
            None => (None, at + 2),
        },
        // The escaped character may be several bytes long: keep it whole.
        Some(&b) => {
            let len = match b {
                0xF0..=0xFF => 4,
                0xE0..=0xEF => 3,
                0xC0..=0xDF => 2,
                _ => 1,
            };
            (None, (at + 1 + len).min(bytes.len()))
        }
        None => (None, at + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok<'_>> {
        lex(text).tokens.into_iter().map(|(_, t, _)| t).collect()
    }

    #[test]
    fn words_keywords_and_step_ids() {
        assert_eq!(
            toks("S2_1: IF x LEN math.GCD true S S1x Sx"),
            vec![
                Tok::StepId("S2_1"),
                Tok::Colon,
                Tok::Kw(Kw::If),
                Tok::Ident("x"),
                Tok::Ident("LEN"),
                Tok::Ident("math.GCD"),
                Tok::True,
                Tok::Ident("S"),
                Tok::Ident("S1x"),
                Tok::Ident("Sx"),
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(
            toks("0 -1 9223372036854775807 -9223372036854775808"),
            vec![
                Tok::Int(0),
                Tok::Int(-1),
                Tok::Int(i64::MAX),
                Tok::Int(i64::MIN)
            ]
        );
        for bad in [
            "9223372036854775808",
            "-9223372036854775809",
            "99999999999999999999999",
        ] {
            let l = lex(bad);
            assert_eq!(l.diags.len(), 1, "{bad}");
            assert_eq!(l.diags[0].code, Code::IntOutOfRange);
        }
        let floats = toks("1.5 2e10 -0.5 1E+3 -0.0 5e-324 2.0");
        let bits: Vec<Tok> = [1.5, 2e10, -0.5, 1e3, -0.0, 5e-324, 2.0]
            .iter()
            .map(|x: &f64| Tok::Float(x.to_bits()))
            .collect();
        assert_eq!(floats, bits);
        for bad in ["007", "-00", "01.5", "1e400", "-1e999"] {
            let l = lex(bad);
            assert_eq!(l.diags.len(), 1, "{bad}");
            assert_eq!(l.diags[0].code, Code::InvalidNumber, "{bad}");
            assert_eq!(l.tokens.len(), 1, "{bad}");
        }
    }

    #[test]
    fn strings_and_escapes() {
        assert_eq!(toks(r#""a\"b""#), vec![Tok::Str(r#"a\"b"#)]);
        assert_eq!(
            unescape(r#"a\"b\\\/\n\t\u00e9\ud83d\ude00"#),
            "a\"b\\/\n\té😀"
        );
        assert_eq!(unescape(r"\q\u12"), r"\q\u12");
        assert_eq!(unescape("\\é"), "\\é");
        assert!(lex(r#""ok \u00e9 \ud83d\ude00""#).diags.is_empty());
        for bad in [r#""\q""#, r#""\u12G4""#, r#""\ud800""#, r#""\udc00x""#] {
            let l = lex(bad);
            assert_eq!(l.diags.len(), 1, "{bad}");
            assert_eq!(l.diags[0].code, Code::InvalidEscape, "{bad}");
        }
    }

    #[test]
    fn positions_count_characters() {
        let l = lex("é x\n  \"ü\" y");
        // `é` is invalid; x is at column 3 though byte 3.
        let cols: Vec<(u32, u32, u32)> = l
            .tokens
            .iter()
            .map(|(p, _, _)| (p.off, p.line, p.col))
            .collect();
        assert_eq!(cols, vec![(3, 1, 3), (7, 2, 3), (12, 2, 7)]);
    }

    #[test]
    fn positions_agree_with_the_source_line_table() {
        let text = "ab \"çé\" x\r\n\n  😀 (y)\r\nz";
        let src = crate::source::Source::new("t", text);
        for (l, _, r) in lex(text).tokens {
            assert_eq!(l.to(r), src.span(l.off, r.off));
        }
    }

    #[test]
    fn comments_and_crlf() {
        let l = lex("; a comment\r\n  ; another\r\nFUNC:\r\n");
        assert!(l.diags.is_empty());
        assert_eq!(
            l.tokens.iter().map(|t| t.1).collect::<Vec<_>>(),
            vec![Tok::Kw(Kw::Func), Tok::Colon]
        );
        assert_eq!(l.tokens[0].0.line, 3);
        // A `;` after a token is no comment.
        assert_eq!(lex("x ; no").diags[0].code, Code::InvalidCharacter);
    }

    #[test]
    fn step_id_suggestions() {
        assert_eq!(suggest_step_id("S01"), "S1");
        assert_eq!(suggest_step_id("S1_"), "S1");
        assert_eq!(suggest_step_id("S_"), "S1");
        assert_eq!(suggest_step_id("S2__03"), "S2_3");
    }
}
