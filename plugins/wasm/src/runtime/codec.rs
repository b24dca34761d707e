//! The binary encoding of values that crosses the module's boundary
//! (`spec/wasm-abi.md`): an int is 8 bytes little-endian, a bool 1 byte, a
//! string a `u32` byte length and its UTF-8, an array a `u32` count and its
//! elements, a map a `u32` count and its key/value pairs in ascending key
//! order, a struct its fields in declaration order (no count: its type
//! fixes them).

use super::text::emit_count_chars;
use super::{check_size, elem_addr, for_range_mb, load32, load_val, raise_if, store32, store_val};
use super::{StepArg, I32};
use crate::asm::{mem, Asm};
use crate::layout::{field_offset, is_heap, slot_shift, DATA, ENTRY_VALUE, LEN};
use crate::module::{g, ModuleBuilder, Rt};
use isu_plugin_api::RuntimeCode;
use isu_plugin_api::Type;
use wasm_encoder::BlockType;

/// Advances the decoder's cursor by `n` bytes.
fn advance(a: &mut Asm, n: i32) {
    a.i()
        .global_get(g::CURSOR)
        .i32_const(n)
        .i32_add()
        .global_set(g::CURSOR);
}

/// `decode() -> v`: reads a value of `ty` at the cursor.
pub fn decode(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    match ty {
        Type::Float => {
            a.i().global_get(g::CURSOR).f64_load(mem(0, 3));
            advance(a, 8);
        }
        Type::Int => {
            a.i().global_get(g::CURSOR).i64_load(mem(0, 0));
            advance(a, 8);
        }
        Type::Bool => {
            a.i()
                .global_get(g::CURSOR)
                .i32_load8_u(mem(0, 0))
                .i32_const(0)
                .i32_ne();
            advance(a, 1);
        }
        Type::String => {
            let n = a.local(I32);
            let src = a.local(I32);
            let q = a.local(I32);
            a.i().global_get(g::CURSOR).i32_load(mem(0, 0));
            a.set(n);
            advance(a, 4);
            a.i().global_get(g::CURSOR);
            a.set(src);
            let new = mb.rt(Rt::StrNew);
            a.get(n);
            emit_count_chars(a, src, n);
            a.i().call(new);
            a.tee(q).i32(DATA as i32).i().i32_add();
            a.get(src).get(n).i();
            super::emit_copy(mb, a);
            a.i()
                .global_get(g::CURSOR)
                .local_get(n.0)
                .i32_add()
                .global_set(g::CURSOR);
            a.get(q);
        }
        Type::Array(e) => {
            let n = a.local(I32);
            let q = a.local(I32);
            let i = a.local(I32);
            a.i().global_get(g::CURSOR).i32_load(mem(0, 0));
            a.set(n);
            advance(a, 4);
            let new = mb.rt(Rt::ArrNew(slot_shift(e)));
            a.get(n).i().call(new);
            a.set(q);
            let e = (**e).clone();
            let dec = mb.rt(Rt::Decode(e.clone()));
            for_range_mb(mb, a, i, n, |_, a| {
                elem_addr(a, q, i, slot_shift(&e));
                a.i().call(dec);
                store_val(a, &e, DATA);
                a.get(q).get(i).i32(1).i().i32_add();
                store32(a, LEN);
            });
            a.get(q);
        }
        Type::Map(k, v) => {
            let n = a.local(I32);
            let q = a.local(I32);
            let i = a.local(I32);
            a.i().global_get(g::CURSOR).i32_load(mem(0, 0));
            a.set(n);
            advance(a, 4);
            let new = mb.rt(Rt::MapNew);
            a.get(n).i().call(new);
            a.set(q);
            let (k, v) = ((**k).clone(), (**v).clone());
            let dk = mb.rt(Rt::Decode(k.clone()));
            let dv = mb.rt(Rt::Decode(v.clone()));
            let cmp = mb.rt(Rt::StrCmp);
            for_range_mb(mb, a, i, n, |mb, a| {
                elem_addr(a, q, i, 4);
                a.i().call(dk);
                store_val(a, &k, DATA);
                elem_addr(a, q, i, 4);
                a.i().call(dv);
                store_val(a, &v, DATA + ENTRY_VALUE);
                a.get(q).get(i).i32(1).i().i32_add();
                store32(a, LEN);
                // Keys must come strictly ascending.
                a.get(i);
                a.if_(BlockType::Empty);
                elem_addr(a, q, i, 4);
                load_val(a, &k, DATA - 16);
                elem_addr(a, q, i, 4);
                load_val(a, &k, DATA);
                match k {
                    Type::Int => {
                        a.i().i64_ge_s();
                    }
                    _ => {
                        a.i().call(cmp).i32_const(0).i32_ge_s();
                    }
                }
                raise_if(mb, a, RuntimeCode::InvalidArgument, StepArg::Const(-1));
                a.end();
            });
            a.get(q);
        }
        Type::Struct(_) => {
            let q = a.local(I32);
            let new = mb.rt(Rt::StructNew(ty.clone()));
            a.i().call(new);
            a.set(q);
            for (i, f) in mb.fields(ty).iter().enumerate() {
                let dec = mb.rt(Rt::Decode(f.ty.clone()));
                a.get(q).i().call(dec);
                store_val(a, &f.ty, field_offset(i));
            }
            a.get(q);
        }
    }
}

