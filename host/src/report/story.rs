//! A run read back from its event log (`spec/llm.md`, "The event log"):
//! the task, each round with what was asked, what came back and what the
//! toolchain made of it, and the outcome.
//!
//! The log is one the loop wrote (a replay's own, or an evaluation's as it
//! ran), so every event has the fields the loop gives it; a field that is
//! missing all the same is read as empty, never a panic.

use crate::llm::envelope::{self, Decision, ReplyFormat};
use crate::llm::provider::{Completion, Usage};
use crate::llm::repair::candidate::outranks;
use crate::llm::repair::{Config, Round, Status};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Value};

/// A program and the toolchain's verdict on it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Program {
    pub text: String,
    pub verdict: Verdict,
}

/// What `check` and the examples say of a program.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Verdict {
    pub parses: bool,
    pub passed: usize,
    pub examples: usize,
    pub errors: Vec<Error>,
}

impl Verdict {
    pub fn passes(&self) -> bool {
        self.parses && self.errors.is_empty()
    }
}

/// An error as the model was shown it (`prompt::error_json`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Error {
    pub kind: String,
    pub code: String,
    pub step: Option<String>,
    pub line: Option<u64>,
    pub message: String,
    pub expected: Option<Value>,
    pub actual: Option<Value>,
    pub vars: Vec<Var>,
    pub rounds: Vec<LoopRound>,
    pub hint: Option<String>,
    pub notes: Vec<String>,
    /// An error of a patch that was not applied.
    pub patch: bool,
}

/// A variable's value where an error happened.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Var {
    pub name: String,
    pub value: Value,
}

/// A loop round in progress where an error happened.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct LoopRound {
    pub step: String,
    pub round: u64,
    pub var: Option<String>,
    pub value: Option<Value>,
}

/// What the envelope check said of a reply.
#[derive(Debug, Clone)]
pub enum Checked {
    /// It kept the contract: its decision, reason and artifact.
    Kept {
        decision: Decision,
        reason: String,
        artifact: String,
    },
    /// It did not: every problem found.
    Rejected(Vec<String>),
}

/// One request and what came of it.
#[derive(Debug, Clone, Default)]
pub struct Ask {
    /// 0 for the first request of a sample, then each re-ask.
    pub ask: u32,
    pub allow: Vec<Decision>,
    pub sent_ms: u64,
    pub answered_ms: Option<u64>,
    pub reply: Option<Completion>,
    /// Why the server failed, when it did.
    pub failed: Option<String>,
    pub checked: Option<Checked>,
}

/// What the toolchain made of a sample's reply.
#[derive(Debug, Clone)]
pub enum Made {
    /// A submitted program.
    Candidate(Program),
    /// The program after the patch.
    Patched(Program),
    /// A patch that could not be applied, and why.
    Refused(Vec<Error>),
}

/// One sample of a round (one unless `--samples`).
#[derive(Debug, Clone, Default)]
pub struct Sample {
    pub number: u32,
    pub asks: Vec<Ask>,
    pub made: Option<Made>,
    /// Whether its program is the one the round kept.
    pub kept: bool,
}

/// The lessons found for one error.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Lookup {
    pub code: String,
    pub step_kind: Option<String>,
    pub found: Vec<Map<String, Value>>,
    pub error: Option<String>,
}

/// A lesson a patch taught.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Taught {
    pub record: Option<Map<String, Value>>,
    pub error: Option<String>,
}

/// The machine-applicable fixes applied before a round.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Fixes {
    pub applied: Vec<String>,
    pub text: String,
    pub verdict: Verdict,
}

/// One round: what it started from, and everything in it.
#[derive(Debug, Clone, Default)]
pub struct RoundStory {
    pub number: u32,
    /// The program before the round (before its fixes), if there was one.
    pub before: Option<Program>,
    pub fixes: Option<Fixes>,
    pub lookups: Vec<Lookup>,
    pub samples: Vec<Sample>,
    pub taught: Vec<Taught>,
    /// The round's report; `None` when the run ended inside the round
    /// before it asked (its fixes made the program pass, or a budget was
    /// spent).
    pub report: Option<Round>,
    /// The program after the round.
    pub after: Option<Program>,
}

