//! Isolated execution: a backend run in a process of its own, the plugin
//! host (`isu plugin-host FILE`, a hidden subcommand), which loads the one
//! library and answers `compile` and `execute` as JSON lines on its standard
//! input and output, in the manner of nushell's plugins
//! (`spec/plugin-abi.md`, "Isolated execution").
//!
//! [`IsolatedBackend`] is the host's side: a [`Backend`] like any other, so
//! the executor and the conformance runner use it unchanged. A plugin that
//! aborts, faults or loops forever takes only its plugin host down: the call
//! comes back as `plugin_crashed` (with the signal or exit status and the
//! end of its standard error) or, past the wall-clock timeout, as
//! `plugin_timeout` after the process is stopped, and past the same time
//! in CPU time (its threads', and the processes' it ran and waited for), as
//! `plugin_cpu_limit`; the next call starts a
//! fresh plugin host. Idle plugin hosts are kept for the next call, one per
//! caller thread at most, and end when the backend is dropped.

mod server;
pub mod wire;

pub use server::serve;

use isu_plugin_api::abi::ApiVersion;
use isu_plugin_api::json;
use isu_plugin_api::worker::{Worker, WorkerCommand, WorkerError};
use isu_plugin_api::{
    Artifact, Backend, BackendCode, BackendInfo, CompileOptions, ExecOptions, Literal,
    PluginDiagnostic, Program,
};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;
use wire::{Call, Hello, Reply, Request, Response, WireArtifact, PROTOCOL, UNREAD};

/// The subcommand of `isu` that is the plugin host.
pub const SUBCOMMAND: &str = "plugin-host";

/// How to start a plugin host: the `isu` binary, the wall-clock limit of
/// each call and the limit of the CPU time it spends on one (`None`: no
/// limit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostCommand {
    pub isu: PathBuf,
    pub timeout: Option<Duration>,
    pub cpu_limit: Option<Duration>,
}

impl HostCommand {
    /// This very `isu`, with `timeout` for both limits: the CPU time of a
    /// call counts toward the call's time limit as the wall clock does.
    pub fn this_isu(timeout: Option<Duration>) -> std::io::Result<HostCommand> {
        Ok(HostCommand {
            isu: std::env::current_exe()?,
            timeout,
            cpu_limit: timeout,
        })
    }
}

/// A running plugin host: a worker process of the plugin API's
/// ([`isu_plugin_api::worker`]), which reads its lines, keeps the end of
/// its standard error, and stops it past a time limit.
struct Host(Worker);

/// Why a plugin host could not answer.
enum Lost {
    /// It died: how, and the end of its standard error (maybe empty).
    Died(String, String),
    /// It did not answer in time, and was stopped.
    TimedOut(Duration),
    /// It spent more CPU time than it may on the call, and was stopped.
    CpuLimit(Duration),
    /// It answered what the protocol does not allow.
    Garbled(String),
    /// It could not read the request, and said why (an answer with id 0).
    Unread(PluginDiagnostic),
}

impl From<WorkerError> for Lost {
    fn from(e: WorkerError) -> Lost {
        match e {
            WorkerError::Start(why) => Lost::Died("could not start".into(), why),
            WorkerError::Died { how, stderr } => Lost::Died(how, stderr),
            WorkerError::TimedOut { after, .. } => Lost::TimedOut(after),
            WorkerError::CpuLimit { limit, .. } => Lost::CpuLimit(limit),
        }
    }
}

impl Host {
    /// Starts a plugin host; `Err` says why it could not.
    fn start(command: &HostCommand, library: &Path) -> Result<Host, String> {
        let worker = WorkerCommand::new(&command.isu)
            .arg(SUBCOMMAND)
            .arg(library);
        Worker::start(&worker).map(Host).map_err(|e| match e {
            WorkerError::Start(why) => why,
            other => other.to_string(),
        })
    }

    /// The next line, within `timeout`.
    fn read_line(&mut self, timeout: Option<Duration>) -> Result<String, Lost> {
        Ok(self.0.read_line(timeout)?)
    }

