//! `text`, the string pack that ships with Isu. Each function is one row of
//! [`FUNCTIONS`]: its signature, documentation, errors, the code the
//! interpreter calls (in [`strings`]) and its lowering for each target: one
//! file per function under `lower/text/TARGET/`, listed in
//! `src/text/lower/TARGET.rs` (`spec/plugin-abi.md`, "Writing a pack",
//! gives each target's convention).
//!
//! Positions and lengths count characters (Unicode scalar values), as `LEN`
//! and `SLICE` do. `UPPER`, `LOWER`, `CONTAINS`, `INDEX_OF`, `SPLIT`,
//! `JOIN` and `REVERSE` are standard functions, so the pack does not repeat
//! them (a call of `text.REVERSE` gets the fix that calls `REVERSE`).

mod lower;
pub mod strings;

use isu_plugin_api::pack::{FunctionDef, TablePack};

/// The pack's functions, in the order `isu plugins list` shows them.
pub const FUNCTIONS: &[FunctionDef] = &[
    FunctionDef {
        name: "STARTS_WITH",
        signature: "(string, string) -> bool",
        doc: "STARTS_WITH(s, prefix): whether s begins with prefix; every string begins with \"\".",
        errors: &[],
        call: strings::starts_with,
    },
    FunctionDef {
        name: "ENDS_WITH",
        signature: "(string, string) -> bool",
        doc: "ENDS_WITH(s, suffix): whether s ends with suffix; every string ends with \"\".",
        errors: &[],
        call: strings::ends_with,
    },
    FunctionDef {
        name: "REPLACE",
        signature: "(string, string, string) -> string",
        doc: "REPLACE(s, old, new): s with every occurrence of old, from left to right and not overlapping, replaced by new.",
        errors: &[
            "out_of_domain: old is the empty string",
            "size_limit: the result would be longer than the size limit",
        ],
        call: strings::replace,
    },
    FunctionDef {
        name: "FIND",
        signature: "(string, string, int) -> int",
        doc: "FIND(s, t, start): the first position at or after start where t occurs in s, or -1; t = \"\" is found at start.",
        errors: &["index_out_of_range: start is below 0 or past LEN(s)"],
        call: strings::find,
    },
    FunctionDef {
        name: "SUBSTR",
        signature: "(string, int, int) -> string",
        doc: "SUBSTR(s, start, count): the count characters of s from position start.",
        errors: &["index_out_of_range: start or count is below 0, or start + count is past LEN(s)"],
        call: strings::substr,
    },
    FunctionDef {
        name: "PAD_LEFT",
        signature: "(string, int, string) -> string",
        doc: "PAD_LEFT(s, width, fill): s with the one-character fill added before it up to width characters; s itself when it has width or more.",
        errors: &[
            "out_of_domain: fill is not one character",
            "size_limit: width is past the size limit",
        ],
        call: strings::pad_left,
    },
    FunctionDef {
        name: "PAD_RIGHT",
        signature: "(string, int, string) -> string",
        doc: "PAD_RIGHT(s, width, fill): s with the one-character fill added after it up to width characters; s itself when it has width or more.",
        errors: &[
            "out_of_domain: fill is not one character",
            "size_limit: width is past the size limit",
        ],
        call: strings::pad_right,
    },
    FunctionDef {
        name: "IS_DIGIT",
        signature: "(string) -> bool",
        doc: "Whether a string is not empty and each of its characters is an ASCII digit 0-9.",
        errors: &[],
        call: strings::is_digit,
    },
    FunctionDef {
        name: "IS_ALPHA",
        signature: "(string) -> bool",
        doc: "Whether a string is not empty and each of its characters is an ASCII letter a-z or A-Z.",
        errors: &[],
        call: strings::is_alpha,
    },
    FunctionDef {
        name: "ORD",
        signature: "(string) -> int",
        doc: "The Unicode scalar value of a one-character string: ORD(\"A\") is 65.",
        errors: &["out_of_domain: the string is not one character"],
        call: strings::ord,
    },
    FunctionDef {
        name: "CHR",
        signature: "(int) -> string",
        doc: "The one-character string of a Unicode scalar value: CHR(65) is \"A\".",
        errors: &["out_of_domain: the int is no Unicode scalar value (below 0, past 0x10FFFF, or 0xD800-0xDFFF)"],
        call: strings::chr,
    },
];

/// The `text` pack.
pub const TEXT: TablePack = TablePack {
    namespace: "text",
    version: env!("CARGO_PKG_VERSION"),
    functions: FUNCTIONS,
    lowerings: lower::TARGETS,
};
