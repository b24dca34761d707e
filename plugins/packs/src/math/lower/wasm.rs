//! The `math` pack for the `wasm` target: each function a WebAssembly text
//! module exporting `math__NAME` (`spec/plugin-abi.md`, "Lowerings for
//! Wasm").

use isu_plugin_api::pack::TargetLowerings;

pub const LOWERINGS: TargetLowerings = TargetLowerings {
    target: "wasm",
    functions: &[
        ("GCD", include_str!("../../../lower/math/wasm/gcd.wat")),
        ("LCM", include_str!("../../../lower/math/wasm/lcm.wat")),
        ("POW", include_str!("../../../lower/math/wasm/pow.wat")),
        ("ISQRT", include_str!("../../../lower/math/wasm/isqrt.wat")),
        ("MIN", include_str!("../../../lower/math/wasm/min.wat")),
        ("MAX", include_str!("../../../lower/math/wasm/max.wat")),
        ("CLAMP", include_str!("../../../lower/math/wasm/clamp.wat")),
    ],
};
