//! Random values of a type: the constants of programs and the arguments of
//! runs. Ints lean to the edges of 64 bits and to small numbers, strings to
//! characters that differ between byte, UTF-16 and scalar counts, and to
//! digits (for `PARSE_INT`) and separators (for `SPLIT`).

use super::rng::Rng;
use crate::iir::StructDef;
use crate::literal::Literal;
use crate::types::Type;
use std::collections::BTreeMap;

/// Ints at the edges: of 64 bits, of the square root of the range, and
/// around zero.
pub(super) const EDGES: &[i64] = &[
    0,
    1,
    -1,
    2,
    3,
    7,
    -7,
    16,
    201,
    1 << 31,
    3_037_000_499,
    3_037_000_500,
    i64::MAX,
    i64::MIN,
    i64::MAX - 1,
    i64::MIN + 1,
];

/// Pieces strings are made of.
const PIECES: &[&str] = &[
    "a", "b", "ab", "A", "Z", "z", " ", ",", "-", "0", "1", "7", "42", "-3", "é", "語", "😀", "\t",
    "x y", "  ", "\n",
];

/// Whole strings, for `PARSE_INT` and `SPLIT` at their edges.
const STRINGS: &[&str] = &[
    "",
    "0",
    "-0",
    "12",
    "-45",
    "+1",
    "1a",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "a,b,,c",
    ",",
    "hello world",
    " two  words ",
    "ÉCOLE école",
    "😀😀",
];

/// The string keys maps mostly hold, so that reads find them.
const KEYS: &[&str] = &["a", "b", "é"];

/// A map key of type `ty` (`int` or `string`): mostly one of a few.
pub(super) fn key(rng: &mut Rng, ty: &Type) -> Literal {
    match ty {
        Type::Int => Literal::Int(if rng.chance(85) {
            rng.between(0, 2)
        } else {
            int(rng)
        }),
        _ if rng.chance(85) => Literal::Str((*rng.pick(KEYS)).to_owned()),
        _ => Literal::Str(string(rng)),
    }
}

pub(super) fn int(rng: &mut Rng) -> i64 {
    match rng.below(12) {
        0..=5 => rng.between(-5, 9),
        6..=8 => *rng.pick(EDGES),
        9 | 10 => super::edges::int_value(rng),
        _ => rng.between(-1000, 1000),
    }
}

pub(super) fn string(rng: &mut Rng) -> String {
    if rng.chance(35) {
        return (*rng.pick(STRINGS)).to_owned();
    }
    if rng.chance(5) {
        return (*rng.pick(super::floats::TEXTS)).to_owned();
    }
    let n = rng.below(4);
    (0..n).map(|_| *rng.pick(PIECES)).collect()
}

/// A value of `ty` with at most `len` elements in each collection; `structs`
/// declares the structs it may hold.
pub(super) fn value(rng: &mut Rng, ty: &Type, len: usize, structs: &[StructDef]) -> Literal {
    sized(rng, ty, len, 0, structs)
}

/// A value of `ty` whose every collection holds at least one element, so
/// that a constant of it has its type on its own (`[]` could be any array).
/// No constant holds a struct ([`holds_struct`]): the caller builds those.
pub(super) fn filled(rng: &mut Rng, ty: &Type, len: usize) -> Literal {
    sized(rng, ty, len.max(1), 1, &[])
}

/// Whether a value of `ty` holds a struct, which no constant can
/// (`(const {...})` is a map): expressions build it.
pub(super) fn holds_struct(ty: &Type) -> bool {
    match ty {
        Type::Struct(_) => true,
        Type::Array(e) => holds_struct(e),
        Type::Map(_, v) => holds_struct(v),
        Type::Int | Type::Float | Type::Bool | Type::String => false,
    }
}

fn sized(rng: &mut Rng, ty: &Type, len: usize, least: usize, structs: &[StructDef]) -> Literal {
    match ty {
        Type::Int => Literal::Int(int(rng)),
        Type::Float => Literal::Float(super::floats::float(rng)),
        Type::Bool => Literal::Bool(rng.chance(50)),
        Type::String => Literal::Str(string(rng)),
        Type::Array(elem) => {
            let n = super::edges::count(rng, least, len);
            Literal::Array(
                (0..n)
                    .map(|_| sized(rng, elem, len / 2 + 1, least, structs))
                    .collect(),
            )
        }
        Type::Map(key_ty, val) => {
            let n = super::edges::count(rng, least, len);
            let mut m = BTreeMap::new();
            for _ in 0..n {
                let k = match key(rng, key_ty) {
                    Literal::Str(s) => s,
                    other => other.to_string(),
                };
                m.insert(k, sized(rng, val, len / 2 + 1, least, structs));
            }
            Literal::Object(m)
        }
        // Every declared field; an undeclared struct gets none, the shape
        // no program accepts, so the mistake would show at once.
        Type::Struct(name) => {
            let fields = structs
                .iter()
                .find(|d| d.name.name == *name)
                .map_or(&[][..], |d| &d.fields[..]);
            Literal::Object(
                fields
                    .iter()
                    .map(|f| (f.name.name.clone(), sized(rng, &f.ty, len, least, structs)))
                    .collect(),
            )
        }
    }
}
