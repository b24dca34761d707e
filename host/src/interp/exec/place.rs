//! Element targets: `ASSIGN (index ...)` and in-place updates of an
//! element, their keys checked from the variable outward, then the store
//! into values made unique on the way down.

use super::eval::{field, in_range};
use super::fault::{fault, located, unexpected, R};
use super::{memory, Machine};
use crate::interp::builtins;
use crate::interp::compile::{ElemStore, Ex, Scalar, Seg, Slot, StepIx};
use crate::interp::value::{Elem, Value};
use isu_lang::RuntimeCode;
use isu_plugin_api::Span;
use std::rc::Rc;

impl Machine<'_, '_> {
    /// `ASSIGN (index x I)`: x, then I and its check, then EXPR, then the
    /// store (as [`Machine::set_index`] with one level, without a key buffer).
    pub(super) fn set_elem(&mut self, step: StepIx, store: &ElemStore) -> R<()> {
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
                    Some(cell @ Value::Array(_)) => {
                        if kind == Scalar::Other {
                            let key = Value::Int(i as i64);
                            self.memory.hold_part(slot, cell, &key, &v, target_span)?;
                        }
                        match cell {
                            // Unique, the common case, without the call.
                            Value::Array(xs) => match Rc::get_mut(xs) {
                                Some(items) => items.set(i, v),
                                None => Rc::make_mut(xs).set(i, v),
                            },
                            _ => false,
                        }
                    }
                    _ => false,
                };
                self.stored_element(stored, step, slot, i, target_span)?;
            }
            None => {
                let k = self.eval(index)?;
                let key = builtins::key(&k).map_err(|f| located(f, index_span))?;
                self.spend_key(&k, index_span)?;
                let v = self.eval(expr)?;
                let Some(Value::Map(m)) = self.slots.get_mut(s) else {
                    return Err(fault(
                        RuntimeCode::InternalError,
                        target_span,
                        "an element target moved",
                    ));
                };
                // The store searches the map again, and finds the entry the
                // checks read in the cache.
                let was = m.get(&key);
                if was.is_none() && m.len() >= max {
                    return Err(located(
                        builtins::too_big("the map", m.len() + 1, max),
                        index_span,
                    ));
                }
                let (old, new) = memory::entry_sizes(was, &k, &v);
                self.memory.replace(slot, old, new, target_span)?;
                if let Some(t) = &mut self.tracer {
                    let c = self.c;
                    t.assign(
                        &c.steps[step as usize].id,
                        &c.vars[s].name,
                        std::slice::from_ref(&k),
                        &v,
                    );
                }
                Rc::make_mut(m).insert(key, v);
            }
        }
        Ok(())
    }

    /// `ASSIGN (index ...)`: the TARGET's keys and checks, then EXPR, then
    /// the store.
    pub(super) fn set_index(
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
        if let Value::Map(m) = &*parent {
            let k = builtins::key(last).map_err(|f| located(f, target_span))?;
            if !m.contains_key(&k) && m.len() >= max {
                let span = path.last().map_or(target_span, |s| s.span);
                return Err(located(
                    builtins::too_big("the map", m.len() + 1, max),
                    span,
                ));
            }
        }
        self.memory.hold_part(slot, parent, last, &v, target_span)?;
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
                let shown = if tracing { Some(v.clone()) } else { None };
                Rc::make_mut(m).insert(last, v);
                shown
            }
            Value::Struct(r) => {
                let shown = if tracing { Some(v.clone()) } else { None };
                let slot = Rc::make_mut(r)
                    .get_mut(field_name(last, target_span)?)
                    .ok_or_else(|| {
                        fault(
                            RuntimeCode::InternalError,
                            target_span,
                            "a field target moved",
                        )
                    })?;
                *slot = v;
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
    /// first argument of an in-place call, whose span `read` is). A level of
    /// a map spends its key's size after its check (`work::place_spends`).
    pub(super) fn check_path(
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
                Value::Map(m) => {
                    let found = match (last, read) {
                        (true, None) => cur,
                        (true, Some(span)) => {
                            builtins::map_get(m, &k).map_err(|f| located(f, span))?
                        }
                        (false, _) => builtins::map_get(m, &k).map_err(|f| located(f, seg.span))?,
                    };
                    self.spend_key(&k, seg.span)?;
                    found
                }
                Value::Struct(_) => match (last, read) {
                    (true, None) => cur,
                    _ => field(cur, field_name(&k, seg.span)?, seg.span)?,
                },
                other => return unexpected("the base of an element target", other, seg.span),
            };
            keys.push(k);
        }
        Ok(())
    }
}

/// The name a field level of a TARGET carries as its key.
pub(super) fn field_name(k: &Value, span: Span) -> R<&str> {
    match k {
        Value::Str(s) => Ok(s.as_str()),
        other => unexpected("a field name", other, span),
    }
}

pub(super) fn index_of(k: &Value, span: Span) -> R<usize> {
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
pub(super) fn place_mut<'s>(
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
            Value::Struct(r) => Rc::make_mut(r)
                .get_mut(field_name(k, span)?)
                .ok_or_else(gone)?,
            other => return unexpected("the base of an element target", other, span),
        };
    }
    Ok(cur)
}
