//! `spec/plugin-abi.md`, "Writing a backend", followed as a backend author
//! would: the code it shows is the toy backend's (`plugins/testing/toy`),
//! the manifest it shows loads the built toy, and the conformance runner on
//! it passes every case the toy supports and reports the rest unsupported,
//! with the figures the guide quotes.
//!
//! The toy's library is the workspace's `cdylib`, built by the test itself
//! (`common::built`).

mod common;

use isu_host::conformance;
use isu_host::plugins::{manifest, Layer, Place, Registry};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fenced blocks of the guide, as (language, text).
fn guide_blocks() -> Vec<(String, String)> {
    let spec = read(&root().join("spec/plugin-abi.md"));
    let start = spec
        .find("\n## Writing a backend\n")
        .unwrap_or_else(|| panic!("no guide"));
    let rest = &spec[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    let guide = &rest[..end];
    let mut blocks = Vec::new();
    let mut lines = guide.lines();
    while let Some(line) = lines.next() {
        if let Some(lang) = line.strip_prefix("```") {
            let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            blocks.push((lang.to_owned(), body.join("\n") + "\n"));
        }
    }
    blocks
}

#[test]
fn the_code_the_guide_shows_is_the_toy_backends() {
    let toy = root().join("plugins/testing/toy");
    let sources = [
        read(&toy.join("src/lib.rs")),
        read(&toy.join("src/eval.rs")),
    ];
    let cargo = read(&toy.join("Cargo.toml"));
    let blocks = guide_blocks();
    let rust: Vec<&String> = blocks
        .iter()
        .filter(|(l, _)| l == "rust")
        .map(|(_, t)| t)
        .collect();
    assert_eq!(rust.len(), 4, "the guide's four Rust excerpts");
    for code in rust {
        assert!(
            sources.iter().any(|s| s.contains(code.as_str())),
            "the guide shows code the toy does not have:\n{code}"
        );
    }
    let crate_toml = &blocks
        .iter()
        .find(|(l, t)| l == "toml" && t.contains("[lib]"))
        .map(|(_, t)| t);
    let crate_toml = crate_toml.unwrap_or_else(|| panic!("no Cargo.toml in the guide"));
    for line in crate_toml.lines().filter(|l| !l.is_empty()) {
        assert!(
            cargo.lines().any(|c| c == line),
            "the toy's Cargo.toml lacks `{line}`"
        );
    }
}

#[test]
fn the_guides_manifest_loads_the_toy_and_the_suite_runs_on_it() {
    let blocks = guide_blocks();
    let manifest_text = blocks
        .iter()
        .find(|(l, t)| l == "toml" && t.contains("[[plugin]]"))
        .map(|(_, t)| t.clone())
        .unwrap_or_else(|| panic!("no manifest in the guide"));
    assert!(blocks
        .iter()
        .any(|(l, t)| l == "text" && t == "isu conformance --target toy\n"));
    // The manifest as the guide has it, in a project whose target/debug is
    // this build's: `file` without an extension, relative to the manifest.
    let lib = common::built::library("isu_backend_toy");
    let build_dir = lib.parent().map(Path::to_path_buf).unwrap_or_default();
    // `<project>/<target dir>/<profile>`: usually `target/debug`, as the guide says.
    let target_dir = build_dir.parent().unwrap_or(&build_dir);
    let project = target_dir.parent().unwrap_or(target_dir);
    let name = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let here = format!("{}/{}", name(target_dir), name(&build_dir));
    let manifest_text = manifest_text.replace("target/debug", &here);
    let path = project.join("isu-plugins.toml");
    let m = manifest::parse(&Place::File(path), Layer::Project, &manifest_text);
    let m = m.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.entries[0].file, lib);
    let reg = Registry::load(&m);
    assert!(reg.errors().is_empty(), "{:?}", reg.errors());
    let (_, toy) = reg.backend("toy").unwrap_or_else(|e| panic!("{e}"));

    // The toy as `isu` loads it runs the suite exactly as its own tests
    // expect (`plugins/testing/toy/conformance.toml`).
    let expectations = root().join("plugins/testing/toy/conformance.toml");
    let report = conformance::check_backend(
        toy,
        "toy",
        &expectations,
        &isu_host::functions::Functions::default(),
    );
    let report = report.unwrap_or_else(|e| panic!("{e}"));
    assert!(report.passed >= 10, "{}", report.summary());
    assert_eq!(report.failed, 0, "{}", report.summary());
    // The figures the guide quotes are the toy's.
    let spec = read(&root().join("spec/plugin-abi.md"));
    assert!(
        spec.contains(&format!("then the summaries (`{}`;", report.summary())),
        "spec/plugin-abi.md, \"Run the suite\", must quote `{}`",
        report.summary()
    );
}
