//! How the commands that write files write them (`spec/cli.md`, "Writing
//! files"): replaced whole with the old permissions kept, through symbolic
//! links, in place for hard links, never a read-only file without
//! `--force`, never `-`, and devices and FIFOs written directly as a stream.
//! Everything happens in scratch folders; the "device" is a FIFO made there.

mod common;

use common::names;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// A program `isu fmt` changes (it is not in canonical form).
const LOOSE: &str = "META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    RETURN:\n      EXPR: (const 1)\n  END\n";

/// A patch of that program's only step.
const PATCH: &str = "PATCH:\n  REPLACE S1:\n    RETURN:\n      EXPR: (const 2)\n";

/// A program that loops as long as its budget lets it.
const FOREVER: &str = "FUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nLOCAL: [i: int]\nSTEPS:\n  SEQ: BEGIN\n    S1: LOOP\n      ITER: (range i (const 0) (const 9000000000000000000))\n      BODY: BEGIN\n      END\n    S2: RETURN\n      EXPR: (const 0)\n  END\n";

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-writes-{name}"));
    if dir.exists() {
        // A read-only file from an earlier run must not stop the cleanup.
        let _ = Command::new("chmod").args(["-R", "u+w"]).arg(&dir).status();
        let _ = std::fs::remove_dir_all(&dir);
    }
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn isu(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_isu"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run isu: {e}"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(&o.stdout)
        )
    })
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).map_or(0, |m| m.permissions().mode() & 0o777)
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .unwrap_or_else(|e| panic!("{e}"));
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo {} failed", path.display());
}

/// Reads a FIFO to its end on another thread.
fn drain(fifo: &Path) -> std::thread::JoinHandle<String> {
    let fifo = fifo.to_owned();
    std::thread::spawn(move || {
        let mut text = String::new();
        std::fs::File::open(&fifo)
            .and_then(|mut f| f.read_to_string(&mut text))
            .unwrap_or_else(|e| panic!("{}: {e}", fifo.display()));
        text
    })
}

