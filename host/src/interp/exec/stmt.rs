//! Statements: each step's effect, the loops and their fuel, and the
//! tracer's events.

use super::fault::{fault, located, unexpected, Fault, R};
use super::place::place_mut;
use super::{memory, work, Flow, Machine};
use crate::interp::builtins;
use crate::interp::compile::{ElemStore, Slot, St, StepIx};
use crate::interp::value::Value;
use isu_lang::RuntimeCode;
use isu_plugin_api::Span;

impl Machine<'_, '_> {
    pub(super) fn exec_block(&mut self, body: &[St]) -> R<Flow> {
        for st in body {
            let flow = self.exec(st)?;
            if flow != Flow::Next {
                return Ok(flow);
            }
        }
        Ok(Flow::Next)
    }

    pub(super) fn exec(&mut self, st: &St) -> R<Flow> {
        self.exec_step(st).map_err(|mut f| {
            if f.step.is_none() {
                f.step = Some(step_of(st));
            }
            f
        })
    }

    /// Spends one unit of fuel for a round of the loop `step`.
    #[inline(always)]
    pub(super) fn spend(&mut self, step: StepIx) -> R<()> {
        let fuel = self.fuel.get();
        if fuel == 0 {
            return Err(self.out_of_fuel(step));
        }
        self.fuel.set(fuel - 1);
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn out_of_fuel(&self, step: StepIx) -> Box<Fault> {
        let span = self.c.steps[step as usize].span;
        let mut f = fault(
            RuntimeCode::StepLimit,
            span,
            format!(
                "the run used up its budget of {} units (loop rounds and work)",
                self.budget.max_steps
            ),
        );
        f.step = Some(step);
        f.hint = Some("a loop that never ends? If not, raise the limit (--max-steps)".into());
        f
    }

    pub(super) fn exec_step(&mut self, st: &St) -> R<Flow> {
        match st {
            St::Seq { step, body } => {
                if let Some(t) = &mut self.tracer {
                    t.seq(&self.c.steps[*step as usize].id);
                }
                self.exec_block(body)
            }
            St::Set { .. } => self.exec_set(st),
            St::SetInt { step, slot, expr } => {
                let v = self.eval_int(expr)?;
                set_int(&mut self.slots, *slot, v);
                if let Some(t) = &mut self.tracer {
                    let c = self.c;
                    t.assign(
                        &c.steps[*step as usize].id,
                        &c.vars[*slot as usize].name,
                        &[],
                        &Value::Int(v),
                    );
                }
                Ok(Flow::Next)
            }
            St::SetElem { step, store } => self.exec_set_elem(*step, store),
            St::SetScalar { step, store } => {
                self.set_scalar(*step, store)?;
                Ok(Flow::Next)
            }
            St::SetIndex { .. } => self.exec_set_index(st),
            St::Update { .. } => self.exec_update(st),
            St::If {
                step,
                cond,
                then_block,
                else_block,
            } => {
                let c = self.eval_bool(cond)?;
                if let Some(t) = &mut self.tracer {
                    t.branch(&self.c.steps[*step as usize].id, c);
                }
                self.exec_block(if c { then_block } else { else_block })
            }
            St::Range { .. } => self.exec_range(st),
            St::Each { .. } => self.exec_each(st),
            St::While { .. } => self.exec_while(st),
            St::Return { .. } => self.exec_return(st),
            St::Break { .. } => Ok(Flow::Break),
            St::Continue { .. } => Ok(Flow::Continue),
        }
    }

    /// `TARGET: x` of any type, out of line: the hot statements keep
    /// [`Machine::exec_step`] small.
    #[inline(never)]
    fn exec_set(&mut self, st: &St) -> R<Flow> {
        let St::Set { step, slot, expr } = st else {
            return Err(other_kind());
        };
        let v = self.eval(expr)?;
        if self.memory.may_change(*slot, &v) {
            let span = self.c.steps[*step as usize].span;
            self.memory.hold(*slot, &v, span)?;
        }
        let s = *slot as usize;
        self.slots[s] = v;
        if let Some(t) = &mut self.tracer {
            let c = self.c;
            t.assign(
                &c.steps[*step as usize].id,
                &c.vars[s].name,
                &[],
                &self.slots[s],
            );
        }
        Ok(Flow::Next)
    }

    #[inline(never)]
    fn exec_set_elem(&mut self, step: StepIx, store: &ElemStore) -> R<Flow> {
        self.set_elem(step, store)?;
        Ok(Flow::Next)
    }

    #[inline(never)]
    fn exec_return(&mut self, st: &St) -> R<Flow> {
        let St::Return { step, expr } = st else {
            return Err(other_kind());
        };
        let v = self.eval(expr)?;
        if let Some(t) = &mut self.tracer {
            t.ret(&self.c.steps[*step as usize].id, &v);
        }
        self.ret = v;
        self.ret_step = Some(*step);
        Ok(Flow::Return)
    }

    #[inline(never)]
    pub(super) fn exec_set_index(&mut self, st: &St) -> R<Flow> {
        let St::SetIndex {
            step,
            slot,
            target_span,
            path,
            expr,
        } = st
        else {
            return Err(other_kind());
        };
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        let r = self.set_index(*step, *slot, *target_span, path, expr, &mut keys);
        self.keys = keys;
        r.map(|()| Flow::Next)
    }

    #[inline(never)]
    pub(super) fn exec_update(&mut self, st: &St) -> R<Flow> {
        let St::Update {
            step,
            slot,
            target_span,
            path,
            op,
            rest,
            call_span,
            arg_span,
        } = st
        else {
            return Err(other_kind());
        };
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        let r = self.check_path(*slot, *target_span, path, Some(*arg_span), &mut keys);
        let r = r.and_then(|()| {
            let mut args = [Value::Unset, Value::Unset];
            for (a, e) in args.iter_mut().zip(rest.iter()) {
                *a = self.eval(e)?;
            }
            let max = self.budget.max_size;
            let place = place_mut(&mut self.slots, *slot, &keys, *target_span)?;
            let n = rest.len().min(2);
            let rest = &args[..n];
            builtins::check_update(*op, place, rest, max).map_err(|f| located(f, *call_span))?;
            let passed = [&Value::Unset, &args[0], &args[1]];
            let left = self.fuel.get();
            let units = work::call_units(op.builtin(), &passed[..=n], None, true, left);
            work::spend(&self.fuel, self.budget.max_steps, units, *call_span)?;
            let (old, new) = memory::update_sizes(*op, place, rest);
            self.memory.replace(*slot, old, new, *target_span)?;
            builtins::apply_update(*op, place, rest);
            if let Some(t) = &mut self.tracer {
                let c = self.c;
                t.assign(
                    &c.steps[*step as usize].id,
                    &c.vars[*slot as usize].name,
                    &keys,
                    place,
                );
            }
            Ok(())
        });
        self.keys = keys;
        r.map(|()| Flow::Next)
    }

    #[inline(never)]
    pub(super) fn exec_range(&mut self, st: &St) -> R<Flow> {
        let St::Range {
            step,
            var,
            start,
            end,
            by,
            by_span,
            body,
        } = st
        else {
            return Err(other_kind());
        };
        let start = self.eval_int(start)?;
        let end = self.eval_int(end)?;
        let by = match by {
            Some(e) => self.eval_int(e)?,
            None => 1,
        };
        if by == 0 {
            return Err(fault(
                RuntimeCode::ZeroStep,
                *by_span,
                "a range with the step 0",
            ));
        }
        let mut i = start;
        let mut rounds = 0;
        while if by > 0 { i < end } else { i > end } {
            self.spend(*step)?;
            rounds += 1;
            set_int(&mut self.slots, *var, i);
            if let Some(t) = &mut self.tracer {
                let c = self.c;
                let name = &c.vars[*var as usize].name;
                t.round(
                    &c.steps[*step as usize].id,
                    rounds,
                    Some((name, &Value::Int(i))),
                );
            }
            match self.exec_block(body)? {
                Flow::Return => return Ok(Flow::Return),
                Flow::Break => break,
                Flow::Next | Flow::Continue => {}
            }
            match i.checked_add(by) {
                Some(next) => i = next,
                None => break,
            }
        }
        if let Some(t) = &mut self.tracer {
            t.exit(&self.c.steps[*step as usize].id, rounds);
        }
        Ok(Flow::Next)
    }

    #[inline(never)]
    pub(super) fn exec_each(&mut self, st: &St) -> R<Flow> {
        let St::Each {
            step,
            var,
            seq,
            body,
        } = st
        else {
            return Err(other_kind());
        };
        let xs = match self.eval(seq)? {
            Value::Array(xs) => xs,
            v => {
                return unexpected(
                    "the sequence of an each",
                    &v,
                    self.c.steps[*step as usize].span,
                )
            }
        };
        let mut rounds = 0;
        for x in xs.iter() {
            self.spend(*step)?;
            if self.memory.may_change(*var, &x) {
                let span = self.c.steps[*step as usize].span;
                self.memory.hold(*var, &x, span)?;
            }
            rounds += 1;
            if let Some(t) = &mut self.tracer {
                let c = self.c;
                t.round(
                    &c.steps[*step as usize].id,
                    rounds,
                    Some((&c.vars[*var as usize].name, &x)),
                );
            }
            if let Some(cell) = self.slots.get_mut(*var as usize) {
                store(cell, x);
            }
            match self.exec_block(body)? {
                Flow::Return => return Ok(Flow::Return),
                Flow::Break => break,
                Flow::Next | Flow::Continue => {}
            }
        }
        if let Some(t) = &mut self.tracer {
            t.exit(&self.c.steps[*step as usize].id, rounds);
        }
        Ok(Flow::Next)
    }

    #[inline(never)]
    pub(super) fn exec_while(&mut self, st: &St) -> R<Flow> {
        let St::While { step, cond, body } = st else {
            return Err(other_kind());
        };
        let mut rounds = 0;
        while self.eval_bool(cond)? {
            self.spend(*step)?;
            rounds += 1;
            if let Some(t) = &mut self.tracer {
                t.round(&self.c.steps[*step as usize].id, rounds, None);
            }
            match self.exec_block(body)? {
                Flow::Return => return Ok(Flow::Return),
                Flow::Break => break,
                Flow::Next | Flow::Continue => {}
            }
        }
        if let Some(t) = &mut self.tracer {
            t.exit(&self.c.steps[*step as usize].id, rounds);
        }
        Ok(Flow::Next)
    }
}

/// The fault of a statement handler given a statement of another kind.
#[cold]
fn other_kind() -> Box<super::fault::Fault> {
    fault(
        RuntimeCode::InternalError,
        Span::default(),
        "a statement of another kind",
    )
}

pub(super) fn step_of(st: &St) -> StepIx {
    match st {
        St::Seq { step, .. }
        | St::Set { step, .. }
        | St::SetInt { step, .. }
        | St::SetElem { step, .. }
        | St::SetScalar { step, .. }
        | St::SetIndex { step, .. }
        | St::Update { step, .. }
        | St::If { step, .. }
        | St::Range { step, .. }
        | St::Each { step, .. }
        | St::While { step, .. }
        | St::Return { step, .. }
        | St::Break { step }
        | St::Continue { step } => *step,
    }
}

/// Stores `v` in `cell`, writing scalars over scalars in place.
#[inline(always)]
pub(super) fn store(cell: &mut Value, v: Value) {
    match (cell, v) {
        (Value::Int(old), Value::Int(new)) => *old = new,
        (Value::Bool(old), Value::Bool(new)) => *old = new,
        (cell, v) => *cell = v,
    }
}

/// Makes the variable in `slot` the int `v`.
#[inline(always)]
pub(super) fn set_int(slots: &mut [Value], slot: Slot, v: i64) {
    if let Some(cell) = slots.get_mut(slot as usize) {
        if let Value::Int(old) = cell {
            *old = v;
        } else {
            *cell = Value::Int(v);
        }
    }
}
