//! A program on a page: its numbered lines with step IDs, its errors pinned
//! where they are (after the last line of the step an error names, or
//! after the line it gives), and the diff of two programs.

use super::diff::{self, Line};
use super::html::{anchor, json, Esc};
use super::story::{Error, Program};
use crate::syntax;
use std::fmt::Write as _;

/// Where an error goes: after line `at` (0-based), and which lines it marks.
struct Pin {
    at: usize,
    lines: std::ops::Range<usize>,
}

/// The 0-based line of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// Writes `program`: the listing with its errors, then the errors that are
/// at no line of it. `id` prefixes the anchors of its steps (`id-S1_1`).
pub fn program(out: &mut String, id: &str, program: &Program) {
    let text = &program.text;
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    let steps = syntax::outline_of(text);
    let mut pinned: Vec<(Pin, &Error)> = Vec::new();
    let mut loose: Vec<&Error> = Vec::new();
    for e in &program.verdict.errors {
        let step = e
            .step
            .as_deref()
            .and_then(|s| steps.iter().find(|o| o.id.to_string() == s));
        let pin = match (step, e.line) {
            (Some(s), _) => {
                let (lo, hi) = (
                    line_of(text, s.lo as usize),
                    line_of(text, s.hi.saturating_sub(1).max(s.lo) as usize),
                );
                Some(Pin {
                    at: hi,
                    lines: lo..hi + 1,
                })
            }
            (None, Some(l)) if l >= 1 && (l as usize) <= lines.len() => {
                let l = l as usize - 1;
                Some(Pin {
                    at: l,
                    lines: l..l + 1,
                })
            }
            _ => None,
        };
        match pin {
            Some(p) => pinned.push((p, e)),
            None => loose.push(e),
        }
    }
    let headers: Vec<(usize, String)> = steps
        .iter()
        .map(|s| (line_of(text, s.lo as usize), s.id.to_string()))
        .collect();
    out.push_str("<div class=\"listing\">\n");
    for (i, l) in lines.iter().enumerate() {
        let bad = pinned.iter().any(|(p, _)| p.lines.contains(&i));
        let step = headers.iter().find(|(at, _)| *at == i).map(|(_, s)| s);
        let _ = write!(out, "<div class=\"line{}\"", if bad { " bad" } else { "" });
        if let Some(s) = step {
            let _ = write!(out, " data-step=\"{}\"", Esc(s));
            if let Some(a) = anchor(&[id, s]) {
                let _ = write!(out, " id=\"{a}\"");
            }
        }
        let _ = writeln!(
            out,
            "><span class=\"ln\">{}</span><code>{}</code></div>",
            i + 1,
            Esc(l)
        );
        for (_, e) in pinned.iter().filter(|(p, _)| p.at == i) {
            out.push_str("<div class=\"pin\">\n");
            error(out, id, e);
            out.push_str("</div>\n");
        }
    }
    out.push_str("</div>\n");
    if !loose.is_empty() {
        out.push_str("<div class=\"loose\">\n");
        for e in loose {
            error(out, id, e);
        }
        out.push_str("</div>\n");
    }
}

