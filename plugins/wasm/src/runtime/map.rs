//! Maps: entries sorted by key, found by binary search, so that iteration
//! (`MAP_KEYS`) is in ascending key order with no extra work.
//!
//! A search remembers the entry it found (`g::MAP_HINT`, `g::MAP_HINT_AT`),
//! and the next search of the same map first compares its key with that
//! entry's: an update of one key (`m[k] = MAP_GET_OR(m, k, 0) + 1`, a read
//! then a store) searches once and compares once. The hint is only a guess:
//! it is trusted when the entry at that index of the map holds exactly the
//! key, which, keys being unique, is the entry the search would find,
//! whatever happened to the map since.

use super::rc::emit_drop;
use super::{check_size, elem_addr, for_range_mb, load32, load64, load_val, raise_if, store32};
use super::{store_val, StepArg, I32};
use crate::asm::{Asm, Local};
use crate::layout::{is_heap, key_value, slot_shift, DATA, ENTRY_VALUE, LEN};
use crate::module::{g, ModuleBuilder, Rt};
use isu_plugin_api::RuntimeCode;
use isu_plugin_api::Type;
use wasm_encoder::BlockType;

/// Pushes -1, 0 or 1 as the key of entry `i` of `m` compares with `k`.
fn cmp_key(mb: &mut ModuleBuilder, a: &mut Asm, kt: &Type, m: Local, i: Local, k: Local) {
    match kt {
        Type::Int => {
            let e = a.temp(wasm_encoder::ValType::I64);
            elem_addr(a, m, i, 4);
            load64(a, DATA);
            a.set(e);
            a.get(e).get(k).i().i64_gt_s();
            a.get(e).get(k).i().i64_lt_s().i32_sub();
            a.release(e);
        }
        _ => {
            let f = mb.rt(Rt::StrCmp);
            elem_addr(a, m, i, 4);
            load32(a, DATA);
            a.get(k).i().call(f);
        }
    }
}

/// `find(m, k) -> i`: the entry's index, or `-(insertion point) - 1`.
pub fn find(mb: &mut ModuleBuilder, a: &mut Asm, kt: &Type) {
    let m = a.param(0);
    let k = a.param(1);
    let lo = a.local(I32);
    let hi = a.local(I32);
    let mid = a.local(I32);
    let c = a.local(I32);
    a.get(m);
    load32(a, LEN);
    a.set(hi);
    // The hint, when it names this map and an entry of it with the key.
    a.i().global_get(g::MAP_HINT);
    a.get(m).i().i32_eq();
    a.if_(BlockType::Empty);
    a.i().global_get(g::MAP_HINT_AT);
    a.set(mid);
    a.get(mid).get(hi).i().i32_lt_u();
    a.if_(BlockType::Empty);
    cmp_key(mb, a, kt, m, mid, k);
    a.i().i32_eqz();
    a.if_(BlockType::Empty);
    a.get(mid).i().return_();
    a.end();
    a.end();
    a.end();
    a.i32(0).set(lo);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(lo).get(hi).i().i32_ge_u();
    a.br_if(exit);
    a.get(lo).get(hi).i().i32_add().i32_const(1).i32_shr_u();
    a.set(mid);
    cmp_key(mb, a, kt, m, mid, k);
    a.tee(c).i().i32_eqz();
    a.if_(BlockType::Empty);
    a.get(m).i().global_set(g::MAP_HINT);
    a.get(mid).i().global_set(g::MAP_HINT_AT);
    a.get(mid).i().return_();
    a.end();
    a.get(c).i32(0).i().i32_lt_s();
    a.if_(BlockType::Empty);
    a.get(mid).i32(1).i().i32_add();
    a.set(lo);
    a.else_();
    a.get(mid).set(hi);
    a.end();
    a.br(top);
    a.end();
    a.end();
    a.i32(-1).get(lo).i().i32_sub();
}

