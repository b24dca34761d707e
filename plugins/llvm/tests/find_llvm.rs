//! How the build finds LLVM 19 (`build/find.rs`, which `build.rs` runs):
//! against folders of stand-in `llvm-config`s, on every machine, with or
//! without LLVM (this test is not `cfg(isu_llvm)`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../build/find.rs"]
#[allow(dead_code)]
mod find;

use find::{find, Env, Linking};
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("find-llvm")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn executable(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// An LLVM of `version` in `prefix`: an `llvm-config` answering as LLVM's
/// does (shared libraries unless `shared` is false), and, with `tools`,
/// clang and llvm-link in its bin folder.
fn llvm(prefix: &Path, version: &str, shared: bool, tools: bool) {
    let bin = prefix.join("bin");
    let lib = prefix.join("lib");
    let shared_libs = if shared {
        "echo -lLLVM-19"
    } else {
        "echo 'llvm-config: error: libLLVM-19.so is missing' >&2; exit 1"
    };
    executable(
        &bin.join("llvm-config"),
        &format!(
            r#"#!/bin/sh
case "$*" in
  --version) echo {version} ;;
  --bindir) echo {bin} ;;
  --libdir) echo {lib} ;;
  "--link-shared --libs") {shared_libs} ;;
  "--link-static --libs") echo -lLLVMCore -lLLVMSupport ;;
  "--link-static --system-libs") echo -lrt -lz ;;
  *) exit 2 ;;
esac
"#,
            bin = bin.display(),
            lib = lib.display()
        ),
    );
    if tools {
        executable(&bin.join("clang"), "#!/bin/sh\n");
        executable(&bin.join("llvm-link"), "#!/bin/sh\n");
    }
}

fn env(prefix: Option<&Path>, path: &[&Path]) -> Env {
    Env {
        prefix: prefix.map(|p| p.as_os_str().to_owned()),
        path: Some(std::env::join_paths(path).unwrap()),
        ..Env::default()
    }
}

#[test]
fn a_prefix_with_llvm_19_is_found_with_its_tools() {
    let dir = scratch("prefix");
    llvm(&dir, "19.1.7", true, true);
    let found = find(&env(Some(&dir), &[])).unwrap();
    assert_eq!(found.version, "19.1.7");
    assert_eq!(found.bindir, dir.join("bin"));
    assert_eq!(found.libdir, dir.join("lib"));
    assert_eq!(found.linking, Linking::Shared);
    assert_eq!(found.libs, ["LLVM-19"]);
    assert_eq!(found.clang, dir.join("bin/clang"));
    assert_eq!(found.llvm_link, dir.join("bin/llvm-link"));
}

#[test]
fn a_prefix_without_llvm_leaves_the_backend_out_and_says_where_it_looked() {
    let elsewhere = scratch("elsewhere");
    // An LLVM 19 on the PATH does not count: the prefix alone is searched.
    llvm(&elsewhere, "19.1.7", true, true);
    let missing = find(&env(
        Some(Path::new("/nonexistent")),
        &[&elsewhere.join("bin")],
    ))
    .unwrap_err();
    assert_eq!(
        missing.reason,
        "the LLVM backend was left out of this build: LLVM 19 was not found (LLVM_SYS_191_PREFIX is /nonexistent, which has no bin/llvm-config of LLVM 19)"
    );
    assert_eq!(
        missing.absent,
        [PathBuf::from("/nonexistent/bin/llvm-config")]
    );
}

#[test]
fn another_version_is_named_and_passed_over() {
    let old = scratch("old");
    let new = scratch("new");
    llvm(&old, "14.0.6", true, true);
    llvm(&new, "19.1.0", true, true);
    // Without a prefix: the PATH's llvm-config of LLVM 14 is passed over for
    // a later folder's LLVM 19.
    let mut e = env(None, &[&old.join("bin")]);
    e.after_plain = vec![new.join("bin")];
    assert_eq!(find(&e).unwrap().config, new.join("bin/llvm-config"));
    e.after_plain.clear();
    let missing = find(&e).unwrap_err();
    assert!(
        missing.reason.contains(&format!(
            "no llvm-config-19 on the PATH, in /usr/lib/llvm-19/bin or Homebrew's llvm@19; {} is LLVM 14.0.6",
            old.join("bin/llvm-config").display()
        )),
        "{}",
        missing.reason
    );
    // With LLVM 19 as a prefix, it is the one.
    let found = find(&env(Some(&new), &[&old.join("bin")])).unwrap();
    assert_eq!(found.version, "19.1.0");
}

#[test]
fn the_versioned_name_on_the_path_comes_first() {
    let dir = scratch("versioned");
    llvm(&dir, "19.1.7", true, true);
    let bin = dir.join("bin");
    std::fs::rename(bin.join("llvm-config"), bin.join("llvm-config-19")).unwrap();
    let other = scratch("versioned-other");
    llvm(&other, "19.1.2", true, true);
    let found = find(&env(None, &[&other.join("bin"), &bin])).unwrap();
    assert_eq!(found.config, bin.join("llvm-config-19"));
}

#[test]
fn without_a_shared_library_llvm_is_linked_statically() {
    let dir = scratch("static");
    llvm(&dir, "19.1.7", false, true);
    let found = find(&env(Some(&dir), &[])).unwrap();
    assert_eq!(found.linking, Linking::Static);
    assert_eq!(found.libs, ["LLVMCore", "LLVMSupport"]);
    assert_eq!(found.system_libs, ["rt", "z"]);
}

#[test]
fn llvm_without_clang_leaves_the_backend_out_naming_the_package() {
    let dir = scratch("no-clang");
    llvm(&dir, "19.1.7", true, false);
    let missing = find(&env(Some(&dir), &[])).unwrap_err();
    assert!(
        missing.reason.contains("but not clang 19 (looked in")
            && missing.reason.contains("Debian's package is clang-19"),
        "{}",
        missing.reason
    );
    assert_eq!(missing.absent, [dir.join("bin/clang")]);
    // clang-19 and llvm-link-19 on the PATH do; ISU_CLANG names one outright.
    let tools = scratch("no-clang-tools");
    executable(&tools.join("clang-19"), "#!/bin/sh\n");
    executable(&tools.join("llvm-link-19"), "#!/bin/sh\n");
    let found = find(&env(Some(&dir), &[&tools])).unwrap();
    assert_eq!(found.clang, tools.join("clang-19"));
    assert_eq!(found.llvm_link, tools.join("llvm-link-19"));
    let mut e = env(Some(&dir), &[]);
    e.clang = Some(OsString::from("/opt/my/clang"));
    e.llvm_link = Some(OsString::from("/opt/my/llvm-link"));
    assert_eq!(find(&e).unwrap().clang, PathBuf::from("/opt/my/clang"));
}
