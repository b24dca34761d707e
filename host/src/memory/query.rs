//! A query of the memory and the one matcher both stores use.

use super::Envelope;
use crate::diag::{Code, Diagnostic};
use serde_json::{Map, Value};

/// What `query` looks for: every given filter must hold; the newest
/// `limit` matching records are returned, newest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// A case-insensitive substring of the record's `text` field or of the
    /// record's JSON text.
    pub text: Option<String>,
    /// The record's `kind`, exactly.
    pub kind: Option<String>,
    /// Top-level record fields and the JSON value each must equal.
    pub fields: Vec<(String, Value)>,
    /// How many records at most; at least 1.
    pub limit: usize,
}

impl Default for Query {
    fn default() -> Query {
        Query {
            text: None,
            kind: None,
            fields: Vec::new(),
            limit: Query::DEFAULT_LIMIT,
        }
    }
}

impl Query {
    /// The number of records a query returns when it names no limit.
    pub const DEFAULT_LIMIT: usize = 10;

    /// Reads the JSON form `{"text": T, "kind": K, "where": {FIELD: VALUE},
    /// "limit": N}` (every member optional, no others allowed).
    pub fn from_json(v: &Value) -> Result<Query, Diagnostic> {
        let Some(obj) = v.as_object() else {
            return Err(invalid(format!("a query must be a JSON object, not {v}")));
        };
        let mut q = Query::default();
        for (key, value) in obj {
            match key.as_str() {
                "text" => q.text = Some(string_member("text", value)?),
                "kind" => q.kind = Some(string_member("kind", value)?),
                "where" => {
                    let Some(fields) = value.as_object() else {
                        return Err(invalid(format!(
                            "`where` must be an object of field names and values, not {value}"
                        )));
                    };
                    q.fields = fields.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                }
                "limit" => q.limit = limit(value)?,
                other => {
                    return Err(invalid(format!("a query has no member `{other}`"))
                        .with_hint("a query has the members text, kind, where and limit"))
                }
            }
        }
        Ok(q)
    }

    /// Adds the `where` clause `FIELD=VALUE` of the command line: VALUE is
    /// read as JSON when it is JSON (`n=3`, `ok=true`, `name="3"`), else taken
    /// as a string (`code=type_mismatch`). A field named twice is refused.
    pub fn add_where(&mut self, clause: &str) -> Result<(), Diagnostic> {
        let Some((field, value)) = clause.split_once('=').filter(|(f, _)| !f.is_empty()) else {
            return Err(invalid(format!("`{clause}` is not FIELD=VALUE"))
                .with_hint("write the clause as FIELD=VALUE, e.g. --where code=type_mismatch"));
        };
        if self.fields.iter().any(|(f, _)| f == field) {
            return Err(invalid(format!("the field `{field}` is named twice")));
        }
        let value = serde_json::from_str(value).unwrap_or_else(|_| Value::from(value));
        self.fields.push((field.to_owned(), value));
        Ok(())
    }

    /// Sets the limit from its command-line text (read as JSON, so that `2.5`
    /// and `-1` are refused with the same message as in the JSON form).
    pub fn set_limit(&mut self, text: &str) -> Result<(), Diagnostic> {
        let value = serde_json::from_str(text).unwrap_or_else(|_| Value::from(text));
        self.limit = limit(&value)?;
        Ok(())
    }

    /// Whether `e` passes every filter of the query.
    pub fn matches(&self, e: &Envelope) -> bool {
        if self
            .kind
            .as_ref()
            .is_some_and(|k| e.kind.as_ref() != Some(k))
        {
            return false;
        }
        if !self
            .fields
            .iter()
            .all(|(f, v)| e.record.get(f).is_some_and(|have| have == v))
        {
            return false;
        }
        match &self.text {
            None => true,
            Some(needle) => text_matches(&e.record, &needle.to_lowercase()),
        }
    }
}

/// `needle` (lower case) in the record's `text` field or in its JSON text.
fn text_matches(record: &Map<String, Value>, needle: &str) -> bool {
    let in_field = record
        .get("text")
        .and_then(Value::as_str)
        .is_some_and(|t| t.to_lowercase().contains(needle));
    in_field || serde_json::to_string(record).is_ok_and(|json| json.to_lowercase().contains(needle))
}

/// A limit: a JSON integer of at least 1.
fn limit(v: &Value) -> Result<usize, Diagnostic> {
    v.as_u64()
        .filter(|n| *n >= 1)
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
        .ok_or_else(|| {
            invalid(format!("the limit must be a positive integer, not {v}")).with_hint(format!(
                "give a whole number of records of at least 1 (the default is {})",
                Query::DEFAULT_LIMIT
            ))
        })
}

fn string_member(name: &str, v: &Value) -> Result<String, Diagnostic> {
    v.as_str()
        .map(str::to_owned)
        .ok_or_else(|| invalid(format!("`{name}` must be a string, not {v}")))
}

fn invalid(message: String) -> Diagnostic {
    Diagnostic::error(Code::InvalidQuery, message)
}
