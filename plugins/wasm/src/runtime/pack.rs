//! The functions of the module `isu` that pack lowerings import and the
//! runtime has no function of the same signature for ([`PackImport`]);
//! `spec/plugin-abi.md`, "Lowerings for Wasm", documents each. A misuse
//! that only a broken lowering makes (an element index past the end, a
//! search start past the string) traps with no error code: the module's
//! host reports it as a failure of the module, not of the program.

use super::{load32, I32};
use crate::asm::{mem, Asm};
use crate::layout::{CHARS, DATA, LEN};
use crate::module::{g, ModuleBuilder, PackImport, Rt};
use wasm_encoder::BlockType;

/// Writes the body of the import `p`.
pub fn generate(mb: &mut ModuleBuilder, a: &mut Asm, p: PackImport) {
    let x = a.param(0);
    match p {
        PackImport::Fail => {
            let raise = mb.rt(Rt::Raise);
            a.get(x)
                .i()
                .global_get(g::PACK_STEP)
                .call(raise)
                .unreachable();
        }
        PackImport::MaxSize => {
            a.i().global_get(g::MAX_SIZE);
        }
        PackImport::StrBytes | PackImport::ArrLen => {
            a.get(x);
            load32(a, LEN);
        }
        PackImport::StrChars => {
            a.get(x);
            load32(a, CHARS);
        }
        PackImport::StrData => {
            a.get(x).i32(DATA as i32).i().i32_add();
        }
        PackImport::StrFind => str_find(mb, a),
        PackImport::ArrInt | PackImport::ArrBool | PackImport::ArrRef => {
            let i = a.param(1);
            a.get(i).get(x);
            load32(a, LEN);
            a.i().i32_ge_u();
            a.if_(BlockType::Empty);
            a.i().unreachable();
            a.end();
            let shift = match p {
                PackImport::ArrInt => 3,
                PackImport::ArrBool => 0,
                _ => 2,
            };
            a.get(x).get(i).i32(shift).i().i32_shl().i32_add();
            match p {
                PackImport::ArrInt => a.i().i64_load(mem(DATA, 3)),
                PackImport::ArrBool => a.i().i32_load8_u(mem(DATA, 0)),
                _ => a.i().i32_load(mem(DATA, 2)),
            };
        }
    }
}

/// `str_find(h, p, from) -> i32`: Knuth-Morris-Pratt from the byte offset
/// `from`, with a table of its own (none when `p` is empty or cannot fit in
/// what is left of `h`), so a search costs the bytes it passes plus the
/// needle's length.
fn str_find(mb: &mut ModuleBuilder, a: &mut Asm) {
    let h = a.param(0);
    let p = a.param(1);
    let from = a.param(2);
    let t = a.local(I32);
    let r = a.local(I32);
    let left = a.local(I32);
    let table = mb.rt(Rt::KmpTable);
    let find = mb.rt(Rt::Find);
    let free = mb.rt(Rt::Free);
    a.get(h);
    load32(a, LEN);
    a.get(from).i().i32_lt_u();
    a.if_(BlockType::Empty);
    a.i().unreachable();
    a.end();
    a.get(p);
    load32(a, LEN);
    a.i().i32_eqz();
    a.if_(BlockType::Empty);
    a.get(from).i().return_();
    a.end();
    a.get(h);
    load32(a, LEN);
    a.get(from).i().i32_sub();
    a.set(left);
    a.get(p);
    load32(a, LEN);
    a.get(left).i().i32_gt_u();
    a.if_(BlockType::Empty);
    a.i32(-1).i().return_();
    a.end();
    a.get(p).i().call(table);
    a.set(t);
    a.get(h).get(p).get(t).get(from).i().call(find);
    a.set(r);
    a.get(t);
    a.if_(BlockType::Empty);
    a.get(t).i().call(free);
    a.end();
    a.get(r);
}
