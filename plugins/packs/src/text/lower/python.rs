//! The `text` pack for the `python` target: each function a `def` named
//! `text__NAME` (`spec/plugin-abi.md`, "Lowerings for Python").

use isu_plugin_api::pack::TargetLowerings;

pub const LOWERINGS: TargetLowerings = TargetLowerings {
    target: "python",
    functions: &[
        (
            "STARTS_WITH",
            include_str!("../../../lower/text/python/starts_with.py"),
        ),
        (
            "ENDS_WITH",
            include_str!("../../../lower/text/python/ends_with.py"),
        ),
        (
            "REPLACE",
            include_str!("../../../lower/text/python/replace.py"),
        ),
        ("FIND", include_str!("../../../lower/text/python/find.py")),
        (
            "SUBSTR",
            include_str!("../../../lower/text/python/substr.py"),
        ),
        (
            "PAD_LEFT",
            include_str!("../../../lower/text/python/pad_left.py"),
        ),
        (
            "PAD_RIGHT",
            include_str!("../../../lower/text/python/pad_right.py"),
        ),
        (
            "IS_DIGIT",
            include_str!("../../../lower/text/python/is_digit.py"),
        ),
        (
            "IS_ALPHA",
            include_str!("../../../lower/text/python/is_alpha.py"),
        ),
        ("ORD", include_str!("../../../lower/text/python/ord.py")),
        ("CHR", include_str!("../../../lower/text/python/chr.py")),
    ],
};
