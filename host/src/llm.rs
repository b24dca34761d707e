//! The language-model side: the typed reply contract a model answers with.

pub mod envelope;

pub use envelope::{Decision, Envelope};
