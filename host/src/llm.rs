//! The language-model side: natural language to a tested Isu program.
//!
//! [`task`] is what is asked for, [`prompt`] what the model is told,
//! [`envelope`] the typed reply contract, [`provider`] and [`http`] where
//! replies come from, [`ask`] one request and its re-asks, [`repair`] the
//! loop, [`explain`] a program described in words, [`events`] the
//! hash-chained log of both, [`replay`] a recorded log run again, [`eval`]
//! many tasks at once, [`roundtrip`] program, words, program again, compared
//! by behaviour.

pub mod ask;
pub mod envelope;
pub mod eval;
pub mod events;
pub mod explain;
pub mod http;
pub mod prompt;
pub mod provider;
pub mod repair;
pub mod replay;
pub mod roundtrip;
pub mod task;

pub use envelope::{Decision, Envelope, ReplyFormat};

#[cfg(test)]
mod tests;
