//! `isu eval TASKS.jsonl`: many tasks through the loop, judged on their
//! hidden examples; a table and the figures, or one JSON document. With
//! `--roundtrip`, each program also goes through a round trip (described,
//! written again from the description, both run and compared), and the
//! inputs on which the two disagree are written to `--out DIR`.
//! `isu eval --merge REPORT...`: the JSON reports of a run's shards
//! (`--shard I/N` on many machines) as one, the report of the whole run.

use super::gen::{packs, usage, ModelArgs, StoreLessons};
use super::output::{print_json, read_report};
use super::write::{refuse_dash, write_file, Options as WriteOptions, Output};
use super::Failure;
use super::{Format, FormatFlag, EXIT_USAGE};
use crate::llm::eval::{self, Harness, Report, RoundTripSummary, ShardOf, TaskResult};
use crate::llm::events::{hash, Log};
use crate::llm::http::Http;
use crate::llm::provider::Provider;
use crate::llm::repair::{Clock, Lessons, NoLessons, Options, SystemClock};
use crate::llm::roundtrip::{self, RoundTrip};
use crate::llm::task::{read_tasks, Task};
use crate::memory::{Lesson, DEFAULT_STORE};
use crate::report;
use anyhow::{Context, Result};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tasks: JSON Lines of {"id", "words", "name", "args", "returns",
    /// "examples": [{"input", "output"}], "hidden": [...]}.
    #[arg(required_unless_present = "merge")]
    pub tasks: Option<PathBuf>,
    /// Merge the JSON reports of every shard of a run (`--shard I/N
    /// --format json`) into the report of the whole run, asking no model.
    #[arg(long, value_name = "REPORT", num_args = 1.., conflicts_with_all = ["tasks", "shard"])]
    pub merge: Vec<PathBuf>,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Tasks run at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: u32,
    /// Run only shard I of N (1-based): every N-th task from the I-th.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Write each task's event log here, as ID.jsonl (replayable), and
    /// its page beside it, as ID.html.
    #[arg(long, value_name = "DIR")]
    pub logs: Option<PathBuf>,
    /// Write the evaluation as one self-contained HTML page here: pass@1,
    /// the repair figures, charts of rounds and tokens, and the tasks
    /// (linked to their pages with --logs).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Use the lessons memory in every task's loop, as `isu gen --lessons`
    /// does: the tasks read the lessons earlier tasks (and runs) kept.
    /// Compare a run with and one without.
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
    /// After each task's loop, a round trip: the model describes the
    /// program A in words, the loop writes B from the description (A's
    /// signature, no examples), and A and B run on the task's examples and
    /// on random inputs; the score is the share on which they agree.
    #[arg(long)]
    pub roundtrip: bool,
    /// Random inputs of the signature in each round trip, besides the task's
    /// examples.
    #[arg(long, value_name = "N", default_value_t = 20, requires = "roundtrip")]
    pub inputs: usize,
    /// The seed of the random inputs (the same seed draws the same inputs).
    #[arg(long, default_value_t = 0, requires = "roundtrip")]
    pub seed: u64,
    /// Write the inputs on which A and B disagree here, as ID.isu: program A
    /// with them as IO (A's answers as OUTPUT) and as conformance `; run:`
    /// lines.
    #[arg(long, value_name = "DIR", requires = "roundtrip")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub format_flag: FormatFlag,
    /// How the command reports: its `--format`, else `isu --format`, else human.
    #[arg(skip)]
    pub format: Format,
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}` is not I/N with 1 <= I <= N, e.g. 2/4");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

struct Live<'a> {
    config: crate::llm::http::HttpConfig,
    logs: Option<&'a Path>,
    /// The store of `--lessons`, one for every task's loop.
    store: Option<Mutex<StoreLessons>>,
}

/// The one store of a run, lent to a task's loop: each lookup and addition
/// holds it alone, so tasks running at once see each other's lessons.
struct Shared<'a>(&'a Mutex<StoreLessons>);

impl Lessons for Shared<'_> {
    fn find(
        &mut self,
        error: &crate::diag::Diagnostic,
        step_kind: Option<&str>,
    ) -> std::result::Result<Vec<Value>, String> {
        let mut store = self
            .0
            .lock()
            .map_err(|_| "the lessons store was dropped by a task that failed".to_owned())?;
        store.find(error, step_kind)
    }

    fn keep(&mut self, lesson: &Lesson) -> std::result::Result<(), String> {
        let mut store = self
            .0
            .lock()
            .map_err(|_| "the lessons store was dropped by a task that failed".to_owned())?;
        store.keep(lesson)
    }
}

impl Harness for Live<'_> {
    fn provider(&self) -> Box<dyn Provider> {
        Box::new(Http::new(self.config.clone()))
    }
    fn clock(&self) -> Box<dyn Clock> {
        Box::new(SystemClock::start())
    }
    fn log(&self, task: &Task) -> Log {
        self.log_named(&format!("{}.jsonl", task.id()))
    }
    fn log_of(&self, task: &Task, part: &str) -> Log {
        self.log_named(&format!("{}.{part}.jsonl", task.id()))
    }
    fn lessons(&self) -> Box<dyn Lessons + '_> {
        match &self.store {
            Some(store) => Box::new(Shared(store)),
            None => Box::new(NoLessons),
        }
    }
    /// Writes the run's page beside its log (`isu replay LOG --html`'s page).
    fn done(&self, task: &Task, log: &Log) {
        let Some(dir) = self.logs else { return };
        let path = log_path(dir, task.id()).with_extension("html");
        let page = report::run_page(log.lines(), None);
        if let Err(e) = write_file(&path, page.as_bytes(), WriteOptions::default()) {
            tracing::warn!("cannot write the page {}: {e:#}", path.display());
        }
    }
}

impl Live<'_> {
    /// The log `DIR/NAME` of `--logs DIR`, written as the run goes; without
    /// `--logs`, one kept in memory.
    fn log_named(&self, name: &str) -> Log {
        let Some(dir) = self.logs else {
            return Log::new();
        };
        let path = dir.join(name);
        let options = WriteOptions {
            as_it_goes: true,
            ..WriteOptions::default()
        };
        match Output::create(&path, options) {
            Ok(f) => Log::to(Box::new(f)),
            Err(e) => {
                tracing::warn!("cannot create the log {}: {e}", path.display());
                Log::new()
            }
        }
    }
}

/// Where `--logs DIR` keeps the log of task `id`.
fn log_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.jsonl"))
}

pub fn eval(args: &Args, manifest: Option<&Path>) -> Result<i32> {
    if let Some(html) = &args.html {
        refuse_dash(html)?;
    }
    let Some(file) = &args.tasks else {
        return merge(&args.merge, args.format, args.html.as_deref());
    };
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let tasks = match read_tasks(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return Ok(EXIT_USAGE);
        }
    };
    let packs = packs(manifest);
    let mut bad = Vec::new();
    for t in &tasks {
        if let Err(errors) = t.check(&packs) {
            bad.extend(errors);
        }
    }
    if !bad.is_empty() {
        match args.format {
            Format::Json => super::output::json_report(&bad, Vec::new())?,
            Format::Human => super::output::human_diags(&bad, None),
        }
        return Ok(EXIT_USAGE);
    }
    let shard = args.shard.map(|(index, count)| ShardOf {
        index,
        count,
        tasks: tasks.len(),
        digest: hash(&text),
    });
    let tasks = match args.shard {
        Some((i, n)) => eval::shard(&tasks, i, n),
        None => tasks,
    };
    if args.model.replies.is_some() {
        eprintln!(
            "error: isu eval asks a server (--url or $ISU_LLM_URL); --replies is for one run"
        );
        return Ok(EXIT_USAGE);
    }
    let Some(config) = args.model.http() else {
        eprintln!(
            "error: no model to ask: pass --url (or set {}) to an OpenAI-compatible server",
            crate::llm::http::URL_ENV
        );
        return Ok(EXIT_USAGE);
    };
    // A store that cannot be opened ends the run before anything is asked.
    let store = if args.lessons {
        Some(Mutex::new(StoreLessons::open(
            &args.store,
            args.root.as_deref(),
        )?))
    } else {
        None
    };
    for dir in [&args.logs, &args.out].into_iter().flatten() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let settings = args.roundtrip.then_some(roundtrip::Settings {
        inputs: args.inputs,
        seed: args.seed,
    });
    let harness = Live {
        config,
        logs: args.logs.as_deref(),
        store,
    };
    let format = args.format;
    let Some(options) = usage(args.model.options()) else {
        return Ok(EXIT_USAGE);
    };
    let options = Options {
        lessons: args.lessons,
        ..options
    };
    let mut results = eval::run(
        &tasks,
        &options,
        &args.model.model(),
        args.jobs as usize,
        settings,
        &harness,
        &packs,
        &|r| {
            if format == Format::Human {
                eprintln!("{}: {}", r.id, line(r));
            }
        },
    );
    if let Some(dir) = &args.logs {
        for r in &mut results {
            r.log = Some(log_path(dir, &r.id).display().to_string());
        }
    }
    if let Some(dir) = &args.out {
        write_cases(dir, &mut results, format)?;
    }
    let report = Report {
        model: args.model.model(),
        lessons: args.lessons,
        store: args.lessons.then(|| args.store.clone()),
        shard,
        tasks: results,
        roundtrip: settings,
    };
    print_report(&report, args.format, args.html.as_deref())?;
    Ok(0)
}

/// `isu eval --merge`: reads the shards' reports and prints the whole run's
/// (and writes its page, with `--html`).
fn merge(files: &[PathBuf], format: Format, html: Option<&Path>) -> Result<i32> {
    let mut parts = Vec::new();
    for file in files {
        let report: Report = read_report(file, "isu eval", "isu eval TASKS")?;
        parts.push((file.display().to_string(), report));
    }
    let report = eval::merge(&parts).map_err(|m| {
        Failure::usage(
            m,
            "merge the reports of every shard I/N of one run, each once, as `isu eval --merge shard-*.json`",
        )
    })?;
    print_report(&report, format, html)?;
    Ok(0)
}

/// A run's report: the JSON document, or the table and the figures; and its
/// page, with `--html`.
fn print_report(report: &Report, format: Format, html: Option<&Path>) -> Result<()> {
    let document = report.to_json();
    if let Some(html) = html {
        let page = report::eval_page(&document, html).map_err(anyhow::Error::msg)?;
        write_file(html, page.as_bytes(), WriteOptions::default())
            .with_context(|| format!("writing {}", html.display()))?;
    }
    match format {
        Format::Json => print_json(&document)?,
        Format::Human => {
            let summary = eval::summarize(&report.tasks);
            print!("{}", table(&report.tasks, &summary));
            if let (Some(settings), Some(s)) = (report.roundtrip, &summary.roundtrip) {
                print!("{}", roundtrip_table(&report.tasks, s, settings));
            }
            println!("{}", lessons_line(report.store.as_deref()));
        }
    }
    Ok(())
}

/// Writes the case of each round trip that kept inputs to `dir/ID.isu`,
/// and says where in its result.
fn write_cases(dir: &Path, results: &mut [TaskResult], format: Format) -> Result<()> {
    for r in results {
        let Some(rt) = r.roundtrip.as_mut() else {
            continue;
        };
        let Some(case) = &rt.case else { continue };
        let path = dir.join(format!("{}.isu", r.id));
        super::write::write_file(&path, case.as_bytes(), WriteOptions::default())
            .with_context(|| format!("writing {}", path.display()))?;
        if format == Format::Human {
            eprintln!(
                "{}: {} inputs on which A and B disagree written to {}",
                r.id,
                rt.disagreements.len(),
                path.display()
            );
        }
        rt.case_file = Some(path.display().to_string());
    }
    Ok(())
}

/// The round trips as a table, then their figures.
fn roundtrip_table(
    results: &[TaskResult],
    s: &RoundTripSummary,
    settings: roundtrip::Settings,
) -> String {
    let width = results.iter().map(|r| r.id.len()).max().unwrap_or(4).max(4);
    let mut out = format!(
        "\nround trip (A described, B written from the words; the task's examples and {} random inputs, seed {}):\n{:<width$}  {:>5}  {:>7}  {:<15}  {:>4}  why\n",
        settings.inputs, settings.seed, "task", "score", "agreed", "B", "kept"
    );
    for r in results {
        let Some(rt) = &r.roundtrip else { continue };
        let row = format!(
            "{:<width$}  {:>5}  {:>7}  {:<15}  {:>4}  {}",
            r.id,
            rt.score.map_or("-".to_owned(), |x| format!("{x:.3}")),
            format!("{}/{}", rt.agreed, rt.inputs),
            rt.b_status.map_or("-", |st| st.as_str()),
            rt.disagreements.len(),
            rt.reason.as_deref().unwrap_or(""),
        );
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out.push_str(&format!(
        "round trip (A and B agree): mean {:.3} over {} tasks ({} at 1.000); {}/{} inputs; tokens per task: {:.0}\n",
        s.score, s.tasks, s.perfect, s.agreed, s.inputs, s.tokens_per_task
    ));
    out
}

/// A round trip, for the line of a task as it ends.
fn roundtrip_line(rt: &RoundTrip) -> String {
    match rt.score {
        Some(x) => format!(
            "; round trip {x:.3} ({} of {} inputs agree)",
            rt.agreed, rt.inputs
        ),
        None => format!("; no round trip ({})", rt.reason.as_deref().unwrap_or("")),
    }
}

/// Whether the run used the lessons memory, and which store: the line that
/// tells a run with lessons from one without.
fn lessons_line(store: Option<&str>) -> String {
    match store {
        Some(url) => format!("lessons: on (store {url})"),
        None => "lessons: off".to_owned(),
    }
}

fn line(r: &TaskResult) -> String {
    let roundtrip = r.roundtrip.as_ref().map_or(String::new(), roundtrip_line);
    format!(
        "{} ({} of {} hidden examples), {}, {} rounds, {} tokens, {:.1} s{roundtrip}",
        if r.passed { "pass" } else { "fail" },
        r.hidden_passed,
        r.hidden,
        r.status.as_str(),
        r.rounds,
        r.tokens,
        r.ms as f64 / 1000.0
    )
}

/// The results as a table, then the figures.
pub fn table(results: &[TaskResult], s: &eval::Summary) -> String {
    let width = results.iter().map(|r| r.id.len()).max().unwrap_or(4).max(4);
    let mut out = format!(
        "{:<width$}  {:<4}  {:>6}  {:<15}  {:>6}  {:>6}  {:>8}  {:>8}\n",
        "task", "pass", "hidden", "status", "rounds", "passed", "tokens", "seconds"
    );
    for r in results {
        out.push_str(&format!(
            "{:<width$}  {:<4}  {:>6}  {:<15}  {:>6}  {:>6}  {:>8}  {:>8.1}\n",
            r.id,
            if r.passed { "yes" } else { "no" },
            format!("{}/{}", r.hidden_passed, r.hidden),
            r.status.as_str(),
            r.rounds,
            r.passed_in_round.map_or("-".to_owned(), |n| n.to_string()),
            r.tokens,
            r.ms as f64 / 1000.0
        ));
    }
    let dist: Vec<String> = s
        .rounds_to_pass
        .iter()
        .map(|(k, v)| {
            if k == "0" {
                format!("never: {v}")
            } else {
                format!("round {k}: {v}")
            }
        })
        .collect();
    out.push_str(&format!(
        "\npass@1 (hidden examples): {}/{} = {:.3}\nfirst passed in: {}\nfixed within 1-2 repair rounds: {}/{} = {:.3}\ntokens per task: {:.0}; seconds per task: {:.1}\n",
        s.passed,
        s.tasks,
        s.pass_at_1,
        dist.join(", "),
        s.fixed_within_two,
        s.failed_first,
        s.fixed_share,
        s.tokens_per_task,
        s.ms_per_task / 1000.0
    ));
    out
}