/// Writes one error: its code and kind, its step (a link to it in the
/// listing `id`), its line, message, hint, values and loop rounds.
pub fn error(out: &mut String, id: &str, e: &Error) {
    let _ = write!(out, "<div class=\"error\" data-code=\"{}\"", Esc(&e.code));
    if let Some(s) = &e.step {
        let _ = write!(out, " data-step=\"{}\"", Esc(s));
    }
    let _ = write!(
        out,
        ">\n<p class=\"head\"><span class=\"code\">{}</span> <span class=\"kind\">{}</span>",
        Esc(&e.code),
        Esc(&e.kind)
    );
    if e.patch {
        out.push_str(" <span class=\"of-patch\">in the patch</span>");
    }
    if let Some(s) = &e.step {
        out.push_str(" at step ");
        match anchor(&[id, s]).filter(|_| !e.patch) {
            Some(a) => {
                let _ = write!(out, "<a class=\"step\" href=\"#{a}\">{}</a>", Esc(s));
            }
            None => {
                let _ = write!(out, "<span class=\"step\">{}</span>", Esc(s));
            }
        }
    }
    if let Some(l) = e.line {
        let _ = write!(out, ", line {l}");
    }
    let _ = writeln!(out, "</p>\n<p class=\"message\">{}</p>", Esc(&e.message));
    if let Some(h) = &e.hint {
        let _ = writeln!(out, "<p class=\"hint\">hint: {}</p>", Esc(h));
    }
    let mut values: Vec<(String, String)> = Vec::new();
    if let Some(v) = &e.expected {
        values.push(("expected".into(), json(v)));
    }
    if let Some(v) = &e.actual {
        values.push(("actual".into(), actual(&e.code, v)));
    }
    for v in &e.vars {
        values.push((v.name.clone(), json(&v.value)));
    }
    if !values.is_empty() {
        out.push_str("<dl class=\"values\">");
        for (k, v) in values {
            let _ = write!(out, "<dt>{}</dt><dd><code>{}</code></dd>", Esc(&k), Esc(&v));
        }
        out.push_str("</dl>\n");
    }
    for r in &e.rounds {
        let _ = write!(
            out,
            "<p class=\"loop\">in round {} of {}",
            r.round,
            Esc(&r.step)
        );
        if let (Some(var), Some(v)) = (&r.var, &r.value) {
            let _ = write!(out, " ({} = {})", Esc(var), Esc(&json(v)));
        }
        out.push_str("</p>\n");
    }
    for n in &e.notes {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", Esc(n));
    }
    out.push_str("</div>\n");
}

/// What an example gave: its value, or, when it stopped with an error
/// (`test_error`, whose `actual` is that error's diagnostic), the error's
/// code and message.
fn actual(code: &str, v: &serde_json::Value) -> String {
    let said = |k: &str| v.get(k).and_then(serde_json::Value::as_str);
    match (code, said("code"), said("message")) {
        ("test_error", Some(c), Some(m)) => format!("stopped with {c}: {m}"),
        _ => json(v),
    }
}

/// Writes the diff from `old` to `new` (a few lines of context around each
/// change), or says there is none.
pub fn changes(out: &mut String, old: &str, new: &str) {
    let (a, b): (Vec<&str>, Vec<&str>) = (
        old.split_terminator('\n').collect(),
        new.split_terminator('\n').collect(),
    );
    let script = diff::lines(&a, &b);
    let (added, removed) = script.iter().fold((0, 0), |(p, m), l| match l {
        Line::Added(_) => (p + 1, m),
        Line::Removed(_) => (p, m + 1),
        Line::Same { .. } => (p, m),
    });
    if added + removed == 0 {
        out.push_str("<p class=\"unchanged\">No line changed.</p>\n");
        return;
    }
    let _ = writeln!(
        out,
        "<div class=\"diff\" data-added=\"{added}\" data-removed=\"{removed}\">"
    );
    for l in diff::hunks(&script, 2) {
        let (class, mark, old_n, new_n, text) = match l {
            None => {
                out.push_str("<div class=\"skip\">⋯</div>\n");
                continue;
            }
            Some(Line::Same { old, new }) => ("same", " ", Some(old), Some(new), a[old]),
            Some(Line::Removed(i)) => ("del", "-", Some(i), None, a[i]),
            Some(Line::Added(j)) => ("add", "+", None, Some(j), b[j]),
        };
        let n = |x: Option<usize>| x.map_or(String::new(), |x| (x + 1).to_string());
        let _ = writeln!(
            out,
            "<div class=\"line {class}\"><span class=\"ln\">{}</span><span class=\"ln\">{}</span><span class=\"mark\">{mark}</span><code>{}</code></div>",
            n(old_n),
            n(new_n),
            Esc(text)
        );
    }
    out.push_str("</div>\n");
}
