//! The machine that runs a compiled program: one frame of slots, a fuel
//! counter, and a tree walk over the compiled statements.
//!
//! Expressions cannot change anything, so they are evaluated through `&self`
//! and may borrow values straight out of the slots ([`Val::Ref`]); only
//! statements take `&mut self`. A failure is a [`Fault`] that learns its step
//! on the way out: the innermost step whose own fields failed names it.

use super::builtins::{self, Failure};
use super::compile::{
    Arith, Cmp, Compiled, ElemStore, Ex, PackCall, Scalar, Seg, Slot, St, StepIx,
};
use super::trace::Tracer;
use super::value::{self, Elem, Items, Value};
use crate::diag::{Diagnostic, VarValue};
use isu_lang::RuntimeCode;
use isu_plugin_api::Span;
use std::rc::Rc;

/// A runtime error on its way out of the machine.
#[derive(Debug)]
pub struct Fault {
    pub code: RuntimeCode,
    pub message: String,
    pub span: Span,
    /// The step it belongs to, once known.
    pub step: Option<StepIx>,
    pub hint: Option<String>,
}

pub type R<T> = Result<T, Box<Fault>>;

fn fault(code: RuntimeCode, span: Span, message: impl Into<String>) -> Box<Fault> {
    Box::new(Fault {
        code,
        message: message.into(),
        span,
        step: None,
        hint: None,
    })
}

fn located(f: Failure, span: Span) -> Box<Fault> {
    fault(f.code, span, f.message)
}

/// A value of the wrong kind where the validator guarantees another.
fn unexpected<T>(what: &str, v: &Value, span: Span) -> R<T> {
    Err(fault(
        RuntimeCode::InternalError,
        span,
        format!(
            "{what} is {} (the program was not validated)",
            v.kind_name()
        ),
    ))
}

/// What a statement leaves behind: go on, or the function returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Next,
    Return,
}

/// A value borrowed from the frame or a constant, or computed.
enum Val<'a> {
    Ref(&'a Value),
    Own(Value),
}

impl<'a> From<Elem<'a>> for Val<'a> {
    #[inline(always)]
    fn from(e: Elem<'a>) -> Val<'a> {
        match e {
            Elem::Ref(v) => Val::Ref(v),
            Elem::Int(i) => Val::Own(Value::Int(i)),
            Elem::Bool(b) => Val::Own(Value::Bool(b)),
        }
    }
}

impl Val<'_> {
    #[inline(always)]
    fn get(&self) -> &Value {
        match self {
            Val::Ref(v) => v,
            Val::Own(v) => v,
        }
    }

    fn into_owned(self) -> Value {
        match self {
            Val::Ref(v) => v.clone(),
            Val::Own(v) => v,
        }
    }
}

/// The limits of one run.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub max_steps: u64,
    pub max_size: usize,
}

