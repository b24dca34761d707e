//! The plugin libraries of the workspace, built by the tests that need them:
//! one `cargo build --workspace` per test binary (a no-op when the workspace
//! is built, as `scripts/test.sh` builds it: the same packages, so the same
//! features and no second build of any dependency), so no test depends on
//! an earlier build.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Every plugin crate of the workspace: the backends, the packs, and the
/// fixtures the loader must refuse or survive.
pub const PLUGINS: &[&str] = &[
    "isu_backend_llvm",
    "isu_backend_python",
    "isu_backend_toy",
    "isu_backend_wasm",
    "isu_pack_math",
    "isu_pack_text",
    "isu_test_api_v1",
    "isu_test_crashy",
    "isu_test_garbage",
    "isu_test_iir_v01",
    "isu_test_layout",
    "isu_test_left_out",
    "isu_test_newer_api",
    "isu_test_old_abi",
    "isu_test_pack_v20",
    "isu_test_pack_v21",
    "isu_test_pack_v22",
    "isu_test_panicky",
];

/// The folder of this profile's build (`target/debug`), the test binary's
/// parent's parent (`target/debug/deps/NAME-HASH`).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    exe.parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Builds the workspace once per process; the error is cargo's output.
fn build() -> &'static Result<(), String> {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = profile_dir();
        let mut cmd = Command::new(env!("CARGO"));
        cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .args(["build", "--workspace", "--quiet"]);
        match dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") | None => {}
            Some(profile) => {
                cmd.args(["--profile", profile]);
            }
        }
        if let Some(target) = dir.parent() {
            cmd.env("CARGO_TARGET_DIR", target);
        }
        let out = cmd.output().map_err(|e| format!("cannot run cargo: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    })
}

/// The folder of this profile's build (`target/debug`) with every plugin
/// library of the workspace built in it, beside `isu`: where `isu` finds its
/// system layer of plugins.
pub fn workspace() -> PathBuf {
    if let Err(e) = build() {
        panic!("building the plugins failed:\n{e}");
    }
    profile_dir()
}

/// Whether this build left the LLVM backend out, as it does on a machine
/// without LLVM 19 (README): its library then holds the reason, not the
/// backend.
pub fn llvm_left_out() -> bool {
    isu_plugin_api::abi::read_left_out(&library("isu_backend_llvm")).is_some()
}

/// The dynamic library of plugin crate `name`, built if need be.
pub fn library(name: &str) -> PathBuf {
    assert!(PLUGINS.contains(&name), "{name} is not a plugin crate");
    workspace().join(format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ))
}
