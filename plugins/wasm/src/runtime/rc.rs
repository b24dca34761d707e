//! Reference counting with copy-on-write: `inc`, `drop` (which frees an
//! object and drops what it holds when the last reference goes), `grow`
//! (a unique object with room for more, copied only when shared), and deep
//! equality.

use super::{elem_addr, for_range_mb, load32, load_val, store32, I32};
use crate::asm::{Asm, Local};
use crate::layout::{is_heap, CAP, CHARS, DATA, ENTRY_VALUE, LEN, RC};
use crate::module::{ModuleBuilder, Rt};
use isu_plugin_api::Type;
use wasm_encoder::BlockType;

/// `inc(p) -> p`: one more reference (none for null or immortal objects).
pub fn inc(a: &mut Asm) {
    let p = a.param(0);
    let rc = a.local(I32);
    a.get(p);
    a.if_(BlockType::Empty);
    a.get(p);
    load32(a, RC);
    a.tee(rc).i32(0).i().i32_ge_s();
    a.if_(BlockType::Empty);
    a.get(p).get(rc).i32(1).i().i32_add();
    store32(a, RC);
    a.end();
    a.end();
    a.get(p);
}

/// Turns the heap value of `ty` on the stack into an owned one (`inc`);
/// nothing for ints and bools.
pub fn emit_inc(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    if is_heap(ty) {
        let f = mb.rt(Rt::Inc);
        a.i().call(f);
    }
}

/// Drops the value of `ty` on the stack (pops it).
pub fn emit_drop(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    if is_heap(ty) {
        let f = mb.rt(Rt::Drop(ty.clone()));
        a.i().call(f);
    } else {
        a.i().drop();
    }
}

/// `drop(p)`: one reference less; at the last, what it holds is dropped and
/// the object freed.
pub fn drop(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let p = a.param(0);
    let rc = a.local(I32);
    a.get(p).i().i32_eqz();
    a.if_(BlockType::Empty);
    a.i().return_();
    a.end();
    a.get(p);
    load32(a, RC);
    a.tee(rc).i32(0).i().i32_lt_s();
    a.if_(BlockType::Empty);
    a.i().return_();
    a.end();
    a.get(rc).i32(1).i().i32_gt_s();
    a.if_(BlockType::Empty);
    a.get(p).get(rc).i32(1).i().i32_sub();
    store32(a, RC);
    a.i().return_();
    a.end();
    drop_children(mb, a, ty, p);
    let free = mb.rt(Rt::Free);
    a.get(p).i().call(free);
}

/// Drops every value an array, map or struct at `p` holds.
fn drop_children(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type, p: Local) {
    match ty {
        Type::Struct(_) => super::record::drop_fields(mb, a, ty, p),
        Type::Array(e) if is_heap(e) => {
            let i = a.local(I32);
            let n = a.local(I32);
            a.get(p);
            load32(a, LEN);
            a.set(n);
            let e = (**e).clone();
            for_range_mb(mb, a, i, n, |mb, a| {
                elem_addr(a, p, i, 2);
                load32(a, DATA);
                emit_drop(mb, a, &e);
            });
        }
        Type::Map(k, v) if is_heap(k) || is_heap(v) => {
            let i = a.local(I32);
            let n = a.local(I32);
            a.get(p);
            load32(a, LEN);
            a.set(n);
            let (k, v) = ((**k).clone(), (**v).clone());
            for_range_mb(mb, a, i, n, |mb, a| {
                if is_heap(&k) {
                    elem_addr(a, p, i, 4);
                    load32(a, DATA);
                    emit_drop(mb, a, &k);
                }
                if is_heap(&v) {
                    elem_addr(a, p, i, 4);
                    load32(a, DATA + ENTRY_VALUE);
                    emit_drop(mb, a, &v);
                }
            });
        }
        _ => {}
    }
}

/// Adds a reference to every value an array or map at `p` holds.
fn inc_children(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type, p: Local) {
    let inc = mb.rt(Rt::Inc);
    match ty {
        Type::Array(e) if is_heap(e) => {
            let i = a.local(I32);
            let n = a.local(I32);
            a.get(p);
            load32(a, LEN);
            a.set(n);
            for_range_mb(mb, a, i, n, |_, a| {
                elem_addr(a, p, i, 2);
                load32(a, DATA);
                a.i().call(inc).drop();
            });
        }
        Type::Map(k, v) if is_heap(k) || is_heap(v) => {
            let i = a.local(I32);
            let n = a.local(I32);
            a.get(p);
            load32(a, LEN);
            a.set(n);
            let (hk, hv) = (is_heap(k), is_heap(v));
            for_range_mb(mb, a, i, n, |_, a| {
                if hk {
                    elem_addr(a, p, i, 4);
                    load32(a, DATA);
                    a.i().call(inc).drop();
                }
                if hv {
                    elem_addr(a, p, i, 4);
                    load32(a, DATA + ENTRY_VALUE);
                    a.i().call(inc).drop();
                }
            });
        }
        _ => {}
    }
}

/// log2 of the bytes of one unit of capacity: a string byte, an array slot,
/// a map entry.
pub fn unit_shift(ty: &Type) -> i32 {
    match ty {
        Type::Array(e) => crate::layout::slot_shift(e),
        Type::Map(..) => 4,
        _ => 0,
    }
}

