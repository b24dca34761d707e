//! `isu memory` as a user runs it: both stores through the binary, exit codes,
//! the project root, and two processes adding at the same time.

use serde_json::Value;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

const STORES: [&str; 2] = [
    "file://mem/lessons.jsonl",
    "sqlite://mem/lessons.db#repairs",
];

/// A scratch project (a folder marked as a root by `.git`) of this test.
fn project(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("memory-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(".git")).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn spawn(dir: &Path, args: &[&str], stdin: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_isu"))
        .args(args)
        .current_dir(dir)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start isu: {e}"))
}

fn isu(dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = spawn(dir, args, Stdio::piped());
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin.as_bytes());
    }
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("isu did not finish: {e}"))
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn add_then_query_on_both_stores() {
    for (i, store) in STORES.iter().enumerate() {
        let dir = project(&format!("roundtrip-{i}"));
        let records = "{\"kind\": \"lesson\", \"code\": \"type_mismatch\", \"text\": \"Compare with EQ\"}\n{\"kind\": \"rule\", \"n\": 3}\n";
        let o = isu(&dir, &["memory", "add", "-", "--store", store], records);
        assert_eq!(o.status.code(), Some(0), "{store}: {}", stderr(&o));
        let ids: Vec<String> = String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(str::to_owned)
            .collect();
        assert_eq!(ids.len(), 2, "{store}");
        assert!(ids.iter().all(|id| id.len() == 26), "{ids:?}");

        let o = isu(&dir, &["memory", "query", "--store", store], "");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let lines: Vec<Value> = String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["id"], ids[1].as_str(), "newest first");
        assert_eq!(lines[1]["record"]["code"], "type_mismatch");

        let o = isu(
            &dir,
            &[
                "memory",
                "query",
                "--store",
                store,
                "--format",
                "json",
                "--text",
                "eq",
                "--kind",
                "lesson",
                "--where",
                "code=type_mismatch",
                "--limit",
                "5",
            ],
            "",
        );
        let report = json(&o);
        assert_eq!(report["ok"], true);
        assert_eq!(
            report["records"].as_array().map(Vec::len),
            Some(1),
            "{report}"
        );
        assert_eq!(report["records"][0]["id"], ids[0].as_str());
        let o = isu(
            &dir,
            &["memory", "query", "--store", store, "--where", "n=\"3\""],
            "",
        );
        assert_eq!(o.stdout, b"", "a string never equals the number 3");
    }
}

