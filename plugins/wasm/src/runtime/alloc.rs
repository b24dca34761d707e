//! The allocator: power-of-two size classes (16 bytes to 2 GiB, the block
//! header included) with one free list each, over a bump region that grows
//! linear memory when it must. A block's first word holds its class, the
//! second the next free block while it is free; the pointer handed out is
//! the block plus 8. `reset` forgets every object at once.

use super::{load32, raise_if, store32, StepArg, I32, I64};
use crate::abi::ErrorCode;
use crate::asm::{Asm, Local};
use crate::layout::FREE_LISTS;
use crate::module::{g, ModuleBuilder};
use wasm_encoder::BlockType;

/// The largest request `alloc` serves.
pub const MAX_REQUEST: i32 = 0x7FFF_0000;

/// `alloc(size) -> ptr`.
pub fn alloc(mb: &mut ModuleBuilder, a: &mut Asm) {
    let size = a.param(0);
    let class = a.local(I32);
    let blk = a.local(I32);
    let head = a.local(I32);
    let end = a.local(I64);
    let have = a.local(I64);
    a.get(size).i32(MAX_REQUEST).i().i32_gt_u();
    raise_if(mb, a, ErrorCode::OutOfMemory, StepArg::Const(-1));
    // class = max(4, ceil(log2(size + 8)))
    a.i32(32).get(size).i32(7).i().i32_add().i32_clz().i32_sub();
    a.set(class);
    a.get(class).i32(4).i().i32_lt_u();
    a.if_(BlockType::Empty);
    a.i32(4).set(class);
    a.end();
    a.get(class)
        .i32(2)
        .i()
        .i32_shl()
        .i32_const(FREE_LISTS as i32)
        .i32_add();
    a.set(head);
    a.get(head);
    load32(a, 0);
    a.tee(blk);
    a.if_(BlockType::Empty);
    {
        a.get(head).get(blk);
        load32(a, 4);
        store32(a, 0);
    }
    a.else_();
    {
        a.i().global_get(g::HEAP_TOP);
        a.set(blk);
        a.get(blk).i().i64_extend_i32_u();
        a.i64(1)
            .get(class)
            .i()
            .i64_extend_i32_u()
            .i64_shl()
            .i64_add();
        a.set(end);
        a.i()
            .memory_size(0)
            .i64_extend_i32_u()
            .i64_const(16)
            .i64_shl();
        a.set(have);
        a.get(end).get(have).i().i64_gt_u();
        a.if_(BlockType::Empty);
        {
            // Grow by what is missing, and at least by half again.
            a.get(end)
                .get(have)
                .i()
                .i64_sub()
                .i64_const(65535)
                .i64_add();
            a.i64(16).i().i64_shr_u();
            a.get(have).i64(17).i().i64_shr_u();
            let wanted = a.temp(I64);
            let half = a.temp(I64);
            a.set(half).set(wanted);
            a.get(wanted)
                .get(half)
                .get(wanted)
                .get(half)
                .i()
                .i64_gt_u()
                .select();
            a.i().i32_wrap_i64().memory_grow(0).i32_const(-1).i32_eq();
            a.if_(BlockType::Empty);
            {
                // Try for exactly what is missing before giving up.
                a.get(wanted)
                    .i()
                    .i32_wrap_i64()
                    .memory_grow(0)
                    .i32_const(-1)
                    .i32_eq();
                raise_if(mb, a, ErrorCode::OutOfMemory, StepArg::Const(-1));
            }
            a.end();
        }
        a.end();
        a.get(end).i().i32_wrap_i64().global_set(g::HEAP_TOP);
    }
    a.end();
    a.get(blk).get(class);
    store32(a, 0);
    a.get(blk).i32(8).i().i32_add();
}

/// `free(ptr)`: onto the free list of its class.
pub fn free(a: &mut Asm) {
    let p = a.param(0);
    let blk = a.local(I32);
    let head = a.local(I32);
    a.get(p).i32(8).i().i32_sub();
    a.set(blk);
    a.get(blk);
    load32(a, 0);
    a.i32(2)
        .i()
        .i32_shl()
        .i32_const(FREE_LISTS as i32)
        .i32_add();
    a.set(head);
    a.get(blk).get(head);
    load32(a, 0);
    store32(a, 4);
    a.get(head).get(blk);
    store32(a, 0);
}

/// `reset()`: every object is gone; the heap starts over.
pub fn reset(a: &mut Asm) {
    a.i().global_get(g::HEAP_BASE).global_set(g::HEAP_TOP);
    a.i32(FREE_LISTS as i32).i32(0).i32(32 * 4);
    a.i().memory_fill(0);
}

/// Pushes the usable bytes of the block behind pointer `p`: its size less
/// the block header.
pub fn usable(a: &mut Asm, p: Local) {
    a.i32(1).get(p).i32(8).i().i32_sub();
    load32(a, 0);
    a.i().i32_shl().i32_const(8).i32_sub();
}
