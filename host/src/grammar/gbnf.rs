//! GBNF, the grammar format of llama.cpp (`--grammar-file`, the server's
//! `grammar` field).
//!
//! Rule names use `-` for `_` (GBNF names have no underscore) and the start
//! rule is `root`. Every rule is kept as written: llguidance's GBNF-to-Lark
//! conversion turns the rules built only of characters into lexer tokens,
//! and the grammar is written so that such tokens lex greedily without
//! swallowing the next one (no rule ends in something the next can extend).

use super::model::{Class, Expr, Grammar};
use std::fmt::Write;

pub fn print(g: &Grammar) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "root ::= {}", name(g.start()));
    for r in &g.rules {
        out.push('\n');
        for line in r.doc.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "{} ::= {}", name(&r.name), top(&r.body));
    }
    out
}

fn name(rule: &str) -> String {
    rule.replace('_', "-")
}

/// A rule's body: its alternatives on one line each.
fn top(e: &Expr) -> String {
    match e {
        Expr::Alt(items) => items
            .iter()
            .map(|i| expr(i, false))
            .collect::<Vec<_>>()
            .join(" |\n  "),
        e => expr(e, false),
    }
}

/// `nested`: it stands inside a sequence or under a repetition, so an
/// alternation or sequence needs parentheses.
fn expr(e: &Expr, nested: bool) -> String {
    match e {
        Expr::Lit(s) => literal(s),
        Expr::Class(c) => class(c),
        Expr::Ref(r) => name(r),
        Expr::Seq(items) => {
            let s = items
                .iter()
                .map(|i| expr(i, true))
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
                .map(|i| expr(i, false))
                .collect::<Vec<_>>()
                .join(" | ")
        ),
        Expr::Repeat { item, min, max } => {
            let inner = expr(item, true);
            match (min, max) {
                (0, Some(1)) => format!("{inner}?"),
                (0, None) => format!("{inner}*"),
                (1, None) => format!("{inner}+"),
                (m, None) => format!("{inner}{{{m},}}"),
                (m, Some(n)) if m == n => format!("{inner}{{{m}}}"),
                (m, Some(n)) => format!("{inner}{{{m},{n}}}"),
            }
        }
        Expr::Except { expanded, .. } => expr(expanded, nested),
        // Only ever the minus of an exception, which GBNF does not print.
        Expr::Described(_) => String::new(),
    }
}

fn literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => push_char(&mut out, c),
        }
    }
    out.push('"');
    out
}

fn class(c: &Class) -> String {
    let (negated, shown) = if c.prefers_negation() {
        (true, c.complement())
    } else {
        (false, c.clone())
    };
    let mut out = String::from(if negated { "[^" } else { "[" });
    for &(lo, hi) in shown.ranges() {
        class_char(&mut out, lo);
        if hi != lo {
            out.push('-');
            class_char(&mut out, hi);
        }
    }
    out.push(']');
    out
}

/// A character inside `[...]`: the ones that mean something there, and
/// every one outside printable ASCII, as escapes that llama.cpp and
/// llguidance's converter both read.
fn class_char(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        ']' => out.push_str("\\]"),
        '[' => out.push_str("\\["),
        '-' | '^' => {
            let _ = write!(out, "\\x{:02X}", c as u32);
        }
        c => push_char(out, c),
    }
}

fn push_char(out: &mut String, c: char) {
    let n = c as u32;
    if (0x20..0x7f).contains(&n) {
        out.push(c);
    } else if n < 0x100 {
        let _ = write!(out, "\\x{n:02X}");
    } else if n < 0x10000 {
        let _ = write!(out, "\\u{n:04X}");
    } else {
        let _ = write!(out, "\\U{n:08X}");
    }
}
