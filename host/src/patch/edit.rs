//! The tree surgery of a patch: REPLACE, INSERT_AFTER and DELETE on the steps
//! of a program, entry after entry, before anything is renumbered.
//!
//! Targets name steps by the IDs of the program the patch was written
//! against, so while the entries apply, every step of that program keeps its
//! ID (a REPLACE's new step takes its target's) and the steps the patch brings
//! get *provisional* IDs `S0_1, S0_2, ...`: ill-formed on purpose, so that no
//! target can name them and no program ID can clash with them. Renumbering
//! afterwards tells the old → new map of the program's steps apart from the
//! IDs the patch's steps end up with.

use crate::diag::{Code, Diagnostic};
use crate::syntax::PatchEntry;
use isu_plugin_api::{Block, Program, Span, Step, StepId};
use std::collections::HashMap;

/// A program being patched, with what the entries so far did to it.
#[derive(Debug)]
pub(crate) struct Editor {
    pub program: Program,
    /// The ID each step of the patch was written with (`None`: none), indexed
    /// by its provisional ID's second number minus one.
    pub written: Vec<Option<StepId>>,
    /// The steps REPLACE put in place: target ID and the ID the new step was
    /// written with.
    pub replaced: Vec<(StepId, Option<StepId>)>,
    /// Where the replaced steps started in the program's text.
    pub replaced_at: Vec<u32>,
    /// The program's steps an entry removed (deleted, or children of a
    /// replaced step), with the entry's number from 1, for the error of a
    /// later entry that names one.
    removed: HashMap<StepId, usize>,
    pub diags: Vec<Diagnostic>,
}

/// Whether `id` is a provisional ID given by [`Editor`] (`S0_n`).
pub(crate) fn is_provisional(id: &StepId) -> bool {
    id.as_str().starts_with("S0_")
}

/// The index into [`Editor::written`] of a provisional ID.
pub(crate) fn provisional_index(id: &StepId) -> Option<usize> {
    let n: usize = id.as_str().strip_prefix("S0_")?.parse().ok()?;
    n.checked_sub(1)
}

impl Editor {
    pub fn new(program: &Program) -> Editor {
        Editor {
            program: program.clone(),
            written: Vec::new(),
            replaced: Vec::new(),
            replaced_at: Vec::new(),
            removed: HashMap::new(),
            diags: Vec::new(),
        }
    }

    /// Applies the entry numbered `number` (from 1), or records why it cannot.
    pub fn apply(&mut self, number: usize, entry: &PatchEntry) {
        let target = entry.target();
        let mut hops = Vec::new();
        let Some(index) = find(&self.program.body, target, &mut hops) else {
            let d = self.unknown(number, entry);
            self.diags.push(d);
            return;
        };
        let Some(block) = block_at(&mut self.program.body, &hops) else {
            return; // `find` just walked this path: unreachable.
        };
        match entry {
            PatchEntry::Replace { step, .. } => {
                let mut new = provisional(step, &mut self.written);
                new.id = Some(target.clone());
                // The comments before the replaced step's header stay with it.
                if let Some(old) = block.steps.get(index) {
                    new.span = old.span;
                    self.replaced_at.push(old.span.lo);
                }
                self.replaced.push((target.clone(), step.id.clone()));
                let Some(slot) = block.steps.get_mut(index) else {
                    return;
                };
                let old = std::mem::replace(slot, new);
                for block in old.node.blocks() {
                    record_removed(block, number, &mut self.removed);
                }
            }
            PatchEntry::InsertAfter { steps, .. } => {
                let new: Vec<Step> = steps
                    .iter()
                    .map(|s| provisional(s, &mut self.written))
                    .collect();
                block.steps.splice(index + 1..index + 1, new);
            }
            PatchEntry::Delete { .. } => {
                if index >= block.steps.len() {
                    return;
                }
                let old = block.steps.remove(index);
                record_removed(
                    &Block {
                        steps: vec![old],
                        span: Span::default(),
                    },
                    number,
                    &mut self.removed,
                );
            }
        }
    }

    /// The error for an entry whose target is not in the program (any more).
    fn unknown(&self, number: usize, entry: &PatchEntry) -> Diagnostic {
        let target = entry.target();
        let keyword = entry.keyword();
        let message = match self.removed.get(target) {
            Some(by) => format!(
                "{keyword} {target} (entry {number}): step {target} is no longer in the program; \
                 entry {by} of this patch removed it"
            ),
            None => {
                format!("{keyword} {target} (entry {number}): the program has no step {target}")
            }
        };
        Diagnostic::error(Code::UnknownStep, message)
            .at(entry.span())
            .in_step(Some(target))
            .with_actual(target.as_str())
            .with_hint(self.nearby(target))
    }

