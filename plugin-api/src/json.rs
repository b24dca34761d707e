//! The one reader of JSON text for everything that enters Isu from outside:
//! `isu run --args`, conformance case files, what a plugin answers, what a
//! generated program prints. It is strict where `serde_json` is lenient:
//!
//! - an object may not repeat a key (`serde_json` keeps the last one);
//! - a number without a fraction or an exponent must be an integer in the
//!   64-bit signed range, and the error quotes it as written (`serde_json`
//!   turns `-9223372036854775809` into a float, so that a later check can
//!   only say `-9223372036854776000 is not an integer`);
//! - a number with a fraction or an exponent is a float (`4.0` stays one),
//!   read correctly rounded however many digits it has, and refused when it
//!   lies beyond the float range (Isu's floats are finite);
//! - an error names the line and column (in characters) and where in the
//!   value it is (`.xs[2]`).
//!
//! `null` is read (as [`Value::Null`]): whether it is allowed is for the
//! reader's caller (Isu values have no `null`; see [`crate::Literal`]).

use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};
use std::fmt;

/// How deep arrays and objects may nest. Deep enough for the IIR of every
/// program the parser takes: it allows 100 blocks and brackets open at once
/// (`nesting_too_deep`), and each adds at most 5 levels to the IIR (a step's
/// `node`, its kind, `then_block`, `steps`, the step), so 1024 leaves room.
/// (`serde_json`'s own limit, 128, refuses an expression nested 43 deep.)
pub const MAX_DEPTH: usize = 1024;

/// Why a text is not JSON as Isu reads it, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// What is wrong, in words.
    pub message: String,
    /// 1-based line of the offending text (0 when the error is not about a place).
    pub line: u32,
    /// 1-based column, in Unicode scalar values.
    pub column: u32,
    /// Where in the value: `.xs[2]`, empty at the top.
    pub path: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}, column {}", self.line, self.column)?;
            if !self.path.is_empty() {
                write!(f, " (at {})", self.path)?;
            }
            f.write_str(": ")?;
        } else if !self.path.is_empty() {
            write!(f, "at {}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for JsonError {}

/// Reads one JSON value that is the whole of `text` (blanks around it allowed).
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let (value, end) = parse_prefix(text)?;
    let mut r = Reader::new(text);
    r.at = end;
    r.blanks();
    if r.at < text.len() {
        return Err(r.error("more text after the JSON value".into()));
    }
    Ok(value)
}

/// Reads one JSON value at the start of `text` (after blanks); the value and
/// the byte offset just past it.
pub fn parse_prefix(text: &str) -> Result<(Value, usize), JsonError> {
    let mut r = Reader::new(text);
    r.blanks();
    let v = r.value()?;
    Ok((v, r.at))
}

/// Reads the whole of `text` as JSON ([`parse`]), then as a `T`.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    let v = parse(text)?;
    from_value(v)
}

/// A value [`parse`] gave, as a `T`.
pub fn from_value<T: DeserializeOwned>(v: Value) -> Result<T, JsonError> {
    serde_json::from_value(v).map_err(|e| JsonError {
        message: e.to_string(),
        line: 0,
        column: 0,
        path: String::new(),
    })
}

