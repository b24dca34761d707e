//! The standalone executable: its arguments as JSON from a file or standard
//! input, read against the ARGS types exactly as `isu run` reads them; its
//! result printed as `isu run` prints it; its errors, flags and exit codes.
#![cfg(isu_llvm)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use isu_backend_llvm::native::Scratch;
use isu_backend_llvm::LlvmBackend;
use isu_host::interp::{self, RunOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Builds `text` into an executable in `dir`.
fn build_exe(dir: &Scratch, text: &str) -> PathBuf {
    let arts = compile(&LlvmBackend::new(), &program(text));
    let exe = arts.iter().find(|a| a.kind == "exe").expect("an exe");
    let path = dir.path(&exe.file_name);
    std::fs::write(&path, &exe.bytes).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

fn run_exe(exe: &Path, flags: &[&str], stdin: &str) -> Output {
    run_command(Command::new(exe).args(flags), stdin)
}

/// Runs `command` with `stdin` as its standard input, collecting its output.
fn run_command(command: &mut Command, stdin: &str) -> Output {
    // Written just now: another test's child may still hold it open.
    let mut child = isu_backend_llvm::exec::spawn(
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn echo(ty: &str) -> String {
    func(
        &format!("x: {ty}"),
        ty,
        "",
        "    RETURN:\n      EXPR: (var x)\n",
    )
}

/// What the interpreter makes of `args` (JSON text): the result as `isu run`
/// prints it, or the error code.
fn oracle(text: &str, args: &str) -> String {
    let p = program(text);
    let Ok(v) = serde_json::from_str::<serde_json::Value>(args) else {
        return "error invalid_argument".into();
    };
    match interp::run(&p, &v, &RunOptions::default(), None) {
        Ok(v) => serde_json::to_string(&v).unwrap(),
        Err(d) => format!("error {}", d.code.as_str()),
    }
}

/// The executable's outcome in the same form, checking the exit code and
/// that a failure prints nothing on standard output.
fn outcome(exe: &Path, args: &str) -> String {
    let out = run_exe(exe, &[], args);
    let stdout = String::from_utf8_lossy(&out.stdout).trim_end().to_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    match out.status.code() {
        Some(0) => stdout,
        Some(5) => {
            assert_eq!(stdout, "", "{args}");
            let code = stderr
                .strip_prefix("error[")
                .and_then(|r| r.split(']').next())
                .unwrap_or("?");
            format!("error {code}")
        }
        other => panic!("{args}: exit {other:?}: {stdout} {stderr}"),
    }
}

#[test]
fn arguments_and_results_read_and_print_as_isu_run_does() {
    let dir = Scratch::new("test-exe").unwrap();
    let cases: &[(&str, &[&str])] = &[
        (
            "int",
            &[
                "0",
                "-9223372036854775808",
                "9223372036854775807",
                "9223372036854775808",
                "-9223372036854775809",
                "-0",
                "1.0",
                "1e2",
                "01",
                "+1",
                "\"1\"",
                "null",
                "true",
                " 42 ",
            ],
        ),
        ("bool", &["true", "false", "1", "tru"]),
        (
            "string",
            &[
                r#""""#,
                r#""héllo 日本 😀""#,
                r#""tab\there\nnl \"q\" back\\ \/ \u0001 \u001f \u007f \b\f\r""#,
                r#""\ud83d\ude00""#,
                r#""\ud83d""#,
                r#""\ude00x""#,
                r#""\u00e9\u0000""#,
                r#""\x""#,
                "\"raw\u{1}control\"",
                "\"unclosed",
            ],
        ),
        (
            "int[][]",
            &[
                "[]",
                "[[]]",
                "[[1, 2], [], [3]]",
                "[[1, 2,]]",
                "[1]",
                "[[1] [2]]",
            ],
        ),
        (
            "map<int,string>",
            &[
                "{}",
                r#"{"10": "a", "2": "b", "-3": "c", "0": "d"}"#,
                r#"{"01": "a"}"#,
                r#"{"-0": "a"}"#,
                r#"{"+1": "a"}"#,
                r#"{"9223372036854775808": "a"}"#,
                r#"{"x": "a"}"#,
                r#"{"1": 2}"#,
            ],
        ),
        (
            "map<string,bool[]>",
            &[
                r#"{"b": [true], "a": [], "é": [false, true], "B": []}"#,
                r#"{"a": [true], "a": []}"#,
                r#"{"a" [true]}"#,
            ],
        ),
    ];
    let mut failures = Vec::new();
    for (ty, values) in cases {
        let text = echo(ty);
        let exe = build_exe(&dir, &text);
        for v in *values {
            let args = format!("{{\"x\": {v}}}");
            let got = outcome(&exe, &args);
            // A key twice is refused (the interpreter's JSON reader keeps the last).
            let want = if v.contains(r#""a": [true], "a""#) {
                "error invalid_argument".to_owned()
            } else {
                oracle(&text, &args)
            };
            if got != want {
                failures.push(format!("{ty} {v}: got {got}, want {want}"));
            }
        }
    }
    let exe = build_exe(&dir, &echo("int"));
    for args in [
        "",
        "[]",
        "{}",
        r#"{"x": 1, "y": 2}"#,
        r#"{"x": 1, "x": 1}"#,
        r#"{"x": 1} 2"#,
        r#"{"x": 1"#,
        r#"{x: 1}"#,
    ] {
        let got = outcome(&exe, args);
        if got != "error invalid_argument" {
            failures.push(format!("args {args}: got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn flags_files_and_exit_codes() {
    let dir = Scratch::new("test-flags").unwrap();
    let text = func(
        "xs: int[]",
        "int",
        "x: int",
        "    S1: LOOP\n      ITER: (each x (var xs))\n      BODY: BEGIN\n      END\n    S2: RETURN\n      EXPR: (div (const 1) (call LEN (var xs)))\n",
    );
    let exe = build_exe(&dir, &text);
    let file = dir.path("args.json");
    std::fs::write(&file, r#"{"xs": [1, 2, 3]}"#).unwrap();
    let file = file.to_string_lossy().into_owned();

    // From a file, from standard input, from `-`.
    for (flags, stdin) in [
        (vec![file.as_str()], ""),
        (vec![], r#"{"xs": [1, 2, 3]}"#),
        (vec!["-"], r#"{"xs": [1, 2, 3]}"#),
    ] {
        let out = run_exe(&exe, &flags, stdin);
        assert_eq!(out.status.code(), Some(0), "{flags:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "0\n");
    }
    let out = run_exe(&exe, &["--format", "json", &file], "");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"diagnostics\":[],\"ok\":true,\"value\":0}\n"
    );

    // A runtime error: exit 5, the error as `isu run` prints it.
    let out = run_exe(&exe, &["--format", "json"], r#"{"xs": []}"#);
    assert_eq!(out.status.code(), Some(5));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &report["diagnostics"][0];
    assert_eq!(report["ok"], false);
    assert_eq!(d["code"], "division_by_zero");
    assert_eq!(d["kind"], "RuntimeError");
    assert_eq!(d["step"], "S2");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["message"], "(div 1 0): division by zero");
    assert_eq!(d["span"]["line"], 15);
    let out = run_exe(&exe, &[], r#"{"xs": []}"#);
    assert_eq!(out.status.code(), Some(5));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error[division_by_zero]: RuntimeError: (div 1 0): division by zero\n")
            && stderr.contains("f.isu:15:")
            && stderr.contains("in step S2"),
        "{stderr}"
    );

    // The limits.
    let out = run_exe(&exe, &["--max-steps", "2", "--format", "json", &file], "");
    assert_eq!(out.status.code(), Some(5));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["diagnostics"][0]["code"], "step_limit");
    assert_eq!(report["diagnostics"][0]["step"], "S1");
    let out = run_exe(&exe, &["--max-steps", "3", &file], "");
    assert_eq!(out.status.code(), Some(0));

    // --repeat times the function and prints the result once.
    let out = run_exe(&exe, &["--repeat", "3", &file], "");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0\n");
    let ns = String::from_utf8_lossy(&out.stderr);
    assert!(ns.trim().parse::<u64>().is_ok(), "{ns}");

    // Bad usage: exit 2; a file that cannot be read: exit 1.
    for flags in [
        vec!["--bogus"],
        vec!["--max-steps"],
        vec!["--max-steps", "-1"],
        vec!["--max-size", "x"],
        vec!["--format", "xml"],
        vec!["a.json", "b.json"],
    ] {
        let out = run_exe(&exe, &flags, "");
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("usage:"));
    }
    let missing = dir.path("missing.json");
    let out = run_exe(&exe, &[&missing.to_string_lossy()], "");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn the_result_is_limited_in_size_at_the_return() {
    let dir = Scratch::new("test-size").unwrap();
    let text = func(
        "n: int",
        "int[][]",
        "",
        "    RETURN:\n      EXPR: (call REPEAT (call REPEAT (const 0) (var n)) (var n))\n",
    );
    let exe = build_exe(&dir, &text);
    // 1 + 3 + 9 values.
    let out = run_exe(
        &exe,
        &["--max-size", "13", "--format", "json"],
        r#"{"n": 3}"#,
    );
    assert_eq!(out.status.code(), Some(0));
    let out = run_exe(
        &exe,
        &["--max-size", "12", "--format", "json"],
        r#"{"n": 3}"#,
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["diagnostics"][0]["code"], "size_limit");
    assert_eq!(report["diagnostics"][0]["step"], "S1");
    let p = program(&text);
    let oracle = |max_size| {
        let opts = RunOptions {
            max_size,
            ..RunOptions::default()
        };
        interp::run(&p, &serde_json::json!({"n": 3}), &opts, None).map_err(|d| d.code.as_str())
    };
    assert!(oracle(13).is_ok());
    assert_eq!(oracle(12).map(|_| ()), Err("size_limit"));
}

/// A call frees what it held when it returns: its variables (arguments
/// included) and the array an `each` loop it returns from walks; the driver
/// frees each result of `--repeat` before the next call. Under an address
/// space of 100 MB, 40 calls that each allocate three arrays of 8 MB pass;
/// they would need more than 300 MB if any of the three stayed behind.
#[test]
fn a_call_leaves_nothing_allocated_but_its_result() {
    let dir = Scratch::new("test-held").unwrap();
    let text = func(
        "n: int, k: int",
        "int[]",
        "xs: int[], x: int",
        "    ASSIGN\n      TARGET: xs\n      EXPR: (call REPEAT (const 1) (var n))\n\
         \x20   LOOP\n      ITER: (each x (call REVERSE (var xs)))\n      BODY: BEGIN\n\
         \x20       IF\n          COND: (eq (var x) (var k))\n          THEN: BEGIN\n\
         \x20           RETURN\n              EXPR: (var xs)\n          END\n          ELSE: BEGIN\n          END\n      END\n\
         \x20   RETURN\n      EXPR: (call PUSH (var xs) (var k))\n",
    );
    let exe = build_exe(&dir, &text);
    // k = 1 returns in the first round of the loop; k = 0 after it.
    for k in [1, 0] {
        let out = run_command(
            Command::new("sh")
                .args(["-c", "ulimit -v 100000 && exec \"$0\" \"$@\""])
                .arg(&exe)
                .args(["--repeat", "40"]),
            &format!(r#"{{"n": 1000000, "k": {k}}}"#),
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "k = {k}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let value: Vec<i64> = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(value.len(), 1_000_000 + (1 - k) as usize);
    }
}
