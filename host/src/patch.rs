//! Step-level patches: REPLACE, INSERT_AFTER, DELETE, applied on IIR.
//!
//! A patch file (`PATCH:` then entries, parsed by [`crate::syntax`]) edits a
//! canonical program step by step:
//!
//! - `REPLACE S2:` then one step: the step takes `S2`'s place and its ID; its
//!   children get the canonical IDs under `S2`. Every other step keeps its ID
//!   and so prints exactly as before.
//! - `INSERT_AFTER S2:` then steps: they go right after `S2`, in `S2`'s block.
//!   The later siblings of `S2` (and everything under them) are renumbered.
//! - `DELETE S2`: `S2` and everything under it go. The later siblings are
//!   renumbered. Deleting every step is allowed when the result validates.
//!
//! Entries apply in order, and their targets always name steps by the IDs of
//! the program the patch was written against, whatever earlier entries
//! renumbered: a patch says what to do to the program its author sees. Two
//! INSERT_AFTER of one target put the second entry's steps first (each goes
//! right after the target). An entry naming a step that an earlier one deleted
//! or replaced the parent of is an error, like any missing target
//! (`unknown_step`).
//!
//! The steps a patch brings are written like any step; their IDs are optional
//! and only informative: they get canonical IDs where they land, and a
//! `step_renumbered` warning lists any that were written differently.
//!
//! Applying is pure: the result is a new program, its canonical text and the
//! old → new ID map, or every error; nothing else changes. The patched program
//! is the program its canonical text parses to, validated: it is exactly what
//! `isu check` would make of the text.

mod edit;

use crate::canon::{self, IdMap};
use crate::diag::{has_errors, Code, Diagnostic};
use crate::pipeline;
use crate::source::Source;
use crate::syntax::PatchFile;
use edit::{is_provisional, provisional_index, Editor};
use isu_plugin_api::{Program, StepId};
use std::collections::HashMap;

/// A patch applied: the new program and what happened to its step IDs.
#[derive(Debug, Clone)]
pub struct Patched {
    /// The patched program: canonical, validated and typed. Its spans point
    /// into [`Patched::text`].
    pub program: Program,
    /// The canonical text of the patched program.
    pub text: String,
    /// Old → new IDs of the original program's steps that INSERT_AFTER or
    /// DELETE renumbered, in the order of the new program. Steps not in it
    /// kept their IDs (or were removed).
    pub renumbered: IdMap,
    /// Warnings: validation's, on the patched program, and one
    /// `step_renumbered` for steps of the patch written with IDs other than
    /// those they got.
    pub warnings: Vec<Diagnostic>,
}

impl Patched {
    /// [`Patched::renumbered`] as a JSON object from old to new IDs.
    pub fn renumbered_json(&self) -> serde_json::Value {
        canon::map_json(&self.renumbered)
    }
}

/// Applies the patch's entries in order to `program` (canonical, as the
/// front end gives it), renumbers, prints and validates the result.
///
/// On failure returns every error: each entry whose target is missing
/// (`unknown_step`, naming it), or, when the patched program does not
/// validate, validation's diagnostics with a hint saying so. Their spans are
/// left out (they would point into a text the caller never saw); their step
/// IDs are those of the patched program.
pub fn apply(program: &Program, patch: &PatchFile) -> Result<Patched, Vec<Diagnostic>> {
    let mut editor = Editor::new(program);
    for (i, entry) in patch.entries.iter().enumerate() {
        editor.apply(i + 1, entry);
    }
    if !editor.diags.is_empty() {
        return Err(editor.diags);
    }
    let Editor {
        mut program,
        written,
        replaced,
        ..
    } = editor;

    // Renumber, and tell the program's steps apart from the patch's.
    let mut renumbered = Vec::new();
    let mut landed: HashMap<StepId, Option<StepId>> = HashMap::new();
    for (old, new) in canon::renumber(&mut program) {
        if is_provisional(&old) {
            let was = provisional_index(&old).and_then(|i| written.get(i).cloned().flatten());
            landed.insert(new, was);
        } else {
            renumbered.push((old, new));
        }
    }
    let moved: HashMap<&StepId, &StepId> = renumbered.iter().map(|(o, n)| (o, n)).collect();
    for (target, was) in &replaced {
        let now = moved
            .get(target)
            .map_or_else(|| target.clone(), |n| (*n).clone());
        landed.insert(now, was.clone());
    }

    let mut warnings = Vec::new();
    if let Some(w) = patch_ids_warning(&program, &landed) {
        warnings.push(w);
    }

    let text = canon::print(&program);
    let checked = pipeline::check(&Source::new("<patched>", text.as_str()));
    match checked.program {
        Some(program) if !has_errors(&checked.diags) => {
            warnings.extend(checked.diags);
            Ok(Patched {
                program,
                text,
                renumbered,
                warnings,
            })
        }
        _ => Err(invalid_after_patch(checked.diags, &renumbered)),
    }
}

/// The `step_renumbered` warning for steps of the patch that were written
/// with IDs other than the ones they got, in the order of the new program.
fn patch_ids_warning(
    program: &Program,
    landed: &HashMap<StepId, Option<StepId>>,
) -> Option<Diagnostic> {
    let pairs: IdMap = program
        .steps()
        .into_iter()
        .filter_map(|s| {
            let now = s.id.as_ref()?;
            let was = landed.get(now)?.as_ref()?;
            (was != now).then(|| (was.clone(), now.clone()))
        })
        .collect();
    if pairs.is_empty() {
        return None;
    }
    Some(
        Diagnostic::warning(
            Code::StepRenumbered,
            format!(
                "steps of the patch were written with IDs other than the ones they got: {}",
                canon::map_text(&pairs)
            ),
        )
        .with_actual(canon::map_json(&pairs))
        .with_hint("a patch's steps take the canonical IDs of the place they land in; refer to them by those"),
    )
}

/// The diagnostics of a patched program that does not validate. Their spans
/// would point into the patched text, which the caller does not have: they
/// are dropped, and the step IDs (of the patched program) say where.
fn invalid_after_patch(diags: Vec<Diagnostic>, renumbered: &IdMap) -> Vec<Diagnostic> {
    let mut note = "the patch left the program invalid, so it was not applied".to_owned();
    if !renumbered.is_empty() {
        note.push_str(&format!(
            "; step IDs here are those of the patched program, where {}",
            canon::map_text(renumbered)
        ));
    }
    diags
        .into_iter()
        .map(|mut d| {
            d.span = None;
            d.labels.clear();
            if d.is_error() {
                d.hint = Some(match d.hint.take() {
                    Some(h) => format!("{h}; {note}"),
                    None => note.clone(),
                });
            }
            d
        })
        .collect()
}

#[cfg(test)]
mod tests;
