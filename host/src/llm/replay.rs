//! `isu replay`: the run of a recorded log (of the repair loop or of `isu
//! explain`) again, with the recorded replies instead of a model and the
//! recorded clock readings instead of the clock. The log it writes must be
//! the recorded one, byte for byte; where it is not, the first event that
//! differs is named.

use super::events::{self, BrokenLog, Event, Log};
use super::explain::{self, Explained};
use super::provider::{Completion, ProviderError, Scripted};
use super::repair::{self, Clock, Config, Lessons, Outcome, Round};
use crate::diag::Diagnostic;
use crate::functions::Functions;
use crate::memory::Lesson;
use serde_json::Value;
use std::collections::VecDeque;
use std::fmt;

/// A log read back: its lines, the configuration, the replies, the clock
/// readings and the memory's answers of the run. `C` is the configuration
/// of the job: the repair loop's, or `isu explain`'s.
#[derive(Debug, Clone)]
pub struct Recorded<C = Config> {
    pub lines: Vec<String>,
    pub config: C,
    replies: Vec<Result<Completion, ProviderError>>,
    readings: Vec<u64>,
    lessons: RecordedLessons,
}

/// Why a log cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// The hash chain is broken: the log was changed.
    Broken(BrokenLog),
    /// The chain holds, but an event is not what the loop writes.
    Malformed { line: usize, why: String },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Broken(b) => write!(f, "the log does not hold together at {b}"),
            LoadError::Malformed { line, why } => write!(f, "line {line}: {why}"),
        }
    }
}

/// A log of either job, read back.
#[derive(Debug, Clone)]
pub enum Recording {
    /// `isu gen`, `isu repair`, a task of `isu eval`.
    Repair(Recorded),
    /// `isu explain`, or the description of a round trip.
    Explain(Recorded<explain::Config>),
}

/// Reads a log of the repair loop: checks its chain, then takes out what a
/// replay needs.
pub fn load(text: &str) -> Result<Recorded, LoadError> {
    match load_any(text)? {
        Recording::Repair(r) => Ok(r),
        Recording::Explain(_) => Err(LoadError::Malformed {
            line: 1,
            why: "a log of isu explain, not of the repair loop".into(),
        }),
    }
}

/// Reads a log of either job: its configuration event holds `config` (the
/// repair loop) or `explain`.
pub fn load_any(text: &str) -> Result<Recording, LoadError> {
    let events = events::read(text).map_err(LoadError::Broken)?;
    let (_, first) = &events[0];
    if first.get("event").and_then(Value::as_str) != Some("config") {
        return Err(malformed(
            1,
            "the first event is not the configuration".into(),
        ));
    }
    if let Some(c) = first.get("explain") {
        let config = configuration(c)?;
        return Ok(Recording::Explain(recorded(events, config)?));
    }
    let config = first
        .get("config")
        .ok_or_else(|| malformed(1, "the configuration event has no `config`".into()))
        .and_then(configuration)?;
    Ok(Recording::Repair(recorded(events, config)?))
}

fn malformed(line: usize, why: String) -> LoadError {
    LoadError::Malformed { line, why }
}

/// The configuration of the first event.
fn configuration<C: serde::de::DeserializeOwned>(c: &Value) -> Result<C, LoadError> {
    serde_json::from_value(c.clone()).map_err(|e| malformed(1, format!("the configuration: {e}")))
}

/// What a replay needs of `events`, the events of a run of `config`.
fn recorded<C>(events: Vec<(String, Event)>, config: C) -> Result<Recorded<C>, LoadError> {
    let mut replies = Vec::new();
    let mut readings = Vec::new();
    let mut lessons = RecordedLessons::default();
    for (i, (_, e)) in events.iter().enumerate() {
        if let Some(ms) = e.get("ms") {
            readings.push(
                ms.as_u64()
                    .ok_or_else(|| malformed(i + 1, "`ms` is not a number".into()))?,
            );
        }
        match kind(e) {
            "reply" => {
                let reply = e.get("reply").cloned().unwrap_or(Value::Null);
                let c: Completion = serde_json::from_value(reply)
                    .map_err(|err| malformed(i + 1, format!("the reply: {err}")))?;
                replies.push(Ok(c));
            }
            "provider_error" => {
                let why = e.get("error").and_then(Value::as_str).ok_or_else(|| {
                    malformed(i + 1, "the provider error has no `error` text".into())
                })?;
                replies.push(Err(ProviderError::Recorded(why.to_owned())));
            }
            "lessons" => lessons
                .found
                .push_back(match e.get("error").and_then(Value::as_str) {
                    Some(why) => Err(why.to_owned()),
                    None => Ok(e
                        .get("found")
                        .and_then(Value::as_array)
                        .cloned()
                        .ok_or_else(|| {
                            malformed(i + 1, "the lessons event has no `found`".into())
                        })?),
                }),
            "lesson" => lessons
                .kept
                .push_back(match e.get("error").and_then(Value::as_str) {
                    Some(why) => Err(why.to_owned()),
                    None => Ok(()),
                }),
            _ => {}
        }
    }
    Ok(Recorded {
        lines: events.into_iter().map(|(l, _)| l).collect(),
        config,
        replies,
        readings,
        lessons,
    })
}

