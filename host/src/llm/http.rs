//! The provider for OpenAI-compatible chat-completion servers (llama.cpp's
//! server, vLLM, Ollama, hosted APIs), over blocking HTTP with `ureq`.
//!
//! `POST {url}/chat/completions` with the model, the messages, `max_tokens`,
//! `temperature` and the constraint: `response_format` with a JSON Schema,
//! or llama.cpp's `grammar` field with GBNF. A 429 (after its `Retry-After`
//! seconds), a 5xx, a refused connection or a timeout is retried with
//! exponential backoff, up to `retries` more attempts; any other status, or
//! an answer that is not a chat completion, is an error at once.

use super::provider::{short, Completion, Constraint, Provider, ProviderError, Request, Usage};
use serde_json::{json, Value};
use std::time::Duration;

/// Where the server is and how patient to be with it.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpConfig {
    /// The API base, e.g. `http://127.0.0.1:8080/v1`.
    pub url: String,
    pub model: String,
    /// Sent as `Authorization: Bearer KEY` when set.
    pub key: Option<String>,
    /// For one whole attempt (connect, send, receive).
    pub timeout: Duration,
    /// Attempts after the first one.
    pub retries: u32,
    /// The first backoff; each next one doubles, up to [`MAX_BACKOFF`].
    pub backoff: Duration,
}

/// The longest wait between two attempts, `Retry-After` included.
pub const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// The variables the configuration comes from when no flag gives it.
pub const URL_ENV: &str = "ISU_LLM_URL";
pub const MODEL_ENV: &str = "ISU_LLM_MODEL";
pub const KEY_ENV: &str = "ISU_LLM_KEY";

/// The chat-completion client.
pub struct Http {
    config: HttpConfig,
    agent: ureq::Agent,
    /// Waits between attempts (tests record the waits instead).
    sleep: Box<dyn FnMut(Duration) + Send>,
}

impl std::fmt::Debug for Http {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Http")
            .field("url", &self.config.url)
            .field("model", &self.config.model)
            .finish_non_exhaustive()
    }
}

/// What one attempt came to.
enum Attempt {
    Done(Completion),
    /// Worth another try, after at least this long when the server says.
    Retry(String, Option<Duration>),
    Fail(ProviderError),
}

impl Http {
    pub fn new(config: HttpConfig) -> Http {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .http_status_as_error(false)
            .build()
            .into();
        Http {
            config,
            agent,
            sleep: Box::new(std::thread::sleep),
        }
    }

    /// The same client, waiting between attempts with `sleep`.
    pub fn with_sleep(mut self, sleep: impl FnMut(Duration) + Send + 'static) -> Http {
        self.sleep = Box::new(sleep);
        self
    }

    /// The request body.
    pub fn body(&self, request: &Request) -> Value {
        let mut body = json!({
            "model": self.config.model,
            "messages": request.messages,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
        });
        match &request.constraint {
            Constraint::None => {}
            Constraint::JsonSchema(schema) => {
                body["response_format"] = json!({
                    "type": "json_schema",
                    "json_schema": { "name": "isu_reply", "strict": true, "schema": schema },
                });
            }
            Constraint::Grammar(gbnf) => body["grammar"] = json!(gbnf),
        }
        body
    }

    fn attempt(&self, body: &str) -> Attempt {
        let url = format!("{}/chat/completions", self.config.url.trim_end_matches('/'));
        let mut req = self
            .agent
            .post(&url)
            .header("Content-Type", "application/json");
        if let Some(key) = &self.config.key {
            req = req.header("Authorization", &format!("Bearer {key}"));
        }
        let mut resp = match req.send(body) {
            Ok(r) => r,
            Err(e) => return transport(e),
        };
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = match resp.body_mut().read_to_string() {
            Ok(t) => t,
            Err(e) => return transport(e),
        };
        match status {
            200..=299 => match completion(&text) {
                Ok(c) => Attempt::Done(c),
                Err(why) => Attempt::Fail(ProviderError::Protocol(why)),
            },
            429 | 500..=599 => Attempt::Retry(format!("{status}: {}", short(&text)), retry_after),
            _ => Attempt::Fail(ProviderError::Status { status, body: text }),
        }
    }
}

/// A transport error: a timeout or a failed connection may pass; anything
/// else (a bad URL, a malformed answer) will not.
fn transport(e: ureq::Error) -> Attempt {
    match e {
        ureq::Error::Timeout(t) => Attempt::Retry(format!("timed out ({t})"), None),
        ureq::Error::Io(io) => Attempt::Retry(format!("connection failed: {io}"), None),
        ureq::Error::ConnectionFailed | ureq::Error::HostNotFound => {
            Attempt::Retry(format!("connection failed: {e}"), None)
        }
        other => Attempt::Fail(ProviderError::Protocol(other.to_string())),
    }
}

/// The first choice's message and the usage of a chat-completion answer.
fn completion(text: &str) -> Result<Completion, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
    let choice = &v["choices"][0];
    let content = choice["message"]["content"]
        .as_str()
        .ok_or_else(|| format!("no choices[0].message.content in {}", short(text)))?
        .to_owned();
    let usage = Usage {
        prompt_tokens: v["usage"]["prompt_tokens"].as_u64().unwrap_or(0),
        completion_tokens: v["usage"]["completion_tokens"].as_u64().unwrap_or(0),
    };
    Ok(Completion {
        content,
        usage,
        retried: Vec::new(),
        finish_reason: choice["finish_reason"].as_str().map(str::to_owned),
    })
}

impl Provider for Http {
    fn complete(&mut self, request: &Request) -> Result<Completion, ProviderError> {
        let body = self.body(request).to_string();
        let mut backoff = self.config.backoff;
        let mut retried = Vec::new();
        loop {
            match self.attempt(&body) {
                Attempt::Done(mut c) => {
                    c.retried = retried;
                    return Ok(c);
                }
                Attempt::Fail(e) => return Err(e),
                Attempt::Retry(last, after) => {
                    let attempts = retried.len() as u32 + 1;
                    if attempts > self.config.retries {
                        return Err(ProviderError::Exhausted { attempts, last });
                    }
                    let wait = after.unwrap_or(backoff).min(MAX_BACKOFF);
                    tracing::warn!("attempt {attempts} failed ({last}); retrying in {wait:?}");
                    (self.sleep)(wait);
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    retried.push(last);
                }
            }
        }
    }
}
