//! Searching and ordering: `CONTAINS`, `INDEX_OF`, `SPLIT` and `SORT`.
//! A substring is found with Knuth-Morris-Pratt (linear in the haystack
//! and the needle; the work charged is the haystack's size); `SORT` is a
//! bottom-up merge sort of a copy, with a scratch buffer (O(n log n)).

use super::array::inc_slots;
use super::text::{copy_out, emit_count_chars};
use super::{check_size, load32, load_val, raise_if, store32, store_val, StepArg, I32};
use crate::asm::{mem, Asm, Local};
use crate::layout::{elem, slot_shift, CHARS, DATA, LEN};
use crate::module::{ModuleBuilder, Rt};
use isu_plugin_api::{RuntimeCode, Type};
use wasm_encoder::BlockType;

/// Pushes byte `i` (local) of the string `s` (local).
fn byte_at(a: &mut Asm, s: Local, i: Local) {
    a.get(s).get(i).i().i32_add().i32_load8_u(mem(DATA, 0));
}

/// `kmp_table(p) -> t`: `t[i]` (an `i32`) is the length of the longest
/// proper border of the first `i + 1` bytes of `p`; 0 (no table) for "".
pub fn kmp_table(mb: &mut ModuleBuilder, a: &mut Asm) {
    let p = a.param(0);
    let m = a.local(I32);
    let t = a.local(I32);
    let i = a.local(I32);
    let k = a.local(I32);
    let c = a.local(I32);
    a.get(p);
    load32(a, LEN);
    a.tee(m).i().i32_eqz();
    a.if_(BlockType::Empty);
    a.i32(0).i().return_();
    a.end();
    let alloc = mb.rt(Rt::Alloc);
    a.get(m).i32(2).i().i32_shl().call(alloc);
    a.set(t);
    a.get(t).i32(0);
    store32(a, 0);
    a.i32(0).set(k);
    a.i32(1).set(i);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).get(m).i().i32_ge_u();
    a.br_if(exit);
    byte_at(a, p, i);
    a.set(c);
    fall_back(a, p, t, k, c);
    // k += p[k] == c
    a.get(k);
    byte_at(a, p, k);
    a.get(c).i().i32_eq().i32_add();
    a.set(k);
    a.get(t)
        .get(i)
        .i32(2)
        .i()
        .i32_shl()
        .i32_add()
        .local_get(k.0);
    store32(a, 0);
    a.get(i).i32(1).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
    a.get(t);
}

/// `while k > 0 && c != p[k] { k = t[k - 1] }`.
fn fall_back(a: &mut Asm, p: Local, t: Local, k: Local, c: Local) {
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(k).i().i32_eqz();
    a.br_if(exit);
    byte_at(a, p, k);
    a.get(c).i().i32_eq();
    a.br_if(exit);
    // t[k - 1], at t + 4k - 4
    a.get(t).get(k).i32(2).i().i32_shl().i32_add();
    a.i32(4).i().i32_sub();
    load32(a, 0);
    a.set(k);
    a.br(top);
    a.end();
    a.end();
}

/// `find(h, p, t, from) -> i32`: the byte offset of the first occurrence of
/// `p` in `h` at or after `from` (at most `h`'s length), -1 when none.
pub fn find(a: &mut Asm) {
    let h = a.param(0);
    let p = a.param(1);
    let t = a.param(2);
    let from = a.param(3);
    let n = a.local(I32);
    let m = a.local(I32);
    let i = a.local(I32);
    let k = a.local(I32);
    let c = a.local(I32);
    a.get(p);
    load32(a, LEN);
    a.tee(m).i().i32_eqz();
    a.if_(BlockType::Empty);
    a.get(from).i().return_();
    a.end();
    a.get(h);
    load32(a, LEN);
    a.tee(n).get(from).i().i32_sub().local_get(m.0).i32_lt_u();
    a.if_(BlockType::Empty);
    a.i32(-1).i().return_();
    a.end();
    a.i32(0).set(k);
    a.get(from).set(i);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).get(n).i().i32_ge_u();
    a.br_if(exit);
    byte_at(a, h, i);
    a.set(c);
    fall_back(a, p, t, k, c);
    a.get(k);
    byte_at(a, p, k);
    a.get(c).i().i32_eq().i32_add();
    a.set(k);
    a.get(i).i32(1).i().i32_add();
    a.set(i);
    a.get(k).get(m).i().i32_eq();
    a.if_(BlockType::Empty);
    a.get(i).get(m).i().i32_sub().return_();
    a.end();
    a.br(top);
    a.end();
    a.end();
    a.i32(-1);
}

