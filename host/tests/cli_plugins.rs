//! The plugin commands of the `isu` binary as a user runs them: `plugins`,
//! `build`, `run --target`, `test --target`, `conformance`, each with its
//! exit code and output. The manifest names the workspace's plugin
//! libraries, built by the test itself (`common::built`).

mod common;

use common::built::library as lib;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A scratch folder of this test, emptied first, with a manifest listing
/// python, toy, panicky, the layout fixture and the math pack.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-plugins-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
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
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// Runs `isu` in `dir` (which holds the manifest, found as the project's).
fn isu(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_isu"))
        .args(args)
        .current_dir(dir)
        .env_remove("ISU_PLUGINS")
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

#[test]
fn plugins_list_and_verify() {
    let dir = scratch("list");
    let o = isu(&dir, &["plugins", "list", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["ok"], true);
    assert_eq!(j["manifest"]["origin"], "project");
    let names: Vec<&str> = j["plugins"]
        .as_array()
        .map(|ps| ps.iter().filter_map(|p| p["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["python", "toy", "panicky", "math"]);
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
        stdout(&o).contains("skewed (backend, line 1): refused (layout_mismatch)"),
        "{}",
        stdout(&o)
    );
    let o = isu(&dir, &["--plugins", &broken, "plugins"]);
    assert_eq!(o.status.code(), Some(0), "list reports; verify fails");
    let bad = dir.join("bad.toml");
    write(&bad, "[[plugin]]\nname = \"x\"\nkind = \"backend\"\n");
    let o = isu(&dir, &["--plugins", &bad.display().to_string(), "plugins"]);
    assert_eq!(o.status.code(), Some(8));
    assert!(
        stderr(&o).contains("bad.toml:1:1: missing field `file`"),
        "{}",
        stderr(&o)
    );
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
    assert_eq!(j["build_error"]["code"], "no_lowering");
    assert_eq!(
        j["build_error"]["message"],
        "the pack function math.GCD has no lowering for target `toy`"
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
fn conformance_reports_each_executor() {
    let dir = scratch("conformance");
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/cases");
    let cases = cases.display().to_string();
    let o = isu(
        &dir,
        &[
            "conformance",
            "--target",
            "toy",
            "--cases",
            &cases,
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let j = json(&o);
    let n = j["cases"].as_u64().unwrap_or_default();
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
            "--cases",
            &cases,
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
    let o = with(&expect, "junit");
    assert_eq!(o.status.code(), Some(0));
    let xml = stdout(&o);
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
    let o = isu(
        &dir,
        &["conformance", "--target", "panicky", "--cases", &cases],
    );
    assert_eq!(o.status.code(), Some(6));
    let out = stdout(&o);
    assert!(
        out.contains(&format!("panicky: 0 passed, {n} failed, 0 unsupported")),
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
    assert!(rule("function_1").contains("\"math.IS_PRIME\""), "{lark}");
    assert!(!rule("function_1").contains("\"math.GCD\""));
}