/// The memory's recorded answers, in order: a replay neither reads nor
/// writes the store. Past the last, none found and nothing kept.
#[derive(Debug, Clone, Default)]
struct RecordedLessons {
    found: VecDeque<Result<Vec<Value>, String>>,
    kept: VecDeque<Result<(), String>>,
}

impl Lessons for RecordedLessons {
    fn find(&mut self, _: &Diagnostic, _: Option<&str>) -> Result<Vec<Value>, String> {
        self.found.pop_front().unwrap_or(Ok(Vec::new()))
    }
    fn keep(&mut self, _: &Lesson) -> Result<(), String> {
        self.kept.pop_front().unwrap_or(Ok(()))
    }
}

fn kind(e: &Event) -> &str {
    e.get("event").and_then(Value::as_str).unwrap_or("")
}

/// The recorded clock readings, in order; past the last, the last again.
#[derive(Debug, Clone)]
pub struct Readings {
    queue: VecDeque<u64>,
    last: u64,
}

impl Readings {
    pub fn new(readings: impl IntoIterator<Item = u64>) -> Readings {
        Readings {
            queue: readings.into_iter().collect(),
            last: 0,
        }
    }
}

impl Clock for Readings {
    fn now_ms(&mut self) -> u64 {
        if let Some(ms) = self.queue.pop_front() {
            self.last = ms;
        }
        self.last
    }
}

/// Where a replay parted from the recording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The `seq` of the first line that differs.
    pub seq: usize,
    /// The event it is in the recording (or the replay, past the end).
    pub event: String,
    pub recorded: Option<String>,
    pub replayed: Option<String>,
}

/// A replay: its outcome, its log, and where it differs from the recording.
#[derive(Debug)]
pub struct Replayed<O = Outcome> {
    pub outcome: O,
    pub log: Log,
    pub difference: Option<Difference>,
}

/// Runs the loop of `recorded` again.
pub fn replay(
    recorded: &Recorded,
    packs: &Functions,
    on_round: &mut dyn FnMut(&Round),
) -> Replayed {
    let mut provider = Scripted::new(recorded.replies.iter().cloned());
    let mut clock = Readings::new(recorded.readings.iter().copied());
    let mut lessons = recorded.lessons.clone();
    let mut log = Log::new();
    let outcome = repair::run(
        &recorded.config,
        &mut provider,
        &mut lessons,
        &mut clock,
        &mut log,
        packs,
        on_round,
    );
    let difference = difference(&recorded.lines, &log);
    Replayed {
        outcome,
        log,
        difference,
    }
}

/// Runs the `isu explain` of `recorded` again.
pub fn replay_explain(
    recorded: &Recorded<explain::Config>,
    packs: &Functions,
) -> Replayed<Explained> {
    let mut provider = Scripted::new(recorded.replies.iter().cloned());
    let mut clock = Readings::new(recorded.readings.iter().copied());
    let mut log = Log::new();
    let outcome = explain::run(&recorded.config, &mut provider, &mut clock, &mut log, packs);
    let difference = difference(&recorded.lines, &log);
    Replayed {
        outcome,
        log,
        difference,
    }
}

/// Where `log` parts from the `recorded` lines, if it does.
fn difference(recorded: &[String], log: &Log) -> Option<Difference> {
    events::first_difference(recorded, log.lines()).map(|(seq, a, b)| {
        let event = a
            .or(b)
            .and_then(|l| serde_json::from_str::<Value>(l).ok())
            .and_then(|v| v.get("event").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default();
        Difference {
            seq,
            event,
            recorded: a.map(str::to_owned),
            replayed: b.map(str::to_owned),
        }
    })
}
