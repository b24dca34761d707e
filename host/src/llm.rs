//! The language-model side: natural language to a tested Isu program.
//!
//! [`task`] is what is asked for, [`prompt`] what the model is told,
//! [`envelope`] the typed reply contract, [`provider`] and [`http`] where
//! replies come from, [`repair`] the loop, [`events`] its hash-chained log,
//! [`replay`] the loop again on a recorded log, [`eval`] many tasks at once.

pub mod envelope;
pub mod eval;
pub mod events;
pub mod http;
pub mod prompt;
pub mod provider;
pub mod repair;
pub mod replay;
pub mod task;

pub use envelope::{Decision, Envelope};

#[cfg(test)]
mod tests;
