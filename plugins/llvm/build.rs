//! Finds LLVM 19 (`build/find.rs`) and, where it is, links the plugin
//! against it and compiles the runtime with clang 19; where it is not, leaves
//! the backend out of the build with a notice (`cargo:warning`) and builds a
//! library that says why instead (`isu_plugin_api::export_left_out!`), so
//! that `cargo build` of the workspace succeeds on any machine and `isu`
//! refuses the `llvm` plugin as missing, with the fix. The cfg `isu_llvm`
//! tells the crate and its tests which it is. `ISU_REQUIRE_LLVM=1` (CI)
//! makes a missing LLVM 19 fail the build instead.
//!
//! With LLVM: `runtime/core/*.c` (values, reference counting, strings,
//! arrays, maps) becomes one LLVM bitcode file that the plugin carries
//! (`include_bytes!`) and links into every module it builds, so that those
//! functions inline into the program. `runtime/driver/*.c` (`main`, the JSON
//! of arguments and results, error reports), with its own copy of the core,
//! becomes one native object, linked beside the program's object: it is the
//! same for every program, so it is compiled once, here.
//!
//! The clang must be LLVM 19's, the LLVM the plugin links: bitcode is read
//! only by an LLVM at least as new as the one that wrote it.

#[path = "build/find.rs"]
mod find;

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(cmd: &mut Command) {
    let shown = format!("{cmd:?}");
    match cmd.status() {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("{shown} failed ({s})"),
        Err(e) => panic!("{shown}: {e}"),
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
    // Floats round at every operation, as IEEE-754 binary64 and the
    // interpreter do: no fused multiply-add (spec/semantics.md).
    "-ffp-contract=off",
    "-Wall",
    "-Wextra",
    "-Werror",
];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(isu_llvm)");
    for var in [
        "LLVM_SYS_191_PREFIX",
        "ISU_CLANG",
        "ISU_LLVM_LINK",
        "ISU_REQUIRE_LLVM",
    ] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    println!("cargo::rerun-if-changed=build/find.rs");
    match find::find(&find::Env::of_process()) {
        Ok(llvm) => with_llvm(&llvm),
        Err(missing) => left_out(&missing),
    }
}

/// Leaves the backend out: the notice, and what the library says instead.
fn left_out(missing: &find::Missing) {
    // CI, which installs LLVM 19, must not pass without the backend.
    if std::env::var_os("ISU_REQUIRE_LLVM").is_some_and(|v| v == "1") {
        panic!("ISU_REQUIRE_LLVM=1: {}; {}", missing.reason, find::FIX);
    }
    // A file that is not there makes cargo run this script again on every
    // build, so that the build after installing LLVM 19 finds it.
    for path in &missing.absent {
        println!("cargo::rerun-if-changed={}", path.display());
    }
    println!("cargo::warning={}", missing.reason);
    println!(
        "cargo::warning=to add the LLVM backend: {}, then run this cargo build again",
        find::FIX
    );
    println!(
        "cargo::warning=isu and its other plugins are built as usual; `isu plugins` lists `llvm` as refused (missing_file)"
    );
    println!("cargo::rustc-env=ISU_LLVM_LEFT_OUT={}", missing.reason);
    println!("cargo::rustc-env=ISU_LLVM_FIX={}", find::FIX);
}

/// Links LLVM 19 and compiles the runtime.
fn with_llvm(llvm: &find::Llvm) {
    println!("cargo::rerun-if-changed={}", llvm.config.display());
    println!("cargo::rerun-if-changed=runtime");
    println!("cargo::rustc-cfg=isu_llvm");
    // The tests run LLVM's own tools (opt, llvm-dwarfdump) of the same LLVM.
    println!("cargo::rustc-env=ISU_LLVM_BINDIR={}", llvm.bindir.display());
    println!("cargo::rustc-link-search=native={}", llvm.libdir.display());
    let kind = match llvm.linking {
        find::Linking::Shared => "dylib",
        find::Linking::Static => "static",
    };
    for lib in &llvm.libs {
        println!("cargo::rustc-link-lib={kind}={lib}");
    }
    for lib in &llvm.system_libs {
        println!("cargo::rustc-link-lib=dylib={lib}");
    }
    runtime(&llvm.clang, &llvm.llvm_link);
}

/// Compiles the runtime: the core to bitcode, the driver to an object.
fn runtime(clang: &Path, link: &Path) {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    let bitcode = |src: &Path| -> PathBuf {
        let stem = src.file_stem().unwrap_or_default().to_string_lossy();
        let bc = out.join(format!("{stem}.bc"));
        run(Command::new(clang)
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
    run(Command::new(link)
        .arg("-o")
        .arg(out.join("core.bc"))
        .args(&core));
    let all = out.join("driver.bc");
    run(Command::new(link)
        .arg("-o")
        .arg(&all)
        .args(&core)
        .args(&driver));
    run(Command::new(clang)
        .arg("-c")
        .args(FLAGS)
        .arg("-o")
        .arg(out.join("driver.o"))
        .arg(&all));
}
