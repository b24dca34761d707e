//! Text in Python source: string literals and comments.

use std::fmt::Write;

/// Whether a character is written as an escape rather than as itself: ASCII
/// and C1 controls, and the invisible or direction-changing characters that
/// would make the source read differently from what it is.
fn must_escape(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

/// A Python string literal (double-quoted) with the value `s`.
pub fn py_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if must_escape(c) => escape_code(&mut out, c),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn escape_code(out: &mut String, c: char) {
    let n = u32::from(c);
    // Writing to a String cannot fail.
    let _ = if n <= 0xff {
        write!(out, "\\x{n:02x}")
    } else if n <= 0xffff {
        write!(out, "\\u{n:04x}")
    } else {
        write!(out, "\\U{n:08x}")
    };
}

/// Text made safe for a `#` comment: one line, no invisible characters.
/// Characters that must not appear raw are written as `\uXXXX`.
pub fn comment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if must_escape(c) {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_literals_escape_what_python_needs() {
        assert_eq!(py_str("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(py_str("x\ny\t\u{1}"), r#""x\ny\t\x01""#);
        assert_eq!(py_str("日本\u{2028}"), "\"日本\\u2028\"");
        assert_eq!(py_str("\u{85}"), r#""\x85""#);
        assert_eq!(py_str(""), r#""""#);
    }

    #[test]
    fn comments_stay_on_one_line() {
        assert_eq!(comment("a\nb\u{2029}c é"), "a\\u000ab\\u2029c é");
    }
}
