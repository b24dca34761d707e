//! The boundary that Isu's host and its plugins share.
//!
//! It holds the IIR data model (the JSON AST every phase after parsing works
//! on) with its serde form, and what a backend is ([`backend::Backend`]).
//! Plugins depend on this crate only, so it knows nothing of lalrpop, of the
//! interpreter, or of any one backend.
//!
//! The crate's version is the plugin-API version ([`abi::PLUGIN_API_VERSION`]):
//! a plugin built against `isu_plugin_api` 2.x loads into every `isu` of plugin
//! API 2.y. `spec/plugin-abi.md` in Isu's repository is the normative text.

#![warn(missing_docs)]

// abi_stable's derives and the library header are unsafe code by nature; this
// module is the one place of the workspace that allows it.
#[allow(unsafe_code)]
pub mod abi;
pub mod backend;
pub mod codes;
pub mod feature_set;
pub mod features;
pub mod iir;
pub mod iir_format;
pub mod json;
pub mod literal;
pub mod pack;
pub mod types;
pub mod visit;

pub use backend::{
    Artifact, ArtifactMeta, Backend, BackendInfo, CompileOptions, DiagnosticKind, ExecLimits,
    ExecOptions, ExecuteInfo, PluginDiagnostic, SettingInfo, Settings,
};
pub use codes::BackendCode;
pub use feature_set::{FeatureSet, FEATURE_SET_VERSION};
pub use iir::*;
pub use iir_format::IirFormat;
pub use literal::Literal;
pub use pack::{Lowering, Pack, PackFunction, PackInfo, Signature};
pub use types::Type;
