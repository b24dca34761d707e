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
    assert!(stderr(&o).contains("is not JSON"), "{}", stderr(&o));
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

#[test]
fn grammar_and_schema_print_what_the_library_builds() {
    use isu_host::grammar::{self, Format, Start, Vocabulary};
    let dir = scratch("grammar");
    let manifest = dir.join("isu-plugins.toml");
    std::fs::write(&manifest, "# no plugins\n").unwrap_or_else(|e| panic!("{e}"));
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
