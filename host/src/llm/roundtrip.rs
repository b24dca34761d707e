//! Round-trip evaluation (`isu eval --roundtrip`): program A from a task's
//! words (the loop as it stands), A described in plain words
//! ([`super::explain`]), program B from that description (the loop again,
//! with A's signature and no examples), then A and B run on the same inputs
//! and compared by behaviour. The inputs are the task's examples, shown and
//! hidden, and random arguments of the signature drawn by the fuzz
//! generator's value generation ([`RandomPrograms::args`]) from a seed; the
//! runs are the interpreter's, under the default limits. A task's score is
//! the share of inputs on which A and B agree: the same value, or a runtime
//! error of the same code. Each input on which they disagree is a test the
//! description missed; it is kept, with A's answer, as a conformance case
//! ([`crate::cases::text`]) whose `IO` holds the inputs A answers with a
//! value.
//!
//! B has no examples to be repaired towards, so its loop ends as soon as it
//! validates: a ParseError or StaticError is sent back as the loop sends it,
//! within the same budgets, and a B that never validates scores 0.

use super::eval::Harness;
use super::explain::{self, Explained};
use super::repair::{Config, Options, Outcome, Status};
use super::task::Task;
use crate::conformance::Outcome as Ran;
use crate::functions::Functions;
use crate::source::Source;
use crate::{cases, fuzz, pipeline};
use isu_lang::build::RandomPrograms;
use isu_plugin_api::{Example, ExecLimits, Io, Literal, Program};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

/// How a round trip is run: how many random inputs besides the task's
/// examples, and the seed they are drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub inputs: usize,
    pub seed: u64,
}

/// The limits of every run of A and B: those A's examples were tested under.
pub const LIMITS: ExecLimits = ExecLimits::DEFAULT;

/// How many draws, per random input asked for, the generator may make to
/// find inputs that differ from every earlier one.
const DRAWS_PER_INPUT: usize = 10;

/// What a program gave on one input: `{"value": V}`, or `{"error":
/// {"code": C, "step": S}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Value(Literal),
    Error {
        code: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<String>,
    },
}

impl Answer {
    fn of(ran: &Ran) -> Answer {
        match ran {
            Ran::Value(v) => Answer::Value(v.clone()),
            Ran::Error { code, step } => Answer::Error {
                code: code.clone(),
                step: step.clone(),
            },
        }
    }

    /// Whether `self` and `other` agree: the same value, or an error of the
    /// same code (the steps are each program's own).
    pub fn agrees(&self, other: &Answer) -> bool {
        match (self, other) {
            (Answer::Value(a), Answer::Value(b)) => a == b,
            (Answer::Error { code: a, .. }, Answer::Error { code: b, .. }) => a == b,
            _ => false,
        }
    }
}

/// An input on which A and B disagree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Disagreement {
    /// The arguments, a JSON object.
    pub input: Literal,
    pub a: Answer,
    pub b: Answer,
}

/// The round trip of one task.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundTrip {
    /// The share of inputs on which A and B agree; 0 when no description or
    /// no valid B came; none when A has no valid program or there was no
    /// input to run.
    pub score: Option<f64>,
    /// Inputs on which A and B agree, of how many.
    pub agreed: usize,
    pub inputs: usize,
    /// Of the agreed inputs, how many stopped both with the same error.
    pub agreed_errors: usize,
    /// Of the inputs, how many are the task's examples (the others are
    /// random).
    pub examples: usize,
    /// How the description ended (none when A has no valid program).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explain_status: Option<Status>,
    /// A's description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// How B's loop ended (none when no description came).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b_status: Option<Status>,
    /// B as its loop left it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b_program: Option<String>,
    /// Why the score is 0 or none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Every input on which A and B disagree, in input order.
    pub disagreements: Vec<Disagreement>,
    /// Tokens and milliseconds of the description and of B's loop.
    pub tokens: u64,
    pub ms: u64,
    /// The conformance case of the disagreements (when there are any), for
    /// `--out DIR`.
    #[serde(skip)]
    pub case: Option<String>,
    /// Where the case was written, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case_file: Option<String>,
}

