//! `ASSIGN` to an element or field place, `(index ... (field (index x k1)
//! f) ... kn)`: first the keys, from the variable outward, each checked (an
//! array index must be in range; a map key must be present, except at the
//! last level of a plain store, which inserts; a field level has no key and
//! cannot fail; a level by a string key spends the key's size right after
//! its check, or, at the last level of a plain store, right after the key);
//! then EXPR; then the store, which makes every level on the
//! way unique (copying what is shared) and writes in place. When EXPR is
//! `(call PUSH|POP|MAP_SET|CONCAT P ...)` of the place `P` itself, the
//! element moves into the call and its result back into the slot.

use super::memory::Upto;
use super::work::{self, Work};
use super::{bug, ty_of, Lowering, Own, Res};
use crate::asm::Local;
use crate::layout::{field_offset, is_heap, key_value, slot_shift, DATA, ENTRY_VALUE, RC};
use crate::module::Rt;
use crate::runtime::{self, load32, load_val, store_val};
use isu_plugin_api::update::{in_place, Update};
use isu_plugin_api::work::has_size;
use isu_plugin_api::RuntimeCode;
use isu_plugin_api::{Builtin, Expr, Place, Type};
use wasm_encoder::{BlockType, ValType};

/// One segment of a place's path, from the variable outward: an index or
/// key (with the place of its container), or a field's name.
enum Seg<'p> {
    Key(&'p Place, &'p Expr),
    Field(&'p str),
}

/// How one level of the path reaches its value in its container.
enum Key {
    /// An array index (`i32`) in this local.
    Index(Local),
    /// A map key in `key` (owned or borrowed), and the local holding the
    /// entry's index once it was found (not at the last level of a plain
    /// store, which inserts or replaces).
    Map {
        key: Local,
        own: Own,
        entry: Option<Local>,
    },
    /// The field of this position (declaration order).
    Field(usize),
}

/// One level of the path: the container's type, the type of the value in
/// it, and how that value is reached.
struct Level {
    ty: Type,
    child: Type,
    key: Key,
}

/// The variable of a place, and its segments from the variable outward.
fn flatten<'p>(p: &'p Place, out: &mut Vec<Seg<'p>>) -> &'p str {
    match p {
        Place::Var { name, .. } => name,
        Place::Index { base, index, .. } => {
            let root = flatten(base, out);
            out.push(Seg::Key(base, index));
            root
        }
        Place::Field { base, field, .. } => {
            let root = flatten(base, out);
            out.push(Seg::Field(&field.name));
            root
        }
    }
}

