//! The repair loop: round 1 asks for a whole program, later rounds send the
//! structured errors back and accept only a patch, until `check` and `test`
//! pass, the model gives up, or a budget is spent.
//!
//! Every reply is checked against the envelope before anything in it is
//! used; a reply off the contract is re-asked with what was wrong, a
//! bounded number of times, and re-asks are not rounds. Everything the loop
//! does goes to the event log ([`super::events`]), and everything it does
//! depends only on the configuration, the replies and the clock readings,
//! which the log records: `isu replay` runs the loop again on them.

pub mod candidate;

use super::ask::{Asked, Asker, Question};
use super::envelope::{self, Decision, ReplyFormat};
use super::events::Log;
use super::prompt;
use super::provider::{Constraint, Provider, Usage};
use super::task::Task;
use crate::diag::Diagnostic;
use crate::functions::Functions;
use crate::memory::Lesson;
use candidate::{machine_fixes, outranks, Candidate};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// How a server is asked to constrain its replies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Constrain {
    /// `response_format` with the envelope's JSON Schema (OpenAI, vLLM,
    /// llama.cpp, Ollama).
    Schema,
    /// llama.cpp's `grammar` field: GBNF of the envelope whose artifact is
    /// Isu text in Isu's grammar.
    Gbnf,
    /// No constraint: the envelope is checked after the fact only.
    None,
}

/// What a run may spend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Model rounds (re-asks are not rounds).
    pub rounds: u32,
    /// Tokens, prompt and completion, of every request.
    pub tokens: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
    /// Re-asks of one request whose reply broke the contract.
    pub reasks: u32,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            rounds: 6,
            tokens: 200_000,
            time_ms: 600_000,
            reasks: 2,
        }
    }
}

/// How to ask.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// Candidates asked for in round 1 (self-consistency): the one that
    /// passes most examples is kept.
    pub samples: u32,
    /// The most tokens one reply may take.
    pub max_tokens: u32,
    pub temperature: f64,
    pub constrain: Constrain,
    /// How the model writes its replies.
    #[serde(default, skip_serializing_if = "ReplyFormat::is_json")]
    pub reply_format: ReplyFormat,
    pub budget: Budget,
    /// Read the lessons of earlier repairs into the feedback, and keep a
    /// lesson whenever a patch fixes an error (`spec/memory.md`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lessons: bool,
}

impl Options {
    /// Whether the options go together: a JSON Schema constrains JSON
    /// replies only.
    pub fn check(&self) -> Result<(), String> {
        if self.constrain == Constrain::Schema && self.reply_format == ReplyFormat::Tagged {
            return Err("a JSON Schema cannot constrain tagged replies: use --constrain gbnf or --constrain none with --reply-format tagged".to_owned());
        }
        Ok(())
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            samples: 1,
            max_tokens: 2048,
            temperature: 0.2,
            constrain: Constrain::Schema,
            reply_format: ReplyFormat::Json,
            budget: Budget::default(),
            lessons: false,
        }
    }
}

/// Everything a run starts from; the first event of its log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub task: Task,
    /// `isu repair`: the program to start from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    pub options: Options,
    /// The model, as the provider names it (for the record).
    #[serde(default)]
    pub model: String,
}

/// The clock of a run: milliseconds since it started. `isu replay` drives
/// it with the recorded readings.
pub trait Clock {
    fn now_ms(&mut self) -> u64;
}

/// The real clock.
#[derive(Debug)]
pub struct SystemClock(std::time::Instant);

impl SystemClock {
    pub fn start() -> SystemClock {
        SystemClock(std::time::Instant::now())
    }
}

