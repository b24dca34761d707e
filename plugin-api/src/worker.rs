//! Worker processes for a backend that runs programs in another program
//! (`python3`, `node`, a VM of its own): a pool of long-lived workers that
//! each answer one request at a time, one line of text for one line, so a
//! run costs a message instead of a process start; with a time limit on
//! every answer that stops the worker and hands the failure back to the
//! backend, which then cleans up after itself.
//!
//! - [`WorkerCommand`] says how to start a worker; [`WorkerPool`] keeps the
//!   idle ones: [`WorkerPool::ask`] sends a request to one (a new one when
//!   none is idle) and hands it back with the answer, and
//!   [`WorkerPool::give_back`] returns it; a worker dropped instead is
//!   stopped.
//! - [`Worker::ask`] writes a line and reads the answer's line within a
//!   time limit: past it, the worker is killed at once and the answer is
//!   [`WorkerError::TimedOut`] with the end of its standard error. The time
//!   limit of a run is [`ExecOptions::worker_timeout`](crate::ExecOptions::worker_timeout):
//!   a little less than the host waits, so the backend's own error, not the
//!   host's `plugin_timeout`, comes back, and the code that made temporary
//!   files removes them on its way out.
//! - [`Worker::ask_within`] limits the CPU time of the answer as well: the
//!   worker's own (every thread of it) and that of the processes it ran and
//!   waited for, read from `/proc` (on Linux; elsewhere only the wall clock
//!   is watched). Past the limit the worker is killed at once and the
//!   answer is [`WorkerError::CpuLimit`].
//! - [`Scratch`] is such a temporary folder, removed when dropped.
//!
//! A worker reads requests from its standard input and writes one answer
//! line per request to its standard output; its standard error is free
//! text, quoted when it fails. At the end of its input it ends (that is how
//! an idle worker is told to stop). A worker should make no files: the
//! backend makes them, in a [`Scratch`], and passes their paths.
//!
//! ```no_run
//! use isu_plugin_api::worker::{Scratch, WorkerCommand, WorkerPool};
//! use std::time::Duration;
//!
//! let pool: WorkerPool = WorkerPool::new(WorkerCommand::new("node").arg("worker.js"));
//! let scratch = Scratch::new("isu-js")?;
//! let module = scratch.path().join("program.mjs");
//! std::fs::write(&module, "export function run(args) { return args; }")?;
//! let request = format!("{{\"module\": {:?}, \"args\": {{}}}}", module.display().to_string());
//! match pool.ask(Some(Duration::from_secs(9)), |_| request.clone()) {
//!     Ok((answer, worker)) => {
//!         println!("{answer}");
//!         pool.give_back(worker);
//!     }
//!     // The worker was killed; `scratch` is removed when it goes out of scope.
//!     Err(e) => eprintln!("{}", e.diagnostic("the js backend's worker").message),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::backend::PluginDiagnostic;
use crate::backend_codes::BackendCode;
use std::ffi::{OsStr, OsString};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much of a worker's standard error a failure quotes, at most (bytes).
pub const STDERR_TAIL: usize = 2000;

/// How long a worker told to stop (its input closed) has before it is killed.
const GRACE: Duration = Duration::from_secs(1);

/// How often the CPU time of a worker with a CPU limit is read while it
/// works on an answer.
const CPU_POLL: Duration = Duration::from_millis(20);

/// How to start a worker: a program, its arguments, its environment and
/// folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerCommand {
    program: OsString,
    args: Vec<OsString>,
    envs: Vec<(OsString, OsString)>,
    dir: Option<PathBuf>,
}

impl WorkerCommand {
    /// The program (a command found on `PATH`, or a path).
    pub fn new(program: impl AsRef<OsStr>) -> WorkerCommand {
        WorkerCommand {
            program: program.as_ref().to_owned(),
            args: Vec::new(),
            envs: Vec::new(),
            dir: None,
        }
    }

    /// One more argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> WorkerCommand {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    /// More arguments.
    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, args: I) -> WorkerCommand {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// An environment variable of the worker.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> WorkerCommand {
        self.envs
            .push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }

    /// The folder the worker starts in.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> WorkerCommand {
        self.dir = Some(dir.as_ref().to_owned());
        self
    }

    /// The program, as messages name the worker.
    pub fn program(&self) -> &OsStr {
        &self.program
    }

    fn command(&self) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.args)
            .envs(self.envs.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &self.dir {
            c.current_dir(dir);
        }
        c
    }
}

