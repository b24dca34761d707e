//! `isu mcp` as clients drive it: raw JSON-RPC on stdio (the handshake,
//! the three tools, hostile input), the official Python SDK's client
//! (`clients/mcp_client.py`), and the MCP Inspector's command line. The
//! manifest names the workspace's built plugins (`cargo build --workspace`
//! first; `scripts/test.sh` does).

mod common;

use common::built::library as lib;
use serde_json::{json, Map, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// A project root holding `sum_evens.isu` and a manifest with the python
/// backend and the math pack.
fn project(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mcp-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(".git")).unwrap_or_else(|e| panic!("{e}"));
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sum_evens.isu");
    std::fs::copy(&example, dir.join("sum_evens.isu")).unwrap_or_else(|e| panic!("{e}"));
    let manifest = format!(
        "[[plugin]]\nname = \"python\"\nkind = \"backend\"\nfile = {:?}\n\n[[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = {:?}\nnamespace = \"math\"\n",
        lib("isu_backend_python").display().to_string(),
        lib("isu_pack_math").display().to_string()
    );
    std::fs::write(dir.join("isu-plugins.toml"), manifest).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// A running `isu mcp` with its stdin and the lines of its stdout.
struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Server {
    fn start(root: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_isu"))
            .args(["mcp", "--root", root.to_str().unwrap_or_default()])
            .args(extra)
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start isu mcp: {e}"));
        let stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Server {
            child,
            stdin,
            lines,
        }
    }

    fn send_raw(&mut self, line: &str) {
        self.stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.stdin.flush())
            .unwrap_or_else(|e| panic!("writing to the server: {e}"));
    }

    /// The next message from the server (every line it writes must be JSON).
    fn receive(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|e| panic!("no answer from the server: {e}"));
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout is not JSON-RPC ({e}): {line}"))
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send_raw(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        let answer = self.receive();
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    fn initialize(&mut self) -> Value {
        let init = self.request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}),
        );
        self.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        init
    }

    fn call(&mut self, id: u64, tool: &str, args: Value) -> Value {
        let answer = self.request(id, "tools/call", json!({"name": tool, "arguments": args}));
        answer["result"].clone()
    }

    /// Closes stdin; the server must exit cleanly.
    fn finish(mut self) {
        drop(self.stdin);
        let status = self.child.wait().unwrap_or_else(|e| panic!("{e}"));
        assert!(status.success(), "isu mcp exited with {status}");
    }
}

fn code(result: &Value) -> &str {
    result["structuredContent"]["diagnostics"][0]["code"]
        .as_str()
        .unwrap_or("")
}

#[test]
fn handshake_tools_and_a_run_over_raw_json_rpc() {
    let root = project("raw");
    let mut s = Server::start(&root, &[]);
    let init = s.initialize();
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(init["result"]["serverInfo"]["name"], "isu");
    let listed = s.request(1, "tools/list", json!({}));
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["tree", "inspect", "invoke"]);
    let ran = s.call(
        2,
        "invoke",
        json!({"target": "programs/sum_evens.isu", "interface": "isu.program", "operation": "run", "arguments": {"args": {"xs": [2, 4]}}}),
    );
    assert_eq!(ran["isError"], false, "{ran}");
    assert_eq!(ran["structuredContent"]["result"]["value"], 6);
    assert_eq!(ran["content"][0]["type"], "text");
    s.finish();
}

