//! `isu eval`: many tasks through the loop, judged on the examples the
//! model never saw, with the figures the seed asks to watch: pass@1, the
//! rounds it took, the share of programs repaired within one or two patch
//! rounds, and what each task cost; with a round trip
//! ([`super::roundtrip`]), whether the program's description keeps its
//! meaning.

use super::events::Log;
use super::provider::Provider;
use super::repair::candidate::Candidate;
use super::repair::{self, Clock, Config, Lessons, NoLessons, Options, Outcome, Status};
use super::roundtrip::{self, RoundTrip};
use super::task::Task;
use crate::functions::Functions;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One task's result (a task of the JSON report, which
/// `crate::report::eval_page` reads back).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    pub id: String,
    pub status: Status,
    /// Whether the final program passes every hidden example (every shown
    /// one when the task holds none back).
    pub passed: bool,
    /// Hidden examples the final program passes, of how many.
    pub hidden_passed: usize,
    pub hidden: usize,
    pub rounds: usize,
    /// The round whose program first passed the shown examples.
    pub passed_in_round: Option<u32>,
    pub tokens: u64,
    pub ms: u64,
    /// The task's event log, as `isu eval --logs` wrote it (its page is
    /// beside it, `.html` for `.jsonl`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<String>,
    /// The round trip (`--roundtrip`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roundtrip: Option<RoundTrip>,
}

/// The figures of a set of results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub tasks: usize,
    /// Tasks whose program passes its hidden examples.
    pub passed: usize,
    /// `passed / tasks`.
    pub pass_at_1: f64,
    /// For each round, how many tasks first passed their shown examples in
    /// it (`"0"`: none did).
    pub rounds_to_pass: BTreeMap<String, usize>,
    /// Tasks whose round-1 program did not pass.
    pub failed_first: usize,
    /// Of those, how many passed in round 2 (one repair round).
    pub fixed_within_one: usize,
    /// Of those, how many passed in round 2 or 3 (one or two repair rounds).
    pub fixed_within_two: usize,
    /// `fixed_within_two / failed_first` (0 when none failed).
    pub fixed_share: f64,
    pub tokens_per_task: f64,
    pub ms_per_task: f64,
    /// How many tasks ended each way.
    pub statuses: BTreeMap<String, usize>,
    /// The round trips' figures (`--roundtrip`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roundtrip: Option<RoundTripSummary>,
}

/// The figures of the round trips of a set of results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundTripSummary {
    /// Tasks with a round-trip score (A validated and some input ran).
    pub tasks: usize,
    /// The mean of their scores.
    pub score: f64,
    /// Inputs on which A and B agree, of how many, over those tasks.
    pub agreed: usize,
    pub inputs: usize,
    /// Tasks whose score is 1.
    pub perfect: usize,
    /// Tokens of the descriptions and of B's loops, per task with a round trip.
    pub tokens_per_task: f64,
}

/// The figures of the round trips of `results`, when they had any.
pub fn summarize_roundtrips(results: &[TaskResult]) -> Option<RoundTripSummary> {
    let trips: Vec<&RoundTrip> = results
        .iter()
        .filter_map(|r| r.roundtrip.as_ref())
        .collect();
    if trips.is_empty() {
        return None;
    }
    let scores: Vec<f64> = trips.iter().filter_map(|t| t.score).collect();
    let scored = trips.iter().filter(|t| t.score.is_some());
    Some(RoundTripSummary {
        tasks: scores.len(),
        score: if scores.is_empty() {
            0.0
        } else {
            scores.iter().sum::<f64>() / scores.len() as f64
        },
        agreed: scored.clone().map(|t| t.agreed).sum(),
        inputs: scored.map(|t| t.inputs).sum(),
        perfect: scores.iter().filter(|&&s| s == 1.0).count(),
        tokens_per_task: trips.iter().map(|t| t.tokens).sum::<u64>() as f64 / trips.len() as f64,
    })
}

/// Judges a final program on the task's hidden examples: how many hold, of
/// how many.
pub fn judge(task: &Task, program: Option<&str>, packs: &Functions) -> (usize, usize) {
    let mut held_back = task.clone();
    if !task.hidden.is_empty() {
        held_back.examples = task.hidden.clone();
    }
    let total = held_back.examples.len();
    match program {
        Some(text) => {
            let c = Candidate::evaluate(text, &held_back, packs);
            (c.passed, total)
        }
        None => (0, total),
    }
}

/// The result of one task from its outcome.
pub fn result(task: &Task, outcome: &Outcome, packs: &Functions) -> TaskResult {
    let (hidden_passed, hidden) = judge(task, outcome.program.as_deref(), packs);
    TaskResult {
        id: task.id().to_owned(),
        status: outcome.status,
        passed: outcome.program.is_some() && hidden_passed == hidden,
        hidden_passed,
        hidden,
        rounds: outcome.rounds.len(),
        passed_in_round: outcome.passed_in_round,
        tokens: outcome.tokens.total(),
        ms: outcome.ms,
        log: None,
        roundtrip: None,
    }
}

