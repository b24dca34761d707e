//! How commands report: human text on stderr, or one JSON document on stdout.

use super::Format;
use crate::diag::{self, Diagnostic};
use crate::source::Source;
use anyhow::{Context, Result};
use serde_json::{Map, Value};
use std::io::{IsTerminal, Read, Write};
use std::path::Path;

/// Reads a source file, or standard input for `-`.
pub fn read_source(path: &Path) -> Result<Source> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        return Ok(Source::new("<stdin>", text));
    }
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(Source::new(path.display().to_string(), text))
}

/// Writes `text` to `path` atomically: a temporary file beside it, then a rename,
/// so an interrupted write never leaves half a file.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.isu-tmp-{}", std::process::id()));
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| {
        let _ = std::fs::remove_file(&tmp);
        format!("replacing {}", path.display())
    })
}

/// Reports diagnostics for people on stderr (nothing when there are none).
pub fn human_diags(diags: &[Diagnostic], source: Option<&Source>) {
    if diags.is_empty() {
        return;
    }
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    eprint!("{}", diag::render(diags, source, color));
}

/// Prints one JSON report on stdout: `{"ok": .., "diagnostics": [..], ..fields}`.
pub fn json_report(diags: &[Diagnostic], fields: Vec<(&str, Value)>) -> Result<()> {
    let mut obj = Map::new();
    obj.insert("ok".into(), Value::Bool(!diag::has_errors(diags)));
    obj.insert(
        "diagnostics".into(),
        Value::Array(diags.iter().map(ordered_json).collect()),
    );
    for (k, v) in fields {
        obj.insert(k.into(), v);
    }
    print_json(&Value::Object(obj))
}

/// A diagnostic's JSON with its fields in declaration order.
fn ordered_json(d: &Diagnostic) -> Value {
    serde_json::to_value(d).unwrap_or(Value::Null)
}

/// Prints a JSON value on stdout, one line.
pub fn print_json(v: &impl serde::Serialize) -> Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, v).context("writing JSON to stdout")?;
    writeln!(out).context("writing to stdout")?;
    Ok(())
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