/// The round trip of `task`, whose loop gave `a`, with the `options` and
/// `model` of A's loop, asking through `harness`.
pub fn run(
    task: &Task,
    a: &Outcome,
    options: &Options,
    model: &str,
    settings: Settings,
    harness: &dyn Harness,
    packs: &Functions,
) -> RoundTrip {
    let mut rt = RoundTrip::default();
    let Some(program_a) = a.program.as_deref().and_then(|t| valid(t, packs)) else {
        rt.reason = Some(format!(
            "A has no valid program (its loop ended {})",
            a.status.as_str()
        ));
        return rt;
    };
    let explained = describe(&program_a, task, options, model, harness, packs);
    rt.explain_status = Some(explained.status);
    rt.tokens = explained.tokens.total();
    rt.ms = explained.ms;
    let Some(words) = explained.explanation else {
        rt.score = Some(0.0);
        rt.reason = Some(format!(
            "no description of A: the model's reply ended {}",
            explained.status.as_str()
        ));
        return rt;
    };
    rt.explanation = Some(words.clone());
    let b = rewrite(task, words, options, model, harness, packs);
    rt.tokens = rt.tokens.saturating_add(b.tokens.total());
    rt.ms = rt.ms.saturating_add(b.ms);
    rt.b_status = Some(b.status);
    rt.b_program = b.program.clone();
    let Some(program_b) = b.program.as_deref().and_then(|t| valid(t, packs)) else {
        let codes: Vec<&str> = b
            .errors
            .iter()
            .filter_map(|e| e.get("code").and_then(serde_json::Value::as_str))
            .collect();
        rt.score = Some(0.0);
        rt.reason = Some(match b.program {
            None => format!("B was never written: its loop ended {}", b.status.as_str()),
            Some(_) => format!(
                "B never validated: its loop ended {} with {}",
                b.status.as_str(),
                codes.join(", ")
            ),
        });
        return rt;
    };
    let inputs = inputs(task, &program_a, settings);
    rt.examples = inputs.examples;
    rt.inputs = inputs.all.len();
    if inputs.all.is_empty() {
        rt.reason =
            Some("no inputs: the task has no examples and no random input was asked for".into());
        return rt;
    }
    let (Some(ran_a), Some(ran_b)) = (
        fuzz::prepare(program_a.clone(), LIMITS, &inputs.all, packs),
        fuzz::prepare(program_b, LIMITS, &inputs.all, packs),
    ) else {
        // The interpreter loads every valid program; this would be a bug.
        rt.reason = Some("the interpreter could not run A or B".into());
        return rt;
    };
    let mut kept = Vec::new();
    for ((input, a), b) in inputs.all.iter().zip(&ran_a.oracle).zip(&ran_b.oracle) {
        let (a_answer, b_answer) = (Answer::of(a), Answer::of(b));
        if a_answer.agrees(&b_answer) {
            rt.agreed += 1;
            rt.agreed_errors += usize::from(matches!(a_answer, Answer::Error { .. }));
        } else {
            rt.disagreements.push(Disagreement {
                input: input.clone(),
                a: a_answer,
                b: b_answer,
            });
            kept.push((input, a));
        }
    }
    rt.score = Some(rt.agreed as f64 / rt.inputs as f64);
    if !kept.is_empty() {
        rt.case = Some(case(task, program_a, &kept, settings));
    }
    rt
}

/// The program `text` typed, when it validates.
fn valid(text: &str, packs: &Functions) -> Option<Program> {
    pipeline::check_with(&Source::new("<program>", text), packs)
        .valid_program()
        .cloned()
}