/// `str_find(h, p) -> i32`: the byte offset of the first occurrence of `p`
/// in `h`, -1 when none.
pub fn str_find(mb: &mut ModuleBuilder, a: &mut Asm) {
    let h = a.param(0);
    let p = a.param(1);
    let t = a.local(I32);
    let r = a.local(I32);
    let table = mb.rt(Rt::KmpTable);
    let find = mb.rt(Rt::Find);
    let free = mb.rt(Rt::Free);
    // A needle longer than the haystack: no table to build.
    a.get(p);
    load32(a, LEN);
    a.get(h);
    load32(a, LEN);
    a.i().i32_gt_u();
    a.if_(BlockType::Empty);
    a.i32(-1).i().return_();
    a.end();
    a.get(p).i().call(table);
    a.set(t);
    a.get(h).get(p).get(t).i32(0).i().call(find);
    a.set(r);
    a.get(t);
    a.if_(BlockType::Empty);
    a.get(t).i().call(free);
    a.end();
    a.get(r);
}

/// `index_of_str(h, p) -> i64`: where `p` first occurs in `h`, in
/// characters; -1 when it does not.
pub fn index_of_str(mb: &mut ModuleBuilder, a: &mut Asm) {
    let h = a.param(0);
    let p = a.param(1);
    let r = a.local(I32);
    let at = a.local(I32);
    let f = mb.rt(Rt::StrFind);
    a.get(h).get(p).i().call(f);
    a.tee(r).i32(0).i().i32_lt_s();
    a.if_(BlockType::Empty);
    a.i64(-1).i().return_();
    a.end();
    a.get(h);
    load32(a, LEN);
    a.get(h);
    load32(a, CHARS);
    a.i().i32_eq();
    a.if_(BlockType::Empty);
    a.get(r).i().i64_extend_i32_u().return_();
    a.end();
    a.get(h).i32(DATA as i32).i().i32_add();
    a.set(at);
    emit_count_chars(a, at, r);
    a.i().i64_extend_i32_u();
}

/// `index_of_arr(xs, v) -> i64`: the index of the first element equal to
/// `v` (as `eq` compares), -1 when none.
pub fn index_of_arr(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let xs = a.param(0);
    let v = a.param(1);
    let n = a.local(I32);
    let i = a.local(I32);
    let et = elem(ty).clone();
    let shift = slot_shift(&et);
    a.get(xs);
    load32(a, LEN);
    a.set(n);
    super::for_range_mb(mb, a, i, n, |mb, a| {
        super::elem_addr(a, xs, i, shift);
        load_val(a, &et, DATA);
        a.get(v);
        super::emit_eq(mb, a, &et);
        a.if_(BlockType::Empty);
        a.get(i).i().i64_extend_i32_u().return_();
        a.end();
    });
    a.i64(-1);
}

