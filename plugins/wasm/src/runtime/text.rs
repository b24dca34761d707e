//! Strings: UTF-8 bytes with their length in bytes and in Unicode scalar
//! values (so `LEN` is O(1) and an all-ASCII string slices by bytes).

use super::alloc::usable;
use super::{check_size, load32, raise_if, store32, StepArg, I32, I64};
use crate::abi::ErrorCode;
use crate::asm::{mem, Asm, Local};
use crate::layout::{CAP, CHARS, DATA, LEN, RC};
use crate::module::{ModuleBuilder, Rt};
use isu_plugin_api::RuntimeCode;
use wasm_encoder::BlockType;

/// `str_new(bytes, chars) -> s`: a string of `bytes` bytes (to be written)
/// and `chars` characters, with the whole block as capacity.
pub fn str_new(mb: &mut ModuleBuilder, a: &mut Asm) {
    let bytes = a.param(0);
    let chars = a.param(1);
    let s = a.local(I32);
    let alloc = mb.rt(Rt::Alloc);
    a.get(bytes).i32(DATA as i32).i().i32_add().call(alloc);
    a.set(s);
    a.get(s).i32(1);
    store32(a, RC);
    a.get(s);
    usable(a, s);
    a.i32(DATA as i32).i().i32_sub();
    store32(a, CAP);
    a.get(s).get(bytes);
    store32(a, LEN);
    a.get(s).get(chars);
    store32(a, CHARS);
    a.get(s);
}

/// Pushes the number of characters in the `n` bytes at `p` (counting the
/// bytes that do not continue a character).
pub fn emit_count_chars(a: &mut Asm, p: Local, n: Local) {
    let i = a.temp(I32);
    let c = a.temp(I32);
    a.i32(0).set(c);
    super::for_range(a, i, n, |a| {
        a.get(c);
        a.get(p).get(i).i().i32_add().i32_load8_u(mem(0, 0));
        a.i32(0xC0).i().i32_and().i32_const(0x80).i32_ne().i32_add();
        a.set(c);
    });
    a.get(c);
    a.release(i);
    a.release(c);
}

/// A new string holding the `n` bytes at `src` (locals), on the stack.
pub(super) fn copy_out(mb: &mut ModuleBuilder, a: &mut Asm, src: Local, n: Local) {
    let new = mb.rt(Rt::StrNew);
    let q = a.temp(I32);
    a.get(n);
    emit_count_chars(a, src, n);
    a.i().call(new);
    a.tee(q).i32(DATA as i32).i().i32_add();
    a.get(src).get(n).i();
    super::emit_copy(mb, a);
    a.get(q);
    a.release(q);
}

/// `str_eq(a, b) -> i32`.
pub fn str_eq(a: &mut Asm) {
    let x = a.param(0);
    let y = a.param(1);
    let n = a.local(I32);
    let i = a.local(I32);
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
    // Eight bytes at a time, then the rest one by one.
    a.i32(0).set(i);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).i32(8).i().i32_add().local_get(n.0).i32_gt_u();
    a.br_if(exit);
    a.get(x).get(i).i().i32_add().i64_load(mem(DATA, 0));
    a.get(y).get(i).i().i32_add().i64_load(mem(DATA, 0));
    a.i().i64_ne();
    a.if_(BlockType::Empty);
    a.i32(0).i().return_();
    a.end();
    a.get(i).i32(8).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).get(n).i().i32_ge_u();
    a.br_if(exit);
    a.get(x).get(i).i().i32_add().i32_load8_u(mem(DATA, 0));
    a.get(y).get(i).i().i32_add().i32_load8_u(mem(DATA, 0));
    a.i().i32_ne();
    a.if_(BlockType::Empty);
    a.i32(0).i().return_();
    a.end();
    a.get(i).i32(1).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
    a.i32(1);
}

