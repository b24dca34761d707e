//! The `text` pack for the `llvm` target: each function LLVM IR defining
//! `@text.NAME` with the parameters of its signature and the calling site
//! last (`spec/plugin-abi.md`, "Lowerings for LLVM").

use isu_plugin_api::pack::TargetLowerings;

pub const LOWERINGS: TargetLowerings = TargetLowerings {
    target: "llvm",
    functions: &[
        (
            "STARTS_WITH",
            include_str!("../../../lower/text/llvm/starts_with.ll"),
        ),
        (
            "ENDS_WITH",
            include_str!("../../../lower/text/llvm/ends_with.ll"),
        ),
        (
            "REPLACE",
            include_str!("../../../lower/text/llvm/replace.ll"),
        ),
        ("FIND", include_str!("../../../lower/text/llvm/find.ll")),
        ("SUBSTR", include_str!("../../../lower/text/llvm/substr.ll")),
        (
            "PAD_LEFT",
            include_str!("../../../lower/text/llvm/pad_left.ll"),
        ),
        (
            "PAD_RIGHT",
            include_str!("../../../lower/text/llvm/pad_right.ll"),
        ),
        (
            "IS_DIGIT",
            include_str!("../../../lower/text/llvm/is_digit.ll"),
        ),
        (
            "IS_ALPHA",
            include_str!("../../../lower/text/llvm/is_alpha.ll"),
        ),
        ("ORD", include_str!("../../../lower/text/llvm/ord.ll")),
        ("CHR", include_str!("../../../lower/text/llvm/chr.ll")),
    ],
};
