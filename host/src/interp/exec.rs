//! The machine that runs a compiled program: one frame of slots, a fuel
//! counter, and a tree walk over the compiled statements.
//!
//! Expressions cannot change anything, so they are evaluated through `&self`
//! and may borrow values straight out of the slots ([`Val::Ref`]); only
//! statements take `&mut self`. A failure is a [`Fault`] that learns its step
//! on the way out: the innermost step whose own fields failed names it.

use super::builtins::{self, Failure};
use super::compile::{Arith, Cmp, Compiled, Ex, PackCall, Seg, Slot, St, StepIx};
use super::trace::Tracer;
use super::value::{self, Value};
use crate::diag::{Code, Diagnostic, VarValue};
use isu_plugin_api::Span;
use std::rc::Rc;

/// A runtime error on its way out of the machine.
#[derive(Debug)]
pub struct Fault {
    pub code: Code,
    pub message: String,
    pub span: Span,
    /// The step it belongs to, once known.
    pub step: Option<StepIx>,
    pub hint: Option<String>,
}

pub type R<T> = Result<T, Box<Fault>>;

fn fault(code: Code, span: Span, message: impl Into<String>) -> Box<Fault> {
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
        Code::InternalError,
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

impl Val<'_> {
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
                    Code::NoReturn,
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
    #[inline]
    fn spend(&mut self, step: StepIx) -> R<()> {
        if self.fuel == 0 {
            let span = self.c.steps[step as usize].span;
            let mut f = fault(
                Code::StepLimit,
                span,
                format!(
                    "the run used up its budget of {} loop rounds",
                    self.budget.max_steps
                ),
            );
            f.step = Some(step);
            f.hint = Some("a loop that never ends? If not, raise the limit (--max-steps)".into());
            return Err(f);
        }
        self.fuel -= 1;
        Ok(())
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
            St::SetIndex {
                step,
                slot,
                target_span,
                path,
                expr,
            } => {
                let mut keys = std::mem::take(&mut self.keys);
                keys.clear();
                let r = self.set_index(*step, *slot, *target_span, path, expr, &mut keys);
                self.keys = keys;
                r.map(|()| Flow::Next)
            }
            St::Update {
                step,
                slot,
                target_span,
                path,
                op,
                rest,
                call_span,
                arg_span,
            } => {
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
                    builtins::update(*op, place, &args[..n], max)
                        .map_err(|f| located(f, *call_span))?;
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
            St::Range {
                step,
                var,
                start,
                end,
                by,
                by_span,
                body,
            } => {
                let start = self.eval_int(start)?;
                let end = self.eval_int(end)?;
                let by = match by {
                    Some(e) => self.eval_int(e)?,
                    None => 1,
                };
                if by == 0 {
                    return Err(fault(Code::ZeroStep, *by_span, "a range with the step 0"));
                }
                let mut i = start;
                let mut rounds = 0;
                while if by > 0 { i < end } else { i > end } {
                    self.spend(*step)?;
                    rounds += 1;
                    self.slots[*var as usize] = Value::Int(i);
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
            St::Each {
                step,
                var,
                seq,
                body,
            } => {
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
                    self.slots[*var as usize] = x.clone();
                    if let Some(t) = &mut self.tracer {
                        let c = self.c;
                        t.round(
                            &c.steps[*step as usize].id,
                            rounds,
                            Some((&c.vars[*var as usize].name, x)),
                        );
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
            St::While { step, cond, body } => {
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
                    Code::InternalError,
                    target_span,
                    "an element target without an index",
                ))
            }
        };
        let parent = place_mut(&mut self.slots, slot, init, target_span)?;
        let stored: &Value = match parent {
            Value::Array(xs) => {
                let i = index_of(last, target_span)?;
                let cell = Rc::make_mut(xs).get_mut(i);
                let Some(cell) = cell else {
                    return Err(fault(
                        Code::InternalError,
                        target_span,
                        "an element target moved",
                    ));
                };
                *cell = v;
                cell
            }
            Value::Map(m) => {
                if !m.contains_key(last) && m.len() >= max {
                    let span = path.last().map_or(target_span, |s| s.span);
                    return Err(located(
                        builtins::too_big("the map", m.len() + 1, max),
                        span,
                    ));
                }
                let m = Rc::make_mut(m);
                m.insert(last.clone(), v);
                match m.get(last) {
                    Some(x) => x,
                    None => {
                        return Err(fault(
                            Code::InternalError,
                            target_span,
                            "a map entry vanished",
                        ))
                    }
                }
            }
            other => return unexpected("the base of an element target", other, target_span),
        };
        if let Some(t) = &mut self.tracer {
            let c = self.c;
            t.assign(
                &c.steps[step as usize].id,
                &c.vars[slot as usize].name,
                keys,
                stored,
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
                    builtins::array_get(xs, &k).map_err(|f| located(f, seg.span))?
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

    #[inline]
    fn read(&self, slot: Slot, span: Span) -> R<&Value> {
        match self.slots.get(slot as usize) {
            Some(Value::Unset) | None => {
                let name = self
                    .c
                    .vars
                    .get(slot as usize)
                    .map_or("?", |v| v.name.as_str());
                let mut f = fault(
                    Code::UninitializedRead,
                    span,
                    format!("`{name}` is read before any assignment to it"),
                );
                f.hint = Some(format!("assign `{name}` on every path before this step"));
                Err(f)
            }
            Some(v) => Ok(v),
        }
    }

    fn eval(&self, e: &Ex) -> R<Value> {
        match e {
            Ex::Const(v) => Ok(v.clone()),
            Ex::Var(s, span) => self.read(*s, *span).cloned(),
            Ex::Neg(..) | Ex::Arith(..) => self.eval_int(e).map(Value::Int),
            Ex::Not(_) | Ex::CmpInt(..) | Ex::Cmp(..) | Ex::And(..) | Ex::Or(..) => {
                self.eval_bool(e).map(Value::Bool)
            }
            Ex::Index(..) => self.eval_ref(e).map(Val::into_owned),
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
                    Code::SizeLimit,
                    span,
                    format!("an argument of {name} is larger than the size limit"),
                )
            })?;
            args.push(lit);
        }
        let lit = call.func.call(&args).map_err(|d| {
            let code = Code::ALL
                .iter()
                .find(|c| c.as_str() == d.code && c.kind() == crate::diag::Kind::RuntimeError)
                .copied();
            match code {
                Some(code) => fault(code, span, format!("{name}: {}", d.message)),
                None => fault(
                    Code::PackFailed,
                    span,
                    format!("{name} failed: {} [{}]", d.message, d.code),
                ),
            }
        })?;
        value::from_literal(&lit, &call.func.signature.ret).map_err(|m| {
            fault(
                Code::PackFailed,
                span,
                format!(
                    "{name} returned {lit}, which is not of type {}: {}",
                    call.func.signature.ret, m.message
                ),
            )
        })
    }

    fn eval_ref<'a>(&'a self, e: &'a Ex) -> R<Val<'a>> {
        match e {
            Ex::Const(v) => Ok(Val::Ref(v)),
            Ex::Var(s, span) => self.read(*s, *span).map(Val::Ref),
            Ex::Index(base, index, span) => {
                let base = self.eval_ref(base)?;
                let key = self.eval_ref(index)?;
                match base {
                    Val::Ref(b) => element(b, key.get(), *span).map(Val::Ref),
                    Val::Own(b) => element(&b, key.get(), *span).map(|x| Val::Own(x.clone())),
                }
            }
            _ => self.eval(e).map(Val::Own),
        }
    }

    fn eval_int(&self, e: &Ex) -> R<i64> {
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
            Ex::Neg(a, span) => {
                let x = self.eval_int(a)?;
                x.checked_neg().ok_or_else(|| {
                    fault(
                        Code::IntOverflow,
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

    fn eval_bool(&self, e: &Ex) -> R<bool> {
        match e {
            Ex::Const(Value::Bool(b)) => Ok(*b),
            Ex::Not(a) => Ok(!self.eval_bool(a)?),
            Ex::And(a, b) => Ok(self.eval_bool(a)? && self.eval_bool(b)?),
            Ex::Or(a, b) => Ok(self.eval_bool(a)? || self.eval_bool(b)?),
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
fn arith(op: Arith, x: i64, y: i64, span: Span) -> R<i64> {
    let (r, name) = match op {
        Arith::Add => (x.checked_add(y), "add"),
        Arith::Sub => (x.checked_sub(y), "sub"),
        Arith::Mul => (x.checked_mul(y), "mul"),
        Arith::Div | Arith::Mod if y == 0 => {
            let name = if op == Arith::Div { "div" } else { "mod" };
            return Err(fault(
                Code::DivisionByZero,
                span,
                format!("({name} {x} 0): division by zero"),
            ));
        }
        Arith::Div => (x.checked_div(y), "div"),
        Arith::Mod => (Some(x.wrapping_rem(y)), "mod"),
    };
    r.ok_or_else(|| {
        fault(
            Code::IntOverflow,
            span,
            format!("({name} {x} {y}) does not fit in 64 bits"),
        )
    })
}

/// The element of an array or the value of a map key.
fn element<'v>(base: &'v Value, key: &Value, span: Span) -> R<&'v Value> {
    match base {
        Value::Array(xs) => builtins::array_get(xs, key).map_err(|f| located(f, span)),
        Value::Map(m) => builtins::map_get(m, key).map_err(|f| located(f, span)),
        other => unexpected("the base of an index", other, span),
    }
}

fn index_of(k: &Value, span: Span) -> R<usize> {
    match k {
        Value::Int(i) => usize::try_from(*i)
            .map_err(|_| fault(Code::InternalError, span, "a checked index turned negative")),
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
            Code::InternalError,
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
            Value::Map(m) => Rc::make_mut(m).get_mut(k).ok_or_else(gone)?,
            other => return unexpected("the base of an element target", other, span),
        };
    }
    Ok(cur)
}

fn step_of(st: &St) -> StepIx {
    match st {
        St::Seq { step, .. }
        | St::Set { step, .. }
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
        | Ex::Call1(_, _, s)
        | Ex::Call2(_, _, s)
        | Ex::Call3(_, _, s)
        | Ex::Pack(_, s) => *s,
        Ex::Const(_) | Ex::Not(_) | Ex::CmpInt(..) | Ex::Cmp(..) | Ex::And(..) | Ex::Or(..) => {
            Span::default()
        }
    }
}
