//! The text of floats in the module (`runtime/float.wat`) against Python's
//! own: TO_STRING of thousands of hard doubles is Python's repr, and
//! PARSE_FLOAT of texts of every shape is float()'s double, bit for bit
//! (the table: `plugins/testing/float_table.py`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use isu_plugin_api::{ExecLimits, Literal};

include!("../../testing/float_table.rs");
