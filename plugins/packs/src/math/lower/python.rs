//! The `math` pack for the `python` target: each function a `def` named
//! `math__NAME` (`spec/plugin-abi.md`, "Lowerings for Python").

use isu_plugin_api::pack::TargetLowerings;

pub const LOWERINGS: TargetLowerings = TargetLowerings {
    target: "python",
    functions: &[
        ("GCD", include_str!("../../../lower/math/python/gcd.py")),
        ("LCM", include_str!("../../../lower/math/python/lcm.py")),
        ("POW", include_str!("../../../lower/math/python/pow.py")),
        ("ISQRT", include_str!("../../../lower/math/python/isqrt.py")),
        ("MIN", include_str!("../../../lower/math/python/min.py")),
        ("MAX", include_str!("../../../lower/math/python/max.py")),
        ("CLAMP", include_str!("../../../lower/math/python/clamp.py")),
    ],
};
