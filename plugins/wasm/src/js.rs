//! The JavaScript loader: an ES module that loads the `.wasm` beside it
//! and exposes the Isu function with plain JavaScript values.
use crate::meta::Meta;
use isu_plugin_api::ExecLimits;

/// The loader's source for a module with `meta`, loading `wasm_file`.
pub fn loader(meta: &Meta, wasm_file: &str) -> String {
    let meta_json = String::from_utf8(meta.to_json()).unwrap_or_default();
    let file_json = serde_json::to_string(wasm_file).unwrap_or_default();
    // The program's own text (in META) goes in last, so that nothing in it
    // is taken for a placeholder.
    TEMPLATE
        .replace("@NAME@", &meta.name)
        .replace("@MAX_STEPS@", &ExecLimits::DEFAULT.max_steps.to_string())
        .replace("@MAX_SIZE@", &ExecLimits::DEFAULT.max_size.to_string())
        .replace("@MAX_MEMORY@", &ExecLimits::DEFAULT.max_memory.to_string())
        .replace("@FILE@", &file_json)
        .replace("@META@", &meta_json)
}

const TEMPLATE: &str = include_str!("js/loader.mjs");

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_limits_are_written_in_from_the_one_constant() {
        let d = isu_plugin_api::ExecLimits::DEFAULT;
        let text = super::TEMPLATE
            .replace("@MAX_STEPS@", &d.max_steps.to_string())
            .replace("@MAX_SIZE@", &d.max_size.to_string())
            .replace("@MAX_MEMORY@", &d.max_memory.to_string());
        assert!(text.contains(&format!("limits.maxSteps ?? {}n", d.max_steps)));
        assert!(text.contains(&format!("limits.maxSize ?? {}n", d.max_size)));
        assert!(text.contains(&format!("limits.maxMemory ?? {}n", d.max_memory)));
        assert!(!text.contains("@MAX_"));
        assert!(super::TEMPLATE.contains("@MAX_STEPS@"));
    }
}
