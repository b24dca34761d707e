//! Where replies come from: a chat-completion server ([`super::http`]), a
//! script of replies (tests, `--replies`), or a recorded run (`isu replay`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::VecDeque;
use std::fmt;

/// Who says a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
}

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

impl Message {
    pub fn new(role: Role, content: impl Into<String>) -> Message {
        Message {
            role,
            content: content.into(),
        }
    }
}

/// How a server is asked to constrain its output.
#[derive(Debug, Clone, PartialEq)]
pub enum Constraint {
    /// Nothing: the envelope is checked after the fact only.
    None,
    /// OpenAI's `response_format` with this JSON Schema (the envelope's).
    JsonSchema(Value),
    /// llama.cpp's `grammar` field with this GBNF (the envelope with the
    /// artifact in Isu's grammar).
    Grammar(String),
}

/// One request for a completion.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub messages: Vec<Message>,
    pub constraint: Constraint,
    /// The most tokens the reply may take.
    pub max_tokens: u32,
    pub temperature: f64,
}

/// Tokens a request spent, as the server counts them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl Usage {
    pub fn total(&self) -> u64 {
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }
}

/// A reply: its text, what it cost, and the failed attempts before it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Completion {
    pub content: String,
    #[serde(default)]
    pub usage: Usage,
    /// Why each earlier attempt failed (a 500, a 429, a timeout), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retried: Vec<String>,
    /// Why the server stopped (`stop`, `length`), when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
}

impl Completion {
    /// A reply with no usage and no retries.
    pub fn text(content: impl Into<String>) -> Completion {
        Completion {
            content: content.into(),
            usage: Usage::default(),
            retried: Vec::new(),
            finish_reason: None,
        }
    }
}

/// Why no reply came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderError {
    /// The server answered with an error status that retrying cannot fix.
    Status { status: u16, body: String },
    /// Retries ran out on a status or transport error that may pass.
    Exhausted { attempts: u32, last: String },
    /// The answer is not a chat completion, or the request could not be sent.
    Protocol(String),
    /// The script has no more replies.
    NoMoreReplies,
    /// The failure a recorded run met, as it was reported (replay).
    Recorded(String),
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProviderError::Status { status, body } => {
                write!(f, "the server answered {status}: {}", short(body))
            }
            ProviderError::Exhausted { attempts, last } => write!(
                f,
                "no reply after {attempts} attempts; the last failed with: {last}"
            ),
            ProviderError::Protocol(why) => {
                write!(f, "the server's answer is not a chat completion: {why}")
            }
            ProviderError::NoMoreReplies => f.write_str("the script has no more replies"),
            ProviderError::Recorded(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for ProviderError {}

/// `s` on one line, cut after 300 characters.
pub(crate) fn short(s: &str) -> String {
    let one = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match one.char_indices().nth(300) {
        Some((i, _)) => format!("{}...", &one[..i]),
        None => one,
    }
}

/// A source of completions.
pub trait Provider: Send {
    fn complete(&mut self, request: &Request) -> Result<Completion, ProviderError>;
}

/// Replies from a list, in order; a recorded failure is given back as it was.
#[derive(Debug, Clone, Default)]
pub struct Scripted {
    replies: VecDeque<Result<Completion, ProviderError>>,
}

impl Scripted {
    pub fn new(replies: impl IntoIterator<Item = Result<Completion, ProviderError>>) -> Scripted {
        Scripted {
            replies: replies.into_iter().collect(),
        }
    }

    /// Replies from text (`--replies FILE`): one JSON value per line, either
    /// a string (the reply, no usage) or `{"content": ..., "usage":
    /// {"prompt_tokens": .., "completion_tokens": ..}}`. Blank lines are
    /// skipped. An error names the line.
    pub fn parse(text: &str) -> Result<Scripted, String> {
        let mut replies = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = |e: serde_json::Error| format!("line {}: {e}", i + 1);
            let c = match serde_json::from_str::<Value>(line).map_err(at)? {
                Value::String(content) => Completion::text(content),
                other => serde_json::from_value(other).map_err(at)?,
            };
            replies.push(Ok(c));
        }
        Ok(Scripted::new(replies))
    }

    /// How many replies are left.
    pub fn remaining(&self) -> usize {
        self.replies.len()
    }
}

impl Provider for Scripted {
    fn complete(&mut self, _request: &Request) -> Result<Completion, ProviderError> {
        self.replies
            .pop_front()
            .unwrap_or(Err(ProviderError::NoMoreReplies))
    }
}
