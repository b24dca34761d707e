//! The page of an evaluation, made from its JSON report (`isu eval
//! --format json`): the figures, a histogram of the rounds tasks took to
//! pass, the tokens each task spent, and a table of the tasks, each linked
//! to its run's page when the report names the task's log.

use super::html::{self, count, duration, share, Esc};
use super::svg::{self, Bar};
use crate::llm::eval::{summarize, TaskResult};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

/// What the page reads of the report; the figures are computed again from
/// the tasks, so that they agree with the table whatever the report says.
#[derive(Debug, Deserialize)]
struct Report {
    #[serde(default)]
    model: String,
    #[serde(default)]
    lessons: bool,
    #[serde(default)]
    store: Option<String>,
    tasks: Vec<TaskResult>,
}

/// The page of the evaluation `report` (the JSON document of `isu eval
/// --format json`, or several merged), to be written at `at`: the links to
/// the tasks' pages are relative to its folder. An error says why the
/// report is not one.
pub fn page(report: &Value, at: &Path) -> Result<String, String> {
    let report: Report = serde_json::from_value(report.clone())
        .map_err(|e| format!("not a report of isu eval: {e}"))?;
    let tasks = &report.tasks;
    let s = summarize(tasks);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<header>\n<h1>Evaluation <span class=\"model\">{}</span></h1>\n<p class=\"summary\">{} · lessons {}</p>\n</header>",
        Esc(&report.model),
        count(s.tasks as u64, "task", "tasks"),
        match &report.store {
            Some(url) if report.lessons => format!("on (store <code>{}</code>)", Esc(url)),
            _ if report.lessons => "on".to_owned(),
            _ => "off".to_owned(),
        }
    );
    out.push_str("<section id=\"figures\">\n<h2>Figures</h2>\n<dl class=\"figures\">\n");
    let figures = [
        (
            "pass-at-1",
            "pass@1 (hidden examples)",
            share(s.passed, s.tasks),
        ),
        (
            "fixed-within-one",
            "fixed within one patch (of the tasks whose first program failed)",
            share(s.fixed_within_one, s.failed_first),
        ),
        (
            "fixed-within-two",
            "fixed within two patches",
            share(s.fixed_within_two, s.failed_first),
        ),
        (
            "tokens-per-task",
            "tokens per task",
            format!("{:.0}", s.tokens_per_task),
        ),
        (
            "time-per-task",
            "time per task",
            duration(s.ms_per_task.round() as u64),
        ),
    ];
    for (id, what, value) in figures {
        let _ = writeln!(
            out,
            "<div class=\"figure\" id=\"{id}\"><dt>{what}</dt><dd>{}</dd></div>",
            Esc(&value)
        );
    }
    out.push_str("</dl>\n</section>\n");
    out.push_str("<section id=\"charts\">\n<div class=\"chart-box\">\n<h2>Rounds to pass</h2>\n");
    svg::columns(
        &mut out,
        "histogram",
        "Tasks by the round whose program first passed the shown examples",
        &rounds_to_pass(tasks),
    );
    out.push_str("</div>\n<div class=\"chart-box\">\n<h2>Tokens per task</h2>\n");
    let tokens: Vec<Bar> = tasks
        .iter()
        .map(|t| Bar {
            label: t.id.clone(),
            value: t.tokens,
        })
        .collect();
    svg::rows(
        &mut out,
        "tokens",
        "Tokens (prompt and completion) each task spent",
        &tokens,
    );
    out.push_str("</div>\n</section>\n");
    table(&mut out, tasks, at);
    let _ = writeln!(
        out,
        "<footer><p>Made by isu {} from the evaluation's report.</p></footer>",
        Esc(env!("CARGO_PKG_VERSION"))
    );
    let title = format!("evaluation: {} of {} pass", s.passed, s.tasks);
    Ok(html::page(
        &title,
        concat!("isu ", env!("CARGO_PKG_VERSION")),
        &out,
    ))
}

