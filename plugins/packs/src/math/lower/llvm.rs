//! The `math` pack for the `llvm` target: each function LLVM IR defining
//! `@math.NAME` with the parameters of its signature and the calling site
//! last (`spec/plugin-abi.md`, "Lowerings for LLVM").

use isu_plugin_api::pack::TargetLowerings;

pub const LOWERINGS: TargetLowerings = TargetLowerings {
    target: "llvm",
    functions: &[
        ("GCD", include_str!("../../../lower/math/llvm/gcd.ll")),
        ("LCM", include_str!("../../../lower/math/llvm/lcm.ll")),
        ("POW", include_str!("../../../lower/math/llvm/pow.ll")),
        ("ISQRT", include_str!("../../../lower/math/llvm/isqrt.ll")),
        ("MIN", include_str!("../../../lower/math/llvm/min.ll")),
        ("MAX", include_str!("../../../lower/math/llvm/max.ll")),
        ("CLAMP", include_str!("../../../lower/math/llvm/clamp.ll")),
    ],
};