impl Lowering<'_> {
    pub fn assign_place(&mut self, target: &Place, expr: &Expr, step: i32) -> Res<()> {
        let mut segs = Vec::new();
        let root = flatten(target, &mut segs);
        let var = self.var(root)?.clone();
        let update = in_place(target, expr).map(|u| (u.op, u.rest));
        let n = segs.len();

        // 1. The keys, checked level by level.
        let cur = self.a.local(ValType::I32);
        self.read_var(root, step)?;
        self.a.set(cur);
        let mut ty = var.ty.clone();
        let mut levels: Vec<Level> = Vec::with_capacity(n);
        for (j, seg) in segs.iter().enumerate() {
            let last = j + 1 == n;
            let level = match (seg, &ty) {
                (&Seg::Key(container, k), Type::Array(e)) => {
                    let e = (**e).clone();
                    let key = self.a.local(ValType::I32);
                    let wide = self.a.temp(ValType::I64);
                    let hoisted = match container {
                        Place::Var { name, .. } => self.hoisted_index(name, k),
                        _ => None,
                    };
                    match hoisted {
                        Some(c) => self.hoisted_value(c)?,
                        None => {
                            self.expr(k, step)?;
                        }
                    }
                    let proven =
                        hoisted.is_some() || self.env.target_in_bounds(container, k, &self.decls);
                    self.keep_index(wide, cur, proven, step);
                    self.a.get(wide).i().i32_wrap_i64();
                    self.a.set(key);
                    self.a.release(wide);
                    if !last {
                        runtime::elem_addr(&mut self.a, cur, key, slot_shift(&e));
                        load_val(&mut self.a, &e, DATA);
                        self.a.set(cur);
                    }
                    Level {
                        ty: ty.clone(),
                        child: e,
                        key: Key::Index(key),
                    }
                }
                (&Seg::Key(_, k), Type::Map(kt, vt)) => {
                    let (kt, vt) = ((**kt).clone(), (**vt).clone());
                    let key = self.a.local(crate::layout::val_type(&kt));
                    let own = self.expr(k, step)?;
                    // A string key spends its size, as MAP_GET's does: measured
                    // now, spent right after this level's check.
                    let mut w = work::plan(Builtin::MapGet, false, &[&ty, &kt], &vt);
                    self.work_arg(&mut w, 1, k);
                    self.a.set(key);
                    let mut entry = None;
                    if !last || update.is_some() {
                        let e = self.a.local(ValType::I32);
                        let find = self.mb.rt(Rt::MapFind(kt.clone()));
                        self.a.get(cur).get(key).i().call(find);
                        self.a.tee(e).i32(0).i().i32_lt_s();
                        self.raise_if(RuntimeCode::MissingKey, step);
                        if !last {
                            runtime::elem_addr(&mut self.a, cur, e, 4);
                            load_val(&mut self.a, &vt, DATA + ENTRY_VALUE);
                            self.a.set(cur);
                        }
                        entry = Some(e);
                    }
                    self.work_spend(w, step);
                    Level {
                        ty: ty.clone(),
                        child: vt,
                        key: Key::Map { key, own, entry },
                    }
                }
                (Seg::Field(name), Type::Struct(_)) => {
                    let Some((i, fty)) = self.mb.structs.field(&ty, name) else {
                        return bug(format!("{ty} has no field {name}"));
                    };
                    let fty = fty.clone();
                    if !last {
                        if !is_heap(&fty) {
                            return bug(format!("a target goes into the field {name} of {ty}"));
                        }
                        self.a.get(cur);
                        load_val(&mut self.a, &fty, field_offset(i));
                        self.a.set(cur);
                    }
                    Level {
                        ty: ty.clone(),
                        child: fty,
                        key: Key::Field(i),
                    }
                }
                (_, other) => {
                    return bug(format!("a target place goes into a value of type {other}"))
                }
            };
            ty = level.child.clone();
            levels.push(level);
        }
        let leaf_ty = ty;

        // 2. EXPR, or the other arguments of the in-place call.
        let value = self.a.local(crate::layout::val_type(&leaf_ty));
        let mut rest_locals = Vec::new();
        let mut w = Work::none();
        match update {
            None => {
                let own = self.expr(expr, step)?;
                if work::assign_copies(target, expr) {
                    // The copy's length, before anything is stored.
                    self.work_copy(expr, step);
                }
                self.own(own, ty_of(expr)?);
                self.a.set(value);
            }
            Some((op, rest)) => {
                // The call's work, spent once it succeeded (in place: not
                // the element's length).
                let mut tys = vec![&leaf_ty];
                tys.extend(work::arg_types(rest)?);
                w = work::plan(op.builtin(), true, &tys, &leaf_ty);
                // Evaluated now, in order; passed after the place is unique.
                for (i, r) in rest.iter().enumerate() {
                    let rty = ty_of(r)?.clone();
                    let l = self.a.local(crate::layout::val_type(&rty));
                    let own = self.expr(r, step)?;
                    self.work_arg(&mut w, i + 1, r);
                    let consumed = !(op == Update::Concat && i == 0);
                    if consumed {
                        self.own(own, &rty);
                    }
                    self.a.set(l);
                    let drop_after = !consumed && own == Own::Owned && is_heap(&rty);
                    rest_locals.push((l, rty, drop_after));
                }
            }
        }

        // 3. The store: unique containers all the way down.
        // (The common case, an unshared container, is checked inline; not
        // at all where a loop made the variable's value its own.)
        if !self.owned.iter().any(|o| o == root) {
            self.make_own(var.local, &var.ty);
        }
        self.a.get(var.local).set(cur);
        // Where the current container is held: the variable, or a slot (its
        // container's address and the slot's offset from it).
        let mut holder: Option<(Local, u64)> = None;
        for (j, lv) in levels.iter().enumerate() {
            let last = j + 1 == n;
            let addr = self.a.local(ValType::I32);
            let child_ty = lv.child.clone();
            let value_off = match &lv.key {
                Key::Index(k) => {
                    runtime::elem_addr(&mut self.a, cur, *k, slot_shift(&child_ty));
                    DATA
                }
                Key::Map { entry, .. } => {
                    match entry {
                        Some(e) => runtime::elem_addr(&mut self.a, cur, *e, 4),
                        None => {
                            self.a.i32(0);
                        }
                    }
                    DATA + ENTRY_VALUE
                }
                Key::Field(i) => {
                    self.a.get(cur);
                    field_offset(*i)
                }
            };
            self.a.set(addr);
            if !last {
                let g = self.mb.rt(Rt::Grow(child_ty.clone()));
                self.a.get(addr);
                load_val(&mut self.a, &child_ty, value_off);
                self.a.tee(cur);
                load32(&mut self.a, RC);
                self.a.i32(1).i().i32_ne();
                self.a.if_(BlockType::Empty);
                self.a.get(addr);
                self.a.get(cur).i32(0).i().call(g);
                self.a.tee(cur);
                store_val(&mut self.a, &child_ty, value_off);
                self.a.end();
                holder = Some((addr, value_off));
                continue;
            }
            match (&update, &lv.key) {
                (None, Key::Index(_) | Key::Field(_)) => {
                    if let (Some(sz), true) = (var.size, has_size(&child_ty)) {
                        // The new element's size less the old one's.
                        self.size_of_local(value, &child_ty);
                        self.a.get(addr);
                        load_val(&mut self.a, &child_ty, value_off);
                        self.size_top(&child_ty, Upto::Exact);
                        self.a.i().i64_sub();
                        self.mem_add_top(sz, step);
                    }
                    if is_heap(&child_ty) {
                        self.a.get(addr);
                        load_val(&mut self.a, &child_ty, value_off);
                        runtime::emit_drop(self.mb, &mut self.a, &child_ty);
                    }
                    self.a.get(addr).get(value);
                    store_val(&mut self.a, &child_ty, value_off);
                }
                (None, Key::Map { key, own, .. }) => {
                    // Insert or replace; the map may move, so its holder is rewritten.
                    let set = self.mb.rt(Rt::MapSet(lv.ty.clone()));
                    let (kt, _) = key_value(&lv.ty);
                    let kt = kt.clone();
                    // What the insert adds, measured before it.
                    let delta = var
                        .size
                        .map(|_| self.update_delta(Update::MapSet, &lv.ty, cur, &[*key, value]));
                    if let Some((h, _)) = holder {
                        self.a.get(h);
                    }
                    self.a.get(cur).get(*key);
                    // MAP_SET takes a key of its own (an owned one is handed on).
                    if *own == Own::Borrowed {
                        runtime::emit_inc(self.mb, &mut self.a, &kt);
                    }
                    self.a.get(value).i32(step).i().call(set);
                    let res = self.a.temp(ValType::I32);
                    self.a.tee(res);
                    match holder {
                        Some((_, off)) => {
                            self.a.i().i32_store(crate::asm::mem(off, 2));
                        }
                        None => {
                            self.a.set(var.local);
                        }
                    }
                    if let (Some(d), Some(sz)) = (delta, var.size) {
                        self.update_done(d, res, sz, step);
                    }
                    self.a.release(res);
                }
                (Some((op, _)), _) => {
                    // What the update adds, measured before it.
                    let delta = match var.size {
                        Some(_) => {
                            let elt = self.a.temp(crate::layout::val_type(&child_ty));
                            self.a.get(addr);
                            load_val(&mut self.a, &child_ty, value_off);
                            self.a.set(elt);
                            let rest: Vec<Local> = rest_locals.iter().map(|r| r.0).collect();
                            let d = self.update_delta(*op, &child_ty, elt, &rest);
                            self.a.release(elt);
                            Some(d)
                        }
                        None => None,
                    };
                    // The element moves into the call; the result goes back.
                    self.a.get(addr);
                    self.a.get(addr);
                    load_val(&mut self.a, &child_ty, value_off);
                    for (l, _, _) in &rest_locals {
                        self.a.get(*l);
                    }
                    self.call_update(*op, &child_ty, step);
                    let res = self.a.temp(crate::layout::val_type(&child_ty));
                    if delta.as_ref().is_some_and(|d| d.reads_result()) {
                        self.a.tee(res);
                    }
                    store_val(&mut self.a, &child_ty, value_off);
                    self.work_spend(std::mem::replace(&mut w, Work::none()), step);
                    if let (Some(d), Some(sz)) = (delta, var.size) {
                        self.update_done(d, res, sz, step);
                    }
                    self.a.release(res);
                }
            }
        }
        for (l, rty, drop_after) in rest_locals {
            if drop_after {
                self.a.get(l);
                runtime::emit_drop(self.mb, &mut self.a, &rty);
            }
        }
        // Keys of maps that were owned temporaries and not handed on.
        for (j, lv) in levels.iter().enumerate() {
            let Key::Map { key, own, .. } = &lv.key else {
                continue;
            };
            let handed_on = j + 1 == n && update.is_none();
            if *own == Own::Owned && !handed_on {
                let (kt, _) = key_value(&lv.ty);
                let kt = kt.clone();
                self.a.get(*key);
                runtime::emit_drop(self.mb, &mut self.a, &kt);
            }
        }
        Ok(())
    }

    /// Calls the in-place function `op` on a collection of type `ty` whose
    /// arguments are on the stack (already owned as the function takes them).
    fn call_update(&mut self, op: Update, ty: &Type, step: i32) {
        let f = match op {
            Update::Push => self.mb.rt(Rt::Push(ty.clone())),
            Update::Pop => self.mb.rt(Rt::Pop(ty.clone())),
            Update::MapSet => self.mb.rt(Rt::MapSet(ty.clone())),
            Update::Concat => match ty {
                Type::String => self.mb.rt(Rt::ConcatStr),
                _ => self.mb.rt(Rt::ConcatArr(ty.clone())),
            },
        };
        self.a.i32(step).i().call(f);
    }
}