impl RoundStory {
    /// The program the model's reply was about: after the fixes, else as
    /// the round started.
    pub fn asked_about(&self) -> Option<Program> {
        match &self.fixes {
            Some(f) => Some(Program {
                text: f.text.clone(),
                verdict: f.verdict.clone(),
            }),
            None => self.before.clone(),
        }
    }

    /// Milliseconds from the round's first request to its last answer.
    pub fn ms(&self) -> u64 {
        let asks = self.samples.iter().flat_map(|s| &s.asks);
        let first = asks.clone().map(|a| a.sent_ms).min();
        let last = asks.filter_map(|a| a.answered_ms).max();
        match (first, last) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => 0,
        }
    }
}

/// How the run ended (the `result` event).
#[derive(Debug, Clone, Deserialize)]
pub struct Ending {
    pub status: Status,
    #[serde(default)]
    pub passed: usize,
    #[serde(default)]
    pub examples: usize,
    #[serde(default)]
    pub passed_in_round: Option<u32>,
    #[serde(default)]
    pub tokens: Usage,
    #[serde(default)]
    pub ms: u64,
}

/// A whole run.
#[derive(Debug, Clone, Default)]
pub struct Story {
    /// The version of `isu` that wrote the log.
    pub isu: String,
    pub config: Option<Config>,
    /// `isu repair`'s starting program.
    pub start: Option<Program>,
    /// The task's errors, when the toolchain refused it.
    pub invalid_task: Vec<Error>,
    pub rounds: Vec<RoundStory>,
    pub ending: Option<Ending>,
    /// The program as the run left it.
    pub last: Option<Program>,
}

fn field<T: DeserializeOwned + Default>(e: &Map<String, Value>, key: &str) -> T {
    e.get(key)
        .cloned()
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default()
}

fn whole<T: DeserializeOwned + Default>(e: &Map<String, Value>) -> T {
    serde_json::from_value(Value::Object(e.clone())).unwrap_or_default()
}

/// Reads the events of a log (one JSON object a line).
pub fn read(lines: &[String]) -> Story {
    let mut story = Story::default();
    let mut round = RoundStory::default();
    let mut current: Option<Program> = None;
    for line in lines {
        let Ok(Value::Object(e)) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let kind = e.get("event").and_then(Value::as_str).unwrap_or("");
        match kind {
            "config" => {
                story.isu = field(&e, "isu");
                story.config = e
                    .get("config")
                    .cloned()
                    .and_then(|c| serde_json::from_value(c).ok());
            }
            "invalid_task" => story.invalid_task = field(&e, "errors"),
            "start" => {
                let p: Program = whole(&e);
                story.start = Some(p.clone());
                current = Some(p);
            }
            "fixes" => {
                let f: Fixes = whole(&e);
                current = Some(Program {
                    text: f.text.clone(),
                    verdict: f.verdict.clone(),
                });
                round.fixes = Some(f);
            }
            "lessons" => round.lookups.push(whole(&e)),
            "request" => {
                let number: u32 = field(&e, "sample");
                if round.samples.last().is_none_or(|s| s.number != number) {
                    round.samples.push(Sample {
                        number,
                        ..Sample::default()
                    });
                }
                let ask = Ask {
                    ask: field(&e, "ask"),
                    allow: field(&e, "allow"),
                    sent_ms: field(&e, "ms"),
                    ..Ask::default()
                };
                if let Some(s) = round.samples.last_mut() {
                    s.asks.push(ask);
                }
            }
            "reply" | "provider_error" | "envelope" => {
                let Some(ask) = round.samples.last_mut().and_then(|s| s.asks.last_mut()) else {
                    continue;
                };
                let format = story
                    .config
                    .as_ref()
                    .map_or_else(ReplyFormat::default, |c| c.options.reply_format);
                answer(ask, kind, &e, format);
            }
            "candidate" | "patch" => {
                let made = if kind == "candidate" {
                    Made::Candidate(whole(&e))
                } else if e.get("applied").and_then(Value::as_bool) == Some(true) {
                    Made::Patched(whole(&e))
                } else {
                    Made::Refused(field(&e, "errors"))
                };
                if let Some(s) = round.samples.last_mut() {
                    s.made = Some(made);
                }
            }
            "lesson" => round.taught.push(whole(&e)),
            "round" => {
                let report: Option<Round> = e
                    .get("round")
                    .cloned()
                    .and_then(|r| serde_json::from_value(r).ok());
                round.number = report.as_ref().map_or(0, |r| r.round);
                round.before = story
                    .rounds
                    .last()
                    .and_then(|r| r.after.clone())
                    .or_else(|| story.start.clone());
                if let Some(kept) = keep(&mut round.samples) {
                    current = Some(kept);
                }
                round.after = current.clone();
                round.report = report;
                story.rounds.push(std::mem::take(&mut round));
            }
            "result" => {
                story.ending = serde_json::from_value(Value::Object(e.clone())).ok();
            }
            _ => {}
        }
    }
    // A round the run ended in before it asked: fixes that made the
    // program pass, or lessons looked up before a budget ran out.
    if round.fixes.is_some() || !round.lookups.is_empty() || !round.samples.is_empty() {
        round.number = story.rounds.len() as u32 + 1;
        round.before = story
            .rounds
            .last()
            .and_then(|r| r.after.clone())
            .or_else(|| story.start.clone());
        round.after = current.clone();
        story.rounds.push(round);
    }
    story.last = current;
    story
}