/// Counts one JSON node of the result; `size_limit` past the limit.
fn count_nodes(mb: &mut ModuleBuilder, a: &mut Asm, n: Option<crate::asm::Local>) {
    a.i().global_get(g::NODES);
    match n {
        Some(n) => {
            a.get(n).i().i64_extend_i32_u().i64_add();
        }
        None => {
            a.i64(1).i().i64_add();
        }
    }
    a.i().global_set(g::NODES).global_get(g::NODES);
    let step = a.temp(I32);
    a.i().global_get(g::RET_STEP);
    a.set(step);
    check_size(mb, a, StepArg::Local(step));
    a.release(step);
}

/// `enc_size(v) -> bytes`, counting the result's JSON nodes.
pub fn enc_size(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let v = a.param(0);
    count_nodes(mb, a, None);
    match ty {
        Type::Float => {
            a.i32(8);
        }
        Type::Int => {
            a.i32(8);
        }
        Type::Bool => {
            a.i32(1);
        }
        Type::String => {
            a.get(v);
            load32(a, LEN);
            a.i32(4).i().i32_add();
        }
        Type::Array(e) if !is_heap(e) => {
            let n = a.local(I32);
            a.get(v);
            load32(a, LEN);
            a.set(n);
            count_nodes(mb, a, Some(n));
            a.get(n)
                .i32(slot_shift(e))
                .i()
                .i32_shl()
                .i32_const(4)
                .i32_add();
        }
        Type::Array(e) => {
            let n = a.local(I32);
            let i = a.local(I32);
            let total = a.local(I32);
            let f = mb.rt(Rt::EncSize((**e).clone()));
            a.get(v);
            load32(a, LEN);
            a.set(n);
            a.i32(4).set(total);
            for_range_mb(mb, a, i, n, |_, a| {
                a.get(total);
                elem_addr(a, v, i, 2);
                load32(a, DATA);
                a.i().call(f).i32_add();
                a.set(total);
            });
            a.get(total);
        }
        Type::Map(k, val) => {
            let n = a.local(I32);
            let i = a.local(I32);
            let total = a.local(I32);
            let fv = mb.rt(Rt::EncSize((**val).clone()));
            a.get(v);
            load32(a, LEN);
            a.set(n);
            a.i32(4).set(total);
            let (k, val) = ((**k).clone(), (**val).clone());
            for_range_mb(mb, a, i, n, |_, a| {
                a.get(total);
                // A key names its entry: its bytes, but no JSON node of its own.
                match &k {
                    Type::String => {
                        elem_addr(a, v, i, 4);
                        load_val(a, &k, DATA);
                        load32(a, LEN);
                        a.i32(4).i().i32_add();
                    }
                    _ => {
                        a.i32(8);
                    }
                }
                a.i().i32_add();
                elem_addr(a, v, i, 4);
                load_val(a, &val, DATA + ENTRY_VALUE);
                a.i().call(fv).i32_add();
                a.set(total);
            });
            a.get(total);
        }
        Type::Struct(_) => {
            // Each field is a JSON node of its own (counted by its
            // `enc_size`); its name, like a map's key, counts nothing.
            a.i32(0);
            for (i, f) in mb.fields(ty).iter().enumerate() {
                let fs = mb.rt(Rt::EncSize(f.ty.clone()));
                a.get(v);
                load_val(a, &f.ty, field_offset(i));
                a.i().call(fs).i32_add();
            }
        }
    }
}

