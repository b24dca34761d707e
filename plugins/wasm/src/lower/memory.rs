//! The memory limit (`spec/semantics.md` 7): the live size of the run's
//! variables, the sum of the sizes (as for work) of the values they hold,
//! may not pass `max_memory`.
//!
//! The entry function keeps the live size in an `i64` local beside the
//! fuel, and each variable of a type with a size (a string, array or map)
//! its own share of it in a shadow `i64` local. Int and bool variables have
//! none, and a store of an int or bool (to a variable or to an array
//! element) emits nothing. A store changes the live size by Δ, the size
//! stored less the size replaced: a whole variable's Δ is the new value's
//! size less its shadow; an element's, the new element's size less the old
//! one's (a new map key adds one and its size too); an in-place update's,
//! what it adds or takes away (`PUSH` one plus the value's size, `CONCAT`
//! the size appended, `MAP_SET` one plus key and value for a new key or the
//! value's size less the old one's, `POP` minus one and the removed
//! element's size). A store with Δ > 0 that would make the live size pass
//! the limit raises `memory_limit` at its step (-1 in `STATE`).
//!
//! The check comes after every other check of the step. Where the runtime
//! call that stores (an in-place update, a map insert) also makes its own
//! checks, Δ is measured before the call and checked after it: the error
//! stops the run at once, so what the failed store left behind is never
//! seen, and the order of the errors (the call's own, then its work, then
//! memory) is the interpreter's.

use super::{Lowering, Res};
use crate::asm::Local;
use crate::layout::{elem, key_value, slot_shift, CHARS, DATA, ENTRY_VALUE, LEN};
use crate::module::{g, Rt};
use crate::runtime::{self, load32, load_val, StepArg};
use isu_plugin_api::update::Update;
use isu_plugin_api::work::{has_size, size_is_length};
use isu_plugin_api::{RuntimeCode, Type};
use wasm_encoder::{BlockType, ValType};

/// How far the size of a nested value is walked.
#[derive(Debug, Clone, Copy)]
pub enum Upto {
    /// All of it.
    Exact,
    /// No further than past the `i64` in this local (unsigned).
    Local(Local),
}

/// What an in-place update adds to the live size, measured before the call.
#[derive(Debug)]
pub enum Delta {
    /// A constant (a PUSH of an int adds 1, a POP of one takes away 1).
    Const(i64),
    /// The `i64` in this local.
    Local(Local),
    /// A `MAP_SET`: `new` when the key was new (the map's length, in
    /// `len0` before, grew), else `old`.
    Map {
        len0: Local,
        new: Box<Delta>,
        old: Box<Delta>,
    },
}

impl Delta {
    /// Whether [`Lowering::update_done`] reads the update's result (only a
    /// `MAP_SET`'s, for whether its key was new).
    pub fn reads_result(&self) -> bool {
        matches!(self, Delta::Map { .. })
    }
}

