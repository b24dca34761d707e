//! The `text` pack for the `wasm` target: each function a WebAssembly text
//! module exporting `text__NAME` (`spec/plugin-abi.md`, "Lowerings for
//! Wasm").

use isu_plugin_api::pack::TargetLowerings;

pub const LOWERINGS: TargetLowerings = TargetLowerings {
    target: "wasm",
    functions: &[
        (
            "STARTS_WITH",
            include_str!("../../../lower/text/wasm/starts_with.wat"),
        ),
        (
            "ENDS_WITH",
            include_str!("../../../lower/text/wasm/ends_with.wat"),
        ),
        (
            "REPLACE",
            include_str!("../../../lower/text/wasm/replace.wat"),
        ),
        ("FIND", include_str!("../../../lower/text/wasm/find.wat")),
        (
            "SUBSTR",
            include_str!("../../../lower/text/wasm/substr.wat"),
        ),
        (
            "PAD_LEFT",
            include_str!("../../../lower/text/wasm/pad_left.wat"),
        ),
        (
            "PAD_RIGHT",
            include_str!("../../../lower/text/wasm/pad_right.wat"),
        ),
        (
            "IS_DIGIT",
            include_str!("../../../lower/text/wasm/is_digit.wat"),
        ),
        (
            "IS_ALPHA",
            include_str!("../../../lower/text/wasm/is_alpha.wat"),
        ),
        ("ORD", include_str!("../../../lower/text/wasm/ord.wat")),
        ("CHR", include_str!("../../../lower/text/wasm/chr.wat")),
    ],
};
