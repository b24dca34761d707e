//! Arrays: a header and 8-byte slots. Functions that take an array by value
//! (`push`, `pop`, `concat`'s first argument) consume it and update it in
//! place when theirs is the only reference.

use super::alloc::usable;
use super::rc::emit_drop;
use super::{check_size, elem_addr, for_range_mb, load32, raise_if, store32, store_val};
use super::{StepArg, I32};
use crate::abi::ErrorCode;
use crate::asm::Asm;
use crate::layout::{elem, is_heap, slot_shift, CAP, DATA, LEN, RC};
use crate::module::{ModuleBuilder, Rt};
use isu_plugin_api::RuntimeCode;
use isu_plugin_api::Type;
use wasm_encoder::BlockType;

/// The most bytes of slots one array may have (1 GiB).
const MAX_BYTES: i32 = 0x4000_0000;

/// `arr_new(cap) -> xs`: an empty array with room for `cap` elements of
/// `1 << shift` bytes.
pub fn arr_new(mb: &mut ModuleBuilder, a: &mut Asm, shift: i32) {
    new_with_unit(mb, a, shift);
}

/// `map_new(cap) -> m`: an empty map with room for `cap` entries.
pub fn map_new(mb: &mut ModuleBuilder, a: &mut Asm) {
    new_with_unit(mb, a, 4);
}

fn new_with_unit(mb: &mut ModuleBuilder, a: &mut Asm, shift: i32) {
    let cap = a.param(0);
    let p = a.local(I32);
    a.get(cap).i32(MAX_BYTES >> shift).i().i32_gt_u();
    raise_if(mb, a, ErrorCode::OutOfMemory, StepArg::Const(-1));
    let alloc = mb.rt(Rt::Alloc);
    a.get(cap)
        .i32(shift)
        .i()
        .i32_shl()
        .i32_const(DATA as i32)
        .i32_add()
        .call(alloc);
    a.set(p);
    a.get(p).i32(1);
    store32(a, RC);
    a.get(p);
    usable(a, p);
    a.i32(DATA as i32)
        .i()
        .i32_sub()
        .i32_const(shift)
        .i32_shr_u();
    store32(a, CAP);
    a.get(p).i32(0);
    store32(a, LEN);
    a.get(p);
}

/// `push(xs, v, step) -> xs'`: consumes both.
pub fn push(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let xs = a.param(0);
    let v = a.param(1);
    let step = a.param(2);
    let len = a.local(I32);
    a.get(xs);
    load32(a, LEN);
    a.tee(len).i32(1).i().i32_add().i64_extend_i32_u();
    check_size(mb, a, StepArg::Local(step));
    // Grow only when shared or full.
    let grow = mb.rt(Rt::Grow(ty.clone()));
    a.get(xs);
    load32(a, RC);
    a.i32(1).i().i32_ne();
    a.get(xs);
    load32(a, CAP);
    a.get(len).i().i32_le_u().i32_or();
    a.if_(BlockType::Empty);
    a.get(xs).i32(1).i().call(grow);
    a.set(xs);
    a.end();
    elem_addr(a, xs, len, slot_shift(elem(ty)));
    a.get(v);
    store_val(a, elem(ty), DATA);
    a.get(xs).get(len).i32(1).i().i32_add();
    store32(a, LEN);
    a.get(xs);
}

/// `pop(xs, step) -> xs'`: consumes `xs`.
pub fn pop(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let xs = a.param(0);
    let step = a.param(1);
    let len = a.local(I32);
    a.get(xs);
    load32(a, LEN);
    a.tee(len).i().i32_eqz();
    raise_if(mb, a, RuntimeCode::EmptyCollection, StepArg::Local(step));
    let grow = mb.rt(Rt::Grow(ty.clone()));
    a.get(xs).i32(0).i().call(grow);
    a.set(xs);
    a.get(len).i32(1).i().i32_sub();
    a.set(len);
    if is_heap(elem(ty)) {
        elem_addr(a, xs, len, slot_shift(elem(ty)));
        load32(a, DATA);
        emit_drop(mb, a, elem(ty));
    }
    a.get(xs).get(len);
    store32(a, LEN);
    a.get(xs);
}

/// Adds a reference to each of the `n` slots from `at` (locals) when the
/// elements are counted.
pub(super) fn inc_slots(
    mb: &mut ModuleBuilder,
    a: &mut Asm,
    e: &Type,
    at: crate::asm::Local,
    n: crate::asm::Local,
) {
    if !is_heap(e) {
        return;
    }
    let inc = mb.rt(Rt::Inc);
    let i = a.temp(I32);
    for_range_mb(mb, a, i, n, |_, a| {
        elem_addr(a, at, i, 2);
        load32(a, DATA);
        a.i().call(inc).drop();
    });
    a.release(i);
}