/// One step of the path to a value: an array index, or the byte offset of
/// an object key (read again only for a message).
enum Seg {
    Index(usize),
    Key(usize),
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    path: Vec<Seg>,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text,
            bytes: text.as_bytes(),
            at: 0,
            path: Vec::new(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn blanks(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn error(&self, message: String) -> JsonError {
        self.error_at(self.at, message)
    }

    fn error_at(&self, at: usize, message: String) -> JsonError {
        let (line, column) = line_col(self.text, at);
        JsonError {
            message,
            line,
            column,
            path: self.path_text(),
        }
    }

    fn path_text(&self) -> String {
        let mut s = String::new();
        for seg in &self.path {
            match seg {
                Seg::Index(i) => s.push_str(&format!("[{i}]")),
                Seg::Key(at) => {
                    let k = self.key_at(*at);
                    if is_plain_key(&k) {
                        s.push('.');
                        s.push_str(&k);
                    } else {
                        s.push_str(&format!("[{}]", quoted(&k)));
                    }
                }
            }
        }
        s
    }

    /// The key whose opening quote is at byte `at` (read before, so valid).
    fn key_at(&self, at: usize) -> String {
        let mut r = Reader::new(self.text);
        r.at = at;
        r.string().unwrap_or_default()
    }

    fn value(&mut self) -> Result<Value, JsonError> {
        match self.peek() {
            None => Err(self.error("the text ends where a JSON value must stand".into())),
            Some(b'{') => self.nested(Reader::object),
            Some(b'[') => self.nested(Reader::array),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'n') => self.word("null", Value::Null),
            Some(_) => Err(self.unexpected("a JSON value")),
        }
    }

    fn nested(
        &mut self,
        read: fn(&mut Reader<'a>) -> Result<Value, JsonError>,
    ) -> Result<Value, JsonError> {
        if self.path.len() >= MAX_DEPTH {
            return Err(self.error(format!(
                "arrays and objects nest more than {MAX_DEPTH} deep"
            )));
        }
        read(self)
    }

    /// The character at the reader, quoted, for "found ..." messages.
    fn unexpected(&self, wanted: &str) -> JsonError {
        let found = self.text[self.at..]
            .chars()
            .next()
            .map_or("the end of the text".to_owned(), |c| format!("{c:?}"));
        self.error(format!("expected {wanted}, found {found}"))
    }

    fn word(&mut self, word: &str, v: Value) -> Result<Value, JsonError> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(v)
        } else {
            Err(self.unexpected("a JSON value"))
        }
    }

