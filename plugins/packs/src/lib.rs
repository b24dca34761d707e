//! The packs that ship with Isu, as tables (`isu_plugin_api::pack::TablePack`):
//! [`math`] and [`text`]. Each is exported as a plugin by a crate of its own
//! (`plugins/math`, `plugins/text`: one root module a library), and linked
//! as this library by tests that run them in-process beside a backend (two
//! plugin crates cannot be linked into one binary: each exports the root
//! module's symbol).

pub mod math;
pub mod text;

use isu_plugin_api::pack::TablePack;

/// Both packs.
pub const SHIPPED: [TablePack; 2] = [math::MATH, text::TEXT];
