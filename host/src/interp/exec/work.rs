//! Work: what calls of standard functions and copying assignments spend
//! from the fuel besides loop rounds (`spec/semantics.md` 7, the table of
//! `isu_lang::work`).

use super::fault::{fault, Fault, R};
use super::Machine;
use crate::interp::value::Value;
use crate::stdlib::Builtin;
use isu_lang::work::{self, Measure};
use isu_lang::RuntimeCode;
use isu_plugin_api::Span;
use std::cell::Cell;

impl Machine<'_, '_> {
    /// Spends the work of a call of `b` that returned `result` (see
    /// [`call_units`]).
    #[inline]
    pub(super) fn spend_call(
        &self,
        b: Builtin,
        args: &[&Value],
        result: Option<&Value>,
        span: Span,
    ) -> R<()> {
        let units = call_units(b, args, result, false, self.fuel.get());
        self.spend_work(units, span)
    }

    /// Spends the work of a comparison of `x` and `y`
    /// (`work::COMPARISON`: the sizes of both).
    #[inline]
    pub(super) fn spend_comparison(&self, x: &Value, y: &Value, span: Span) -> R<()> {
        let left = self.fuel.get();
        let units = x.size_upto(left).saturating_add(y.size_upto(left));
        self.spend_work(units, span)
    }

    /// Spends the size of the key of a map level of an element TARGET, as
    /// a lookup by that key does (`work::place_spends`): a string's
    /// characters; an int key has no size and spends nothing.
    #[inline]
    pub(super) fn spend_key(&self, key: &Value, span: Span) -> R<()> {
        match key {
            Value::Int(_) => Ok(()),
            k => self.spend_work(k.size_upto(self.fuel.get()), span),
        }
    }

    /// Spends `units` of work at `span`: `step_limit` when fewer are left.
    #[inline]
    pub(super) fn spend_work(&self, units: u64, span: Span) -> R<()> {
        spend(&self.fuel, self.budget.max_steps, units, span)
    }
}

/// Spends `units` of `fuel` at `span` (a budget of `max` in all):
/// `step_limit` when fewer are left.
#[inline]
pub(super) fn spend(fuel: &Cell<u64>, max: u64, units: u64, span: Span) -> R<()> {
    let left = fuel.get();
    if units > left {
        return Err(out_of_work(units, left, max, span));
    }
    fuel.set(left - units);
    Ok(())
}

/// The units a call of `b` spends: `args` as passed (for an in-place update,
/// the place's value first), and its `result` when it returns one. Sizes are
/// walked no further than past `left`, the fuel left.
#[inline]
pub(super) fn call_units(
    b: Builtin,
    args: &[&Value],
    result: Option<&Value>,
    in_place: bool,
    left: u64,
) -> u64 {
    let w = work::of(b);
    if w.is_free() {
        return 0;
    }
    let size = |v: Option<&Value>| v.map_or(0, |v| v.size_upto(left));
    w.measures(in_place).fold(0u64, |sum, m| {
        let n = match m {
            Measure::Arg(i) => size(args.get(i).copied()),
            Measure::Result => size(result),
            Measure::Repeated => {
                let each = size(args.first().copied()).saturating_add(1);
                result.map_or(0, Value::length).saturating_mul(each)
            }
        };
        sum.saturating_add(n)
    })
}

#[cold]
#[inline(never)]
fn out_of_work(units: u64, left: u64, max: u64, span: Span) -> Box<Fault> {
    let mut f = fault(
        RuntimeCode::StepLimit,
        span,
        format!(
            "this needs {units} {} of work and {left} of the budget of {max} (loop rounds and work) {} left",
            if units == 1 { "unit" } else { "units" },
            if left == 1 { "is" } else { "are" },
        ),
    );
    f.hint = Some(
        "work on big strings and collections counts their size (spec/semantics.md 7); raise the limit (--max-steps) or touch less"
            .into(),
    );
    f
}