    fn object(&mut self) -> Result<Value, JsonError> {
        self.at += 1; // {
        let mut map = Map::new();
        // Where each key stood, for the message about a repeated one.
        let mut keys: Vec<usize> = Vec::new();
        self.blanks();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(map));
        }
        loop {
            self.blanks();
            if self.peek() != Some(b'"') {
                return Err(self.unexpected("a key (a string in double quotes)"));
            }
            let key_at = self.at;
            let key = self.string()?;
            if map.contains_key(&key) {
                let first = keys
                    .iter()
                    .copied()
                    .find(|&at| self.key_at(at) == key)
                    .unwrap_or(key_at);
                let (line, column) = line_col(self.text, first);
                return Err(self.error_at(
                    key_at,
                    format!(
                        "the key {} appears twice in one object (first at line {line}, column {column})",
                        quoted(&key)
                    ),
                ));
            }
            self.blanks();
            if self.peek() != Some(b':') {
                return Err(self.unexpected("`:` after the key"));
            }
            self.at += 1;
            self.blanks();
            self.path.push(Seg::Key(key_at));
            let v = self.value()?;
            self.path.pop();
            keys.push(key_at);
            map.insert(key, v);
            self.blanks();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(map));
                }
                _ => return Err(self.unexpected("`,` or `}`")),
            }
        }
    }

    fn array(&mut self) -> Result<Value, JsonError> {
        self.at += 1; // [
        let mut items = Vec::new();
        self.blanks();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.blanks();
            self.path.push(Seg::Index(items.len()));
            let v = self.value()?;
            self.path.pop();
            items.push(v);
            self.blanks();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.unexpected("`,` or `]`")),
            }
        }
    }

    /// A JSON number: a 64-bit signed integer when written without a
    /// fraction or an exponent, else a finite float.
    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.at;
        let digits = |r: &mut Reader<'a>| {
            let from = r.at;
            while let Some(b'0'..=b'9') = r.peek() {
                r.at += 1;
            }
            r.at > from
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let int_start = self.at;
        if !digits(self) {
            return Err(self.unexpected("a digit"));
        }
        if self.bytes[int_start] == b'0' && self.at > int_start + 1 {
            return Err(self.error_at(
                start,
                format!(
                    "{} has a leading zero, which JSON does not allow",
                    &self.text[start..self.at]
                ),
            ));
        }
        let mut integral = true;
        if self.peek() == Some(b'.') {
            self.at += 1;
            integral = false;
            if !digits(self) {
                return Err(self.unexpected("a digit after `.`"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            integral = false;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if !digits(self) {
                return Err(self.unexpected("a digit in the exponent"));
            }
        }
        let written = &self.text[start..self.at];
        if !integral {
            // Rust's reading of decimal text is correctly rounded, and
            // JSON's number syntax is a part of what it reads.
            let x: f64 = written.parse().unwrap_or(f64::INFINITY);
            return Number::from_f64(x).map(Value::Number).ok_or_else(|| {
                self.error_at(
                    start,
                    format!("{written} is beyond the float range (Isu's floats are finite, at most 1.7976931348623157e+308 in size)"),
                )
            });
        }
        match written.parse::<i64>() {
            Ok(i) => Ok(Value::Number(Number::from(i))),
            Err(_) => Err(self.error_at(
                start,
                format!(
                    "{written} is outside the 64-bit signed integer range ({} to {})",
                    i64::MIN,
                    i64::MAX
                ),
            )),
        }
    }

    fn string(&mut self) -> Result<String, JsonError> {
        let open = self.at;
        self.at += 1; // "
        let mut out = String::new();
        loop {
            let from = self.at;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            out.push_str(&self.text[from..self.at]);
            match self.peek() {
                None => {
                    return Err(self.error_at(open, "a string without its closing `\"`".into()))
                }
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    self.escape(&mut out)?;
                }
                Some(b) => {
                    return Err(self.error(format!(
                        "a control character (U+{b:04X}) in a string: write it as an escape (\\n, \\t, \\u{b:04x})"
                    )))
                }
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let at = self.at - 1;
        let Some(b) = self.peek() else {
            return Err(self.error_at(at, "a string without its closing `\"`".into()));
        };
        self.at += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = self.hex4(at)?;
                let code = if (0xD800..0xDC00).contains(&hi) {
                    if !self.text[self.at..].starts_with("\\u") {
                        return Err(self.lone_surrogate(at, hi));
                    }
                    self.at += 2;
                    let lo = self.hex4(at)?;
                    if !(0xDC00..0xE000).contains(&lo) {
                        return Err(self.lone_surrogate(at, hi));
                    }
                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                } else {
                    hi
                };
                char::from_u32(code).ok_or_else(|| self.lone_surrogate(at, code))?
            }
            _ => {
                return Err(self.error_at(
                    at,
                    "an escape JSON does not define: the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX".into(),
                ))
            }
        };
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self, at: usize) -> Result<u32, JsonError> {
        let hex = self
            .text
            .get(self.at..self.at + 4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error_at(at, "\\u needs four hexadecimal digits".into()))?;
        self.at += 4;
        u32::from_str_radix(hex, 16)
            .map_err(|_| self.error_at(at, "\\u needs four hexadecimal digits".into()))
    }

    fn lone_surrogate(&self, at: usize, code: u32) -> JsonError {
        self.error_at(
            at,
            format!("\\u{code:04x} is half of a UTF-16 surrogate pair without its other half: not a character"),
        )
    }
}

