//! The `isu` binary as a user runs it: outputs, formats and exit codes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn isu(args: &[&str]) -> Output {
    isu_with_stdin(args, "")
}

fn isu_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_isu"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // No user plugin manifest: the plugins are this build's own.
        .env_remove("ISU_PLUGINS")
        .env(
            "XDG_CONFIG_HOME",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-no-config"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start isu: {e}"));
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin.as_bytes());
    }
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("isu did not finish: {e}"))
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", stdout(o)))
}

const EXAMPLE: &str = "../examples/sum_evens.isu";

/// A scratch directory of this test, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

#[test]
fn fmt_prints_canonical_text_and_check_accepts_it() {
    let o = isu(&["fmt", EXAMPLE]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE))
        .unwrap_or_default();
    assert_eq!(stdout(&o), text);
    let o = isu(&["fmt", "--check", EXAMPLE]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
}

#[test]
fn fmt_check_and_write_on_loose_text() {
    let dir = scratch("fmt");
    let file = dir.join("loose.isu");
    let loose = "META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    RETURN:\n      EXPR: (const 1)\n  END\n";
    std::fs::write(&file, loose).unwrap_or_else(|e| panic!("{e}"));
    let path = file.to_str().unwrap_or_default();
    let o = isu(&["fmt", "--check", path]);
    assert_eq!(o.status.code(), Some(7));
    assert!(
        stderr(&o).contains("not in canonical form"),
        "{}",
        stderr(&o)
    );
    let o = isu(&["fmt", "--check", "--format", "json", path]);
    assert_eq!(o.status.code(), Some(7));
    assert_eq!(json(&o)["canonical"], false);
    // --check never writes.
    assert_eq!(std::fs::read_to_string(&file).unwrap_or_default(), loose);
    let o = isu(&["fmt", "--write", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let written = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(written.contains("S1: RETURN"), "{written}");
    assert!(written.contains("IO:\n  INPUT: []\n  OUTPUT: []\nSTATE: []\nLOCAL: []\n"));
    let o = isu(&["fmt", "--check", path]);
    assert_eq!(o.status.code(), Some(0));
    // No temporary file is left beside it.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(names, ["loose.isu"]);
}

#[test]
fn fmt_write_leaves_an_invalid_file_untouched() {
    let dir = scratch("fmt-bad");
    let file = dir.join("bad.isu");
    std::fs::write(&file, "FUNC:\n  NAME: f\n").unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&["fmt", "--write", file.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        "FUNC:\n  NAME: f\n"
    );
}

#[test]
fn parse_prints_iir_json_identically_every_time() {
    let a = isu(&["parse", EXAMPLE]);
    let b = isu(&["parse", EXAMPLE]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    let iir = json(&a);
    assert_eq!(iir["format"], "isu-iir/0.4");
    assert_eq!(iir["func"]["name"]["name"], "sum_evens");
    let o = isu(&["parse", "--format", "json", EXAMPLE]);
    let report = json(&o);
    assert_eq!(report["ok"], true);
    assert_eq!(report["iir"], iir);
}

#[test]
fn check_exit_codes_per_kind() {
    let o = isu(&["check", EXAMPLE]);
    assert_eq!(o.status.code(), Some(0));
    let o = isu(&["check", "test_data/err/unknown_operator.isu"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        stderr(&o).contains("error[unknown_operator]"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("unknown_operator.isu:15:14"),
        "{}",
        stderr(&o)
    );
    let o = isu(&["check", "test_data/err/undeclared_variable.isu"]);
    assert_eq!(o.status.code(), Some(4));
}

#[test]
fn check_json_lists_every_error_on_stdout() {
    let o = isu(&[
        "check",
        "--format",
        "json",
        "test_data/err/several_static_errors.isu",
    ]);
    assert_eq!(o.status.code(), Some(4));
    let report = json(&o);
    assert_eq!(report["ok"], false);
    let diags = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(diags.len() >= 3, "{report}");
    for d in &diags {
        assert_eq!(d["kind"], "StaticError");
        assert!(d["code"].is_string() && d["message"].is_string() && d["span"]["line"].is_u64());
    }
    assert_eq!(stderr(&o), "", "JSON mode logs nothing by default");
}

#[test]
fn reads_standard_input() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE))
        .unwrap_or_default();
    let o = isu_with_stdin(&["fmt", "-"], &text);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), text);
}

