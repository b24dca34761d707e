//! The plugin commands of the `isu` binary as a user runs them: `plugins`,
//! `build`, `run --target`, `test --target`, `conformance`, each with its
//! exit code and output. The `isu` under test is cargo's build of it, so its
//! system layer is the built-in manifest naming the plugin libraries beside
//! it, which the test builds itself (`common::built`); each test has its own
//! user configuration folder, and most a project manifest too.

mod common;

use common::built::library as lib;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The folder of this build's binaries and plugin libraries (`target/debug`).
fn build_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_isu"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// A scratch folder of this test, emptied first.
fn empty_scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-plugins-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// A scratch folder of this test with a project manifest listing python,
/// toy, panicky, the layout fixture and the math pack.
fn scratch(name: &str) -> PathBuf {
    let dir = empty_scratch(name);
    let mut text = String::new();
    for (name, krate) in [
        ("python", "isu_backend_python"),
        ("toy", "isu_backend_toy"),
        ("panicky", "isu_test_panicky"),
    ] {
        text.push_str(&format!(
            "[[plugin]]\nname = \"{name}\"\nkind = \"backend\"\nfile = {:?}\n\n",
            lib(krate).display().to_string()
        ));
    }
    text.push_str(&format!(
        "[[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = {:?}\nnamespace = \"math\"\n\n",
        lib("isu_pack_math").display().to_string()
    ));
    write(&dir.join("isu-plugins.toml"), &text);
    dir
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The user manifest of the tests that run in `dir`.
fn user_manifest(dir: &Path) -> PathBuf {
    dir.join("config/isu/plugins.toml")
}

/// Runs `isu` in `dir`, with `dir/config` as the user's configuration folder.
fn isu(dir: &Path, args: &[&str]) -> Output {
    isu_at(Path::new(env!("CARGO_BIN_EXE_isu")), dir, args)
}

/// Runs the `isu` binary at `exe` in `dir`, as [`isu`] does.
fn isu_at(exe: &Path, dir: &Path, args: &[&str]) -> Output {
    Command::new(exe)
        .args(args)
        .current_dir(dir)
        .env_remove("ISU_PLUGINS")
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("HOME", dir.join("home"))
        .output()
        .unwrap_or_else(|e| panic!("cannot start isu: {e}"))
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}{}", stdout(o), stderr(o)))
}

fn example() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/sum_evens.isu")
        .display()
        .to_string()
}

const GCD: &str = "FUNC:\n  NAME: g\n  ARGS: [a: int, b: int]\n  RETURNS: int\nIO:\n  INPUT: [{\"a\": 12, \"b\": 18}]\n  OUTPUT: [6]\nSTATE: []\nLOCAL: []\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (call math.GCD (var a) (var b))\n  END\n";

const OVERFLOW: &str = "FUNC:\n  NAME: dbl\n  ARGS: [a: int]\n  RETURNS: int\nIO:\n  INPUT: [{\"a\": 2}, {\"a\": 9223372036854775807}]\n  OUTPUT: [4, 0]\nSTATE: []\nLOCAL: []\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (mul (var a) (const 2))\n  END\n";

