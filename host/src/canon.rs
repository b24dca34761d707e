//! Canonicalization: step IDs by the canonical scheme, and the canonical text.
//!
//! The canonical IDs follow the structure of the program: the steps of the
//! root `SEQ` are `S1, S2, ...`; the children of `S2` (the steps of its THEN
//! and ELSE blocks, of its BODY, or of its own block for a nested SEQ, in
//! source order and counted across blocks) are `S2_1, S2_2, ...`; and so on
//! down. [`canonicalize`] gives every step that ID and reports what the source
//! got wrong; [`print`] writes the one canonical text of a program.
//!
//! Both are total: they never fail and never panic, whatever program they get.

mod fields;
mod ids;
mod print;

pub use ids::{canonicalize, map_json, map_text, number_step, renumber, renumber_block, IdMap};
pub use print::{print, print_expr, print_iter, print_patch, print_place, print_step, print_with};

#[cfg(test)]
pub(crate) mod testing;
