//! The JavaScript loader: an ES module that loads the `.wasm` beside it
//! and exposes the Isu function with plain JavaScript values.
use crate::meta::Meta;

/// The loader's source for a module with `meta`, loading `wasm_file`.
pub fn loader(meta: &Meta, wasm_file: &str) -> String {
    let meta_json = String::from_utf8(meta.to_json()).unwrap_or_default();
    let file_json = serde_json::to_string(wasm_file).unwrap_or_default();
    TEMPLATE
        .replace("@META@", &meta_json)
        .replace("@FILE@", &file_json)
        .replace("@NAME@", &meta.name)
}

const TEMPLATE: &str = include_str!("js/loader.mjs");
