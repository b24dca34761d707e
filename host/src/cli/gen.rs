//! `isu gen`, `isu repair` and `isu prompt`: the repair loop from the
//! command line, and what the model is told.

use super::output::{print_json, read_source};
use super::run::registry;
use super::write::{write_file, Options as WriteOptions, Output};
use super::{Format, FormatFlag, EXIT_USAGE};
use crate::diag::Diagnostic;
use crate::functions::Functions;
use crate::llm::events::Log;
use crate::llm::http::{self, Http, HttpConfig};
use crate::llm::prompt;
use crate::llm::provider::{Provider, Scripted};
use crate::llm::repair::{
    self, Budget, Config, Constrain, Lessons, NoLessons, Options, Outcome, Round, Status,
    SystemClock,
};
use crate::llm::task::{Example, Task};
use crate::llm::ReplyFormat;
use crate::memory::{Lesson, Store, StoreUrl, SystemClock as MemoryClock, DEFAULT_STORE};
use crate::root::ProjectRoot;
use crate::{pipeline, Kind};
use anyhow::{Context, Result};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Exit code of a run that ended without a program (the model gave up or
/// broke the contract before writing one, or a budget ran out first).
pub const EXIT_NO_PROGRAM: i32 = 11;

/// The value, or `None` after saying on stderr why the command line is
/// wrong (the command then exits with [`EXIT_USAGE`]).
pub fn usage<T>(result: std::result::Result<T, String>) -> Option<T> {
    result.map_err(|why| eprintln!("error: {why}")).ok()
}

/// Where replies come from and how to ask.
#[derive(Debug, Clone, clap::Args)]
pub struct ModelArgs {
    /// The server's API base, e.g. http://127.0.0.1:8080/v1 (default: $ISU_LLM_URL).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// The model to ask for (default: $ISU_LLM_MODEL, else "default").
    #[arg(long)]
    pub model: Option<String>,
    /// The API key, sent as a bearer token (default: $ISU_LLM_KEY). Never logged.
    #[arg(long, value_name = "KEY")]
    pub key: Option<String>,
    /// Replies from this file instead of a server (JSON Lines: a string, or
    /// {"content": ..., "usage": {...}}, per reply).
    #[arg(long, value_name = "FILE", conflicts_with = "url")]
    pub replies: Option<PathBuf>,
    /// Seconds one HTTP attempt may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub timeout: u64,
    /// Attempts after the first on a 429, a 5xx, a timeout or a refused connection.
    #[arg(long, default_value_t = 3)]
    pub retries: u32,
    /// How the server constrains replies: the envelope's JSON Schema
    /// (response_format), llama.cpp's GBNF grammar, or nothing (default:
    /// schema for JSON replies, none for tagged ones).
    #[arg(long, value_enum)]
    pub constrain: Option<Constrain>,
    /// How the model writes its replies: one JSON object, or tagged lines
    /// with the artifact verbatim between `<<<` and `>>>` (no escaping).
    #[arg(long, value_enum, default_value_t = ReplyFormat::Json)]
    pub reply_format: ReplyFormat,
    /// The most tokens one reply may take.
    #[arg(long, default_value_t = Options::default().max_tokens)]
    pub max_tokens: u32,
    #[arg(long, default_value_t = Options::default().temperature)]
    pub temperature: f64,
    /// Candidates asked for in round 1; the one passing most examples is kept.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub samples: u32,
    /// Model rounds at most (re-asks of off-contract replies are not rounds).
    #[arg(long, default_value_t = Budget::default().rounds)]
    pub max_rounds: u32,
    /// Tokens (prompt and completion) the whole run may spend.
    #[arg(long, default_value_t = Budget::default().tokens)]
    pub max_total_tokens: u64,
    /// Seconds of wall time the whole run may take.
    #[arg(long, value_name = "SECONDS", default_value_t = Budget::default().time_ms / 1000)]
    pub max_time: u64,
    /// Re-asks of one request whose reply is off the contract.
    #[arg(long, default_value_t = Budget::default().reasks)]
    pub max_reasks: u32,
}

impl ModelArgs {
    /// The options the flags ask for, or why they do not go together.
    pub fn options(&self) -> std::result::Result<Options, String> {
        let constrain = self.constrain.unwrap_or(match self.reply_format {
            ReplyFormat::Json => Constrain::Schema,
            ReplyFormat::Tagged => Constrain::None,
        });
        let options = Options {
            samples: self.samples,
            max_tokens: self.max_tokens,
            temperature: self.temperature,
            constrain,
            reply_format: self.reply_format,
            budget: Budget {
                rounds: self.max_rounds,
                tokens: self.max_total_tokens,
                time_ms: self.max_time.saturating_mul(1000),
                reasks: self.max_reasks,
            },
            lessons: false,
        };
        options.check().map(|()| options)
    }

    /// The model's name, as the flags and the environment give it.
    pub fn model(&self) -> String {
        if self.replies.is_some() {
            return "replies".into();
        }
        self.model
            .clone()
            .or_else(|| {
                std::env::var(http::MODEL_ENV)
                    .ok()
                    .filter(|m| !m.is_empty())
            })
            .unwrap_or_else(|| "default".into())
    }

    /// The server's configuration, or `None` when no URL is given.
    pub fn http(&self) -> Option<HttpConfig> {
        let url = self
            .url
            .clone()
            .or_else(|| std::env::var(http::URL_ENV).ok())
            .filter(|u| !u.is_empty())?;
        Some(HttpConfig {
            url,
            model: self.model(),
            key: self
                .key
                .clone()
                .or_else(|| std::env::var(http::KEY_ENV).ok())
                .filter(|k| !k.is_empty()),
            timeout: Duration::from_secs(self.timeout.max(1)),
            retries: self.retries,
            backoff: Duration::from_millis(500),
        })
    }

    /// The provider: the replies file, or the server.
    pub fn provider(&self) -> Result<std::result::Result<Box<dyn Provider>, String>> {
        if let Some(path) = &self.replies {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            return Ok(Scripted::parse(&text)
                .map(|s| Box::new(s) as Box<dyn Provider>)
                .map_err(|e| format!("{}: {e}", path.display())));
        }
        Ok(match self.http() {
            Some(c) => Ok(Box::new(Http::new(c))),
            None => Err(format!(
                "no model to ask: pass --url (or set {}) to an OpenAI-compatible server, or --replies FILE",
                http::URL_ENV
            )),
        })
    }
}

#[derive(Debug, clap::Args)]
pub struct GenArgs {
    /// What the function does, in words.
    pub words: String,
    /// The function's name.
    #[arg(long)]
    pub name: String,
    /// Its parameters: 'xs: int[], n: int'.
    #[arg(long, default_value = "")]
    pub args: String,
    /// Its return type.
    #[arg(long)]
    pub returns: String,
    /// An example, ARGS=>RESULT: '{"xs": [1, 2]}=>3'. Repeat for more; they become IO.
    #[arg(long = "example", value_name = "ARGS=>RESULT", value_parser = Example::parse)]
    pub examples: Vec<Example>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, clap::Args)]
