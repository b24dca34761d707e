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
    assert_eq!(iir["format"], "isu-iir/0.1");
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
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not UTF-8"), "{}", stderr(&o));
    let o = isu(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    let o = isu(&["check", "--format", "xml", EXAMPLE]);
    assert_eq!(o.status.code(), Some(2));
    let o = isu(&["fmt", "--check", "--write", EXAMPLE]);
    assert_eq!(o.status.code(), Some(2));
}