#[test]
fn refusals_are_input_errors_with_exit_code_10() {
    let dir = project("refusals");
    let cases: [(&[&str], &str, &str); 10] = [
        (&["memory", "query", "--limit", "0"], "", "invalid_query"),
        (&["memory", "query", "--limit", "-2"], "", "invalid_query"),
        (&["memory", "query", "--limit", "1.5"], "", "invalid_query"),
        (
            &["memory", "query", "--where", "novalue"],
            "",
            "invalid_query",
        ),
        (&["memory", "add", "-"], "[1, 2]", "invalid_record"),
        (
            &["memory", "add", "-"],
            "{\"a\": 1}\n{\"a\": ",
            "invalid_record",
        ),
        // Read as strictly as all JSON: a key twice, an integer past 64 bits.
        (
            &["memory", "add", "-"],
            "{\"kind\": \"lesson\", \"text\": \"a\", \"text\": \"b\"}",
            "invalid_record",
        ),
        (
            &["memory", "add", "-"],
            "{\"kind\": \"n\", \"text\": \"t\", \"n\": 99999999999999999999}",
            "invalid_record",
        ),
        (
            &["memory", "query", "--store", "file://../out.jsonl"],
            "",
            "path_outside_root",
        ),
        (
            &["memory", "query", "--store", "mysql://db"],
            "",
            "invalid_store_url",
        ),
    ];
    for (args, stdin, code) in cases {
        let args = [args, &["--format", "json"]].concat();
        let o = isu(&dir, &args, stdin);
        assert_eq!(o.status.code(), Some(10), "{args:?}: {}", stderr(&o));
        let report = json(&o);
        assert_eq!(report["ok"], false);
        assert_eq!(report["diagnostics"][0]["kind"], "InputError");
        assert_eq!(report["diagnostics"][0]["code"], code, "{args:?}: {report}");
    }
    // A bad second record stops the whole input before anything is added.
    assert!(!dir.join(".isu").exists());
    assert!(!dir.join("../out.jsonl").exists());
    // Human reports name the code and the hint on stderr.
    let o = isu(&dir, &["memory", "query", "--limit", "0"], "");
    assert!(
        stderr(&o).contains("error[invalid_query]"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("hint:"), "{}", stderr(&o));
}

#[test]
fn the_default_store_is_under_the_project_root() {
    let dir = project("root");
    let inner = dir.join("src/deep");
    std::fs::create_dir_all(&inner).unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&inner, &["memory", "add", "-"], "{\"kind\": \"lesson\"}");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(dir.join(".isu/memory.jsonl").is_file());
    assert!(!inner.join(".isu").exists());
    // --root names another root; the store is found under it.
    let o = isu(
        &dir.join(".."),
        &[
            "memory",
            "query",
            "--root",
            dir.to_str().unwrap_or_default(),
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(json(&o)["records"].as_array().map(Vec::len), Some(1));
}

#[test]
fn two_processes_adding_a_thousand_records_each_lose_none() {
    const EACH: usize = 1000;
    for (i, store) in STORES.iter().enumerate() {
        let dir = project(&format!("concurrent-{i}"));
        let mut children = Vec::new();
        for p in 0..2 {
            let input = dir.join(format!("records-{p}.jsonl"));
            let text: String = (0..EACH)
                .map(|n| format!("{{\"kind\": \"load\", \"proc\": {p}, \"n\": {n}}}\n"))
                .collect();
            std::fs::write(&input, text).unwrap_or_else(|e| panic!("{e}"));
            let file = std::fs::File::open(&input).unwrap_or_else(|e| panic!("{e}"));
            children.push(spawn(
                &dir,
                &["memory", "add", "-", "--store", store],
                file.into(),
            ));
        }
        for child in children {
            let o = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(o.status.code(), Some(0), "{store}: {}", stderr(&o));
            assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), EACH);
        }
        let o = isu(
            &dir,
            &[
                "memory", "query", "--store", store, "--limit", "100000", "--format", "json",
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let report = json(&o);
        let records = report["records"].as_array().cloned().unwrap_or_default();
        assert_eq!(records.len(), 2 * EACH, "{store}");
        let ids: BTreeSet<&str> = records.iter().filter_map(|r| r["id"].as_str()).collect();
        assert_eq!(ids.len(), 2 * EACH, "ids are unique");
        // Each process's records are all there, and newest first means each
        // process's own records come in the reverse of the order it added them.
        for p in 0..2 {
            let ns: Vec<u64> = records
                .iter()
                .filter(|r| r["record"]["proc"] == p)
                .filter_map(|r| r["record"]["n"].as_u64())
                .collect();
            let expected: Vec<u64> = (0..EACH as u64).rev().collect();
            assert_eq!(ns, expected, "{store}: process {p}");
        }
    }
}

/// The ```json blocks of `spec/memory.md`, in order.
fn spec_json_blocks() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/memory.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    text.split("```json\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap_or_default().trim().to_owned())
        .collect()
}

#[test]
fn the_spec_examples_are_what_the_library_writes() {
    use isu_host::memory::{record_id, Envelope, Lesson, Timestamp};
    let blocks = spec_json_blocks();
    assert_eq!(blocks.len(), 2);
    let envelope: Envelope = serde_json::from_str(&blocks[0]).unwrap_or_else(|e| panic!("{e}"));
    let created = Timestamp::parse_rfc3339(&envelope.created_at);
    assert_eq!(
        created.map(|t| record_id(t, 0)).as_deref(),
        Some(envelope.id.as_str())
    );
    assert_eq!(
        serde_json::to_string(&envelope).unwrap_or_default(),
        blocks[0]
    );

    let example: Value = serde_json::from_str(&blocks[1]).unwrap_or_else(|e| panic!("{e}"));
    let field = |k: &str| example[k].as_str().unwrap_or_default().to_owned();
    let lesson = Lesson {
        code: field("code"),
        message: field("message"),
        step_kind: Some(field("step_kind")),
        failing_text: field("text"),
        patch: field("patch"),
    };
    let record = lesson.record().unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(Value::Object(record.fields().clone()), example);
}
