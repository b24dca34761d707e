//! A test fixture: the root module of a backend built against plugin API
//! 1.0, as `isu_plugin_api` 1.0 defined it (its stable types included,
//! copied here since the crate no longer has them). A host of plugin API 2
//! must refuse it before any call, naming both versions.
#![allow(unsafe_code)] // abi_stable's derives and export attribute expand to unsafe code

use abi_stable::library::RootModule;
use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::sabi_types::VersionStrings;
use abi_stable::std_types::{ROption, RResult, RSlice, RStr, RString, RVec};
use abi_stable::{declare_root_module_statics, export_root_module, StableAbi};

#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy)]
pub struct ApiVersion {
    pub major: u32,
    pub minor: u32,
}

#[repr(C)]
#[derive(StableAbi, Debug, Clone)]
pub struct AbiDiagnostic {
    pub kind: RString,
    pub code: RString,
    pub step: ROption<RString>,
    pub message: RString,
    pub hint: ROption<RString>,
}

#[repr(C)]
#[derive(StableAbi, Debug, Clone)]
pub struct AbiBackendInfo {
    pub name: RString,
    pub version: RString,
    pub targets: RVec<RString>,
    pub emits: RVec<RString>,
    pub lacks: RVec<RString>,
}

#[repr(C)]
#[derive(StableAbi, Debug, Clone)]
pub struct AbiArtifact {
    pub kind: RString,
    pub file_name: RString,
    pub bytes: RVec<u8>,
}

#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy)]
pub struct AbiLimits {
    pub max_steps: u64,
    pub max_size: u64,
}

/// Plugin API 1.0's backend root module.
#[repr(C)]
#[derive(StableAbi, Debug)]
#[sabi(kind(Prefix(prefix_ref = BackendModRef)))]
#[sabi(missing_field(option))]
pub struct BackendMod {
    pub api_version: ApiVersion,
    pub info: extern "C" fn() -> RResult<AbiBackendInfo, AbiDiagnostic>,
    pub compile: extern "C" fn(
        iir_json: RStr<'_>,
        options_json: RStr<'_>,
    ) -> RResult<RVec<AbiArtifact>, RVec<AbiDiagnostic>>,
    #[sabi(last_prefix_field)]
    pub execute: extern "C" fn(
        artifacts: RSlice<'_, AbiArtifact>,
        args_json: RStr<'_>,
        limits: AbiLimits,
    ) -> RResult<RString, AbiDiagnostic>,
}

impl RootModule for BackendModRef {
    declare_root_module_statics! {BackendModRef}
    const BASE_NAME: &'static str = "isu_backend";
    const NAME: &'static str = "isu backend";
    const VERSION_STRINGS: VersionStrings = VersionStrings::new("1.0.0");
}

fn refused() -> AbiDiagnostic {
    AbiDiagnostic {
        kind: "BackendError".into(),
        code: "backend_failed".into(),
        step: ROption::RNone,
        message: "the host called a plugin it should have refused".into(),
        hint: ROption::RNone,
    }
}

extern "C" fn info() -> RResult<AbiBackendInfo, AbiDiagnostic> {
    RResult::RErr(refused())
}

extern "C" fn compile(_: RStr<'_>, _: RStr<'_>) -> RResult<RVec<AbiArtifact>, RVec<AbiDiagnostic>> {
    RResult::RErr(vec![refused()].into())
}

extern "C" fn execute(
    _: RSlice<'_, AbiArtifact>,
    _: RStr<'_>,
    _: AbiLimits,
) -> RResult<RString, AbiDiagnostic> {
    RResult::RErr(refused())
}

#[export_root_module]
pub fn root() -> BackendModRef {
    BackendMod {
        api_version: ApiVersion { major: 1, minor: 0 },
        info,
        compile,
        execute,
    }
    .leak_into_prefix()
}