    /// Sends one request and reads its response, within the command's
    /// limits.
    fn call(&mut self, id: u64, call: Call, command: &HostCommand) -> Result<Reply, Lost> {
        let request = Request { id, call };
        let text = serde_json::to_string(&request)
            .map_err(|e| Lost::Garbled(format!("the request could not be written: {e}")))?;
        let line = self
            .0
            .ask_within(&text, command.timeout, command.cpu_limit)?;
        // The reader of its requests, whose depth limit admits every IIR
        // the parser makes (serde_json's does not): an answer holds values
        // as deep as the programs that made them.
        let response: Response = json::from_str(&line).map_err(|e| {
            let shown: String = line.chars().take(80).collect();
            Lost::Garbled(format!("it answered `{shown}`, which is no response: {e}"))
        })?;
        if let (UNREAD, Reply::Err(why)) = (response.id, &response.reply) {
            return Err(match serde_json::from_value(why.clone()) {
                Ok(d) => Lost::Unread(d),
                Err(e) => Lost::Garbled(format!("it could not read request {id}, and said: {e}")),
            });
        }
        if response.id != id {
            return Err(Lost::Garbled(format!(
                "it answered request {} instead of {id}",
                response.id
            )));
        }
        Ok(response.reply)
    }
}

/// Why a plugin host did not load its library: the loader's refusal as it
/// reported it (`code` one of the loader's codes), or why the plugin host
/// itself did not start (`init_failed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub code: String,
    pub message: String,
    pub fix: String,
}

impl Refused {
    fn init(message: String) -> Refused {
        Refused {
            code: "init_failed".to_owned(),
            message,
            fix: "check that the plugin host (`isu plugin-host FILE`) runs on this machine".into(),
        }
    }
}

/// A backend run in plugin host processes.
pub struct IsolatedBackend {
    command: HostCommand,
    library: PathBuf,
    info: BackendInfo,
    api_version: ApiVersion,
    /// Plugin hosts waiting for a call.
    idle: Mutex<Vec<Host>>,
    next_id: std::sync::atomic::AtomicU64,
}

impl std::fmt::Debug for IsolatedBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IsolatedBackend")
            .field("library", &self.library)
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

/// A plugin-API version from its text, `MAJOR.MINOR`.
fn parse_api_version(text: &str) -> Option<ApiVersion> {
    let (major, minor) = text.split_once('.')?;
    Some(ApiVersion {
        major: major.parse().ok()?,
        minor: minor.parse().ok()?,
    })
}

impl IsolatedBackend {
    /// Starts a plugin host for the backend library at `library` and reads
    /// what it says: the backend's info, or why the library was refused (the
    /// refusal the in-process loader would give).
    pub fn start(command: &HostCommand, library: &Path) -> Result<IsolatedBackend, Refused> {
        let mut host = Host::start(command, library).map_err(|e| {
            Refused::init(format!(
                "the plugin host `{} {SUBCOMMAND}` could not start: {e}",
                command.isu.display()
            ))
        })?;
        let line = host.read_line(command.timeout).map_err(|lost| {
            Refused::init(match lost {
                Lost::Died(how, tail) if tail.is_empty() => {
                    format!("the plugin host {how} while loading it")
                }
                Lost::Died(how, tail) => {
                    format!(
                        "the plugin host {how} while loading it; its standard error ends: {tail}"
                    )
                }
                Lost::TimedOut(t) | Lost::CpuLimit(t) => format!(
                    "the plugin host did not answer within {} s while loading it",
                    t.as_secs_f64()
                ),
                Lost::Garbled(m) => m,
                Lost::Unread(d) => d.message,
            })
        })?;
        let hello: Hello = json::from_str(&line)
            .map_err(|e| Refused::init(format!("the plugin host's first line is no hello: {e}")))?;
        match hello {
            Hello::Ready {
                protocol,
                api_version,
                info,
            } => {
                if protocol != PROTOCOL {
                    return Err(Refused::init(format!(
                        "the plugin host speaks {protocol}, not {PROTOCOL}"
                    )));
                }
                let api_version = parse_api_version(&api_version).ok_or_else(|| {
                    Refused::init(format!(
                        "the plugin host names the plugin API `{api_version}`"
                    ))
                })?;
                Ok(IsolatedBackend {
                    command: command.clone(),
                    library: library.to_owned(),
                    info: *info,
                    api_version,
                    idle: Mutex::new(vec![host]),
                    next_id: std::sync::atomic::AtomicU64::new(UNREAD + 1),
                })
            }
            Hello::Refused { code, message, fix } => Err(Refused { code, message, fix }),
        }
    }

    /// The plugin-API version the plugin was built against.
    pub fn api_version(&self) -> ApiVersion {
        self.api_version
    }

    /// Makes one call on an idle plugin host (or a new one); a host that
    /// answered goes back to the idle ones, one that did not is gone.
    fn call(&self, what: &str, call: Call) -> Result<Reply, PluginDiagnostic> {
        let idle = self.idle.lock().map(|mut i| i.pop()).unwrap_or(None);
        let mut host = match idle {
            Some(h) => h,
            None => self.fresh_host()?,
        };
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        match host.call(id, call, &self.command) {
            Ok(reply) => {
                if let Ok(mut idle) = self.idle.lock() {
                    idle.push(host);
                }
                Ok(reply)
            }
            Err(lost) => Err(self.lost(what, lost)),
        }
    }