/// Why a worker gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkerError {
    /// It could not be started (no such program): why.
    Start(String),
    /// It ended or closed its output: how (`died of signal 11 (SIGSEGV)`,
    /// `exited with status 1`), and the end of its standard error.
    Died {
        /// How it ended.
        how: String,
        /// The end of its standard error, maybe empty.
        stderr: String,
    },
    /// It did not answer within `after`, and was killed.
    TimedOut {
        /// The time limit it had.
        after: Duration,
        /// The end of its standard error, maybe empty.
        stderr: String,
    },
    /// It spent more than `limit` of CPU time on the answer, and was killed
    /// ([`Worker::ask_within`]).
    CpuLimit {
        /// The CPU time it had.
        limit: Duration,
        /// The end of its standard error, maybe empty.
        stderr: String,
    },
}

impl WorkerError {
    /// The failure as the backend reports it, `worker` naming the worker
    /// (`the Python worker`): `plugin_timeout` for a worker stopped at its
    /// time limit, `plugin_cpu_limit` at its CPU limit, `backend_failed`
    /// otherwise, with the end of its standard error as a note.
    pub fn diagnostic(&self, worker: &str) -> PluginDiagnostic {
        let (d, stderr) = match self {
            WorkerError::Start(why) => (
                PluginDiagnostic::backend(
                    BackendCode::BackendFailed,
                    format!("{worker} could not start: {why}"),
                ),
                "",
            ),
            WorkerError::Died { how, stderr } => (
                PluginDiagnostic::backend(BackendCode::BackendFailed, format!("{worker} {how}")),
                stderr.as_str(),
            ),
            WorkerError::TimedOut { after, stderr } => (
                PluginDiagnostic::backend(
                    BackendCode::PluginTimeout,
                    format!(
                        "{worker} did not answer within {} s and was stopped",
                        after.as_secs_f64()
                    ),
                )
                .with_hint(
                    "an Isu program always ends (its step limit stops it): a run that does not is a bug of the backend",
                ),
                stderr.as_str(),
            ),
            WorkerError::CpuLimit { limit, stderr } => (
                PluginDiagnostic::backend(
                    BackendCode::PluginCpuLimit,
                    format!(
                        "{worker} spent more than {} s of CPU time on one answer and was stopped",
                        limit.as_secs_f64()
                    ),
                )
                .with_hint(
                    "an Isu program always ends (its step limit stops it): a run that does not is a bug of the backend",
                ),
                stderr.as_str(),
            ),
        };
        if stderr.is_empty() {
            d
        } else {
            d.with_note(format!("its standard error ends: {stderr}"))
        }
    }
}

impl std::fmt::Display for WorkerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.diagnostic("the worker").message)
    }
}

impl std::error::Error for WorkerError {}

/// How a process ended, for a message: `died of signal 11 (SIGSEGV)`,
/// `exited with status 1`.
pub fn describe_exit(status: &ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                15 => " (SIGTERM)",
                _ => "",
            };
            return format!("died of signal {signal}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "ended".to_owned(),
    }
}

/// One worker process, with what the backend keeps of it (`state`: the
/// modules it has loaded, say).
#[derive(Debug)]
pub struct Worker<S = ()> {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// What the backend keeps of this worker; `S::default()` when it starts.
    pub state: S,
}

impl<S: Default> Worker<S> {
    /// Starts a worker.
    pub fn start(command: &WorkerCommand) -> Result<Worker<S>, WorkerError> {
        let mut child = command.command().spawn().map_err(|e| {
            WorkerError::Start(format!(
                "cannot run `{}`: {e}",
                command.program.to_string_lossy()
            ))
        })?;
        let stdout = child.stdout.take();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            if let Some(out) = stdout {
                for line in BufReader::new(out).lines() {
                    let end = line.is_err();
                    if tx.send(line).is_err() || end {
                        return;
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        if let Some(mut err) = child.stderr.take() {
            let sink = stderr.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                loop {
                    let n = match err.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => n,
                    };
                    let mut tail = sink.lock().unwrap_or_else(|e| e.into_inner());
                    tail.extend_from_slice(&buf[..n]);
                    let excess = tail.len().saturating_sub(STDERR_TAIL);
                    tail.drain(..excess);
                }
            });
        }
        let stdin = child.stdin.take();
        Ok(Worker {
            child,
            stdin,
            lines,
            stderr,
            state: S::default(),
        })
    }
}

impl<S> Worker<S> {
    /// The worker's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes `line` (a newline is added), then reads the answer's line
    /// within `timeout` (`None`: as long as it takes).
    pub fn ask(&mut self, line: &str, timeout: Option<Duration>) -> Result<String, WorkerError> {
        self.send(line)?;
        self.read_line(timeout)
    }