/// `str_cmp(a, b) -> -1 | 0 | 1`: byte order, which is code point order.
/// Eight bytes at a time; at the first chunk that differs, its lowest
/// differing byte (the first in memory) decides.
pub fn str_cmp(a: &mut Asm) {
    let x = a.param(0);
    let y = a.param(1);
    let lx = a.local(I32);
    let ly = a.local(I32);
    let n = a.local(I32);
    let i = a.local(I32);
    let bx = a.local(I32);
    let by = a.local(I32);
    let cx = a.local(I64);
    let cy = a.local(I64);
    a.get(x);
    load32(a, LEN);
    a.set(lx);
    a.get(y);
    load32(a, LEN);
    a.set(ly);
    a.get(lx).get(ly).get(lx).get(ly).i().i32_lt_u().select();
    a.set(n);
    a.i32(0).set(i);
    let chunks = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).i32(8).i().i32_add().local_get(n.0).i32_gt_u();
    a.br_if(chunks);
    a.get(x).get(i).i().i32_add().i64_load(mem(DATA, 0));
    a.tee(cx);
    a.get(y).get(i).i().i32_add().i64_load(mem(DATA, 0));
    a.tee(cy);
    a.i().i64_ne();
    a.if_(BlockType::Empty);
    {
        // The first differing byte: the lowest set bit of the xor, rounded
        // down to a byte.
        a.get(cx)
            .get(cy)
            .i()
            .i64_xor()
            .i64_ctz()
            .i64_const(56)
            .i64_and();
        let shift = a.temp(I64);
        a.set(shift);
        a.get(cx)
            .get(shift)
            .i()
            .i64_shr_u()
            .i32_wrap_i64()
            .i32_const(255)
            .i32_and();
        a.set(bx);
        a.get(cy)
            .get(shift)
            .i()
            .i64_shr_u()
            .i32_wrap_i64()
            .i32_const(255)
            .i32_and();
        a.set(by);
        a.release(shift);
        a.i32(1)
            .i32(-1)
            .get(bx)
            .get(by)
            .i()
            .i32_gt_u()
            .select()
            .return_();
    }
    a.end();
    a.get(i).i32(8).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).get(n).i().i32_ge_u();
    a.br_if(exit);
    a.get(x).get(i).i().i32_add().i32_load8_u(mem(DATA, 0));
    a.tee(bx);
    a.get(y).get(i).i().i32_add().i32_load8_u(mem(DATA, 0));
    a.tee(by);
    a.i().i32_ne();
    a.if_(BlockType::Empty);
    a.i32(1)
        .i32(-1)
        .get(bx)
        .get(by)
        .i()
        .i32_gt_u()
        .select()
        .return_();
    a.end();
    a.get(i).i32(1).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
    // (lx > ly) - (lx < ly)
    a.get(lx).get(ly).i().i32_gt_u();
    a.get(lx).get(ly).i().i32_lt_u().i32_sub();
}

/// Pushes the byte offset of character `k` (local, `i32`) of string `s`,
/// scanning from the start unless the string is ASCII.
fn byte_offset(a: &mut Asm, s: Local, k: Local) {
    let i = a.temp(I32);
    let seen = a.temp(I32);
    let n = a.temp(I32);
    a.get(s);
    load32(a, LEN);
    a.tee(n).get(s);
    load32(a, CHARS);
    a.i().i32_eq();
    a.if_(BlockType::Result(I32));
    a.get(k);
    a.else_();
    {
        // The first byte whose count of character starts before it reaches k
        // and that starts a character.
        a.i32(0).set(i);
        a.i32(0).set(seen);
        let exit = a.block(BlockType::Empty);
        let top = a.loop_(BlockType::Empty);
        a.get(i).get(n).i().i32_ge_u();
        a.br_if(exit);
        a.get(s).get(i).i().i32_add().i32_load8_u(mem(DATA, 0));
        a.i32(0xC0).i().i32_and().i32_const(0x80).i32_ne();
        a.if_(BlockType::Empty);
        a.get(seen).get(k).i().i32_eq();
        a.br_if(exit);
        a.get(seen).i32(1).i().i32_add();
        a.set(seen);
        a.end();
        a.get(i).i32(1).i().i32_add();
        a.set(i);
        a.br(top);
        a.end();
        a.end();
        a.get(i);
    }
    a.end();
    a.release(i);
    a.release(seen);
    a.release(n);
}

