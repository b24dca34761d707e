//! Structs: fixed-layout records of one slot per field
//! ([`crate::layout::field_offset`]), counted and copied on write like
//! arrays and maps. Their functions are unrolled over the fields, which
//! the struct's type fixes: a new record, a unique one to write into,
//! dropping and counting what the fields hold, equality field by field,
//! and the size work counts.

use super::rc::{emit_drop, emit_eq};
use super::{load32, load_val, store32, I32};
use crate::asm::{Asm, Local};
use crate::layout::{field_offset, is_heap, record_bytes, RC};
use crate::module::{ModuleBuilder, Rt};
use isu_plugin_api::Type;
use wasm_encoder::BlockType;

/// `struct_new() -> p`: a record of the struct type `ty` with one reference
/// and its slots not yet written (the caller stores every field).
pub fn new(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let n = mb.fields(ty).len();
    let p = a.local(I32);
    let alloc = mb.rt(Rt::Alloc);
    a.i32(record_bytes(n) as i32).i().call(alloc);
    a.tee(p).i32(1);
    store32(a, RC);
    a.get(p);
}

/// `grow(p, extra) -> q` for a struct (`extra` is unused: a record never
/// grows): `p` itself when it holds the only reference, else a copy that
/// only `q` holds, each field counted once more, and `p` dropped.
pub fn unique(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let p = a.param(0);
    let q = a.local(I32);
    let n = mb.fields(ty).len();
    a.get(p);
    load32(a, RC);
    a.i32(1).i().i32_eq();
    a.if_(BlockType::Empty);
    a.get(p).i().return_();
    a.end();
    let new = mb.rt(Rt::StructNew(ty.clone()));
    a.i().call(new);
    a.set(q);
    a.get(q).i32(field_offset(0) as i32).i().i32_add();
    a.get(p).i32(field_offset(0) as i32).i().i32_add();
    a.i32((record_bytes(n) - field_offset(0)) as i32);
    super::emit_copy(mb, a);
    inc_fields(mb, a, ty, q);
    let d = mb.rt(Rt::Drop(ty.clone()));
    a.get(p).i().call(d);
    a.get(q);
}

/// Drops every value the fields of the record at `p` hold.
pub fn drop_fields(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type, p: Local) {
    for (i, f) in mb.fields(ty).iter().enumerate() {
        if is_heap(&f.ty) {
            a.get(p);
            load32(a, field_offset(i));
            emit_drop(mb, a, &f.ty);
        }
    }
}

/// Adds a reference to every value the fields of the record at `p` hold.
fn inc_fields(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type, p: Local) {
    let inc = mb.rt(Rt::Inc);
    for (i, f) in mb.fields(ty).iter().enumerate() {
        if is_heap(&f.ty) {
            a.get(p);
            load32(a, field_offset(i));
            a.i().call(inc).drop();
        }
    }
}

/// `eq(x, y) -> i32` for a struct: field by field, each as its type
/// compares (nested structs, arrays and maps deeply).
pub fn eq(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let x = a.param(0);
    let y = a.param(1);
    a.get(x).get(y).i().i32_eq();
    a.if_(BlockType::Empty);
    a.i32(1).i().return_();
    a.end();
    for (i, f) in mb.fields(ty).iter().enumerate() {
        a.get(x);
        load_val(a, &f.ty, field_offset(i));
        a.get(y);
        load_val(a, &f.ty, field_offset(i));
        emit_eq(mb, a, &f.ty);
        a.i().i32_eqz();
        a.if_(BlockType::Empty);
        a.i32(0).i().return_();
        a.end();
    }
    a.i32(1);
}

/// The size work counts of the record in `v`: its fields plus their sizes,
/// walked no further than past `limit` (then some size above it).
pub fn size(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type, v: Local, limit: Local) {
    let fields = mb.fields(ty);
    let n = a.local(wasm_encoder::ValType::I64);
    a.i64(fields.len() as i64).set(n);
    for (i, f) in fields.iter().enumerate() {
        super::work::add_size(mb, a, &f.ty, n, limit, |a| {
            a.get(v);
            load_val(a, &f.ty, field_offset(i));
        });
    }
    a.get(n);
}
