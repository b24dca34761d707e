//! How commands report: human text on stderr, or one JSON document on stdout.
//! Either way a report shows at most [`diag::MAX_PER_CODE`] diagnostics of
//! one code ([`diag::cap`]).

use super::{Failure, Format};
use crate::diag::{self, Code, Diagnostic};
use crate::source::Source;
use anyhow::{Context, Result};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufWriter, IsTerminal, Read, Write};
use std::path::Path;

/// Reads a source file, or standard input for `-`. Text that is not UTF-8 is
/// a `ParseError` (`invalid_utf8`) at the line and column of its first bad byte.
pub fn read_source(path: &Path) -> Result<Source> {
    let (name, bytes) = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("reading standard input")?;
        ("<stdin>".to_owned(), bytes)
    } else {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        (path.display().to_string(), bytes)
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source::new(name, text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bad = e.as_bytes().get(at).copied().unwrap_or(0);
            // The text shown with the diagnostic has a `?` for each bad
            // byte, so that byte offsets stay those of the file.
            let mut shown = String::with_capacity(e.as_bytes().len());
            for chunk in e.as_bytes().utf8_chunks() {
                shown.push_str(chunk.valid());
                shown.extend(std::iter::repeat_n('?', chunk.invalid().len()));
            }
            let src = Source::new(name, shown);
            let (line, column) = src.line_col(at as u32);
            let diag = Diagnostic::error(
                Code::InvalidUtf8,
                format!(
                    "{} is not UTF-8 text: the byte 0x{bad:02X} at line {line}, column {column} (byte offset {at}) starts no UTF-8 character",
                    src.name
                ),
            )
            .at(src.span(at as u32, at as u32 + 1))
            .with_hint("save the file as UTF-8; Isu text is UTF-8 only");
            Err(Failure {
                diag,
                source: Some(src),
            }
            .into())
        }
    }
}

/// The JSON report `file` that `command --format json` printed (a shard's,
/// run as `shard_run`, for a `--merge`): unreadable is an I/O failure,
/// anything else a usage one.
pub fn read_report<T: serde::de::DeserializeOwned>(
    file: &Path,
    command: &str,
    shard_run: &str,
) -> Result<T> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        Failure::io(
            Code::IoError,
            format!("cannot read {}: {e}", file.display()),
            "name the JSON reports the shards printed",
        )
    })?;
    serde_json::from_str(&text).map_err(|e| {
        Failure::usage(
            format!(
                "{} is not a report of `{command} --format json`: {e}",
                file.display()
            ),
            &format!("merge what `{shard_run} --shard I/N --format json` printed"),
        )
        .into()
    })
}

/// Whether stderr shows colour: only on a terminal, and not when the
/// `NO_COLOR` variable is set to anything but the empty string.
pub fn stderr_in_colour() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Reports diagnostics for people on stderr (nothing when there are none).
pub fn human_diags(diags: &[Diagnostic], source: Option<&Source>) {
    if diags.is_empty() {
        return;
    }
    eprint!(
        "{}",
        diag::render(&diag::cap(diags), source, stderr_in_colour())
    );
}

/// Prints one JSON report on stdout: `{"ok": .., "diagnostics": [..], ..fields}`.
pub fn json_report(diags: &[Diagnostic], fields: Vec<(&str, Value)>) -> Result<()> {
    json_report_with::<()>(diags, fields, None)
}

/// [`json_report`] with one more field, `big`, written straight from its
/// value (the IIR of a large program) instead of through a `Value`.
pub fn json_report_with<T: Serialize>(
    diags: &[Diagnostic],
    fields: Vec<(&str, Value)>,
    big: Option<(&str, &T)>,
) -> Result<()> {
    let shown = diag::cap(diags);
    // Keys in string order, diagnostics as JSON objects with their keys in
    // string order: the report's bytes are those of a `serde_json::Value`.
    let mut obj: BTreeMap<&str, Field<'_, T>> = BTreeMap::new();
    obj.insert("ok", Field::Value(Value::Bool(!diag::has_errors(diags))));
    obj.insert(
        "diagnostics",
        Field::Value(Value::Array(
            shown.iter().map(Diagnostic::to_json).collect(),
        )),
    );
    for (k, v) in fields {
        obj.insert(k, Field::Value(v));
    }
    if let Some((k, v)) = big {
        obj.insert(k, Field::Big(v));
    }
    print_json(&obj)
}

/// One field of a JSON report.
enum Field<'a, T> {
    Value(Value),
    Big(&'a T),
}

impl<T: Serialize> Serialize for Field<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Value(v) => v.serialize(s),
            Field::Big(v) => v.serialize(s),
        }
    }
}

/// Prints a JSON value on stdout, one line, through one buffer (stdout by
/// itself would write each piece separately).
pub fn print_json(v: &impl Serialize) -> Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    serde_json::to_writer(&mut out, v).context("writing JSON to stdout")?;
    writeln!(out).context("writing to stdout")?;
    out.flush().context("writing to stdout")
}

/// Reports the diagnostics of a command in the chosen format; `fields` are the
/// command's results for the JSON report.
pub fn report(
    format: Format,
    diags: &[Diagnostic],
    source: Option<&Source>,
    fields: Vec<(&str, Value)>,
) -> Result<()> {
    match format {
        Format::Human => {
            human_diags(diags, source);
            Ok(())
        }
        Format::Json => json_report(diags, fields),
    }
}
