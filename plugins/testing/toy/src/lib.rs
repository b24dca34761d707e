//! The `toy` backend: a complete Isu backend in two small files, to read in
//! ten minutes and to start a new backend from. Its target `toy` "compiles" a
//! program to its own IIR JSON and "executes" that by walking it ([`eval`]).
//! It handles ints and bools and the standard functions `ABS`, `MIN`, `MAX`,
//! and declares everything else in [`BackendInfo::lacks`], so
//! `isu conformance --target toy` reports the other cases as unsupported.
//! `spec/plugin-abi.md` ("Writing a backend") walks through it.

pub mod eval;

use isu_plugin_api::{
    Artifact, Backend, BackendInfo, CompileOptions, ExecLimits, Literal, PluginDiagnostic, Program,
};

/// The features the toy backend lacks, by the names of `isu_plugin_api::features`.
pub const LACKS: &[&str] = &[
    "array",
    "call:CHARS",
    "call:CONCAT",
    "call:JOIN",
    "call:LEN",
    "call:LOWER",
    "call:MAP_GET",
    "call:MAP_GET_OR",
    "call:MAP_HAS",
    "call:MAP_KEYS",
    "call:MAP_SET",
    "call:PARSE_INT",
    "call:POP",
    "call:PUSH",
    "call:REPEAT",
    "call:SLICE",
    "call:SPLIT_WHITESPACE",
    "call:TO_STRING",
    "map",
    "nested_array",
    "string",
];

#[derive(Debug, Default)]
pub struct ToyBackend;

impl Backend for ToyBackend {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: "toy".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            targets: vec!["toy".into()],
            emits: vec!["iir-json".into()],
            lacks: LACKS.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    fn compile(
        &self,
        program: &Program,
        options: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        if let Some(kind) = options.emit.iter().find(|k| k.as_str() != "iir-json") {
            return Err(vec![PluginDiagnostic::backend(
                "unsupported_emit",
                format!("the toy backend emits only iir-json, not {kind}"),
            )]);
        }
        if let Some(l) = options.lowerings.first() {
            return Err(vec![PluginDiagnostic::backend(
                "unsupported_feature",
                format!(
                    "the toy backend cannot call pack functions ({})",
                    l.function
                ),
            )]);
        }
        let json = serde_json::to_vec_pretty(program)
            .map_err(|e| vec![PluginDiagnostic::backend("backend_failed", e.to_string())])?;
        Ok(vec![Artifact {
            kind: "iir-json".into(),
            file_name: format!("{}.toy.json", program.func.name.name),
            bytes: json,
        }])
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        limits: &ExecLimits,
    ) -> Result<Literal, PluginDiagnostic> {
        let Some(artifact) = artifacts.iter().find(|a| a.kind == "iir-json") else {
            return Err(PluginDiagnostic::backend(
                "backend_failed",
                "no iir-json artifact to execute",
            ));
        };
        let program: Program = serde_json::from_slice(&artifact.bytes)
            .map_err(|e| PluginDiagnostic::backend("backend_failed", e.to_string()))?;
        eval::run(&program, args, limits)
    }
}

isu_plugin_api::export_backend!(ToyBackend);
