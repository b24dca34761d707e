//! `isu eval TASKS.jsonl`: many tasks through the loop, judged on their
//! hidden examples; a table and the figures, or one JSON document.

use super::gen::{packs, ModelArgs};
use super::output::print_json;
use super::write::{Options as WriteOptions, Output};
use super::{Format, FormatFlag, EXIT_USAGE};
use crate::llm::eval::{self, Harness, TaskResult};
use crate::llm::events::Log;
use crate::llm::http::Http;
use crate::llm::provider::Provider;
use crate::llm::repair::{Clock, SystemClock};
use crate::llm::task::{read_tasks, Task};
use anyhow::{Context, Result};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tasks: JSON Lines of {"id", "words", "name", "args", "returns",
    /// "examples": [{"input", "output"}], "hidden": [...]}.
    pub tasks: PathBuf,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Tasks run at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: u32,
    /// Run only shard I of N (1-based): every N-th task from the I-th.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Write each task's event log here, as ID.jsonl (replayable).
    #[arg(long, value_name = "DIR")]
    pub logs: Option<PathBuf>,
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
}

impl Harness for Live<'_> {
    fn provider(&self) -> Box<dyn Provider> {
        Box::new(Http::new(self.config.clone()))
    }
    fn clock(&self) -> Box<dyn Clock> {
        Box::new(SystemClock::start())
    }
    fn log(&self, task: &Task) -> Log {
        let Some(dir) = self.logs else {
            return Log::new();
        };
        let path = dir.join(format!("{}.jsonl", task.id()));
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

pub fn eval(args: &Args, manifest: Option<&Path>) -> Result<i32> {
    let text = std::fs::read_to_string(&args.tasks)
        .with_context(|| format!("reading {}", args.tasks.display()))?;
    let tasks = match read_tasks(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {}: {e}", args.tasks.display());
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
    if let Some(dir) = &args.logs {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let harness = Live {
        config,
        logs: args.logs.as_deref(),
    };
    let format = args.format;
    let results = eval::run(
        &tasks,
        &args.model.options(),
        &args.model.model(),
        args.jobs as usize,
        &harness,
        &packs,
        &|r| {
            if format == Format::Human {
                eprintln!("{}: {}", r.id, line(r));
            }
        },
    );
    let summary = eval::summarize(&results);
    match args.format {
        Format::Json => print_json(&json!({ "tasks": results, "summary": summary }))?,
        Format::Human => print!("{}", table(&results, &summary)),
    }
    Ok(0)
}

fn line(r: &TaskResult) -> String {
    format!(
        "{} ({} of {} hidden examples), {}, {} rounds, {} tokens, {:.1} s",
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