/// `get(m, k, step) -> v` (borrowed from the map).
pub fn get(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let (kt, vt) = key_value(ty);
    let m = a.param(0);
    let k = a.param(1);
    let step = a.param(2);
    let i = a.local(I32);
    let find = mb.rt(Rt::MapFind(kt.clone()));
    a.get(m).get(k).i().call(find);
    a.tee(i).i32(0).i().i32_lt_s();
    raise_if(mb, a, RuntimeCode::MissingKey, StepArg::Local(step));
    elem_addr(a, m, i, 4);
    load_val(a, vt, DATA + ENTRY_VALUE);
}

/// `get_or(m, k, d) -> v` (borrowed from the map or the default).
pub fn get_or(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let (kt, vt) = key_value(ty);
    let m = a.param(0);
    let k = a.param(1);
    let d = a.param(2);
    let i = a.local(I32);
    let find = mb.rt(Rt::MapFind(kt.clone()));
    a.get(m).get(k).i().call(find);
    a.tee(i).i32(0).i().i32_lt_s();
    a.if_(BlockType::Empty);
    a.get(d).i().return_();
    a.end();
    elem_addr(a, m, i, 4);
    load_val(a, vt, DATA + ENTRY_VALUE);
}

/// `set(m, k, v, step) -> m'`: consumes all three; inserts or replaces.
pub fn set(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let (kt, vt) = key_value(ty);
    let m = a.param(0);
    let k = a.param(1);
    let v = a.param(2);
    let step = a.param(3);
    let i = a.local(I32);
    let len = a.local(I32);
    let at = a.local(I32);
    let find = mb.rt(Rt::MapFind(kt.clone()));
    let grow = mb.rt(Rt::Grow(ty.clone()));
    a.get(m).get(k).i().call(find);
    a.tee(i).i32(0).i().i32_ge_s();
    a.if_(BlockType::Empty);
    {
        a.get(m).i32(0).i().call(grow);
        a.set(m);
        elem_addr(a, m, i, 4);
        a.set(at);
        if is_heap(vt) {
            a.get(at);
            load32(a, DATA + ENTRY_VALUE);
            emit_drop(mb, a, vt);
        }
        a.get(at).get(v);
        store_val(a, vt, DATA + ENTRY_VALUE);
        if is_heap(kt) {
            a.get(k);
            emit_drop(mb, a, kt);
        }
        a.get(m).i().return_();
    }
    a.end();
    a.i32(-1).get(i).i().i32_sub();
    a.set(i);
    a.get(m);
    load32(a, LEN);
    a.tee(len).i32(1).i().i32_add().i64_extend_i32_u();
    check_size(mb, a, StepArg::Local(step));
    a.get(m).i32(1).i().call(grow);
    a.set(m);
    elem_addr(a, m, i, 4);
    a.set(at);
    // Shift the entries from i up by one.
    a.get(at).i32(DATA as i32 + 16).i().i32_add();
    a.get(at).i32(DATA as i32).i().i32_add();
    a.get(len)
        .get(i)
        .i()
        .i32_sub()
        .i32_const(4)
        .i32_shl()
        .memory_copy(0, 0);
    a.get(at).get(k);
    store_val(a, kt, DATA);
    a.get(at).get(v);
    store_val(a, vt, DATA + ENTRY_VALUE);
    a.get(m).get(len).i32(1).i().i32_add();
    store32(a, LEN);
    a.get(m);
}

/// `keys(m) -> K[]`, ascending.
pub fn keys(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let (kt, _) = key_value(ty);
    let m = a.param(0);
    let q = a.local(I32);
    let n = a.local(I32);
    let i = a.local(I32);
    let arr_new = mb.rt(Rt::ArrNew(slot_shift(kt)));
    let inc = mb.rt(Rt::Inc);
    a.get(m);
    load32(a, LEN);
    a.tee(n).i().call(arr_new);
    a.set(q);
    let kt = kt.clone();
    for_range_mb(mb, a, i, n, |_, a| {
        elem_addr(a, q, i, slot_shift(&kt));
        elem_addr(a, m, i, 4);
        load_val(a, &kt, DATA);
        if is_heap(&kt) {
            a.i().call(inc);
        }
        store_val(a, &kt, DATA);
    });
    a.get(q).get(n);
    store32(a, LEN);
    a.get(q);
}