/// `slice(s, lo, hi, step) -> s'`: characters `lo..hi`.
pub fn slice(mb: &mut ModuleBuilder, a: &mut Asm) {
    let s = a.param(0);
    let lo = a.param(1);
    let hi = a.param(2);
    let step = a.param(3);
    let blo = a.local(I32);
    let bhi = a.local(I32);
    let k = a.local(I32);
    let n = a.local(I32);
    let src = a.local(I32);
    // 0 <= lo <= hi <= chars
    a.get(lo).i64(0).i().i64_lt_s();
    a.get(lo).get(hi).i().i64_gt_s().i32_or();
    a.get(hi).get(s);
    load32(a, CHARS);
    a.i().i64_extend_i32_u().i64_gt_s().i32_or();
    raise_if(mb, a, RuntimeCode::IndexOutOfRange, StepArg::Local(step));
    a.get(lo).i().i32_wrap_i64();
    a.set(k);
    byte_offset(a, s, k);
    a.set(blo);
    a.get(hi).i().i32_wrap_i64();
    a.set(k);
    byte_offset(a, s, k);
    a.set(bhi);
    a.get(bhi).get(blo).i().i32_sub();
    a.set(n);
    a.get(s)
        .i32(DATA as i32)
        .i()
        .i32_add()
        .local_get(blo.0)
        .i32_add();
    a.set(src);
    copy_out(mb, a, src, n);
}

/// `concat(a, b, step) -> s`: consumes `a`, which is appended to in place
/// when it is the only reference and has room.
pub fn concat(mb: &mut ModuleBuilder, a: &mut Asm) {
    let x = a.param(0);
    let y = a.param(1);
    let step = a.param(2);
    let lx = a.local(I32);
    let ly = a.local(I32);
    a.get(x);
    load32(a, CHARS);
    a.i().i64_extend_i32_u();
    a.get(y);
    load32(a, CHARS);
    a.i().i64_extend_i32_u().i64_add();
    check_size(mb, a, StepArg::Local(step));
    let inc = mb.rt(Rt::Inc);
    let grow = mb.rt(Rt::Grow(isu_plugin_api::Type::String));
    // Appending a string to itself: share it first, so grow copies.
    a.get(x).get(y).i().i32_eq();
    a.if_(BlockType::Empty);
    a.get(x).i().call(inc).drop();
    a.end();
    a.get(x);
    load32(a, LEN);
    a.set(lx);
    a.get(y);
    load32(a, LEN);
    a.set(ly);
    a.get(x).get(ly).i().call(grow);
    a.set(x);
    a.get(x)
        .i32(DATA as i32)
        .i()
        .i32_add()
        .local_get(lx.0)
        .i32_add();
    a.get(y).i32(DATA as i32).i().i32_add();
    a.get(ly).i();
    super::emit_copy(mb, a);
    a.get(x).get(lx).get(ly).i().i32_add();
    store32(a, LEN);
    a.get(x).get(x);
    load32(a, CHARS);
    a.get(y);
    load32(a, CHARS);
    a.i().i32_add();
    store32(a, CHARS);
    a.get(x);
}

/// Pushes whether the byte on the stack is ASCII whitespace (space, \t, \n,
/// \x0b, \x0c, \r).
fn is_space(a: &mut Asm, b: Local) {
    a.get(b).i32(32).i().i32_eq();
    a.get(b)
        .i32(9)
        .i()
        .i32_sub()
        .i32_const(5)
        .i32_lt_u()
        .i32_or();
}

