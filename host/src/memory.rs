//! The lessons memory: what a repair taught, kept in a store and found again
//! (`spec/memory.md`).
//!
//! A store holds records (JSON objects) wrapped in envelopes
//! `{id, kind, created_at, updated_at, record}`. Two stores share one
//! semantics: a JSON Lines file (`file://PATH.jsonl`, the default) and a
//! SQLite database (`sqlite://PATH#NAMESPACE`). Both take records with
//! [`Store::add`] and find them with [`Store::query`]; nothing else reads or
//! writes them, and no caller ever writes SQL.
//!
//! Writing to the memory is always explicit: `isu memory add`, or the repair
//! loop's one documented rule ([`Lesson`]). Reading it into a prompt is
//! explicit too.

// A refusal ends the operation: the diagnostic by value keeps the API plain.
#![allow(clippy::result_large_err)]

mod clock;
mod jsonl;
mod lesson;
mod query;
mod sqlite;
#[cfg(test)]
mod tests;

pub use clock::{record_id, Clock, FixedClock, SystemClock, Timestamp};
pub use lesson::Lesson;
pub use query::Query;

use crate::diag::{Code, Diagnostic};
use crate::root::ProjectRoot;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;
use std::path::{Path, PathBuf};

/// The store a command uses when it names none: relative to the project root.
pub const DEFAULT_STORE: &str = "file://.isu/memory.jsonl";

/// The namespace of a `sqlite://` store whose URL names none.
pub const DEFAULT_NAMESPACE: &str = "memory";

/// The largest record, as compact JSON text, a store takes.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// A record a store may take: a JSON object of at most [`MAX_RECORD_BYTES`]
/// whose `kind` and `text` members, where present, are strings.
#[derive(Debug, Clone, PartialEq)]
pub struct Record(Map<String, Value>);

impl Record {
    /// Checks `value` and makes it a record.
    pub fn new(value: Value) -> Result<Record, Diagnostic> {
        let Value::Object(map) = value else {
            return Err(Diagnostic::error(
                Code::InvalidRecord,
                format!("a record must be a JSON object, not {}", json_type(&value)),
            )
            .with_hint(
                r#"write the record as an object, e.g. {"kind": "lesson", "text": "..."}"#,
            ));
        };
        for field in ["kind", "text"] {
            if let Some(v) = map.get(field).filter(|v| !v.is_string()) {
                return Err(Diagnostic::error(
                    Code::InvalidRecord,
                    format!(
                        "the record's `{field}` must be a string, not {}",
                        json_type(v)
                    ),
                ));
            }
        }
        let size = serde_json::to_string(&map).map_or(0, |s| s.len());
        if size > MAX_RECORD_BYTES {
            return Err(Diagnostic::error(
                Code::InvalidRecord,
                format!("the record is {size} bytes of JSON; a store takes at most {MAX_RECORD_BYTES}"),
            )
            .with_hint("keep a record to what a later prompt needs: the code, the step, the text, the patch"));
        }
        Ok(Record(map))
    }

    /// The record's `kind`, if it has one.
    pub fn kind(&self) -> Option<&str> {
        self.0.get("kind").and_then(Value::as_str)
    }

    /// The record's `text`, if it has one.
    pub fn text(&self) -> Option<&str> {
        self.0.get("text").and_then(Value::as_str)
    }

    pub fn fields(&self) -> &Map<String, Value> {
        &self.0
    }
}

/// A stored record with what the store adds: its id, its `kind` (copied from
/// the record, `null` when it has none) and its times. `updated_at` equals
/// `created_at`: records are never changed once added.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    pub id: String,
    pub kind: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub record: Map<String, Value>,
}

impl Envelope {
    /// The envelope of `record`, added at `now` as the store's record at
    /// `position` (see [`record_id`]).
    fn new(record: &Record, now: Timestamp, position: u64) -> Envelope {
        Envelope {
            id: record_id(now, position),
            kind: record.kind().map(str::to_owned),
            created_at: now.rfc3339(),
            updated_at: now.rfc3339(),
            record: record.0.clone(),
        }
    }

    /// Why a stored envelope cannot be one this module wrote, if it cannot.
    fn defect(&self) -> Option<String> {
        if self.id.len() != 26 {
            return Some(format!("its id {:?} is not 26 characters", self.id));
        }
        for (name, t) in [
            ("created_at", &self.created_at),
            ("updated_at", &self.updated_at),
        ] {
            if Timestamp::parse_rfc3339(t).is_none() {
                return Some(format!("its {name} {t:?} is not an RFC 3339 UTC time"));
            }
        }
        let record = Record::new(Value::Object(self.record.clone())).err();
        if let Some(d) = record {
            return Some(d.message);
        }
        let kind = self.record.get("kind").and_then(Value::as_str);
        (self.kind.as_deref() != kind).then(|| "its kind differs from the record's".to_owned())
    }
}

