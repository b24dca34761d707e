//! What the backend's integration tests share: the Isu programs to compile
//! (the conformance cases), checked by the host's front end.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use isu_backend_python::PythonBackend;
use isu_host::{pipeline, Source};
use isu_plugin_api::{features, Backend, Program};
use std::path::{Path, PathBuf};

/// One case file, checked.
#[derive(Debug)]
pub struct Case {
    /// `arith_basic`: the file name without `.isu`.
    pub name: String,
    pub text: String,
    pub program: Program,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn isu_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "isu"))
        .collect();
    files.sort();
    files
}

/// Every conformance case that calls no pack function and uses only
/// features the backend declares, checked; panics on one that does not
/// check. (The suite reports the others as unsupported.) The cases of the packs run with their
/// lowerings in the conformance suite (`tests/conformance.rs`).
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for file in isu_files(&repo().join("conformance/cases")) {
        let text = std::fs::read_to_string(&file).unwrap();
        if text.contains("(call math.") || text.contains("(call text.") {
            continue;
        }
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let fe = pipeline::check(&Source::new(name.clone(), text.clone()));
        let program = fe
            .valid_program()
            .unwrap_or_else(|| panic!("{name} does not check: {:#?}", fe.diags))
            .clone();
        let used = features::used_by(&program);
        if !PythonBackend
            .info()
            .features
            .missing(used.iter().map(String::as_str))
            .is_empty()
        {
            continue;
        }
        out.push(Case {
            name,
            text,
            program,
        });
    }
    out
}