/// `split(s, sep, step) -> string[]`: the pieces between the occurrences of
/// `sep`, found from the left without overlapping; `empty_separator` for
/// "", `size_limit` when the pieces are more than the limit.
pub fn split(mb: &mut ModuleBuilder, a: &mut Asm) {
    let s = a.param(0);
    let sep = a.param(1);
    let step = a.param(2);
    let m = a.local(I32);
    let t = a.local(I32);
    let cnt = a.local(I32);
    let pos = a.local(I32);
    let r = a.local(I32);
    let out = a.local(I32);
    let j = a.local(I32);
    let src = a.local(I32);
    let len = a.local(I32);
    let table = mb.rt(Rt::KmpTable);
    let find = mb.rt(Rt::Find);
    let free = mb.rt(Rt::Free);
    let arr_new = mb.rt(Rt::ArrNew(2));
    a.get(sep);
    load32(a, LEN);
    a.tee(m).i().i32_eqz();
    raise_if(mb, a, RuntimeCode::EmptySeparator, StepArg::Local(step));
    a.get(sep).i().call(table);
    a.set(t);
    // Count the pieces.
    a.i32(1).set(cnt);
    a.i32(0).set(pos);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(s).get(sep).get(t).get(pos).i().call(find);
    a.tee(r).i32(0).i().i32_lt_s();
    a.br_if(exit);
    a.get(cnt).i32(1).i().i32_add();
    a.set(cnt);
    a.get(r).get(m).i().i32_add();
    a.set(pos);
    a.br(top);
    a.end();
    a.end();
    a.get(cnt).i().i64_extend_i32_u();
    check_size(mb, a, StepArg::Local(step));
    a.get(cnt).i().call(arr_new);
    a.set(out);
    a.get(out).get(cnt);
    store32(a, LEN);
    a.i32(0).set(pos);
    a.i32(0).set(j);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(s).get(sep).get(t).get(pos).i().call(find);
    a.set(r);
    // The piece runs from pos to the separator, or to the end.
    a.get(r);
    a.get(s);
    load32(a, LEN);
    a.get(r).i32(0).i().i32_ge_s().select();
    a.get(pos).i().i32_sub();
    a.set(len);
    a.get(s)
        .i32(DATA as i32)
        .i()
        .i32_add()
        .local_get(pos.0)
        .i32_add();
    a.set(src);
    a.get(out).get(j).i32(2).i().i32_shl().i32_add();
    copy_out(mb, a, src, len);
    store32(a, DATA);
    a.get(j).i32(1).i().i32_add();
    a.set(j);
    a.get(r).i32(0).i().i32_lt_s();
    a.br_if(exit);
    a.get(r).get(m).i().i32_add();
    a.set(pos);
    a.br(top);
    a.end();
    a.end();
    a.get(t).i().call(free);
    a.get(out);
}

/// Pushes whether element `x` sorts before element `y` (addresses in
/// locals).
fn less(mb: &mut ModuleBuilder, a: &mut Asm, et: &Type, x: Local, y: Local) {
    a.get(x);
    load_val(a, et, 0);
    a.get(y);
    load_val(a, et, 0);
    match et {
        Type::Int => {
            a.i().i64_lt_s();
        }
        _ => {
            let f = mb.rt(Rt::StrCmp);
            a.i().call(f).i32_const(0).i32_lt_s();
        }
    }
}

