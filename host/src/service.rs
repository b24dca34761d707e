//! The toolchain's operations as typed requests and results: the one home of
//! the sequences every front door runs. The command line ([`crate::cli`]),
//! the MCP tools ([`crate::mcp`]) and the language server ([`crate::lsp`])
//! call these functions and render what they return in their own way
//! (human text or JSON, tool results, LSP messages); none of them strings
//! the phases together itself.
//!
//! - [`program`]: check, format, fix and patch a text (diagnostics and new
//!   texts).
//! - [`run`]: a valid program, run or tested by the interpreter or a
//!   backend (values, TestFails).
//! - [`editor`]: what an editor asks about a point of a text that may not
//!   parse: hover, completion, symbols, definition. Every place is a byte
//!   offset into the text; a front door that counts otherwise (an LSP
//!   client's UTF-16 positions) converts at its edge.
//!
//! The service does no I/O: it takes texts and tables and returns values.

pub mod editor;
pub mod program;
pub mod run;

pub use editor::{complete, definition, hover, symbols};
pub use program::{check, fix, format, patch, Formatted};
pub use run::{examples, test, valid, Tested, Valid};

#[cfg(test)]
mod tests;
