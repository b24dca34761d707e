//! The validator's tests: one module per group of checks, on programs built
//! with [`build::Prog`].
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod build;
mod calls;
mod flow;
mod io;
mod names;
mod text;
mod typing;
mod whole;
