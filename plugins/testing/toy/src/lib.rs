//! The toy backend, the worked minimal example of `spec/plugin-abi.md`: a
//! backend in two small files that a new backend author can read in ten
//! minutes.
//!
//! Its target `toy` "compiles" a program to its own IIR JSON and
//! "executes" that by walking it ([`eval`]). It handles ints and bools and
//! the standard functions `ABS`, `MIN`, `MAX`, and leaves everything else out
//! of the features it declares ([`BackendInfo::features`]), so
//! `isu conformance --target toy` reports the other cases as unsupported.

pub mod eval;

use isu_plugin_api::{
    Artifact, Backend, BackendCode, BackendInfo, CompileOptions, ExecOptions, FeatureSet, Literal,
    PluginDiagnostic, Program, FEATURE_SET_VERSION,
};

pub use eval::SUPPORTS;

#[derive(Debug, Default)]
pub struct ToyBackend;

impl Backend for ToyBackend {
    fn info(&self) -> BackendInfo {
        let features = FeatureSet::only(FEATURE_SET_VERSION, SUPPORTS);
        BackendInfo::new("toy", env!("CARGO_PKG_VERSION"), &["toy"], features)
            .emitting(&["iir-json"])
            .executing("iir-json", false)
    }

    fn compile(
        &self,
        program: &Program,
        options: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        if let Some(kind) = options.emit.iter().find(|k| k.as_str() != "iir-json") {
            return Err(vec![PluginDiagnostic::backend(
                BackendCode::UnsupportedEmit,
                format!("the toy backend emits only iir-json, not {kind}"),
            )]);
        }
        if let Some(l) = options.lowerings.first() {
            return Err(vec![PluginDiagnostic::backend(
                BackendCode::UnsupportedFeature,
                format!(
                    "the toy backend cannot call pack functions ({})",
                    l.function
                ),
            )]);
        }
        let json = serde_json::to_vec_pretty(program).map_err(|e| {
            vec![PluginDiagnostic::backend(
                BackendCode::BackendFailed,
                e.to_string(),
            )]
        })?;
        let file_name = format!("{}.toy.json", program.func.name.name);
        Ok(vec![Artifact::new("iir-json", file_name, json)])
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        options: &ExecOptions,
    ) -> Result<Literal, PluginDiagnostic> {
        let Some(artifact) = artifacts.iter().find(|a| a.kind == "iir-json") else {
            return Err(PluginDiagnostic::backend(
                BackendCode::CannotExecute,
                "no iir-json artifact to execute",
            ));
        };
        let failed = |e: String| PluginDiagnostic::backend(BackendCode::BackendFailed, e);
        let text = std::str::from_utf8(&artifact.bytes).map_err(|e| failed(e.to_string()))?;
        let program: Program =
            isu_plugin_api::json::from_str(text).map_err(|e| failed(e.to_string()))?;
        eval::run(&program, args, &options.limits)
    }
}

isu_plugin_api::export_backend!(ToyBackend);
