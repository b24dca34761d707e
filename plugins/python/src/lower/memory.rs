//! The memory limit (spec/semantics.md 7): the live size of the variables,
//! the sum of the sizes (as work counts them) of the values they hold, is
//! checked at every store that adds to it, as the last thing the step does.
//!
//! The generated function keeps what is left of the limit in its parameter
//! `_mem` (`MAX_MEMORY` less the sizes of the arguments, taken once on
//! entry), and changes it by what each store adds or takes away: a store of
//! a whole variable by the size of the new value less that of the old one,
//! an element store by the size of what it replaces (`_put`), a field store
//! likewise (the field's old size taken first, `_was`), an in-place
//! update by its delta (`PUSH` one plus the size pushed, `CONCAT` the size
//! appended, `MAP_SET` as an element store, `POP` less one and the size
//! removed). A store that adds and leaves `_mem` below 0 stops the run with
//! `memory_limit` (`_memory_limit("S1")`). A store that cannot add emits
//! nothing: ints and bools hold nothing, and nor does an int or bool
//! element of an array or field of a struct. A function none of whose stores can add gets no
//! `_mem` at all (the module's `_COUNTS_MEMORY` is false).
//!
//! The old size of a whole variable comes from a local of its own
//! (`_m_NAME`) that follows its size, kept only for a variable whose old
//! value may count: an argument stored over, a loop variable, or one stored
//! by more than one statement or by one inside a loop. Any other variable
//! holds nothing when its one store runs (a LOCAL or STATE variable runs
//! without a value until then, and an update of it fails before it).

use super::work::{constant_len, has_size, size_of};
use super::{Gen, R};
use crate::facts::Facts;
use crate::pytype;
use isu_plugin_api::analysis::Section;
use isu_plugin_api::update::{in_place, Update};
use isu_plugin_api::{Block, Expr, Iter, Node, Place, Program, Type};
use std::collections::BTreeMap;

/// What the generated function does about the memory limit.
#[derive(Debug, Default)]
pub struct Plan {
    /// Whether any store may add to the live size (then the function takes
    /// `_mem`).
    pub counts: bool,
    /// The variables whose size a local follows, and its Python name.
    locals: BTreeMap<String, String>,
}

/// How a store changes the live size: `text` (evaluated once, after the
/// store and the step's work).
#[derive(Debug, Clone)]
pub(super) enum Delta {
    /// It changes nothing.
    Nothing,
    /// It adds `text`, at least one.
    Adds(String),
    /// It changes it by `text`, which may be 0 or less.
    Changes(String),
    /// A store into the dict `map`, whose length was `_was` before it, of
    /// a value without a size: it adds `text` if the key was new.
    NewKey { map: String, text: String },
}

impl Plan {
    pub fn of(program: &Program, facts: &Facts) -> Plan {
        let mut sites: BTreeMap<String, (usize, bool)> = BTreeMap::new();
        let mut counts = false;
        for s in &program.state {
            if has_size(&s.init.ty.clone().unwrap_or(Type::Int)) {
                counts = true;
                site(&mut sites, &s.name.name, false);
            }
        }
        walk(&program.body, false, facts, &mut sites, &mut counts);
        let mut locals = BTreeMap::new();
        for (i, (name, (n, looped))) in sites.iter().enumerate() {
            let Some(var) = facts.var(name) else {
                continue;
            };
            if *n > 1 || *looped || var.section == Section::Args {
                // The generated code's own names start with `_` and never
                // end with one; a renamed variable's Python name does.
                let local = if var.py.ends_with('_') {
                    format!("_m{i}")
                } else {
                    format!("_m_{}", var.py)
                };
                locals.insert(name.clone(), local);
            }
        }
        Plan { counts, locals }
    }
}

fn site(sites: &mut BTreeMap<String, (usize, bool)>, name: &str, looped: bool) {
    let e = sites.entry(name.to_owned()).or_insert((0, false));
    e.0 += 1;
    e.1 |= looped;
}

/// Whether storing into an element of a container of type `parent` may
/// change the live size (an int or bool element of an array holds nothing).
pub(super) fn element_counts(parent: &Type) -> bool {
    match parent {
        Type::Array(e) => has_size(e),
        Type::Map(..) => true,
        _ => false,
    }
}

