//! The repair loop's one rule for the memory: with `--lessons`, when a patch
//! fixes an error, it adds a lesson, and it reads the lessons of the errors
//! it is about to repair into its prompt. Nothing else writes or reads
//! lessons implicitly.

use super::{Query, Record};
use crate::diag::Diagnostic;
use serde_json::{json, Value};

/// What one repair taught: the error it fixed and the patch that fixed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lesson {
    /// The fixed error's stable code (`type_mismatch`).
    pub code: String,
    /// The fixed error's message.
    pub message: String,
    /// The kind of the failing step (`ASSIGN`, `LOOP`), when the error had a step.
    pub step_kind: Option<String>,
    /// The failing step's text as it stood before the patch (the whole
    /// program's text when the error had no step).
    pub failing_text: String,
    /// The patch that fixed it (`PATCH:` text).
    pub patch: String,
}

impl Lesson {
    /// The `kind` of every lesson record.
    pub const KIND: &'static str = "lesson";

    /// How many lessons the loop reads into a prompt.
    pub const PROMPT_LIMIT: usize = 3;

    /// The lesson of `error`, fixed by `patch` in a step of `step_kind` whose
    /// text was `failing_text`.
    pub fn new(
        error: &Diagnostic,
        step_kind: Option<&str>,
        failing_text: &str,
        patch: &str,
    ) -> Lesson {
        Lesson {
            code: error.code.as_str().to_owned(),
            message: error.message.clone(),
            step_kind: step_kind.map(str::to_owned),
            failing_text: failing_text.to_owned(),
            patch: patch.to_owned(),
        }
    }

    /// The record a store keeps: `{"kind": "lesson", "code", "message",
    /// "step_kind", "text", "patch"}` (`text` is the failing text, so that
    /// `--text` searches it; `step_kind` is `null` without a step).
    pub fn record(&self) -> Result<Record, Diagnostic> {
        Record::new(json!({
            "kind": Lesson::KIND,
            "code": self.code,
            "message": self.message,
            "step_kind": self.step_kind,
            "text": self.failing_text,
            "patch": self.patch,
        }))
    }

    /// The query for the lessons most relevant to `error`: the newest
    /// [`Lesson::PROMPT_LIMIT`] lessons about the same code (in a step of the
    /// same kind, when the error names one).
    pub fn query_for(error: &Diagnostic, step_kind: Option<&str>) -> Query {
        let mut fields = vec![("code".to_owned(), Value::from(error.code.as_str()))];
        if let Some(kind) = step_kind {
            fields.push(("step_kind".to_owned(), Value::from(kind)));
        }
        Query {
            kind: Some(Lesson::KIND.to_owned()),
            fields,
            limit: Lesson::PROMPT_LIMIT,
            ..Query::default()
        }
    }
}
