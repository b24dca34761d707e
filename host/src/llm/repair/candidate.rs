//! A program the loop holds: its text, what the front end and the IO
//! examples say of it, and the two seams through which the toolchain edits
//! it without the model (machine-applicable fixes, patches).

use super::super::prompt::error_json;
use super::super::task::Task;
use crate::diag::{has_errors, Diagnostic};
use crate::functions::Functions;
use crate::source::Source;
use crate::syntax::Kw;
use crate::{canon, fix, patch, pipeline, syntax};
use isu_plugin_api::ExecLimits;
use isu_plugin_api::{Program, Span};
use serde_json::{json, Value};

/// A program and its verdict.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Canonical text when it parses, else the text as written.
    pub text: String,
    /// The canonical program, when the text parses (valid or not).
    pub program: Option<Program>,
    /// Errors of the front end, or else the examples' TestFails.
    pub errors: Vec<Diagnostic>,
    /// Examples that hold (0 unless the program is valid).
    pub passed: usize,
    /// Examples in all.
    pub examples: usize,
}

impl Candidate {
    /// Checks `text` as a program for `task`: the task's signature and shown
    /// examples replace the program's own, then the front end runs, then, on
    /// a valid program, every example.
    pub fn evaluate(text: &str, task: &Task, packs: &Functions) -> Candidate {
        let examples = task.examples.len();
        let parsed = pipeline::parse_canonical(&Source::new("<reply>", text));
        let program = match parsed.program {
            Some(p) if !has_errors(&parsed.diags) => p,
            _ => {
                return Candidate {
                    text: text.to_owned(),
                    program: None,
                    errors: errors_of(parsed.diags),
                    passed: 0,
                    examples,
                }
            }
        };
        let mut imposed = program;
        if let Err(errors) = task.impose(&mut imposed, false, packs) {
            // The task was checked before the loop started: this cannot
            // happen unless the packs changed under it.
            return Candidate {
                text: text.to_owned(),
                program: None,
                errors,
                passed: 0,
                examples,
            };
        }
        let canonical = canon::print(&imposed);
        Candidate::of_canonical(canonical, task, packs)
    }

    /// [`Candidate::evaluate`] of a canonical text whose signature and
    /// examples are already the task's.
    fn of_canonical(text: String, task: &Task, packs: &Functions) -> Candidate {
        let examples = task.examples.len();
        let fe = pipeline::check_with(&Source::new("<program>", text.as_str()), packs);
        let Some(program) = fe.valid_program().cloned() else {
            return Candidate {
                text,
                program: fe.program,
                errors: errors_of(fe.diags),
                passed: 0,
                examples,
            };
        };
        let fails = crate::executor::test_on_interpreter(&program, &ExecLimits::DEFAULT, packs);
        let failed = fails.len().min(examples);
        Candidate {
            text,
            program: Some(program),
            errors: fails,
            passed: examples - failed,
            examples,
        }
    }

    /// Whether it passes `check` and `test`.
    pub fn passes(&self) -> bool {
        self.program.is_some() && self.errors.is_empty()
    }

    /// Whether a patch can edit it.
    /// (Its text parses, or every error is inside a step whose header is
    /// intact, a step-local ParseError that a patch on the text replaces.)
    pub fn patchable(&self) -> bool {
        self.program.is_some()
            || (!self.errors.is_empty() && self.errors.iter().all(|d| d.step.is_some()))
    }

    /// The step `error` names, as a lesson records it: its keyword (`None`
    /// when the error names no step or the step is not found) and its text
    /// (canonical when the program parses; the whole program's text when
    /// the step is not found).
    pub fn step_of(&self, error: &Diagnostic) -> (Option<String>, String) {
        let Some(id) = &error.step else {
            return (None, self.text.clone());
        };
        if let Some(program) = &self.program {
            if let Some(step) = program.find_step(id) {
                return (
                    Some(step.node.keyword().to_owned()),
                    canon::print_step(step, 0),
                );
            }
        }
        let outline = syntax::outline_of(&self.text);
        let Some(text) = outline
            .iter()
            .find(|s| &s.id == id)
            .and_then(|s| self.text.get(s.lo as usize..s.hi as usize))
        else {
            return (None, self.text.clone());
        };
        // The header: `S1_1: ASSIGN`, or `ASSIGN:` under AUTO_ID.
        let keyword = text
            .split_whitespace()
            .take(2)
            .map(|w| w.trim_end_matches(':'))
            .find(|w| Kw::from_word(w).is_some_and(Kw::is_step_kind))
            .map(str::to_owned);
        (keyword, text.to_owned())
    }

