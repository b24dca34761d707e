//! The size work counts (`spec/semantics.md` 7, `isu_lang::work`): the
//! characters of a string; the elements of an array plus their sizes; the
//! entries of a map plus the sizes of their keys and values; the fields of
//! a struct plus their sizes. The compiled
//! code reads the size of a flat value (`size_is_length`) from its header and
//! calls `size` only for nested ones, which walks no further than past the
//! fuel left, as the reference interpreter's `size_upto` does.

use super::{elem_addr, load32, load_val};
use crate::asm::{Asm, Local};
use crate::layout::{slot_shift, CHARS, DATA, ENTRY_VALUE, LEN};
use crate::module::{ModuleBuilder, Rt};
use isu_plugin_api::work::{has_size, size_is_length};
use isu_plugin_api::Type;
use wasm_encoder::{BlockType, ValType};

/// `size(v, limit) -> i64`: the size of `v` of type `ty`, or, once the walk
/// passes `limit` (unsigned), some size above it.
pub fn size(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type) {
    let v = a.param(0);
    let limit = a.param(1);
    match ty {
        Type::String => {
            a.get(v);
            load32(a, CHARS);
            a.i().i64_extend_i32_u();
        }
        _ if size_is_length(ty) => {
            a.get(v);
            load32(a, LEN);
            a.i().i64_extend_i32_u();
        }
        Type::Array(_) | Type::Map(..) => walk(mb, a, ty, v, limit),
        Type::Struct(_) => super::record::size(mb, a, ty, v, limit),
        _ => {
            a.i64(0);
        }
    }
}

/// The walk over the elements or entries of a nested array or map in `v`.
fn walk(mb: &mut ModuleBuilder, a: &mut Asm, ty: &Type, v: Local, limit: Local) {
    let n = a.local(ValType::I64);
    let i = a.local(ValType::I32);
    let len = a.local(ValType::I32);
    a.get(v);
    load32(a, LEN);
    a.set(len);
    let exit = a.block(BlockType::Empty);
    let top = a.loop_(BlockType::Empty);
    a.get(i).get(len).i().i32_ge_u();
    a.br_if(exit);
    // Past the limit: stop (the interpreter stops after the element that
    // passed it).
    a.get(n).get(limit).i().i64_gt_u();
    a.br_if(exit);
    a.get(n).i64(1).i().i64_add();
    a.set(n);
    match ty {
        Type::Array(e) => {
            let e = (**e).clone();
            add_size(mb, a, &e, n, limit, |a| {
                elem_addr(a, v, i, slot_shift(&e));
                load_val(a, &e, DATA);
            });
        }
        Type::Map(k, x) => {
            let (k, x) = ((**k).clone(), (**x).clone());
            add_size(mb, a, &k, n, limit, |a| {
                elem_addr(a, v, i, 4);
                load_val(a, &k, DATA);
            });
            add_size(mb, a, &x, n, limit, |a| {
                elem_addr(a, v, i, 4);
                load_val(a, &x, DATA + ENTRY_VALUE);
            });
        }
        _ => {}
    }
    a.get(i).i32(1).i().i32_add();
    a.set(i);
    a.br(top);
    a.end();
    a.end();
    a.get(n);
}

/// Adds to `n` the size of a value of `ty` that `load` pushes, walked no
/// further than past what is left of `limit` (nothing when `ty` has none).
pub(super) fn add_size(
    mb: &mut ModuleBuilder,
    a: &mut Asm,
    ty: &Type,
    n: Local,
    limit: Local,
    load: impl FnOnce(&mut Asm),
) {
    if !has_size(ty) {
        return;
    }
    a.get(n);
    load(a);
    if *ty == Type::String {
        load32(a, CHARS);
        a.i().i64_extend_i32_u();
    } else {
        // What is left of the limit, 0 once past it.
        let f = mb.rt(Rt::Size(ty.clone()));
        a.i64(0);
        a.get(limit).get(n).i().i64_sub();
        a.get(n).get(limit).i().i64_gt_u().select();
        a.i().call(f);
    }
    a.i().i64_add();
    a.set(n);
}
