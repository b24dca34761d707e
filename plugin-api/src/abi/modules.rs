//! The two root modules a plugin library can export: a backend or a pack.
//!
//! Both are abi_stable prefix types: a later minor plugin-API version may add
//! fields after the last prefix field (read by the host as optional), never
//! change or remove one before it (abi_stable refuses a library with fewer
//! fields all the same, so the older pack layouts are kept in
//! [`super::older`]). Everything but the bytes of artifacts and the values
//! of a pack call crosses as JSON text, so what the JSON holds can grow by
//! minor versions too (optional fields, ignored by older readers).
//!
//! An error crosses as JSON as well: one [`PluginDiagnostic`] for `info`,
//! `execute` and the pack's calls, an array of them for `compile`.
//!
//! [`PluginDiagnostic`]: crate::PluginDiagnostic

use super::stable::{AbiArtifact, AbiValue, Scalar};
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
    /// Plugin API 2.2: `call_within` of the function at `index` in the
    /// pack's `PackInfo.functions` (the host finds it once, when it loads
    /// the pack), its arguments and result crossing as values, not JSON.
    /// The error is still a diagnostic as JSON: it is rare, and a string
    /// keeps the result no larger than the value. Absent from a pack built
    /// against 2.1 or 2.0, which the host calls by name.
    pub call_at: extern "C" fn(
        index: u32,
        args: RSlice<'_, AbiValue>,
        max_size: u64,
    ) -> RResult<AbiValue, RString>,
    /// Plugin API 2.3: `call_at` of a function whose parameters and result
    /// are all scalars (int, float, bool), its arguments and result crossing
    /// as [`Scalar`]s, which neither side builds or converts. Absent from a
    /// pack built against 2.2 or older, which the host calls by `call_at`.
    pub call_scalar: extern "C" fn(
        index: u32,
        args: RSlice<'_, Scalar>,
        max_size: u64,
    ) -> RResult<Scalar, RString>,
}

impl RootModule for PackModRef {
    declare_root_module_statics! {PackModRef}
    const BASE_NAME: &'static str = "isu_pack";
    const NAME: &'static str = "isu pack";
    const VERSION_STRINGS: VersionStrings = VersionStrings::new(ROOT_MODULE_VERSION);
}
