//! The conformance suite as one datatest-stable harness: each case of
//! `conformance/cases/` on the interpreter (against its `; run:` lines) and on
//! every backend plugin of the workspace, loaded as `isu` loads it, through
//! a manifest (against the interpreter). A case a backend lacks a feature for
//! is unsupported, which passes here; any failure fails the case.
//!
//! The plugin libraries are the workspace's `cdylib`s beside this test's
//! binary: `cargo build --workspace` must run first (`scripts/test.sh` does).
//! With `ISU_NO_LLVM` set (a machine without LLVM 19, README "Building
//! without LLVM"), the LLVM backend is left out.

use datatest_stable::Utf8Path;
use isu_host::conformance::{self, Case, Report};
use isu_host::plugins::{manifest, Layer, Place, Registry};
use std::path::{Path, PathBuf};

/// The backends the suite runs on, by crate.
const BACKENDS: &[(&str, &str)] = &[
    ("llvm", "isu_backend_llvm"),
    ("python", "isu_backend_python"),
    ("toy", "isu_backend_toy"),
    ("wasm", "isu_backend_wasm"),
];

fn lib(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    dir.join(format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ))
}

fn registry() -> datatest_stable::Result<Registry> {
    let mut text = String::new();
    for (name, krate) in BACKENDS {
        if *name == "llvm" && std::env::var_os("ISU_NO_LLVM").is_some() {
            continue;
        }
        let file = lib(krate);
        if !file.is_file() {
            return Err(format!(
                "{} is not built: run `cargo build --workspace` before the tests",
                file.display()
            )
            .into());
        }
        text.push_str(&format!(
            "[[plugin]]\nname = \"{name}\"\nkind = \"backend\"\nfile = {:?}\n\n",
            file.display().to_string()
        ));
    }
    let place = Place::File(PathBuf::from("isu-plugins.toml"));
    let m = manifest::parse(&place, Layer::Flag, &text)?;
    let reg = Registry::load(&m);
    if let Some(e) = reg.errors().first() {
        return Err(e.to_string().into());
    }
    Ok(reg)
}

fn failures(report: &Report) -> Vec<String> {
    report
        .failures
        .iter()
        .map(|f| format!("[{}] {f}", report.executor))
        .collect()
}

fn run_case(path: &Utf8Path, text: String) -> datatest_stable::Result<()> {
    let reg = registry()?;
    let case = Case {
        name: path.file_stem().unwrap_or_default().to_owned(),
        path: path.as_std_path().to_owned(),
        text,
    };
    let prepared = conformance::prepare(&[case], &reg.functions);
    let mut all = failures(&conformance::interpreter_report(&prepared));
    for (_, backend, targets) in reg.backends() {
        for target in targets {
            let report =
                conformance::backend_report(&prepared, &target, backend.as_ref(), &reg.functions);
            all.extend(failures(&report));
        }
    }
    if all.is_empty() {
        Ok(())
    } else {
        Err(all.join("\n").into())
    }
}

datatest_stable::harness! {
    { test = run_case, root = "../conformance/cases", pattern = r"\.isu$" },
}