impl Lowering<'_> {
    /// With a value of `ty` (which has a size) on the stack, replaces it by
    /// its size (`i64`).
    pub fn size_top(&mut self, ty: &Type, upto: Upto) {
        match ty {
            Type::String => {
                load32(&mut self.a, CHARS);
                self.a.i().i64_extend_i32_u();
            }
            _ if size_is_length(ty) => {
                load32(&mut self.a, LEN);
                self.a.i().i64_extend_i32_u();
            }
            _ => {
                let f = self.mb.rt(Rt::Size(ty.clone()));
                match upto {
                    Upto::Exact => self.a.i64(-1),
                    Upto::Local(l) => self.a.get(l),
                };
                self.a.i().call(f);
            }
        }
    }

    /// Pushes the size (`i64`) of the value of `ty` in `l`, walked exactly;
    /// 0 when `ty` has no size.
    pub fn size_of_local(&mut self, l: Local, ty: &Type) {
        if has_size(ty) {
            self.a.get(l);
            self.size_top(ty, Upto::Exact);
        } else {
            self.a.i64(0);
        }
    }

    /// Adds Δ (the `i64` in `d`) to the live size and to the shadow `sz`,
    /// raising `memory_limit` at `step` first when Δ > 0 and the live size
    /// would pass the limit.
    pub fn mem_add(&mut self, d: Local, sz: Local, step: i32) {
        let live = self.live;
        self.a.get(d).i64(0).i().i64_gt_s();
        self.a.get(live).get(d).i().i64_add();
        self.a.i().global_get(g::MAX_MEMORY).i64_gt_u().i32_and();
        runtime::raise_if(
            self.mb,
            &mut self.a,
            RuntimeCode::MemoryLimit,
            StepArg::Const(step),
        );
        self.a.get(live).get(d).i().i64_add();
        self.a.set(live);
        self.a.get(sz).get(d).i().i64_add();
        self.a.set(sz);
    }

    /// [`Lowering::mem_add`] of the `i64` on the stack.
    pub fn mem_add_top(&mut self, sz: Local, step: i32) {
        let d = self.a.temp(ValType::I64);
        self.a.set(d);
        self.mem_add(d, sz, step);
        self.a.release(d);
    }

    /// [`Lowering::mem_add`] of a constant Δ.
    pub fn mem_add_const(&mut self, k: i64, sz: Local, step: i32) {
        let live = self.live;
        if k == 0 {
            return;
        }
        if k > 0 {
            self.a.get(live).i64(k).i().i64_add();
            self.a.i().global_get(g::MAX_MEMORY).i64_gt_u();
            runtime::raise_if(
                self.mb,
                &mut self.a,
                RuntimeCode::MemoryLimit,
                StepArg::Const(step),
            );
        }
        self.a.get(live).i64(k).i().i64_add();
        self.a.set(live);
        self.a.get(sz).i64(k).i().i64_add();
        self.a.set(sz);
    }

    /// Counts an argument just decoded into the variable `name`.
    pub fn mem_arg(&mut self, name: &str) -> Res<()> {
        let var = self.var(name)?.clone();
        if let Some(sz) = var.size {
            let live = self.live;
            self.a.get(var.local);
            self.size_top(&var.ty, Upto::Exact);
            self.a.tee(sz).get(live).i().i64_add();
            self.a.set(live);
        }
        Ok(())
    }

    /// With the value about to be stored over the whole of the variable
    /// `name` on the stack (left there): checks and counts it at `step`.
    /// Nothing for a variable without a size.
    pub fn mem_hold(&mut self, name: &str, step: i32) -> Res<()> {
        let var = self.var(name)?.clone();
        let Some(sz) = var.size else {
            return Ok(());
        };
        let v = self.a.temp(ValType::I32);
        self.a.tee(v).get(v);
        self.a.release(v);
        if size_is_length(&var.ty) {
            self.size_top(&var.ty, Upto::Exact);
        } else {
            // A nested value is walked no further than past what may be
            // stored: the room left, or the size replaced if larger (a walk
            // cut short then surely passes both, so it fails as the spec
            // says). The interpreter's walk stops past the room alone: when
            // the arguments already pass the limit (room 0), a walk cut
            // short there can come out below the size replaced, and it
            // stores a value that adds; this walk does not.
            let live = self.live;
            let limit = self.a.temp(ValType::I64);
            let others = self.a.temp(ValType::I64);
            self.a.get(live).get(sz).i().i64_sub();
            self.a.set(others);
            // room = max - others, 0 when others > max.
            self.a.i64(0);
            self.a.i().global_get(g::MAX_MEMORY);
            self.a.get(others).i().i64_sub();
            self.a.get(others).i().global_get(g::MAX_MEMORY).i64_gt_u();
            self.a.i().select();
            self.a.tee(limit);
            self.a.get(sz).get(limit).get(sz).i().i64_gt_u().select();
            self.a.set(limit);
            self.size_top(&var.ty, Upto::Local(limit));
            self.a.release(others);
            self.a.release(limit);
        }
        self.a.get(sz).i().i64_sub();
        self.mem_add_top(sz, step);
        Ok(())
    }

    /// Measures, before an in-place update `op` of the collection of type
    /// `ty` in `coll` with the other arguments in `rest`, what it will add
    /// to the live size.
    pub fn update_delta(&mut self, op: Update, ty: &Type, coll: Local, rest: &[Local]) -> Delta {
        match (op, rest) {
            // A PUSH of an int or bool adds one (nothing was kept).
            (Update::Push, _) if !has_size(elem(ty)) => Delta::Const(1),
            (Update::Push, [x]) => {
                let e = elem(ty);
                let d = self.a.temp(ValType::I64);
                self.a.get(*x);
                self.size_top(e, Upto::Exact);
                self.a.i64(1).i().i64_add();
                self.a.set(d);
                Delta::Local(d)
            }
            (Update::Concat, [b]) => {
                let d = self.a.temp(ValType::I64);
                self.a.get(*b);
                self.size_top(ty, Upto::Exact);
                self.a.set(d);
                Delta::Local(d)
            }
            (Update::Pop, _) => {
                let e = elem(ty).clone();
                if !has_size(&e) {
                    // A POP that did not fail removed one element.
                    return Delta::Const(-1);
                }
                // Minus one and the last element's size (nothing when
                // empty: the POP then fails).
                let d = self.a.temp(ValType::I64);
                let i = self.a.temp(ValType::I32);
                self.a.get(coll);
                load32(&mut self.a, LEN);
                self.a.tee(i).i().i32_eqz();
                self.a.if_(BlockType::Result(ValType::I64));
                self.a.i64(0);
                self.a.else_();
                self.a.get(i).i32(1).i().i32_sub();
                self.a.set(i);
                self.a.i64(-1);
                runtime::elem_addr(&mut self.a, coll, i, slot_shift(&e));
                load_val(&mut self.a, &e, DATA);
                self.size_top(&e, Upto::Exact);
                self.a.i().i64_sub();
                self.a.end();
                self.a.set(d);
                self.a.release(i);
                Delta::Local(d)
            }
            (Update::MapSet, [k, v]) => {
                let (kt, vt) = key_value(ty);
                let (kt, vt) = (kt.clone(), vt.clone());
                let len0 = self.a.temp(ValType::I32);
                self.a.get(coll);
                load32(&mut self.a, LEN);
                self.a.set(len0);
                let new = if has_size(&kt) || has_size(&vt) {
                    let d = self.a.temp(ValType::I64);
                    self.size_of_local(*k, &kt);
                    self.size_of_local(*v, &vt);
                    self.a.i().i64_add();
                    self.a.i64(1).i().i64_add();
                    self.a.set(d);
                    Delta::Local(d)
                } else {
                    Delta::Const(1)
                };
                let old = if has_size(&vt) {
                    // The new value's size less the old one's (0 when the
                    // key is new: that case takes `new`).
                    let d = self.a.temp(ValType::I64);
                    let e = self.a.temp(ValType::I32);
                    let find = self.mb.rt(Rt::MapFind(kt.clone()));
                    self.size_of_local(*v, &vt);
                    self.a.get(coll).get(*k).i().call(find);
                    self.a.tee(e).i32(0).i().i32_lt_s();
                    self.a.if_(BlockType::Result(ValType::I64));
                    self.a.i64(0);
                    self.a.else_();
                    runtime::elem_addr(&mut self.a, coll, e, 4);
                    load_val(&mut self.a, &vt, DATA + ENTRY_VALUE);
                    self.size_top(&vt, Upto::Exact);
                    self.a.end();
                    self.a.i().i64_sub();
                    self.a.set(d);
                    self.a.release(e);
                    Delta::Local(d)
                } else {
                    Delta::Const(0)
                };
                Delta::Map {
                    len0,
                    new: Box::new(new),
                    old: Box::new(old),
                }
            }
            _ => Delta::Const(0),
        }
    }

    /// After an in-place update (or a map insert) whose result is in `res`:
    /// checks and counts what [`Lowering::update_delta`] measured, at `step`,
    /// in the shadow `sz`; frees its scratch locals.
    pub fn update_done(&mut self, d: Delta, res: Local, sz: Local, step: i32) {
        match d {
            Delta::Const(k) => self.mem_add_const(k, sz, step),
            Delta::Local(l) => {
                self.mem_add(l, sz, step);
                self.a.release(l);
            }
            Delta::Map { len0, new, old } => {
                match (&*new, &*old) {
                    (Delta::Const(1), Delta::Const(0)) => {
                        self.grew(res, len0);
                        self.a.i().i64_extend_i32_u();
                    }
                    _ => {
                        for part in [&*new, &*old] {
                            match part {
                                Delta::Const(k) => {
                                    self.a.i64(*k);
                                }
                                Delta::Local(l) => {
                                    self.a.get(*l);
                                }
                                Delta::Map { .. } => {
                                    self.a.i64(0);
                                }
                            }
                        }
                        self.grew(res, len0);
                        self.a.i().select();
                    }
                }
                self.mem_add_top(sz, step);
                for part in [*new, *old] {
                    if let Delta::Local(l) = part {
                        self.a.release(l);
                    }
                }
                self.a.release(len0);
            }
        }
    }

    /// Pushes whether the map in `res` is longer than `len0` (`i32`).
    fn grew(&mut self, res: Local, len0: Local) {
        self.a.get(res);
        load32(&mut self.a, LEN);
        self.a.get(len0).i().i32_ne();
    }
}