pub struct RepairArgs {
    /// The program to repair; its FUNC and IO are the task.
    pub file: PathBuf,
    /// What the function should do, in words (default: pass the IO examples).
    #[arg(long)]
    pub words: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
}

/// What `gen` and `repair` share.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    /// Write the final program here (else it is printed).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The event log (default: OUTPUT.log.jsonl, or FILE.log.jsonl for
    /// repair, or NAME.log.jsonl).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Use the lessons memory: send the lessons of earlier repairs of the
    /// same errors with the feedback, and keep a lesson whenever a patch
    /// fixes an error (spec/memory.md).
    #[arg(long)]
    pub lessons: bool,
    /// The lessons' store (with --lessons): file://PATH.jsonl or
    /// sqlite://PATH#NAMESPACE, PATH relative to the project root.
    #[arg(long, value_name = "URL", default_value = DEFAULT_STORE, requires = "lessons")]
    pub store: String,
    /// The project root the store's path is confined to (with --lessons;
    /// default: the nearest folder holding isu-plugins.toml or .git).
    #[arg(long, value_name = "DIR", requires = "lessons")]
    pub root: Option<PathBuf>,
    #[command(flatten)]
    pub format_flag: FormatFlag,
    /// How the command reports: its `--format`, else `isu --format`, else human.
    #[arg(skip)]
    pub format: Format,
}

/// `isu gen WORDS --name f --args .. --returns .. --example ..`.
pub fn gen(args: &GenArgs, manifest: Option<&Path>) -> Result<i32> {
    let task = Task {
        id: None,
        words: args.words.clone(),
        name: args.name.clone(),
        args: args.args.clone(),
        returns: args.returns.clone(),
        examples: args.examples.clone(),
        hidden: Vec::new(),
    };
    let log = args
        .run
        .log
        .clone()
        .or_else(|| {
            args.run
                .output
                .as_ref()
                .map(|o| with_suffix(o, ".log.jsonl"))
        })
        .unwrap_or_else(|| PathBuf::from(format!("{}.log.jsonl", task.name)));
    drive(task, None, &args.run, &log, manifest)
}

