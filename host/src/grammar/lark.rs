//! Lark, as Python's `lark` (Earley) and llguidance read it (Outlines,
//! vLLM, SGLang and llama.cpp's llguidance build take the latter).
//!
//! Lexical rules become terminals (upper-case names), the others rules; the
//! start rule is `start`. Only the syntax both readers share is used: string
//! literals, `/regex/` for character classes and counted repetition, `|`,
//! `?`, `*`, `+` and parentheses. Whitespace is never ignored.

use super::model::{Expr, Grammar};
use super::regex;
use std::collections::BTreeSet;
use std::fmt::Write;

pub fn print(g: &Grammar) -> String {
    let tokens: BTreeSet<&str> = g
        .rules
        .iter()
        .filter(|r| r.token)
        .map(|r| r.name.as_str())
        .collect();
    let p = Printer { tokens };
    let mut out = String::new();
    let _ = writeln!(out, "start: {}", p.name(g.start()));
    for r in &g.rules {
        out.push('\n');
        for line in r.doc.lines() {
            let _ = writeln!(out, "// {line}");
        }
        let _ = writeln!(out, "{}: {}", p.name(&r.name), p.top(&r.body));
    }
    out
}

struct Printer<'a> {
    tokens: BTreeSet<&'a str>,
}

impl Printer<'_> {
    fn name(&self, rule: &str) -> String {
        if self.tokens.contains(rule) {
            rule.to_uppercase()
        } else {
            rule.to_owned()
        }
    }

    fn top(&self, e: &Expr) -> String {
        match e {
            Expr::Alt(items) => items
                .iter()
                .map(|i| self.expr(i, false))
                .collect::<Vec<_>>()
                .join("\n    | "),
            e => self.expr(e, false),
        }
    }

    fn expr(&self, e: &Expr, nested: bool) -> String {
        match e {
            Expr::Lit(s) => literal(s),
            Expr::Class(c) => format!("/{}/", slashes(&regex::class(c))),
            Expr::Ref(r) => self.name(r),
            Expr::Seq(items) => {
                let s = items
                    .iter()
                    .map(|i| self.expr(i, true))
                    .collect::<Vec<_>>()
                    .join(" ");
                if nested {
                    format!("({s})")
                } else {
                    s
                }
            }
            Expr::Alt(items) => format!(
                "({})",
                items
                    .iter()
                    .map(|i| self.expr(i, false))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ),
            Expr::Repeat { item, min, max } => match (min, max) {
                (0, Some(1)) => format!("{}?", self.expr(item, true)),
                (0, None) => format!("{}*", self.expr(item, true)),
                (1, None) => format!("{}+", self.expr(item, true)),
                // Counted repetition has no common Lark syntax: a regex has it.
                _ => match regex::simple(item) {
                    Some(rx) => format!("/{}/", slashes(&regex::counted(&rx, *min, *max))),
                    None => {
                        let one = self.expr(item, true);
                        let mut parts = vec![one.clone(); *min as usize];
                        match max {
                            Some(n) => parts
                                .extend(std::iter::repeat_n(format!("{one}?"), (n - min) as usize)),
                            None => parts.push(format!("{one}*")),
                        }
                        format!("({})", parts.join(" "))
                    }
                },
            },
            Expr::Except { expanded, .. } => self.expr(expanded, nested),
            // Only ever the minus of an exception, which Lark does not print.
            Expr::Described(_) => String::new(),
        }
    }
}

/// A string literal: JSON escapes, which both readers take.
fn literal(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// A regex between slashes: an unescaped slash inside is escaped.
fn slashes(rx: &str) -> String {
    let mut out = String::with_capacity(rx.len());
    let mut chars = rx.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                out.extend(chars.next());
            }
            '/' => out.push_str("\\/"),
            c => out.push(c),
        }
    }
    out
}
