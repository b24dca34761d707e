//! The event log of a run: JSON Lines, one event object a line, with its
//! sequence number (`seq`, from 0), its kind (`event`) and the SHA-256 of
//! the previous line (`prev`; 64 zeros on the first), so that a line
//! changed, dropped, added or moved is detected.
//!
//! Nothing in a line depends on anything but the configuration, the replies
//! and the clock readings the run recorded: the same ones give the same log,
//! byte for byte, which is what `isu replay` checks.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::fmt;
use std::io::Write;

/// The `prev` of the first line.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// A log being written: every line is kept, and written to the sink (when
/// there is one) as soon as it is made.
pub struct Log {
    lines: Vec<String>,
    sink: Option<Box<dyn Write + Send>>,
    /// The first write error, after which nothing more is written.
    failed: Option<String>,
}

impl fmt::Debug for Log {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Log")
            .field("lines", &self.lines.len())
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

/// The hex SHA-256 of a line (without its line break).
pub fn hash(line: &str) -> String {
    Sha256::digest(line.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Log {
    /// A log kept in memory only.
    pub fn new() -> Log {
        Log {
            lines: Vec::new(),
            sink: None,
            failed: None,
        }
    }

    /// A log that also writes each line to `sink`.
    pub fn to(sink: Box<dyn Write + Send>) -> Log {
        Log {
            sink: Some(sink),
            ..Log::new()
        }
    }

    /// Appends an event: `kind` and the fields of `payload` (an object;
    /// any other value is stored under `value`).
    pub fn push(&mut self, kind: &str, payload: Value) {
        let mut obj = match payload {
            Value::Object(fields) => fields,
            Value::Null => Map::new(),
            other => Map::from_iter([("value".to_owned(), other)]),
        };
        obj.insert("seq".into(), Value::from(self.lines.len() as u64));
        let prev = self
            .lines
            .last()
            .map_or_else(|| GENESIS.to_owned(), |l| hash(l));
        obj.insert("prev".into(), Value::String(prev));
        obj.insert("event".into(), Value::String(kind.to_owned()));
        let line = Value::Object(obj).to_string();
        if let (Some(sink), None) = (self.sink.as_mut(), &self.failed) {
            if let Err(e) = writeln!(sink, "{line}").and_then(|()| sink.flush()) {
                self.failed = Some(e.to_string());
            }
        }
        self.lines.push(line);
    }

    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// The log as text: each line ends with a line break.
    pub fn text(&self) -> String {
        self.lines.iter().map(|l| format!("{l}\n")).collect()
    }

    /// The error that stopped writing to the sink, if one did.
    pub fn write_error(&self) -> Option<&str> {
        self.failed.as_deref()
    }
}

impl Default for Log {
    fn default() -> Log {
        Log::new()
    }
}

/// A log that does not hold together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenLog {
    /// 1-based.
    pub line: usize,
    pub why: String,
}

impl fmt::Display for BrokenLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

/// One event read back.
pub type Event = Map<String, Value>;

/// Reads a log, checking every line's sequence number and hash: the events
/// with their lines, or the first line that breaks the chain.
pub fn read(text: &str) -> Result<Vec<(String, Event)>, BrokenLog> {
    let mut events = Vec::new();
    let mut prev = GENESIS.to_owned();
    for (i, line) in text.lines().enumerate() {
        let broken = |why: String| BrokenLog { line: i + 1, why };
        let v: Value = serde_json::from_str(line).map_err(|e| broken(format!("not JSON ({e})")))?;
        let Value::Object(obj) = v else {
            return Err(broken("not a JSON object".into()));
        };
        if obj.get("seq").and_then(Value::as_u64) != Some(i as u64) {
            return Err(broken(format!(
                "its seq is not {i}: a line was dropped, added or moved"
            )));
        }
        if obj.get("prev").and_then(Value::as_str) != Some(prev.as_str()) {
            return Err(broken(
                "its prev is not the SHA-256 of the line before: the log was changed".into(),
            ));
        }
        if !obj.get("event").is_some_and(Value::is_string) {
            return Err(broken("it names no event".into()));
        }
        prev = hash(line);
        events.push((line.to_owned(), obj));
    }
    if events.is_empty() {
        return Err(BrokenLog {
            line: 1,
            why: "the log is empty".into(),
        });
    }
    Ok(events)
}

/// Where a replayed log parts from the recorded one: the index of the first
/// line that differs, with both versions (`None` past the end of one).
pub fn first_difference<'a>(
    recorded: &'a [String],
    replayed: &'a [String],
) -> Option<(usize, Option<&'a str>, Option<&'a str>)> {
    let n = recorded.len().max(replayed.len());
    (0..n).find_map(|i| {
        let (a, b) = (recorded.get(i), replayed.get(i));
        (a != b).then(|| (i, a.map(String::as_str), b.map(String::as_str)))
    })
}
