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
//! literals), [`pytype`] (type hints and copies), [`structs`] (the
//! dataclasses of `TYPES`), `lower` (expressions and statements),
//! [`module`] (the whole file), `exec` (running it).

mod exec;
pub mod facts;
mod lower;
pub mod module;
pub mod names;
pub mod py;
pub mod pytype;
pub mod structs;
pub mod text;
mod writer;

use isu_plugin_api::{
    Artifact, Backend, BackendCode, BackendInfo, CompileOptions, ExecOptions, FeatureSet, Literal,
    PluginDiagnostic, Program, SettingInfo,
};

/// The artifact kind (and the only target) of this backend.
pub const KIND: &str = "python";

/// The setting naming the Python 3 interpreter `execute` runs.
pub const SETTING_PYTHON: &str = "python";

/// The Python backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct PythonBackend;

impl Backend for PythonBackend {
    fn info(&self) -> BackendInfo {
        // The whole language as of feature vocabulary 5 (SORT, SPLIT, UPPER,
        // CONTAINS and INDEX_OF: lower/call.rs; `limit_work`: the
        // work budget, lower/work.rs; `limit_memory`: the memory limit,
        // lower/memory.rs; `struct`: dataclasses, structs.rs; vocabulary 6:
        // BREAK and CONTINUE, (list ...), (if ...), string index;
        // vocabulary 7: floats, Python's own, lower/float.rs).
        BackendInfo::new(
            KIND,
            env!("CARGO_PKG_VERSION"),
            &[KIND],
            FeatureSet::all_of(7),
        )
        .emitting(&[KIND])
        .executing(KIND, false)
        .with_setting(SettingInfo::new(
            SETTING_PYTHON,
            "The Python 3 interpreter (3.9 or later) that runs the module: a command or a path.",
            &[],
            "python3",
        ))
    }

    fn compile(
        &self,
        program: &Program,
        options: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        if !options.target.is_empty() && options.target != KIND {
            return Err(vec![PluginDiagnostic::backend(
                BackendCode::UnsupportedTarget,
                format!("the Python backend has no target `{}`", options.target),
            )]);
        }
        if let Some(other) = options.emit.iter().find(|k| *k != KIND) {
            return Err(vec![PluginDiagnostic::backend(
                BackendCode::UnsupportedEmit,
                format!("the Python backend cannot emit `{other}`, only `{KIND}`"),
            )]);
        }
        self.info().check_features(program).map_err(|d| vec![d])?;
        let text = module::module(program, &options.lowerings).map_err(|d| vec![d])?;
        let file_name = format!("{}.py", names::function(&program.func.name.name));
        Ok(vec![Artifact::new(KIND, file_name, text.into_bytes())])
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        options: &ExecOptions,
    ) -> Result<Literal, PluginDiagnostic> {
        let info = self.info();
        let python = isu_plugin_api::backend::setting(&info, &options.settings, SETTING_PYTHON)
            .unwrap_or("python3");
        exec::execute(artifacts, args, &options.limits, python)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;

// The plugin library's root module (spec/plugin-abi.md): the host loads this
// backend through `isu-plugins.toml`.
isu_plugin_api::export_backend!(PythonBackend);
