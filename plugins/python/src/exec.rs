//! Running a compiled module: write it to a fresh temporary directory, run
//! `python3 MODULE.py --max-steps N --max-size N` (the interpreter of the
//! `python` setting) with the arguments as JSON on stdin, and read
//! `{"ok": VALUE}` or `{"error": {...}}` from stdout. Anything else (no
//! python3, a crash, garbage) is a `BackendError`.

use isu_plugin_api::{Artifact, BackendCode, ExecLimits, Literal, PluginDiagnostic};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// What the module's `_main` prints.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
enum Outcome {
    #[serde(rename = "ok")]
    Ok(Literal),
    #[serde(rename = "error")]
    Error(RuntimeError),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuntimeError {
    code: String,
    step: Option<String>,
    message: String,
}

fn failed(message: impl Into<String>) -> PluginDiagnostic {
    PluginDiagnostic::backend(BackendCode::BackendFailed, message)
}

/// Runs the module among `artifacts` with `python` (a command or a path).
pub fn execute(
    artifacts: &[Artifact],
    args: &Literal,
    limits: &ExecLimits,
    python: &str,
) -> Result<Literal, PluginDiagnostic> {
    let module = artifacts
        .iter()
        .find(|a| a.kind == "python")
        .ok_or_else(|| {
            PluginDiagnostic::backend(
                BackendCode::CannotExecute,
                "no Python module among the artifacts",
            )
        })?;
    let dir = TempDir::new()?;
    let file = dir.path().join(file_name(&module.file_name));
    std::fs::write(&file, &module.bytes)
        .map_err(|e| failed(format!("cannot write {}: {e}", file.display())))?;
    let python = interpreter(python)?;
    let mut child = Command::new(&python)
        .arg("-I")
        .arg("-B")
        .arg(&file)
        .arg("--max-steps")
        .arg(limits.max_steps.to_string())
        .arg("--max-size")
        .arg(limits.max_size.to_string())
        .arg("--max-memory")
        .arg(limits.max_memory.to_string())
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(format!("cannot run `{python}`: {e}")))?;
    let input = args.to_string();
    let writer = child.stdin.take().map(|mut stdin| {
        std::thread::spawn(move || {
            // A module that exits early closes its end; its output says why.
            let _ = stdin.write_all(input.as_bytes());
        })
    });
    let output = child
        .wait_with_output()
        .map_err(|e| failed(format!("`{python}` did not finish: {e}")))?;
    if let Some(w) = writer {
        let _ = w.join();
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    match isu_plugin_api::json::from_str::<Outcome>(stdout.trim()) {
        Ok(Outcome::Ok(v)) if output.status.success() => Ok(v),
        Ok(Outcome::Error(e)) => Err(PluginDiagnostic::runtime(
            &e.code,
            e.step.as_deref(),
            e.message,
        )),
        _ => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            Err(failed(format!(
                "the Python module failed ({}): {}",
                output.status,
                tail(if stderr.trim().is_empty() {
                    &stdout
                } else {
                    &stderr
                })
            )))
        }
    }
}

/// The Python interpreter's own path: `python3` may be a launcher script
/// (pyenv's shims cost 200 ms a start), so each name is asked once per
/// process where the interpreter itself is.
fn interpreter(name: &str) -> Result<String, PluginDiagnostic> {
    static FOUND: Mutex<BTreeMap<String, Result<String, String>>> = Mutex::new(BTreeMap::new());
    let mut found = FOUND.lock().unwrap_or_else(|e| e.into_inner());
    found
        .entry(name.to_owned())
        .or_insert_with(|| {
            let out = Command::new(name)
                .args(["-I", "-c", "import sys; print(sys.executable)"])
                .stdin(Stdio::null())
                .output()
                .map_err(|e| format!("cannot run `{name}`: {e}"))?;
            let path = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            if out.status.success() && !path.is_empty() {
                Ok(path)
            } else {
                Err(format!(
                    "`{name}` did not say where its interpreter is ({})",
                    out.status
                ))
            }
        })
        .clone()
        .map_err(|m| {
            failed(m).with_hint(
                "install Python 3.9 or later as python3, or name it with `--set python=PATH`",
            )
        })
}

/// The last lines of a process's output, for a message.
fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.trim_end().lines().collect();
    let start = lines.len().saturating_sub(8);
    let text = lines[start..].join("\n");
    if text.is_empty() {
        "no output".to_owned()
    } else {
        text
    }
}

/// The artifact's file name, without any directory part.
fn file_name(name: &str) -> String {
    let base = Path::new(name)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("module.py");
    if base.ends_with(".py") {
        base.to_owned()
    } else {
        format!("{base}.py")
    }
}

/// A directory of our own under the system's temporary directory, removed
/// with everything in it when dropped.
#[derive(Debug)]
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<TempDir, PluginDiagnostic> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let mut last = None;
        for _ in 0..16 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let dir = base.join(format!("isu-python-{}-{nanos}-{n}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(TempDir(dir)),
                Err(e) => last = Some(e),
            }
        }
        Err(failed(format!(
            "cannot make a temporary directory in {}: {}",
            base.display(),
            last.map_or_else(|| "unknown error".to_owned(), |e| e.to_string())
        )))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_parse() {
        let read = isu_plugin_api::json::from_str::<Outcome>;
        let ok = read(r#"{"ok": {"a": [1, true]}}"#);
        assert!(matches!(ok, Ok(Outcome::Ok(Literal::Object(_)))));
        let err = read(r#"{"error": {"code": "int_overflow", "step": "S2", "message": "m"}}"#);
        assert!(matches!(
            err,
            Ok(Outcome::Error(RuntimeError { step: Some(_), .. }))
        ));
        for bad in [
            r#"{"ok": 1.5}"#,
            r#"{"ok": {"a": 1, "a": 2}}"#,
            r#"{"ok": 1, "ok": 2}"#,
            r#"{"error": {"code": "a", "code": "b", "step": null, "message": "m"}}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn file_names_stay_inside_the_directory() {
        assert_eq!(file_name("../../etc/x.py"), "x.py");
        assert_eq!(file_name("f"), "f.py");
    }

    #[test]
    fn temporary_directories_go_away() {
        let path = TempDir::new().map(|d| {
            assert!(d.path().is_dir());
            d.path().to_owned()
        });
        assert!(path.is_ok_and(|p| !p.exists()));
    }
}