#[test]
fn io_failures_and_bad_usage() {
    let o = isu(&["check", "no/such/file.isu"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no/such/file.isu"), "{}", stderr(&o));
    let dir = scratch("binary");
    let file = dir.join("bin.isu");
    std::fs::write(&file, [0x46u8, 0xff, 0xfe]).unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&["check", file.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("not UTF-8"), "{}", stderr(&o));
    let o = isu(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    let o = isu(&["check", "--format", "xml", EXAMPLE]);
    assert_eq!(o.status.code(), Some(2));
    let o = isu(&["fmt", "--check", "--write", EXAMPLE]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn run_prints_the_result_and_runtime_errors_exit_5() {
    let o = isu(&["run", EXAMPLE, "--args", r#"{"xs": [1, 2, 3, 4, 10]}"#]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "16\n");
    let o = isu(&[
        "run",
        "--format",
        "json",
        EXAMPLE,
        "--args",
        r#"{"xs": [2]}"#,
    ]);
    assert_eq!(json(&o)["value"], 2);
    // A wrong argument is refused before anything runs.
    let o = isu(&[
        "run",
        "--format",
        "json",
        EXAMPLE,
        "--args",
        r#"{"xs": [1, "a"]}"#,
    ]);
    assert_eq!(o.status.code(), Some(5));
    let report = json(&o);
    assert_eq!(report["ok"], false);
    assert_eq!(report["diagnostics"][0]["code"], "invalid_argument");
    let o = isu(&["run", EXAMPLE, "--args", "{not json"]);
    assert_eq!(o.status.code(), Some(5));
    assert!(stderr(&o).contains("is not Isu JSON"), "{}", stderr(&o));
}

/// The first diagnostic of `isu run --format json EXAMPLE --args ARGS`, which must fail.
fn run_args_error(args: &str) -> serde_json::Value {
    let o = isu(&["run", "--format", "json", EXAMPLE, "--args", args]);
    assert_eq!(o.status.code(), Some(5), "{args}: {}", stderr(&o));
    let d = json(&o)["diagnostics"][0].clone();
    assert_eq!(d["code"], "invalid_argument", "{d}");
    d
}

#[test]
fn run_arguments_are_exact_integers_and_keys_appear_once() {
    let msg = |args: &str| {
        run_args_error(args)["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(
        msg(r#"{"xs": [-9223372036854775809]}"#),
        "--args is not Isu JSON: line 1, column 9 (at .xs[0]): -9223372036854775809 is outside the 64-bit signed integer range (-9223372036854775808 to 9223372036854775807)"
    );
    assert_eq!(
        msg(r#"{"xs": [4.0]}"#),
        "the argument `xs` does not have its type int[]: at [0] expected an int, found a float"
    );
    assert_eq!(
        msg(r#"{"xs": [1e999]}"#),
        "--args is not Isu JSON: line 1, column 9 (at .xs[0]): 1e999 is beyond the float range (Isu's floats are finite, at most 1.7976931348623157e+308 in size)"
    );
    assert_eq!(
        msg(r#"{"xs": [4], "xs": [5]}"#),
        "--args is not Isu JSON: line 1, column 13: the key \"xs\" appears twice in one object (first at line 1, column 2)"
    );
    // The 64-bit range itself is fine.
    let o = isu(&[
        "run",
        EXAMPLE,
        "--args",
        r#"{"xs": [-9223372036854775808, 9223372036854775807]}"#,
    ]);
    assert_eq!(stdout(&o), "-9223372036854775808\n", "{}", stderr(&o));
}

#[test]
fn format_is_accepted_before_or_after_the_command() {
    for args in [
        &["--format", "json", "check", EXAMPLE][..],
        &["check", EXAMPLE, "--format", "json"],
        &["check", "--format=json", EXAMPLE],
    ] {
        let o = isu(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(json(&o)["ok"], true);
    }
}

#[test]
fn json_reports_every_failure_on_stdout() {
    let o = isu(&["--format", "json", "check", "no/such/file.isu"]);
    assert_eq!(o.status.code(), Some(1));
    let d = &json(&o)["diagnostics"][0];
    assert_eq!(
        (&d["kind"], &d["code"]),
        (&"IoError".into(), &"io_error".into())
    );
    assert!(
        d["message"]
            .as_str()
            .is_some_and(|m| m.contains("no/such/file.isu")),
        "{d}"
    );
    let dir = scratch("json-failures");
    let file = dir.join("latin1.isu");
    std::fs::write(&file, b"FUNC:\n  NAME: caf\xe9\n").unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&[
        "check",
        "--format",
        "json",
        file.to_str().unwrap_or_default(),
    ]);
    assert_eq!(o.status.code(), Some(3));
    let d = &json(&o)["diagnostics"][0];
    assert_eq!(d["code"], "invalid_utf8");
    assert_eq!(
        (&d["span"]["line"], &d["span"]["column"]),
        (&2.into(), &12.into())
    );
    assert_eq!(d["span"]["start"], 17);
    let o = isu(&["--format", "json", "frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    let d = &json(&o)["diagnostics"][0];
    assert_eq!(
        (&d["kind"], &d["code"]),
        (&"UsageError".into(), &"invalid_usage".into())
    );
    let o = isu(&[
        "run",
        EXAMPLE,
        "--args",
        "@no/such/args.json",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(json(&o)["diagnostics"][0]["code"], "io_error");
}

#[test]
fn a_report_shows_at_most_a_hundred_errors_of_one_code() {
    let dir = scratch("capped");
    let file = dir.join("typo.isu");
    let mut text = String::from("META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nSTATE: [total: int = (const 0)]\nSTEPS:\n  SEQ: BEGIN\n");
    for _ in 0..250 {
        text.push_str("    ASSIGN:\n      TARGET: total\n      EXPR: (add (var totl) (const 1))\n");
    }
    text.push_str("    RETURN:\n      EXPR: (var total)\n  END\n");
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&[
        "check",
        "--format",
        "json",
        file.to_str().unwrap_or_default(),
    ]);
    assert_eq!(o.status.code(), Some(4));
    let report = json(&o);
    let diags = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(diags.len(), 101);
    assert!(diags.iter().all(|d| d["code"] == "undeclared_variable"));
    assert_eq!(
        diags[100]["message"],
        "and 150 more `undeclared_variable` errors, not shown: a report shows at most 100 of one code"
    );
    let o = isu(&["check", file.to_str().unwrap_or_default()]);
    assert_eq!(
        stderr(&o).matches("error[undeclared_variable]").count(),
        101
    );
}

#[test]
fn logs_are_coloured_only_on_a_terminal() {
    let dir = scratch("colour");
    std::fs::write(dir.join("isu-plugins.toml"), "this is not TOML [[[")
        .unwrap_or_else(|e| panic!("{e}"));
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE);
    let o = Command::new(env!("CARGO_BIN_EXE_isu"))
        .args([
            "run",
            example.to_str().unwrap_or_default(),
            "--args",
            r#"{"xs": [2]}"#,
        ])
        .current_dir(&dir)
        .env("ISU_LOG", "warn")
        .env_remove("NO_COLOR")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("plugin manifest skipped"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains('\u{1b}'), "{:?}", stderr(&o));
}

#[test]
fn line_ends_are_lf_or_crlf_and_a_lone_cr_is_refused() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE))
        .unwrap_or_default();
    let o = isu_with_stdin(&["check", "-"], &text.replace('\n', "\r\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = isu_with_stdin(
        &["check", "--format", "json", "-"],
        &text.replace('\n', "\r"),
    );
    assert_eq!(o.status.code(), Some(3));
    let report = json(&o);
    let diags = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "lone_carriage_return");
    assert_eq!(
        (&diags[0]["span"]["line"], &diags[0]["span"]["column"]),
        (&1.into(), &6.into())
    );
}

#[test]
fn run_reports_the_step_of_a_runtime_error_and_honours_limits() {
    let dir = scratch("run-error");
    let file = dir.join("div.isu");
    let text = "FUNC:\n  NAME: f\n  ARGS: [a: int, b: int]\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (div (var a) (var b))\n  END\n";
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    let path = file.to_str().unwrap_or_default();
    let o = isu(&[
        "run",
        "--format",
        "json",
        path,
        "--args",
        r#"{"a": 1, "b": 0}"#,
    ]);
    assert_eq!(o.status.code(), Some(5));
    let d = &json(&o)["diagnostics"][0];
    assert_eq!(d["kind"], "RuntimeError");
    assert_eq!(d["code"], "division_by_zero");
    assert_eq!(d["step"], "S1");
    assert_eq!(d["span"]["line"], 8);
    let o = isu(&["run", path, "--args", r#"{"a": 1, "b": 0}"#]);
    assert!(
        stderr(&o).contains("error[division_by_zero]"),
        "{}",
        stderr(&o)
    );
    let loop_file = dir.join("loop.isu");
    let text = "FUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: LOOP\n      ITER: (while (const true))\n      BODY: BEGIN\n      END\n  END\n";
    std::fs::write(&loop_file, text).unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&[
        "run",
        "--format",
        "json",
        "--max-steps",
        "1000",
        loop_file.to_str().unwrap_or_default(),
    ]);
    assert_eq!(o.status.code(), Some(5));
    assert_eq!(json(&o)["diagnostics"][0]["code"], "step_limit");
}

#[test]
fn run_trace_is_written_and_identical_every_time() {
    let dir = scratch("trace");
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    for out in [&a, &b] {
        let o = isu(&[
            "run",
            EXAMPLE,
            "--args",
            r#"{"xs": [1, 2]}"#,
            "--trace",
            out.to_str().unwrap_or_default(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let ta = std::fs::read_to_string(&a).unwrap_or_default();
    assert_eq!(ta, std::fs::read_to_string(&b).unwrap_or_default());
    assert!(ta.lines().count() >= 4, "{ta}");
    for line in ta.lines() {
        let _: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
}

#[test]
fn test_runs_io_examples_and_fails_with_testfail() {
    let o = isu(&["test", EXAMPLE]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2 examples, 2 passed, 0 failed"),
        "{}",
        stderr(&o)
    );
    let dir = scratch("test-fail");
    let file = dir.join("wrong.isu");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE))
        .unwrap_or_default()
        .replace("OUTPUT: [6, 0]", "OUTPUT: [7, 0]");
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&[
        "test",
        "--format",
        "json",
        file.to_str().unwrap_or_default(),
    ]);
    assert_eq!(o.status.code(), Some(6));
    let report = json(&o);
    assert_eq!(
        (report["passed"].as_u64(), report["failed"].as_u64()),
        (Some(1), Some(1))
    );
    let d = &report["diagnostics"][0];
    assert_eq!(
        (d["kind"].as_str(), d["code"].as_str()),
        (Some("TestFail"), Some("test_mismatch"))
    );
    assert_eq!(
        (d["expected"].as_i64(), d["actual"].as_i64()),
        (Some(7), Some(6))
    );
}

#[test]
fn patch_prints_renumbered_text_and_never_writes_on_error() {
    let dir = scratch("patch");
    let file = dir.join("p.isu");
    let original = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE))
        .unwrap_or_default();
    std::fs::write(&file, &original).unwrap_or_else(|e| panic!("{e}"));
    let good = dir.join("good.patch");
    std::fs::write(&good, "PATCH:\n  INSERT_AFTER S1:\n    ASSIGN:\n      TARGET: total\n      EXPR: (mul (var total) (const 2))\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let bad = dir.join("bad.patch");
    std::fs::write(&bad, "PATCH:\n  DELETE S9\n").unwrap_or_else(|e| panic!("{e}"));
    let path = file.to_str().unwrap_or_default();
    let o = isu(&[
        "patch",
        "--format",
        "json",
        path,
        good.to_str().unwrap_or_default(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = json(&o);
    assert_eq!(report["renumbered"]["S2"], "S3");
    assert!(report["text"]
        .as_str()
        .unwrap_or_default()
        .contains("S2: ASSIGN"));
    let o = isu(&["patch", "--write", path, bad.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(4));
    assert!(stderr(&o).contains("S9"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&file).unwrap_or_default(), original);
    let o = isu(&["patch", "--write", path, good.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(0));
    let patched = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(patched.contains("S3: RETURN"), "{patched}");
}

/// A program with a StaticError (a path without RETURN), whose hint names
/// the patch that repairs it.
const NO_RETURN: &str = "FUNC:\n  NAME: sum\n  ARGS: [xs: int[]]\n  RETURNS: int\nIO:\n  INPUT: [{\"xs\": [1, 2]}]\n  OUTPUT: [3]\nSTATE: [total: int = (const 0)]\nLOCAL: [x: int]\nSTEPS:\n  SEQ: BEGIN\n    S1: LOOP\n      ITER: (each x (var xs))\n      BODY: BEGIN\n        S1_1: ASSIGN\n          TARGET: total\n          EXPR: (add (var total) (var x))\n      END\n  END\n";

#[test]
fn patch_repairs_a_program_that_does_not_validate() {
    let dir = scratch("patch-invalid");
    let file = dir.join("p.isu");
    std::fs::write(&file, NO_RETURN).unwrap_or_else(|e| panic!("{e}"));
    let path = file.to_str().unwrap_or_default();
    let o = isu(&["check", "--format", "json", path]);
    assert_eq!(o.status.code(), Some(4));
    let hint = json(&o)["diagnostics"][0]["hint"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(hint.contains("PATCH: INSERT_AFTER S1"), "{hint}");

    // A patch that leaves it invalid: printed with its diagnostics, not written.
    let still = dir.join("still.patch");
    std::fs::write(&still, "PATCH:\n  REPLACE S1_1:\n    ASSIGN:\n      TARGET: total\n      EXPR: (mul (var total) (var x))\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&[
        "patch",
        "--write",
        "--format",
        "json",
        path,
        still.to_str().unwrap_or_default(),
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let report = json(&o);
    assert_eq!(report["written"], false);
    assert_eq!(report["diagnostics"][0]["code"], "missing_return");
    assert!(report["text"]
        .as_str()
        .unwrap_or_default()
        .contains("(mul (var total) (var x))"));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        NO_RETURN
    );
    // --allow-invalid writes it all the same.
    let o = isu(&[
        "patch",
        "--write",
        "--allow-invalid",
        path,
        still.to_str().unwrap_or_default(),
    ]);
    assert_eq!(o.status.code(), Some(4));
    assert!(std::fs::read_to_string(&file)
        .unwrap_or_default()
        .contains("(mul (var total) (var x))"));

    // The patch the hint names repairs it.
    let good = dir.join("good.patch");
    std::fs::write(
        &good,
        "PATCH:\n  INSERT_AFTER S1:\n    RETURN:\n      EXPR: (var total)\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&file, NO_RETURN).unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&["patch", "--write", path, good.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = isu(&["test", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn fix_makes_the_seed_template_valid() {
    let dir = scratch("fix");
    let file = dir.join("seed.isu");
    let seed = "META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nIO:\n  INPUT: []\n  OUTPUT: []\nSTATE: []\nLOCAL: []\nSTEPS:\n  SEQ: BEGIN\n    ASSIGN:\n      TARGET: x\n      EXPR: (const 0)\n    RETURN:\n      EXPR: (var x)\n  END\n";
    std::fs::write(&file, seed).unwrap_or_else(|e| panic!("{e}"));
    let path = file.to_str().unwrap_or_default();
    let o = isu(&["fix", "--format", "json", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = json(&o);
    assert_eq!(
        (report["ok"].as_bool(), report["changed"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(report["applied"][0]["code"], "undeclared_variable");
    assert!(report["text"]
        .as_str()
        .unwrap_or_default()
        .contains("LOCAL: [x: int]"));
    // Printing never writes; --write does, and the result checks.
    assert_eq!(std::fs::read_to_string(&file).unwrap_or_default(), seed);
    let o = isu(&["fix", "--write", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 fixes applied in 1 rounds, 0 diagnostics left"),
        "{}",
        stderr(&o)
    );
    let o = isu(&["check", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A program with nothing to fix is left as it is.
    let o = isu(&["fix", "--format", "json", EXAMPLE]);
    assert_eq!(json(&o)["changed"], false);
}

#[test]
fn test_without_examples_is_its_own_outcome() {
    let dir = scratch("no-examples");
    let file = dir.join("none.isu");
    std::fs::write(&file, "FUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (const 1)\n  END\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let path = file.to_str().unwrap_or_default();
    let o = isu(&["test", path]);
    assert_eq!(o.status.code(), Some(9));
    assert!(stderr(&o).contains("no examples"), "{}", stderr(&o));
    let o = isu(&["test", "--format", "json", path]);
    assert_eq!(o.status.code(), Some(9));
    let report = json(&o);
    assert_eq!(
        (report["outcome"].as_str(), report["examples"].as_u64()),
        (Some("no_examples"), Some(0))
    );
    let o = isu(&["test", "--format", "json", EXAMPLE]);
    assert_eq!(json(&o)["outcome"], "passed");
}

#[test]
fn fmt_keeps_comments() {
    let dir = scratch("fmt-comments");
    let file = dir.join("c.isu");
    std::fs::write(&file, "; what f does\nFUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    ; the answer\n    S1: RETURN\n      EXPR: (const 42)\n  END\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&["fmt", file.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("; what f does\nFUNC:\n"), "{out}");
    assert!(out.contains("    ; the answer\n    S1: RETURN\n"), "{out}");
}

#[test]
fn grammar_and_schema_print_what_the_library_builds() {
    use isu_host::grammar::{self, Format, Start, Vocabulary};
    let dir = scratch("grammar");
    let manifest = dir.join("isu-plugins.toml");
    std::fs::write(&manifest, "# no packs\ndisable = [\"math\", \"text\"]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let m = manifest.display().to_string();
    for (format, name) in [
        (Format::Ebnf, "ebnf"),
        (Format::Gbnf, "gbnf"),
        (Format::Lark, "lark"),
        (Format::RegexLite, "regex-lite"),
    ] {
        for (start, s) in [
            (Start::Program, "program"),
            (Start::Patch, "patch"),
            (Start::Any, "any"),
        ] {
            let o = isu(&["--plugins", &m, "grammar", "--format", name, "--start", s]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let expected =
                grammar::print(&grammar::grammar(&Vocabulary::standard(), start), format);
            assert_eq!(stdout(&o), expected, "{name} {s}");
        }
    }
    let o = isu(&["--plugins", &m, "grammar", "--format", "gbnf"]);
    assert!(stdout(&o).starts_with("root ::= program\n"));
    let o = isu(&["grammar", "--format", "yacc"]);
    assert_eq!(o.status.code(), Some(2));

    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/iir.schema.json");
    let o = isu(&["schema", "iir"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        std::fs::read_to_string(spec).unwrap_or_default()
    );
    let o = isu(&["schema", "envelope", "--allow", "patch,give_up"]);
    assert_eq!(
        json(&o)["properties"]["decision"]["enum"],
        serde_json::json!(["patch", "give_up"])
    );
    let o = isu(&["schema", "diagnostic"]);
    assert_eq!(
        json(&o)["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let o = isu(&["schema", "nothing"]);
    assert_eq!(o.status.code(), Some(2));
}
