//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod built;
pub mod snapshot;

/// A new folder `dir` of a user's, outside the repository, holding a copy of
/// `examples/sum_evens.isu`.
pub fn user_folder(dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{e}"));
    let example =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sum_evens.isu");
    std::fs::copy(example, dir.join("sum_evens.isu")).unwrap_or_else(|e| panic!("{e}"));
    dir.to_path_buf()
}

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