/// Records what came back for `ask`: the reply, the server's failure, or
/// the envelope check (with the artifact, read again from the reply by the
/// loop's own check).
fn answer(ask: &mut Ask, kind: &str, e: &Map<String, Value>, format: ReplyFormat) {
    match kind {
        "reply" => {
            ask.reply = e
                .get("reply")
                .cloned()
                .and_then(|r| serde_json::from_value(r).ok());
            ask.answered_ms = Some(field(e, "ms"));
        }
        "provider_error" => {
            ask.failed = Some(field(e, "error"));
            ask.answered_ms = Some(field(e, "ms"));
        }
        _ => {
            let ok = e.get("ok").and_then(Value::as_bool) == Some(true);
            let reply = ask.reply.as_ref().map_or("", |r| r.content.as_str());
            ask.checked = Some(match (ok, envelope::check(reply, &ask.allow, format)) {
                (true, Ok(env)) => Checked::Kept {
                    decision: env.decision,
                    reason: env.reason,
                    artifact: env.artifact,
                },
                (true, Err(problems)) => Checked::Rejected(problems),
                (false, _) => Checked::Rejected(field(e, "problems")),
            });
        }
    }
}

/// Marks the sample whose program the round kept, by the loop's own rule,
/// and returns that program: the patched one, or the best candidate.
fn keep(samples: &mut [Sample]) -> Option<Program> {
    let mut best: Option<usize> = None;
    for (i, s) in samples.iter().enumerate() {
        match &s.made {
            Some(Made::Patched(_)) => best = Some(i),
            Some(Made::Candidate(c)) => {
                let better = best.is_none_or(|b| match &samples[b].made {
                    Some(Made::Candidate(k) | Made::Patched(k)) => outranks(
                        (c.verdict.passed, c.verdict.parses),
                        (k.verdict.passed, k.verdict.parses),
                    ),
                    _ => true,
                });
                if better {
                    best = Some(i);
                }
            }
            _ => {}
        }
    }
    let b = best?;
    samples[b].kept = true;
    match &samples[b].made {
        Some(Made::Candidate(p) | Made::Patched(p)) => Some(p.clone()),
        _ => None,
    }
}

impl Story {
    /// The task's signature: `name(args) -> returns`.
    pub fn signature(&self) -> String {
        self.config.as_ref().map_or_else(String::new, |c| {
            format!("{}({}) -> {}", c.task.name, c.task.args, c.task.returns)
        })
    }

    /// How the run ended, as the loop names it.
    pub fn status(&self) -> &'static str {
        self.ending
            .as_ref()
            .map_or("unfinished", |e| e.status.as_str())
    }
}