impl Clock for SystemClock {
    fn now_ms(&mut self) -> u64 {
        u64::try_from(self.0.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// How a run ended: of the repair loop, or of `isu explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The program passes `check` and `test`.
    Passed,
    /// The model gave up.
    GaveUp,
    /// The round budget is spent.
    RoundBudget,
    /// The token budget is spent.
    TokenBudget,
    /// The time budget is spent.
    TimeBudget,
    /// A reply broke the contract after every re-ask.
    OffContract,
    /// The provider gave no reply (after its retries).
    ProviderFailed,
    /// `isu explain`: the model described the program.
    Explained,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::GaveUp => "gave_up",
            Status::RoundBudget => "round_budget",
            Status::TokenBudget => "token_budget",
            Status::TimeBudget => "time_budget",
            Status::OffContract => "off_contract",
            Status::ProviderFailed => "provider_failed",
            Status::Explained => "explained",
        }
    }
}

/// One round, as reported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    pub round: u32,
    /// Machine-applicable fixes applied before the round (their codes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<String>,
    /// The decision of the reply that counted (none when every reply broke
    /// the contract or no reply came).
    pub decision: Option<Decision>,
    /// Replies asked for (samples and re-asks together).
    pub requests: u32,
    /// Replies that broke the contract.
    pub rejected: u32,
    /// Whether the patch applied (patch rounds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied: Option<bool>,
    /// Examples the program passes after the round, of how many.
    pub passed: usize,
    pub examples: usize,
    /// The codes of the errors left, in order.
    pub errors: Vec<String>,
    /// Tokens of the round.
    pub tokens: u64,
}

/// How a run ended, and what it made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub status: Status,
    pub rounds: Vec<Round>,
    /// The program as it stands (canonical when it parses).
    pub program: Option<String>,
    /// Its errors (front end, or failing examples).
    pub errors: Vec<Value>,
    pub passed: usize,
    pub examples: usize,
    pub tokens: Usage,
    pub ms: u64,
    /// The round whose program first passed (0: the starting program did).
    pub passed_in_round: Option<u32>,
    /// Why the provider failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

/// How many distinct errors of one round the loop looks up lessons for.
const RECALLED_ERRORS: usize = 3;

/// Where the loop finds the lessons of earlier repairs and keeps new ones
/// (`spec/memory.md`, "Lessons: the repair loop's rule"). The loop uses it
/// only when [`Options::lessons`] is on, and logs what it answered, so that
/// `isu replay` answers the same without the store.
pub trait Lessons {
    /// The records of the lessons for `error` in a step of `step_kind`,
    /// newest first ([`Lesson::query_for`]).
    fn find(&mut self, error: &Diagnostic, step_kind: Option<&str>) -> Result<Vec<Value>, String>;
    /// Keeps `lesson`.
    fn keep(&mut self, lesson: &Lesson) -> Result<(), String>;
}

/// No memory, for runs without lessons: finds none, keeps nothing.
#[derive(Debug, Default)]
pub struct NoLessons;

impl Lessons for NoLessons {
    fn find(&mut self, _: &Diagnostic, _: Option<&str>) -> Result<Vec<Value>, String> {
        Ok(Vec::new())
    }
    fn keep(&mut self, _: &Lesson) -> Result<(), String> {
        Ok(())
    }
}

/// A run in progress.
struct Run<'a> {
    config: &'a Config,
    asker: Asker<'a>,
    lessons: &'a mut dyn Lessons,
    packs: &'a Functions,
    system: String,
    /// The canonical header every program starts with.
    header: String,
    /// Why the provider failed, when it did.
    failure: Option<String>,
}

/// Runs the loop of `config`, asking `provider`, finding and keeping
/// `lessons` (when the options say so), reading `clock`, writing `log`;
/// `on_round` hears of each round as it ends.
pub fn run(
    config: &Config,
    provider: &mut dyn Provider,
    lessons: &mut dyn Lessons,
    clock: &mut dyn Clock,
    log: &mut Log,
    packs: &Functions,
    on_round: &mut dyn FnMut(&Round),
) -> Outcome {
    log.push(
        "config",
        json!({ "isu": env!("CARGO_PKG_VERSION"), "config": config }),
    );
    let mut run = Run {
        config,
        asker: Asker::new(provider, clock, log),
        lessons,
        packs,
        system: prompt::system(packs, &prompt::WRITING, config.options.reply_format),
        header: String::new(),
        failure: None,
    };
    run.go(on_round)
}