/// `enc(v, p) -> p'`: writes `v` at `p`, returns the end.
pub fn enc(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let v = a.param(0);
    let p = a.param(1);
    match ty {
        Type::Float => {
            a.get(p).get(v).i().f64_store(mem(0, 3));
            a.get(p).i32(8).i().i32_add();
        }
        Type::Int => {
            a.get(p).get(v).i().i64_store(mem(0, 0));
            a.get(p).i32(8).i().i32_add();
        }
        Type::Bool => {
            a.get(p).get(v).i().i32_store8(mem(0, 0));
            a.get(p).i32(1).i().i32_add();
        }
        Type::String => {
            let n = a.local(I32);
            a.get(p).get(v);
            load32(a, LEN);
            a.tee(n).i().i32_store(mem(0, 0));
            a.get(p).i32(4).i().i32_add();
            a.get(v).i32(DATA as i32).i().i32_add();
            a.get(n).i();
            super::emit_copy(mb, a);
            a.get(p).i32(4).i().i32_add().local_get(n.0).i32_add();
        }
        Type::Array(e) => {
            let n = a.local(I32);
            let i = a.local(I32);
            let f = mb.rt(Rt::Enc((**e).clone()));
            a.get(p).get(v);
            load32(a, LEN);
            a.tee(n).i().i32_store(mem(0, 0));
            a.get(p).i32(4).i().i32_add();
            a.set(p);
            let e = (**e).clone();
            for_range_mb(mb, a, i, n, |_, a| {
                elem_addr(a, v, i, slot_shift(&e));
                load_val(a, &e, DATA);
                a.get(p).i().call(f);
                a.set(p);
            });
            a.get(p);
        }
        Type::Map(k, val) => {
            let n = a.local(I32);
            let i = a.local(I32);
            let fk = mb.rt(Rt::Enc((**k).clone()));
            let fv = mb.rt(Rt::Enc((**val).clone()));
            a.get(p).get(v);
            load32(a, LEN);
            a.tee(n).i().i32_store(mem(0, 0));
            a.get(p).i32(4).i().i32_add();
            a.set(p);
            let (k, val) = ((**k).clone(), (**val).clone());
            for_range_mb(mb, a, i, n, |_, a| {
                elem_addr(a, v, i, 4);
                load_val(a, &k, DATA);
                a.get(p).i().call(fk);
                a.set(p);
                elem_addr(a, v, i, 4);
                load_val(a, &val, DATA + ENTRY_VALUE);
                a.get(p).i().call(fv);
                a.set(p);
            });
            a.get(p);
        }
        Type::Struct(_) => {
            for (i, f) in mb.fields(ty).iter().enumerate() {
                let fe = mb.rt(Rt::Enc(f.ty.clone()));
                a.get(v);
                load_val(a, &f.ty, field_offset(i));
                a.get(p).i().call(fe);
                a.set(p);
            }
            a.get(p);
        }
    }
}

/// `encode(v, step) -> ptr`: the result's encoding in a new buffer, its
/// length in the global `RESULT_LEN`; `size_limit` at `step` when the result
/// has more JSON nodes than the size limit.
pub fn encode(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let v = a.param(0);
    let step = a.param(1);
    let size = a.local(I32);
    let buf = a.local(I32);
    a.get(step).i().global_set(g::RET_STEP);
    a.i64(0).i().global_set(g::NODES);
    let fs = mb.rt(Rt::EncSize(ty.clone()));
    let fe = mb.rt(Rt::Enc(ty.clone()));
    let alloc = mb.rt(Rt::Alloc);
    a.get(v).i().call(fs);
    a.tee(size).i().global_set(g::RESULT_LEN);
    a.get(size).i().call(alloc);
    a.set(buf);
    a.get(v).get(buf).i().call(fe).drop();
    a.get(buf);
}
