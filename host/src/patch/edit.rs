//! The tree surgery of a patch: REPLACE, INSERT_AFTER, INSERT_BEFORE,
//! INSERT_INTO and DELETE on the steps and declarations of a program, entry
//! after entry, before anything is renumbered.
//!
//! Targets name steps by the IDs of the program the patch was written
//! against, so while the entries apply, every step of that program keeps its
//! ID (a REPLACE's new step takes its target's) and the steps the patch brings
//! get *provisional* IDs `S0_1, S0_2, ...`: ill-formed on purpose, so that no
//! target can name them and no program ID can clash with them. Renumbering
//! afterwards tells the old → new map of the program's steps apart from the
//! IDs the patch's steps end up with.

use crate::diag::{Code, Diagnostic};
use crate::syntax::{Kw, PatchEntry, PatchItems, PatchOp, PatchTarget};
use isu_plugin_api::{Block, Decl, Node, Program, Span, StateVar, Step, StepId, StructDef};
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
    /// The same for declarations, by section and name.
    removed_declarations: HashMap<(Kw, String), usize>,
    pub diags: Vec<Diagnostic>,
}

/// What applying an entry gave: nothing, or why it cannot apply.
type Applied = Result<(), Box<Diagnostic>>;

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
            removed_declarations: HashMap::new(),
            diags: Vec::new(),
        }
    }

    /// Applies the entry numbered `number` (from 1), or records why it cannot.
    pub fn apply(&mut self, number: usize, entry: &PatchEntry) {
        let done = match &entry.target {
            PatchTarget::Step(id) => self.on_step(number, entry, id),
            PatchTarget::Block(id, field) => self.insert_into(number, entry, Some((id, *field))),
            PatchTarget::Root => self.insert_into(number, entry, None),
            PatchTarget::Declaration(section, name) => {
                self.on_declaration(number, entry, *section, Some(name))
            }
            PatchTarget::Section(section) => self.on_declaration(number, entry, *section, None),
        };
        if let Err(d) = done {
            self.diags.push(*d);
        }
    }

    /// The steps an entry brings, with provisional IDs.
    fn brought(&mut self, entry: &PatchEntry) -> Vec<Step> {
        match &entry.items {
            PatchItems::Steps(steps) => steps
                .iter()
                .map(|s| provisional(s, &mut self.written))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// REPLACE, INSERT_AFTER, INSERT_BEFORE or DELETE of step `target`.
    fn on_step(&mut self, number: usize, entry: &PatchEntry, target: &StepId) -> Applied {
        let mut hops = Vec::new();
        let Some(index) = find(&self.program.body, target, &mut hops) else {
            return Err(self.unknown(number, entry, target).into());
        };
        let mut new = self.brought(entry);
        let Some(block) = block_at(&mut self.program.body, &hops) else {
            return Ok(()); // `find` just walked this path: unreachable.
        };
        match entry.op {
            PatchOp::Replace => {
                let (Some(mut step), Some(slot)) = (new.pop(), block.steps.get_mut(index)) else {
                    return Ok(());
                };
                step.id = Some(target.clone());
                // The comments before the replaced step's header stay with it.
                step.span = slot.span;
                self.replaced_at.push(slot.span.lo);
                let written = match &entry.items {
                    PatchItems::Steps(steps) => steps.first().and_then(|s| s.id.clone()),
                    _ => None,
                };
                self.replaced.push((target.clone(), written));
                let old = std::mem::replace(slot, step);
                for block in old.node.blocks() {
                    record_removed(block, number, &mut self.removed);
                }
            }
            PatchOp::InsertAfter => {
                block.steps.splice(index + 1..index + 1, new);
            }
            PatchOp::InsertBefore | PatchOp::InsertInto => {
                block.steps.splice(index..index, new);
            }
            PatchOp::Delete => {
                if index < block.steps.len() {
                    let old = block.steps.remove(index);
                    let gone = Block {
                        steps: vec![old],
                        span: Span::default(),
                    };
                    record_removed(&gone, number, &mut self.removed);
                }
            }
        }
        Ok(())
    }

    /// INSERT_INTO a block of a step (`owner`: its ID and the field written
    /// after it), or of the root (`None`): the steps go first in it.
    fn insert_into(
        &mut self,
        number: usize,
        entry: &PatchEntry,
        owner: Option<(&StepId, Option<Kw>)>,
    ) -> Applied {
        let new = self.brought(entry);
        let block = match owner {
            None => &mut self.program.body,
            Some((id, field)) => {
                let mut hops = Vec::new();
                let Some(index) = find(&self.program.body, id, &mut hops) else {
                    return Err(self.unknown(number, entry, id).into());
                };
                let Some(step) =
                    block_at(&mut self.program.body, &hops).and_then(|b| b.steps.get_mut(index))
                else {
                    return Ok(()); // `find` just walked this path: unreachable.
                };
                let kind = step.node.keyword();
                let fields: &[Kw] = match &step.node {
                    Node::Seq { .. } => &[],
                    Node::If { .. } => &[Kw::Then, Kw::Else],
                    Node::Loop { .. } => &[Kw::Body],
                    _ => {
                        return Err(wrong_block(
                            entry,
                            id,
                            format!("{id} is {}, which holds no steps", article(kind)),
                            "insert next to it with INSERT_AFTER or INSERT_BEFORE".to_owned(),
                        ))
                    }
                };
                let at = match field {
                    // A SEQ's block, a LOOP's body: the one block.
                    None if fields.len() < 2 => 0,
                    Some(f) if fields.contains(&f) => {
                        fields.iter().position(|&k| k == f).unwrap_or(0)
                    }
                    _ => {
                        let how: Vec<String> = if fields.is_empty() {
                            vec![format!("INSERT_INTO {id}:")]
                        } else {
                            fields
                                .iter()
                                .map(|f| format!("INSERT_INTO {id} {}:", f.as_str()))
                                .collect()
                        };
                        return Err(wrong_block(
                            entry,
                            id,
                            match field {
                                None => format!("{id} is an IF: name the block, THEN or ELSE"),
                                Some(f) => format!(
                                    "{id} is {}, which has no {} block",
                                    article(kind),
                                    f.as_str()
                                ),
                            },
                            format!("write {}", how.join(" or ")),
                        ));
                    }
                };
                let Some(block) = step.node.blocks_mut().into_iter().nth(at) else {
                    return Ok(());
                };
                block
            }
        };
        block.steps.splice(0..0, new);
        Ok(())
    }

    /// An entry on STATE, LOCAL or TYPES: the entry `name` (or, for
    /// INSERT_INTO, the section's start).
    fn on_declaration(
        &mut self,
        number: usize,
        entry: &PatchEntry,
        section: Kw,
        name: Option<&String>,
    ) -> Applied {
        let p = &mut self.program;
        let found = match &entry.items {
            PatchItems::State(items) => {
                edit_list(&mut p.state, items, entry.op, name, |v| &v.name.name)
            }
            PatchItems::Local(items) => {
                edit_list(&mut p.locals, items, entry.op, name, |v| &v.name.name)
            }
            PatchItems::Types(items) => {
                edit_list(&mut p.types, items, entry.op, name, |v| &v.name.name)
            }
            PatchItems::None | PatchItems::Steps(_) => match section {
                Kw::State => edit_list(&mut p.state, &[], entry.op, name, |v| &v.name.name),
                Kw::Local => edit_list(&mut p.locals, &[], entry.op, name, |v| &v.name.name),
                _ => edit_list(&mut p.types, &[], entry.op, name, |v| &v.name.name),
            },
        };
        let Some(name) = name else {
            return Ok(());
        };
        if found {
            if matches!(entry.op, PatchOp::Replace | PatchOp::Delete) {
                self.removed_declarations
                    .insert((section, name.clone()), number);
            }
            return Ok(());
        }
        let names = self.declared(section);
        let message = match self.removed_declarations.get(&(section, name.clone())) {
            Some(by) => format!(
                "{} (entry {number}): {} {name} is no longer in the program; entry {by} of this patch replaced or removed it",
                entry.head(),
                section.as_str()
            ),
            None => format!(
                "{} (entry {number}): the program's {} has no entry {name}",
                entry.head(),
                section.as_str()
            ),
        };
        let hint = if names.is_empty() {
            format!(
                "{} is empty: add entries with INSERT_INTO {}:",
                section.as_str(),
                section.as_str()
            )
        } else {
            format!("the {} entries are {}", section.as_str(), list(&names))
        };
        Err(Diagnostic::error(Code::UnknownDeclaration, message)
            .at(entry.span())
            .with_actual(name.as_str())
            .with_hint(hint)
            .into())
    }

    /// The names a declaration section holds now.
    fn declared(&self, section: Kw) -> Vec<String> {
        let p = &self.program;
        match section {
            Kw::State => p.state.iter().map(|v| v.name.name.clone()).collect(),
            Kw::Local => p.locals.iter().map(|v| v.name.name.clone()).collect(),
            _ => p.types.iter().map(|v| v.name.name.clone()).collect(),
        }
    }

    /// The error for an entry whose step is not in the program (any more).
    fn unknown(&self, number: usize, entry: &PatchEntry, target: &StepId) -> Diagnostic {
        let head = entry.head();
        let message = match self.removed.get(target) {
            Some(by) => format!(
                "{head} (entry {number}): step {target} is no longer in the program; \
                 entry {by} of this patch removed it"
            ),
            None => {
                format!("{head} (entry {number}): the program has no step {target}")
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

/// Applies `op` to the entry `name` of a declaration list (`None`: the
/// list's start, for INSERT_INTO), with `items` as the new entries; whether
/// the entry was there. The new entries come from the patch file, so no
/// comment of the program's text belongs to them.
fn edit_list<T: Clone + Spanned>(
    list: &mut Vec<T>,
    items: &[T],
    op: PatchOp,
    name: Option<&String>,
    name_of: fn(&T) -> &String,
) -> bool {
    let new: Vec<T> = items
        .iter()
        .map(|i| {
            let mut i = i.clone();
            i.clear_span();
            i
        })
        .collect();
    let Some(name) = name else {
        list.splice(0..0, new);
        return true;
    };
    let Some(at) = list.iter().position(|v| name_of(v) == name) else {
        return false;
    };
    match op {
        PatchOp::Replace => {
            list.splice(at..=at, new);
        }
        PatchOp::InsertAfter => {
            list.splice(at + 1..at + 1, new);
        }
        PatchOp::InsertBefore | PatchOp::InsertInto => {
            list.splice(at..at, new);
        }
        PatchOp::Delete => {
            list.remove(at);
        }
    }
    true
}

/// A declaration whose span can be cleared.
trait Spanned {
    fn clear_span(&mut self);
}

impl Spanned for StateVar {
    fn clear_span(&mut self) {
        self.span = Span::default();
    }
}

impl Spanned for Decl {
    fn clear_span(&mut self) {
        self.span = Span::default();
    }
}

impl Spanned for StructDef {
    fn clear_span(&mut self) {
        self.span = Span::default();
    }
}

/// The error of an INSERT_INTO whose step has no such block.
fn wrong_block(entry: &PatchEntry, id: &StepId, message: String, hint: String) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error(Code::InvalidPatch, format!("{}: {message}", entry.head()))
            .at(entry.span())
            .in_step(Some(id))
            .with_hint(hint),
    )
}

/// `an IF`, `a LOOP`.
fn article(kind: &str) -> String {
    let an = matches!(
        kind.as_bytes().first(),
        Some(b'A' | b'E' | b'I' | b'O' | b'U')
    );
    format!("{} {kind}", if an { "an" } else { "a" })
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
