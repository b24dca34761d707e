//! Every module the backend makes of a case compiles (`python3 -m
//! py_compile`) and passes `ruff check` with ruff's default rules; after
//! `ruff format`, under `python3 -O` and imported again from its bytecode,
//! its runtime errors still name their steps; and compiling is deterministic.
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

/// Writes every case's module into `dir`; the cases with their modules' paths.
fn write_modules(dir: &Path) -> Vec<(common::Case, PathBuf)> {
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
        paths.push((case, path));
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

/// `ruff` to run; `None` (the test is skipped, saying so) when it is not
/// installed, unless `ISU_REQUIRE_RUFF=1`.
fn ruff_or_skip(what: &str) -> Option<Vec<String>> {
    let found = ruff();
    if found.is_none() {
        assert!(
            std::env::var("ISU_REQUIRE_RUFF").as_deref() != Ok("1"),
            "ISU_REQUIRE_RUFF=1 but ruff is not installed (pip install ruff)"
        );
        eprintln!("SKIPPED {what}: ruff is not installed (pip install ruff)");
    }
    found
}

#[test]
fn every_module_compiles_and_passes_ruff() {
    let scratch = Scratch::new("lint");
    let paths: Vec<PathBuf> = write_modules(&scratch.0)
        .into_iter()
        .map(|(_, p)| p)
        .collect();
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
    let Some(ruff) = ruff_or_skip("the ruff check") else {
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

/// Imports each module twice (from its source, then from the bytecode the
/// first import cached) and runs it on each case's arguments; prints
/// `[module, code, step]` per run, `code` "ok" for a value.
const REIMPORT_DRIVER: &str = r#"
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
out = []
for mod, args in json.load(open(sys.argv[2])):
    for _ in range(2):
        sys.modules.pop(mod, None)
        m = importlib.import_module(mod)
        try:
            m.run(args)
            out.append([mod, "ok", None])
        except m.IsuError as e:
            out.append([mod, e.code, e.step])
print(json.dumps(out))
"#;

#[test]
fn runtime_errors_name_their_step_after_ruff_format_and_under_python_o() {
    use isu_host::cases::{parse, Expect};
    let Some(ruff) = ruff_or_skip("the reformatted modules' steps") else {
        return;
    };
    let scratch = Scratch::new("reformatted");
    let modules = write_modules(&scratch.0);
    let before: Vec<String> = modules
        .iter()
        .map(|(_, p)| std::fs::read_to_string(p).unwrap())
        .collect();
    let out = Command::new(&ruff[0])
        .args(&ruff[1..])
        .args(["format", "--isolated", "--no-cache", "--line-length", "60"])
        .arg(&scratch.0)
        .output()
        .expect("ruff runs");
    assert!(
        out.status.success(),
        "ruff format failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let moved = modules
        .iter()
        .zip(&before)
        .filter(|((_, p), b)| std::fs::read_to_string(p).unwrap() != **b)
        .count();
    assert!(
        moved * 2 > modules.len(),
        "ruff format changed only {moved} modules"
    );
    // Every run of a case that ends in a runtime error, with what it must say.
    let mut runs = Vec::new();
    let mut want = Vec::new();
    for (case, path) in &modules {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        // A case with `; limits:` stops where its limits say; the modules
        // here run with the default ones, so such cases are left out.
        let runs_of = parse(&case.text).ok().filter(|c| c.limits.is_none());
        for run in runs_of.map(|c| c.runs).unwrap_or_default() {
            if let Expect::Error { code, step } = &run.expect {
                runs.push(serde_json::json!([stem, run.args]));
                let step = step.as_ref().map(|s| s.to_string());
                for _ in 0..2 {
                    want.push(serde_json::json!([stem, code.as_str(), step]));
                }
            }
        }
    }
    assert!(runs.len() > 20, "too few error runs: {}", runs.len());
    let runs_file = scratch.0.join("runs.json");
    std::fs::write(&runs_file, serde_json::to_string(&runs).unwrap()).unwrap();
    let driver = scratch.0.join("driver.py");
    std::fs::write(&driver, REIMPORT_DRIVER).unwrap();
    let out = Command::new("python3")
        .arg("-O")
        .arg(&driver)
        .arg(&scratch.0)
        .arg(&runs_file)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "the driver failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w, "a reformatted module, run with python3 -O");
    }
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
