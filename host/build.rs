//! Generates the parser from `src/syntax/grammar.lalrpop`, and the table of
//! the conformance cases built into `isu` (`conformance/cases/*.isu`, sorted
//! by name), so `isu conformance` runs them from any folder.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .emit_rerun_directives(true)
        .process()
        .unwrap_or_else(|e| panic!("lalrpop failed: {e}"));
    embed_conformance_cases();
}

fn embed_conformance_cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/cases");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut cases: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| {
            entry
                .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
                .path()
        })
        .filter(|p| p.extension().is_some_and(|e| e == "isu"))
        .map(|p| {
            let name = p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name, p.display().to_string())
        })
        .collect();
    cases.sort();
    let mut out = String::from(
        "/// The conformance cases, `(name, text)`, sorted by name: `conformance/cases/*.isu`.\n\
         pub const BUILTIN_CASES: &[(&str, &str)] = &[\n",
    );
    for (name, path) in &cases {
        let _ = writeln!(out, "    ({name:?}, include_str!({path:?})),");
    }
    out.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|e| panic!("OUT_DIR: {e}"));
    let target = Path::new(&out_dir).join("conformance_cases.rs");
    std::fs::write(&target, out).unwrap_or_else(|e| panic!("writing {}: {e}", target.display()));
}