impl Run<'_> {
    fn go(&mut self, on_round: &mut dyn FnMut(&Round)) -> Outcome {
        let task = &self.config.task;
        self.header = match task.header(self.packs) {
            Ok(h) => h,
            Err(errors) => {
                // The CLI checks the task first; a log that says otherwise
                // was made by another version.
                let errors: Vec<Value> = errors.iter().map(prompt::error_json).collect();
                self.asker
                    .log
                    .push("invalid_task", json!({ "errors": errors }));
                return self.finish(Status::GaveUp, None, Vec::new(), None);
            }
        };
        let mut current: Option<Candidate> = self.config.start.as_deref().map(|text| {
            let c = Candidate::evaluate(text, task, self.packs);
            self.asker
                .log
                .push("start", json!({ "text": c.text, "verdict": c.verdict() }));
            c
        });
        let mut rounds: Vec<Round> = Vec::new();
        let mut first_pass = current.as_ref().filter(|c| c.passes()).map(|_| 0);
        // Errors of a patch that was not applied, for the next request.
        let mut refused: Vec<Value> = Vec::new();
        let budget = self.config.options.budget;
        let status = loop {
            if current.as_ref().is_some_and(Candidate::passes) {
                break Status::Passed;
            }
            if rounds.len() as u32 >= budget.rounds {
                break Status::RoundBudget;
            }
            let number = rounds.len() as u32 + 1;
            self.asker.start_round();
            let mut fixes = Vec::new();
            if let Some(c) = &current {
                let fixed = machine_fixes(&c.text, self.packs);
                if !fixed.applied.is_empty() {
                    fixes = fixed.applied.iter().map(|d| d.code.to_string()).collect();
                    let next = Candidate::evaluate(&fixed.text, task, self.packs);
                    self.asker.log.push(
                        "fixes",
                        json!({ "round": number, "applied": fixes, "text": next.text, "verdict": next.verdict() }),
                    );
                    let passes = next.passes();
                    current = Some(next);
                    if passes {
                        // It passes on what the last model round wrote.
                        first_pass = Some(number - 1);
                        break Status::Passed;
                    }
                }
            }
            let allow = match &current {
                Some(c) if c.patchable() => vec![Decision::Patch, Decision::GiveUp],
                _ => vec![Decision::Submit, Decision::GiveUp],
            };
            let user = match &current {
                None => prompt::first(&task.words, &self.header, &allow),
                Some(c) => {
                    let mut errors = std::mem::take(&mut refused);
                    errors.extend(c.errors_json());
                    let taught = self.recall(number, c);
                    prompt::feedback(&task.words, &c.text, &errors, &taught, &allow)
                }
            };
            let samples = if current.is_none() {
                self.config.options.samples.max(1)
            } else {
                1
            };
            let mut best: Option<Candidate> = None;
            let mut decision = None;
            let mut applied = None;
            let mut stop = None;
            for sample in 1..=samples {
                let reply = match self.ask(number, sample, &user, &allow) {
                    Asked::Reply(e) => e,
                    Asked::OffContract => {
                        stop.get_or_insert(Status::OffContract);
                        continue;
                    }
                    Asked::Failed(why) => {
                        stop = Some(Status::ProviderFailed);
                        self.failure = Some(why);
                        break;
                    }
                    Asked::Budget(s) => {
                        stop = Some(s);
                        break;
                    }
                };
                decision.get_or_insert(reply.decision);
                match reply.decision {
                    // The loop never accepts `explain`: the envelope's check
                    // refused it before it came here.
                    Decision::GiveUp | Decision::Explain => {}
                    Decision::Submit => {
                        let c = Candidate::evaluate(&reply.artifact, task, self.packs);
                        self.asker.log.push(
                            "candidate",
                            json!({ "round": number, "sample": sample, "text": c.text, "verdict": c.verdict() }),
                        );
                        decision = Some(Decision::Submit);
                        if best.as_ref().is_none_or(|b| {
                            outranks(
                                (c.passed, c.program.is_some()),
                                (b.passed, b.program.is_some()),
                            )
                        }) {
                            best = Some(c);
                        }
                    }
                    Decision::Patch => {
                        let Some(c) = &current else { continue };
                        match c.patch(&reply.artifact, task, self.packs) {
                            Ok(next) => {
                                self.asker.log.push(
                                    "patch",
                                    json!({ "round": number, "applied": true, "text": next.text, "verdict": next.verdict() }),
                                );
                                self.learn(number, c, &next, &reply.artifact);
                                applied = Some(true);
                                best = Some(next);
                            }
                            Err(errors) => {
                                refused = errors.iter().map(prompt::error_json).collect();
                                for e in &mut refused {
                                    if let Value::Object(o) = e {
                                        o.insert("patch".into(), Value::Bool(true));
                                    }
                                }
                                self.asker.log.push(
                                    "patch",
                                    json!({ "round": number, "applied": false, "errors": refused }),
                                );
                                applied = Some(false);
                            }
                        }
                    }
                }
            }
            // Samples that gave up do not outvote one that submitted.
            if best.is_none() && decision == Some(Decision::GiveUp) && stop.is_none() {
                stop = Some(Status::GaveUp);
            }
            // A budget spent before this round asked anything ends the run
            // without a round.
            if self.asker.requests == 0 && fixes.is_empty() {
                if let Some(s) = stop {
                    break s;
                }
            }
            if let Some(b) = best {
                if b.passes() && first_pass.is_none() {
                    first_pass = Some(number);
                }
                current = Some(b);
            }
            let round = Round {
                round: number,
                fixes,
                decision,
                requests: self.asker.requests,
                rejected: self.asker.rejected,
                applied,
                passed: current.as_ref().map_or(0, |c| c.passed),
                examples: task.examples.len(),
                errors: current
                    .as_ref()
                    .map(|c| c.errors.iter().map(|d| d.code.to_string()).collect())
                    .unwrap_or_default(),
                tokens: self.asker.round_tokens,
            };
            self.asker.log.push("round", json!({ "round": round }));
            on_round(&round);
            rounds.push(round);
            if let Some(s) = stop.filter(|_| !current.as_ref().is_some_and(Candidate::passes)) {
                break s;
            }
        };
        self.finish(status, current, rounds, first_pass)
    }

    fn finish(
        &mut self,
        status: Status,
        current: Option<Candidate>,
        rounds: Vec<Round>,
        passed_in_round: Option<u32>,
    ) -> Outcome {
        let ms = self.asker.clock.now_ms();
        let outcome = Outcome {
            status,
            rounds,
            program: current.as_ref().map(|c| c.text.clone()),
            errors: current
                .as_ref()
                .map(Candidate::errors_json)
                .unwrap_or_default(),
            passed: current.as_ref().map_or(0, |c| c.passed),
            examples: self.config.task.examples.len(),
            tokens: self.asker.tokens,
            ms,
            passed_in_round,
            failure: self.failure.clone(),
        };
        self.asker.log.push(
            "result",
            json!({
                "status": status,
                "program": outcome.program,
                "passed": outcome.passed,
                "examples": outcome.examples,
                "rounds": outcome.rounds.len(),
                "passed_in_round": passed_in_round,
                "tokens": self.asker.tokens,
                "ms": ms,
            }),
        );
        outcome
    }

    /// The lessons for the errors of `c` (the first [`RECALLED_ERRORS`]
    /// distinct codes and step kinds), when the options ask for them; each
    /// lookup is logged.
    fn recall(&mut self, round: u32, c: &Candidate) -> Vec<Value> {
        let mut found: Vec<Value> = Vec::new();
        if !self.config.options.lessons {
            return found;
        }
        let mut asked: Vec<(&str, Option<String>)> = Vec::new();
        for error in &c.errors {
            let (step_kind, _) = c.step_of(error);
            let key = (error.code.as_str(), step_kind);
            if asked.contains(&key) {
                continue;
            }
            if asked.len() == RECALLED_ERRORS {
                break;
            }
            let step_kind = key.1.clone();
            asked.push(key);
            match self.lessons.find(error, step_kind.as_deref()) {
                Ok(records) => {
                    self.asker.log.push(
                        "lessons",
                        json!({ "round": round, "code": error.code.as_str(), "step_kind": step_kind, "found": records }),
                    );
                    for r in records {
                        if !found.contains(&r) {
                            found.push(r);
                        }
                    }
                }
                Err(why) => self.asker.log.push(
                    "lessons",
                    json!({ "round": round, "code": error.code.as_str(), "step_kind": step_kind, "error": why }),
                ),
            }
        }
        found
    }

    /// Keeps one lesson for each error of `before` that `patch` fixed (no
    /// error of the same code is left at the same step in `after`), when
    /// the options ask for lessons; each is logged.
    fn learn(&mut self, round: u32, before: &Candidate, after: &Candidate, patch: &str) {
        if !self.config.options.lessons {
            return;
        }
        let mut kept: Vec<(&str, Option<&isu_plugin_api::StepId>)> = Vec::new();
        for error in &before.errors {
            let key = (error.code.as_str(), error.step.as_ref());
            let left = after
                .errors
                .iter()
                .any(|d| (d.code.as_str(), d.step.as_ref()) == key);
            if left || kept.contains(&key) {
                continue;
            }
            kept.push(key);
            let (step_kind, text) = before.step_of(error);
            let lesson = Lesson::new(error, step_kind.as_deref(), &text, patch);
            let record = lesson.record().map_err(|d| d.message);
            let result = record
                .as_ref()
                .map_err(Clone::clone)
                .and_then(|_| self.lessons.keep(&lesson));
            let record = record.map_or(Value::Null, |r| Value::Object(r.fields().clone()));
            let event = match result {
                Ok(()) => json!({ "round": round, "record": record }),
                Err(why) => json!({ "round": round, "record": record, "error": why }),
            };
            self.asker.log.push("lesson", event);
        }
    }

    /// Asks once, re-asking while the reply breaks the contract.
    fn ask(&mut self, round: u32, sample: u32, user: &str, allow: &[Decision]) -> Asked {
        let constraint =
            constraint_for(&self.config.options, allow, self.packs, Some(&self.header));
        let question = Question {
            round,
            sample,
            system: &self.system,
            user,
            allow,
            constraint,
        };
        self.asker.ask(&self.config.options, &question)
    }
}

/// The constraint of a request that accepts `allow`, as `options` ask for
/// it. `header` is the text a submitted program starts with, if one is
/// asked for. A JSON Schema constrains JSON replies only: with tagged
/// replies, [`Options::check`] refuses it, and a request asks for nothing.
pub fn constraint_for(
    options: &Options,
    allow: &[Decision],
    packs: &Functions,
    header: Option<&str>,
) -> Constraint {
    let format = options.reply_format;
    match options.constrain {
        Constrain::None => Constraint::None,
        Constrain::Schema if format == ReplyFormat::Json => {
            Constraint::JsonSchema(envelope::schema(allow))
        }
        Constrain::Schema => Constraint::None,
        Constrain::Gbnf => {
            Constraint::Grammar(crate::grammar::envelope_gbnf(packs, allow, header, format))
        }
    }
}