#[test]
fn a_rewritten_file_keeps_its_permissions() {
    let dir = scratch("mode");
    let file = dir.join("f.isu");
    write(&file, LOOSE);
    chmod(&file, 0o600);
    let o = isu(&dir, &["fmt", "--write", "f.isu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_ne!(read(&file), LOOSE);
    assert_eq!(mode(&file), 0o600);
    chmod(&file, 0o640);
    write(&dir.join("p.patch"), PATCH);
    let o = isu(&dir, &["patch", "f.isu", "p.patch", "--write"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(read(&file).contains("(const 2)"));
    assert_eq!(mode(&file), 0o640);
    // Nothing is left beside it.
    assert_eq!(names(&dir), ["f.isu", "p.patch"]);
}

#[test]
fn a_new_file_gets_the_permissions_of_the_umask() {
    let dir = scratch("new-mode");
    // One scripted reply: a right program, which `isu gen -o` writes.
    let program = LOOSE.replace("NAME: f", "NAME: one");
    let reply = serde_json::json!({"decision": "submit", "artifact": program, "reason": "r"});
    write(
        &dir.join("replies.jsonl"),
        &format!("{}\n", serde_json::Value::String(reply.to_string())),
    );
    for (umask, want) in [("022", 0o644), ("027", 0o640)] {
        let o = Command::new("sh")
            .args(["-c", &format!("umask {umask} && exec \"$0\" \"$@\"")])
            .arg(env!("CARGO_BIN_EXE_isu"))
            .args([
                "gen",
                "one",
                "--name",
                "one",
                "--returns",
                "int",
                "--example={}=>1",
            ])
            .args([
                "--replies",
                "replies.jsonl",
                "-o",
                "new.isu",
                "--log",
                "new.jsonl",
            ])
            .current_dir(&dir)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(mode(&dir.join("new.isu")), want, "umask {umask}");
        std::fs::remove_file(dir.join("new.isu")).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn a_read_only_file_is_refused_unless_forced() {
    let dir = scratch("read-only");
    let file = dir.join("f.isu");
    write(&file, LOOSE);
    chmod(&file, 0o444);
    let o = isu(&dir, &["fmt", "--write", "--format", "json", "f.isu"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let d = &json(&o)["diagnostics"][0];
    assert_eq!(d["kind"], "IoError");
    assert_eq!(d["code"], "write_refused");
    assert_eq!(d["message"], "f.isu is read-only");
    assert!(d["hint"].as_str().is_some_and(|h| h.contains("--force")));
    assert_eq!(read(&file), LOOSE);
    let o = isu(&dir, &["fmt", "--write", "f.isu"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("error[write_refused]"),
        "{}",
        stderr(&o)
    );
    let o = isu(&dir, &["fmt", "--write", "--force", "f.isu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_ne!(read(&file), LOOSE);
    assert_eq!(mode(&file), 0o444);
    // The other writers follow the same rule.
    write(&dir.join("p.patch"), PATCH);
    let o = isu(&dir, &["patch", "f.isu", "p.patch", "--write"]);
    assert_eq!(o.status.code(), Some(1));
    write(&dir.join("t.isu"), FOREVER);
    write(&dir.join("old.jsonl"), "old\n");
    chmod(&dir.join("old.jsonl"), 0o444);
    let o = isu(
        &dir,
        &["run", "t.isu", "--max-steps", "3", "--trace", "old.jsonl"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(read(&dir.join("old.jsonl")), "old\n");
}

#[test]
fn a_symbolic_link_is_followed_and_stays_a_link() {
    let dir = scratch("symlink");
    let real = dir.join("real.isu");
    write(&real, LOOSE);
    std::os::unix::fs::symlink("real.isu", dir.join("link.isu")).unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&dir, &["fmt", "--write", "link.isu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(dir.join("link.isu")).is_ok_and(|m| m.file_type().is_symlink())
    );
    let formatted = read(&real);
    assert_ne!(formatted, LOOSE);
    write(&dir.join("p.patch"), PATCH);
    let o = isu(&dir, &["patch", "link.isu", "p.patch", "--write"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(dir.join("link.isu")).is_ok_and(|m| m.file_type().is_symlink())
    );
    assert!(read(&real).contains("(const 2)"), "{}", read(&real));
    assert_eq!(names(&dir), ["link.isu", "p.patch", "real.isu"]);
}

#[test]
fn a_file_with_other_names_is_rewritten_in_place() {
    let dir = scratch("hard-link");
    let a = dir.join("a.isu");
    write(&a, LOOSE);
    std::fs::hard_link(&a, dir.join("b.isu")).unwrap_or_else(|e| panic!("{e}"));
    let o = isu(&dir, &["fmt", "--write", "a.isu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_ne!(read(&a), LOOSE);
    assert_eq!(read(&a), read(&dir.join("b.isu")));
    assert_eq!(std::fs::metadata(&a).map(|m| m.nlink()).ok(), Some(2));
}

#[test]
fn standard_input_is_never_written() {
    let dir = scratch("stdin");
    write(&dir.join("p.patch"), PATCH);
    for args in [
        &["fmt", "--write", "-"][..],
        &["patch", "-", "p.patch", "--write"],
        &["run", "-", "--trace", "-"],
    ] {
        let o = isu(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("error[invalid_usage]"),
            "{}",
            stderr(&o)
        );
    }
    let o = isu(&dir, &["--format", "json", "fmt", "--write", "-"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(json(&o)["diagnostics"][0]["code"], "invalid_usage");
    assert_eq!(names(&dir), ["p.patch"]);
}

#[test]
fn a_fifo_is_written_directly_and_stays_a_fifo() {
    let dir = scratch("fifo");
    write(&dir.join("t.isu"), FOREVER);
    let fifo = dir.join("trace.fifo");
    mkfifo(&fifo);
    let reader = drain(&fifo);
    let o = isu(
        &dir,
        &["run", "t.isu", "--max-steps", "2", "--trace", "trace.fifo"],
    );
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    let trace = reader.join().unwrap_or_default();
    assert_eq!(
        trace,
        concat!(
            "{\"step\":\"S1\",\"kind\":\"LOOP\",\"round\":1,\"var\":\"i\",\"value\":0}\n",
            "{\"step\":\"S1\",\"kind\":\"LOOP\",\"round\":2,\"var\":\"i\",\"value\":1}\n",
            "{\"step\":\"S1\",\"kind\":\"ERROR\",\"code\":\"step_limit\"}\n",
        )
    );
    assert!(std::fs::metadata(&fifo).is_ok_and(|m| !m.is_file()));
    assert_eq!(names(&dir), ["t.isu", "trace.fifo"]);
}

/// Kills a child when dropped, so that a failed test leaves no process.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_trace_reaches_its_file_while_the_run_goes() {
    let dir = scratch("streamed");
    write(&dir.join("t.isu"), FOREVER);
    let fifo = dir.join("trace.fifo");
    mkfifo(&fifo);
    let child = Command::new(env!("CARGO_BIN_EXE_isu"))
        .args([
            "run",
            "t.isu",
            "--max-steps",
            "3000000",
            "--trace",
            "trace.fifo",
        ])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut run = Killed(child);
    let mut first = String::new();
    BufReader::new(std::fs::File::open(&fifo).unwrap_or_else(|e| panic!("{e}")))
        .read_line(&mut first)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        first,
        "{\"step\":\"S1\",\"kind\":\"LOOP\",\"round\":1,\"var\":\"i\",\"value\":0}\n"
    );
    // The run (3,000,000 rounds, each an event, far more than a pipe holds)
    // is still going: the event came as it happened, not at the end.
    assert!(run.0.try_wait().is_ok_and(|status| status.is_none()));
}

#[test]
fn a_trace_ends_with_the_error_that_stopped_the_run() {
    let dir = scratch("trace-error");
    write(&dir.join("t.isu"), FOREVER);
    write(
        &dir.join("t.jsonl"),
        "an old trace, longer than the new one will be\n"
            .repeat(9)
            .as_str(),
    );
    let o = isu(
        &dir,
        &["run", "t.isu", "--max-steps", "1", "--trace", "t.jsonl"],
    );
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    assert_eq!(
        read(&dir.join("t.jsonl")),
        concat!(
            "{\"step\":\"S1\",\"kind\":\"LOOP\",\"round\":1,\"var\":\"i\",\"value\":0}\n",
            "{\"step\":\"S1\",\"kind\":\"ERROR\",\"code\":\"step_limit\"}\n",
        )
    );
}

#[test]
fn a_folder_is_not_a_file_to_write() {
    let dir = scratch("folder");
    write(&dir.join("t.isu"), FOREVER);
    std::fs::create_dir(dir.join("sub")).unwrap_or_else(|e| panic!("{e}"));
    let o = isu(
        &dir,
        &["--format", "json", "run", "t.isu", "--trace", "sub"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(json(&o)["diagnostics"][0]["code"], "write_refused");
}