/// `(name, layer, status)` of each plugin of a `plugins list` JSON report.
fn listed(j: &serde_json::Value) -> Vec<(String, String, String)> {
    j["plugins"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| {
                    let f = |k: &str| p[k].as_str().unwrap_or_default().to_owned();
                    (f("name"), f("layer"), f("status"))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn triples(t: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    t.iter()
        .map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned()))
        .collect()
}

#[test]
fn plugins_list_shows_every_layer_and_where_each_plugin_comes_from() {
    let dir = scratch("list");
    let user = user_manifest(&dir);
    let project = dir.join("isu-plugins.toml");
    // The user's `panicky` is a broken library, but the project's replaces
    // it: it is never loaded, so nothing is refused.
    write(
        &user,
        &format!(
            "disable = [\"math\", \"llvm\", \"cobol\"]\n\n[[plugin]]\nname = \"toy\"\nkind = \"backend\"\nfile = {:?}\n\n[[plugin]]\nname = \"panicky\"\nkind = \"backend\"\nfile = {:?}\n",
            lib("isu_backend_toy").display().to_string(),
            lib("isu_test_layout").display().to_string()
        ),
    );
    let o = isu(&dir, &["plugins", "list", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["ok"], true, "{j}");
    let layers: Vec<(&str, &str, bool)> = j["layers"]
        .as_array()
        .map(|ls| {
            ls.iter()
                .map(|l| {
                    (
                        l["layer"].as_str().unwrap_or_default(),
                        l["state"].as_str().unwrap_or_default(),
                        l["built_in"].as_bool().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        layers,
        [
            ("system", "read", true),
            ("user", "read", false),
            ("project", "read", false)
        ]
    );
    assert_eq!(j["layers"][0]["dir"], build_dir().display().to_string());
    assert_eq!(j["layers"][0]["build"], "cargo build");
    assert_eq!(j["layers"][1]["manifest"], user.display().to_string());
    assert_eq!(
        listed(&j),
        triples(&[
            ("wasm", "system", "loaded"),
            ("text", "system", "loaded"),
            ("python", "project", "loaded"),
            ("toy", "project", "loaded"),
            ("panicky", "project", "loaded"),
            ("math", "project", "loaded"),
            ("math", "system", "disabled"),
            ("llvm", "system", "disabled"),
            ("python", "system", "overridden"),
            ("toy", "user", "overridden"),
            ("panicky", "user", "overridden"),
        ])
    );
    assert_eq!(j["plugins"][6]["by"]["layer"], "user");
    assert_eq!(j["plugins"][6]["by"]["line"], 1);
    assert_eq!(j["unused_disables"][0]["name"], "cobol");

    let o = isu(&dir, &["plugins"]);
    let out = stdout(&o);
    for want in [
        format!("  system   built-in (for the plugins beside isu in {})\n", build_dir().display()),
        format!("  user     {}\n", user.display()),
        format!("  project  {}\n", project.display()),
        format!("  wasm (backend, system, line 16): ok, version 0.1.0, plugin API 2.3\n      file: {}\n", lib("isu_backend_wasm").display()),
        format!("  math (pack, system, line 22): disabled by line 1 of {} (user)\n", user.display()),
        format!("  toy (backend, user, line 3): overridden by line 6 of {} (project)\n", project.display()),
        format!("note: `disable` of `cobol` (line 1 of {} (user)) matches no plugin of an earlier layer\n", user.display()),
    ] {
        assert!(out.contains(&want), "{want}\nnot in:\n{out}");
    }
    assert_eq!(isu(&dir, &["plugins", "verify"]).status.code(), Some(0));

    let broken = dir.join("broken.toml");
    write(
        &broken,
        &format!(
            "[[plugin]]\nname = \"skewed\"\nkind = \"backend\"\nfile = {:?}\n",
            lib("isu_test_layout").display().to_string()
        ),
    );
    let broken = broken.display().to_string();
    let o = isu(&dir, &["--plugins", &broken, "plugins", "verify"]);
    assert_eq!(o.status.code(), Some(8));
    assert!(
        stdout(&o).contains("skewed (backend, --plugins, line 1): refused (layout_mismatch)"),
        "{}",
        stdout(&o)
    );
    let o = isu(&dir, &["--plugins", &broken, "plugins"]);
    assert_eq!(o.status.code(), Some(0), "list reports; verify fails");
}

#[test]
fn a_broken_manifest_is_named_and_the_other_layers_still_load() {
    let dir = scratch("broken-layer");
    let user = user_manifest(&dir);
    write(&user, "[[plugin]]\nname = \"x\"\nkind = \"backend\"\n");
    let o = isu(&dir, &["plugins", "list"]);
    assert_eq!(o.status.code(), Some(0), "list reports");
    let out = stdout(&o);
    let error = format!(
        "error: {}:1:1: missing field `file` (user manifest)",
        user.display()
    );
    assert!(out.contains(&error), "{out}");
    assert!(
        out.contains("  python (backend, project, line 1): ok"),
        "{out}"
    );
    assert_eq!(isu(&dir, &["plugins", "verify"]).status.code(), Some(8));
    let j = json(&isu(&dir, &["plugins", "--format", "json"]));
    assert_eq!(j["ok"], false);
    assert_eq!(j["layers"][1]["state"], "failed");
    assert_eq!(
        (
            j["layers"][1]["error"]["line"].as_u64(),
            j["layers"][1]["error"]["column"].as_u64()
        ),
        (Some(1), Some(1))
    );
    // A command goes on with the other layers, and says what it skipped.
    let out_dir = dir.join("out").display().to_string() + "/";
    let o = isu(
        &dir,
        &["build", &example(), "--target", "wasm", "-o", &out_dir],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "warning: plugin manifest skipped: {}:1:1:",
            user.display()
        )),
        "{}",
        stderr(&o)
    );
    // A manifest named on the command line that is not there is the same.
    let o = isu(
        &dir,
        &[
            "--plugins",
            "nowhere.toml",
            "run",
            &example(),
            "--args",
            "{\"xs\": [2]}",
            "--target",
            "python",
        ],
    );
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "2\n"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("there is no plugin manifest there (named by --plugins)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_relative_file_is_read_from_its_manifests_folder_not_searched_for() {
    let dir = empty_scratch("relative");
    // The loader would find the toy here, were it given a bare name.
    let name = lib("isu_backend_toy")
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    write(
        &dir.join("m/plugins.toml"),
        &format!("[[plugin]]\nname = \"toy\"\nkind = \"backend\"\nfile = {name:?}\n"),
    );
    let o = Command::new(env!("CARGO_BIN_EXE_isu"))
        .args([
            "--plugins",
            "m/plugins.toml",
            "plugins",
            "verify",
            "--format",
            "json",
        ])
        .current_dir(&dir)
        .env_remove("ISU_PLUGINS")
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("LD_LIBRARY_PATH", build_dir())
        .env("DYLD_LIBRARY_PATH", build_dir())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.status.code(), Some(8), "{}", stdout(&o));
    let j = json(&o);
    let toy = j["plugins"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "toy"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(toy["status"], "refused", "{toy}");
    assert_eq!(toy["error"]["code"], "missing_file");
    assert_eq!(toy["file"], dir.join("m").join(&name).display().to_string());
}

#[test]
fn a_cargo_build_of_isu_finds_its_plugins_from_any_folder() {
    let dir = empty_scratch("anywhere");
    let o = isu(
        &dir,
        &["build", &example(), "--target", "wasm", "-o", "out/"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(dir.join("out/sum_evens.wasm").is_file());
    let o = isu(
        &dir,
        &[
            "run",
            &example(),
            "--target",
            "wasm",
            "--args",
            "{\"xs\": [2, 4, 5]}",
        ],
    );
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "6\n"),
        "{}",
        stderr(&o)
    );
    let j = json(&isu(&dir, &["plugins", "--format", "json"]));
    assert_eq!(
        listed(&j),
        triples(&[
            ("python", "system", "loaded"),
            ("wasm", "system", "loaded"),
            ("math", "system", "loaded"),
            ("llvm", "system", llvm_state()),
            ("text", "system", "loaded"),
        ])
    );
}

/// How the system layer's `llvm` plugin lists: loaded, unless this machine
/// builds without LLVM 19 (README), when its library says why it holds none.
fn llvm_state() -> &'static str {
    if common::built::llvm_left_out() {
        "refused"
    } else {
        "loaded"
    }
}

/// Copies (or links) this build's `isu` to `to`.
fn copy_isu(to: &Path) {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
    }
    let from = Path::new(env!("CARGO_BIN_EXE_isu"));
    if std::fs::hard_link(from, to).is_err() {
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn an_isu_without_its_plugins_says_how_to_get_them() {
    let dir = empty_scratch("without");
    // `cargo build --release -p isu_host`: cargo's folder, isu alone.
    let release = dir.join("target/release");
    for sub in [".fingerprint", "deps"] {
        std::fs::create_dir_all(release.join(sub)).unwrap_or_else(|e| panic!("{e}"));
    }
    copy_isu(&release.join("isu"));
    // The LLVM backend's library as a build without LLVM 19 leaves it: it
    // says why, and the fix ends in the command that builds it again.
    let llvm_file = format!(
        "{}isu_backend_llvm{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    std::fs::copy(lib("isu_test_left_out"), release.join(llvm_file))
        .unwrap_or_else(|e| panic!("{e}"));
    let j = json(&isu_at(
        &release.join("isu"),
        &dir,
        &["plugins", "--format", "json"],
    ));
    let llvm = j["plugins"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "llvm"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(llvm["status"], "refused", "{j}");
    assert_eq!(llvm["error"]["code"], "missing_file", "{j}");
    assert_eq!(
        llvm["error"]["fix"],
        "install the fixture's tool, then `cargo build --release` in the repository"
    );
    let o = isu_at(
        &release.join("isu"),
        &dir,
        &["build", &example(), "--target", "wasm"],
    );
    assert_eq!(o.status.code(), Some(8), "{}", stderr(&o));
    let err = stderr(&o);
    let missing = release.join(format!(
        "{}isu_backend_wasm{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    assert!(
        err.contains(&format!(
            "plugin `wasm` refused: there is no file {}",
            missing.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("fix: build the plugins: `cargo build --release` in the repository (`cargo build -p isu_host` builds isu alone)"),
        "{err}"
    );
    // A binary copied out of cargo's folder, with no sysroot beside it.
    let bin = dir.join("bin/isu");
    copy_isu(&bin);
    let o = isu_at(&bin, &dir, &["build", &example(), "--target", "wasm"]);
    assert_eq!(o.status.code(), Some(8), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("no backend serves target `wasm`: isu finds no plugins"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "system: {}",
            dir.join("lib/isu/plugins/plugins.toml").display()
        )),
        "{err}"
    );
    assert!(
        err.contains("fix: use an isu with its plugins beside it"),
        "{err}"
    );
}

fn edited(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let o = isu(dir, args);
    (o.status.code(), stderr(&o))
}

#[test]
fn plugins_add_and_remove_edit_the_manifest_only_when_the_result_loads() {
    let dir = empty_scratch("add");
    let user = user_manifest(&dir);
    let toy = lib("isu_backend_toy").display().to_string();
    // Not a plugin: refused, nothing written.
    write(&dir.join("notes.txt"), "not a library");
    let (code, err) = edited(&dir, &["plugins", "add", "notes.txt"]);
    assert_eq!(code, Some(8), "{err}");
    assert!(
        err.contains(&format!(
            "{} is not a shared library",
            dir.join("notes.txt").display()
        )),
        "{err}"
    );
    assert!(err.contains("(no manifest was changed)"), "{err}");
    assert!(!user.exists());
    for (file, code) in [
        (lib("isu_test_layout"), "layout_mismatch"),
        (lib("isu_test_old_abi"), "abi_stable_version"),
    ] {
        let o = isu(
            &dir,
            &[
                "plugins",
                "add",
                &file.display().to_string(),
                "--format",
                "json",
            ],
        );
        assert_eq!(o.status.code(), Some(8));
        assert_eq!(json(&o)["error"]["code"], code);
        assert!(!user.exists());
    }
    // A backend: written to the user's manifest, by its own name.
    let (code, err) = edited(&dir, &["plugins", "add", &toy]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "added plugin `toy` (backend, {toy}) in {} (user)",
            user.display()
        )),
        "{err}"
    );
    let text = read(&user);
    assert!(text.starts_with("# Plugins for isu"), "{text}");
    assert!(
        text.ends_with(&format!(
            "[[plugin]]\nname = \"toy\"\nkind = \"backend\"\nfile = {toy:?}\n"
        )),
        "{text}"
    );
    let o = isu(
        &dir,
        &[
            "run",
            &example(),
            "--target",
            "toy",
            "--args",
            "{\"xs\": []}",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(8),
        "the toy lacks arrays: {}",
        stderr(&o)
    );
    // A second backend for a target: refused, the manifest unchanged.
    let (code, err) = edited(&dir, &["plugins", "add", &toy, "--name", "toy2"]);
    assert_eq!(code, Some(8), "{err}");
    assert!(
        err.contains("target `toy` is already served by plugin `toy`"),
        "{err}"
    );
    assert_eq!(read(&user), text);
    // A second pack for the system's namespace: refused; under its name: it overrides.
    let math = lib("isu_pack_math").display().to_string();
    let (code, err) = edited(&dir, &["plugins", "add", &math, "--name", "math2"]);
    assert_eq!(code, Some(8), "{err}");
    assert!(
        err.contains("namespace `math` is already taken by plugin `math`"),
        "{err}"
    );
    assert!(
        err.contains("fix: use one pack for `math`: disable `math`"),
        "{err}"
    );
    let (code, err) = edited(&dir, &["plugins", "add", &math]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("it overrides `math` of line 22 of built-in"),
        "{err}"
    );
    // Removing the user's own: the system's comes back.
    let (code, err) = edited(&dir, &["plugins", "remove", "math"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("removed `math`"), "{err}");
    assert!(err.contains("note: `math` of line 22 of built-in"), "{err}");
    assert!(err.contains("is in use again"), "{err}");
    // Removing a system plugin disables it in the user's manifest.
    let (code, err) = edited(&dir, &["plugins", "remove", "wasm"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!("disabled `wasm` in {} (user)", user.display())),
        "{err}"
    );
    assert!(
        read(&user).contains("disable = [\"wasm\"]"),
        "{}",
        read(&user)
    );
    let (code, err) = edited(&dir, &["build", &example(), "--target", "wasm"]);
    assert_eq!(code, Some(8));
    assert!(err.contains(&format!("note: plugin `wasm` (line 16 of built-in (for the plugins beside isu in {}) (system)) is disabled by line", build_dir().display())), "{err}");
    let (code, err) = edited(&dir, &["plugins", "remove", "wasm"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("`wasm` is already disabled"), "{err}");
    // Adding it back under its name takes it out of `disable`.
    let wasm = lib("isu_backend_wasm").display().to_string();
    assert_eq!(edited(&dir, &["plugins", "add", &wasm]).0, Some(0));
    assert!(!read(&user).contains("disable"), "{}", read(&user));
    let (code, err) = edited(&dir, &["plugins", "remove", "cobol"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no manifest lists a plugin `cobol`"), "{err}");
    assert!(
        err.contains("fix: name one of: python, math, llvm, text, toy, wasm"),
        "{err}"
    );
    // The project's manifest, with --project.
    let (code, err) = edited(&dir, &["plugins", "remove", "toy"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        edited(&dir, &["plugins", "add", &toy, "--project"]).0,
        Some(0)
    );
    let project = dir.join("isu-plugins.toml");
    assert!(read(&project).contains("name = \"toy\""));
    let (code, err) = edited(&dir, &["plugins", "remove", "toy"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("fix: isu plugins remove toy --project"),
        "{err}"
    );
    let o = isu(
        &dir,
        &["plugins", "remove", "toy", "--project", "--format", "json"],
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(json(&o)["action"], "removed");
    assert!(!read(&project).contains("name ="), "{}", read(&project));
}

#[test]
fn artifacts_and_their_folder_follow_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| {
        std::fs::metadata(p)
            .map(|m| m.permissions().mode() & 0o777)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    };
    let mut targets = vec![("wasm", "sum_evens.wasm", false)];
    if !common::built::llvm_left_out() {
        targets.push(("llvm", "sum_evens", true));
    }
    for (umask, file, exe, folder) in [("022", 0o644, 0o755, 0o755), ("027", 0o640, 0o750, 0o750)] {
        let dir = empty_scratch(&format!("umask-{umask}"));
        for &(target, name, executable) in &targets {
            // The umask is set in a shell that then becomes `isu`.
            let o = Command::new("sh")
                .args(["-c", &format!("umask {umask} && exec \"$0\" \"$@\"")])
                .arg(env!("CARGO_BIN_EXE_isu"))
                .args(["build", &example(), "--target", target, "-o", "out/"])
                .current_dir(&dir)
                .env_remove("ISU_PLUGINS")
                .env("XDG_CONFIG_HOME", dir.join("config"))
                .env("HOME", dir.join("home"))
                .output()
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let want = if executable { exe } else { file };
            assert_eq!(
                mode(&dir.join("out").join(name)),
                want,
                "{target} under umask {umask}"
            );
        }
        assert_eq!(mode(&dir.join("out")), folder, "out/ under umask {umask}");
    }
}

#[test]
fn build_writes_artifacts_or_says_why_not() {
    let dir = scratch("build");
    let out = dir.join("sum.py");
    let out_s = out.display().to_string();
    let o = isu(
        &dir,
        &["build", &example(), "--target", "python", "-o", &out_s],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let py = std::fs::read_to_string(&out).unwrap_or_default();
    assert!(py.contains("def sum_evens"), "{py}");
    write(&dir.join("gcd.isu"), GCD);
    let o = isu(
        &dir,
        &["build", "gcd.isu", "--target", "toy", "--format", "json"],
    );
    assert_eq!(o.status.code(), Some(8));
    let j = json(&o);
    assert_eq!(j["build_error"]["code"], "unsupported");
    assert_eq!(
        j["build_error"]["failures"][0]["message"],
        "the pack function math.GCD has no lowering for target `toy`"
    );
    assert_eq!(
        j["build_error"]["failures"][0]["code"],
        "unsupported_feature"
    );
    let o = isu(&dir, &["build", "gcd.isu", "--target", "toy"]);
    assert_eq!(o.status.code(), Some(8));
    assert!(
        stderr(&o).contains("error: unsupported on target `toy`: the pack function math.GCD has no lowering for target `toy` [unsupported_feature]"),
        "{}",
        stderr(&o)
    );
    let o = isu(&dir, &["build", "gcd.isu", "--target", "python"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(dir.join("g.py")).is_ok_and(|t| t.contains("def math__GCD")));
    let o = isu(&dir, &["build", "gcd.isu", "--target", "cobol"]);
    assert_eq!(o.status.code(), Some(8));
    assert!(
        stderr(&o).contains("no backend serves target `cobol`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_and_test_with_a_target_keep_the_interpreters_contract() {
    let dir = scratch("run");
    write(&dir.join("dbl.isu"), OVERFLOW);
    for target in [None, Some("python"), Some("toy")] {
        let with = |args: &[&str]| {
            let mut all: Vec<&str> = args.to_vec();
            if let Some(t) = target {
                all.extend(["--target", t]);
            }
            isu(&dir, &all)
        };
        let o = with(&["run", "dbl.isu", "--args", "{\"a\": 21}"]);
        assert_eq!(
            (o.status.code(), stdout(&o).as_str()),
            (Some(0), "42\n"),
            "{target:?}: {}",
            stderr(&o)
        );
        let o = with(&[
            "run",
            "dbl.isu",
            "--args",
            "{\"a\": 9223372036854775807}",
            "--format",
            "json",
        ]);
        assert_eq!(o.status.code(), Some(5), "{target:?}");
        let d = &json(&o)["diagnostics"][0];
        assert_eq!(
            (d["code"].as_str(), d["step"].as_str()),
            (Some("int_overflow"), Some("S1"))
        );
        let o = with(&["test", "dbl.isu", "--format", "json"]);
        assert_eq!(o.status.code(), Some(6), "{target:?}");
        let j = json(&o);
        assert_eq!(
            (j["passed"].as_u64(), j["failed"].as_u64()),
            (Some(1), Some(1))
        );
        assert_eq!(j["diagnostics"][0]["code"], "test_error");
    }
    write(&dir.join("gcd.isu"), GCD);
    let o = isu(&dir, &["run", "gcd.isu", "--args", "{\"a\": -4, \"b\": 6}"]);
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "2\n"),
        "{}",
        stderr(&o)
    );
    let o = isu(&dir, &["test", "gcd.isu", "--target", "python"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = isu(
        &dir,
        &[
            "run",
            "dbl.isu",
            "--args",
            "{\"a\": 1}",
            "--target",
            "panicky",
        ],
    );
    assert_eq!(o.status.code(), Some(8));
    assert!(
        stderr(&o).contains("the plugin panicked in compile"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn settings_reach_the_backend_and_unknown_ones_are_refused() {
    let dir = scratch("settings");
    write(&dir.join("dbl.isu"), OVERFLOW);
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "dbl.isu",
            "--args",
            "{\"a\": 21}",
            "--target",
            "python",
        ];
        args.extend_from_slice(extra);
        isu(&dir, &args)
    };
    let o = run(&["--set", "python=python3"]);
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "42\n"),
        "{}",
        stderr(&o)
    );
    let o = run(&["--set", "python=/nowhere/python3"]);
    assert_eq!(o.status.code(), Some(8));
    assert!(
        stderr(&o).contains("cannot run `/nowhere/python3`")
            && stderr(&o).contains("--set python=PATH"),
        "{}",
        stderr(&o)
    );
    let o = run(&["--set", "opt_level=2"]);
    assert_eq!(o.status.code(), Some(8));
    assert!(
        stderr(&o).contains("has no setting `opt_level`")
            && stderr(&o).contains("its settings are python"),
        "{}",
        stderr(&o)
    );
    let o = isu(&dir, &["run", "dbl.isu", "--set", "python=python3"]);
    assert_eq!(o.status.code(), Some(2), "--set needs --target");
    let o = isu(
        &dir,
        &[
            "build", "dbl.isu", "--target", "python", "--set", "nonsense",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`nonsense` is not NAME=VALUE"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_backend_that_cannot_run_is_reported_once() {
    let dir = scratch("no-python");
    // Three IO examples, none of which can run without Python.
    let text = std::fs::read_to_string(example()).unwrap_or_default();
    let three = text.replace(
        "INPUT: [{\"xs\": [1, 2, 3, 4]}, {\"xs\": []}]\n  OUTPUT: [6, 0]",
        "INPUT: [{\"xs\": [1, 2, 3, 4]}, {\"xs\": []}, {\"xs\": [2]}]\n  OUTPUT: [6, 0, 2]",
    );
    assert_ne!(three, text);
    write(&dir.join("three.isu"), &three);
    let python = format!("python={}", dir.join("no-such-python").display());
    let o = isu(
        &dir,
        &["test", "three.isu", "--target", "python", "--set", &python],
    );
    assert_eq!(o.status.code(), Some(8), "{}", stderr(&o));
    assert_eq!(stderr(&o).matches("error:").count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("no-such-python"), "{}", stderr(&o));
}

#[test]
fn build_writes_to_a_fifo_as_a_stream() {
    let dir = scratch("fifo");
    let fifo = dir.join("out.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()));
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap_or_default())
    };
    // A program of ints only: the toy declares no arrays, so the host
    // refuses to build one that uses them.
    write(&dir.join("dbl.isu"), OVERFLOW);
    let o = isu(
        &dir,
        &["build", "dbl.isu", "--target", "toy", "-o", "out.fifo"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = reader.join().unwrap_or_default();
    assert!(!text.is_empty());
    assert!(std::fs::metadata(&fifo).is_ok_and(|m| !m.is_file()));
    assert_eq!(
        common::names(&dir),
        ["dbl.isu", "isu-plugins.toml", "out.fifo"]
    );
}

#[test]
fn conformance_runs_the_built_in_suite_from_any_folder_and_adds_cases() {
    let dir = scratch("conformance");
    let n = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/cases"))
        .map(|d| d.count() as u64)
        .unwrap_or_default();
    let o = isu(
        &dir,
        &["conformance", "--target", "toy", "--format", "json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let j = json(&o);
    assert_eq!(
        (j["cases"].as_u64(), j["builtin_cases"].as_u64()),
        (Some(n), Some(n))
    );
    assert!(n >= 80, "{n} cases");
    let interp = &j["reports"][0];
    assert_eq!(
        (interp["executor"].as_str(), interp["passed"].as_u64()),
        (Some("interpreter"), Some(n))
    );
    let toy = &j["reports"][1];
    assert_eq!(toy["executor"], "toy");
    let (passed, failed, unsupported) = (
        toy["passed"].as_u64().unwrap_or_default(),
        toy["failed"].as_u64().unwrap_or_default(),
        toy["unsupported"].as_u64().unwrap_or_default(),
    );
    assert!(passed >= 10 && unsupported >= 10 && failed == 0, "{toy}");
    assert_eq!(passed + unsupported, n);
    // Against the toy's expectation file: exactly as expected, exit 0; a
    // file expecting everything to run names each unsupported case, exit 6.
    let expect =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../plugins/testing/toy/conformance.toml");
    let expect = expect.display().to_string();
    let with = |file: &str, format: &str| {
        let args = [
            "conformance",
            "--target",
            "toy",
            "--expect",
            file,
            "--format",
            format,
        ];
        isu(&dir, &args)
    };
    let o = with(&expect, "human");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).ends_with(&format!("as expected by {expect}\n")),
        "{}",
        stdout(&o)
    );
    let none = dir.join("none.toml");
    write(&none, "unsupported = []\nfailing = []\n");
    let o = with(&none.display().to_string(), "json");
    assert_eq!(o.status.code(), Some(6));
    let j = json(&o);
    let diffs = j["expectation"]["differences"]
        .as_array()
        .map_or(0, Vec::len) as u64;
    assert_eq!(diffs, unsupported, "{}", j["expectation"]);
    // `--bless` writes the file from the results: a missing one is made,
    // one that differs is updated, and the next run accepts it. Without
    // `--bless`, a missing file is an error that says how to make it.
    let blessed = dir.join("blessed/conformance.toml");
    let file = blessed.display().to_string();
    let o = with(&file, "human");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("the expectation file {file} does not exist; `isu conformance --target toy --expect {file} --bless` writes it from the results")),
        "{}",
        stderr(&o)
    );
    std::fs::create_dir_all(dir.join("blessed")).unwrap_or_default();
    let bless = |file: &str| {
        isu(
            &dir,
            &[
                "conformance",
                "--target",
                "toy",
                "--expect",
                file,
                "--bless",
            ],
        )
    };
    let o = bless(&file);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).ends_with(&format!(
            "wrote {file} (a new file): {unsupported} unsupported, 0 failing\n"
        )),
        "{}",
        stdout(&o)
    );
    assert_eq!(read(&blessed), read(Path::new(&expect)));
    let o = with(&file, "human");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = bless(&none.display().to_string());
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("changed from before:\n  alias_assign_copy is unsupported"),
        "{}",
        stdout(&o)
    );
    assert_eq!(read(&none), read(Path::new(&expect)));
    let o = isu(&dir, &["conformance", "--target", "toy", "--bless"]);
    assert_eq!(o.status.code(), Some(2), "--bless needs --expect");
    let o = isu(
        &dir,
        &[
            "conformance",
            "--target",
            "toy",
            "--expect",
            &expect,
            "--junit",
            "results.xml",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let xml = read(&dir.join("results.xml"));
    assert!(
        xml.starts_with(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"isu conformance\""
        ),
        "{xml}"
    );
    assert!(
        xml.contains(&format!(
            "<testsuite name=\"toy\" tests=\"{n}\" failures=\"0\" skipped=\"{unsupported}\">"
        )),
        "{xml}"
    );
    // A backend that declares every feature but carries no lowering of a
    // pack's function: the cases calling one are unsupported on it (the
    // host says so before compiling), every other case reaches its panic.
    let calling_packs =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/cases"))
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .filter(|e| {
                        std::fs::read_to_string(e.path())
                            .is_ok_and(|t| t.contains("(call math.") || t.contains("(call text."))
                    })
                    .count() as u64
            })
            .unwrap_or_default();
    assert!(calling_packs > 0);
    let o = isu(&dir, &["conformance", "--target", "panicky"]);
    assert_eq!(o.status.code(), Some(6));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "panicky: 0 passed, {} failed, {calling_packs} unsupported",
            n - calling_packs
        )),
        "{out}"
    );
    assert!(
        out.contains("FAIL [panicky] ")
            && out.contains(
                "compile failed: the `panicky` backend failed: the plugin panicked in compile"
            ),
        "{}",
        &out[..out.len().min(600)]
    );
    // An author's own cases, besides the suite: named by their folder.
    write(
        &dir.join("mine/inc.isu"),
        "; run: {\"a\": 1} => 2\nFUNC:\n  NAME: inc\n  ARGS: [a: int]\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (add (var a) (const 1))\n  END\n",
    );
    write(
        &dir.join("mine/wrong.isu"),
        "; run: {\"a\": 1} => 5\nFUNC:\n  NAME: inc\n  ARGS: [a: int]\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (add (var a) (const 1))\n  END\n",
    );
    let o = isu(
        &dir,
        &["conformance", "--target", "toy", "--cases", "mine/"],
    );
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(&format!("{} cases\n", n + 2)), "{out}");
    assert!(
        out.contains(
            "FAIL [interpreter] mine/wrong line 1: {\"a\":1}\n  expected: 5\n  got:      2\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "toy: {} passed, 0 failed, {unsupported} unsupported",
            passed + 2
        )),
        "{out}"
    );
    let o = isu(&dir, &["conformance", "--cases", "nowhere"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("reading the cases in nowhere"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_grammar_holds_the_loaded_packs_functions() {
    let dir = scratch("grammar");
    let o = isu(&dir, &["grammar", "--format", "lark"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lark = stdout(&o);
    let rule = |name: &str| {
        lark.split("\n\n")
            .find(|r| r.contains(&format!("{name}: ")))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(rule("function_2").contains("\"math.GCD\""), "{lark}");
    assert!(rule("function_1").contains("\"math.ISQRT\""), "{lark}");
    assert!(rule("function_3").contains("\"text.PAD_LEFT\""), "{lark}");
    assert!(!rule("function_1").contains("\"math.GCD\""));
}
