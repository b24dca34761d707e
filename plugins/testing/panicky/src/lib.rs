//! A test fixture: a backend whose `info` works and whose `compile` and
//! `execute` panic. The host must get an error value from each and go on.

use isu_plugin_api::{
    Artifact, Backend, BackendInfo, CompileOptions, ExecOptions, FeatureSet, Literal,
    PluginDiagnostic, Program, FEATURE_SET_VERSION,
};

#[derive(Debug, Default)]
pub struct Panicky;

impl Backend for Panicky {
    fn info(&self) -> BackendInfo {
        // Every feature: every case reaches `compile`, which panics.
        BackendInfo::new(
            "panicky",
            "0.1.0",
            &["panicky"],
            FeatureSet::all_of(FEATURE_SET_VERSION),
        )
        .emitting(&["text"])
        .executing("text", false)
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
        _: &ExecOptions,
    ) -> Result<Literal, PluginDiagnostic> {
        panic!("execute went wrong")
    }
}

isu_plugin_api::export_backend!(Panicky);