/// `split(s) -> string[]`: the pieces between runs of ASCII whitespace.
pub fn split(mb: &mut ModuleBuilder, a: &mut Asm) {
    let s = a.param(0);
    let out = a.local(I32);
    let n = a.local(I32);
    let i = a.local(I32);
    let start = a.local(I32);
    let b = a.local(I32);
    let src = a.local(I32);
    let len = a.local(I32);
    let words = isu_plugin_api::Type::array(isu_plugin_api::Type::String);
    let arr_new = mb.rt(Rt::ArrNew(2));
    let grow = mb.rt(Rt::Grow(words));
    a.i32(4).i().call(arr_new);
    a.set(out);
    a.get(s);
    load32(a, LEN);
    a.set(n);
    a.i32(0).set(i);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    {
        // Skip whitespace.
        let skip_exit = a.block(BlockType::Empty);
        let skip = a.loop_(BlockType::Empty);
        a.get(i).get(n).i().i32_ge_u();
        a.br_if(skip_exit);
        a.get(s).get(i).i().i32_add().i32_load8_u(mem(DATA, 0));
        a.set(b);
        is_space(a, b);
        a.i().i32_eqz();
        a.br_if(skip_exit);
        a.get(i).i32(1).i().i32_add();
        a.set(i);
        a.br(skip);
        a.end();
        a.end();
        a.get(i).get(n).i().i32_ge_u();
        a.br_if(exit);
        a.get(i).set(start);
        let word_exit = a.block(BlockType::Empty);
        let word = a.loop_(BlockType::Empty);
        a.get(i).get(n).i().i32_ge_u();
        a.br_if(word_exit);
        a.get(s).get(i).i().i32_add().i32_load8_u(mem(DATA, 0));
        a.set(b);
        is_space(a, b);
        a.br_if(word_exit);
        a.get(i).i32(1).i().i32_add();
        a.set(i);
        a.br(word);
        a.end();
        a.end();
        a.get(out).i32(1).i().call(grow);
        a.set(out);
        a.get(s)
            .i32(DATA as i32)
            .i()
            .i32_add()
            .local_get(start.0)
            .i32_add();
        a.set(src);
        a.get(i).get(start).i().i32_sub();
        a.set(len);
        // out[len] = word
        a.get(out);
        load32(a, LEN);
        a.i32(2).i().i32_shl().local_get(out.0).i32_add();
        copy_out(mb, a, src, len);
        store32(a, DATA);
        a.get(out).get(out);
        load32(a, LEN);
        a.i32(1).i().i32_add();
        store32(a, LEN);
        a.br(top);
    }
    a.end();
    a.end();
    a.get(out);
}

/// `join(xs, sep, step) -> s`.
pub fn join(mb: &mut ModuleBuilder, a: &mut Asm) {
    let xs = a.param(0);
    let sep = a.param(1);
    let step = a.param(2);
    let n = a.local(I32);
    let i = a.local(I32);
    let bytes = a.local(I64);
    let chars = a.local(I64);
    let q = a.local(I32);
    let at = a.local(I32);
    let x = a.local(I32);
    let new = mb.rt(Rt::StrNew);
    a.get(xs);
    load32(a, LEN);
    a.set(n);
    a.get(n).i().i32_eqz();
    a.if_(BlockType::Empty);
    a.i32(0).i32(0).i().call(new).return_();
    a.end();
    // The separators: n - 1 of them.
    a.get(sep);
    load32(a, LEN);
    a.i().i64_extend_i32_u();
    a.get(n).i32(1).i().i32_sub().i64_extend_i32_u().i64_mul();
    a.set(bytes);
    a.get(sep);
    load32(a, CHARS);
    a.i().i64_extend_i32_u();
    a.get(n).i32(1).i().i32_sub().i64_extend_i32_u().i64_mul();
    a.set(chars);
    super::for_range(a, i, n, |a| {
        a.get(xs).get(i).i32(2).i().i32_shl().i32_add();
        load32(a, DATA);
        a.set(x);
        a.get(bytes).get(x);
        load32(a, LEN);
        a.i().i64_extend_i32_u().i64_add();
        a.set(bytes);
        a.get(chars).get(x);
        load32(a, CHARS);
        a.i().i64_extend_i32_u().i64_add();
        a.set(chars);
    });
    a.get(chars);
    check_size(mb, a, StepArg::Local(step));
    a.get(bytes)
        .i64(i64::from(super::alloc::MAX_REQUEST))
        .i()
        .i64_gt_u();
    raise_if(mb, a, ErrorCode::OutOfMemory, StepArg::Local(step));
    a.get(bytes).i().i32_wrap_i64();
    a.get(chars).i().i32_wrap_i64().call(new);
    a.tee(q).i32(DATA as i32).i().i32_add();
    a.set(at);
    super::for_range(a, i, n, |a| {
        a.get(i);
        a.if_(BlockType::Empty);
        a.get(at).get(sep).i32(DATA as i32).i().i32_add();
        a.get(sep);
        load32(a, LEN);
        a.i();
        super::emit_copy(mb, a);
        a.get(at).get(sep);
        load32(a, LEN);
        a.i().i32_add();
        a.set(at);
        a.end();
        a.get(xs).get(i).i32(2).i().i32_shl().i32_add();
        load32(a, DATA);
        a.set(x);
        a.get(at).get(x).i32(DATA as i32).i().i32_add();
        a.get(x);
        load32(a, LEN);
        a.i();
        super::emit_copy(mb, a);
        a.get(at).get(x);
        load32(a, LEN);
        a.i().i32_add();
        a.set(at);
    });
    a.get(q);
}

