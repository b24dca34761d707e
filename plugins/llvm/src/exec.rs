//! `execute`: the built executable run as a subprocess (native code never
//! runs in the process that loaded the plugin), its arguments as JSON on
//! standard input, its result or runtime error read back as `isu run
//! --format json` writes them.

use crate::native::Scratch;
use isu_plugin_api::{BackendCode, ExecLimits, Literal, PluginDiagnostic};
use serde::Deserialize;
use std::io::Write;
use std::process::{Command, Stdio};

fn backend(message: impl Into<String>) -> PluginDiagnostic {
    PluginDiagnostic::backend(BackendCode::BackendFailed, message)
}

/// What the executable prints with `--format json`.
#[derive(Debug, Deserialize)]
struct Report {
    ok: bool,
    #[serde(default)]
    value: Option<serde_json::Value>,
    #[serde(default)]
    diagnostics: Vec<Diag>,
}

#[derive(Debug, Deserialize)]
struct Diag {
    kind: String,
    code: String,
    #[serde(default)]
    step: Option<String>,
    message: String,
}

/// Runs the executable `exe` (its bytes) on `args` within `limits`.
pub fn run(
    exe: &[u8],
    name: &str,
    args: &Literal,
    limits: &ExecLimits,
) -> Result<Literal, PluginDiagnostic> {
    let scratch = Scratch::new("run").map_err(backend)?;
    let path = scratch.path(name);
    write_executable(&path, exe)
        .map_err(|e| backend(format!("writing {}: {e}", path.display())))?;
    let mut cmd = Command::new(&path);
    cmd.args(["--format", "json", "--max-steps"])
        .arg(limits.max_steps.to_string())
        .arg("--max-size")
        .arg(limits.max_size.to_string())
        .arg("--max-memory")
        .arg(limits.max_memory.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child =
        spawn(&mut cmd).map_err(|e| backend(format!("running {}: {e}", path.display())))?;
    let input = args.to_string();
    if let Some(mut stdin) = child.stdin.take() {
        // A program that exits before reading its arguments closes the pipe:
        // what it printed says why.
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child
        .wait_with_output()
        .map_err(|e| backend(format!("waiting for {}: {e}", path.display())))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Report = isu_plugin_api::json::from_str(stdout.trim()).map_err(|_| {
        backend(format!(
            "the executable ended ({}) without a JSON report: {}{}",
            out.status,
            stdout.trim(),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    })?;
    if report.ok {
        let value = report
            .value
            .ok_or_else(|| backend("the executable reported success without a value"))?;
        return isu_plugin_api::json::from_value(value)
            .map_err(|e| backend(format!("the executable's result is not an Isu value: {e}")));
    }
    let Some(d) = report.diagnostics.into_iter().next() else {
        return Err(backend(
            "the executable reported a failure without a diagnostic",
        ));
    };
    if d.kind == "RuntimeError" {
        Err(PluginDiagnostic::runtime(
            &d.code,
            d.step.as_deref(),
            d.message,
        ))
    } else {
        // The executable's own failures (`out_of_memory`, a bad argument
        // file): a code of the shared table, else a failure of the backend.
        let code = BackendCode::parse(&d.code).unwrap_or(BackendCode::BackendFailed);
        Err(PluginDiagnostic::backend(code, d.message))
    }
}

/// Spawns `cmd`, retrying while the executable is busy: another thread of
/// this process may have forked while the file was open for writing, and its
/// child holds the file until it calls exec.
pub fn spawn(cmd: &mut Command) -> std::io::Result<std::process::Child> {
    const ETXTBSY: i32 = 26;
    let mut tries = 0;
    loop {
        match cmd.spawn() {
            Err(e) if e.raw_os_error() == Some(ETXTBSY) && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            r => return r,
        }
    }
}

#[cfg(unix)]
fn write_executable(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o755)
        .open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

#[cfg(not(unix))]
fn write_executable(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)
}
