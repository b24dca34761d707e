//! A chat-completion server on 127.0.0.1 for tests: it answers each request
//! with the next scripted answer (or with what a function of the request
//! says) and records the bodies it was sent. No network beyond loopback.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Answer {
    /// A status, extra headers and a body.
    Http(u16, Vec<(String, String)>, String),
    /// Say nothing for this long, then close (the client times out first).
    Silence(Duration),
}

/// A chat completion whose message is `content`.
pub fn completion(content: &str, prompt_tokens: u64, completion_tokens: u64) -> Answer {
    let body = serde_json::json!({
        "id": "x",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens},
    });
    Answer::Http(200, Vec::new(), body.to_string())
}

/// An envelope reply as a chat completion (10 prompt, 5 completion tokens).
pub fn envelope(decision: &str, artifact: &str, reason: &str) -> Answer {
    let content = serde_json::json!({"decision": decision, "artifact": artifact, "reason": reason});
    completion(&content.to_string(), 10, 5)
}

type Responder = Box<dyn Fn(usize, &str) -> Answer + Send + Sync>;

pub struct Server {
    /// The API base: `http://127.0.0.1:PORT/v1`.
    pub url: String,
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    received: Arc<Mutex<Vec<String>>>,
    handle: Option<JoinHandle<()>>,
}

impl Server {
    /// Serves `answers` in order, one per request; after the last, a 500.
    pub fn start(answers: Vec<Answer>) -> Server {
        Server::with(move |i, _| {
            answers
                .get(i)
                .cloned()
                .unwrap_or_else(|| Answer::Http(500, Vec::new(), "no more answers".into()))
        })
    }

    /// Serves what `respond(request number, body)` says.
    pub fn with(respond: impl Fn(usize, &str) -> Answer + Send + Sync + 'static) -> Server {
        let respond: Arc<Responder> = Arc::new(Box::new(respond));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
        let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = received.clone();
        // Each connection is served on its own thread, so that a silent
        // answer does not hold up the client's next attempt.
        let handle = std::thread::spawn(move || {
            let mut served = Vec::new();
            let count = Arc::new(Mutex::new(0usize));
            for stream in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { break };
                let (log, respond, count) = (log.clone(), respond.clone(), count.clone());
                served.push(std::thread::spawn(move || {
                    serve(stream, &respond, &log, &count)
                }));
            }
            for s in served {
                let _ = s.join();
            }
        });
        Server {
            url: format!("http://{addr}/v1"),
            addr,
            stop,
            received,
            handle: Some(handle),
        }
    }

    /// The bodies of the requests received, in order.
    pub fn bodies(&self) -> Vec<serde_json::Value> {
        self.received
            .lock()
            .map(|v| {
                v.iter()
                    .map(|b| serde_json::from_str(b).unwrap_or(serde_json::Value::Null))
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for Server {
    /// Stops accepting (a connection of its own wakes the accept loop) and
    /// waits for every answer to finish.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

fn serve(stream: TcpStream, respond: &Responder, log: &Mutex<Vec<String>>, count: &Mutex<usize>) {
    let mut reader = BufReader::new(stream);
    let mut length = 0usize;
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
        return;
    }
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let body = String::from_utf8_lossy(&body).into_owned();
    let n = {
        let (Ok(mut log), Ok(mut count)) = (log.lock(), count.lock()) else {
            return;
        };
        log.push(body.clone());
        *count += 1;
        *count - 1
    };
    let answer = respond(n, &body);
    let mut stream = reader.into_inner();
    match answer {
        Answer::Silence(d) => std::thread::sleep(d),
        Answer::Http(status, headers, body) => {
            let mut head = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(body.as_bytes());
        }
    }
}
