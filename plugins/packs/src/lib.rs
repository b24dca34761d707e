//! The packs that ship with Isu, as tables (`isu_plugin_api::pack::TablePack`):
//! [`math`] and [`text`]. Each is exported as a plugin by a crate of its own
//! (`plugins/math`, `plugins/text`: one root module a library), and linked
//! as this library by tests that run them in-process beside a backend (two
//! plugin crates cannot be linked into one binary: each exports the root
//! module's symbol).

pub mod math;
pub mod text;

use isu_plugin_api::pack::TablePack;

/// Both packs.
pub const SHIPPED: [TablePack; 2] = [math::MATH, text::TEXT];

#[cfg(test)]
mod tests {
    use super::SHIPPED;
    use isu_plugin_api::Pack;

    /// Every function of every shipped pack has a `wasm` lowering that
    /// exports it under the convention's name (`spec/plugin-abi.md`,
    /// "Lowerings for Wasm"); the Wasm backend's tests compile and run them.
    #[test]
    fn every_function_has_a_wasm_lowering() {
        for pack in SHIPPED {
            let info = pack.info();
            for f in &info.functions {
                let wat = pack.lower(&f.name, "wasm").unwrap_or_default();
                let export = format!("(export \"{}__{}\")", info.namespace, f.name);
                assert!(
                    wat.trim_start().starts_with(";;") && wat.contains(&export),
                    "{}.{}: {wat}",
                    info.namespace,
                    f.name
                );
            }
        }
    }
}
