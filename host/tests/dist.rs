//! `scripts/dist.sh` as a user runs it: the folder it writes (from this
//! test's own build, `--profile dev --no-build`) is moved to another place,
//! and its `isu` builds for Wasm and runs the conformance suite from an
//! unrelated folder; the archive, unpacked elsewhere, loads its plugins too.
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
