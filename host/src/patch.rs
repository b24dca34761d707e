//! Step-level patches: REPLACE, INSERT_AFTER, INSERT_BEFORE, INSERT_INTO,
//! DELETE, on steps and on the entries of STATE, LOCAL and TYPES.
//!
//! A patch file (`PATCH:` then entries, parsed by [`crate::syntax`]) edits a
//! program step by step:
//!
//! - `REPLACE S2:` then one step: the step takes `S2`'s place and its ID; its
//!   children get the canonical IDs under `S2`. Every other step keeps its ID
//!   and so prints exactly as before.
//! - `INSERT_AFTER S2:` / `INSERT_BEFORE S2:` then steps: they go right
//!   after (before) `S2`, in `S2`'s block. `INSERT_INTO S2 THEN:` (`S2:` for
//!   a SEQ or a LOOP, `STEPS:` for the root) puts them first in that block.
//!   The later steps (and everything under them) are renumbered.
//! - `DELETE S2`: `S2` and everything under it go. The later siblings are
//!   renumbered.
//! - `REPLACE STATE total: [total: int = (const 1)]`, `INSERT_AFTER LOCAL x:
//!   [y: int]`, `INSERT_BEFORE ...`, `INSERT_INTO TYPES: [...]` (first in the
//!   section), `DELETE STATE total`: the same on declarations, by name.
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
//! A patch applies to any program that parses, valid or not: on its IIR
//! ([`apply`], [`apply_to_source`]); the result is printed canonically (with
//! the comments of the source, but for those inside replaced or removed
//! steps), parsed and validated again, and comes back with every diagnostic
//! of that check, valid or not. A program that does not parse is patched on
//! its text ([`text`]): REPLACE puts the new step's text in the place of the
//! target's, DELETE removes it, and the whole text is parsed again; so a step
//! whose own text does not parse is repaired by a patch too.
//!
//! Applying is pure: nothing but the returned value changes.

mod edit;
mod text;

use crate::canon::{self, IdMap};
use crate::diag::{has_errors, Code, Diagnostic};
use crate::functions::Functions;
use crate::pipeline;
use crate::source::Source;
use crate::syntax::{Comments, PatchFile};
use edit::{is_provisional, provisional_index, Editor};
use isu_plugin_api::{Program, StepId};
use std::collections::HashMap;

/// A patch applied: the new text, its program, and what happened to the IDs.
#[derive(Debug, Clone)]
pub struct Patched {
    /// The patched program, canonical, when its text parses; validated and
    /// typed when [`Patched::diags`] holds no error. Its spans point into
    /// [`Patched::text`].
    pub program: Option<Program>,
    /// The patched text: canonical when it parses.
    pub text: String,
    /// Old → new IDs of the original program's steps that INSERT_AFTER or
    /// DELETE renumbered, in the order of the new program. Steps not in it
    /// kept their IDs (or were removed).
    pub renumbered: IdMap,
    /// What checking the patched text reports (errors the patch left or
    /// made, and warnings), and one `step_renumbered` warning for steps of
    /// the patch written with IDs other than those they got. Spans point into
    /// [`Patched::text`].
    pub diags: Vec<Diagnostic>,
}

impl Patched {
    /// [`Patched::renumbered`] as a JSON object from old to new IDs.
    pub fn renumbered_json(&self) -> serde_json::Value {
        canon::map_json(&self.renumbered)
    }

    /// Whether the patched program parses and validates.
    pub fn is_valid(&self) -> bool {
        self.program.is_some() && !has_errors(&self.diags)
    }
}

/// Applies `patch` to the program of `src`, which must parse: on its IIR when
/// it parses, on its text when it does not (see the module's documentation).
/// The result keeps the comments of `src`.
///
/// Returns every error that stops the patch from applying: each entry whose
/// target is missing (`unknown_step`, naming it and pointing into the patch
/// file), and in text mode an entry that text mode cannot apply.
pub fn apply_to_source(
    src: &Source,
    patch: &PatchFile,
    packs: &Functions,
) -> Result<Patched, Vec<Diagnostic>> {
    let fe = pipeline::parse_canonical(src);
    match &fe.program {
        Some(program) => apply_with(program, &fe.layout.comments, patch, packs),
        None => text::apply(src, patch, packs),
    }
}

/// Applies the patch's entries in order to `program` (canonical, as the
/// front end gives it), renumbers, prints and checks the result.
///
/// Returns the errors of entries whose target is missing (`unknown_step`,
/// naming it), or the patched program with every diagnostic of its check.
pub fn apply(program: &Program, patch: &PatchFile) -> Result<Patched, Vec<Diagnostic>> {
    apply_with(program, &Comments::default(), patch, &Functions::default())
}

fn apply_with(
    program: &Program,
    comments: &Comments,
    patch: &PatchFile,
    packs: &Functions,
) -> Result<Patched, Vec<Diagnostic>> {
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
        replaced_at,
        ..
    } = editor;
    let mut comments = comments.clone();
    for at in replaced_at {
        comments = comments.without_inside(at);
    }

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

    let ids_warning = patch_ids_warning(&program, &landed);
    let text = canon::print_with(&program, &comments);
    let checked = pipeline::check_with(&Source::new("<patched>", text.as_str()), packs);
    let mut diags: Vec<Diagnostic> = ids_warning.into_iter().collect();
    diags.extend(checked.diags);
    Ok(Patched {
        program: checked.program,
        text,
        renumbered,
        diags,
    })
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

#[cfg(test)]
mod tests;
