//! The `text` pack for the `python` target: each function a `def` named
//! `text__NAME` (`spec/plugin-abi.md`, "Lowerings for Python").

use isu_plugin_api::pack::TargetLowerings;

pub const LOWERINGS: TargetLowerings = TargetLowerings {
    target: "python",
    functions: &[
        (
            "STARTS_WITH",
            include_str!("../../lower/python/starts_with.py"),
        ),
        ("ENDS_WITH", include_str!("../../lower/python/ends_with.py")),
        ("REPLACE", include_str!("../../lower/python/replace.py")),
        ("FIND", include_str!("../../lower/python/find.py")),
        ("SUBSTR", include_str!("../../lower/python/substr.py")),
        ("PAD_LEFT", include_str!("../../lower/python/pad_left.py")),
        ("PAD_RIGHT", include_str!("../../lower/python/pad_right.py")),
        ("REVERSE", include_str!("../../lower/python/reverse.py")),
        ("IS_DIGIT", include_str!("../../lower/python/is_digit.py")),
        ("IS_ALPHA", include_str!("../../lower/python/is_alpha.py")),
        ("ORD", include_str!("../../lower/python/ord.py")),
        ("CHR", include_str!("../../lower/python/chr.py")),
    ],
};
