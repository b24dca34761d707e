//! The boundary that Isu's host and its plugins share.
//!
//! For now this crate holds the IIR data model (the JSON AST every phase after
//! parsing works on) and its serde form. Plugins depend on this crate only, so it
//! knows nothing of lalrpop, of the interpreter, or of any backend.

pub mod iir;
pub mod literal;
pub mod types;
pub mod visit;

pub use iir::*;
pub use literal::Literal;
pub use types::Type;
