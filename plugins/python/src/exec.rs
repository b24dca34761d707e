//! Running a compiled module: each run is a request to a worker, a
//! long-lived `python3 -I -B -c WORKER` (the interpreter of the `python`
//! setting, running `src/worker.py`), which compiles each module once and
//! calls its `_answer` with the arguments as JSON and the limits, exactly
//! what `python3 MODULE.py --max-steps N ...` prints. A worker runs one
//! request at a time; the workers that are not running one wait in a pool,
//! so threads run at once as many as they need. Anything else (no python3,
//! a crash of the module or of the worker, garbage) is a `BackendError`;
//! a worker that failed so is not used again.

use isu_plugin_api::{Artifact, BackendCode, ExecLimits, Literal, PluginDiagnostic};
use serde::Deserialize;
use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

/// The worker's program.
const WORKER: &str = include_str!("worker.py");

/// How many modules a worker keeps compiled (`CACHED` in `worker.py`).
const CACHED: usize = 8;

/// What a module's `_answer` gives, or the worker's report of a crash.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
enum Outcome {
    #[serde(rename = "ok")]
    Ok(Literal),
    #[serde(rename = "error")]
    Error(RuntimeError),
    #[serde(rename = "crash")]
    Crash(String),
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

/// One worker process and the modules it holds compiled.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    known: Vec<u64>,
}

impl Worker {
    fn start(python: &str) -> Result<Worker, PluginDiagnostic> {
        let mut child = Command::new(python)
            .args(["-I", "-B", "-c", WORKER])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| failed(format!("cannot run `{python}`: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(failed(format!("`{python}` started without its pipes")));
        };
        Ok(Worker {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            known: Vec::new(),
        })
    }

    /// One run: the request, then its answer's line.
    fn ask(
        &mut self,
        key: u64,
        source: &str,
        args: &Literal,
        limits: &ExecLimits,
    ) -> std::io::Result<String> {
        let mut request = serde_json::json!({
            "key": key.to_string(),
            "args": args.to_string(),
            "max_steps": limits.max_steps,
            "max_size": limits.max_size,
            "max_memory": limits.max_memory,
        });
        if !self.known.contains(&key) {
            if self.known.len() >= CACHED {
                self.known.clear();
            }
            self.known.push(key);
            request["source"] = source.into();
        }
        let mut line = request.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.flush()?;
        let mut answer = String::new();
        if self.stdout.read_line(&mut answer)? == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the worker ended",
            ));
        }
        Ok(answer)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The idle workers, by interpreter.
static IDLE: Mutex<BTreeMap<String, Vec<Worker>>> = Mutex::new(BTreeMap::new());

fn idle_worker(python: &str) -> Option<Worker> {
    let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
    idle.get_mut(python).and_then(Vec::pop)
}

fn give_back(python: &str, worker: Worker) {
    let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
    idle.entry(python.to_owned()).or_default().push(worker);
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
    let source = String::from_utf8(module.bytes.clone())
        .map_err(|_| failed("the Python module is not UTF-8 text"))?;
    let mut hasher = DefaultHasher::new();
    source.hash(&mut hasher);
    let key = hasher.finish();
    let python = interpreter(python)?;
    // An idle worker may have ended since its last run (killed from
    // outside): a write to it fails, and a fresh one takes the run.
    let (mut worker, answer) = match idle_worker(&python) {
        Some(mut w) => match w.ask(key, &source, args, limits) {
            Ok(a) => (w, a),
            Err(_) => fresh_run(&python, key, &source, args, limits)?,
        },
        None => fresh_run(&python, key, &source, args, limits)?,
    };
    let outcome = isu_plugin_api::json::from_str::<Outcome>(answer.trim());
    let result = match outcome {
        Ok(Outcome::Ok(v)) => Ok(v),
        Ok(Outcome::Error(e)) => Err(PluginDiagnostic::runtime(
            &e.code,
            e.step.as_deref(),
            e.message,
        )),
        Ok(Outcome::Crash(trace)) => {
            // The module may have left the worker in any state.
            worker.known.clear();
            drop(worker);
            return Err(failed(format!(
                "the Python module failed: {}",
                tail(&trace)
            )));
        }
        Err(_) => {
            drop(worker);
            return Err(failed(format!(
                "the Python worker answered garbage: {}",
                tail(&answer)
            )));
        }
    };
    give_back(&python, worker);
    result
}

/// The run on a worker of its own, started now.
fn fresh_run(
    python: &str,
    key: u64,
    source: &str,
    args: &Literal,
    limits: &ExecLimits,
) -> Result<(Worker, String), PluginDiagnostic> {
    let mut w = Worker::start(python)?;
    let answer = w
        .ask(key, source, args, limits)
        .map_err(|e| failed(format!("the Python worker (`{python}`) failed: {e}")))?;
    Ok((w, answer))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_parse() {
        let read = isu_plugin_api::json::from_str::<Outcome>;
        let crash = read(r#"{"crash": "Traceback"}"#);
        assert!(matches!(crash, Ok(Outcome::Crash(_))));
        let ok = read(r#"{"ok": {"a": [1, true]}}"#);
        assert!(matches!(ok, Ok(Outcome::Ok(Literal::Object(_)))));
        let err = read(r#"{"error": {"code": "int_overflow", "step": "S2", "message": "m"}}"#);
        assert!(matches!(
            err,
            Ok(Outcome::Error(RuntimeError { step: Some(_), .. }))
        ));
        for bad in [
            r#"{"ok": 1e999}"#,
            r#"{"ok": {"a": 1, "a": 2}}"#,
            r#"{"ok": 1, "ok": 2}"#,
            r#"{"error": {"code": "a", "code": "b", "step": null, "message": "m"}}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }
}
