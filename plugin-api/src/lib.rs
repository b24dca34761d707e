//! The boundary that Isu's host and its plugins share.
//!
//! It holds what a backend is ([`backend::Backend`]) and what a pack is
//! ([`pack::Pack`]), the abi_stable root modules that carry them across a
//! dynamic-library boundary ([`abi`]), what a backend author writes again
//! otherwise (checking a run's arguments, [`args`]; values in an engine's
//! JSON, [`codec`]; a pool of worker processes with time limits,
//! [`worker`]; the conformance suite from the backend's own test,
//! [`conformance`]), and, re-exported from `isu_lang`, the
//! language itself: the IIR data model with its serde form ([`iir`]), the
//! standard functions ([`stdlib`]), the runtime error codes ([`codes`]), the
//! in-place update rule ([`update`]), the work calls spend ([`work`]) and the
//! analyses every executor shares
//! ([`analysis`]). Plugins depend on this crate only, so it knows nothing of
//! lalrpop, of the interpreter, or of any one backend.
//!
//! The crate's version is the plugin-API version ([`abi::PLUGIN_API_VERSION`]):
//! a plugin built against `isu_plugin_api` 2.x loads into every `isu` of plugin
//! API 2.y. `spec/plugin-abi.md` in Isu's repository is the normative text.

#![warn(missing_docs)]

// abi_stable's derives and the library header are unsafe code by nature; this
// module is the one place of the workspace that allows it.
#[allow(unsafe_code)]
pub mod abi;
pub mod args;
pub mod backend;
pub mod backend_codes;
pub mod codec;
pub mod conformance;
pub mod iir_format;
pub mod json;
pub mod pack;
pub mod worker;

pub use isu_lang as lang;
pub use isu_lang::{
    analysis, build, codes, feature_set, features, float, iir, limits, literal, stdlib, types,
    update, visit, work,
};

pub use abi::Scalar;
pub use backend::{
    Artifact, ArtifactMeta, Backend, BackendInfo, CompileOptions, DiagnosticKind, ExecLimits,
    ExecOptions, ExecuteInfo, PluginDiagnostic, SettingInfo, Settings,
};
pub use backend_codes::BackendCode;
pub use codes::RuntimeCode;
pub use feature_set::{FeatureSet, FEATURE_SET_VERSION};
pub use iir::*;
pub use iir_format::IirFormat;
pub use literal::Literal;
pub use pack::{Lowering, Pack, PackFunction, PackInfo, PackLowerings, Signature};
pub use stdlib::Builtin;
pub use types::Type;
