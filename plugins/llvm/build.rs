//! Compiles the runtime with clang 19. `runtime/core/*.c` (values, reference
//! counting, strings, arrays, maps) becomes one LLVM bitcode file that the
//! plugin carries (`include_bytes!`) and links into every module it builds,
//! so that those functions inline into the program. `runtime/driver/*.c`
//! (`main`, the JSON of arguments and results, error reports), with its own
//! copy of the core, becomes one native object, linked beside the program's
//! object: it is the same for every program, so it is compiled once, here.
//!
//! The clang must be LLVM 19's, the LLVM the plugin links: bitcode is read
//! only by an LLVM at least as new as the one that wrote it. The tools are
//! found as `$LLVM_SYS_191_PREFIX/bin/{clang,llvm-link}` (set for Debian's
//! llvm-19-dev in `.cargo/config.toml`), else as `clang-19` and
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

/// The C files of a folder, in name order.
fn sources(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "c"));
    files.sort();
    files
}

const FLAGS: &[&str] = &[
    "-O2",
    "-std=c11",
    "-fPIC",
    "-fno-stack-protector",
    "-fno-math-errno",
    "-Wall",
    "-Wextra",
    "-Werror",
];

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    let clang = tool("ISU_CLANG", "clang", "clang-19");
    let link = tool("ISU_LLVM_LINK", "llvm-link", "llvm-link-19");
    println!("cargo:rerun-if-env-changed=ISU_CLANG");
    println!("cargo:rerun-if-env-changed=ISU_LLVM_LINK");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_191_PREFIX");
    println!("cargo:rerun-if-changed=runtime");
    let bitcode = |src: &Path| -> PathBuf {
        let stem = src.file_stem().unwrap_or_default().to_string_lossy();
        let bc = out.join(format!("{stem}.bc"));
        run(Command::new(&clang)
            .args(["-c", "-emit-llvm"])
            .args(FLAGS)
            .arg("-o")
            .arg(&bc)
            .arg(src));
        bc
    };
    let core: Vec<PathBuf> = sources("runtime/core").iter().map(|s| bitcode(s)).collect();
    let driver: Vec<PathBuf> = sources("runtime/driver")
        .iter()
        .map(|s| bitcode(s))
        .collect();
    run(Command::new(&link)
        .arg("-o")
        .arg(out.join("core.bc"))
        .args(&core));
    let all = out.join("driver.bc");
    run(Command::new(&link)
        .arg("-o")
        .arg(&all)
        .args(&core)
        .args(&driver));
    run(Command::new(&clang)
        .arg("-c")
        .args(FLAGS)
        .arg("-o")
        .arg(out.join("driver.o"))
        .arg(&all));
}
