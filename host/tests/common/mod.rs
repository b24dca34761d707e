//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod built;
pub mod snapshot;

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
