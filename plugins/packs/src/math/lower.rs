//! The `math` pack's lowerings, one module per target, each listing the
//! files of `lower/math/TARGET/` (`spec/plugin-abi.md`, "Writing a pack").

mod llvm;
mod python;
mod wasm;

use isu_plugin_api::pack::TargetLowerings;

/// Every target the pack has lowerings for.
pub const TARGETS: &[TargetLowerings] = &[python::LOWERINGS, wasm::LOWERINGS, llvm::LOWERINGS];
