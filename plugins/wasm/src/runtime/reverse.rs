//! `REVERSE` of an array and of a string: a new value, the argument
//! borrowed.

use super::array::inc_slots;
use super::{elem_addr, for_range, load32, load_val, store32, store_val, I32};
use crate::asm::{mem, Asm};
use crate::layout::{elem, slot_shift, CHARS, DATA, LEN};
use crate::module::{ModuleBuilder, Rt};
use isu_plugin_api::Type;
use wasm_encoder::BlockType;

/// `reverse_arr(xs) -> ys`: the elements of `xs` from the last to the
/// first, each counted once more when it is on the heap.
pub fn array(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let xs = a.param(0);
    let n = a.local(I32);
    let q = a.local(I32);
    let i = a.local(I32);
    let j = a.local(I32);
    let e = elem(ty);
    let shift = slot_shift(e);
    a.get(xs);
    load32(a, LEN);
    a.set(n);
    let arr_new = mb.rt(Rt::ArrNew(shift));
    a.get(n).i().call(arr_new);
    a.set(q);
    for_range(a, i, n, |a| {
        // Slot n - 1 - i of the new array takes slot i of the old.
        a.get(n).i32(1).i().i32_sub().local_get(i.0).i32_sub();
        a.set(j);
        elem_addr(a, q, j, shift);
        elem_addr(a, xs, i, shift);
        load_val(a, e, DATA);
        store_val(a, e, DATA);
    });
    a.get(q).get(n);
    store32(a, LEN);
    inc_slots(mb, a, e, q, n);
    a.get(q);
}

/// `reverse_str(s) -> t`: the characters of `s` from the last to the
/// first, each keeping its bytes in their order.
pub fn string(mb: &mut ModuleBuilder, a: &mut Asm) {
    let s = a.param(0);
    let n = a.local(I32);
    let q = a.local(I32);
    let i = a.local(I32);
    let b = a.local(I32);
    let w = a.local(I32);
    let new = mb.rt(Rt::StrNew);
    a.get(s);
    load32(a, LEN);
    a.tee(n).get(s);
    load32(a, CHARS);
    a.i().call(new);
    a.set(q);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).get(n).i().i32_ge_u();
    a.br_if(exit);
    a.get(s).get(i).i().i32_add().i32_load8_u(mem(DATA, 0));
    a.set(b);
    // The width of the character from its first byte.
    a.i32(1).i32(2).get(b).i32(0x80).i().i32_lt_u().select();
    a.i32(3).i32(4).get(b).i32(0xF0).i().i32_lt_u().select();
    a.get(b).i32(0xE0).i().i32_lt_u().select();
    a.set(w);
    // Its bytes go to n - i - w.
    a.get(q)
        .i32(DATA as i32)
        .i()
        .i32_add()
        .local_get(n.0)
        .i32_add()
        .local_get(i.0)
        .i32_sub()
        .local_get(w.0)
        .i32_sub();
    a.get(s)
        .i32(DATA as i32)
        .i()
        .i32_add()
        .local_get(i.0)
        .i32_add()
        .local_get(w.0);
    super::emit_copy(mb, a);
    a.get(i).get(w).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
    a.get(q);
}