fn var_type(facts: &Facts, name: &str) -> Type {
    facts.var(name).map_or(Type::Int, |v| v.ty.clone())
}

/// The type of the value at a place: of the container an element target
/// stores into, or of a field.
fn place_type(facts: &Facts, p: &Place) -> Option<Type> {
    match p {
        Place::Var { name, .. } => Some(var_type(facts, name)),
        Place::Index { base, .. } => match place_type(facts, base)? {
            Type::Array(e) => Some(*e),
            Type::Map(_, v) => Some(*v),
            _ => None,
        },
        Place::Field { base, field, .. } => facts
            .field_type(&place_type(facts, base)?, &field.name)
            .cloned(),
    }
}

fn walk(
    b: &Block,
    looped: bool,
    facts: &Facts,
    sites: &mut BTreeMap<String, (usize, bool)>,
    counts: &mut bool,
) {
    for step in &b.steps {
        match &step.node {
            Node::Assign { target, expr } => match (in_place(target, expr), target) {
                (Some(u), _) => *counts |= u.op != Update::Pop,
                (None, Place::Var { name, .. }) => {
                    if has_size(&var_type(facts, name)) {
                        *counts = true;
                        site(sites, name, looped);
                    }
                }
                // A field of an int or a bool holds nothing.
                (None, Place::Field { .. }) => {
                    *counts |= place_type(facts, target).is_none_or(|t| has_size(&t));
                }
                (None, Place::Index { base, .. }) => {
                    *counts |= place_type(facts, base).is_none_or(|t| element_counts(&t));
                }
            },
            Node::Loop {
                iter: Iter::Each { var, .. },
                ..
            } if has_size(&var_type(facts, &var.name)) => {
                *counts = true;
                site(sites, &var.name, true);
            }
            _ => {}
        }
        let inner = looped || matches!(step.node, Node::Loop { .. });
        for block in step.node.blocks() {
            walk(block, inner, facts, sites, counts);
        }
    }
}