/// The figures of `results`.
pub fn summarize(results: &[TaskResult]) -> Summary {
    let tasks = results.len();
    let passed = results.iter().filter(|r| r.passed).count();
    let mut rounds_to_pass = BTreeMap::new();
    let mut statuses = BTreeMap::new();
    for r in results {
        let key = r.passed_in_round.map_or("0".to_owned(), |n| n.to_string());
        *rounds_to_pass.entry(key).or_insert(0) += 1;
        *statuses.entry(r.status.as_str().to_owned()).or_insert(0) += 1;
    }
    let failed_first = results
        .iter()
        .filter(|r| r.rounds >= 1 && r.passed_in_round.is_none_or(|n| n > 1))
        .count();
    let fixed_within_one = results
        .iter()
        .filter(|r| r.passed_in_round == Some(2))
        .count();
    let fixed_within_two = results
        .iter()
        .filter(|r| matches!(r.passed_in_round, Some(2 | 3)))
        .count();
    let share = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let sum = |f: fn(&TaskResult) -> u64| results.iter().map(f).sum::<u64>() as f64;
    Summary {
        tasks,
        passed,
        pass_at_1: share(passed, tasks),
        rounds_to_pass,
        failed_first,
        fixed_within_one,
        fixed_within_two,
        fixed_share: share(fixed_within_two, failed_first),
        tokens_per_task: if tasks == 0 {
            0.0
        } else {
            sum(|r| r.tokens) / tasks as f64
        },
        ms_per_task: if tasks == 0 {
            0.0
        } else {
            sum(|r| r.ms) / tasks as f64
        },
        statuses,
        roundtrip: summarize_roundtrips(results),
    }
}

/// What each task of a run needs that only the caller can make: a provider,
/// a clock, the log to write, and the lessons memory.
pub trait Harness: Sync {
    fn provider(&self) -> Box<dyn Provider>;
    fn clock(&self) -> Box<dyn Clock>;
    fn log(&self, task: &Task) -> Log;
    /// The log of another run of a task's: its description (`part` is
    /// `explain`) or its program B (`b`) in a round trip; by default kept in
    /// memory only.
    fn log_of(&self, _task: &Task, _part: &str) -> Log {
        Log::new()
    }
    /// The lessons memory a task's loop reads and adds to (with
    /// `Options::lessons`); by default none.
    fn lessons(&self) -> Box<dyn Lessons + '_> {
        Box::new(NoLessons)
    }
    /// Hears of a task's run as it ends, with its whole log; by default
    /// nothing (`isu eval --logs` writes the run's page beside its log).
    fn done(&self, _task: &Task, _log: &Log) {}
}

/// Runs every task through the loop on `jobs` threads, and with
/// `roundtrip` through a round trip after it; the results in task order,
/// whatever order they finished in. `on_done` hears of each.
#[allow(clippy::too_many_arguments)]
pub fn run(
    tasks: &[Task],
    options: &Options,
    model: &str,
    jobs: usize,
    roundtrip: Option<roundtrip::Settings>,
    harness: &dyn Harness,
    packs: &Functions,
    on_done: &(dyn Fn(&TaskResult) + Sync),
) -> Vec<TaskResult> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<TaskResult>>> = Mutex::new(vec![None; tasks.len()]);
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, tasks.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(task) = tasks.get(i) else { break };
                let config = Config {
                    task: task.clone(),
                    start: None,
                    options: options.clone(),
                    model: model.to_owned(),
                };
                let mut log = harness.log(task);
                let outcome = run_loop(&config, &mut log, harness, packs);
                harness.done(task, &log);
                let mut r = result(task, &outcome, packs);
                if let Some(settings) = roundtrip {
                    r.roundtrip = Some(roundtrip::run(
                        task, &outcome, options, model, settings, harness, packs,
                    ));
                }
                on_done(&r);
                if let Ok(mut all) = results.lock() {
                    all[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

/// The loop of `config`, with the provider, clock and lessons of `harness`,
/// writing `log`.
pub fn run_loop(
    config: &Config,
    log: &mut Log,
    harness: &dyn Harness,
    packs: &Functions,
) -> Outcome {
    let mut provider = harness.provider();
    let mut clock = harness.clock();
    let mut lessons = harness.lessons();
    repair::run(
        config,
        provider.as_mut(),
        lessons.as_mut(),
        clock.as_mut(),
        log,
        packs,
        &mut |_| {},
    )
}

/// Which tasks shard `i` of `n` (1-based) runs: every n-th, from the i-th.
pub fn shard<T: Clone>(tasks: &[T], i: usize, n: usize) -> Vec<T> {
    tasks
        .iter()
        .enumerate()
        .filter(|(k, _)| n > 0 && k % n == i.saturating_sub(1))
        .map(|(_, t)| t.clone())
        .collect()
}

/// Which part of a run a report holds: shard `index` of `count` (1-based),
/// of a task file of `tasks` tasks whose text hashes to `digest`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardOf {
    pub index: usize,
    pub count: usize,
    /// The tasks of the whole file, every shard's together.
    pub tasks: usize,
    /// The hex SHA-256 of the task file's text: shards of different files
    /// do not merge.
    pub digest: String,
}

/// A run's report: `isu eval --format json` writes it (with its
/// [`Summary`], computed from the tasks), `isu eval --merge` reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub model: String,
    pub lessons: bool,
    /// The lessons' store, with `lessons`.
    pub store: Option<String>,
    /// `None` for a whole run (or shards merged into one).
    pub shard: Option<ShardOf>,
    /// The results, in task order.
    pub tasks: Vec<TaskResult>,
    /// The round trips' settings (`--roundtrip`); absent without them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roundtrip: Option<roundtrip::Settings>,
}