/// The 1-based line and column (in Unicode scalar values) of byte `at`.
fn line_col(text: &str, at: usize) -> (u32, u32) {
    let before = &text[..at.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let column = before[line_start..].chars().count() + 1;
    (line as u32, column as u32)
}

fn is_plain_key(k: &str) -> bool {
    let mut chars = k.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn quoted(s: &str) -> String {
    let mut out = String::new();
    let _ = crate::literal::write_json_string(&mut out, s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(text).err().map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [
            r#"{"a": [1, -2, true, false, null, "x\"\u00e9\ud83d\ude00"], "b": {}}"#,
            "[]",
            " 0 ",
            "-9223372036854775808",
            "9223372036854775807",
            r#""\/\b\f\n\r\t""#,
        ] {
            let ours = parse(text);
            let theirs: Result<Value, _> = serde_json::from_str(text);
            assert_eq!(ours.ok(), theirs.ok(), "{text}");
        }
    }

    #[test]
    fn numbers_are_exact_integers() {
        assert_eq!(
            err(r#"{"target": -9223372036854775809}"#),
            "line 1, column 12 (at .target): -9223372036854775809 is outside the 64-bit signed integer range (-9223372036854775808 to 9223372036854775807)"
        );
        assert!(err("[1, 1e309]")
            .starts_with("line 1, column 5 (at [1]): 1e309 is beyond the float range"));
        assert!(err("-1e400").contains("beyond the float range"));
        assert!(err("01").contains("leading zero"));
        assert!(err("-").contains("expected a digit"));
        assert!(err("1.").contains("a digit after `.`"));
    }

    #[test]
    fn floats_keep_their_bits_and_their_kind() {
        for (text, want) in [
            ("4.0", 4.0),
            ("1e3", 1000.0),
            ("-0.0", -0.0),
            ("5e-324", 5e-324),
            ("0.1", 0.1),
            ("1.7976931348623157e308", f64::MAX),
            ("2.2250738585072011e-308", 2.225073858507201e-308),
            ("9007199254740993.0", 9007199254740992.0),
            ("1e-400", 0.0),
        ] {
            let got = parse(text).ok().and_then(|v| v.as_f64());
            assert_eq!(got.map(f64::to_bits), Some(want.to_bits()), "{text}");
        }
        let lit: Result<crate::Literal, _> = from_str("[2.0, 2, -0.0]");
        assert_eq!(lit.map(|l| l.to_string()), Ok("[2.0, 2, -0.0]".to_owned()));
    }

    #[test]
    fn a_repeated_key_is_an_error() {
        assert_eq!(
            err("{\"target\": 4,\n \"target\": 5}"),
            "line 2, column 2: the key \"target\" appears twice in one object (first at line 1, column 2)"
        );
        assert!(err(r#"{"a": {"b": 1, "b": 2}}"#).contains("(at .a)"));
        assert!(err(r#"[{"x y": [0, {"k": 1, "k": 1}]}]"#).contains(r#"(at [0]["x y"][1])"#));
    }

    #[test]
    fn malformed_text_is_located() {
        assert!(err("").contains("ends where a JSON value must stand"));
        assert!(err("{} x").contains("more text after the JSON value"));
        assert!(err("{\"a\" 1}").contains("expected `:` after the key, found '1'"));
        assert!(err("[1 2]").contains("expected `,` or `]`"));
        assert!(err("\"abc").contains("without its closing"));
        assert!(err("\"a\u{1}\"").contains("control character (U+0001)"));
        assert!(err(r#""\ud800""#).contains("surrogate"));
        assert!(err(r#""\q""#).contains("escape JSON does not define"));
        assert!(err("nul").contains("expected a JSON value"));
        assert!(err("{'a': 1}").contains("expected a key"));
        assert_eq!(
            err("{\n  \"é\": x}"),
            "line 2, column 8 (at [\"é\"]): expected a JSON value, found 'x'"
        );
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert!(err(&deep).contains(&format!("nest more than {MAX_DEPTH} deep")));
        assert!(parse(&format!(
            "{}{}",
            "[".repeat(MAX_DEPTH),
            "]".repeat(MAX_DEPTH)
        ))
        .is_ok());
    }

    #[test]
    fn a_prefix_says_where_it_ends() {
        assert_eq!(
            parse_prefix(r#" {"a": 1} => 3"#).map(|(v, end)| (v.to_string(), end)),
            Ok((r#"{"a":1}"#.to_owned(), 9))
        );
    }

    #[test]
    fn typed_reads_go_through_the_same_checks() {
        let lit: Result<crate::Literal, _> = from_str(r#"{"a": [1, 2]}"#);
        assert!(lit.is_ok());
        let dup: Result<crate::Literal, _> = from_str(r#"{"a": 1, "a": 1}"#);
        assert!(dup.is_err_and(|e| e.message.contains("twice")));
        let null: Result<crate::Literal, _> = from_str("[null]");
        assert!(null.is_err_and(|e| e.message.contains("null")));
    }
}
