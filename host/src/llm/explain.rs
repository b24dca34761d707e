//! `isu explain`: a model describes what a program does, in plain words a
//! person could write the function from. The first half of a round trip
//! (`isu eval --roundtrip`): the description goes back to the repair loop as
//! the words of a task, and the program it gives is compared with this one
//! by behaviour ([`super::roundtrip`]).
//!
//! Only a program that validates is described, and without its `IO`: the
//! description is of what the steps do, not of the examples. The reply is an
//! envelope whose decision is `explain` (or `give_up`); it is asked once,
//! with the re-asks of the envelope, and logged in the hash-chained log of
//! the loop, which `isu replay` runs again.

use super::ask::{Asked, Asker, Question};
use super::events::Log;
use super::prompt;
use super::provider::{Provider, Usage};
use super::repair::{constraint_for, Clock, Options, Status};
use super::Decision;
use crate::diag::Diagnostic;
use crate::functions::Functions;
use crate::source::Source;
use crate::{canon, pipeline};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Everything a run of `isu explain` starts from; the first event of its log
/// (under `explain`, where the repair loop's has `config`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// The program described: canonical text, its examples left out
    /// ([`prepare`]).
    pub program: String,
    /// How to ask (`samples` and the round budget do not apply: a
    /// description is asked for once).
    pub options: Options,
    /// The model, as the provider names it (for the record).
    #[serde(default)]
    pub model: String,
}

/// How a run of `isu explain` ended, and what it made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explained {
    /// `explained`, or why not: `gave_up`, `off_contract`,
    /// `provider_failed`, `token_budget`, `time_budget`.
    pub status: Status,
    /// The description, when the model gave one.
    pub explanation: Option<String>,
    /// Replies asked for (the first and its re-asks).
    pub requests: u32,
    /// Replies that broke the contract.
    pub rejected: u32,
    pub tokens: Usage,
    pub ms: u64,
    /// Why the provider failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

/// The text a description is asked for: `src` checked (every error of the
/// front end, when it does not validate) and printed canonically without
/// its `IO` examples.
pub fn prepare(src: &Source, packs: &Functions) -> Result<String, Vec<Diagnostic>> {
    let fe = pipeline::check_with(src, packs);
    let Some(mut program) = fe.valid_program().cloned() else {
        return Err(fe.diags.into_iter().filter(Diagnostic::is_error).collect());
    };
    program.io.input.clear();
    program.io.output.clear();
    Ok(canon::print(&program))
}

/// Asks `provider` for a description of `config`'s program, reading `clock`
/// and writing `log`.
pub fn run(
    config: &Config,
    provider: &mut dyn Provider,
    clock: &mut dyn Clock,
    log: &mut Log,
    packs: &Functions,
) -> Explained {
    log.push(
        "config",
        json!({ "isu": env!("CARGO_PKG_VERSION"), "explain": config }),
    );
    let mut asker = Asker::new(provider, clock, log);
    let (status, explanation, failure) = ask(config, &mut asker, packs);
    let ms = asker.clock.now_ms();
    let outcome = Explained {
        status,
        explanation,
        requests: asker.requests,
        rejected: asker.rejected,
        tokens: asker.tokens,
        ms,
        failure,
    };
    asker.log.push(
        "result",
        json!({
            "status": outcome.status,
            "explanation": outcome.explanation,
            "requests": outcome.requests,
            "rejected": outcome.rejected,
            "tokens": outcome.tokens,
            "ms": ms,
        }),
    );
    outcome
}

/// The one question of a run, and how it ended.
fn ask(
    config: &Config,
    asker: &mut Asker<'_>,
    packs: &Functions,
) -> (Status, Option<String>, Option<String>) {
    let text = match prepare(&Source::new("<program>", config.program.as_str()), packs) {
        Ok(t) => t,
        Err(errors) => {
            // The CLI checks the program first; a log that says otherwise
            // was made by another version.
            let errors: Vec<Value> = errors.iter().map(prompt::error_json).collect();
            asker
                .log
                .push("invalid_program", json!({ "errors": errors }));
            return (Status::GaveUp, None, None);
        }
    };
    if config.options.budget.rounds == 0 {
        return (Status::RoundBudget, None, None);
    }
    let allow = prompt::EXPLAINING;
    let system = prompt::system(packs, &allow, config.options.reply_format);
    let user = prompt::explain(&text, &allow);
    let question = Question {
        round: 1,
        sample: 1,
        system: &system,
        user: &user,
        allow: &allow,
        constraint: constraint_for(&config.options, &allow, packs, None),
    };
    match asker.ask(&config.options, &question) {
        Asked::Reply(e) if e.decision == Decision::Explain => {
            (Status::Explained, Some(e.artifact), None)
        }
        Asked::Reply(_) => (Status::GaveUp, None, None),
        Asked::OffContract => (Status::OffContract, None, None),
        Asked::Failed(why) => (Status::ProviderFailed, None, Some(why)),
        Asked::Budget(s) => (s, None, None),
    }
}
