//! Machine-applicable fixes: the fixes that need the layout of the text
//! ([`attach`]), and `isu fix`'s loop that applies every certain fix until
//! none is left ([`fix`]).
//!
//! A fix is a list of text edits on the text the diagnostic's spans point
//! into (see [`crate::diag::Fix`]). Most are written where the error is found
//! (the lexer, the repair pass, the lowering); those that need to know where
//! a header or a declaration list stands in the text are written here, from
//! the [`Layout`] the parser hands over beside the IIR.

use crate::canon;
use crate::diag::{Code, Diagnostic, Edit, Fix, PendingFix};
use crate::pipeline::{self, FrontEnd};
use crate::plugins::PackFunctions;
use crate::source::Source;
use crate::syntax::{header_text, Layout};
use isu_plugin_api::{Program, Span, Step, StepId};
use std::collections::HashMap;

/// How many rounds `isu fix` makes at most: each round applies every certain
/// fix that does not overlap another, and a fix may reveal the next error.
pub const MAX_ROUNDS: usize = 10;

/// Completes the diagnostics of a canonical program with what needs its
/// layout: the ID a renumbered step was written with (`source_step`), and
/// the fixes of `missing_step_id`, `step_renumbered` and of a variable to
/// declare.
pub fn attach(diags: &mut [Diagnostic], program: &Program, layout: &Layout, text: &str) {
    if diags.is_empty() {
        return;
    }
    // Each step whose written ID is not its canonical one, and where it is.
    let mut written: HashMap<&StepId, &str> = HashMap::new();
    let mut renames: Vec<(Span, String)> = Vec::new();
    let mut by_start: HashMap<u32, &Step> = HashMap::new();
    for step in program.steps() {
        by_start.insert(step.span.lo, step);
        let (Some(id), Some(h)) = (&step.id, layout.header(step.span.lo)) else {
            continue;
        };
        if let Some(at) = h.id {
            let w = text.get(at.lo as usize..at.hi as usize).unwrap_or("");
            if w != id.as_str() {
                written.insert(id, w);
                renames.push((at, id.to_string()));
            }
        }
    }
    for d in diags.iter_mut() {
        if d.source_step.is_none() {
            d.source_step = d
                .step
                .as_ref()
                .and_then(|s| written.get(s))
                .map(|w| (*w).to_owned());
        }
        match d.code {
            Code::MissingStepId => missing_id(d, layout, &by_start),
            Code::StepRenumbered if d.fix.is_none() && !renames.is_empty() => {
                d.fix = Some(Fix::edits(renames.clone()));
            }
            _ => {}
        }
        if let Some(pending) = d.pending.take() {
            let PendingFix::Declare { name, ty } = *pending;
            d.fix = declare(layout, &name, &ty).or(d.fix.take());
        }
    }
}

/// `missing_step_id`: the header rewritten with the ID it gets.
fn missing_id(d: &mut Diagnostic, layout: &Layout, steps: &HashMap<u32, &Step>) {
    let (Some(span), Some(id)) = (d.span, d.expected.as_ref().and_then(|e| e.as_str())) else {
        return;
    };
    let (Some(h), Some(step)) = (layout.header(span.start), steps.get(&span.start)) else {
        return;
    };
    let fixed = header_text(step.node.keyword(), Some(id), step.desc.as_deref());
    d.hint = Some(format!(
        "write `{fixed}`, or put `META:` with `AUTO_ID: true` first in the file to have IDs given"
    ));
    d.fix = Some(Fix::replace(h.span, fixed));
}

/// The edit that declares `name: ty` in LOCAL (a LOCAL section of its own
/// before STEPS when there is none).
fn declare(layout: &Layout, name: &str, ty: &str) -> Option<Fix> {
    let decl = format!("{name}: {ty}");
    match (layout.locals, layout.steps_at) {
        (Some(list), _) => {
            let at = Span {
                hi: list.close.lo,
                ..list.close
            };
            let text = if list.empty {
                decl
            } else {
                format!(", {decl}")
            };
            Some(Fix::replace(at, text))
        }
        (None, Some(steps)) => {
            let at = Span {
                hi: steps.lo,
                ..steps
            };
            Some(Fix::replace(at, format!("LOCAL: [{decl}]\n")))
        }
        (None, None) => None,
    }
}