    /// A new plugin host, past its hello.
    fn fresh_host(&self) -> Result<Host, PluginDiagnostic> {
        let mut host = Host::start(&self.command, &self.library).map_err(|e| {
            crashed(format!(
                "the plugin host for {} could not start: {e}",
                self.library.display()
            ))
        })?;
        match host.read_line(self.command.timeout) {
            Ok(line) if matches!(json::from_str(&line), Ok(Hello::Ready { .. })) => Ok(host),
            Ok(line) => Err(crashed(format!(
                "the plugin host no longer loads {}: {line}",
                self.library.display()
            ))),
            Err(lost) => Err(self.lost("loading", lost)),
        }
    }

    fn lost(&self, what: &str, lost: Lost) -> PluginDiagnostic {
        let name = &self.info.name;
        match lost {
            Lost::Died(how, tail) => {
                let d = crashed(format!(
                    "the plugin host of the `{name}` backend {how} in {what}"
                ))
                .with_hint(
                    "the plugin crashed (not a panic, which it would report); report it to its authors",
                );
                if tail.is_empty() {
                    d
                } else {
                    d.with_note(format!("its standard error ends: {tail}"))
                }
            }
            Lost::TimedOut(t) => PluginDiagnostic::backend(
                BackendCode::PluginTimeout,
                format!(
                    "the `{name}` backend did not answer {what} within {} s; its plugin host was stopped",
                    t.as_secs_f64()
                ),
            )
            .with_hint("a longer --timeout gives it more time; a plugin that never answers has a bug"),
            Lost::CpuLimit(t) => PluginDiagnostic::backend(
                BackendCode::PluginCpuLimit,
                format!(
                    "the `{name}` backend spent more than {} s of CPU time in {what}, the limit of a call's CPU time; its plugin host was stopped",
                    t.as_secs_f64()
                ),
            )
            .with_hint("a longer --timeout gives it more time, in CPU time as on the clock; a plugin that never answers has a bug"),
            Lost::Unread(d) => d,
            Lost::Garbled(m) => PluginDiagnostic::backend(
                BackendCode::PluginBadOutput,
                format!("the plugin host of the `{name}` backend broke the protocol in {what}: {m}"),
            ),
        }
    }
}

fn crashed(message: String) -> PluginDiagnostic {
    PluginDiagnostic::backend(BackendCode::PluginCrashed, message)
}

impl Backend for IsolatedBackend {
    fn info(&self) -> BackendInfo {
        self.info.clone()
    }

    fn compile(
        &self,
        program: &Program,
        options: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        let call = Call::Compile {
            program: Box::new(program.clone()),
            options: options.clone(),
        };
        match self.call("compile", call).map_err(|d| vec![d])? {
            Reply::Ok(value) => {
                let wire: Vec<WireArtifact> =
                    serde_json::from_value(value).map_err(|e| vec![garbled("compile", e)])?;
                wire.iter()
                    .map(WireArtifact::to_artifact)
                    .collect::<Result<_, _>>()
                    .map_err(|d| vec![d])
            }
            Reply::Err(value) => {
                let diags: Vec<PluginDiagnostic> =
                    serde_json::from_value(value).map_err(|e| vec![garbled("compile", e)])?;
                Err(diags)
            }
        }
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        options: &ExecOptions,
    ) -> Result<Literal, PluginDiagnostic> {
        // The backend is told how long it has, so that a worker it runs the
        // program in is stopped, and cleaned up after, before this call is.
        let mut options = options.clone();
        options.timeout_ms = options.timeout_ms.or(self
            .command
            .timeout
            .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)));
        let call = Call::Execute {
            artifacts: artifacts.iter().map(WireArtifact::from_artifact).collect(),
            args: args.clone(),
            options,
        };
        match self.call("execute", call)? {
            Reply::Ok(value) => serde_json::from_value(value).map_err(|e| garbled("execute", e)),
            Reply::Err(value) => {
                let d: PluginDiagnostic =
                    serde_json::from_value(value).map_err(|e| garbled("execute", e))?;
                Err(d)
            }
        }
    }
}

fn garbled(what: &str, e: serde_json::Error) -> PluginDiagnostic {
    PluginDiagnostic::backend(
        BackendCode::PluginBadOutput,
        format!("the plugin host's answer to {what} is not what the protocol says: {e}"),
    )
}
