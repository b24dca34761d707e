//! The `math` pack for the `python` target: each function a `def` named
//! `math__NAME` (`spec/plugin-abi.md`, "Lowerings for Python").

use isu_plugin_api::pack::TargetLowerings;

pub const LOWERINGS: TargetLowerings = TargetLowerings {
    target: "python",
    functions: &[
        ("GCD", include_str!("../../lower/python/gcd.py")),
        ("LCM", include_str!("../../lower/python/lcm.py")),
        ("POW", include_str!("../../lower/python/pow.py")),
        ("ISQRT", include_str!("../../lower/python/isqrt.py")),
        ("MIN", include_str!("../../lower/python/min.py")),
        ("MAX", include_str!("../../lower/python/max.py")),
        ("CLAMP", include_str!("../../lower/python/clamp.py")),
    ],
};
