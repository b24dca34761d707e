//! The two root modules a plugin library can export: a backend or a pack.
//!
//! Both are abi_stable prefix types: a later minor plugin-API version may add
//! fields after the last prefix field (read by the host as optional), never
//! change or remove one before it. Everything but the bytes of artifacts
//! crosses as JSON text, so what the JSON holds can grow by minor versions
//! too (optional fields, ignored by older readers).
//!
//! An error crosses as JSON as well: one [`PluginDiagnostic`] for `info`,
//! `execute` and the pack's calls, an array of them for `compile`.
//!
//! [`PluginDiagnostic`]: crate::PluginDiagnostic

use super::stable::AbiArtifact;
use super::{ApiVersion, ROOT_MODULE_VERSION};
use abi_stable::library::RootModule;
use abi_stable::sabi_types::VersionStrings;
use abi_stable::std_types::{ROption, RResult, RSlice, RStr, RString, RVec};
use abi_stable::{declare_root_module_statics, StableAbi};

/// The root module of a backend plugin.
#[repr(C)]
#[derive(StableAbi, Debug)]
#[sabi(kind(Prefix(prefix_ref = BackendModRef)))]
#[sabi(missing_field(option))]
pub struct BackendMod {
    /// The plugin-API version the plugin was built against; the host checks
    /// it before any call.
    pub api_version: ApiVersion,
    /// Who the backend is: [`BackendInfo`](crate::BackendInfo) as JSON.
    pub info: extern "C" fn() -> RResult<RString, RString>,
    /// Compiles a program, given as its IIR JSON (canonical, validated,
    /// typed), with [`CompileOptions`](crate::CompileOptions) as JSON.
    pub compile: extern "C" fn(
        iir_json: RStr<'_>,
        options_json: RStr<'_>,
    ) -> RResult<RVec<AbiArtifact>, RString>,
    /// Runs compiled artifacts with the arguments (a JSON object) and
    /// [`ExecOptions`](crate::ExecOptions) as JSON; the result as JSON, or
    /// the runtime error.
    #[sabi(last_prefix_field)]
    pub execute: extern "C" fn(
        artifacts: RSlice<'_, AbiArtifact>,
        args_json: RStr<'_>,
        options_json: RStr<'_>,
    ) -> RResult<RString, RString>,
}

impl RootModule for BackendModRef {
    declare_root_module_statics! {BackendModRef}
    const BASE_NAME: &'static str = "isu_backend";
    const NAME: &'static str = "isu backend";
    const VERSION_STRINGS: VersionStrings = VersionStrings::new(ROOT_MODULE_VERSION);
}

/// The root module of a standard-function pack.
#[repr(C)]
#[derive(StableAbi, Debug)]
#[sabi(kind(Prefix(prefix_ref = PackModRef)))]
#[sabi(missing_field(option))]
pub struct PackMod {
    /// The plugin-API version the plugin was built against; the host checks
    /// it before any call.
    pub api_version: ApiVersion,
    /// The namespace and the functions with their signatures:
    /// [`PackInfo`](crate::PackInfo) as JSON.
    pub info: extern "C" fn() -> RResult<RString, RString>,
    /// Calls a function (name without namespace) with its arguments as a JSON
    /// array; the result as JSON, or the runtime error.
    pub call: extern "C" fn(function: RStr<'_>, args_json: RStr<'_>) -> RResult<RString, RString>,
    /// The definition of a function for a target, or none.
    #[sabi(last_prefix_field)]
    pub lower:
        extern "C" fn(function: RStr<'_>, target: RStr<'_>) -> RResult<ROption<RString>, RString>,
    /// Plugin API 2.1: `call` with the run's size limit, which a function
    /// whose result can outgrow its arguments checks before it builds it.
    /// Absent from a pack built against 2.0, which the host calls by `call`.
    pub call_within: extern "C" fn(
        function: RStr<'_>,
        args_json: RStr<'_>,
        max_size: u64,
    ) -> RResult<RString, RString>,
}

impl RootModule for PackModRef {
    declare_root_module_statics! {PackModRef}
    const BASE_NAME: &'static str = "isu_pack";
    const NAME: &'static str = "isu pack";
    const VERSION_STRINGS: VersionStrings = VersionStrings::new(ROOT_MODULE_VERSION);
}