    /// Where the missing step would be: the steps at the deepest level of its
    /// path that exists.
    fn nearby(&self, target: &StepId) -> String {
        let path = target.path();
        for depth in (0..path.len()).rev() {
            let parent = &path[..depth];
            let siblings: Vec<&Step> = if parent.is_empty() {
                self.program.body.steps.iter().collect()
            } else {
                let parent_id = StepId::from_path(parent);
                let mut hops = Vec::new();
                let Some(i) = find(&self.program.body, &parent_id, &mut hops) else {
                    continue;
                };
                let Some(step) = step_at(&self.program.body, &hops, i) else {
                    continue;
                };
                step.node
                    .blocks()
                    .into_iter()
                    .flat_map(|b| &b.steps)
                    .collect()
            };
            let named: Vec<String> = siblings.iter().filter_map(|s| shown_id(s)).collect();
            let owner = if parent.is_empty() {
                "the program".to_owned()
            } else {
                StepId::from_path(parent).to_string()
            };
            return if !named.is_empty() {
                let what = if parent.is_empty() {
                    "the top-level steps are".to_owned()
                } else {
                    format!("the child steps of {owner} are")
                };
                format!("{what} {}", list(&named))
            } else if siblings.is_empty() {
                if parent.is_empty() {
                    "the program has no steps".to_owned()
                } else {
                    format!("{owner} has no child steps")
                }
            } else {
                format!(
                    "the steps under {owner} come from this patch; \
                     entries name steps of the program as it was written"
                )
            };
        }
        "name a step the program has".to_owned()
    }
}

/// IDs for a hint: the first few, and how many in all when there are more.
fn list(ids: &[String]) -> String {
    const SHOWN: usize = 12;
    if ids.len() <= SHOWN {
        ids.join(", ")
    } else {
        format!("{}, ... ({} in all)", ids[..SHOWN].join(", "), ids.len())
    }
}

/// The ID of a step of the program as the patch's author knows it (not the
/// provisional IDs of steps the patch itself brought).
fn shown_id(step: &Step) -> Option<String> {
    step.id
        .as_ref()
        .filter(|id| !is_provisional(id))
        .map(StepId::to_string)
}

/// A copy of a step of the patch with provisional IDs on it and every step
/// below it, recording the IDs they were written with.
fn provisional(step: &Step, written: &mut Vec<Option<StepId>>) -> Step {
    let mut step = step.clone();
    mark(&mut step, written);
    step
}

/// Gives `step` and its children provisional IDs, and synthetic spans: they
/// come from the patch file, so no comment of the program's text belongs to
/// them.
fn mark(step: &mut Step, written: &mut Vec<Option<StepId>>) {
    written.push(step.id.take());
    step.span = Span::default();
    // Provisional numbers count from 1 so that `S0_n` is the form `from_path` writes.
    step.id = Some(StepId::from_path(&[0, written.len() as u32]));
    for block in step.node.blocks_mut() {
        for child in &mut block.steps {
            mark(child, written);
        }
    }
}

fn record_removed(block: &Block, number: usize, removed: &mut HashMap<StepId, usize>) {
    for step in &block.steps {
        if let Some(id) = step.id.as_ref().filter(|id| !is_provisional(id)) {
            removed.insert(id.clone(), number);
        }
        for b in step.node.blocks() {
            record_removed(b, number, removed);
        }
    }
}

/// Finds the step with ID `id` under `block`: returns its index in its block
/// and fills `hops` with the way to that block, one (step index, block index
/// within that step) per level.
fn find(block: &Block, id: &StepId, hops: &mut Vec<(usize, usize)>) -> Option<usize> {
    for (i, step) in block.steps.iter().enumerate() {
        if step.id.as_ref() == Some(id) {
            return Some(i);
        }
        for (b, inner) in step.node.blocks().into_iter().enumerate() {
            hops.push((i, b));
            if let Some(found) = find(inner, id, hops) {
                return Some(found);
            }
            hops.pop();
        }
    }
    None
}

fn block_at<'a>(root: &'a mut Block, hops: &[(usize, usize)]) -> Option<&'a mut Block> {
    let mut block = root;
    for &(step, b) in hops {
        block = block
            .steps
            .get_mut(step)?
            .node
            .blocks_mut()
            .into_iter()
            .nth(b)?;
    }
    Some(block)
}

fn step_at<'a>(root: &'a Block, hops: &[(usize, usize)], index: usize) -> Option<&'a Step> {
    let mut block = root;
    for &(step, b) in hops {
        block = block.steps.get(step)?.node.blocks().into_iter().nth(b)?;
    }
    block.steps.get(index)
}