/// A described by the model, logged as the harness says (`ID.explain`).
fn describe(
    program_a: &Program,
    task: &Task,
    options: &Options,
    model: &str,
    harness: &dyn Harness,
    packs: &Functions,
) -> Explained {
    let text = crate::canon::print(program_a);
    let program = explain::prepare(&Source::new("<program>", text.as_str()), packs).unwrap_or(text);
    let config = explain::Config {
        program,
        options: options.clone(),
        model: model.to_owned(),
    };
    let mut provider = harness.provider();
    let mut clock = harness.clock();
    let mut log = harness.log_of(task, "explain");
    explain::run(&config, provider.as_mut(), clock.as_mut(), &mut log, packs)
}

/// B written by the loop from `words`, with the task's signature and no
/// examples, logged as the harness says (`ID.b`).
fn rewrite(
    task: &Task,
    words: String,
    options: &Options,
    model: &str,
    harness: &dyn Harness,
    packs: &Functions,
) -> Outcome {
    let config = Config {
        task: Task {
            id: task.id.clone(),
            words,
            name: task.name.clone(),
            args: task.args.clone(),
            returns: task.returns.clone(),
            examples: Vec::new(),
            hidden: Vec::new(),
        },
        start: None,
        options: options.clone(),
        model: model.to_owned(),
    };
    super::eval::run_loop(&config, &mut harness.log_of(task, "b"), harness, packs)
}

/// The inputs of a round trip.
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// The task's examples first (shown, then hidden), then the random ones,
    /// each input once.
    pub all: Vec<Literal>,
    /// How many of them are the task's examples.
    pub examples: usize,
}

/// The inputs of `task`'s round trip: its examples' arguments, then up to
/// `settings.inputs` random arguments for `program`'s signature, drawn by
/// the fuzz generator from the seed and the task's id (so that a task draws
/// the same inputs whatever other tasks run, in any order or shard), each
/// different from every earlier input. A signature with fewer inputs than
/// asked for (one `bool`) gives what the draws find.
pub fn inputs(task: &Task, program: &Program, settings: Settings) -> Inputs {
    let mut seen = BTreeSet::new();
    let mut all = Vec::new();
    for example in task.examples.iter().chain(&task.hidden) {
        let Ok(input) = isu_plugin_api::json::from_value::<Literal>(example.input.clone()) else {
            continue;
        };
        if seen.insert(input.clone()) {
            all.push(input);
        }
    }
    let examples = all.len();
    let mut gen = RandomPrograms::nth(settings.seed, stream(task.id()));
    let mut draws = settings.inputs.saturating_mul(DRAWS_PER_INPUT);
    while all.len() - examples < settings.inputs && draws > 0 {
        draws -= 1;
        let input = gen.args(program);
        if seen.insert(input.clone()) {
            all.push(input);
        }
    }
    Inputs { all, examples }
}

/// The generator's stream of a task: the first 8 bytes of the SHA-256 of
/// its id.
fn stream(id: &str) -> u64 {
    let digest = Sha256::digest(id.as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
}

/// The conformance case of the inputs `kept`, each with A's answer: program
/// A, its `IO` the inputs A answers with a value (so `isu test` runs them),
/// a `; run:` line for every one (so `isu conformance --cases DIR` runs them
/// all, errors included).
fn case(
    task: &Task,
    mut program: Program,
    kept: &[(&Literal, &Ran)],
    settings: Settings,
) -> String {
    let span = program.io.span;
    let mut io = Io {
        input: Vec::new(),
        output: Vec::new(),
        span,
    };
    for (input, ran) in kept {
        if let Ran::Value(v) = ran {
            io.input.push(Example {
                value: (*input).clone(),
                span,
            });
            io.output.push(Example {
                value: v.clone(),
                span,
            });
        }
    }
    program.io = io;
    let runs: Vec<(String, Ran)> = kept
        .iter()
        .map(|(input, ran)| (input.to_string(), (*ran).clone()))
        .collect();
    let comment = format!(
        "Kept by `isu eval --roundtrip --seed {}` from task `{}`: the inputs on which A (this program) and B (written from its description) disagree, with A's answers.",
        settings.seed,
        task.id()
    );
    cases::text(&comment, &program, &runs, LIMITS)
}

#[cfg(test)]
mod tests;