/// `isu repair FILE`.
pub fn repair(args: &RepairArgs, manifest: Option<&Path>) -> Result<i32> {
    let src = read_source(&args.file)?;
    let fe = pipeline::parse_canonical(&src);
    let Some(program) = fe.program.as_ref() else {
        super::output::report(args.run.format, &fe.diags, Some(&src), Vec::new())?;
        eprintln!(
            "{}: the program's FUNC and IO must parse to say what to repair it towards",
            src.name
        );
        return Ok(crate::diag::exit_code(&fe.diags));
    };
    let decls: Vec<String> = program
        .func
        .args
        .iter()
        .map(|d| format!("{}: {}", d.name.name, d.ty))
        .collect();
    let lit = |l: &isu_plugin_api::Literal| serde_json::to_value(l).unwrap_or(Value::Null);
    let task = Task {
        id: None,
        words: args
            .words
            .clone()
            .unwrap_or_else(|| "the function below; it must pass its IO examples".to_owned()),
        name: program.func.name.name.clone(),
        args: decls.join(", "),
        returns: program.func.returns.to_string(),
        examples: program
            .io
            .input
            .iter()
            .zip(&program.io.output)
            .map(|(i, o)| Example {
                input: lit(&i.value),
                output: lit(&o.value),
            })
            .collect(),
        hidden: Vec::new(),
    };
    let log = args.run.log.clone().unwrap_or_else(|| {
        with_suffix(args.run.output.as_ref().unwrap_or(&args.file), ".log.jsonl")
    });
    drive(task, Some(src.text.clone()), &args.run, &log, manifest)
}

pub(super) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Checks the task, then runs the loop and reports.
fn drive(
    task: Task,
    start: Option<String>,
    run: &RunArgs,
    log_path: &Path,
    manifest: Option<&Path>,
) -> Result<i32> {
    let reg = registry(manifest, false);
    if let Err(errors) = task.check(&reg.functions) {
        return usage_errors(&errors, run.format);
    }
    let mut provider = match run.model.provider()? {
        Ok(p) => p,
        Err(why) => {
            eprintln!("error: {why}");
            return Ok(EXIT_USAGE);
        }
    };
    let mut lessons: Box<dyn Lessons> = if run.lessons {
        Box::new(StoreLessons::open(&run.store, run.root.as_deref())?)
    } else {
        Box::new(NoLessons)
    };
    let Some(options) = usage(run.model.options()) else {
        return Ok(EXIT_USAGE);
    };
    let config = Config {
        task,
        start,
        options: Options {
            lessons: run.lessons,
            ..options
        },
        model: run.model.model(),
    };
    // The log is written as the run goes, so that a run that is killed
    // leaves the events that led up to it.
    let file = Output::create(
        log_path,
        WriteOptions {
            as_it_goes: true,
            ..WriteOptions::default()
        },
    )
    .with_context(|| format!("creating the log {}", log_path.display()))?;
    let mut log = Log::to(Box::new(file));
    let mut clock = SystemClock::start();
    let format = run.format;
    let outcome = repair::run(
        &config,
        provider.as_mut(),
        lessons.as_mut(),
        &mut clock,
        &mut log,
        &reg.functions,
        &mut |r| report_round(r, format),
    );
    if let Some(e) = log.write_error() {
        anyhow::bail!("writing the log {}: {e}", log_path.display());
    }
    finish(&outcome, run.output.as_deref(), format)
}

/// The lessons memory of `--lessons`: a store of `spec/memory.md`.
pub(super) struct StoreLessons(Store);

impl StoreLessons {
    /// Opens the store `store` names (`--store`), its path under `root`
    /// (`--root`, else the project root found from here); a store that
    /// cannot be opened ends the command with its InputError.
    pub(super) fn open(store: &str, root: Option<&Path>) -> Result<StoreLessons> {
        let failure = |diag| anyhow::Error::new(super::Failure { diag, source: None });
        let root = match root {
            Some(dir) => ProjectRoot::at(dir),
            None => ProjectRoot::discover(Path::new(".")),
        }
        .map_err(failure)?;
        let url = StoreUrl::parse(store).map_err(failure)?;
        let store = Store::open(&url, &root).map_err(failure)?;
        Ok(StoreLessons(store))
    }
}

impl Lessons for StoreLessons {
    fn find(&mut self, error: &Diagnostic, step_kind: Option<&str>) -> Result<Vec<Value>, String> {
        let found = self.0.query(&Lesson::query_for(error, step_kind));
        found
            .map(|es| es.into_iter().map(|e| Value::Object(e.record)).collect())
            .map_err(|d| d.message)
    }

    fn keep(&mut self, lesson: &Lesson) -> Result<(), String> {
        let record = lesson.record().map_err(|d| d.message)?;
        self.0
            .add(&record, &MemoryClock)
            .map(|_| ())
            .map_err(|d| d.message)
    }
}

