//! How Isu values live in Wasm: ints as `i64`, bools as `i32`, and strings,
//! arrays and maps as `i32` pointers to reference-counted heap objects.
//!
//! Every heap object starts with a 16-byte header:
//!
//! | offset | string             | array               | map                  |
//! |--------|--------------------|---------------------|----------------------|
//! | 0      | reference count    | reference count     | reference count      |
//! | 4      | capacity (bytes)   | capacity (elements) | capacity (entries)   |
//! | 8      | length (bytes)     | length (elements)   | length (entries)     |
//! | 12     | length (chars)     | unused              | unused               |
//! | 16     | UTF-8 bytes        | slots               | 16-byte entries      |
//!
//! A reference count below zero marks an immortal object (a constant in the
//! data segment): it is never counted, written or freed. An array slot holds
//! an int in 8 bytes, a pointer in 4, a bool in 1 ([`slot_shift`]); a map
//! entry holds its key at bytes 0..8 and its value at bytes 8..16, each
//! stored the same way.
//! Entries are sorted by key, ascending, without repeats.

use isu_plugin_api::Type;
use wasm_encoder::ValType;

pub const RC: u64 = 0;
pub const CAP: u64 = 4;
pub const LEN: u64 = 8;
pub const CHARS: u64 = 12;
pub const DATA: u64 = 16;
/// Offset of the value within a map entry.
pub const ENTRY_VALUE: u64 = 8;

/// The reference count of an immortal (static) object.
pub const IMMORTAL: i32 = -1;

/// Memory map: address 0 is the null pointer; the free-list heads of the
/// allocator's size classes start at `FREE_LISTS` (one `i32` per class); a
/// scratch area for number formatting at `SCRATCH`; static data from
/// `STATIC_BASE` on, the heap after it.
pub const FREE_LISTS: u32 = 64;
pub const SCRATCH: u32 = 256;
pub const STATIC_BASE: u32 = 1024;

/// log2 of the bytes of one array slot holding a value of `elem`: 1 byte
/// for a bool, 4 for a pointer, 8 for an int.
pub fn slot_shift(elem: &Type) -> i32 {
    match elem {
        Type::Int => 3,
        Type::Bool => 0,
        _ => 2,
    }
}

/// The Wasm type of a value of `ty`.
pub fn val_type(ty: &Type) -> ValType {
    match ty {
        Type::Int => ValType::I64,
        _ => ValType::I32,
    }
}

/// Whether values of `ty` are pointers to counted heap objects.
pub fn is_heap(ty: &Type) -> bool {
    matches!(ty, Type::String | Type::Array(_) | Type::Map(..))
}

/// The element type of an array type, the key and value types of a map type.
pub fn elem(ty: &Type) -> &Type {
    match ty {
        Type::Array(e) => e,
        _ => ty,
    }
}

pub fn key_value(ty: &Type) -> (&Type, &Type) {
    match ty {
        Type::Map(k, v) => (k, v),
        _ => (ty, ty),
    }
}
