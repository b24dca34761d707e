//! The Python backend: one canonical, validated Isu program to one Python 3
//! module (3.9 or later, standard library only), and running it.
//!
//! The module holds a small runtime (`src/runtime.py`: checked arithmetic
//! where Python's ints would silently grow, `div` and `mod` as Isu defines
//! them, the standard functions, size and fuel limits, JSON at the boundary),
//! then one function named after `FUNC.NAME` with type hints, each step a
//! comment above the code it became. Runtime errors carry the code and step
//! the reference interpreter gives.
//!
//! Layout: [`names`] (Isu names as Python names), [`facts`] (what the
//! generator learns about the program first: its own facts and the
//! language's shared analyses, whose value bounds let checks go and whose
//! liveness skips copies), [`py`] and [`text`] (Python expressions and
//! literals), [`pytype`] (type hints and copies), `lower` (expressions and
//! statements), [`module`] (the whole file), `exec` (running it).

mod exec;
pub mod facts;
mod lower;
pub mod module;
pub mod names;
pub mod py;
pub mod pytype;
pub mod text;
mod writer;

use isu_plugin_api::{
    Artifact, Backend, BackendInfo, CompileOptions, ExecLimits, Literal, PluginDiagnostic, Program,
};

/// The artifact kind (and the only target) of this backend.
pub const KIND: &str = "python";

/// The Python backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct PythonBackend;

impl Backend for PythonBackend {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: KIND.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            targets: vec![KIND.into()],
            emits: vec![KIND.into()],
            lacks: Vec::new(),
        }
    }

    fn compile(
        &self,
        program: &Program,
        options: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        if !options.target.is_empty() && options.target != KIND {
            return Err(vec![PluginDiagnostic::backend(
                "unsupported_feature",
                format!("the Python backend has no target `{}`", options.target),
            )]);
        }
        if let Some(other) = options.emit.iter().find(|k| *k != KIND) {
            return Err(vec![PluginDiagnostic::backend(
                "unsupported_emit",
                format!("the Python backend cannot emit `{other}`, only `{KIND}`"),
            )]);
        }
        let text = module::module(program, &options.lowerings).map_err(|d| vec![d])?;
        Ok(vec![Artifact {
            kind: KIND.into(),
            file_name: format!("{}.py", names::function(&program.func.name.name)),
            bytes: text.into_bytes(),
        }])
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        limits: &ExecLimits,
    ) -> Result<Literal, PluginDiagnostic> {
        exec::execute(artifacts, args, limits)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;

// The plugin library's root module (spec/plugin-abi.md): the host loads this
// backend through `isu-plugins.toml`.
isu_plugin_api::export_backend!(PythonBackend);