impl Report {
    /// The report as JSON, with its summary.
    pub fn to_json(&self) -> Value {
        let mut doc = json!({
            "model": self.model,
            "lessons": self.lessons,
            "store": self.store,
            "shard": self.shard,
            "tasks": self.tasks,
            "summary": summarize(&self.tasks),
        });
        if let (Some(settings), Some(obj)) = (self.roundtrip, doc.as_object_mut()) {
            obj.insert("roundtrip".into(), json!(settings));
        }
        doc
    }
}

/// One report of the shards of a run, all of them, in task order: the
/// report the run would have given in one piece. `parts` are named (by their
/// files) for the errors, which say what does not fit.
pub fn merge(parts: &[(String, Report)]) -> Result<Report, String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("no reports to merge".into());
    };
    let mut shards: Vec<(&str, &ShardOf, &Report)> = Vec::new();
    for (name, report) in parts {
        let Some(shard) = &report.shard else {
            return Err(format!(
                "{name} is the report of a whole run, not of a shard (`isu eval --shard I/N`)"
            ));
        };
        shards.push((name, shard, report));
    }
    let (_, one, _) = shards[0];
    for &(name, shard, report) in &shards {
        if (shard.count, shard.tasks, &shard.digest) != (one.count, one.tasks, &one.digest) {
            return Err(format!(
                "{name} is shard {}/{} of a file of {} tasks (sha256 {}), {first_name} shard {}/{} of {} tasks (sha256 {}): shards of one run only",
                shard.index, shard.count, shard.tasks, shard.digest, one.index, one.count, one.tasks, one.digest
            ));
        }
        let same_run = (
            &report.model,
            report.lessons,
            &report.store,
            report.roundtrip,
        ) == (&first.model, first.lessons, &first.store, first.roundtrip);
        if !same_run {
            return Err(format!(
                "{name} ran model {} with lessons {} and round trips {}, {first_name} model {} with lessons {} and round trips {}: shards of one run only",
                report.model,
                lessons_of(report),
                roundtrips_of(report),
                first.model,
                lessons_of(first),
                roundtrips_of(first)
            ));
        }
        let expected = self::shard(&vec![(); one.tasks], shard.index, one.count).len();
        if shard.index == 0 || shard.index > one.count || report.tasks.len() != expected {
            return Err(format!(
                "{name} holds {} results for shard {}/{} of {} tasks, which has {expected}",
                report.tasks.len(),
                shard.index,
                shard.count,
                one.tasks
            ));
        }
    }
    let mut by_index: Vec<Option<(&str, &Report)>> = vec![None; one.count];
    for &(name, shard, report) in &shards {
        if let Some((other, _)) = by_index[shard.index - 1] {
            return Err(format!(
                "{other} and {name} are both shard {}/{}",
                shard.index, shard.count
            ));
        }
        by_index[shard.index - 1] = Some((name, report));
    }
    let absent: Vec<String> = (1..=one.count)
        .filter(|i| by_index[i - 1].is_none())
        .map(|i| format!("{i}/{}", one.count))
        .collect();
    if !absent.is_empty() {
        return Err(format!(
            "shard {} missing: merge the reports of every shard of the run",
            absent.join(", ")
        ));
    }
    // Shard i holds the tasks k with k % count == i - 1, in order.
    let tasks = (0..one.tasks)
        .filter_map(|k| {
            let (_, report) = by_index[k % one.count]?;
            report.tasks.get(k / one.count).cloned()
        })
        .collect();
    Ok(Report {
        model: first.model.clone(),
        lessons: first.lessons,
        store: first.store.clone(),
        shard: None,
        tasks,
        roundtrip: first.roundtrip,
    })
}

/// A report's round-trip settings, for the errors of [`merge`].
fn roundtrips_of(report: &Report) -> String {
    match report.roundtrip {
        Some(s) => format!("of {} inputs, seed {}", s.inputs, s.seed),
        None => "none".to_owned(),
    }
}

fn lessons_of(report: &Report) -> String {
    match (&report.store, report.lessons) {
        (Some(store), true) => format!("on (store {store})"),
        _ => "off".into(),
    }
}

#[cfg(test)]
mod tests;
