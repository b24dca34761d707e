//! Memory: the live size of the variables, checked at every store that adds
//! to it (`spec/semantics.md` 7, the memory limit).
//!
//! The machine keeps each slot's size beside it, so a store of a whole
//! variable walks only the value stored, and a store into a part of one
//! walks only the part it replaces.

use super::fault::{fault, Fault, R};
use crate::interp::builtins;
use crate::interp::compile::Slot;
use crate::interp::items::Elem;
use crate::interp::value::Value;
use isu_lang::update::Update;
use isu_lang::RuntimeCode;
use isu_plugin_api::Span;

/// The live size of the variables, each slot's share of it, and the limit.
#[derive(Debug, Default)]
pub struct Memory {
    live: u64,
    sizes: Vec<u64>,
    max: u64,
}

impl Memory {
    /// The memory of `slots` slots under the limit `max`, the first of
    /// which hold the arguments.
    pub fn of_args(args: &[Value], slots: usize, max: u64) -> Memory {
        let mut sizes: Vec<u64> = args.iter().map(|v| v.size_upto(u64::MAX)).collect();
        sizes.resize(slots.max(args.len()), 0);
        Memory {
            live: sizes.iter().fold(0, |a, &b| a.saturating_add(b)),
            sizes,
            max,
        }
    }

    /// Whether storing `v` over the whole of the variable `slot` may
    /// change the live size: not an int or bool over nothing (the hot case,
    /// kept out of line from the rest of [`Memory::hold`]).
    #[inline(always)]
    pub fn may_change(&self, slot: Slot, v: &Value) -> bool {
        !matches!(v, Value::Int(_) | Value::Bool(_))
            || self.sizes.get(slot as usize).is_some_and(|&s| s != 0)
    }

    /// Checks that `v` may be stored over the whole of the variable `slot`,
    /// and counts it (the caller then stores it).
    #[inline(never)]
    pub fn hold(&mut self, slot: Slot, v: &Value, span: Span) -> R<()> {
        let old = self.sizes.get(slot as usize).copied().unwrap_or(0);
        // Walked past the room or the old size, whichever is more: a walk
        // cut short then reads as more than both, so it fails as it must.
        let new = v.size_upto(self.room(old).max(old));
        self.replace(slot, old, new, span)
    }

    /// Checks that `v` may replace the part of a variable `slot` that is
    /// the element `key` of `parent` (inserting it into a map when the key
    /// is new), and counts it.
    pub fn hold_part(
        &mut self,
        slot: Slot,
        parent: &Value,
        key: &Value,
        v: &Value,
        span: Span,
    ) -> R<()> {
        let size = |v: &Value| v.size_upto(u64::MAX);
        let (old, new) = match parent {
            Value::Array(xs) => match (
                usize::try_from(key_int(key)).ok().and_then(|i| xs.elem(i)),
                v,
            ) {
                (Some(Elem::Ref(was)), v) => (size(was), size(v)),
                (_, Value::Int(_) | Value::Bool(_)) => return Ok(()),
                (_, v) => (0, size(v)),
            },
            Value::Map(m) => {
                let was = builtins::key(key).ok().and_then(|k| m.get(&k));
                entry_sizes(was, key, v)
            }
            Value::Struct(r) => match key {
                Value::Str(name) => (r.get(name.as_str()).map_or(0, size), size(v)),
                _ => return Ok(()),
            },
            _ => return Ok(()),
        };
        self.replace(slot, old, new, span)
    }

    /// Checks that a part of the variable `slot` of size `old` may be
    /// replaced by one of size `new`, and counts it.
    pub fn replace(&mut self, slot: Slot, old: u64, new: u64, span: Span) -> R<()> {
        if new > old && new > self.room(old) {
            return Err(self.too_much(new - old, span));
        }
        self.live = self.live.saturating_sub(old).saturating_add(new);
        if let Some(s) = self.sizes.get_mut(slot as usize) {
            *s = s.saturating_sub(old).saturating_add(new);
        }
        Ok(())
    }

    /// How big a value replacing one of size `old` may be.
    fn room(&self, old: u64) -> u64 {
        let others = self.live.saturating_sub(old);
        self.max.saturating_sub(others)
    }

    #[cold]
    #[inline(never)]
    fn too_much(&self, more: u64, span: Span) -> Box<Fault> {
        let mut f = fault(
            RuntimeCode::MemoryLimit,
            span,
            format!(
                "this store adds at least {more} to the {} units the variables hold, past the memory limit of {}",
                self.live, self.max
            ),
        );
        f.hint = Some(
            "the variables together hold every character, element and entry of their values (spec/semantics.md 7); keep less, or raise the limit (--max-memory)"
                .into(),
        );
        f
    }
}

fn key_int(k: &Value) -> i64 {
    match k {
        Value::Int(i) => *i,
        _ => -1,
    }
}

/// The sizes of what an in-place update `op` of `place` by `rest` takes away
/// and puts in (`spec/semantics.md` 7), read before it is applied.
pub(super) fn update_sizes(op: Update, place: &Value, rest: &[Value]) -> (u64, u64) {
    let size = |v: &Value| v.size_upto(u64::MAX);
    match (op, place, rest) {
        (Update::Push, _, [x]) => (0, 1 + size(x)),
        (Update::Concat, _, [x]) => (0, size(x)),
        (Update::Pop, Value::Array(xs), _) => {
            match xs.len().checked_sub(1).and_then(|i| xs.elem(i)) {
                Some(Elem::Ref(v)) => (1 + size(v), 0),
                Some(_) => (1, 0),
                None => (0, 0),
            }
        }
        (Update::MapSet, Value::Map(m), [k, v]) => {
            let was = builtins::key(k).ok().and_then(|k| m.get(&k));
            entry_sizes(was, k, v)
        }
        _ => (0, 0),
    }
}

/// The sizes a store of `v` under the key `k` of a map takes away and puts
/// in: the old value's (`was`) and the new one's when the key is there, else
/// nothing and one entry with the key and the value.
pub(super) fn entry_sizes(was: Option<&Value>, k: &Value, v: &Value) -> (u64, u64) {
    let size = |v: &Value| v.size_upto(u64::MAX);
    match was {
        Some(was) => (size(was), size(v)),
        None => (0, 1 + size(k) + size(v)),
    }
}