impl Gen {
    /// The function's parameter for the memory limit, if it counts.
    pub(super) fn memory_param(&self) -> Option<&'static str> {
        self.mem.counts.then_some("_mem: int = MAX_MEMORY")
    }

    /// On entry: the arguments count from the start, and the locals that
    /// follow sizes start at them (0 for a variable without a value).
    pub(super) fn memory_entry(&mut self, program: &Program) {
        if !self.mem.counts {
            return;
        }
        let mut sizes = Vec::new();
        for d in &program.func.args {
            if !has_size(&d.ty) {
                continue;
            }
            let py = crate::names::local(&d.name.name);
            match self.mem.locals.get(&d.name.name) {
                Some(local) => {
                    self.w.plain(format!("{local} = {}", size_of(&d.ty, &py)));
                    sizes.push(local.clone());
                }
                None => sizes.push(size_of(&d.ty, &py)),
            }
        }
        if !sizes.is_empty() {
            self.w.plain(format!("_mem -= {}", sizes.join(" + ")));
        }
        // A STATE variable's local starts at its initializer.
        let zeros: Vec<String> = self
            .mem
            .locals
            .iter()
            .filter(|(name, _)| {
                self.facts
                    .var(name)
                    .is_some_and(|v| v.section == Section::Local)
            })
            .map(|(_, local)| local.clone())
            .collect();
        if !zeros.is_empty() {
            self.w.plain(format!("{} = 0", zeros.join(" = ")));
        }
    }

    /// After a store of the whole variable `name` (its value now in the
    /// Python name `stored`) by `expr` (None: a loop variable taking an
    /// element); `first`: the variable surely held nothing (a STATE
    /// initializer).
    pub(super) fn hold_var(
        &mut self,
        name: &str,
        stored: &str,
        expr: Option<&Expr>,
        first: bool,
    ) -> R<()> {
        let Some(var) = self.facts.var(name) else {
            return Ok(());
        };
        if !self.mem.counts || !has_size(&var.ty) {
            return Ok(());
        }
        let t = var.ty.clone();
        let fixed = match expr {
            Some(e) => constant_len(e),
            None => None,
        };
        let size = match fixed {
            Some(n) => n.to_string(),
            None => size_of(&t, stored),
        };
        match self.mem.locals.get(name).cloned() {
            Some(local) if first => match fixed {
                Some(0) => self.w.plain(format!("{local} = 0")),
                Some(n) => {
                    self.w.plain(format!("{local} = {n}"));
                    self.w.plain(format!("_mem -= {n}"));
                    self.memory_limit_if("_mem < 0");
                }
                None => {
                    self.w.plain(format!("_mem -= ({local} := {size})"));
                    self.memory_limit_if(&format!("_mem < 0 and {local} > 0"));
                }
            },
            Some(local) if fixed == Some(0) => {
                self.w.plain(format!("_mem += {local}"));
                self.w.plain(format!("{local} = 0"));
            }
            Some(local) => {
                self.w.plain(format!("_mem -= (_g := {size} - {local})"));
                self.memory_limit_if("_mem < 0 and _g > 0");
                self.w.plain(format!("{local} += _g"));
            }
            None => match fixed {
                Some(0) => {}
                Some(n) => self.add_memory(name, Delta::Adds(n.to_string())),
                None => self.add_memory(name, Delta::Changes(size)),
            },
        }
        Ok(())
    }

    /// After a store into (a part of) the variable `root` that changes the
    /// live size by `d`: the check, then the counts.
    pub(super) fn add_memory(&mut self, root: &str, d: Delta) {
        if !self.mem.counts {
            return;
        }
        let local = self.mem.locals.get(root).cloned();
        let (text, positive) = match d {
            Delta::Nothing => return,
            Delta::NewKey { map, text } => {
                self.w.plain(format!("if len({map}) > _was:"));
                self.w.open();
                self.add_memory(root, Delta::Adds(text));
                self.w.close();
                return;
            }
            Delta::Adds(t) => (t, true),
            Delta::Changes(t) => (t, false),
        };
        let again = local.is_some() || !positive;
        let plain = text == "_g" || text.chars().all(|c| c.is_ascii_digit());
        let read = if again && !plain {
            self.w.plain(format!("_mem -= (_g := {text})"));
            "_g".to_owned()
        } else {
            self.w.plain(format!("_mem -= {text}"));
            text
        };
        if positive {
            self.memory_limit_if("_mem < 0");
        } else {
            self.memory_limit_if(&format!("_mem < 0 and {read} > 0"));
        }
        if let Some(local) = local {
            self.w.plain(format!("{local} += {read}"));
        }
    }

    /// After a store into the variable `root` that takes `text` away from
    /// the live size (a POP): it never fails.
    pub(super) fn remove_memory(&mut self, root: &str, text: &str) {
        if !self.mem.counts {
            return;
        }
        self.w.plain(format!("_mem += {text}"));
        if let Some(local) = self.mem.locals.get(root).cloned() {
            self.w.plain(format!("{local} -= {text}"));
        }
    }

    /// Whether the function counts memory at all.
    pub(super) fn counts_memory(&self) -> bool {
        self.mem.counts
    }

    /// `if COND: _memory_limit("S1")`, COND one that cannot fail.
    fn memory_limit_if(&mut self, cond: &str) {
        let call = match self.w.step() {
            Some(id) => format!("_memory_limit(\"{id}\")"),
            None => "_memory_limit()".to_owned(),
        };
        self.w.plain(format!("if {cond}:"));
        self.w.block(|w| w.plain(call));
    }

    /// `_put(P, K, V, KTY, VTY, _max_size, WHAT)` for a store of `v` at the
    /// key `k` of the container `p` of type `parent`: the store, the map's
    /// size check, and what it adds (in `_g`).
    pub(super) fn put_call(parent: &Type, p: &str, k: &str, v: &str, what: &str) -> String {
        let (kty, vty) = match parent {
            Type::Map(k, v) => (pytype::descriptor(k), pytype::descriptor(v)),
            Type::Array(e) => ("None".to_owned(), pytype::descriptor(e)),
            other => ("None".to_owned(), pytype::descriptor(other)),
        };
        format!(
            "_g = _put({p}, {k}, {v}, {kty}, {vty}, _max_size, {})",
            crate::text::py_str(what)
        )
    }
}
