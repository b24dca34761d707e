//! The Isu toolchain as a library: the `isu` binary is a thin shell over it, and
//! the tests, benches and conformance suite call the phases in-process.
//!
//! Phases, in pipeline order: [`syntax`] (text to IIR), [`canon`] (step IDs and
//! the canonical text), [`validate`] (static checks and types), [`interp`] (the
//! reference interpreter), [`patch`] (step-level edits), [`fix`]
//! (machine-applicable fixes). [`diag`] is the one error type of them all;
//! [`cli`] is the command line.

pub mod canon;
pub mod cases;
pub mod cli;
pub mod conformance;
pub mod diag;
pub mod differential;
pub mod executor;
pub mod fix;
pub mod functions;
pub mod fuzz;
pub mod grammar;
pub mod interp;
pub mod llm;
pub mod lsp;
pub mod mcp;
pub mod memory;
pub mod patch;
pub mod pipeline;
pub mod plugins;
pub mod report;
pub mod root;
pub mod schema;
pub mod service;
pub mod source;
pub mod syntax;
pub mod validate;

pub use diag::{Code, Diagnostic, Kind, Severity};
/// The standard functions' table, which is the language's (`isu_lang`).
pub use isu_lang::stdlib;
pub use source::Source;
