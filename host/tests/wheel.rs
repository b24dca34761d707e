//! `scripts/wheel.sh` as a user runs it: the wheel it writes (from this
//! test's own build, `--profile dev --no-build`) installs with pip into a
//! fresh virtual environment, where `isu` is on the PATH with its plugins and
//! `import isu` finds that binary; then the Python API's tests
//! (`python/tests`, pytest) run against it, and the package passes
//! `mypy --strict` and ruff. The plugin libraries are built first
//! (`common::built`).
//!
//! pytest, mypy and ruff come from `scripts/test-requirements.txt` (which
//! `scripts/test.sh` installs); without them those parts say so and pass,
//! unless `ISU_REQUIRE_PYTEST=1` (as in CI).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `cmd`; its output, which must be a success.
fn ok(cmd: &mut Command) -> Output {
    let o = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    assert!(
        o.status.success(),
        "{cmd:?}: {}\n{}{}",
        o.status,
        text(&o.stdout),
        text(&o.stderr)
    );
    o
}

/// Whether `python3` has `module`; when not, the part that needs it is
/// skipped, saying so, unless `ISU_REQUIRE_PYTEST=1`.
fn has_module(module: &str) -> bool {
    let found = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("ISU_REQUIRE_PYTEST").as_deref() != Ok("1"),
            "ISU_REQUIRE_PYTEST=1 but python3 has no {module} (pip install -r scripts/test-requirements.txt)"
        );
        eprintln!("SKIPPED: python3 has no {module} (scripts/test.sh installs it)");
    }
    found
}

#[test]
fn the_wheel_installs_isu_on_the_path_and_its_python_api() {
    let scratch = std::env::temp_dir().join(format!("isu-wheel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap_or_else(|e| panic!("{e}"));
    let profile = common::built::workspace();
    let target = profile
        .parent()
        .unwrap_or_else(|| panic!("no target folder"));
    let out = scratch.join("wheels");
    let o = ok(Command::new("bash")
        .arg(repo().join("scripts/wheel.sh"))
        .args(["--profile", "dev", "--no-build"])
        .arg(&out)
        .env("CARGO_TARGET_DIR", target));
    let wheels = common::names(&out);
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(wheels.len(), 1, "{wheels:?}");
    let wheel = out.join(&wheels[0]);
    assert!(
        wheels[0].starts_with(&format!("isu-{version}-py3-none-")) && wheels[0].ends_with(".whl"),
        "{wheels:?}"
    );
    assert!(text(&o.stdout).contains("wrote"), "{}", text(&o.stdout));
    // Its RECORD names every other file with its hash and size, and its
    // entries are sorted as written, with fixed times: the same build gives
    // the same bytes.
    ok(Command::new("python3")
        .arg("-c")
        .arg(
            r#"
import base64, hashlib, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
record = [n for n in names if n.endswith(".dist-info/RECORD")][0]
rows = [l.split(",") for l in z.read(record).decode().splitlines()]
assert sorted(r[0] for r in rows) == sorted(names), (rows, names)
for name, digest, size in rows:
    if name == record:
        continue
    data = z.read(name)
    want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert (digest, int(size)) == (want, len(data)), name
assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in z.infolist())
assert any(n.endswith(".data/scripts/isu") for n in names)
assert "isu/py.typed" in names
"#,
        )
        .arg(&wheel));

    // pip install into a fresh virtual environment, with no index: the
    // wheel needs nothing else.
    let venv = scratch.join("venv");
    ok(Command::new("python3").args(["-m", "venv"]).arg(&venv));
    let bin = venv.join("bin");
    ok(Command::new(bin.join("python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--disable-pip-version-check",
        ])
        .arg(&wheel));
    // The plugin API's crates land beside `bin`, where `isu plugins new`
    // finds them (BIN/../share/isu/crates).
    let crates = common::names(&venv.join("share/isu/crates"));
    for name in ["isu_plugin_api-", "isu_lang-"] {
        assert!(crates.iter().any(|c| c.starts_with(name)), "{crates:?}");
    }
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap_or_else(|e| panic!("{e}"));
    // `isu` on the PATH, with its plugins, from a folder of the user's.
    let work = common::user_folder(&scratch.join("work"));
    let user = |cmd: &mut Command| -> Output {
        ok(cmd
            .current_dir(&work)
            .env("PATH", &path)
            .env("HOME", &work)
            .env("XDG_CONFIG_HOME", work.join("config"))
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .env_remove("ISU_PLUGINS")
            .env_remove("ISU_BIN")
            .env_remove("PYTHONPATH"))
    };
    let o = user(Command::new("isu").arg("--version"));
    assert_eq!(text(&o.stdout).trim(), format!("isu {version}"));
    user(Command::new("isu").args(["build", "sum_evens.isu", "--target", "wasm", "-o", "out/"]));
    assert!(work.join("out/sum_evens.wasm").is_file());
    let o = user(Command::new("isu").args(["plugins", "verify"]));
    assert!(!text(&o.stdout).is_empty());
    // `import isu` with the installed binary.
    let o = user(Command::new("python").args([
        "-c",
        "import isu; print(isu.find_isu()); print(isu.run(open('sum_evens.isu').read(), {'xs': [1, 2, 3, 4]}))",
    ]));
    assert_eq!(
        text(&o.stdout),
        format!("{}\n6\n", bin.join("isu").display())
    );

    // The API's tests, on the installed package and binary, by this
    // machine's python3 (which has pytest), and the package's type checks.
    if has_module("pytest") {
        let site = text(
            &user(Command::new("python").args([
                "-c",
                "import sysconfig; print(sysconfig.get_path('platlib'))",
            ]))
            .stdout,
        );
        ok(Command::new("python3")
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(repo().join("python/tests"))
            .current_dir(&work)
            .env("PYTHONPATH", site.trim())
            .env("ISU_BIN", bin.join("isu"))
            .env("PYTHONDONTWRITEBYTECODE", "1"));
    }
    if has_module("mypy") {
        ok(Command::new("python3")
            .args(["-m", "mypy", "--strict", "--cache-dir"])
            .arg(scratch.join("mypy"))
            .arg(repo().join("python/isu"))
            .current_dir(&work));
    }
    if has_module("ruff") {
        ok(Command::new("python3")
            .args(["-m", "ruff", "check", "--no-cache"])
            .arg(repo().join("python"))
            .current_dir(repo().join("python")));
        ok(Command::new("python3")
            .args(["-m", "ruff", "format", "--check", "--no-cache"])
            .arg(repo().join("python"))
            .current_dir(repo().join("python")));
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
