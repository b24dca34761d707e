//! Stores of ints and bools into arrays of ints and bools
//! (`ASSIGN (index x I)`, [`St::SetScalar`](crate::interp::compile::St)):
//! the element is computed unboxed and written straight into the compact
//! array, with the checks, their order and the trace of
//! [`Machine::set_elem`]: x, then I and its range, then EXPR, then the store.

use super::eval::in_range;
use super::fault::{fault, unexpected, R};
use super::Machine;
use crate::interp::compile::{ElemStore, Scalar, Slot, StepIx};
use crate::interp::value::{Elem, Items, Value};
use isu_lang::RuntimeCode;
use isu_plugin_api::Span;
use std::rc::Rc;

impl Machine<'_, '_> {
    #[inline(always)]
    pub(super) fn set_scalar(&mut self, step: StepIx, store: &ElemStore) -> R<()> {
        let ElemStore {
            slot,
            target_span,
            ref index,
            index_span,
            ref expr,
            kind,
        } = *store;
        let len = match self.read(slot, target_span)? {
            Value::Array(xs) => xs.len(),
            other => return unexpected("the base of an element target", other, target_span),
        };
        let i = in_range(self.eval_int(index)?, len, index_span)?;
        let v = match kind {
            Scalar::Int => Elem::Int(self.eval_int(expr)?),
            Scalar::Bool => Elem::Bool(self.eval_bool(expr)?),
            Scalar::Other => {
                return Err(fault(
                    RuntimeCode::InternalError,
                    target_span,
                    "a store of a scalar that is neither an int nor a bool",
                ))
            }
        };
        let stored = match self.slots.get_mut(slot as usize) {
            // Unique, the common case, without the call; copied first when
            // shared. Expressions change nothing, so the length holds.
            Some(Value::Array(xs)) => match Rc::get_mut(xs) {
                Some(items) => put(items, i, v),
                None => put(Rc::make_mut(xs), i, v),
            },
            _ => false,
        };
        self.stored_element(stored, step, slot, i, target_span)
    }

    /// After an element store at `i` into the array of `slot` (`stored`:
    /// whether the slot held an array): the internal error when it did not,
    /// else the trace event of the value now there.
    #[inline(always)]
    pub(super) fn stored_element(
        &mut self,
        stored: bool,
        step: StepIx,
        slot: Slot,
        i: usize,
        target_span: Span,
    ) -> R<()> {
        if !stored {
            return Err(fault(
                RuntimeCode::InternalError,
                target_span,
                "an element target moved",
            ));
        }
        if let Some(t) = &mut self.tracer {
            let c = self.c;
            let shown = match self.slots.get(slot as usize) {
                Some(Value::Array(xs)) => xs.get(i),
                _ => None,
            };
            t.assign(
                &c.steps[step as usize].id,
                &c.vars[slot as usize].name,
                &[Value::Int(i as i64)],
                &shown.unwrap_or(Value::Unset),
            );
        }
        Ok(())
    }
}

/// Writes the scalar `v` at `i` (in range), compact arrays without a
/// [`Value`].
#[inline(always)]
fn put(items: &mut Items, i: usize, v: Elem<'_>) -> bool {
    match (items, v) {
        (Items::Ints(xs), Elem::Int(x)) => xs.get_mut(i).map(|cell| *cell = x).is_some(),
        (Items::Bools(xs), Elem::Bool(b)) => xs.get_mut(i).map(|cell| *cell = b).is_some(),
        (items, v) => items.set(i, v.to_value()),
    }
}
