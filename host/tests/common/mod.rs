//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod built;
pub mod snapshot;

use std::path::{Path, PathBuf};

/// The names of the entries of `dir`, sorted.
pub fn names(dir: &std::path::Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The library of a workspace plugin crate, built beside the test binary's
/// folder (`cargo build --workspace` first; `scripts/test.sh` does).
pub fn built_plugin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let path = dir.join(format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    assert!(
        path.is_file(),
        "{} is not built: run `cargo build --workspace` before the tests",
        path.display()
    );
    path
}
