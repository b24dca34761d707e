//! `isu memory add|query`: the lessons memory from the command line.

// A refusal ends the operation: the diagnostic by value keeps the API plain.
#![allow(clippy::result_large_err)]

use super::output::{print_json, report};
use super::Format;
use crate::diag::{exit_code, Code, Diagnostic};
use crate::memory::{Envelope, Query, Record, Store, StoreUrl, SystemClock, DEFAULT_STORE};
use crate::root::ProjectRoot;
use anyhow::{Context, Result};
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Add records (JSON objects) to the store; print each one's id.
    Add {
        /// A file of one or more JSON objects (one per line, as JSON Lines), or `-` for standard input.
        #[arg(value_name = "RECORD.json")]
        input: PathBuf,
        #[command(flatten)]
        at: At,
    },
    /// Print the records that match, newest first, one JSON envelope per line.
    Query {
        /// A case-insensitive substring of the record's text field or of its JSON.
        #[arg(long)]
        text: Option<String>,
        /// The record's kind, exactly.
        #[arg(long)]
        kind: Option<String>,
        /// A top-level field and its value (JSON, or else a string); repeatable, all must hold.
        #[arg(long = "where", value_name = "FIELD=VALUE")]
        fields: Vec<String>,
        /// How many records at most (a positive integer; default 10).
        #[arg(long, allow_hyphen_values = true)]
        limit: Option<String>,
        #[command(flatten)]
        at: At,
    },
}

/// Which store, under which root, and how to report.
#[derive(Debug, clap::Args)]
pub struct At {
    /// The store: file://PATH.jsonl or sqlite://PATH#NAMESPACE, PATH relative to the project root.
    #[arg(long, value_name = "URL", default_value = DEFAULT_STORE)]
    pub store: String,
    /// The project root (default: the nearest folder at or above the current one
    /// holding isu-plugins.toml or .git, else the current folder).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    #[command(flatten)]
    pub format_flag: super::FormatFlag,
    /// How the command reports (see `super::Common::format`).
    #[arg(skip)]
    pub format: Format,
}

impl Args {
    /// Where the store is and how to report, whatever the action.
    pub fn at_mut(&mut self) -> &mut At {
        match &mut self.action {
            Action::Add { at, .. } | Action::Query { at, .. } => at,
        }
    }
}

/// Runs `isu memory`.
pub fn memory(args: &Args) -> Result<i32> {
    match &args.action {
        Action::Add { input, at } => add(input, at),
        Action::Query {
            text,
            kind,
            fields,
            limit,
            at,
        } => {
            let query = (|| {
                let mut q = Query {
                    text: text.clone(),
                    kind: kind.clone(),
                    ..Query::default()
                };
                for clause in fields {
                    q.add_where(clause)?;
                }
                if let Some(limit) = limit {
                    q.set_limit(limit)?;
                }
                Ok(q)
            })();
            match query {
                Ok(q) => run_query(&q, at),
                Err(d) => refuse(at.format, d),
            }
        }
    }
}

/// Opens the store `at` names, under its project root.
fn open(at: &At) -> Result<Store, Diagnostic> {
    let root = match &at.root {
        Some(dir) => ProjectRoot::at(dir)?,
        None => ProjectRoot::discover(Path::new("."))?,
    };
    Store::open(&StoreUrl::parse(&at.store)?, &root)
}

fn add(input: &Path, at: &At) -> Result<i32> {
    let records = match read_records(input)? {
        Ok(records) => records,
        Err(d) => return refuse(at.format, d),
    };
    let mut store = match open(at) {
        Ok(store) => store,
        Err(d) => return refuse(at.format, d),
    };
    let mut added = Vec::new();
    let mut diags = Vec::new();
    for record in &records {
        match store.add(record, &SystemClock) {
            Ok(e) => {
                if at.format == Format::Human {
                    println!("{}", e.id);
                }
                added.push(e);
            }
            Err(d) => {
                diags.push(d);
                break;
            }
        }
    }
    let fields = vec![
        ("store", Value::from(at.store.as_str())),
        ("added", envelopes(&added)?),
    ];
    report(at.format, &diags, None, fields)?;
    Ok(exit_code(&diags))
}

fn run_query(query: &Query, at: &At) -> Result<i32> {
    let found = match open(at).and_then(|store| store.query(query)) {
        Ok(found) => found,
        Err(d) => return refuse(at.format, d),
    };
    match at.format {
        Format::Human => {
            for e in &found {
                print_json(e)?;
            }
        }
        Format::Json => report(
            Format::Json,
            &[],
            None,
            vec![
                ("store", Value::from(at.store.as_str())),
                ("records", envelopes(&found)?),
            ],
        )?,
    }
    Ok(0)
}

/// Reads the records of `input`: one or more JSON objects, each checked
/// before any is added.
fn read_records(input: &Path) -> Result<std::result::Result<Vec<Record>, Diagnostic>> {
    let mut text = String::new();
    if input.as_os_str() == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
    } else {
        text = std::fs::read_to_string(input)
            .with_context(|| format!("reading {}", input.display()))?;
    }
    let name = if input.as_os_str() == "-" {
        "standard input".to_owned()
    } else {
        input.display().to_string()
    };
    let mut records = Vec::new();
    // Read strictly, as every JSON Isu takes in: exact integers, no key twice.
    let mut rest = text.as_str();
    for i in 0.. {
        if rest.trim().is_empty() {
            break;
        }
        let value = isu_plugin_api::json::parse_prefix(rest).map(|(v, end)| {
            rest = &rest[end..];
            v
        });
        let record = match value {
            Err(e) => Err(Diagnostic::error(
                Code::InvalidRecord,
                format!(
                    "record {} of {name} is not JSON ({e}; lines counted from where the record starts)",
                    i + 1
                ),
            )
            .with_hint("give one JSON object per record, e.g. one per line")),
            Ok(v) => Record::new(v).map_err(|d| Diagnostic {
                message: format!("record {} of {name}: {}", i + 1, d.message),
                ..d
            }),
        };
        match record {
            Ok(r) => records.push(r),
            Err(d) => return Ok(Err(d)),
        }
    }
    if records.is_empty() {
        return Ok(Err(Diagnostic::error(
            Code::InvalidRecord,
            format!("{name} holds no record"),
        )
        .with_hint(
            r#"give at least one JSON object, e.g. {"kind": "lesson", "text": "..."}"#,
        )));
    }
    Ok(Ok(records))
}

fn envelopes(found: &[Envelope]) -> Result<Value> {
    serde_json::to_value(found).context("serializing records")
}

/// Reports a refused request; its exit code.
fn refuse(format: Format, d: Diagnostic) -> Result<i32> {
    let diags = [d];
    report(format, &diags, None, Vec::new())?;
    Ok(exit_code(&diags))
}