/// What `isu fix` did to a text.
#[derive(Debug, Clone)]
pub struct Fixed {
    /// The text with every certain fix applied, in canonical form when it parses.
    pub text: String,
    /// The diagnostics whose fixes were applied, round by round (their spans
    /// point into the text of their round).
    pub applied: Vec<Diagnostic>,
    /// How many rounds applied something.
    pub rounds: usize,
    /// The front end's view of [`Fixed::text`]: what is left.
    pub front: FrontEnd,
}

impl Fixed {
    /// [`Fixed::applied`] as reported in JSON: each fix's code, message and step.
    pub fn applied_json(&self) -> serde_json::Value {
        self.applied
            .iter()
            .map(|d| {
                serde_json::json!({
                    "code": d.code.as_str(),
                    "message": d.message,
                    "step": d.step.as_ref().map(|s| s.as_str()),
                })
            })
            .collect()
    }
}

/// Applies every certain fix of `src`, round after round, until a round finds
/// none (or [`MAX_ROUNDS`] rounds); then writes the program canonically when
/// it parses.
pub fn fix(src: &Source, packs: &PackFunctions) -> Fixed {
    let mut text = src.text.clone();
    let mut applied = Vec::new();
    let mut rounds = 0;
    let mut front = pipeline::check_with(&Source::new(src.name.clone(), text.as_str()), packs);
    while rounds < MAX_ROUNDS {
        let (edits, used) = certain_edits(&front.diags);
        if edits.is_empty() {
            break;
        }
        let Some(next) = apply_edits(&text, &edits) else {
            break;
        };
        if next == text {
            break;
        }
        rounds += 1;
        applied.extend(used.into_iter().cloned());
        text = next;
        front = pipeline::check_with(&Source::new(src.name.clone(), text.as_str()), packs);
    }
    if let Some(p) = &front.program {
        let canonical = canon::print_with(p, &front.layout.comments);
        if canonical != text {
            text = canonical;
            front = pipeline::check_with(&Source::new(src.name.clone(), text.as_str()), packs);
        }
    }
    Fixed {
        text,
        applied,
        rounds,
        front,
    }
}

/// The edits of every certain fix that overlaps no fix before it, and the
/// diagnostics they come from. A fix repeated by several diagnostics (one
/// declaration for two uses of a name) counts once.
pub fn certain_edits(diags: &[Diagnostic]) -> (Vec<Edit>, Vec<&Diagnostic>) {
    let mut edits: Vec<Edit> = Vec::new();
    let mut used = Vec::new();
    for d in diags {
        let Some(fix) = d.fix.as_ref().filter(|f| f.is_certain()) else {
            continue;
        };
        if fix.edits.iter().all(|e| edits.contains(e)) {
            continue;
        }
        if fix
            .edits
            .iter()
            .any(|e| edits.iter().any(|taken| overlap(e, taken)))
        {
            continue;
        }
        edits.extend(fix.edits.iter().cloned());
        used.push(d);
    }
    (edits, used)
}

/// Whether two edits touch the same text: two replacements that share a
/// byte, an insertion strictly inside a replacement, or two insertions at
/// one place (their order would be a guess).
fn overlap(a: &Edit, b: &Edit) -> bool {
    let (a0, a1) = (a.span.start, a.span.end);
    let (b0, b1) = (b.span.start, b.span.end);
    match (a0 == a1, b0 == b1) {
        (true, true) => a0 == b0,
        (true, false) => b0 < a0 && a0 < b1,
        (false, true) => a0 < b0 && b0 < a1,
        (false, false) => a0 < b1 && b0 < a1,
    }
}

/// `text` with `edits` applied (they do not overlap); `None` when an edit
/// lies outside the text or cuts a character.
pub fn apply_edits(text: &str, edits: &[Edit]) -> Option<String> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0usize;
    for e in sorted {
        let (lo, hi) = (e.span.start as usize, e.span.end as usize);
        if lo < at || hi < lo || !text.is_char_boundary(lo) || !text.is_char_boundary(hi) {
            return None;
        }
        out.push_str(text.get(at..lo)?);
        out.push_str(&e.replacement);
        at = hi;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

#[cfg(test)]
mod tests;
