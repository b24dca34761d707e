//! The generated code of the backend's own programs, reviewed as diffs: each
//! `tests/programs/NAME.isu` has `tests/golden/NAME.py.snap`, the module
//! after its runtime (the function and its tables; the runtime itself is
//! `src/runtime.py`). `ISU_BLESS=1 cargo test -p isu_backend_python --test
//! golden` rewrites them after a change has been reviewed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use isu_backend_python::PythonBackend;
use isu_plugin_api::{Backend, CompileOptions};
use std::path::Path;

/// The part of a module after the runtime: from the `# FUNC` banner on.
fn generated_part(module: &str) -> &str {
    let start = module.find("\n# FUNC ").map_or(0, |i| i + 1);
    &module[start..]
}

#[test]
fn generated_code_matches_its_snapshot() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = std::env::var("ISU_BLESS").as_deref() == Ok("1");
    let mut stale = Vec::new();
    let mut seen = 0;
    for case in common::cases() {
        let Some(name) = case.name.strip_prefix("programs/") else {
            continue;
        };
        seen += 1;
        let a = PythonBackend
            .compile(&case.program, &CompileOptions::default())
            .expect("compiles");
        let module = String::from_utf8(a[0].bytes.clone()).unwrap();
        let got = generated_part(&module);
        let path = dir.join(format!("{}.py.snap", name.trim_end_matches(".isu")));
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if got != want {
            if bless {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, got).unwrap();
            } else {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(seen > 0, "no programs found");
    assert!(
        stale.is_empty(),
        "generated code differs from its snapshot (review, then ISU_BLESS=1 rewrites): {stale:#?}"
    );
}