/// `slice(xs, lo, hi, step) -> ys`: elements `lo..hi`, a new array.
pub fn slice(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let xs = a.param(0);
    let lo = a.param(1);
    let hi = a.param(2);
    let step = a.param(3);
    let n = a.local(I32);
    let q = a.local(I32);
    let at = a.local(I32);
    a.get(lo).i64(0).i().i64_lt_s();
    a.get(lo).get(hi).i().i64_gt_s().i32_or();
    a.get(hi).get(xs);
    load32(a, LEN);
    a.i().i64_extend_i32_u().i64_gt_s().i32_or();
    raise_if(mb, a, RuntimeCode::IndexOutOfRange, StepArg::Local(step));
    a.get(hi).get(lo).i().i64_sub().i32_wrap_i64();
    a.set(n);
    let shift = slot_shift(elem(ty));
    let arr_new = mb.rt(Rt::ArrNew(shift));
    a.get(n).i().call(arr_new);
    a.set(q);
    a.get(q).i32(DATA as i32).i().i32_add();
    a.tee(at);
    a.get(xs).i32(DATA as i32).i().i32_add();
    a.get(lo)
        .i()
        .i32_wrap_i64()
        .i32_const(shift)
        .i32_shl()
        .i32_add();
    a.get(n).i32(shift).i().i32_shl();
    super::emit_copy(mb, a);
    a.get(q).get(n);
    store32(a, LEN);
    // The slots start at `at`, so index them from there without the header.
    a.get(at).i32(DATA as i32).i().i32_sub();
    a.set(at);
    inc_slots(mb, a, elem(ty), at, n);
    a.get(q);
}

/// `concat(xs, ys, step) -> zs`: consumes `xs`, appended to in place when
/// it is the only reference.
pub fn concat(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let xs = a.param(0);
    let ys = a.param(1);
    let step = a.param(2);
    let lx = a.local(I32);
    let ly = a.local(I32);
    let at = a.local(I32);
    a.get(xs);
    load32(a, LEN);
    a.tee(lx).i().i64_extend_i32_u();
    a.get(ys);
    load32(a, LEN);
    a.tee(ly).i().i64_extend_i32_u().i64_add();
    check_size(mb, a, StepArg::Local(step));
    let inc = mb.rt(Rt::Inc);
    a.get(xs).get(ys).i().i32_eq();
    a.if_(BlockType::Empty);
    a.get(xs).i().call(inc).drop();
    a.end();
    let grow = mb.rt(Rt::Grow(ty.clone()));
    a.get(xs).get(ly).i().call(grow);
    a.set(xs);
    let shift = slot_shift(elem(ty));
    a.get(xs).get(lx).i32(shift).i().i32_shl().i32_add();
    a.tee(at).i32(DATA as i32).i().i32_add();
    a.get(ys).i32(DATA as i32).i().i32_add();
    a.get(ly).i32(shift).i().i32_shl();
    super::emit_copy(mb, a);
    a.get(xs).get(lx).get(ly).i().i32_add();
    store32(a, LEN);
    inc_slots(mb, a, elem(ty), at, ly);
    a.get(xs);
}

/// `repeat(v, n, step) -> xs`: `n` copies of `v` (borrowed; each slot
/// holds a reference of its own).
pub fn repeat(mb: &mut ModuleBuilder, a: &mut Asm, ety: &Type) {
    let v = a.param(0);
    let n = a.param(1);
    let step = a.param(2);
    let q = a.local(I32);
    let i = a.local(I32);
    let k = a.local(I32);
    let rc = a.local(I32);
    a.get(n).i64(0).i().i64_lt_s();
    raise_if(mb, a, RuntimeCode::NegativeCount, StepArg::Local(step));
    a.get(n);
    check_size(mb, a, StepArg::Local(step));
    a.get(n).i().i32_wrap_i64();
    a.set(k);
    let arr_new = mb.rt(Rt::ArrNew(slot_shift(ety)));
    a.get(k).i().call(arr_new);
    a.set(q);
    for_range_mb(mb, a, i, k, |_, a| {
        elem_addr(a, q, i, slot_shift(ety));
        a.get(v);
        store_val(a, ety, DATA);
    });
    a.get(q).get(k);
    store32(a, LEN);
    if is_heap(ety) {
        a.get(v);
        load32(a, RC);
        a.tee(rc).i32(0).i().i32_ge_s();
        a.if_(BlockType::Empty);
        a.get(v).get(rc).get(k).i().i32_add();
        store32(a, RC);
        a.end();
    }
    a.get(q);
}
