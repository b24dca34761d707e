//! `isu lsp`: the language server (`spec/lsp.md`), on stdio, with
//! `lsp-server`'s message types and `lsp-types`' protocol types.
//!
//! It is a thin adapter over [`crate::service`]: every diagnostic, fix,
//! formatting, hover, completion, symbol, definition and test run is the
//! service's answer, the same the command line and the MCP tools give;
//! the server keeps the open documents, converts positions between the
//! client's encoding and byte offsets ([`position`]), and turns the
//! service's values into protocol messages ([`convert`]). Nothing about the
//! language is decided here.
//!
//! - [`transport`]: the framing, which answers bad input with JSON-RPC
//!   errors and reads on.
//! - [`server`]: the handshake, the documents, the requests and
//!   notifications; diagnostics are published once the messages that
//!   arrived together are handled, so a burst of changes is checked once.

mod convert;
pub mod position;
mod server;
pub mod transport;

pub use server::{serve, Exit};

/// The command that runs a program's IO examples (a code lens offers it).
pub const RUN_EXAMPLES: &str = "isu.runExamples";

/// The largest document the server checks; a larger one gets one
/// `document_too_large` diagnostic instead, and no other answer.
pub const MAX_DOCUMENT_BYTES: usize = 4 << 20;