/// The task's errors, as a usage error.
fn usage_errors(errors: &[Diagnostic], format: Format) -> Result<i32> {
    match format {
        Format::Json => super::output::json_report(errors, Vec::new())?,
        Format::Human => super::output::human_diags(errors, None),
    }
    Ok(EXIT_USAGE)
}

/// One round, for people: a line on stderr as it ends.
pub fn report_round(r: &Round, format: Format) {
    if format != Format::Human {
        return;
    }
    let decision = r.decision.map_or("no decision", |d| d.as_str());
    let mut line = format!("round {}: {decision}", r.round);
    if !r.fixes.is_empty() {
        line.push_str(&format!(" (after fixing {})", r.fixes.join(", ")));
    }
    if r.applied == Some(false) {
        line.push_str(", patch refused");
    }
    if r.rejected > 0 {
        line.push_str(&format!(
            ", {} of {} replies off the contract",
            r.rejected, r.requests
        ));
    }
    line.push_str(&format!(", {} of {} examples pass", r.passed, r.examples));
    if !r.errors.is_empty() {
        line.push_str(&format!("; errors: {}", r.errors.join(", ")));
    }
    line.push_str(&format!(" ({} tokens)", r.tokens));
    eprintln!("{line}");
}

/// Writes `text`, what a run made, to `output` (`-o`), when there are both.
pub(super) fn write_output(output: Option<&Path>, text: Option<&str>) -> Result<()> {
    if let (Some(path), Some(text)) = (output, text) {
        write_file(path, text.as_bytes(), WriteOptions::default())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Prints the JSON report of a run: `outcome`, with `ok`.
pub(super) fn print_report(outcome: &impl serde::Serialize, ok: bool) -> Result<()> {
    let mut v = serde_json::to_value(outcome).context("serializing the report")?;
    if let Value::Object(o) = &mut v {
        o.insert("ok".into(), json!(ok));
    }
    print_json(&v)
}

/// Reports the outcome (and writes the program with `-o`); the exit code.
pub fn finish(outcome: &Outcome, output: Option<&Path>, format: Format) -> Result<i32> {
    write_output(output, outcome.program.as_deref())?;
    match format {
        Format::Json => print_report(outcome, outcome.status == Status::Passed)?,
        Format::Human => {
            let seconds = outcome.ms as f64 / 1000.0;
            let tokens = outcome.tokens.total();
            let rounds = outcome.rounds.len();
            match outcome.status {
                Status::Passed => eprintln!(
                    "passed: check and all {} examples, after {rounds} rounds ({tokens} tokens, {seconds:.1} s)",
                    outcome.examples
                ),
                s => {
                    eprintln!(
                        "stopped ({}): {} of {} examples pass, after {rounds} rounds ({tokens} tokens, {seconds:.1} s)",
                        s.as_str().replace('_', " "),
                        outcome.passed,
                        outcome.examples
                    );
                    if let Some(why) = &outcome.failure {
                        eprintln!("the model's server failed: {why}");
                    }
                    for e in &outcome.errors {
                        eprintln!("  {e}");
                    }
                }
            }
            if output.is_none() {
                if let Some(text) = &outcome.program {
                    print!("{text}");
                }
            }
        }
    }
    Ok(exit_code(outcome))
}

/// 0 when the program passes; the exit code of its first error's kind when
/// there is a program; 1 when the server failed; else [`EXIT_NO_PROGRAM`].
pub fn exit_code(outcome: &Outcome) -> i32 {
    if outcome.status == Status::Passed {
        return 0;
    }
    if outcome.status == Status::ProviderFailed && outcome.program.is_none() {
        return super::EXIT_FAILURE;
    }
    if outcome.program.is_none() {
        return EXIT_NO_PROGRAM;
    }
    let kind = outcome
        .errors
        .first()
        .and_then(|e| e.get("kind"))
        .and_then(Value::as_str);
    [
        Kind::ParseError,
        Kind::StaticError,
        Kind::RuntimeError,
        Kind::TestFail,
    ]
    .into_iter()
    .find(|k| Some(k.as_str()) == kind)
    .map_or(EXIT_NO_PROGRAM, Kind::exit_code)
}

/// `isu prompt`: the language reference a model is given.
pub fn prompt(manifest: Option<&Path>) -> Result<i32> {
    let reg = registry(manifest, false);
    print!("{}", prompt::reference(&reg.functions));
    Ok(0)
}

/// The packs of the manifest, for commands that only need their functions.
pub fn packs(manifest: Option<&Path>) -> Functions {
    registry(manifest, false).functions
}