#[test]
fn hostile_input_is_refused_and_the_server_goes_on() {
    let root = project("hostile");
    let mut s = Server::start(&root, &[]);
    s.initialize();
    // Bytes that are not JSON are ignored (as every official SDK does: there
    // is no id to answer), and the server keeps serving.
    s.send_raw("{this is not json");
    s.send_raw("\u{0}\u{1}garbage");
    // JSON that is not JSON-RPC: an Invalid Request error.
    s.send_raw(r#"{"foo": "bar"}"#);
    let answer = s.receive();
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    let answer = s.request(2, "ping", json!({}));
    assert!(answer.get("result").is_some(), "{answer}");
    // An unknown method: a protocol error.
    let answer = s.request(3, "tools/destroy", json!({}));
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    // An unknown tool: a protocol error.
    let answer = s.request(1, "tools/call", json!({"name": "rm", "arguments": {}}));
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("unknown tool"),
        "{answer}"
    );
    // Paths out of the root.
    for (i, path) in ["../", "programs/../../x", "programs/../sum_evens.isu"]
        .iter()
        .enumerate()
    {
        let r = s.call(10 + i as u64, "inspect", json!({"path": path}));
        assert_eq!(r["isError"], true, "{path}: {r}");
        assert_eq!(code(&r), "path_outside_root", "{path}: {r}");
    }
    #[cfg(unix)]
    {
        let outside = project("hostile-outside");
        std::os::unix::fs::symlink(&outside, root.join("link")).unwrap_or_else(|e| panic!("{e}"));
        let r = s.call(
            20,
            "inspect",
            json!({"path": "programs/link/sum_evens.isu"}),
        );
        assert_eq!(code(&r), "path_outside_root", "{r}");
        let r = s.call(
            21,
            "invoke",
            json!({"target": "programs/sum_evens.isu", "interface": "isu.program", "operation": "build", "arguments": {"target": "python", "out": "link/out.py"}}),
        );
        assert_eq!(code(&r), "path_outside_root", "{r}");
        assert!(!outside.join("out.py").exists());
    }
    // A 50 MB argument.
    let big = "x".repeat(50 << 20);
    let r = s.call(30, "tree", json!({"path": big}));
    assert_eq!(code(&r), "argument_too_large", "{}", r.to_string().len());
    // Arguments checked before the call; interfaces never merged.
    let cases = [
        (
            json!({"target": "programs/sum_evens.isu", "interface": "isu.program", "operation": "patch", "arguments": {"patch": 3}}),
            "invalid_arguments",
        ),
        (
            json!({"target": "programs/sum_evens.isu", "interface": "isu.program", "operation": "run", "arguments": {}}),
            "invalid_arguments",
        ),
        (
            json!({"target": "programs/sum_evens.isu", "interface": "isu.backend", "operation": "build", "arguments": {}}),
            "unknown_operation",
        ),
        (
            json!({"target": "backends/python", "interface": "isu.program", "operation": "build", "arguments": {"target": "python"}}),
            "unknown_operation",
        ),
        (
            json!({"target": "programs/sum_evens.isu", "interface": "isu.program", "operation": "delete", "arguments": {}}),
            "unknown_operation",
        ),
        (
            json!({"target": "programs/nothing.isu", "interface": "isu.program", "operation": "check"}),
            "unknown_object",
        ),
        (
            json!({"target": "programs/sum_evens.isu", "interface": "isu.program", "operation": "check", "arguments": [1]}),
            "invalid_arguments",
        ),
    ];
    for (i, (args, expected)) in cases.iter().enumerate() {
        let r = s.call(40 + i as u64, "invoke", args.clone());
        assert_eq!(r["isError"], true, "{args}: {r}");
        assert_eq!(code(&r), *expected, "{args}: {r}");
    }
    // Nothing above was written.
    let names: Vec<String> = std::fs::read_dir(&root)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let mut names = names;
    names.sort();
    assert_eq!(names, [".git", "isu-plugins.toml", "link", "sum_evens.isu"]);
    s.finish();
}

