//! The runtime functions every module carries as needed: the allocator,
//! reference counting, strings, arrays, maps, structs, numbers, and the codec of
//! arguments and results. Each is generated on first use, specialised by Isu
//! type (dropping an `int[][]` frees its inner arrays; dropping an `int[]`
//! does not look at its slots).

mod alloc;
mod array;
mod codec;
mod float;
mod map;
mod num;
mod pack;
mod rc;
mod record;
mod reverse;
mod search;
mod text;
mod work;

use crate::abi::ErrorCode;
use crate::asm::{mem, Asm, Local};
use crate::module::{g, ModuleBuilder, Rt};
use isu_plugin_api::RuntimeCode;
use isu_plugin_api::Type;
use wasm_encoder::{BlockType, ValType};

pub use rc::{emit_drop, emit_eq, emit_inc};

/// Writes the body of runtime function `key` into `a`.
pub fn generate(mb: &mut ModuleBuilder, key: &Rt, a: &mut Asm) {
    match key {
        Rt::Raise => {
            a.get(a.param(1)).i().global_set(g::ERR_STEP);
            a.get(a.param(0)).i().global_set(g::ERR_CODE);
            a.i().unreachable();
        }
        Rt::Alloc => alloc::alloc(mb, a),
        Rt::Free => alloc::free(a),
        Rt::Reset => alloc::reset(a),
        Rt::Inc => rc::inc(a),
        Rt::Drop(t) => rc::drop(mb, a, t),
        Rt::Grow(t @ Type::Struct(_)) => record::unique(mb, a, t),
        Rt::Grow(t) => rc::grow(mb, a, t),
        Rt::Eq(t @ Type::Struct(_)) => record::eq(mb, a, t),
        Rt::Eq(t) => rc::eq(mb, a, t),
        Rt::StructNew(t) => record::new(mb, a, t),
        Rt::StrNew => text::str_new(mb, a),
        Rt::StrEq => text::str_eq(a),
        Rt::StrCmp => text::str_cmp(a),
        Rt::SliceStr => text::slice(mb, a),
        Rt::ConcatStr => text::concat(mb, a),
        Rt::Split => text::split(mb, a),
        Rt::Join => text::join(mb, a),
        Rt::Lower => text::lower(mb, a),
        Rt::Upper => text::upper(mb, a),
        Rt::KmpTable => search::kmp_table(mb, a),
        Rt::Find => search::find(a),
        Rt::StrFind => search::str_find(mb, a),
        Rt::IndexOfStr => search::index_of_str(mb, a),
        Rt::IndexOfArr(t) => search::index_of_arr(mb, a, t),
        Rt::SplitSep => search::split(mb, a),
        Rt::Sort(t) => search::sort(mb, a, t),
        Rt::Chars => text::chars(mb, a),
        Rt::ReverseArr(t) => reverse::array(mb, a, t),
        Rt::ReverseStr => reverse::string(mb, a),
        Rt::ArrNew(shift) => array::arr_new(mb, a, *shift),
        Rt::MapNew => array::map_new(mb, a),
        Rt::Copy => copy(a),
        Rt::Push(t) => array::push(mb, a, t),
        Rt::Pop(t) => array::pop(mb, a, t),
        Rt::SliceArr(t) => array::slice(mb, a, t),
        Rt::ConcatArr(t) => array::concat(mb, a, t),
        Rt::Repeat(t) => array::repeat(mb, a, t),
        Rt::MapFind(k) => map::find(mb, a, k),
        Rt::MapGet(t) => map::get(mb, a, t),
        Rt::MapGetOr(t) => map::get_or(mb, a, t),
        Rt::MapSet(t) => map::set(mb, a, t),
        Rt::MapKeys(t) => map::keys(mb, a, t),
        Rt::ToString => num::to_string(mb, a),
        Rt::ParseInt => num::parse_int(mb, a),
        Rt::FloatRepr => float::repr(mb, a),
        Rt::ParseFloat => float::parse(mb, a),
        Rt::MulChecked => num::mul_checked(mb, a),
        Rt::Decode(t) => codec::decode(mb, a, t),
        Rt::EncSize(t) => codec::enc_size(mb, a, t),
        Rt::Enc(t) => codec::enc(mb, a, t),
        Rt::Encode(t) => codec::encode(mb, a, t),
        Rt::Size(t) => work::size(mb, a, t),
        Rt::Pack(p) => pack::generate(mb, a, *p),
    }
}

/// Where a raised error's step index comes from.
#[derive(Debug, Clone, Copy)]
pub enum StepArg {
    Const(i32),
    Local(Local),
}