pub struct Machine<'c, 'w> {
    c: &'c Compiled,
    slots: Vec<Value>,
    fuel: u64,
    budget: Budget,
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
        let mut slots = args;
        slots.resize(c.vars.len(), Value::Unset);
        Machine {
            c,
            slots,
            fuel: budget.max_steps,
            budget,
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
            match self.eval(&init.init) {
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
            Ok(Flow::Next) => {
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

    // ---- statements ----------------------------------------------------

    fn exec_block(&mut self, body: &[St]) -> R<Flow> {
        for st in body {
            if self.exec(st)? == Flow::Return {
                return Ok(Flow::Return);
            }
        }
        Ok(Flow::Next)
    }

    fn exec(&mut self, st: &St) -> R<Flow> {
        self.exec_step(st).map_err(|mut f| {
            if f.step.is_none() {
                f.step = Some(step_of(st));
            }
            f
        })
    }

    /// Spends one unit of fuel for a round of the loop `step`.
    #[inline(always)]
    fn spend(&mut self, step: StepIx) -> R<()> {
        if self.fuel == 0 {
            return Err(self.out_of_fuel(step));
        }
        self.fuel -= 1;
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
                "the run used up its budget of {} loop rounds",
                self.budget.max_steps
            ),
        );
        f.step = Some(step);
        f.hint = Some("a loop that never ends? If not, raise the limit (--max-steps)".into());
        f
    }

    fn exec_step(&mut self, st: &St) -> R<Flow> {
        match st {
            St::Seq { step, body } => {
                if let Some(t) = &mut self.tracer {
                    t.seq(&self.c.steps[*step as usize].id);
                }
                self.exec_block(body)
            }
            St::Set { step, slot, expr } => {
                let v = self.eval(expr)?;
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
            St::SetElem { step, store } => {
                self.set_elem(*step, store)?;
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
            St::Return { step, expr } => {
                let v = self.eval(expr)?;
                if let Some(t) = &mut self.tracer {
                    t.ret(&self.c.steps[*step as usize].id, &v);
                }
                self.ret = v;
                self.ret_step = Some(*step);
                Ok(Flow::Return)
            }
        }
    }

    #[inline(never)]
    fn exec_set_index(&mut self, st: &St) -> R<Flow> {
        let St::SetIndex {
            step,
            slot,
            target_span,
            path,
            expr,
        } = st
        else {
            return Err(fault(
                RuntimeCode::InternalError,
                Span::default(),
                "a statement of another kind",
            ));
        };
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        let r = self.set_index(*step, *slot, *target_span, path, expr, &mut keys);
        self.keys = keys;
        r.map(|()| Flow::Next)
    }

    #[inline(never)]
    fn exec_update(&mut self, st: &St) -> R<Flow> {
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
            return Err(fault(
                RuntimeCode::InternalError,
                Span::default(),
                "a statement of another kind",
            ));
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
            builtins::update(*op, place, &args[..n], max).map_err(|f| located(f, *call_span))?;
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
    fn exec_range(&mut self, st: &St) -> R<Flow> {
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
            return Err(fault(
                RuntimeCode::InternalError,
                Span::default(),
                "a statement of another kind",
            ));
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
            if self.exec_block(body)? == Flow::Return {
                return Ok(Flow::Return);
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
    fn exec_each(&mut self, st: &St) -> R<Flow> {
        let St::Each {
            step,
            var,
            seq,
            body,
        } = st
        else {
            return Err(fault(
                RuntimeCode::InternalError,
                Span::default(),
                "a statement of another kind",
            ));
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
            if self.exec_block(body)? == Flow::Return {
                return Ok(Flow::Return);
            }
        }
        if let Some(t) = &mut self.tracer {
            t.exit(&self.c.steps[*step as usize].id, rounds);
        }
        Ok(Flow::Next)
    }

    #[inline(never)]
    fn exec_while(&mut self, st: &St) -> R<Flow> {
        let St::While { step, cond, body } = st else {
            return Err(fault(
                RuntimeCode::InternalError,
                Span::default(),
                "a statement of another kind",
            ));
        };
        let mut rounds = 0;
        while self.eval_bool(cond)? {
            self.spend(*step)?;
            rounds += 1;
            if let Some(t) = &mut self.tracer {
                t.round(&self.c.steps[*step as usize].id, rounds, None);
            }
            if self.exec_block(body)? == Flow::Return {
                return Ok(Flow::Return);
            }
        }
        if let Some(t) = &mut self.tracer {
            t.exit(&self.c.steps[*step as usize].id, rounds);
        }
        Ok(Flow::Next)
    }

    /// `ASSIGN (index x I)`: x, then I and its check, then EXPR, then the
    /// store (as [`Machine::set_index`] with one level, without a key buffer).
    fn set_elem(&mut self, step: StepIx, store: &ElemStore) -> R<()> {
        let ElemStore {
            slot,
            target_span,
            ref index,
            index_span,
            ref expr,
            kind,
        } = *store;
        let len = match self.read(slot, target_span)? {
            Value::Array(xs) => Some(xs.len()),
            Value::Map(_) => None,
            other => return unexpected("the base of an element target", other, target_span),
        };
        let max = self.budget.max_size;
        let s = slot as usize;
        match len {
            Some(len) => {
                let i = self.eval_int(index)?;
                let i = in_range(i, len, index_span)?;
                let v = match kind {
                    Scalar::Int => Value::Int(self.eval_int(expr)?),
                    Scalar::Bool => Value::Bool(self.eval_bool(expr)?),
                    Scalar::Other => self.eval(expr)?,
                };
                let stored = match self.slots.get_mut(s) {
                    Some(Value::Array(xs)) => Rc::make_mut(xs).set(i, v),
                    _ => false,
                };
                if !stored {
                    return Err(fault(
                        RuntimeCode::InternalError,
                        target_span,
                        "an element target moved",
                    ));
                }
                if let Some(t) = &mut self.tracer {
                    let c = self.c;
                    let shown = match self.slots.get(s) {
                        Some(Value::Array(xs)) => xs.get(i),
                        _ => None,
                    };
                    t.assign(
                        &c.steps[step as usize].id,
                        &c.vars[s].name,
                        &[Value::Int(i as i64)],
                        &shown.unwrap_or(Value::Unset),
                    );
                }
            }
            None => {
                let k = self.eval(index)?;
                let key = builtins::key(&k).map_err(|f| located(f, index_span))?;
                let v = self.eval(expr)?;
                let Some(Value::Map(m)) = self.slots.get_mut(s) else {
                    return Err(fault(
                        RuntimeCode::InternalError,
                        target_span,
                        "an element target moved",
                    ));
                };
                if m.len() >= max && !m.contains_key(&key) {
                    return Err(located(
                        builtins::too_big("the map", m.len() + 1, max),
                        index_span,
                    ));
                }
                let m = Rc::make_mut(m);
                if let Some(t) = &mut self.tracer {
                    let c = self.c;
                    t.assign(
                        &c.steps[step as usize].id,
                        &c.vars[s].name,
                        std::slice::from_ref(&k),
                        &v,
                    );
                }
                m.insert(key, v);
            }
        }
        Ok(())
    }

    /// `ASSIGN (index ...)`: the TARGET's keys and checks, then EXPR, then
    /// the store.
    fn set_index(
        &mut self,
        step: StepIx,
        slot: Slot,
        target_span: Span,
        path: &[Seg],
        expr: &Ex,
        keys: &mut Vec<Value>,
    ) -> R<()> {
        self.check_path(slot, target_span, path, None, keys)?;
        let v = self.eval(expr)?;
        let max = self.budget.max_size;
        let (last, init) = match keys.split_last() {
            Some(x) => x,
            None => {
                return Err(fault(
                    RuntimeCode::InternalError,
                    target_span,
                    "an element target without an index",
                ))
            }
        };
        let parent = place_mut(&mut self.slots, slot, init, target_span)?;
        let tracing = self.tracer.is_some();
        let shown = match parent {
            Value::Array(xs) => {
                let i = index_of(last, target_span)?;
                let xs = Rc::make_mut(xs);
                if !xs.set(i, v) {
                    return Err(fault(
                        RuntimeCode::InternalError,
                        target_span,
                        "an element target moved",
                    ));
                }
                if tracing {
                    xs.get(i)
                } else {
                    None
                }
            }
            Value::Map(m) => {
                let last = builtins::key(last).map_err(|f| located(f, target_span))?;
                if !m.contains_key(&last) && m.len() >= max {
                    let span = path.last().map_or(target_span, |s| s.span);
                    return Err(located(
                        builtins::too_big("the map", m.len() + 1, max),
                        span,
                    ));
                }
                let shown = if tracing { Some(v.clone()) } else { None };
                Rc::make_mut(m).insert(last, v);
                shown
            }
            other => return unexpected("the base of an element target", other, target_span),
        };
        if let (Some(t), Some(shown)) = (&mut self.tracer, shown) {
            let c = self.c;
            t.assign(
                &c.steps[step as usize].id,
                &c.vars[slot as usize].name,
                keys,
                &shown,
            );
        }
        Ok(())
    }

    /// Evaluates the keys of an element TARGET from the variable outward and
    /// checks each level: an array index must be in range; a map key must be
    /// present, except at the last level of a plain store (`read` is `None`),
    /// which inserts. With `read` set, the last level is also read (by the
    /// first argument of an in-place call, whose span `read` is).
    fn check_path(
        &self,
        slot: Slot,
        target_span: Span,
        path: &[Seg],
        read: Option<Span>,
        keys: &mut Vec<Value>,
    ) -> R<()> {
        let root_span = if path.is_empty() {
            read.unwrap_or(target_span)
        } else {
            target_span
        };
        let mut cur = self.read(slot, root_span)?;
        for (n, seg) in path.iter().enumerate() {
            let k = self.eval(&seg.index)?;
            let last = n + 1 == path.len();
            cur = match cur {
                Value::Array(xs) => {
                    match builtins::array_get(xs, &k).map_err(|f| located(f, seg.span))? {
                        Elem::Ref(v) => v,
                        Elem::Int(_) | Elem::Bool(_) if last => cur,
                        Elem::Int(_) | Elem::Bool(_) => {
                            return unexpected("an inner element target", cur, seg.span)
                        }
                    }
                }
                Value::Map(m) => match (last, read) {
                    (true, None) => cur,
                    (true, Some(span)) => builtins::map_get(m, &k).map_err(|f| located(f, span))?,
                    (false, _) => builtins::map_get(m, &k).map_err(|f| located(f, seg.span))?,
                },
                other => return unexpected("the base of an element target", other, seg.span),
            };
            keys.push(k);
        }
        Ok(())
    }

    // ---- expressions ---------------------------------------------------

    #[inline(always)]
    fn read(&self, slot: Slot, span: Span) -> R<&Value> {
        match self.slots.get(slot as usize) {
            Some(Value::Unset) | None => Err(self.unset(slot, span)),
            Some(v) => Ok(v),
        }
    }

    /// The value of an int variable.
    #[inline(always)]
    fn read_int(&self, slot: Slot, span: Span) -> R<i64> {
        match self.slots.get(slot as usize) {
            Some(Value::Int(i)) => Ok(*i),
            Some(Value::Unset) | None => Err(self.unset(slot, span)),
            Some(other) => unexpected("an int variable", other, span),
        }
    }

    #[cold]
    #[inline(never)]
    fn unset(&self, slot: Slot, span: Span) -> Box<Fault> {
        let name = self
            .c
            .vars
            .get(slot as usize)
            .map_or("?", |v| v.name.as_str());
        let mut f = fault(
            RuntimeCode::UninitializedRead,
            span,
            format!("`{name}` is read before any assignment to it"),
        );
        f.hint = Some(format!("assign `{name}` on every path before this step"));
        f
    }

    fn eval(&self, e: &Ex) -> R<Value> {
        match e {
            Ex::Const(v) => Ok(v.clone()),
            Ex::Var(s, span) => self.read(*s, *span).cloned(),
            Ex::Neg(..) | Ex::Arith(..) | Ex::ArithVK(..) | Ex::ArithVV(..) | Ex::ArithXK(..) => {
                self.eval_int(e).map(Value::Int)
            }
            Ex::Not(_)
            | Ex::CmpInt(..)
            | Ex::CmpVK(..)
            | Ex::CmpVV(..)
            | Ex::CmpXK(..)
            | Ex::CmpXV(..)
            | Ex::Cmp(..)
            | Ex::And(..)
            | Ex::Or(..) => self.eval_bool(e).map(Value::Bool),
            Ex::Index(..)
            | Ex::IndexArr(..)
            | Ex::IndexArrV(..)
            | Ex::IndexArrVV(..)
            | Ex::IndexMap(..) => self.eval_ref(e).map(Val::into_owned),
            Ex::Call1(b, a, span) => {
                let a = self.eval_ref(a)?;
                builtins::call1(*b, a.get(), self.budget.max_size).map_err(|f| located(f, *span))
            }
            Ex::Call2(b, args, span) => {
                let [a, c] = &**args;
                let a = self.eval_ref(a)?;
                let c = self.eval_ref(c)?;
                builtins::call2(*b, a.get(), c.get(), self.budget.max_size)
                    .map_err(|f| located(f, *span))
            }
            Ex::Call3(b, args, span) => {
                let [a, c, d] = &**args;
                let a = self.eval_ref(a)?;
                let c = self.eval_ref(c)?;
                let d = self.eval_ref(d)?;
                builtins::call3(*b, a.get(), c.get(), d.get(), self.budget.max_size)
                    .map_err(|f| located(f, *span))
            }
            Ex::Pack(call, span) => self.call_pack(call, *span),
        }
    }

    /// Calls a pack function: the arguments cross as JSON values, the result
    /// comes back as a value of the declared return type.
    fn call_pack(&self, call: &PackCall, span: Span) -> R<Value> {
        let name = &call.func.name;
        let mut args = Vec::with_capacity(call.args.len());
        for a in call.args.iter() {
            let v = self.eval_ref(a)?;
            let mut budget = self.budget.max_size;
            let lit = value::to_literal(v.get(), &mut budget).ok_or_else(|| {
                fault(
                    RuntimeCode::SizeLimit,
                    span,
                    format!("an argument of {name} is larger than the size limit"),
                )
            })?;
            args.push(lit);
        }
        let lit = call.func.call(&args).map_err(|d| {
            let code = RuntimeCode::from_text(&d.code).filter(|c| c.is_program_error());
            match code {
                Some(code) => fault(code, span, format!("{name}: {}", d.message)),
                None => fault(
                    RuntimeCode::PackFailed,
                    span,
                    format!("{name} failed: {} [{}]", d.message, d.code),
                ),
            }
        })?;
        value::from_literal(&lit, &call.func.signature.ret).map_err(|m| {
            fault(
                RuntimeCode::PackFailed,
                span,
                format!(
                    "{name} returned {lit}, which is not of type {}: {}",
                    call.func.signature.ret, m.message
                ),
            )
        })
    }

    /// A value, borrowed where it can be: leaves (constants, variables,
    /// var-indexed array reads) inline at the caller, the rest in
    /// [`Machine::eval_ref_node`].
    #[inline(always)]
    fn eval_ref<'a>(&'a self, e: &'a Ex) -> R<Val<'a>> {
        match e {
            Ex::Const(v) => Ok(Val::Ref(v)),
            Ex::Var(s, span) => self.read(*s, *span).map(Val::Ref),
            Ex::IndexArrVV(slot, var_span, islot, ispan, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.read_int(*islot, *ispan)?;
                match base {
                    Value::Array(xs) => array_elem(xs, i, *span).map(Val::from),
                    other => unexpected("the base of an array index", other, *span),
                }
            }
            _ => self.eval_ref_node(e),
        }
    }

    #[inline(never)]
    fn eval_ref_node<'a>(&'a self, e: &'a Ex) -> R<Val<'a>> {
        match e {
            Ex::Const(v) => Ok(Val::Ref(v)),
            Ex::Var(s, span) => self.read(*s, *span).map(Val::Ref),
            Ex::Index(base, index, span) => {
                let base = self.eval_ref(base)?;
                let key = self.eval_ref(index)?;
                match base {
                    Val::Ref(b) => element(b, key.get(), *span),
                    Val::Own(b) => element(&b, key.get(), *span).map(|x| Val::Own(x.into_owned())),
                }
            }
            Ex::IndexArrVV(slot, var_span, islot, ispan, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.read_int(*islot, *ispan)?;
                match base {
                    Value::Array(xs) => array_elem(xs, i, *span).map(Val::from),
                    other => unexpected("the base of an array index", other, *span),
                }
            }
            Ex::IndexArrV(slot, var_span, index, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.eval_int(index)?;
                match base {
                    Value::Array(xs) => array_elem(xs, i, *span).map(Val::from),
                    other => unexpected("the base of an array index", other, *span),
                }
            }
            Ex::IndexArr(base, index, span) => {
                let base = self.eval_ref(base)?;
                let i = self.eval_int(index)?;
                match base {
                    Val::Ref(Value::Array(xs)) => array_elem(xs, i, *span).map(Val::from),
                    Val::Own(Value::Array(xs)) => {
                        array_elem(&xs, i, *span).map(|x| Val::Own(x.to_value()))
                    }
                    other => unexpected("the base of an array index", other.get(), *span),
                }
            }
            Ex::IndexMap(base, key, span) => {
                let base = self.eval_ref(base)?;
                let key = self.eval_ref(key)?;
                match base {
                    Val::Ref(Value::Map(m)) => builtins::map_get(m, key.get())
                        .map(Val::Ref)
                        .map_err(|f| located(f, *span)),
                    Val::Own(Value::Map(m)) => builtins::map_get(&m, key.get())
                        .map(|x| Val::Own(x.clone()))
                        .map_err(|f| located(f, *span)),
                    other => unexpected("the base of a map index", other.get(), *span),
                }
            }
            _ => self.eval(e).map(Val::Own),
        }
    }

    /// An int expression: leaves (constants, variables, fused var/const
    /// arithmetic and var-indexed reads) inline at the caller, the rest in
    /// [`Machine::eval_int_node`].
    #[inline(always)]
    fn eval_int(&self, e: &Ex) -> R<i64> {
        match e {
            Ex::Const(Value::Int(k)) => Ok(*k),
            Ex::Var(s, span) => self.read_int(*s, *span),
            Ex::ArithVK(op, x, xs, k, span) => {
                let x = self.read_int(*x, *xs)?;
                arith(*op, x, *k, *span)
            }
            Ex::ArithVV(op, x, xs, y, ys, span) => {
                let x = self.read_int(*x, *xs)?;
                let y = self.read_int(*y, *ys)?;
                arith(*op, x, y, *span)
            }
            Ex::IndexArrVV(slot, var_span, islot, ispan, span) => {
                let i = self.read_int(*islot, *ispan);
                match (self.read(*slot, *var_span)?, i?) {
                    (Value::Array(xs), i) => match &**xs {
                        Items::Ints(v) => match usize::try_from(i).ok().and_then(|u| v.get(u)) {
                            Some(x) => Ok(*x),
                            None => Err(out_of_range(i, v.len(), *span)),
                        },
                        _ => self.eval_int_node(e),
                    },
                    _ => self.eval_int_node(e),
                }
            }
            _ => self.eval_int_node(e),
        }
    }

    #[inline(never)]
    fn eval_int_node(&self, e: &Ex) -> R<i64> {
        match e {
            Ex::Const(Value::Int(k)) => Ok(*k),
            Ex::Var(s, span) => match self.read(*s, *span)? {
                Value::Int(i) => Ok(*i),
                v => unexpected("an int variable", v, *span),
            },
            Ex::Arith(op, a, b, span) => {
                let x = self.eval_int(a)?;
                let y = self.eval_int(b)?;
                arith(*op, x, y, *span)
            }
            Ex::ArithVK(op, x, xs, k, span) => {
                let x = self.read_int(*x, *xs)?;
                arith(*op, x, *k, *span)
            }
            Ex::ArithVV(op, x, xs, y, ys, span) => {
                let x = self.read_int(*x, *xs)?;
                let y = self.read_int(*y, *ys)?;
                arith(*op, x, y, *span)
            }
            Ex::ArithXK(op, a, k, span) => {
                let x = self.eval_int(a)?;
                arith(*op, x, *k, *span)
            }
            Ex::IndexArrVV(slot, var_span, islot, ispan, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.read_int(*islot, *ispan)?;
                match base {
                    Value::Array(xs) => match &**xs {
                        Items::Ints(v) => match usize::try_from(i).ok().and_then(|u| v.get(u)) {
                            Some(x) => Ok(*x),
                            None => Err(out_of_range(i, v.len(), *span)),
                        },
                        other => match array_elem(other, i, *span)? {
                            Elem::Int(x) | Elem::Ref(&Value::Int(x)) => Ok(x),
                            e => unexpected("an int element", &e.to_value(), *span),
                        },
                    },
                    other => unexpected("the base of an array index", other, *span),
                }
            }
            Ex::IndexArrV(slot, var_span, index, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.eval_int(index)?;
                let Value::Array(xs) = base else {
                    return unexpected("the base of an array index", base, *span);
                };
                match array_elem(xs, i, *span)? {
                    Elem::Int(x) | Elem::Ref(&Value::Int(x)) => Ok(x),
                    other => unexpected("an int element", &other.to_value(), *span),
                }
            }
            Ex::IndexArr(base, index, span) => {
                let base = self.eval_ref(base)?;
                let i = self.eval_int(index)?;
                let Value::Array(xs) = base.get() else {
                    return unexpected("the base of an array index", base.get(), *span);
                };
                match array_elem(xs, i, *span)? {
                    Elem::Int(x) | Elem::Ref(&Value::Int(x)) => Ok(x),
                    other => unexpected("an int element", &other.to_value(), *span),
                }
            }
            Ex::Neg(a, span) => {
                let x = self.eval_int(a)?;
                x.checked_neg().ok_or_else(|| {
                    fault(
                        RuntimeCode::IntOverflow,
                        *span,
                        format!("neg {x} does not fit in 64 bits"),
                    )
                })
            }
            _ => match self.eval_ref(e)?.get() {
                Value::Int(i) => Ok(*i),
                v => unexpected("an int expression", v, expr_span(e)),
            },
        }
    }

    /// A bool expression: leaves inline at the caller, the rest in
    /// [`Machine::eval_bool_node`].
    #[inline(always)]
    fn eval_bool(&self, e: &Ex) -> R<bool> {
        match e {
            Ex::Const(Value::Bool(b)) => Ok(*b),
            Ex::CmpVK(op, x, xs, k) => {
                let x = self.read_int(*x, *xs)?;
                Ok(compare(*op, x.cmp(k)))
            }
            Ex::CmpVV(op, x, xs, y, ys) => {
                let x = self.read_int(*x, *xs)?;
                let y = self.read_int(*y, *ys)?;
                Ok(compare(*op, x.cmp(&y)))
            }
            _ => self.eval_bool_node(e),
        }
    }

    #[inline(never)]
    fn eval_bool_node(&self, e: &Ex) -> R<bool> {
        match e {
            Ex::Const(Value::Bool(b)) => Ok(*b),
            Ex::Not(a) => Ok(!self.eval_bool(a)?),
            Ex::And(a, b) => Ok(self.eval_bool(a)? && self.eval_bool(b)?),
            Ex::Or(a, b) => Ok(self.eval_bool(a)? || self.eval_bool(b)?),
            Ex::IndexArr(base, index, span) => {
                let base = self.eval_ref(base)?;
                let i = self.eval_int(index)?;
                let Value::Array(xs) = base.get() else {
                    return unexpected("the base of an array index", base.get(), *span);
                };
                match array_elem(xs, i, *span)? {
                    Elem::Bool(x) | Elem::Ref(&Value::Bool(x)) => Ok(x),
                    other => unexpected("a bool element", &other.to_value(), *span),
                }
            }
            Ex::CmpVK(op, x, xs, k) => {
                let x = self.read_int(*x, *xs)?;
                Ok(compare(*op, x.cmp(k)))
            }
            Ex::CmpVV(op, x, xs, y, ys) => {
                let x = self.read_int(*x, *xs)?;
                let y = self.read_int(*y, *ys)?;
                Ok(compare(*op, x.cmp(&y)))
            }
            Ex::CmpXK(op, a, k) => {
                let x = self.eval_int(a)?;
                Ok(compare(*op, x.cmp(k)))
            }
            Ex::IndexArrVV(slot, var_span, islot, ispan, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.read_int(*islot, *ispan)?;
                let Value::Array(xs) = base else {
                    return unexpected("the base of an array index", base, *span);
                };
                match array_elem(xs, i, *span)? {
                    Elem::Bool(x) | Elem::Ref(&Value::Bool(x)) => Ok(x),
                    other => unexpected("a bool element", &other.to_value(), *span),
                }
            }
            Ex::CmpXV(op, a, y, ys) => {
                let x = self.eval_int(a)?;
                let y = self.read_int(*y, *ys)?;
                Ok(compare(*op, x.cmp(&y)))
            }
            Ex::IndexArrV(slot, var_span, index, span) => {
                let base = self.read(*slot, *var_span)?;
                let i = self.eval_int(index)?;
                let Value::Array(xs) = base else {
                    return unexpected("the base of an array index", base, *span);
                };
                match array_elem(xs, i, *span)? {
                    Elem::Bool(x) | Elem::Ref(&Value::Bool(x)) => Ok(x),
                    other => unexpected("a bool element", &other.to_value(), *span),
                }
            }
            Ex::CmpInt(op, a, b) => {
                let x = self.eval_int(a)?;
                let y = self.eval_int(b)?;
                Ok(compare(*op, x.cmp(&y)))
            }
            Ex::Cmp(op, a, b) => {
                let x = self.eval_ref(a)?;
                let y = self.eval_ref(b)?;
                Ok(match op {
                    Cmp::Eq => x.get() == y.get(),
                    Cmp::Ne => x.get() != y.get(),
                    _ => compare(*op, x.get().cmp(y.get())),
                })
            }
            _ => match self.eval_ref(e)?.get() {
                Value::Bool(b) => Ok(*b),
                v => unexpected("a bool expression", v, expr_span(e)),
            },
        }
    }
}

fn compare(op: Cmp, o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match op {
        Cmp::Eq => o == Equal,
        Cmp::Ne => o != Equal,
        Cmp::Lt => o == Less,
        Cmp::Le => o != Greater,
        Cmp::Gt => o == Greater,
        Cmp::Ge => o != Less,
    }
}

/// Checked int arithmetic: overflow and division by zero are errors; `div`
/// truncates toward zero, `mod` has the dividend's sign, MIN mod -1 is 0.
#[inline(always)]
fn arith(op: Arith, x: i64, y: i64, span: Span) -> R<i64> {
    let r = match op {
        Arith::Add => x.checked_add(y),
        Arith::Sub => x.checked_sub(y),
        Arith::Mul => x.checked_mul(y),
        Arith::Div if y != 0 => x.checked_div(y),
        Arith::Mod if y != 0 => Some(x.wrapping_rem(y)),
        Arith::Div | Arith::Mod => return Err(arith_fault(op, x, y, span)),
    };
    match r {
        Some(r) => Ok(r),
        None => Err(arith_fault(op, x, y, span)),
    }
}

/// The error of `(op x y)`: division by zero or overflow.
#[cold]
#[inline(never)]
fn arith_fault(op: Arith, x: i64, y: i64, span: Span) -> Box<Fault> {
    let name = match op {
        Arith::Add => "add",
        Arith::Sub => "sub",
        Arith::Mul => "mul",
        Arith::Div => "div",
        Arith::Mod => "mod",
    };
    if y == 0 && matches!(op, Arith::Div | Arith::Mod) {
        fault(
            RuntimeCode::DivisionByZero,
            span,
            format!("({name} {x} 0): division by zero"),
        )
    } else {
        fault(
            RuntimeCode::IntOverflow,
            span,
            format!("({name} {x} {y}) does not fit in 64 bits"),
        )
    }
}

/// The element of an array or the value of a map key.
fn element<'v>(base: &'v Value, key: &Value, span: Span) -> R<Val<'v>> {
    match base {
        Value::Array(xs) => builtins::array_get(xs, key)
            .map(Val::from)
            .map_err(|f| located(f, span)),
        Value::Map(m) => builtins::map_get(m, key)
            .map(Val::Ref)
            .map_err(|f| located(f, span)),
        other => unexpected("the base of an index", other, span),
    }
}

fn index_of(k: &Value, span: Span) -> R<usize> {
    match k {
        Value::Int(i) => usize::try_from(*i).map_err(|_| {
            fault(
                RuntimeCode::InternalError,
                span,
                "a checked index turned negative",
            )
        }),
        other => unexpected("an array index", other, span),
    }
}

/// The value at `keys` under the variable `slot`, made unique (copied where
/// shared) at every level so it can be written. The keys were checked.
fn place_mut<'s>(
    slots: &'s mut [Value],
    slot: Slot,
    keys: &[Value],
    span: Span,
) -> R<&'s mut Value> {
    let gone = || {
        fault(
            RuntimeCode::InternalError,
            span,
            "a checked element target is missing",
        )
    };
    let mut cur = slots.get_mut(slot as usize).ok_or_else(gone)?;
    for k in keys {
        cur = match cur {
            Value::Array(xs) => Rc::make_mut(xs)
                .get_mut(index_of(k, span)?)
                .ok_or_else(gone)?,
            Value::Map(m) => {
                let k = builtins::key(k).map_err(|f| located(f, span))?;
                Rc::make_mut(m).get_mut(&k).ok_or_else(gone)?
            }
            other => return unexpected("the base of an element target", other, span),
        };
    }
    Ok(cur)
}

fn step_of(st: &St) -> StepIx {
    match st {
        St::Seq { step, .. }
        | St::Set { step, .. }
        | St::SetInt { step, .. }
        | St::SetElem { step, .. }
        | St::SetIndex { step, .. }
        | St::Update { step, .. }
        | St::If { step, .. }
        | St::Range { step, .. }
        | St::Each { step, .. }
        | St::While { step, .. }
        | St::Return { step, .. } => *step,
    }
}

fn expr_span(e: &Ex) -> Span {
    match e {
        Ex::Var(_, s)
        | Ex::Neg(_, s)
        | Ex::Arith(_, _, _, s)
        | Ex::Index(_, _, s)
        | Ex::IndexArr(_, _, s)
        | Ex::IndexArrV(_, _, _, s)
        | Ex::IndexArrVV(_, _, _, _, s)
        | Ex::ArithVK(_, _, _, _, s)
        | Ex::ArithVV(_, _, _, _, _, s)
        | Ex::ArithXK(_, _, _, s)
        | Ex::IndexMap(_, _, s)
        | Ex::Call1(_, _, s)
        | Ex::Call2(_, _, s)
        | Ex::Call3(_, _, s)
        | Ex::Pack(_, s) => *s,
        Ex::Const(_)
        | Ex::Not(_)
        | Ex::CmpInt(..)
        | Ex::CmpVK(..)
        | Ex::CmpVV(..)
        | Ex::CmpXK(..)
        | Ex::CmpXV(..)
        | Ex::Cmp(..)
        | Ex::And(..)
        | Ex::Or(..) => Span::default(),
    }
}

/// Stores `v` in `cell`, writing scalars over scalars in place.
#[inline(always)]
fn store(cell: &mut Value, v: Value) {
    match (cell, v) {
        (Value::Int(old), Value::Int(new)) => *old = new,
        (Value::Bool(old), Value::Bool(new)) => *old = new,
        (cell, v) => *cell = v,
    }
}

/// Makes the variable in `slot` the int `v`.
#[inline(always)]
fn set_int(slots: &mut [Value], slot: Slot, v: i64) {
    if let Some(cell) = slots.get_mut(slot as usize) {
        if let Value::Int(old) = cell {
            *old = v;
        } else {
            *cell = Value::Int(v);
        }
    }
}

/// `i` as an index of an array of length `len`.
#[inline(always)]
fn in_range(i: i64, len: usize, span: Span) -> R<usize> {
    match usize::try_from(i) {
        Ok(u) if u < len => Ok(u),
        _ => Err(out_of_range(i, len, span)),
    }
}

#[cold]
#[inline(never)]
fn out_of_range(i: i64, len: usize, span: Span) -> Box<Fault> {
    fault(
        RuntimeCode::IndexOutOfRange,
        span,
        format!("index {i} is out of range for an array of length {len}"),
    )
}

/// The element `i` of an array.
#[inline(always)]
fn array_elem(xs: &Items, i: i64, span: Span) -> R<Elem<'_>> {
    let u = in_range(i, xs.len(), span)?;
    xs.elem(u).ok_or_else(|| out_of_range(i, xs.len(), span))
}
