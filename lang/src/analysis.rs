//! The analyses every executor shares, each a pass over a canonical program
//! that returns its facts keyed by step ID (or a function of one node, where
//! that is all there is to know):
//!
//! - [`vars`]: the variables each step reads and assigns;
//! - [`flow`]: whether a step completes (control passes to the next step) or
//!   always returns;
//! - [`assigned`]: the `LOCAL`s that may, or must, hold a value where each
//!   step starts;
//! - [`liveness`]: the variables live after each `ASSIGN`;
//! - [`alias`]: which variables a value may come from, which change in
//!   place, which an `each` loop holds;
//! - [`bounds`]: intervals of int values (and of the ints inside
//!   collections) where each step starts, from which executors drop the
//!   overflow and bounds checks that cannot fire;
//! - [`stable`]: the collections a loop never resizes or never shares, for
//!   the length and not-shared tests an executor can make once before it.
//!
//! The host's validator, the interpreter and the backends all read these;
//! none keeps a copy of its own.

pub mod alias;
pub mod assigned;
pub mod bounds;
pub mod flow;
pub mod interval;
pub mod liveness;
pub mod proof;
pub mod stable;
pub mod vars;

use crate::iir::Program;
use crate::types::Type;
use std::collections::BTreeMap;

/// Where a variable is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// `ARGS`.
    Args,
    /// `STATE`.
    State,
    /// `LOCAL`.
    Local,
}

/// The program's variables: each one's type and section.
#[derive(Debug, Clone, Default)]
pub struct Decls {
    vars: BTreeMap<String, (Type, Section)>,
}

impl Decls {
    /// The declarations of `program`.
    pub fn of(program: &Program) -> Decls {
        let args = program
            .func
            .args
            .iter()
            .map(|d| (&d.name, &d.ty, Section::Args));
        let state = program
            .state
            .iter()
            .map(|s| (&s.name, &s.ty, Section::State));
        let locals = program
            .locals
            .iter()
            .map(|d| (&d.name, &d.ty, Section::Local));
        let vars = args
            .chain(state)
            .chain(locals)
            .map(|(n, t, s)| (n.name.clone(), (t.clone(), s)))
            .collect();
        Decls { vars }
    }

    /// The type of a declared variable.
    pub fn ty(&self, name: &str) -> Option<&Type> {
        self.vars.get(name).map(|(t, _)| t)
    }

    /// Where a variable is declared.
    pub fn section(&self, name: &str) -> Option<Section> {
        self.vars.get(name).map(|(_, s)| *s)
    }

    /// Whether the variable is a `LOCAL` (the only variables that can be
    /// read before they have a value).
    pub fn is_local(&self, name: &str) -> bool {
        self.section(name) == Some(Section::Local)
    }

    /// Whether the variable holds an array, a map or a struct (a value
    /// with parts a TARGET can change in place).
    pub fn is_collection(&self, name: &str) -> bool {
        matches!(
            self.ty(name),
            Some(Type::Array(_) | Type::Map(..) | Type::Struct(_))
        )
    }

    /// Every variable, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Type, Section)> {
        self.vars.iter().map(|(n, (t, s))| (n.as_str(), t, *s))
    }
}
