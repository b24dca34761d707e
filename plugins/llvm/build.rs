//! Compiles the runtime (`runtime/*.c`) with clang 19 into one LLVM bitcode
//! file that the plugin carries (`include_bytes!`) and links into every
//! module it builds. The clang must be LLVM 19's, the LLVM the plugin links:
//! bitcode is read only by an LLVM at least as new as the one that wrote it.
//!
//! The tools are found as `$LLVM_SYS_191_PREFIX/bin/{clang,llvm-link}` (set
//! for Debian's llvm-19-dev in `.cargo/config.toml`), else as `clang-19` and
//! `llvm-link-19` on the PATH; `ISU_CLANG` and `ISU_LLVM_LINK` override both.

use std::path::{Path, PathBuf};
use std::process::Command;

fn tool(var: &str, name: &str, versioned: &str) -> PathBuf {
    if let Some(p) = std::env::var_os(var) {
        return PathBuf::from(p);
    }
    if let Some(prefix) = std::env::var_os("LLVM_SYS_191_PREFIX") {
        let p = Path::new(&prefix).join("bin").join(name);
        if p.is_file() {
            return p;
        }
    }
    PathBuf::from(versioned)
}

fn run(cmd: &mut Command) {
    let shown = format!("{cmd:?}");
    match cmd.status() {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("{shown} failed ({s})"),
        Err(e) => panic!("{shown}: {e}: install clang-19 and llvm-19 (README: the LLVM backend)"),
    }
}

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    let clang = tool("ISU_CLANG", "clang", "clang-19");
    let link = tool("ISU_LLVM_LINK", "llvm-link", "llvm-link-19");
    println!("cargo:rerun-if-env-changed=ISU_CLANG");
    println!("cargo:rerun-if-env-changed=ISU_LLVM_LINK");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_191_PREFIX");
    println!("cargo:rerun-if-changed=runtime");
    let mut sources: Vec<PathBuf> = std::fs::read_dir("runtime")
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    sources.retain(|p| p.extension().is_some_and(|e| e == "c"));
    sources.sort();
    let mut parts = Vec::new();
    for src in &sources {
        let stem = src.file_stem().unwrap_or_default().to_string_lossy();
        let bc = out.join(format!("{stem}.bc"));
        run(Command::new(&clang)
            .args([
                "-c",
                "-emit-llvm",
                "-O2",
                "-std=c11",
                "-fPIC",
                "-fno-stack-protector",
                "-fno-math-errno",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-o",
            ])
            .arg(&bc)
            .arg(src));
        parts.push(bc);
    }
    run(Command::new(&link)
        .arg("-o")
        .arg(out.join("runtime.bc"))
        .args(&parts));
}
