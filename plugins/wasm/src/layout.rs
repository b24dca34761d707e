//! How Isu values live in Wasm: ints as `i64`, floats as `f64`, bools as `i32`, and strings,
//! arrays, maps and structs as `i32` pointers to reference-counted heap
//! objects.
//!
//! Every string, array and map starts with a 16-byte header:
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
//!
//! A struct is a fixed-layout record: its reference count at offset 0, then
//! from [`FIELDS`] one 8-byte slot per field in declaration order
//! ([`field_offset`]), each holding the field's value as an array slot would
//! (an int in 8 bytes, a pointer in 4, a bool in 1). It has no capacity or
//! length: its type says how many fields it has.

use isu_plugin_api::{StructDef, Type};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use wasm_encoder::ValType;

pub const RC: u64 = 0;
pub const CAP: u64 = 4;
pub const LEN: u64 = 8;
pub const CHARS: u64 = 12;
pub const DATA: u64 = 16;
/// Offset of the value within a map entry.
pub const ENTRY_VALUE: u64 = 8;

/// Offset of a struct's first field slot.
pub const FIELDS: u64 = 8;

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
/// for a bool, 4 for a pointer, 8 for an int or a float.
pub fn slot_shift(elem: &Type) -> i32 {
    match elem {
        Type::Int | Type::Float => 3,
        Type::Bool => 0,
        _ => 2,
    }
}

/// Offset of the slot of field number `index` (declaration order) in a struct.
pub fn field_offset(index: usize) -> u64 {
    FIELDS + 8 * index as u64
}

/// The bytes a struct of `fields` fields takes.
pub fn record_bytes(fields: usize) -> u64 {
    field_offset(fields)
}

/// The Wasm type of a value of `ty`.
pub fn val_type(ty: &Type) -> ValType {
    match ty {
        Type::Int => ValType::I64,
        Type::Float => ValType::F64,
        _ => ValType::I32,
    }
}

/// Whether values of `ty` are pointers to counted heap objects.
pub fn is_heap(ty: &Type) -> bool {
    matches!(
        ty,
        Type::String | Type::Array(_) | Type::Map(..) | Type::Struct(_)
    )
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

/// One field of a struct: its name and type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: Type,
}

/// The fields of each struct of the program, in declaration order, by the
/// struct's name: what the runtime functions of a struct type and a host
/// encoding its values need to know (a [`Type::Struct`] names its struct
/// only).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Structs(BTreeMap<String, Vec<Field>>);

impl Structs {
    /// The structs of a program's `TYPES`.
    pub fn of(defs: &[StructDef]) -> Structs {
        Structs(
            defs.iter()
                .map(|d| {
                    let fields = d
                        .fields
                        .iter()
                        .map(|f| Field {
                            name: f.name.name.clone(),
                            ty: f.ty.clone(),
                        })
                        .collect();
                    (d.name.name.clone(), fields)
                })
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The fields of the struct type `ty`, in declaration order (none for
    /// any other type, or a struct the program does not declare).
    pub fn fields(&self, ty: &Type) -> &[Field] {
        match ty {
            Type::Struct(name) => self.0.get(name).map_or(&[], Vec::as_slice),
            _ => &[],
        }
    }

    /// The position (declaration order) and type of field `name` of the
    /// struct type `ty`.
    pub fn field(&self, ty: &Type, name: &str) -> Option<(usize, &Type)> {
        self.fields(ty)
            .iter()
            .enumerate()
            .find(|(_, f)| f.name == name)
            .map(|(i, f)| (i, &f.ty))
    }
}