    /// Its errors as the model and the log see them: an error inside a
    /// declaration names it (`"declaration": "STATE total"`), as an error in
    /// a step names the step, so that a patch can name it too.
    pub fn errors_json(&self) -> Vec<Value> {
        self.errors
            .iter()
            .map(|d| {
                let mut v = error_json(d);
                if let (Some(name), Value::Object(obj)) = (self.declaration_of(d), &mut v) {
                    obj.insert("declaration".into(), Value::from(name));
                }
                v
            })
            .collect()
    }

    /// The STATE, LOCAL or TYPES entry whose text holds the place of an
    /// error that names no step: `STATE total`.
    fn declaration_of(&self, d: &Diagnostic) -> Option<String> {
        if d.step.is_some() {
            return None;
        }
        let (program, at) = (self.program.as_ref()?, d.span?);
        let holds = |s: &Span| s.lo < s.hi && s.lo <= at.start && at.end <= s.hi;
        let named = |section: Kw, name: &str| format!("{} {name}", section.as_str());
        program
            .state
            .iter()
            .find(|v| holds(&v.span))
            .map(|v| named(Kw::State, &v.name.name))
            .or_else(|| {
                let local = program.locals.iter().find(|v| holds(&v.span));
                local.map(|v| named(Kw::Local, &v.name.name))
            })
            .or_else(|| {
                let def = program.types.iter().find(|v| holds(&v.span));
                def.map(|v| named(Kw::Types, &v.name.name))
            })
    }

    /// What the log records of the verdict.
    pub fn verdict(&self) -> Value {
        json!({
            "parses": self.program.is_some(),
            "passed": self.passed,
            "examples": self.examples,
            "errors": self.errors_json(),
        })
    }

    /// Applies `patch_text` (a patch's artifact) through the patch seam.
    pub fn patch(
        &self,
        patch_text: &str,
        task: &Task,
        packs: &Functions,
    ) -> Result<Candidate, Vec<Diagnostic>> {
        let text = apply_patch(&self.text, patch_text, packs)?;
        Ok(Candidate::evaluate(&text, task, packs))
    }
}

/// Whether a sample of a round that passes `new.0` examples (and parses
/// when `new.1`) is kept over the best one so far, `best`: it passes more
/// examples, or it parses where the best does not.
pub fn outranks(new: (usize, bool), best: (usize, bool)) -> bool {
    new.0 > best.0 || (!best.1 && new.1)
}

/// Only errors go back to the model; warnings stay in the log.
fn errors_of(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags.into_iter().filter(Diagnostic::is_error).collect()
}

/// The patch seam, `isu patch`'s own: `text` patched (on its IIR when it
/// parses, on its text when a ParseError is inside a step), or every error
/// that stops the patch (it does not parse, or it names a step that is not
/// there), in which case nothing is applied. What the patched program still
/// gets wrong is the new candidate's to report.
fn apply_patch(text: &str, patch_text: &str, packs: &Functions) -> Result<String, Vec<Diagnostic>> {
    let (parsed, diags) = syntax::parse_patch(&Source::new("<patch>", patch_text));
    let Some(parsed) = parsed.filter(|_| !has_errors(&diags)) else {
        return Err(errors_of(diags));
    };
    patch::apply_to_source(&Source::new("<program>", text), &parsed, packs)
        .map(|p| p.text)
        .map_err(errors_of)
}

/// What the machine-applicable fixes did to a text.
#[derive(Debug, Clone, Default)]
pub struct Fixes {
    /// The text after them.
    pub text: String,
    /// The diagnostics whose fixes were applied.
    pub applied: Vec<Diagnostic>,
}

/// The fix seam, `isu fix`'s own: every machine-applicable fix of `text`,
/// applied before a model round so that no round is spent on them.
pub fn machine_fixes(text: &str, packs: &Functions) -> Fixes {
    let fixed = fix::fix(&Source::new("<program>", text), packs);
    Fixes {
        text: fixed.text,
        applied: fixed.applied,
    }
}