    /// [`Worker::ask`], the worker spending at most `cpu` of CPU time on
    /// the answer (`None`: as much as it takes): its own, every thread of
    /// it, and that of the processes it ran and waited for. Past the limit
    /// the worker is killed and the answer is [`WorkerError::CpuLimit`].
    /// The CPU time is read from `/proc` every few milliseconds; where there
    /// is none (not Linux), only `timeout` holds.
    pub fn ask_within(
        &mut self,
        line: &str,
        timeout: Option<Duration>,
        cpu: Option<Duration>,
    ) -> Result<String, WorkerError> {
        let watch = cpu.and_then(|limit| {
            let start = cpu_time(self.id())?;
            Some(CpuWatch { start, limit })
        });
        self.send(line)?;
        match watch {
            None => self.read_line(timeout),
            Some(watch) => self.read_line_watched(timeout, watch),
        }
    }

    /// The next line of the worker's output, within `timeout` and `watch`'s
    /// CPU limit; past either the worker is killed.
    fn read_line_watched(
        &mut self,
        timeout: Option<Duration>,
        watch: CpuWatch,
    ) -> Result<String, WorkerError> {
        let deadline = timeout.map(|t| Instant::now() + t);
        loop {
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            match self
                .lines
                .recv_timeout(left.map_or(CPU_POLL, |l| l.min(CPU_POLL)))
            {
                Ok(Ok(line)) => return Ok(line),
                Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => return Err(self.death()),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if left.is_some_and(|l| l <= CPU_POLL) {
                self.kill();
                return Err(WorkerError::TimedOut {
                    after: timeout.unwrap_or_default(),
                    stderr: self.stderr_tail(),
                });
            }
            let spent = cpu_time(self.id()).map(|now| now.saturating_sub(watch.start));
            if spent.is_some_and(|spent| spent > watch.limit) {
                self.kill();
                return Err(WorkerError::CpuLimit {
                    limit: watch.limit,
                    stderr: self.stderr_tail(),
                });
            }
        }
    }

    /// Writes `line` and a newline to the worker's input.
    pub fn send(&mut self, line: &str) -> Result<(), WorkerError> {
        let sent = self.stdin.as_mut().map(|stdin| {
            stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.write_all(b"\n"))
                .and_then(|()| stdin.flush())
        });
        match sent {
            Some(Ok(())) => Ok(()),
            _ => Err(self.death()),
        }
    }

    /// The next line of the worker's output, within `timeout`; past it the
    /// worker is killed.
    pub fn read_line(&mut self, timeout: Option<Duration>) -> Result<String, WorkerError> {
        let got = match timeout {
            Some(t) => self.lines.recv_timeout(t),
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        };
        match got {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => Err(self.death()),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(WorkerError::TimedOut {
                    after: timeout.unwrap_or_default(),
                    stderr: self.stderr_tail(),
                })
            }
        }
    }

    /// Kills the worker now (it is of no use after).
    pub fn kill(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The end of the worker's standard error so far.
    pub fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().map(|t| t.clone()).unwrap_or_default();
        String::from_utf8_lossy(&tail).trim().to_owned()
    }

    /// How the worker ended (it closed its output or its input), with the
    /// end of its standard error.
    fn death(&mut self) -> WorkerError {
        let deadline = Instant::now() + Duration::from_secs(2);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => {
                    let _ = self.child.kill();
                    break self.child.wait().ok();
                }
            }
        };
        // The reader of standard error may still be copying the last bytes.
        std::thread::sleep(Duration::from_millis(20));
        WorkerError::Died {
            how: status.map_or_else(|| "ended".to_owned(), |s| describe_exit(&s)),
            stderr: self.stderr_tail(),
        }
    }
}

/// The CPU time a worker had spent when its answer was asked for, and how
/// much more it may spend on it.
#[derive(Debug, Clone, Copy)]
struct CpuWatch {
    start: Duration,
    limit: Duration,
}

/// The CPU time process `pid` has spent, in user and system mode, with that
/// of the children it has waited for: fields 14 to 17 of `/proc/PID/stat`,
/// in the kernel's `USER_HZ` (100 a second on every architecture Rust
/// builds for). `None` where there is no `/proc`, or the process is gone.
fn cpu_time(pid: u32) -> Option<Duration> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    const USER_HZ: u64 = 100;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command's name (field 2, in parentheses) may hold spaces: the
    // fields are counted after its closing parenthesis, from field 3.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let mut ticks = 0u64;
    for field in fields.get(11..15)? {
        ticks = ticks.saturating_add(field.parse::<u64>().ok()?);
    }
    Some(Duration::from_millis(ticks.saturating_mul(1000 / USER_HZ)))
}

