//! The OpenAI-compatible provider against a chat-completion server on
//! 127.0.0.1 (no network): the request it sends, the usage it reads, and
//! which failures it retries (429 after Retry-After, 5xx, timeouts, refused
//! connections) and which it does not.

#[path = "llm/loopback.rs"]
mod loopback;

use isu_host::llm::http::{Http, HttpConfig};
use isu_host::llm::provider::{
    Completion, Constraint, Message, Provider, ProviderError, Request, Role, Usage,
};
use loopback::{completion, Answer, Server};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn config(url: &str, retries: u32, timeout_ms: u64) -> HttpConfig {
    HttpConfig {
        url: url.to_owned(),
        model: "tiny".into(),
        key: Some("sekret".into()),
        timeout: Duration::from_millis(timeout_ms),
        retries,
        backoff: Duration::from_millis(10),
    }
}

fn request(constraint: Constraint) -> Request {
    Request {
        messages: vec![
            Message::new(Role::System, "sys"),
            Message::new(Role::User, "hi"),
        ],
        constraint,
        max_tokens: 64,
        temperature: 0.0,
    }
}

/// What one completion came to: the result, the bodies the server got, the
/// waits between attempts.
struct Ran {
    result: Result<Completion, ProviderError>,
    bodies: Vec<Value>,
    waits: Vec<Duration>,
}

fn client(url: &str, retries: u32, timeout_ms: u64) -> (Http, Arc<Mutex<Vec<Duration>>>) {
    let waits = Arc::new(Mutex::new(Vec::new()));
    let w = waits.clone();
    let http = Http::new(config(url, retries, timeout_ms)).with_sleep(move |d| {
        if let Ok(mut w) = w.lock() {
            w.push(d);
        }
    });
    (http, waits)
}

fn run(answers: Vec<Answer>, retries: u32, timeout_ms: u64, constraint: Constraint) -> Ran {
    let server = Server::start(answers);
    let (mut http, waits) = client(&server.url, retries, timeout_ms);
    let result = http.complete(&request(constraint));
    let waits = waits.lock().map(|w| w.clone()).unwrap_or_default();
    Ran {
        result,
        bodies: server.bodies(),
        waits,
    }
}

#[test]
fn a_reply_with_its_usage_and_the_request_it_answers() {
    let schema = json!({"type": "object"});
    let ran = run(
        vec![completion("{\"a\": 1}", 12, 5)],
        2,
        5000,
        Constraint::JsonSchema(schema.clone()),
    );
    let c = ran.result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.content, "{\"a\": 1}");
    assert_eq!(
        c.usage,
        Usage {
            prompt_tokens: 12,
            completion_tokens: 5
        }
    );
    assert_eq!(c.finish_reason.as_deref(), Some("stop"));
    assert!(c.retried.is_empty());
    assert!(ran.waits.is_empty());
    assert_eq!(ran.bodies.len(), 1);
    let b = &ran.bodies[0];
    assert_eq!(b["model"], "tiny");
    assert_eq!(b["messages"][0]["role"], "system");
    assert_eq!(b["messages"][1]["content"], "hi");
    assert_eq!(b["max_tokens"], 64);
    assert_eq!(b["response_format"]["type"], "json_schema");
    assert_eq!(b["response_format"]["json_schema"]["schema"], schema);
    assert!(b.get("grammar").is_none());
}

#[test]
fn a_grammar_goes_in_llama_cpps_field() {
    let ran = run(
        vec![completion("x", 1, 1)],
        0,
        5000,
        Constraint::Grammar("root ::= \"x\"".into()),
    );
    assert!(ran.result.is_ok());
    assert_eq!(ran.bodies[0]["grammar"], "root ::= \"x\"");
    assert!(ran.bodies[0].get("response_format").is_none());
    let none = run(vec![completion("x", 1, 1)], 0, 5000, Constraint::None);
    assert!(none.bodies[0].get("grammar").is_none());
    assert!(none.bodies[0].get("response_format").is_none());
}

#[test]
fn a_500_then_success_retries_after_the_backoff() {
    let ran = run(
        vec![
            Answer::Http(500, vec![], "boom".into()),
            completion("ok", 1, 1),
        ],
        3,
        5000,
        Constraint::None,
    );
    let c = ran.result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.content, "ok");
    assert_eq!(c.retried, vec!["500: boom".to_owned()]);
    assert_eq!(ran.bodies.len(), 2);
    assert_eq!(ran.waits, vec![Duration::from_millis(10)]);
}

#[test]
fn a_429_waits_as_retry_after_says() {
    let ran = run(
        vec![
            Answer::Http(
                429,
                vec![("Retry-After".into(), "7".into())],
                "slow down".into(),
            ),
            completion("ok", 1, 1),
        ],
        3,
        5000,
        Constraint::None,
    );
    let c = ran.result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.retried, vec!["429: slow down".to_owned()]);
    assert_eq!(ran.waits, vec![Duration::from_secs(7)]);
}

#[test]
fn a_timeout_is_retried() {
    let ran = run(
        vec![
            Answer::Silence(Duration::from_millis(2500)),
            completion("late", 1, 1),
        ],
        2,
        800,
        Constraint::None,
    );
    let c = ran.result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.content, "late");
    assert!(c.retried[0].starts_with("timed out"), "{:?}", c.retried);
    assert_eq!(ran.bodies.len(), 2);
    assert_eq!(ran.waits.len(), 1);
}

#[test]
fn a_client_error_is_not_retried() {
    let ran = run(
        vec![
            Answer::Http(401, vec![], "{\"error\": \"bad key\"}".into()),
            completion("never", 1, 1),
        ],
        3,
        5000,
        Constraint::None,
    );
    match ran.result {
        Err(ProviderError::Status { status: 401, body }) => assert!(body.contains("bad key")),
        other => panic!("{other:?}"),
    }
    assert_eq!(ran.bodies.len(), 1);
    assert!(ran.waits.is_empty());
}

#[test]
fn an_answer_that_is_not_a_chat_completion_is_an_error() {
    let ran = run(
        vec![Answer::Http(200, vec![], "{\"choices\": []}".into())],
        3,
        5000,
        Constraint::None,
    );
    match ran.result {
        Err(ProviderError::Protocol(why)) => assert!(why.contains("choices[0]"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(ran.bodies.len(), 1);
}

#[test]
fn retries_run_out() {
    let busy = || Answer::Http(503, vec![], "busy".into());
    let ran = run(vec![busy(), busy(), busy()], 2, 5000, Constraint::None);
    match ran.result {
        Err(ProviderError::Exhausted { attempts: 3, last }) => assert!(last.contains("503")),
        other => panic!("{other:?}"),
    }
    assert_eq!(ran.bodies.len(), 3);
    assert_eq!(
        ran.waits,
        vec![Duration::from_millis(10), Duration::from_millis(20)]
    );
}

#[test]
fn a_refused_connection_is_retried_then_reported() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"));
    let (mut http, waits) = client(&format!("http://127.0.0.1:{port}/v1"), 1, 5000);
    match http.complete(&request(Constraint::None)) {
        Err(ProviderError::Exhausted { attempts: 2, last }) => {
            assert!(last.contains("connection"), "{last}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(waits.lock().map(|w| w.len()).unwrap_or(0), 1);
}

#[test]
fn the_key_is_a_bearer_token_and_never_in_the_body() {
    let ran = run(vec![completion("x", 1, 1)], 0, 5000, Constraint::None);
    assert!(!ran.bodies[0].to_string().contains("sekret"));
}
