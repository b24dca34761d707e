//! A backend author outside this repository: `isu plugins new` writes a
//! crate into a temporary folder, cargo builds it there against this
//! repository's `plugin-api` (the `[patch.crates-io]` that `--plugin-api`
//! writes), `isu plugins add` registers it in a user manifest of the test's
//! own, and `isu conformance --target` passes on it, run from that folder.
//!
//! The crate's dependencies are built into a cargo target folder kept under
//! `CARGO_TARGET_TMPDIR` between runs, from the workspace's `Cargo.lock`
//! (offline): the first run builds abi_stable and serde once, later runs
//! only the crate.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs this build's `isu` in `dir`, with `home/config` as the user's
/// configuration folder.
fn isu(dir: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_isu"))
        .args(args)
        .current_dir(dir)
        .env_remove("ISU_PLUGINS")
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("HOME", home)
        .output()
        .unwrap_or_else(|e| panic!("cannot start isu: {e}"))
}

#[test]
fn a_new_backend_builds_outside_the_repository_and_passes_the_suite() {
    let home = std::env::temp_dir().join(format!("isu-backend-template-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap_or_else(|e| panic!("{e}"));
    let krate = home.join("mine");
    let api = repo().join("plugin-api").display().to_string();
    let o = isu(
        &home,
        &home,
        &[
            "plugins",
            "new",
            "mine",
            "--path",
            "mine",
            "--plugin-api",
            &api,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("isu conformance --target mine"),
        "{}",
        stderr(&o)
    );
    // A folder that is not empty is not written to; a bad name is bad usage.
    let o = isu(&home, &home, &["plugins", "new", "other", "--path", "mine"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is not empty"), "{}", stderr(&o));
    let o = isu(&home, &home, &["plugins", "new", "Bad"]);
    assert_eq!(o.status.code(), Some(2));
    // A shipped plugin's name is warned about; by default a build of this
    // repository builds against the repository's plugin API.
    let o = isu(
        &home,
        &home,
        &["plugins", "new", "python", "--format", "json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let made: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}"));
    let warnings = made["warnings"].to_string();
    assert!(
        warnings.contains("`python` is the name of a plugin that ships with isu"),
        "{made}"
    );
    let own = std::fs::canonicalize(repo().join("plugin-api")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(made["plugin_api"], own.display().to_string(), "{made}");
    let config = std::fs::read_to_string(home.join("python/.cargo/config.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(config.contains("ISU = { value = "), "{config}");
    let o = isu(
        &home,
        &home,
        &["plugins", "new", "x", "--plugin-api", "/nonexistent"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("holds no Cargo.toml of isu_plugin_api"),
        "{}",
        stderr(&o)
    );

    std::fs::copy(repo().join("Cargo.lock"), krate.join("Cargo.lock"))
        .unwrap_or_else(|e| panic!("{e}"));
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("backend-template-target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = Command::new(cargo)
        .args(["build", "--offline", "--quiet"])
        .current_dir(&krate)
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .output()
        .unwrap_or_else(|e| panic!("cannot start cargo: {e}"));
    assert!(built.status.success(), "cargo build: {}", stderr(&built));

    let library = target.join("debug").join(format!(
        "{}isu_backend_mine{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    // Named through `..`, the library is stored by its normalised path.
    let roundabout = target
        .join("debug/../debug")
        .join(library.file_name().unwrap_or_default());
    let o = isu(
        &krate,
        &home,
        &["plugins", "add", &roundabout.display().to_string()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let manifest = std::fs::read_to_string(home.join("config/isu/plugins.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(manifest.contains("name = \"mine\""), "{manifest}");
    assert!(
        manifest.contains(&format!("file = \"{}\"", library.display())),
        "{manifest}"
    );

    let o = isu(
        &krate,
        &home,
        &["conformance", "--target", "mine", "--format", "json"],
    );
    let report: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
    assert_eq!(o.status.code(), Some(0), "{report}");
    let mine = &report["reports"][1];
    assert_eq!(mine["executor"], "mine");
    assert_eq!(mine["failed"], 0, "{mine}");
    assert!(mine["passed"].as_u64().is_some_and(|n| n >= 10), "{mine}");
    let _ = std::fs::remove_dir_all(&home);
}