/// A new object of `ty`'s kind with room for the capacity in local `cap`,
/// length 0, on the stack.
pub fn new_object(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type, cap: Local) {
    match ty {
        Type::Array(_) => {
            let f = mb.rt(Rt::ArrNew(crate::layout::slot_shift(crate::layout::elem(
                ty,
            ))));
            a.get(cap).i().call(f);
        }
        Type::Map(..) => {
            let f = mb.rt(Rt::MapNew);
            a.get(cap).i().call(f);
        }
        _ => {
            let f = mb.rt(Rt::StrNew);
            a.get(cap).i32(0).i().call(f);
            let q = a.temp(I32);
            a.tee(q).i32(0);
            store32(a, LEN);
            a.get(q);
            a.release(q);
        }
    }
}

/// `grow(p, extra) -> q`: an object equal to `p` that only this reference
/// holds, with capacity for `extra` more units. Consumes `p`.
pub fn grow(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let p = a.param(0);
    let extra = a.param(1);
    let len = a.local(I32);
    let need = a.local(I32);
    let cap = a.local(I32);
    let newcap = a.local(I32);
    let q = a.local(I32);
    let shift = unit_shift(ty);
    a.get(p);
    load32(a, LEN);
    a.tee(len).get(extra).i().i32_add();
    a.set(need);
    a.get(p);
    load32(a, CAP);
    a.set(cap);
    a.get(p);
    load32(a, RC);
    a.i32(1).i().i32_eq();
    a.if_(BlockType::Empty);
    {
        a.get(cap).get(need).i().i32_ge_u();
        a.if_(BlockType::Empty);
        a.get(p).i().return_();
        a.end();
        // Doubling keeps appends amortized O(1).
        a.get(cap).i32(1).i().i32_shl();
        a.set(newcap);
    }
    a.else_();
    a.i32(0).set(newcap);
    a.end();
    a.get(newcap)
        .get(need)
        .get(newcap)
        .get(need)
        .i()
        .i32_gt_u()
        .select();
    a.tee(newcap)
        .i32(4)
        .get(newcap)
        .i32(4)
        .i()
        .i32_gt_u()
        .select();
    a.set(newcap);
    new_object(mb, a, ty, newcap);
    a.set(q);
    a.get(q).i32(DATA as i32).i().i32_add();
    a.get(p).i32(DATA as i32).i().i32_add();
    a.get(len).i32(shift).i().i32_shl();
    a.i();
    super::emit_copy(mb, a);
    a.get(q).get(len);
    store32(a, LEN);
    if matches!(ty, Type::String) {
        a.get(q).get(p);
        load32(a, CHARS);
        store32(a, CHARS);
    }
    a.get(p);
    load32(a, RC);
    a.i32(1).i().i32_eq();
    a.if_(BlockType::Empty);
    {
        // The only reference moves: what it held now belongs to q.
        let free = mb.rt(Rt::Free);
        a.get(p).i().call(free);
    }
    a.else_();
    {
        inc_children(mb, a, ty, q);
        let d = mb.rt(Rt::Drop(ty.clone()));
        a.get(p).i().call(d);
    }
    a.end();
    a.get(q);
}

/// Compares the two values of `ty` on the stack: pushes 1 when equal.
pub fn emit_eq(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    match ty {
        Type::Int => {
            a.i().i64_eq();
        }
        // By value: -0.0 equals 0.0.
        Type::Float => {
            a.i().f64_eq();
        }
        Type::Bool => {
            a.i().i32_eq();
        }
        Type::String => {
            let f = mb.rt(Rt::StrEq);
            a.i().call(f);
        }
        _ => {
            let f = mb.rt(Rt::Eq(ty.clone()));
            a.i().call(f);
        }
    }
}

/// `eq(a, b) -> i32` for arrays and maps (strings use `StrEq`, structs
/// `record::eq`).
pub fn eq(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let x = a.param(0);
    let y = a.param(1);
    if matches!(ty, Type::String) {
        let f = mb.rt(Rt::StrEq);
        a.get(x).get(y).i().call(f);
        return;
    }
    let i = a.local(I32);
    let n = a.local(I32);
    a.get(x).get(y).i().i32_eq();
    a.if_(BlockType::Empty);
    a.i32(1).i().return_();
    a.end();
    a.get(x);
    load32(a, LEN);
    a.tee(n).get(y);
    load32(a, LEN);
    a.i().i32_ne();
    a.if_(BlockType::Empty);
    a.i32(0).i().return_();
    a.end();
    let parts: Vec<(Type, u64, i32)> = match ty {
        Type::Array(e) => vec![((**e).clone(), DATA, crate::layout::slot_shift(e))],
        Type::Map(k, v) => vec![
            ((**k).clone(), DATA, 4),
            ((**v).clone(), DATA + ENTRY_VALUE, 4),
        ],
        _ => Vec::new(),
    };
    for_range_mb(mb, a, i, n, |mb, a| {
        for (t, off, shift) in &parts {
            elem_addr(a, x, i, *shift);
            load_val(a, t, *off);
            elem_addr(a, y, i, *shift);
            load_val(a, t, *off);
            emit_eq(mb, a, t);
            a.i().i32_eqz();
            a.if_(BlockType::Empty);
            a.i32(0).i().return_();
            a.end();
        }
    });
    a.i32(1);
}