/// `sort(xs) -> ys`: a new array of `xs`'s elements in ascending order
/// (ints by value, strings by bytes, which is code point order).
pub fn sort(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let xs = a.param(0);
    let n = a.local(I32);
    let q = a.local(I32);
    let bytes = a.local(I32);
    let scratch = a.local(I32);
    let src = a.local(I32);
    let dst = a.local(I32);
    let w = a.local(I32);
    let i = a.local(I32);
    let mid = a.local(I32);
    let hi = a.local(I32);
    let l = a.local(I32);
    let r = a.local(I32);
    let k = a.local(I32);
    let pl = a.local(I32);
    let pr = a.local(I32);
    let et = elem(ty).clone();
    let shift = slot_shift(&et);
    let arr_new = mb.rt(Rt::ArrNew(shift));
    let alloc = mb.rt(Rt::Alloc);
    let free = mb.rt(Rt::Free);
    a.get(xs);
    load32(a, LEN);
    a.set(n);
    a.get(n).i32(shift).i().i32_shl();
    a.set(bytes);
    a.get(n).i().call(arr_new);
    a.set(q);
    a.get(q).get(n);
    store32(a, LEN);
    a.get(q).i32(DATA as i32).i().i32_add();
    a.get(xs).i32(DATA as i32).i().i32_add();
    a.get(bytes);
    super::emit_copy(mb, a);
    inc_slots(mb, a, &et, q, n);
    a.get(n).i32(2).i().i32_lt_u();
    a.if_(BlockType::Empty);
    a.get(q).i().return_();
    a.end();
    a.get(bytes).i().call(alloc);
    a.set(scratch);
    a.get(q).i32(DATA as i32).i().i32_add();
    a.set(src);
    a.get(scratch).set(dst);
    a.i32(1).set(w);
    // Runs of w sorted elements in src merged by pairs into dst, w doubling.
    let wexit = a.block(BlockType::Empty);
    let wtop = a.loop_(BlockType::Empty);
    a.get(w).get(n).i().i32_ge_u();
    a.br_if(wexit);
    a.i32(0).set(i);
    let iexit = a.block(BlockType::Empty);
    let itop = a.loop_(BlockType::Empty);
    a.get(i).get(n).i().i32_ge_u();
    a.br_if(iexit);
    // mid = min(i + w, n), hi = min(mid + w, n)
    a.get(i).get(w).i().i32_add();
    a.set(mid);
    a.get(mid).get(n).get(mid).get(n).i().i32_lt_u().select();
    a.set(mid);
    a.get(mid).get(w).i().i32_add();
    a.set(hi);
    a.get(hi).get(n).get(hi).get(n).i().i32_lt_u().select();
    a.set(hi);
    a.get(i).set(l);
    a.get(mid).set(r);
    a.get(i).set(k);
    let kexit = a.block(BlockType::Empty);
    let ktop = a.loop_(BlockType::Empty);
    a.get(k).get(hi).i().i32_ge_u();
    a.br_if(kexit);
    a.get(src).get(l).i32(shift).i().i32_shl().i32_add();
    a.set(pl);
    a.get(src).get(r).i32(shift).i().i32_shl().i32_add();
    a.set(pr);
    // Take the left one unless the right run is the only one left, or its
    // head sorts before the left head.
    a.get(r).get(hi).i().i32_ge_u();
    a.if_(BlockType::Result(I32));
    a.i32(1);
    a.else_();
    a.get(l).get(mid).i().i32_lt_u();
    a.if_(BlockType::Result(I32));
    less(mb, a, &et, pr, pl);
    a.i().i32_eqz();
    a.else_();
    a.i32(0);
    a.end();
    a.end();
    a.if_(BlockType::Empty);
    {
        a.get(dst).get(k).i32(shift).i().i32_shl().i32_add();
        a.get(pl);
        load_val(a, &et, 0);
        store_val(a, &et, 0);
        a.get(l).i32(1).i().i32_add();
        a.set(l);
    }
    a.else_();
    {
        a.get(dst).get(k).i32(shift).i().i32_shl().i32_add();
        a.get(pr);
        load_val(a, &et, 0);
        store_val(a, &et, 0);
        a.get(r).i32(1).i().i32_add();
        a.set(r);
    }
    a.end();
    a.get(k).i32(1).i().i32_add();
    a.set(k);
    a.br(ktop);
    a.end();
    a.end();
    a.get(hi).set(i);
    a.br(itop);
    a.end();
    a.end();
    // swap src and dst
    a.get(src).set(k);
    a.get(dst).set(src);
    a.get(k).set(dst);
    a.get(w).i32(1).i().i32_shl();
    a.set(w);
    a.br(wtop);
    a.end();
    a.end();
    a.get(src).get(scratch).i().i32_eq();
    a.if_(BlockType::Empty);
    a.get(q).i32(DATA as i32).i().i32_add();
    a.get(scratch).get(bytes);
    super::emit_copy(mb, a);
    a.end();
    a.get(scratch).i().call(free);
    a.get(q);
}
