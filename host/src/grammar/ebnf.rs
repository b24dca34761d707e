//! ISO 14977 EBNF, for people (`spec/isu.ebnf`).
//!
//! `"x"` is a terminal, `a , b` a sequence, `a | b` a choice, `[ a ]`
//! optional, `{ a }` zero or more, `n * a` exactly n, `a - b` an `a` that is
//! not a `b`, and `? ... ?` a character described in words or as a regex
//! bracket class (`? [0-9] ?`).

use super::model::{Expr, Grammar};
use super::regex;
use std::fmt::Write;

/// The grammar, after `preamble` (comment lines).
pub fn print(g: &Grammar, preamble: &str) -> String {
    let mut out = String::new();
    for line in preamble.lines() {
        comment(&mut out, line);
    }
    for r in &g.rules {
        out.push('\n');
        for line in r.doc.lines() {
            comment(&mut out, line);
        }
        let head = format!("{} = ", r.name);
        let pad = " ".repeat(head.len() - 2);
        let body = match &r.body {
            Expr::Alt(items) => items
                .iter()
                .map(|i| expr(i, false))
                .collect::<Vec<_>>()
                .join(&format!("\n{pad}| ")),
            e => expr(e, false),
        };
        let _ = writeln!(out, "{head}{body} ;");
    }
    out
}

fn comment(out: &mut String, line: &str) {
    if line.is_empty() {
        out.push_str("(* *)\n");
    } else {
        let _ = writeln!(out, "(* {line} *)");
    }
}

fn expr(e: &Expr, nested: bool) -> String {
    let wrap = |s: String| if nested { format!("( {s} )") } else { s };
    match e {
        Expr::Lit(s) => literal(s),
        Expr::Class(c) => format!("? {} ?", regex::class(c)),
        Expr::Ref(r) => r.clone(),
        Expr::Described(text) => format!("? {text} ?"),
        Expr::Seq(items) => wrap(
            items
                .iter()
                .map(|i| expr(i, true))
                .collect::<Vec<_>>()
                .join(" , "),
        ),
        Expr::Alt(items) => format!(
            "( {} )",
            items
                .iter()
                .map(|i| expr(i, false))
                .collect::<Vec<_>>()
                .join(" | ")
        ),
        Expr::Repeat { item, min, max } => {
            let one = expr(item, true);
            let plain = expr(item, false);
            let mut parts = Vec::new();
            match min {
                0 => {}
                1 => parts.push(one.clone()),
                m => parts.push(format!("{m} * {one}")),
            }
            match max {
                None => parts.push(format!("{{ {plain} }}")),
                Some(n) if *n == min + 1 => parts.push(format!("[ {plain} ]")),
                Some(n) if n > min => parts.push(format!("{} * [ {plain} ]", n - min)),
                Some(_) => {}
            }
            if parts.len() == 1 {
                parts.remove(0)
            } else {
                wrap(parts.join(" , "))
            }
        }
        Expr::Except { base, minus, .. } => {
            wrap(format!("{} - {}", expr(base, true), expr(minus, true)))
        }
    }
}

/// A terminal; characters outside printable ASCII stand apart as `? U+000A ?`.
fn literal(s: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut run = String::new();
    let flush = |run: &mut String, parts: &mut Vec<String>| {
        if !run.is_empty() {
            let q = if run.contains('"') { '\'' } else { '"' };
            parts.push(format!("{q}{run}{q}"));
            run.clear();
        }
    };
    for c in s.chars() {
        if (' '..='~').contains(&c) {
            run.push(c);
        } else {
            flush(&mut run, &mut parts);
            parts.push(format!("? U+{:04X} ?", c as u32));
        }
    }
    flush(&mut run, &mut parts);
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        format!("( {} )", parts.join(" , "))
    }
}
