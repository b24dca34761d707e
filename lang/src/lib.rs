//! The semantics of the Isu language, in one place: what every phase of the
//! host and every backend must agree on.
//!
//! - [`iir`] is the data model (the JSON AST Isu text parses into), with
//!   [`literal`] values, [`types`], walkers ([`visit`]) and the language
//!   features a program uses ([`features`]);
//! - [`stdlib`] is the table of standard functions ([`stdlib::Builtin`]),
//!   [`codes`] the runtime error codes ([`codes::RuntimeCode`]), [`float`]
//!   what every executor computes alike for floats (their text, parsing,
//!   rounding to int);
//! - [`limits`] holds the limits of a run ([`limits::ExecLimits::DEFAULT`],
//!   every executor's default);
//! - [`update`] is the in-place update rule of `spec/semantics.md` 4.3, and
//!   [`work`] what calls and copies spend from a run's fuel (7);
//! - [`analysis`] holds the passes every executor shares (definite
//!   assignment, liveness, aliasing, value bounds, ...);
//! - [`build`] makes typed IIR by hand, for tests.
//!
//! The crate depends on serde only. `isu_plugin_api` re-exports it, so a
//! plugin depends on that crate alone; the host uses it directly.

#![warn(missing_docs)]

pub mod analysis;
pub mod build;
pub mod codes;
pub mod feature_set;
pub mod features;
pub mod float;
pub mod iir;
pub mod limits;
pub mod literal;
pub mod stdlib;
pub mod types;
pub mod update;
pub mod visit;
pub mod work;

/// This crate's version: the plugin-API version, as `isu_plugin_api`'s
/// (which re-exports this crate).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub use codes::RuntimeCode;
pub use feature_set::{FeatureSet, FEATURE_SET_VERSION};
pub use iir::*;
pub use limits::ExecLimits;
pub use literal::Literal;
pub use stdlib::Builtin;
pub use types::Type;
