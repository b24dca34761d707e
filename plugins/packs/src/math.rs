//! `math`, the integer pack that ships with Isu: `math.GCD`, `LCM`, `POW`,
//! `ISQRT`, `MIN` and `MAX` of an array, `CLAMP`. Each function is one row
//! of [`FUNCTIONS`]: its signature, documentation, errors, the code the
//! interpreter calls (in [`ints`]) and its lowering for each target: one
//! file per function under `lower/math/TARGET/`, listed in
//! `src/math/lower/TARGET.rs` (`spec/plugin-abi.md`, "Writing a pack",
//! gives each target's convention).
//!
//! `ABS`, and `MIN`/`MAX` of two ints, are standard functions already, so
//! the pack does not repeat them: one name, one meaning.

pub mod ints;
mod lower;

use isu_plugin_api::pack::{FunctionDef, TablePack};

/// The pack's functions, in the order `isu plugins list` shows them.
pub const FUNCTIONS: &[FunctionDef] = &[
    FunctionDef {
        name: "GCD",
        signature: "(int, int) -> int",
        doc: "The greatest common divisor of two ints, never negative; GCD(0, 0) is 0.",
        errors: &["int_overflow: the divisor is 2^63 (both arguments are -2^63, or one is and the other 0)"],
        call: ints::gcd,
    },
    FunctionDef {
        name: "LCM",
        signature: "(int, int) -> int",
        doc: "The least common multiple of two ints, never negative; 0 when either is 0.",
        errors: &["int_overflow: the multiple is outside the int range"],
        call: ints::lcm,
    },
    FunctionDef {
        name: "POW",
        signature: "(int, int) -> int",
        doc: "POW(b, e): b to the power e, for e >= 0; POW(b, 0) is 1, POW(0, 0) too.",
        errors: &[
            "out_of_domain: the exponent is negative",
            "int_overflow: the power is outside the int range",
        ],
        call: ints::pow,
    },
    FunctionDef {
        name: "ISQRT",
        signature: "(int) -> int",
        doc: "The integer square root: the largest r with r * r <= n, for n >= 0.",
        errors: &["out_of_domain: n is negative"],
        call: ints::isqrt,
    },
    FunctionDef {
        name: "MIN",
        signature: "(int[]) -> int",
        doc: "The smallest element of an array of ints.",
        errors: &["empty_collection: the array is empty"],
        call: ints::min,
    },
    FunctionDef {
        name: "MAX",
        signature: "(int[]) -> int",
        doc: "The largest element of an array of ints.",
        errors: &["empty_collection: the array is empty"],
        call: ints::max,
    },
    FunctionDef {
        name: "CLAMP",
        signature: "(int, int, int) -> int",
        doc: "CLAMP(x, lo, hi): x if lo <= x <= hi, else the bound it passes.",
        errors: &["out_of_domain: lo is greater than hi"],
        call: ints::clamp,
    },
];

/// The `math` pack.
pub const MATH: TablePack = TablePack {
    namespace: "math",
    version: env!("CARGO_PKG_VERSION"),
    functions: FUNCTIONS,
    lowerings: lower::TARGETS,
};
