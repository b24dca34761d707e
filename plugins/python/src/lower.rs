//! IIR to the Python text of one function: the generator's state and the
//! parts of it that expressions and statements share.
//!
//! Expressions (`lower/expr.rs`, standard functions in `lower/call.rs`) become
//! Python expressions that evaluate left to right as Isu does and raise
//! exactly where Isu fails; statements (`lower/stmt.rs`) become lines, each
//! tagged with its step for the error table; `lower/work.rs` charges the work
//! calls and copies spend from the fuel.

mod call;
mod expr;
mod float;
mod memory;
mod stmt;
mod work;

use crate::facts::Facts;
use crate::pytype::Copies;
use crate::writer::Writer;
use isu_plugin_api::analysis::bounds::Env;
use isu_plugin_api::{Expr, PluginDiagnostic, StepId, Type};
use std::collections::{BTreeMap, BTreeSet};

pub type R<T> = Result<T, PluginDiagnostic>;

/// A program the backend cannot trust: not canonical or not validated. Only
/// IIR built around the host's front end can cause it.
pub fn invalid(message: impl Into<String>) -> PluginDiagnostic {
    PluginDiagnostic::backend(isu_plugin_api::BackendCode::InvalidProgram, message).with_hint(
        "the Python backend compiles canonical, validated IIR: run `isu check` on the program first",
    )
}

/// The static type of an expression, which validation sets.
pub fn ty(e: &Expr) -> R<&Type> {
    e.ty.as_ref()
        .ok_or_else(|| invalid("an expression has no type: the program was not validated"))
}

#[derive(Debug)]
pub struct Gen {
    pub facts: Facts,
    pub copies: Copies,
    pub w: Writer,
    /// What is known about the values where the code being written runs
    /// (`isu_lang`'s bounds, where the step starts; more on the right of an
    /// `and`).
    env: Env,
    /// The step being written; `None` in STATE.
    step: Option<StepId>,
    /// The LOOPs being written, innermost last, each with whether its
    /// round starts with a COND that may fail: a CONTINUE goes back to the
    /// innermost one's round, under its step.
    loops: Vec<(String, bool)>,
    /// The `while` loops being written whose rounds a range iterator counts
    /// (lower/stmt.rs, `counted_while`), innermost last, each by its step
    /// (which names its `_it_S1`, `_f_S1` and `_r_S1`): `None` inside a
    /// loop of such a loop's body, whose fuel the loop around it already
    /// brings up to date.
    counters: Vec<Option<String>>,
    /// The variables of the `range` loops around the code being written
    /// whose rounds run in a copy that knows them small (`Interval::SMALL`).
    small: Vec<String>,
    /// The Python names of the pack functions the module defines.
    /// The pack functions defined, each with whether its definition takes
    /// the run's size limit (`max_size`) as its last parameter.
    packs: BTreeMap<String, bool>,
    /// Variables the statement being written may store without a copy: it
    /// reads them once, and they are dead after it.
    dead: BTreeSet<String>,
    /// The temporaries (`_a0`, `_a1`, ...) the statement being written has
    /// bound to arguments whose length its work reads again.
    temps: usize,
    /// What the function does about the memory limit (`lower/memory.rs`).
    pub mem: memory::Plan,
}

impl Gen {
    pub fn new(facts: Facts, w: Writer, packs: BTreeMap<String, bool>) -> Gen {
        Gen {
            facts,
            copies: Copies::default(),
            w,
            env: Env::default(),
            step: None,
            loops: Vec::new(),
            counters: Vec::new(),
            small: Vec::new(),
            packs,
            dead: BTreeSet::new(),
            temps: 0,
            mem: memory::Plan::default(),
        }
    }
}
