//! A test fixture: a backend whose `info` works and whose `compile` and
//! `execute` panic. The host must get an error value from each and go on.

use isu_plugin_api::{
    Artifact, Backend, BackendInfo, CompileOptions, ExecLimits, Literal, PluginDiagnostic, Program,
};

#[derive(Debug, Default)]
pub struct Panicky;

impl Backend for Panicky {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: "panicky".into(),
            version: "0.1.0".into(),
            targets: vec!["panicky".into()],
            emits: vec!["text".into()],
            lacks: Vec::new(),
        }
    }

    fn compile(
        &self,
        program: &Program,
        _: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        panic!("compile of {} went wrong", program.func.name.name)
    }

    fn execute(
        &self,
        _: &[Artifact],
        _: &Literal,
        _: &ExecLimits,
    ) -> Result<Literal, PluginDiagnostic> {
        panic!("execute went wrong")
    }
}

isu_plugin_api::export_backend!(Panicky);
