//! `isu lsp` as clients drive it: raw JSON-RPC on stdio for what a real
//! client never sends (malformed messages, requests before `initialize`,
//! `exit` without `shutdown`), and a real LSP client from PyPI
//! (`clients/lsp/test_lsp.py`, pytest-lsp on pygls) for every feature.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `isu lsp`.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_isu"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start isu lsp: {e}"));
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap_or_else(|| panic!("no stdout")));
        Server {
            child,
            stdin,
            stdout,
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        let stdin = self
            .stdin
            .as_mut()
            .unwrap_or_else(|| panic!("stdin closed"));
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| panic!("writing to the server: {e}"));
    }

    fn send(&mut self, v: Value) {
        let body = v.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.answer(id)
    }

    /// The next message.
    fn receive(&mut self) -> Value {
        let mut length = None;
        loop {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .unwrap_or_else(|e| panic!("reading: {e}"));
            assert!(n > 0, "the server closed its output");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length: ") {
                length = v.parse::<usize>().ok();
            }
        }
        let mut body = vec![0; length.unwrap_or_else(|| panic!("no Content-Length"))];
        self.stdout
            .read_exact(&mut body)
            .unwrap_or_else(|e| panic!("reading: {e}"));
        serde_json::from_slice(&body).unwrap_or_else(|e| panic!("not JSON: {e}"))
    }

    /// The answer to request `id` (notifications before it are skipped);
    /// `null` for the answers to messages whose id could not be read.
    fn answer(&mut self, id: impl Into<Value>) -> Value {
        let id = id.into();
        loop {
            let m = self.receive();
            if m.get("id") == Some(&id) && m.get("method").is_none() {
                return m;
            }
        }
    }

    fn initialize(&mut self) {
        let r = self.request(
            1,
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        assert_eq!(r["result"]["serverInfo"]["name"], "isu", "{r}");
        self.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    }

    /// Waits for the process to end; its exit code.
    fn exit_code(mut self) -> Option<i32> {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        panic!("the server did not exit");
    }
}

fn error_code(m: &Value) -> i64 {
    m["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("no error: {m}"))
}

#[test]
fn requests_before_initialize_are_refused() {
    let mut s = Server::start();
    let r = s.request(7, "textDocument/hover", json!({}));
    assert_eq!(error_code(&r), -32002, "{r}");
    s.initialize();
    let r = s.request(8, "shutdown", Value::Null);
    assert_eq!(r["result"], Value::Null, "{r}");
    s.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(s.exit_code(), Some(0));
}

#[test]
fn malformed_messages_get_protocol_errors_and_the_server_goes_on() {
    let mut s = Server::start();
    s.initialize();
    s.raw(b"Content-Length: 9\r\n\r\n{not json");
    assert_eq!(error_code(&s.answer(Value::Null)), -32700);
    s.raw(b"this is not a header\r\n\r\n");
    assert_eq!(error_code(&s.answer(Value::Null)), -32700);
    s.send(json!({"jsonrpc": "2.0", "id": 5, "method": 17}));
    assert_eq!(error_code(&s.answer(5)), -32600);
    s.send(json!([1, 2, 3]));
    assert_eq!(error_code(&s.answer(Value::Null)), -32600);
    let r = s.request(6, "isu/unknown", json!({}));
    assert_eq!(error_code(&r), -32601, "{r}");
    let r = s.request(9, "textDocument/hover", json!({"textDocument": "nope"}));
    assert_eq!(error_code(&r), -32602, "{r}");
    let r = s.request(10, "shutdown", Value::Null);
    assert_eq!(r["result"], Value::Null);
    let r = s.request(11, "textDocument/hover", json!({}));
    assert_eq!(error_code(&r), -32600, "after shutdown: {r}");
}

#[test]
fn exit_without_shutdown_exits_1_and_closed_input_ends_the_server() {
    let mut s = Server::start();
    s.initialize();
    s.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(s.exit_code(), Some(1));
    let mut s = Server::start();
    s.initialize();
    assert_eq!(s.exit_code(), Some(1));
}

#[test]
fn diagnostics_are_published_on_open() {
    let mut s = Server::start();
    s.initialize();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sum_evens.isu"),
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .replace("(var total)", "(var totl)");
    s.send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///x/sum_evens.isu", "languageId": "isu", "version": 4, "text": text}}}),
    );
    let m = s.receive();
    assert_eq!(m["method"], "textDocument/publishDiagnostics", "{m}");
    assert_eq!(m["params"]["version"], 4);
    let codes: Vec<&str> = m["params"]["diagnostics"]
        .as_array()
        .map(|a| a.iter().filter_map(|d| d["code"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(codes, ["undeclared_variable", "undeclared_variable"], "{m}");
    // A client that pulls them gets the same.
    let r = s.request(
        2,
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": "file:///x/sum_evens.isu"}}),
    );
    assert_eq!(r["result"]["kind"], "full", "{r}");
    assert_eq!(r["result"]["items"], m["params"]["diagnostics"], "{r}");
    let r = s.request(
        3,
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": "file:///x/never_opened.isu"}}),
    );
    assert_eq!(r["result"]["items"], json!([]), "{r}");
}

/// Whether the real client must run (CI sets it; `.ci/run` installs it).
fn tools_required() -> bool {
    std::env::var_os("ISU_REQUIRE_EDITOR_TOOLS").is_some_and(|v| v == "1")
}

#[test]
fn a_real_lsp_client_drives_every_feature() {
    let has_client = Command::new("python3")
        .args(["-c", "import pytest_lsp, pytest_asyncio"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_client {
        assert!(
            !tools_required(),
            "pytest-lsp is missing: python3 -m pip install -r host/tests/clients/lsp/requirements.txt"
        );
        eprintln!("skipped: pytest-lsp is not installed (python3 -m pip install -r host/tests/clients/lsp/requirements.txt)");
        return;
    }
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/lsp");
    let o = Command::new("python3")
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(&tests)
        .env("ISU_BIN", env!("CARGO_BIN_EXE_isu"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3: {e}"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains(" passed"), "{out}");
}
