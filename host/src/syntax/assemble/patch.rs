//! Patch files: each entry's target and items checked against what its
//! operation takes (REPLACE one step or entry, the inserts at least one,
//! DELETE none), the steps and declarations built as in a program.

use super::super::cst::{self, PatchItems as RawItems, PatchTarget as RawTarget};
use super::super::token::Kw;
use super::super::vocab::{type_meant, MAP_TYPE};
use super::super::{PatchEntry, PatchFile, PatchItems, PatchOp, PatchTarget};
use super::Assembler;
use crate::diag::{Code, Diagnostic};
use isu_plugin_api::{Span, StepId};

/// The names a patch's declarations use as types that are not Isu's own:
/// struct names, of the patch's TYPES entries or of the program's, which the
/// validator checks once the patch has applied.
pub(super) fn struct_names(patch: &cst::Patch) -> Vec<String> {
    fn walk(t: &cst::Type, out: &mut Vec<String>) {
        match t {
            cst::Type::Name(n) => {
                let builtin = matches!(n.text.as_str(), "int" | "bool" | "string");
                if !builtin && type_meant(&n.text).is_none() && !out.contains(&n.text) {
                    out.push(n.text.clone());
                }
            }
            cst::Type::Array(t) => walk(t, out),
            cst::Type::Generic(n, args, _) if n.text == MAP_TYPE => {
                args.iter().for_each(|a| walk(a, out));
            }
            cst::Type::Generic(..) | cst::Type::Subscript(..) => {}
        }
    }
    let mut out = Vec::new();
    for e in &patch.entries {
        match &e.items {
            RawItems::State(items) => items.iter().for_each(|i| walk(&i.ty, &mut out)),
            RawItems::Local(decls) => decls.iter().for_each(|d| walk(&d.ty, &mut out)),
            RawItems::Types(items) => {
                for i in items {
                    if !out.contains(&i.name.text) {
                        out.push(i.name.text.clone());
                    }
                    i.fields.iter().for_each(|d| walk(&d.ty, &mut out));
                }
            }
            RawItems::None | RawItems::Steps(_) => {}
        }
    }
    out
}

fn op_of(kw: Kw) -> PatchOp {
    match kw {
        Kw::Replace => PatchOp::Replace,
        Kw::InsertAfter => PatchOp::InsertAfter,
        Kw::InsertBefore => PatchOp::InsertBefore,
        Kw::InsertInto => PatchOp::InsertInto,
        _ => PatchOp::Delete,
    }
}

impl Assembler<'_, '_> {
    pub(super) fn patch(&mut self, patch: cst::Patch, recovered: bool) -> Option<PatchFile> {
        let mut entries = Vec::new();
        let mut ok = true;
        for e in patch.entries {
            match self.patch_entry(e, recovered) {
                Some(entry) => entries.push(entry),
                None => ok = false,
            }
        }
        ok.then_some(PatchFile { entries })
    }

    fn patch_entry(&mut self, e: cst::PatchEntry, recovered: bool) -> Option<PatchEntry> {
        let op = op_of(e.kw);
        let span = e.span;
        // The lexer reported a malformed step ID.
        let target = match e.target {
            RawTarget::Step(id, field) => {
                let id = StepId::parse(&id.text)?;
                match (op, field) {
                    (PatchOp::InsertInto, field) => PatchTarget::Block(id, field.map(|f| f.0)),
                    (_, None) => PatchTarget::Step(id),
                    (_, Some((kw, at))) => {
                        return self.refuse(
                            at,
                            format!(
                                "{} {id} {}: only INSERT_INTO names a block of a step",
                                op.keyword().as_str(),
                                kw.as_str()
                            ),
                            format!(
                                "write `{} {id}:`, or `INSERT_INTO {id} {}:` to put steps first in that block",
                                op.keyword().as_str(),
                                kw.as_str()
                            ),
                        );
                    }
                }
            }
            RawTarget::Root(at) => {
                if op != PatchOp::InsertInto {
                    return self.refuse(
                        at,
                        format!("{} STEPS: only INSERT_INTO names the root block", op.keyword().as_str()),
                        "write `INSERT_INTO STEPS:` to put steps first in the root block, or name a step by its ID".to_owned(),
                    );
                }
                PatchTarget::Root
            }
            RawTarget::Declaration(kw, at, name) => match (op, name) {
                (PatchOp::InsertInto, None) => PatchTarget::Section(kw),
                (PatchOp::InsertInto, Some(n)) => {
                    return self.refuse(
                        n.span,
                        format!("INSERT_INTO {} {}: INSERT_INTO names a section, not an entry", kw.as_str(), n.text),
                        format!(
                            "write `INSERT_INTO {}:` to put entries first, or `INSERT_AFTER {} {}:` to put them after {}",
                            kw.as_str(), kw.as_str(), n.text, n.text
                        ),
                    );
                }
                (_, Some(n)) => PatchTarget::Declaration(kw, n.text),
                (_, None) => {
                    return self.refuse(
                        at,
                        format!(
                            "{} {}: name the entry it edits",
                            op.keyword().as_str(),
                            kw.as_str()
                        ),
                        format!(
                            "write `{} {} NAME:`, or `INSERT_INTO {}:` to add entries",
                            op.keyword().as_str(),
                            kw.as_str(),
                            kw.as_str()
                        ),
                    );
                }
            },
        };
        let items = match e.items {
            RawItems::None => Some(PatchItems::None),
            RawItems::Steps(steps) => {
                let built: Vec<_> = steps.into_iter().map(|s| self.step(s)).collect();
                built
                    .into_iter()
                    .collect::<Option<Vec<_>>>()
                    .map(PatchItems::Steps)
            }
            RawItems::State(items) => {
                let built: Vec<_> = items.into_iter().map(|i| self.state_var(i)).collect();
                built
                    .into_iter()
                    .collect::<Option<Vec<_>>>()
                    .map(PatchItems::State)
            }
            RawItems::Local(decls) => self.decls(decls).map(PatchItems::Local),
            RawItems::Types(items) => self.struct_defs(items).map(PatchItems::Types),
        }?;
        let entry = PatchEntry {
            op,
            target,
            items,
            span,
        };
        if !recovered {
            self.check_count(&entry)?;
        }
        Some(entry)
    }

    /// REPLACE takes exactly one step or entry, the inserts at least one.
    fn check_count(&mut self, entry: &PatchEntry) -> Option<()> {
        let n = entry.items.len();
        let what = match entry.items {
            PatchItems::Steps(_) => "step",
            _ => "entry",
        };
        let head = entry.head();
        let (message, hint) = match entry.op {
            PatchOp::Replace if n != 1 => (
                format!("{head}: takes exactly one {what}, found {n}"),
                if n == 0 {
                    format!("write the new {what} after `{head}:`, or use DELETE to remove it")
                } else {
                    format!("to add more after it use INSERT_AFTER {}:", entry.target)
                },
            ),
            PatchOp::InsertAfter | PatchOp::InsertBefore | PatchOp::InsertInto if n == 0 => (
                format!("{head}: needs at least one {what} after it"),
                format!("write the {what}s to insert after `{head}:`"),
            ),
            _ => return Some(()),
        };
        self.refuse(entry.span, message, hint)
    }

    fn refuse<T>(&mut self, at: Span, message: String, hint: String) -> Option<T> {
        self.diags.push(
            Diagnostic::error(Code::InvalidPatch, message)
                .at(at)
                .with_hint(hint),
        );
        None
    }
}
