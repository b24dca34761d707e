//! regex-lite: one regular expression for decoders that take only a regex
//! (vLLM's and Outlines' regex constraints, llguidance's `regex`).
//!
//! A regular expression cannot count nesting, so this is a superset of the
//! grammar, built the same way for every recursive group of rules
//! (expressions, JSON values, types, blocks of steps): a rule outside such a
//! group is matched exactly, and a reference into a group matches any
//! sequence of the group's *pieces*, the texts its rules hold between their
//! nested parts. So the sections, their order and fields, every line of a
//! step and every token are exact, while nesting and the order of nested
//! lines are not checked: `(add (var x)` matches, `(+ a b)`, `xs[i]` and a
//! lower-case keyword do not. It must match the whole text. The syntax is
//! the common core of Rust's `regex` and `regex-lite`, Python's `re` and
//! llguidance: `(?:...)`, classes, `|`, `?`, `*`, `+`, `{m,n}`.

use super::model::{Class, Expr, Grammar};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

pub fn print(g: &Grammar) -> String {
    let mut a = Approx {
        g,
        groups: g.recursive_groups(),
        memo: BTreeMap::new(),
    };
    a.rule(g.start())
}

struct Approx<'g> {
    g: &'g Grammar,
    groups: Vec<BTreeSet<String>>,
    memo: BTreeMap<String, String>,
}

impl Approx<'_> {
    fn rule(&mut self, name: &str) -> String {
        if let Some(rx) = self.memo.get(name) {
            return rx.clone();
        }
        let rx = match self.groups.iter().find(|g| g.contains(name)).cloned() {
            Some(group) => {
                let mut pieces: Vec<String> = Vec::new();
                for member in &group {
                    if let Some(r) = self.g.get(member) {
                        for p in self.pieces(&r.body, &group) {
                            if !pieces.contains(&p) {
                                pieces.push(p);
                            }
                        }
                    }
                }
                let rx = format!("(?:{})*", pieces.join("|"));
                for member in &group {
                    self.memo.insert(member.clone(), rx.clone());
                }
                rx
            }
            None => {
                let body = self.g.get(name).map(|r| r.body.clone());
                let rx = body.map(|b| self.exact(&b)).unwrap_or_default();
                self.memo.insert(name.to_owned(), rx.clone());
                rx
            }
        };
        rx
    }

    /// The pieces of `e` between references into `group`.
    fn pieces(&mut self, e: &Expr, group: &BTreeSet<String>) -> Vec<String> {
        if !mentions(e, group) {
            return vec![self.exact(e)];
        }
        match e {
            Expr::Ref(_) | Expr::Lit(_) | Expr::Class(_) | Expr::Described(_) => Vec::new(),
            Expr::Seq(items) => {
                let mut out = Vec::new();
                let mut run = String::new();
                for item in items {
                    if mentions(item, group) {
                        if !run.is_empty() {
                            out.push(std::mem::take(&mut run));
                        }
                        out.extend(self.pieces(item, group));
                    } else {
                        run.push_str(&self.exact(item));
                    }
                }
                if !run.is_empty() {
                    out.push(run);
                }
                out
            }
            Expr::Alt(items) => items.iter().flat_map(|i| self.pieces(i, group)).collect(),
            Expr::Repeat { item, .. } => self.pieces(item, group),
            Expr::Except { base, .. } => self.pieces(base, group),
        }
    }

    /// The exact regex of `e` (references to recursive groups approximated).
    fn exact(&mut self, e: &Expr) -> String {
        match e {
            Expr::Lit(s) => s.chars().map(escape).collect(),
            Expr::Class(c) => class(c),
            Expr::Ref(r) => group(&self.rule(r)),
            Expr::Seq(items) => items.iter().map(|i| self.exact(i)).collect(),
            Expr::Alt(items) => format!(
                "(?:{})",
                items
                    .iter()
                    .map(|i| self.exact(i))
                    .collect::<Vec<_>>()
                    .join("|")
            ),
            Expr::Repeat { item, min, max } => {
                let inner = self.exact(item);
                counted(&inner, *min, *max)
            }
            // A superset may leave the exception out, and it is much shorter.
            Expr::Except { base, .. } => self.exact(base),
            // Only ever the minus of an exception, which is left out here.
            Expr::Described(_) => String::new(),
        }
    }
}

