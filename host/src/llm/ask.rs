//! Asking a model once, as every job of the model side does (the repair
//! loop, `isu explain`): the request logged, the reply checked against the
//! envelope, a reply off the contract re-asked with what was wrong (a
//! bounded number of times), the budgets of tokens and time checked before
//! each request, and what it all cost counted.

use super::envelope::{self, Decision, Envelope};
use super::events::Log;
use super::prompt;
use super::provider::{Completion, Constraint, Message, Provider, Request, Role, Usage};
use super::repair::{Clock, Options, Status};
use serde_json::json;

/// What one request came to.
#[derive(Debug)]
pub enum Asked {
    Reply(Envelope),
    /// Every re-ask broke the contract too.
    OffContract,
    /// The provider gave no reply (after its retries): why.
    Failed(String),
    /// A budget was spent before the request was sent.
    Budget(Status),
}

/// One question: sample `sample` of round `round`, with the `system`
/// message and the request `user`, accepting the decisions of `allow` under
/// `constraint`.
#[derive(Debug)]
pub struct Question<'q> {
    pub round: u32,
    pub sample: u32,
    pub system: &'q str,
    pub user: &'q str,
    pub allow: &'q [Decision],
    pub constraint: Constraint,
}

/// Where requests go and what they cost: the provider, the clock, the log,
/// the tokens of the whole run and the counters of the current round.
pub struct Asker<'a> {
    pub provider: &'a mut dyn Provider,
    pub clock: &'a mut dyn Clock,
    pub log: &'a mut Log,
    /// Tokens of every request so far.
    pub tokens: Usage,
    /// Replies asked for in the current round (samples and re-asks).
    pub requests: u32,
    /// Replies of the current round that broke the contract.
    pub rejected: u32,
    /// Tokens of the current round.
    pub round_tokens: u64,
}

impl std::fmt::Debug for Asker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Asker")
            .field("tokens", &self.tokens)
            .field("requests", &self.requests)
            .field("rejected", &self.rejected)
            .finish_non_exhaustive()
    }
}

impl<'a> Asker<'a> {
    pub fn new(
        provider: &'a mut dyn Provider,
        clock: &'a mut dyn Clock,
        log: &'a mut Log,
    ) -> Asker<'a> {
        Asker {
            provider,
            clock,
            log,
            tokens: Usage::default(),
            requests: 0,
            rejected: 0,
            round_tokens: 0,
        }
    }

    /// Starts the counters of a round.
    pub fn start_round(&mut self) {
        self.requests = 0;
        self.rejected = 0;
        self.round_tokens = 0;
    }

    /// Asks `q` once, with the sampling and budgets of `options`,
    /// re-asking while the reply breaks the contract.
    pub fn ask(&mut self, options: &Options, q: &Question<'_>) -> Asked {
        let Question {
            round,
            sample,
            system,
            user,
            allow,
            constraint,
        } = q;
        let budget = options.budget;
        let mut messages = prompt::messages(system, (*user).to_owned());
        for ask in 0..=budget.reasks {
            if self.tokens.total() >= budget.tokens {
                return Asked::Budget(Status::TokenBudget);
            }
            let now = self.clock.now_ms();
            if now >= budget.time_ms {
                return Asked::Budget(Status::TimeBudget);
            }
            let request = Request {
                messages: messages.clone(),
                constraint: constraint.clone(),
                max_tokens: options.max_tokens,
                temperature: options.temperature,
            };
            self.log.push(
                "request",
                json!({
                    "round": round, "sample": sample, "ask": ask,
                    "allow": allow, "messages": request.messages,
                    "max_tokens": request.max_tokens, "temperature": request.temperature,
                    "constrain": options.constrain, "ms": now,
                }),
            );
            self.requests += 1;
            let result = self.provider.complete(&request);
            let now = self.clock.now_ms();
            let reply: Completion = match result {
                Ok(c) => c,
                Err(e) => {
                    let why = e.to_string();
                    self.log
                        .push("provider_error", json!({ "error": why, "ms": now }));
                    return Asked::Failed(why);
                }
            };
            self.tokens.prompt_tokens = self
                .tokens
                .prompt_tokens
                .saturating_add(reply.usage.prompt_tokens);
            self.tokens.completion_tokens = self
                .tokens
                .completion_tokens
                .saturating_add(reply.usage.completion_tokens);
            self.round_tokens = self.round_tokens.saturating_add(reply.usage.total());
            self.log.push("reply", json!({ "reply": reply, "ms": now }));
            match envelope::check(&reply.content, allow, options.reply_format) {
                Ok(e) => {
                    self.log.push(
                        "envelope",
                        json!({ "ok": true, "decision": e.decision, "reason": e.reason }),
                    );
                    return Asked::Reply(e);
                }
                Err(problems) => {
                    self.rejected += 1;
                    self.log
                        .push("envelope", json!({ "ok": false, "problems": problems }));
                    messages.push(Message::new(Role::Assistant, reply.content));
                    messages.push(Message::new(
                        Role::User,
                        prompt::reask(&problems, allow, options.reply_format),
                    ));
                }
            }
        }
        Asked::OffContract
    }
}
