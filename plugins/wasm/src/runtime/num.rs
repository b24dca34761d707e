//! Ints: decimal text in both directions, and the checked multiplication.

use super::{load32, raise, raise_if, StepArg, I32, I64};
use crate::asm::{mem, Asm};
use crate::layout::{DATA, LEN, SCRATCH};
use crate::module::{ModuleBuilder, Rt};
use isu_plugin_api::RuntimeCode;
use wasm_encoder::BlockType;

/// `to_string(n) -> s`.
pub fn to_string(mb: &mut ModuleBuilder, a: &mut Asm) {
    let n = a.param(0);
    let mag = a.local(I64);
    let p = a.local(I32);
    let len = a.local(I32);
    let q = a.local(I32);
    let end = SCRATCH as i32 + 24;
    // The magnitude as an unsigned number (MIN's too).
    a.i64(0).get(n).i().i64_sub();
    a.get(n).get(n).i64(0).i().i64_lt_s().select();
    a.set(mag);
    a.i32(end).set(p);
    let top = a.loop_(BlockType::Empty);
    a.get(p).i32(1).i().i32_sub();
    a.tee(p);
    a.get(mag)
        .i64(10)
        .i()
        .i64_rem_u()
        .i32_wrap_i64()
        .i32_const(48)
        .i32_add();
    a.i().i32_store8(mem(0, 0));
    a.get(mag).i64(10).i().i64_div_u();
    a.tee(mag).i64(0).i().i64_ne();
    a.br_if(top);
    a.end();
    a.get(n).i64(0).i().i64_lt_s();
    a.if_(BlockType::Empty);
    a.get(p).i32(1).i().i32_sub();
    a.tee(p).i32(45).i().i32_store8(mem(0, 0));
    a.end();
    a.i32(end).get(p).i().i32_sub();
    a.set(len);
    let new = mb.rt(Rt::StrNew);
    a.get(len).get(len).i().call(new);
    a.tee(q).i32(DATA as i32).i().i32_add();
    a.get(p).get(len).i();
    super::emit_copy(mb, a);
    a.get(q);
}

/// `parse_int(s, step) -> n`: `-?[0-9]+` within 64 bits.
pub fn parse_int(mb: &mut ModuleBuilder, a: &mut Asm) {
    let s = a.param(0);
    let step = a.param(1);
    let n = a.local(I32);
    let i = a.local(I32);
    let neg = a.local(I32);
    let d = a.local(I64);
    let mag = a.local(I64);
    let fail = StepArg::Local(step);
    a.get(s);
    load32(a, LEN);
    a.set(n);
    a.get(n);
    a.if_(BlockType::Empty);
    a.get(s)
        .i()
        .i32_load8_u(mem(DATA, 0))
        .i32_const(45)
        .i32_eq();
    a.set(neg);
    a.end();
    a.get(neg).set(i);
    a.get(i).get(n).i().i32_ge_u();
    raise_if(mb, a, RuntimeCode::ParseIntFailed, fail);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).get(n).i().i32_ge_u();
    a.br_if(exit);
    a.get(s)
        .get(i)
        .i()
        .i32_add()
        .i32_load8_u(mem(DATA, 0))
        .i32_const(48)
        .i32_sub();
    a.i().i64_extend_i32_u();
    a.tee(d).i64(9).i().i64_gt_u();
    raise_if(mb, a, RuntimeCode::ParseIntFailed, fail);
    // mag * 10 + d stays below 2^64 while mag <= (2^63) / 10.
    a.get(mag).i64(922_337_203_685_477_580).i().i64_gt_u();
    raise_if(mb, a, RuntimeCode::ParseIntFailed, fail);
    a.get(mag).i64(10).i().i64_mul().local_get(d.0).i64_add();
    a.set(mag);
    a.get(i).i32(1).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
    // At most 2^63 when negative, 2^63 - 1 otherwise.
    a.get(mag)
        .i64(i64::MAX)
        .get(neg)
        .i()
        .i64_extend_i32_u()
        .i64_add()
        .i64_gt_u();
    raise_if(mb, a, RuntimeCode::ParseIntFailed, fail);
    a.i64(0).get(mag).i().i64_sub();
    a.get(mag).get(neg).i().select();
}

/// `mul_checked(a, b, step) -> a * b`, `int_overflow` when it does not fit.
pub fn mul_checked(mb: &mut ModuleBuilder, a: &mut Asm) {
    let x = a.param(0);
    let y = a.param(1);
    let step = a.param(2);
    let r = a.local(I64);
    a.get(x).get(y).i().i64_mul();
    a.set(r);
    a.get(x).i64(-1).i().i64_eq();
    a.if_(BlockType::Empty);
    a.get(y).i64(i64::MIN).i().i64_eq();
    raise_if(mb, a, RuntimeCode::IntOverflow, StepArg::Local(step));
    a.get(r).i().return_();
    a.end();
    a.get(x).i().i64_eqz();
    a.if_(BlockType::Empty);
    a.i64(0).i().return_();
    a.end();
    a.get(r).get(x).i().i64_div_s().local_get(y.0).i64_ne();
    a.if_(BlockType::Empty);
    raise(mb, a, RuntimeCode::IntOverflow, StepArg::Local(step));
    a.end();
    a.get(r);
}
