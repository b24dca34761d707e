//! The host's layering, checked on its source: the phases that take a
//! program apart (syntax, canon, validate, interp, patch, pipeline) and the
//! table of callable functions do not depend on the module that loads
//! plugin libraries, nor on abi_stable's types; the plugin loader fills the
//! table, not the other way round.

use std::path::Path;

/// Every `.rs` file of `dir` (itself a file or a folder), at any depth.
fn sources(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for p in entries {
            sources(&p, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_owned());
    }
}

#[test]
fn the_phases_do_not_depend_on_the_plugin_loader() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for phase in [
        "syntax",
        "canon",
        "validate",
        "interp",
        "patch",
        "pipeline",
        "functions",
    ] {
        sources(&src.join(format!("{phase}.rs")), &mut files);
        sources(&src.join(phase), &mut files);
    }
    assert!(files.len() > 20, "too few sources found: {files:?}");
    let mut offenders = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for bad in ["crate::plugins", "isu_plugin_api::abi", "abi_stable"] {
            if text.contains(bad) {
                offenders.push(format!("{} names {bad}", f.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}
