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
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One task's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
                let outcome = run_loop(&config, harness.log(task), harness, packs);
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
    mut log: Log,
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
        &mut log,
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