/// A store's address: `file://PATH.jsonl` or `sqlite://PATH[#NAMESPACE]`.
/// PATH is taken literally (no percent-decoding), relative to the project root
/// or absolute, and must lead to a place inside the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreUrl {
    Jsonl(PathBuf),
    Sqlite { path: PathBuf, namespace: String },
}

impl StoreUrl {
    pub fn parse(url: &str) -> Result<StoreUrl, Diagnostic> {
        let bad = |why: &str| {
            Diagnostic::error(Code::InvalidStoreUrl, format!("the store URL `{url}` {why}"))
                .with_hint("write file://PATH.jsonl (the default is file://.isu/memory.jsonl) or sqlite://PATH#NAMESPACE")
        };
        if let Some(path) = url.strip_prefix("file://") {
            if path.contains('#') {
                return Err(bad("names a namespace, which only sqlite:// stores have"));
            }
            if Path::new(path).extension().is_none_or(|e| e != "jsonl") {
                return Err(bad("does not name a .jsonl file"));
            }
            return Ok(StoreUrl::Jsonl(PathBuf::from(path)));
        }
        if let Some(rest) = url.strip_prefix("sqlite://") {
            let (path, namespace) = match rest.split_once('#') {
                Some((_, "")) => return Err(bad("has an empty namespace after `#`")),
                Some((path, ns)) => (path, ns),
                None => (rest, DEFAULT_NAMESPACE),
            };
            if path.is_empty() || path.ends_with('/') {
                return Err(bad("names no database file"));
            }
            return Ok(StoreUrl::Sqlite {
                path: PathBuf::from(path),
                namespace: namespace.to_owned(),
            });
        }
        Err(bad("is neither file:// nor sqlite://"))
    }
}

impl fmt::Display for StoreUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreUrl::Jsonl(p) => write!(f, "file://{}", p.display()),
            StoreUrl::Sqlite { path, namespace } => {
                write!(f, "sqlite://{}#{namespace}", path.display())
            }
        }
    }
}

/// An open store. Opening creates the file, and the folders above it, when
/// they are missing.
#[derive(Debug)]
pub enum Store {
    Jsonl(jsonl::JsonlStore),
    Sqlite(sqlite::SqliteStore),
}

impl Store {
    /// Opens the store at `url`, whose path must lead inside `root`.
    pub fn open(url: &StoreUrl, root: &ProjectRoot) -> Result<Store, Diagnostic> {
        match url {
            StoreUrl::Jsonl(path) => {
                let path = create_parent(root.confine(path)?)?;
                jsonl::JsonlStore::open(path).map(Store::Jsonl)
            }
            StoreUrl::Sqlite { path, namespace } => {
                let path = create_parent(root.confine(path)?)?;
                sqlite::SqliteStore::open(path, namespace.clone()).map(Store::Sqlite)
            }
        }
    }

    /// Adds `record`, stamped with the time `clock` reads while the store is
    /// locked; returns its envelope (with its id).
    pub fn add(&mut self, record: &Record, clock: &dyn Clock) -> Result<Envelope, Diagnostic> {
        match self {
            Store::Jsonl(s) => s.add(record, clock),
            Store::Sqlite(s) => s.add(record, clock),
        }
    }

    /// The records that match `query`, newest first: by `created_at`, later
    /// first, and among records of the same time the one added last first.
    pub fn query(&self, query: &Query) -> Result<Vec<Envelope>, Diagnostic> {
        match self {
            Store::Jsonl(s) => s.query(query),
            Store::Sqlite(s) => s.query(query),
        }
    }
}

/// Creates the folders above `path` (already confined to the root).
fn create_parent(path: PathBuf) -> Result<PathBuf, Diagnostic> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| store_failed(&path, "creating its folder", &e))?;
    }
    Ok(path)
}

/// A store that cannot be opened, locked, read or written.
fn store_failed(path: &Path, doing: &str, e: &dyn fmt::Display) -> Diagnostic {
    Diagnostic::error(
        Code::StoreFailed,
        format!("the memory store {}: {doing} failed: {e}", path.display()),
    )
}

/// A stored envelope that is not one (`place` is "line 7" or "row 7").
fn corrupt(path: &Path, place: &str, why: &str) -> Diagnostic {
    Diagnostic::error(
        Code::CorruptStore,
        format!(
            "the memory store {}: {place} is not a record envelope: {why}",
            path.display()
        ),
    )
    .with_hint(format!(
        "repair or remove {place} by hand; isu never rewrites a store"
    ))
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
