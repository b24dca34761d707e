//! Floats and text: TO_STRING of a float and PARSE_FLOAT, whose exact
//! algorithms are written in WebAssembly text (`float.wat`, copied into the
//! module under the pack lowerings' convention, `crate::pack`) and called
//! here with the checks of the language around them.

use super::raise_if;
use super::StepArg;
use crate::asm::Asm;
use crate::module::ModuleBuilder;
use isu_plugin_api::RuntimeCode;
use wasm_encoder::ValType;

/// The runtime functions of floats in WebAssembly text.
pub const SOURCE: &str = include_str!("float.wat");

/// The module's index of the function `float.wat` exports as `name`, its
/// functions copied in on first use; `None` only if `float.wat` were
/// broken, which its tests rule out.
fn merged(mb: &mut ModuleBuilder, name: &str) -> Option<u32> {
    if mb.floats.is_none() {
        mb.floats = crate::pack::merge_runtime(mb, "float", SOURCE).ok();
    }
    mb.floats.as_ref()?.get(name).copied()
}

/// `float_repr(x) -> s`: the text of `x` as Python's repr writes it.
pub fn repr(mb: &mut ModuleBuilder, a: &mut Asm) {
    let x = a.param(0);
    match merged(mb, "isu_rt__float_repr") {
        Some(f) => {
            a.get(x).i().call(f);
        }
        None => {
            a.i().unreachable();
        }
    }
}

/// `parse_float(s, step) -> x`: `invalid_number` for text that is no
/// decimal number, `float_not_finite` for one beyond the float range.
pub fn parse(mb: &mut ModuleBuilder, a: &mut Asm) {
    let s = a.param(0);
    let step = a.param(1);
    let Some(f) = merged(mb, "isu_rt__parse_float") else {
        a.i().unreachable();
        return;
    };
    let x = a.local(ValType::F64);
    a.get(s).i().call(f);
    a.set(x);
    // NaN: no number.
    a.get(x).get(x).i().f64_ne();
    raise_if(mb, a, RuntimeCode::InvalidNumber, StepArg::Local(step));
    a.get(x)
        .i()
        .f64_abs()
        .f64_const(f64::INFINITY.into())
        .f64_eq();
    raise_if(mb, a, RuntimeCode::FloatNotFinite, StepArg::Local(step));
    a.get(x);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_merges_and_exports_both_functions() {
        let mut mb = ModuleBuilder::default();
        let merged = crate::pack::merge_runtime(&mut mb, "float", SOURCE);
        let names: Vec<String> = merged.map(|m| m.into_keys().collect()).unwrap_or_default();
        assert_eq!(names, ["isu_rt__float_repr", "isu_rt__parse_float"]);
    }
}
