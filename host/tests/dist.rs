//! `scripts/dist.sh` as a user runs it: the folder it writes (from this
//! test's own build, `--profile dev --no-build`) is moved to another place,
//! and its `isu` builds for Wasm and runs the conformance suite from an
//! unrelated folder; the archive, unpacked elsewhere, loads its plugins too.
//! A backend author with only the install (no repository on the path):
//! `isu plugins new`, `cargo test` (the crate's own conformance test),
//! `isu plugins add --project`, `isu conformance --target`.
//! The plugin libraries are built first (`common::built`).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"))
}

/// Runs `isu` at `exe` in `dir`, with no manifest of the user's.
fn isu(exe: &Path, dir: &Path, args: &[&str]) -> Output {
    run(Command::new(exe)
        .args(args)
        .current_dir(dir)
        .env_remove("ISU_PLUGINS")
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("HOME", dir))
}

#[test]
fn the_dist_folder_works_after_being_moved_and_unpacked() {
    let scratch = std::env::temp_dir().join(format!("isu-dist-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let made = scratch.join("made");
    std::fs::create_dir_all(&made).unwrap_or_else(|e| panic!("{e}"));
    // <target>/debug: package this build, plugins included.
    let profile = common::built::workspace();
    let target = profile
        .parent()
        .unwrap_or_else(|| panic!("no target folder"));
    let dist = made.join("isu-dist");
    // Where LLVM 19 is missing the build leaves the LLVM backend out, and so
    // does the folder, by itself (README, "Building without LLVM").
    let no_llvm = common::built::llvm_left_out();
    let o = run(Command::new("bash")
        .arg(repo().join("scripts/dist.sh"))
        .args(["--profile", "dev", "--no-build"])
        .arg(&dist)
        .env("CARGO_TARGET_DIR", target));
    assert!(o.status.success(), "dist.sh: {}{}", stdout(&o), stderr(&o));
    assert!(made.join("isu-dist.tar.gz").is_file());
    let o = run(Command::new("bash")
        .arg(repo().join("scripts/dist.sh"))
        .arg("--no-build")
        .arg(&dist));
    assert_eq!(
        o.status.code(),
        Some(1),
        "a folder that is not empty is refused"
    );
    assert!(stderr(&o).contains("is not empty"), "{}", stderr(&o));

    // Moved, and used from a folder that has nothing to do with it.
    let moved = scratch.join("opt/isu");
    std::fs::create_dir_all(scratch.join("opt")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::rename(&dist, &moved).unwrap_or_else(|e| panic!("{e}"));
    let work = common::user_folder(&scratch.join("work"));
    let exe = moved.join("bin/isu");
    let o = isu(
        &exe,
        &work,
        &["build", "sum_evens.isu", "--target", "wasm", "-o", "out/"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(work.join("out/sum_evens.wasm").is_file());
    let o = isu(&exe, &work, &["plugins", "--format", "json"]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(j["ok"], true, "{j}");
    let system = moved.join("lib/isu/plugins/plugins.toml");
    assert_eq!(j["layers"][0]["manifest"], system.display().to_string());
    let loaded: Vec<&str> = j["plugins"]
        .as_array()
        .map(|ps| ps.iter().filter_map(|p| p["name"].as_str()).collect())
        .unwrap_or_default();
    let shipped: &[&str] = if no_llvm {
        &["python", "wasm", "math", "text"]
    } else {
        &["python", "wasm", "math", "llvm", "text"]
    };
    assert_eq!(loaded, shipped);
    let o = isu(&exe, &work, &["conformance", "--target", "wasm"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("wasm: "), "{}", stdout(&o));
    assert!(stdout(&o).contains(" passed, 0 failed, "), "{}", stdout(&o));
    assert!(moved.join("share/isu/spec/plugin-abi.md").is_file());
    assert!(moved
        .join("share/isu/conformance/cases/sum_evens.isu")
        .is_file());

    let crates = moved.join("share/isu/crates");
    assert_eq!(
        common::names(&crates),
        [
            format!("isu_lang-{}", isu_plugin_api::lang::VERSION),
            format!("isu_plugin_api-{}", isu_plugin_api::lang::VERSION),
        ]
    );
    a_new_backend_builds_from_the_install_alone(&exe, &scratch.join("author"));

    // The archive, unpacked elsewhere.
    let unpacked = scratch.join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap_or_else(|e| panic!("{e}"));
    let o = run(Command::new("tar")
        .arg("-xzf")
        .arg(made.join("isu-dist.tar.gz"))
        .arg("-C")
        .arg(&unpacked));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = isu(
        &unpacked.join("isu-dist/bin/isu"),
        &work,
        &["plugins", "verify"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&scratch);
}

/// `isu plugins new js` from the install at `exe`, in `home`: the crate
/// builds against the install's `share/isu/crates` alone, its own test runs
/// the suite through the install's `isu`, and registered in a project's
/// manifest it passes `isu conformance` with no failure, its pack cases
/// reported unsupported.
///
/// Cargo builds the crate's dependencies into a target folder kept under
/// `CARGO_TARGET_TMPDIR` between runs, from the workspace's `Cargo.lock`
/// (offline): the first run builds abi_stable and serde once, later runs
/// only the crate and the plugin API.
fn a_new_backend_builds_from_the_install_alone(exe: &Path, home: &Path) {
    std::fs::create_dir_all(home).unwrap_or_else(|e| panic!("{e}"));
    let o = isu(exe, home, &["plugins", "new", "js", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let made: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}"));
    let share = exe
        .parent()
        .and_then(Path::parent)
        .map(|p| p.join("share/isu/crates"))
        .unwrap_or_default();
    let v = isu_plugin_api::lang::VERSION;
    assert_eq!(
        made["plugin_api"],
        share
            .join(format!("isu_plugin_api-{v}"))
            .display()
            .to_string()
    );
    assert_eq!(
        made["lang"],
        share.join(format!("isu_lang-{v}")).display().to_string()
    );
    assert_eq!(made["warnings"], serde_json::json!([]), "{made}");
    let krate = home.join("js");
    for file in [
        "conformance.toml",
        "tests/conformance.rs",
        ".cargo/config.toml",
    ] {
        assert!(krate.join(file).is_file(), "no {file}");
    }
    std::fs::copy(repo().join("Cargo.lock"), krate.join("Cargo.lock"))
        .unwrap_or_else(|e| panic!("{e}"));
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("backend-template-target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = run(Command::new(&cargo)
        .args(["build", "--offline", "--quiet"])
        .current_dir(&krate)
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_PROFILE_DEV_DEBUG", "false"));
    assert!(built.status.success(), "cargo build: {}", stderr(&built));
    let tested = run(Command::new(&cargo)
        .args(["test", "--offline", "--quiet", "--", "--nocapture"])
        .current_dir(&krate)
        .env_remove("ISU")
        .env_remove("ISU_BLESS")
        .env_remove("ISU_PLUGINS")
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_PROFILE_DEV_DEBUG", "false"));
    assert!(
        tested.status.success(),
        "cargo test: {}{}",
        stdout(&tested),
        stderr(&tested)
    );
    assert!(stderr(&tested).contains("js: "), "{}", stderr(&tested));

    let library = target.join("debug").join(format!(
        "{}isu_backend_js{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let o = isu(
        exe,
        &krate,
        &[
            "plugins",
            "add",
            "--project",
            &library.display().to_string(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(krate.join("isu-plugins.toml").is_file());
    let o = isu(
        exe,
        &krate,
        &["conformance", "--target", "js", "--format", "json"],
    );
    let report: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
    assert_eq!(o.status.code(), Some(0), "{report}");
    let js = &report["reports"][1];
    assert_eq!(js["executor"], "js");
    assert_eq!(js["failed"], 0, "{js}");
    assert!(js["passed"].as_u64().is_some_and(|n| n >= 10), "{js}");
    let unsupported = js.to_string();
    assert!(unsupported.contains("pack_text_replace"), "{js}");
}
