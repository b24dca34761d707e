//! Every module the backend makes of a case compiles (`python3 -m
//! py_compile`) and passes `ruff check` with ruff's default rules, and
//! compiling is deterministic.
//!
//! Without ruff installed the ruff half says so and passes, unless
//! `ISU_REQUIRE_RUFF=1` (as in CI), where a missing ruff fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use isu_backend_python::PythonBackend;
use isu_plugin_api::{Backend, CompileOptions, Program};
use std::path::{Path, PathBuf};
use std::process::Command;

fn module(p: &Program) -> Vec<u8> {
    let mut a = PythonBackend
        .compile(p, &CompileOptions::default())
        .expect("compiles");
    a.remove(0).bytes
}

/// A directory of its own for this test run, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("isu-python-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes every case's module into `dir`; their paths.
fn write_modules(dir: &Path) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    for case in common::cases() {
        let stem: String = case
            .name
            .trim_end_matches(".isu")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let path = dir.join(format!("{stem}.py"));
        std::fs::write(&path, module(&case.program)).unwrap();
        paths.push(path);
    }
    assert!(paths.len() > 5, "too few cases found: {}", paths.len());
    paths
}

/// `ruff` on the path, or as a Python module.
fn ruff() -> Option<Vec<String>> {
    let candidates: [&[&str]; 2] = [&["ruff"], &["python3", "-m", "ruff"]];
    candidates.iter().find_map(|c| {
        let ok = Command::new(c[0])
            .args(&c[1..])
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        ok.then(|| c.iter().map(|s| (*s).to_owned()).collect())
    })
}

#[test]
fn every_module_compiles_and_passes_ruff() {
    let scratch = Scratch::new("lint");
    let paths = write_modules(&scratch.0);
    let out = Command::new("python3")
        .args(["-m", "py_compile"])
        .args(&paths)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "py_compile failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let Some(ruff) = ruff() else {
        assert!(
            std::env::var("ISU_REQUIRE_RUFF").as_deref() != Ok("1"),
            "ISU_REQUIRE_RUFF=1 but ruff is not installed (pip install ruff)"
        );
        eprintln!("SKIPPED the ruff check: ruff is not installed (pip install ruff)");
        return;
    };
    let out = Command::new(&ruff[0])
        .args(&ruff[1..])
        .args([
            "check",
            "--isolated",
            "--no-cache",
            "--output-format",
            "concise",
        ])
        .arg(&scratch.0)
        .output()
        .expect("ruff runs");
    assert!(
        out.status.success(),
        "ruff check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn compiling_is_deterministic() {
    for case in common::cases() {
        let first = module(&case.program);
        assert_eq!(first, module(&case.program), "{}", case.name);
        // The same program through its JSON form (spans and all) gives the
        // same bytes.
        let json = serde_json::to_string(&case.program).unwrap();
        let back: Program = serde_json::from_str(&json).unwrap();
        assert_eq!(first, module(&back), "{}", case.name);
    }
}
