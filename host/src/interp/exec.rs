//! The machine that runs a compiled program: one frame of slots, a fuel
//! counter, and a tree walk over the compiled statements.
//!
//! Expressions cannot change anything, so they are evaluated through `&self`
//! and may borrow values straight out of the slots ([`eval::Val::Ref`]); only
//! statements take `&mut self`. A failure is a [`Fault`] that learns its step
//! on the way out: the innermost step whose own fields failed names it.
//!
//! By concern: [`stmt`] runs statements (and spends the fuel), [`place`]
//! writes element targets ([`store`] ints and bools into compact arrays), [`eval`] evaluates values (borrowing where it
//! can), [`ints`], [`floats`] and [`bools`] the int, float and bool
//! expressions without boxing them, [`pack`] calls of pack functions, [`work`] spends what calls and copies cost, [`memory`] counts what
//! the variables hold, and [`fault`] builds the runtime errors.

mod bools;
mod eval;
mod fault;
mod floats;
mod ints;
mod memory;
mod pack;
mod place;
mod stmt;
mod store;
mod work;

use super::compile::{Compiled, Slot, StepIx};
use super::trace::Tracer;
use super::value::{self, Value};
use crate::diag::{Diagnostic, VarValue};
use fault::fault;
pub use fault::Fault;
use isu_lang::RuntimeCode;
use std::cell::Cell;

/// What a statement leaves behind: go on, or the function returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Next,
    Return,
    /// A `BREAK`: the innermost loop ends.
    Break,
    /// A `CONTINUE`: the innermost loop starts its next round.
    Continue,
}

/// The limits of one run.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub max_steps: u64,
    pub max_size: usize,
    pub max_memory: u64,
}

pub struct Machine<'c, 'w> {
    c: &'c Compiled,
    slots: Vec<Value>,
    /// Expressions spend work through `&self`, so the fuel is a cell.
    fuel: Cell<u64>,
    budget: Budget,
    /// The live size of the variables (`memory`).
    memory: memory::Memory,
    /// The value of the RETURN that ended the run.
    ret: Value,
    ret_step: Option<StepIx>,
    /// A reusable buffer for the keys of an element TARGET.
    keys: Vec<Value>,
    tracer: Option<Tracer<'w>>,
}

impl std::fmt::Debug for Machine<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine")
            .field("slots", &self.slots)
            .field("fuel", &self.fuel)
            .finish_non_exhaustive()
    }
}

impl<'c, 'w> Machine<'c, 'w> {
    /// A machine whose first slots hold the arguments, in ARGS order.
    pub fn new(
        c: &'c Compiled,
        args: Vec<Value>,
        budget: Budget,
        tracer: Option<Tracer<'w>>,
    ) -> Self {
        let memory = memory::Memory::of_args(&args, c.vars.len(), budget.max_memory);
        let mut slots = args;
        slots.resize(c.vars.len(), Value::Unset);
        Machine {
            c,
            slots,
            fuel: Cell::new(budget.max_steps),
            budget,
            memory,
            ret: Value::Unset,
            ret_step: None,
            keys: Vec::new(),
            tracer,
        }
    }

    /// The tracer, for the caller to finish after the run.
    pub fn take_tracer(&mut self) -> Option<Tracer<'w>> {
        self.tracer.take()
    }

    /// Initializes STATE, runs the steps, and returns the value of the RETURN
    /// that ended the run.
    pub fn run(&mut self) -> Result<Value, Box<Diagnostic>> {
        for (n, init) in self.c.state.iter().enumerate() {
            let held = self
                .eval(&init.init)
                .and_then(|v| self.memory.hold(init.slot, &v, init.span).map(|()| v));
            match held {
                Ok(v) => {
                    if let Some(t) = &mut self.tracer {
                        t.state(&self.c.vars[init.slot as usize].name, &v);
                    }
                    self.slots[init.slot as usize] = v;
                }
                Err(f) => return Err(self.state_diagnostic(n, *f)),
            }
        }
        let body = &self.c.body;
        match self.exec_block(body) {
            Ok(Flow::Return) => Ok(std::mem::replace(&mut self.ret, Value::Unset)),
            // A BREAK or CONTINUE outside a loop does not validate.
            Ok(Flow::Next | Flow::Break | Flow::Continue) => {
                let mut f = fault(
                    RuntimeCode::NoReturn,
                    self.c.body_span,
                    "the steps ended without a RETURN",
                );
                f.hint = Some("every path through STEPS must end in a RETURN".into());
                Err(self.diagnostic(*f))
            }
            Err(f) => Err(self.diagnostic(*f)),
        }
    }

    /// The step of the RETURN that ended the run.
    pub fn return_step(&self) -> Option<StepIx> {
        self.ret_step
    }

    /// The diagnostic of a fault in a step (or of no step), with the values of
    /// the variables that step reads.
    pub fn diagnostic(&mut self, f: Fault) -> Box<Diagnostic> {
        let step = f.step.and_then(|s| self.c.steps.get(s as usize));
        if let Some(t) = &mut self.tracer {
            t.error(f.code, step.map(|s| &s.id));
        }
        let reads = step.map_or(&[][..], |s| &s.reads[..]);
        let mut d = Diagnostic::error(f.code, f.message)
            .at(f.span)
            .in_step(step.map(|s| &s.id))
            .with_vars(self.var_values(reads));
        if let Some(h) = f.hint {
            d = d.with_hint(h);
        }
        Box::new(d)
    }

    fn state_diagnostic(&mut self, n: usize, f: Fault) -> Box<Diagnostic> {
        let init = &self.c.state[n];
        let name = &self.c.vars[init.slot as usize].name;
        if let Some(t) = &mut self.tracer {
            t.error(f.code, None);
        }
        let mut d = Diagnostic::error(
            f.code,
            format!("in the STATE initializer of `{name}`: {}", f.message),
        )
        .at(f.span)
        .with_label(init.span, format!("`{name}` is declared here"))
        .with_vars(self.var_values(&init.reads));
        if let Some(h) = f.hint {
            d = d.with_hint(h);
        }
        Box::new(d)
    }

    fn var_values(&self, slots: &[Slot]) -> Vec<VarValue> {
        slots
            .iter()
            .map(|&s| VarValue {
                name: self.c.vars[s as usize].name.clone(),
                value: value::shown_json(&self.slots[s as usize]),
            })
            .collect()
    }
}