/// A column for each round from 1 to the last any task first passed in
/// (empty rounds too), then one for the tasks that never passed.
fn rounds_to_pass(tasks: &[TaskResult]) -> Vec<Bar> {
    let mut by_round: BTreeMap<u32, u64> = BTreeMap::new();
    for t in tasks {
        if let Some(n) = t.passed_in_round {
            *by_round.entry(n).or_insert(0) += 1;
        }
    }
    let first = by_round.keys().next().copied().unwrap_or(1).min(1);
    let last = by_round.keys().last().copied().unwrap_or(0);
    let mut bars: Vec<Bar> = (first..=last)
        .map(|n| Bar {
            label: n.to_string(),
            value: by_round.get(&n).copied().unwrap_or(0),
        })
        .collect();
    bars.push(Bar {
        label: "never".into(),
        value: tasks.iter().filter(|t| t.passed_in_round.is_none()).count() as u64,
    });
    bars
}

fn table(out: &mut String, tasks: &[TaskResult], at: &Path) {
    out.push_str("<section id=\"tasks\">\n<h2>Tasks</h2>\n<table class=\"tasks\">\n<thead><tr><th>task</th><th>pass</th><th>hidden</th><th>status</th><th>rounds</th><th>passed in</th><th>tokens</th><th>time</th></tr></thead>\n<tbody>\n");
    let from = at.parent().unwrap_or(Path::new(""));
    for t in tasks {
        let link = t
            .log
            .as_deref()
            .and_then(|log| relative(from, &Path::new(log).with_extension("html")));
        let id = match link {
            Some(href) => format!("<a href=\"{}\">{}</a>", Esc(&href), Esc(&t.id)),
            None => Esc(&t.id).to_string(),
        };
        let status = t.status.as_str();
        let _ = writeln!(
            out,
            "<tr class=\"{}\" data-task=\"{}\"><td>{id}</td><td>{}</td><td>{}/{}</td><td><span class=\"status {status}\">{}</span></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if t.passed { "pass" } else { "fail" },
            Esc(&t.id),
            if t.passed { "yes" } else { "no" },
            t.hidden_passed,
            t.hidden,
            status.replace('_', " "),
            t.rounds,
            t.passed_in_round.map_or("-".to_owned(), |n| n.to_string()),
            t.tokens,
            duration(t.ms)
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

/// `to` relative to the folder `from` (both relative to the current
/// folder, or absolute), as a URL path: each segment percent-encoded, so
/// that no task's name can make the link anything but a relative path.
fn relative(from: &Path, to: &Path) -> Option<String> {
    let (from, to) = (normal(from)?, normal(to)?);
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut segments: Vec<String> = from
        .components()
        .skip(common)
        .map(|_| "..".into())
        .collect();
    for c in to.components().skip(common) {
        segments.push(encode(&c.as_os_str().to_string_lossy()));
    }
    (!segments.is_empty()).then(|| segments.join("/"))
}

/// `path` made absolute and without `.` or `..`, lexically.
fn normal(path: &Path) -> Option<PathBuf> {
    let path = if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    };
    let abs = std::path::absolute(path).ok()?;
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    Some(out)
}

/// A URL path segment: every byte but letters, digits and `-._~`
/// percent-encoded.
fn encode(segment: &str) -> String {
    let mut out = String::new();
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_relative_paths_whatever_the_name() {
        let here = Path::new("out/report.html");
        let from = here.parent().unwrap_or(Path::new(""));
        assert_eq!(
            relative(from, Path::new("logs/sum.html")).as_deref(),
            Some("../logs/sum.html")
        );
        assert_eq!(
            relative(Path::new(""), Path::new("./logs/a b.html")).as_deref(),
            Some("logs/a%20b.html")
        );
        // A name that reads as a scheme stays a path.
        assert_eq!(
            relative(Path::new(""), Path::new("javascript:alert(1).html")).as_deref(),
            Some("javascript%3Aalert%281%29.html")
        );
        assert_eq!(
            relative(Path::new("/a/b"), Path::new("/a/c/d.html")).as_deref(),
            Some("../c/d.html")
        );
    }

    #[test]
    fn a_value_that_is_no_report_is_said_so() {
        let e = page(&serde_json::json!({"tasks": 3}), Path::new("r.html"));
        assert!(e.is_err_and(|e| e.starts_with("not a report of isu eval")));
    }
}