impl<S> Drop for Worker<S> {
    /// Closes the worker's input, which ends a worker waiting for a request,
    /// and kills it when it has not ended a second later.
    fn drop(&mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Workers of one command: the idle ones wait here between runs, so
/// threads that run at once get a worker each. A worker taken from the pool
/// is the caller's until it gives it back ([`WorkerPool::give_back`]); one
/// that is dropped instead (it failed, or answered something that leaves it
/// in a state the backend cannot trust) is stopped.
#[derive(Debug)]
pub struct WorkerPool<S = ()> {
    command: WorkerCommand,
    idle: Mutex<Vec<Worker<S>>>,
}

impl<S: Default> WorkerPool<S> {
    /// A pool of workers started with `command`; none is started yet.
    pub fn new(command: WorkerCommand) -> WorkerPool<S> {
        WorkerPool {
            command,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// The command its workers run.
    pub fn command(&self) -> &WorkerCommand {
        &self.command
    }

    /// An idle worker, or a new one.
    pub fn take(&self) -> Result<Worker<S>, WorkerError> {
        match self.idle.lock().map(|mut i| i.pop()).unwrap_or(None) {
            Some(w) => Ok(w),
            None => Worker::start(&self.command),
        }
    }

    /// Puts a worker that answered well back among the idle ones.
    pub fn give_back(&self, worker: Worker<S>) {
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(worker);
        }
    }

    /// One request on a worker of the pool: the line `request` makes from
    /// the worker's state, and the answer's line within `timeout`, with the
    /// worker, to give back once the answer is read. An idle worker that has
    /// ended since its last request (killed from outside) is replaced by a
    /// new one, which gets the request. A worker that fails is stopped.
    pub fn ask(
        &self,
        timeout: Option<Duration>,
        mut request: impl FnMut(&mut S) -> String,
    ) -> Result<(String, Worker<S>), WorkerError> {
        let idle = self.idle.lock().map(|mut i| i.pop()).unwrap_or(None);
        if let Some(mut worker) = idle {
            let line = request(&mut worker.state);
            match worker.ask(&line, timeout) {
                Ok(answer) => return Ok((answer, worker)),
                Err(WorkerError::Died { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        let mut worker = Worker::start(&self.command)?;
        let line = request(&mut worker.state);
        let answer = worker.ask(&line, timeout)?;
        Ok((answer, worker))
    }
}

/// A temporary folder of the backend's, removed with everything in it when
/// dropped: on every way out of the code that made it, a worker's timeout
/// included.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// A new, empty folder in the system's temporary folder, named
    /// `PREFIX-PID-N`.
    pub fn new(prefix: &str) -> std::io::Result<Scratch> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("{prefix}-{}-{n}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(Scratch { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A worker in the shell: it echoes each line, loops forever on `loop`,
    /// and exits with status 3 on `die`, after a word on its standard error.
    fn shell() -> WorkerCommand {
        WorkerCommand::new("sh").args([
            "-c",
            "while read -r line; do case \"$line\" in \
             loop*) while :; do :; done;; \
             die*) echo 'dying now' >&2; exit 3;; \
             *) echo \"echo $line\";; esac; done",
        ])
    }

    fn alive(pid: u32) -> bool {
        Command::new("kill")
            .args(["-0", &pid.to_string()])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// A worker that spins past its CPU limit is stopped by it, long
    /// before its wall-clock limit; one that answers within it is not.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_cpu_limit_stops_a_spinning_worker() {
        let mut worker: Worker = Worker::start(&shell()).unwrap_or_else(|e| panic!("{e}"));
        let limit = Some(Duration::from_millis(300));
        let wall = Some(Duration::from_secs(600));
        assert_eq!(worker.ask_within("one", wall, limit), Ok("echo one".into()));
        let pid = worker.id();
        let spun = worker.ask_within("loop", wall, limit);
        let Err(WorkerError::CpuLimit { limit: had, .. }) = spun else {
            panic!("{spun:?}");
        };
        assert_eq!(Some(had), limit);
        assert!(!alive(pid), "the worker was not stopped");
        let d = WorkerError::CpuLimit {
            limit: had,
            stderr: String::new(),
        }
        .diagnostic("the shell worker");
        assert_eq!(
            (d.code.as_str(), d.message.as_str()),
            (
                "plugin_cpu_limit",
                "the shell worker spent more than 0.3 s of CPU time on one answer and was stopped"
            )
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_cpu_time_of_a_process_is_read_from_proc() {
        assert!(cpu_time(std::process::id()).is_some());
        assert_eq!(cpu_time(u32::MAX), None);
    }

    #[test]
    fn a_worker_answers_and_is_used_again() {
        let pool: WorkerPool<u32> = WorkerPool::new(shell());
        let (answer, mut worker) = pool
            .ask(None, |asked| {
                *asked += 1;
                "one".into()
            })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((answer.as_str(), worker.state), ("echo one", 1));
        let pid = worker.id();
        assert_eq!(worker.ask("two", None), Ok("echo two".into()));
        pool.give_back(worker);
        let (answer, worker) = pool
            .ask(Some(Duration::from_secs(10)), |asked| {
                *asked += 1;
                "three".into()
            })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (answer.as_str(), worker.state, worker.id()),
            ("echo three", 2, pid)
        );
    }

    #[test]
    fn a_worker_that_ended_while_idle_is_replaced() {
        let pool: WorkerPool = WorkerPool::new(shell());
        let mut worker = pool.take().unwrap_or_else(|e| panic!("{e}"));
        let pid = worker.id();
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        let _ = worker.child.wait();
        pool.give_back(worker);
        let (answer, worker) = pool
            .ask(None, |_| "again".into())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(answer, "echo again");
        assert_ne!(worker.id(), pid);
    }

    #[test]
    fn a_worker_that_dies_says_how_with_its_standard_error() {
        let pool: WorkerPool = WorkerPool::new(shell());
        let err = pool.ask(None, |_| "die".into()).err();
        assert_eq!(
            err,
            Some(WorkerError::Died {
                how: "exited with status 3".into(),
                stderr: "dying now".into()
            })
        );
        let d = err.map(|e| e.diagnostic("the sh worker"));
        assert_eq!(
            d.map(|d| (d.code, d.message, d.notes)),
            Some((
                "backend_failed".into(),
                "the sh worker exited with status 3".into(),
                vec!["its standard error ends: dying now".into()]
            ))
        );
        let missing: WorkerPool = WorkerPool::new(WorkerCommand::new("/nonexistent/worker"));
        let err = missing.ask(None, |_| String::new()).err();
        assert!(
            matches!(&err, Some(WorkerError::Start(m)) if m.starts_with("cannot run `/nonexistent/worker`")),
            "{err:?}"
        );
    }

    /// What a backend does: its files in a scratch folder, the run on a
    /// worker within a time limit. The worker's answer, or its failure.
    fn run_in_scratch(
        pool: &WorkerPool,
        request: &str,
        seen: &mut Option<PathBuf>,
    ) -> Result<String, PluginDiagnostic> {
        let scratch = Scratch::new("isu-worker-test")
            .map_err(|e| PluginDiagnostic::backend(BackendCode::BackendFailed, e.to_string()))?;
        let module = scratch.path().join("module.txt");
        std::fs::write(&module, request)
            .map_err(|e| PluginDiagnostic::backend(BackendCode::BackendFailed, e.to_string()))?;
        *seen = Some(scratch.path().to_owned());
        let (answer, worker) = pool
            .ask(Some(Duration::from_millis(300)), |_| request.to_owned())
            .map_err(|e| e.diagnostic("the sh worker"))?;
        pool.give_back(worker);
        Ok(answer)
    }

    #[test]
    fn a_timeout_stops_the_worker_and_the_backend_cleans_up() {
        let pool: WorkerPool = WorkerPool::new(shell());
        let mut folder = None;
        assert_eq!(
            run_in_scratch(&pool, "fine", &mut folder),
            Ok("echo fine".into())
        );
        let pid = pool.take().map(|w| {
            let pid = w.id();
            pool.give_back(w);
            pid
        });
        let pid = pid.unwrap_or_else(|e| panic!("{e}"));
        let started = Instant::now();
        let err = run_in_scratch(&pool, "loop", &mut folder).err();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(
            err.map(|d| (d.code, d.message)),
            Some((
                "plugin_timeout".into(),
                "the sh worker did not answer within 0.3 s and was stopped".into()
            ))
        );
        assert!(!alive(pid), "the worker {pid} still runs");
        let folder = folder.unwrap_or_default();
        assert!(!folder.as_os_str().is_empty());
        assert!(!folder.exists(), "{} was left behind", folder.display());
        // The pool goes on with a new worker.
        assert_eq!(
            run_in_scratch(&pool, "next", &mut None),
            Ok("echo next".into())
        );
    }
}
