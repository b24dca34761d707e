//! What every page shares: escaping, the frame of a page (its head, its
//! style, the policy that forbids scripts), and small formatters.
//!
//! Everything that comes from a model, a task or a program is written
//! through [`Esc`]; the pages hold no script, and their Content Security
//! Policy forbids every script and every fetch, so that even a mistake in
//! escaping could not run one.

use serde_json::Value;
use std::fmt::{self, Write as _};

/// Text escaped for HTML, in an element or in a double- or single-quoted
/// attribute. Control characters other than tab and line break, which
/// HTML does not allow, are shown as U+FFFD.
#[derive(Debug, Clone, Copy)]
pub struct Esc<'a>(pub &'a str);

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(|c: char| {
            matches!(c, '&' | '<' | '>' | '"' | '\'') || (c.is_control() && c != '\n' && c != '\t')
        }) {
            f.write_str(&rest[..at])?;
            let c = rest[at..].chars().next().unwrap_or('\u{fffd}');
            f.write_str(match c {
                '&' => "&amp;",
                '<' => "&lt;",
                '>' => "&gt;",
                '"' => "&quot;",
                '\'' => "&#39;",
                _ => "\u{fffd}",
            })?;
            rest = &rest[at + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

/// The policy of every page: no script, no fetch, no frame, no form; only
/// the page's own style.
pub const POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/// The style every page shares.
const STYLE: &str = include_str!("page.css");

/// A whole page: `title` (text) and `body` (HTML).
pub fn page(title: &str, generator: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"{}\">\n<title>{}</title>\n<style>\n{STYLE}</style>\n\
         </head>\n<body>\n{body}</body>\n</html>\n",
        Esc(generator),
        Esc(title)
    )
}

/// A JSON value on one line, as the log holds it.
pub fn json(v: &Value) -> String {
    v.to_string()
}

/// Milliseconds for people: `850 ms`, `12.4 s`.
pub fn duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
    }
}

/// `part of whole (NN%)`, or `0 of 0`.
pub fn share(part: usize, whole: usize) -> String {
    if whole == 0 {
        return format!("{part} of {whole}");
    }
    let tenths = (part * 1000 + whole / 2) / whole;
    format!("{part} of {whole} ({}.{}%)", tenths / 10, tenths % 10)
}

/// `n thing` or `n things`.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A value safe in an `id` attribute and a `#` link: letters, digits, `_`
/// and `-`; anything else is left out of the anchor.
pub fn anchor(parts: &[&str]) -> Option<String> {
    let id = parts.join("-");
    id.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        .then_some(id)
}

/// Writes `<tag class="class">text</tag>` with `text` escaped.
pub fn tagged(out: &mut String, tag: &str, class: &str, text: &str) {
    let _ = write!(out, "<{tag} class=\"{class}\">{}</{tag}>", Esc(text));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup() {
        let hostile =
            "<script>alert('x')</script></pre>\"><a href=\"javascript:x\">&amp;\u{0}\u{7}";
        let shown = Esc(hostile).to_string();
        assert_eq!(
            shown,
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&lt;/pre&gt;&quot;&gt;&lt;a href=&quot;javascript:x&quot;&gt;&amp;amp;\u{fffd}\u{fffd}"
        );
        assert_eq!(Esc("tab\tline\nend é").to_string(), "tab\tline\nend é");
    }

    #[test]
    fn figures_for_people() {
        assert_eq!(duration(850), "850 ms");
        assert_eq!(duration(12_450), "12.4 s");
        assert_eq!(share(1, 3), "1 of 3 (33.3%)");
        assert_eq!(share(2, 2), "2 of 2 (100.0%)");
        assert_eq!(share(0, 0), "0 of 0");
        assert_eq!(count(1u32, "round", "rounds"), "1 round");
        assert_eq!(anchor(&["r2", "S1_1"]).as_deref(), Some("r2-S1_1"));
        assert_eq!(anchor(&["r2", "S1\"x"]), None);
    }
}