/// `lower(s) -> s'`: ASCII A-Z to a-z.
pub fn lower(mb: &mut ModuleBuilder, a: &mut Asm) {
    ascii_case(mb, a, b'A', 32);
}

/// `upper(s) -> s'`: ASCII a-z to A-Z.
pub fn upper(mb: &mut ModuleBuilder, a: &mut Asm) {
    ascii_case(mb, a, b'a', -32);
}

/// A copy of string param 0 with `delta` added to the bytes of the 26
/// letters from `first`.
fn ascii_case(mb: &mut ModuleBuilder, a: &mut Asm, first: u8, delta: i32) {
    let s = a.param(0);
    let q = a.local(I32);
    let n = a.local(I32);
    let i = a.local(I32);
    let b = a.local(I32);
    let new = mb.rt(Rt::StrNew);
    a.get(s);
    load32(a, LEN);
    a.tee(n).get(s);
    load32(a, CHARS);
    a.i().call(new);
    a.set(q);
    super::for_range(a, i, n, |a| {
        a.get(q).get(i).i().i32_add();
        a.get(s).get(i).i().i32_add().i32_load8_u(mem(DATA, 0));
        a.tee(b);
        a.i32(delta).i32(0);
        a.get(b)
            .i32(i32::from(first))
            .i()
            .i32_sub()
            .i32_const(26)
            .i32_lt_u()
            .select()
            .i32_add();
        a.i().i32_store8(mem(DATA, 0));
    });
    a.get(q);
}

/// `chars(s, step) -> string[]`: one string per character.
pub fn chars(mb: &mut ModuleBuilder, a: &mut Asm) {
    let s = a.param(0);
    let step = a.param(1);
    let out = a.local(I32);
    let n = a.local(I32);
    let i = a.local(I32);
    let k = a.local(I32);
    let w = a.local(I32);
    let b = a.local(I32);
    let src = a.local(I32);
    a.get(s);
    load32(a, CHARS);
    a.i().i64_extend_i32_u();
    check_size(mb, a, StepArg::Local(step));
    let arr_new = mb.rt(Rt::ArrNew(2));
    a.get(s);
    load32(a, CHARS);
    a.i().call(arr_new);
    a.set(out);
    a.get(s);
    load32(a, LEN);
    a.set(n);
    a.i32(0).set(i);
    a.i32(0).set(k);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).get(n).i().i32_ge_u();
    a.br_if(exit);
    a.get(s).get(i).i().i32_add().i32_load8_u(mem(DATA, 0));
    a.set(b);
    // The width of the character from its first byte.
    a.get(b).i32(0x80).i().i32_lt_u();
    a.if_(BlockType::Empty);
    a.i32(1).set(w);
    a.else_();
    a.get(b).i32(0xE0).i().i32_lt_u();
    a.if_(BlockType::Empty);
    a.i32(2).set(w);
    a.else_();
    a.i32(3).i32(4).get(b).i32(0xF0).i().i32_lt_u().select();
    a.set(w);
    a.end();
    a.end();
    a.get(s)
        .i32(DATA as i32)
        .i()
        .i32_add()
        .local_get(i.0)
        .i32_add();
    a.set(src);
    a.get(out).get(k).i32(2).i().i32_shl().i32_add();
    copy_out(mb, a, src, w);
    store32(a, DATA);
    a.get(i).get(w).i().i32_add();
    a.set(i);
    a.get(k).i32(1).i().i32_add();
    a.set(k);
    a.br(top);
    a.end();
    a.end();
    a.get(out).get(k);
    store32(a, LEN);
    a.get(out);
}