/// Stops the call with a runtime error: `raise(code, step)`, then `unreachable`.
pub fn raise(mb: &mut ModuleBuilder, a: &mut Asm, code: impl Into<ErrorCode>, step: StepArg) {
    let f = mb.rt(Rt::Raise);
    a.i32(code.into().number());
    match step {
        StepArg::Const(s) => a.i32(s),
        StepArg::Local(l) => a.get(l),
    };
    a.i().call(f).unreachable();
}

/// `if (cond on the stack) { raise }`.
pub fn raise_if(mb: &mut ModuleBuilder, a: &mut Asm, code: impl Into<ErrorCode>, step: StepArg) {
    a.if_(BlockType::Empty);
    raise(mb, a, code, step);
    a.end();
}

pub fn load32(a: &mut Asm, off: u64) {
    a.i().i32_load(mem(off, 2));
}

pub fn store32(a: &mut Asm, off: u64) {
    a.i().i32_store(mem(off, 2));
}

pub fn load64(a: &mut Asm, off: u64) {
    a.i().i64_load(mem(off, 3));
}

pub fn store64(a: &mut Asm, off: u64) {
    a.i().i64_store(mem(off, 3));
}

/// Loads a value of `ty` from the address on the stack (plus `off`).
pub fn load_val(a: &mut Asm, ty: &Type, off: u64) {
    match ty {
        Type::Int => load64(a, off),
        Type::Float => {
            a.i().f64_load(mem(off, 3));
        }
        Type::Bool => {
            a.i().i32_load8_u(mem(off, 0));
        }
        _ => load32(a, off),
    }
}

/// Stores a value of `ty` (address, value on the stack).
pub fn store_val(a: &mut Asm, ty: &Type, off: u64) {
    match ty {
        Type::Int => store64(a, off),
        Type::Float => {
            a.i().f64_store(mem(off, 3));
        }
        Type::Bool => {
            a.i().i32_store8(mem(off, 0));
        }
        _ => store32(a, off),
    }
}

/// `base + 16 + index * scale`, both locals, as an address on the stack.
pub fn elem_addr(a: &mut Asm, base: Local, index: Local, shift: i32) {
    a.get(base).get(index).i32(shift);
    a.i().i32_shl().i32_add();
}

/// A counted loop `for i in 0..n { body }` with `i` and `n` `i32` locals.
pub fn for_range(a: &mut Asm, i: Local, n: Local, body: impl FnOnce(&mut Asm)) {
    a.i32(0).set(i);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).get(n).i().i32_ge_u();
    a.br_if(exit);
    body(a);
    a.get(i).i32(1).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
}

/// The same loop with the runtime of a module at hand.
pub fn for_range_mb(
    mb: &mut ModuleBuilder,
    a: &mut Asm,
    i: Local,
    n: Local,
    body: impl FnOnce(&mut ModuleBuilder, &mut Asm),
) {
    a.i32(0).set(i);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).get(n).i().i32_ge_u();
    a.br_if(exit);
    body(mb, a);
    a.get(i).i32(1).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
}

/// Raises `size_limit` when the `i64` on the stack exceeds the limit.
pub fn check_size(mb: &mut ModuleBuilder, a: &mut Asm, step: StepArg) {
    a.i().global_get(g::MAX_SIZE).i64_gt_s();
    raise_if(mb, a, RuntimeCode::SizeLimit, step);
}

/// Copies `n` bytes from `src` to `dst` (on the stack, in that order;
/// the regions do not overlap).
pub fn emit_copy(mb: &mut ModuleBuilder, a: &mut Asm) {
    let f = mb.rt(Rt::Copy);
    a.i().call(f);
}

/// `copy(dst, src, n)`: short copies inline, eight bytes at a time (a
/// `memory.copy` is a call into the engine, costly for a few bytes), long
/// ones with `memory.copy`.
fn copy(a: &mut Asm) {
    let dst = a.param(0);
    let src = a.param(1);
    let n = a.param(2);
    let i = a.local(I32);
    a.get(n).i32(256).i().i32_ge_u();
    a.if_(BlockType::Empty);
    a.get(dst).get(src).get(n).i().memory_copy(0, 0).return_();
    a.end();
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).i32(8).i().i32_add().local_get(n.0).i32_gt_u();
    a.br_if(exit);
    a.get(dst).get(i).i().i32_add();
    a.get(src)
        .get(i)
        .i()
        .i32_add()
        .i64_load(mem(0, 0))
        .i64_store(mem(0, 0));
    a.get(i).i32(8).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).get(n).i().i32_ge_u();
    a.br_if(exit);
    a.get(dst).get(i).i().i32_add();
    a.get(src)
        .get(i)
        .i()
        .i32_add()
        .i32_load8_u(mem(0, 0))
        .i32_store8(mem(0, 0));
    a.get(i).i32(1).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
}

pub const I32: ValType = ValType::I32;
pub const I64: ValType = ValType::I64;