#[test]
fn an_operation_that_does_not_finish_in_time_has_an_unknown_outcome() {
    let root = project("timeout");
    // Four million rounds of ten assignments each: within the default
    // budget (a round spends one unit, spec/semantics.md 7), and seconds
    // long on the debug build the tests run.
    let slow = format!(
        "META:\n  AUTO_ID: true\nFUNC:\n  NAME: slow\n  ARGS: []\n  RETURNS: int\nSTATE: [n: int = (const 0)]\nLOCAL: [i: int]\nSTEPS:\n  SEQ: BEGIN\n    LOOP:\n      ITER: (range i (const 0) (const 4000000))\n      BODY: BEGIN\n{}      END\n    RETURN:\n      EXPR: (var n)\n  END\n",
        "        ASSIGN:\n          TARGET: n\n          EXPR: (add (var n) (const 1))\n".repeat(10)
    );
    std::fs::write(root.join("slow.isu"), &slow).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Server::start(&root, &["--timeout", "1"]);
    s.initialize();
    let r = s.call(
        1,
        "invoke",
        json!({"target": "programs/slow.isu", "interface": "isu.program", "operation": "run", "arguments": {"args": {}}}),
    );
    assert_eq!(r["isError"], true, "{r}");
    assert_eq!(r["structuredContent"]["outcome"], "unknown", "{r}");
    assert_eq!(code(&r), "outcome_unknown");
    // The server still answers.
    let r = s.call(2, "inspect", json!({"path": "stdlib/LEN"}));
    assert_eq!(r["isError"], false, "{r}");
    drop(s.stdin);
    let _ = s.child.kill();
    let _ = s.child.wait();
}

/// Whether the real clients must run (CI sets it; `.ci/run` installs them).
fn clients_required() -> bool {
    std::env::var_os("ISU_REQUIRE_MCP_CLIENTS").is_some_and(|v| v == "1")
}

#[test]
fn the_python_sdk_client_drives_the_server() {
    let has_sdk = Command::new("python3")
        .args(["-c", "import mcp, jsonschema"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_sdk {
        assert!(
            !clients_required(),
            "the Python MCP SDK is missing: pip install mcp"
        );
        eprintln!("skipped: the Python MCP SDK is not installed (pip install mcp)");
        return;
    }
    let root = project("python-sdk");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/mcp_client.py");
    let o = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_isu"))
        .arg(&root)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3: {e}"));
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("checks hold"));
}

#[test]
fn the_mcp_inspector_cli_lists_and_calls_the_tools() {
    let npx = Command::new("npx")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !npx {
        assert!(!clients_required(), "npx is missing");
        eprintln!("skipped: npx is not installed");
        return;
    }
    let root = project("inspector");
    let isu = env!("CARGO_BIN_EXE_isu");
    let root_s = root.to_str().unwrap_or_default();
    let inspector = |args: &[&str]| {
        let o = Command::new("npx")
            .args([
                "--yes",
                "@modelcontextprotocol/inspector@1.0.3",
                "--cli",
                isu,
                "mcp",
                "--root",
                root_s,
            ])
            .args(args)
            .current_dir(&root)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run npx: {e}"));
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            o.status.success(),
            "{out}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        serde_json::from_str::<Value>(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
    };
    let listed = inspector(&["--method", "tools/list"]);
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["tree", "inspect", "invoke"], "{listed}");
    let called = inspector(&[
        "--method",
        "tools/call",
        "--tool-name",
        "tree",
        "--tool-arg",
        "path=programs",
        "--tool-arg",
        "depth=1",
    ]);
    assert_eq!(
        called["structuredContent"]["tree"]["children"][0]["name"], "sum_evens.isu",
        "{called}"
    );
}

/// The text view of a program, as a golden file (`ISU_BLESS=1` rewrites it).
#[test]
fn the_text_view_of_a_program() {
    use isu_host::mcp::{inspect, Context};
    let dir = project("text-view");
    let ctx = Context {
        root: isu_host::root::ProjectRoot::at(&dir).unwrap_or_else(|d| panic!("{d:?}")),
        registry: isu_host::plugins::Registry::default(),
    };
    let mut args = Map::new();
    args.insert("path".into(), json!("programs/sum_evens.isu"));
    let r = inspect(&ctx, &args);
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/mcp/inspect_program.txt");
    if let Err(e) = common::snapshot::check(&golden, &r.text) {
        panic!("{e}");
    }
}