/// Whether `e` refers to a rule of `group`.
fn mentions(e: &Expr, group: &BTreeSet<String>) -> bool {
    let mut found = false;
    e.each_ref(&mut |n| found |= group.contains(n));
    found
}

/// `rx` as one atom: grouped unless it is a single character or class.
fn group(rx: &str) -> String {
    if is_atom(rx) {
        rx.to_owned()
    } else {
        format!("(?:{rx})")
    }
}

fn is_atom(rx: &str) -> bool {
    let chars: Vec<char> = rx.chars().collect();
    match chars.as_slice() {
        [c] => !"()|*+?{}[]".contains(*c),
        ['\\', _] => true,
        ['\\', 'x', _, _] => true,
        ['[', rest @ ..] => {
            // A class: its first unescaped `]` is the last character.
            let mut i = 0;
            while i < rest.len() {
                match rest[i] {
                    '\\' => i += 2,
                    ']' => return i == rest.len() - 1,
                    _ => i += 1,
                }
            }
            false
        }
        _ => false,
    }
}

/// `rx` repeated `min` to `max` times.
pub fn counted(rx: &str, min: u32, max: Option<u32>) -> String {
    let a = group(rx);
    match (min, max) {
        (0, Some(1)) => format!("{a}?"),
        (0, None) => format!("{a}*"),
        (1, None) => format!("{a}+"),
        (m, None) => format!("{a}{{{m},}}"),
        (m, Some(n)) if m == n => format!("{a}{{{m}}}"),
        (m, Some(n)) => format!("{a}{{{m},{n}}}"),
    }
}

/// The regex of a literal or a class, if `e` is one.
pub fn simple(e: &Expr) -> Option<String> {
    match e {
        Expr::Lit(s) => Some(s.chars().map(escape).collect()),
        Expr::Class(c) => Some(class(c)),
        _ => None,
    }
}

/// The characters every dialect here lets (and some make) a backslash escape.
const META: &str = "\\.+*?()|[]{}^$#&-~";

/// One literal character.
fn escape(c: char) -> String {
    if META.contains(c) {
        format!("\\{c}")
    } else {
        plain(c)
    }
}

/// A character written without its meaning: control characters and every
/// one outside ASCII as escapes.
fn plain(c: char) -> String {
    let n = c as u32;
    match c {
        '\n' => "\\n".to_owned(),
        '\t' => "\\t".to_owned(),
        '\r' => "\\r".to_owned(),
        c if (0x20..0x7f).contains(&n) => c.to_string(),
        _ if n < 0x80 => format!("\\x{n:02x}"),
        _ if n < 0x10000 => format!("\\u{n:04x}"),
        _ => format!("\\U{n:08x}"),
    }
}

/// A class in bracket syntax: `[A-Za-z_]`, or `[^...]` for one that holds
/// the rest of Unicode.
pub fn class(c: &Class) -> String {
    let (negated, shown) = if c.prefers_negation() {
        (true, c.complement())
    } else {
        (false, c.clone())
    };
    if !negated {
        if let Some(single) = shown.single() {
            return escape(single);
        }
    }
    let mut out = String::from(if negated { "[^" } else { "[" });
    for &(lo, hi) in shown.ranges() {
        let _ = write!(out, "{}", class_char(lo));
        if hi != lo {
            let _ = write!(out, "-{}", class_char(hi));
        }
    }
    out.push(']');
    out
}

fn class_char(c: char) -> String {
    if META.contains(c) {
        format!("\\{c}")
    } else {
        plain(c)
    }
}
