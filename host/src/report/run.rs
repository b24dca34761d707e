//! The page of one run of the repair loop, made from its event log: the
//! task, a table of the rounds, each round (the machine fixes before it,
//! the lessons looked up, every request and reply, the program with its
//! errors at their steps and its diff), and the outcome.

use super::html::{self, count, duration, share, tagged, Esc};
use super::listing;
use super::story::{self, Ask, Checked, Lookup, Made, Program, RoundStory, Story, Taught};
use crate::llm::envelope::Decision;
use crate::llm::replay::Difference;
use crate::llm::task::Example;
use serde_json::{Map, Value};
use std::fmt::Write as _;

/// The page of the run whose log is `lines` (a replay's own, or an
/// evaluation's as it ran). `difference` is where a replay parted from the
/// recorded log, said at the top of the page.
pub fn page(lines: &[String], difference: Option<&Difference>) -> String {
    let story = story::read(lines);
    let mut out = String::new();
    header(&mut out, &story);
    if let Some(d) = difference {
        differs(&mut out, d);
    }
    task(&mut out, &story);
    if !story.invalid_task.is_empty() {
        out.push_str("<section id=\"invalid-task\">\n<h2>The task was refused</h2>\n");
        for e in &story.invalid_task {
            listing::error(&mut out, "task", e);
        }
        out.push_str("</section>\n");
    }
    if let Some(start) = &story.start {
        out.push_str("<section id=\"start\">\n<h2>The program to repair</h2>\n");
        verdict(&mut out, start);
        listing::program(&mut out, "start", start);
        out.push_str("</section>\n");
    }
    overview(&mut out, &story);
    for r in &story.rounds {
        round(&mut out, r);
    }
    outcome(&mut out, &story);
    let _ = writeln!(
        out,
        "<footer><p>Made by isu {} from the run's event log (written by isu {}).</p></footer>",
        Esc(env!("CARGO_PKG_VERSION")),
        Esc(&story.isu)
    );
    let title = format!("{}: {}", name(&story), story.status());
    html::page(&title, concat!("isu ", env!("CARGO_PKG_VERSION")), &out)
}

fn name(story: &Story) -> String {
    story.config.as_ref().map_or_else(
        || "a run".to_owned(),
        |c| c.task.id.clone().unwrap_or_else(|| c.task.name.clone()),
    )
}

fn header(out: &mut String, story: &Story) {
    let status = story.status();
    let _ = write!(
        out,
        "<header>\n<h1><span class=\"name\">{}</span> <span class=\"status {status}\">{}</span></h1>\n<p class=\"summary\">",
        Esc(&name(story)),
        status.replace('_', " ")
    );
    if let Some(e) = &story.ending {
        let _ = write!(out, "{} of {} examples pass", e.passed, e.examples);
        if let Some(n) = e.passed_in_round {
            let _ = write!(out, ", first in round {n}");
        }
        let _ = write!(
            out,
            " · {} · {} · {}",
            count(story.rounds.len() as u64, "round", "rounds"),
            count(e.tokens.total(), "token", "tokens"),
            duration(e.ms)
        );
    }
    if let Some(c) = &story.config {
        let _ = write!(out, " · model <code>{}</code>", Esc(&c.model));
    }
    out.push_str("</p>\n</header>\n");
}

fn differs(out: &mut String, d: &Difference) {
    let _ = writeln!(
        out,
        "<div class=\"banner differs\" role=\"alert\">\n<p><strong>The replay differs from the log</strong> at event {} ({}): this page shows what this version of isu makes of the recorded replies, which is not what the log records. <code>isu replay</code> exits 12.</p>",
        d.seq,
        Esc(&d.event)
    );
    for (what, line) in [("recorded", &d.recorded), ("replayed", &d.replayed)] {
        let _ = writeln!(
            out,
            "<details><summary>The {what} event</summary><pre class=\"raw\">{}</pre></details>",
            Esc(line.as_deref().unwrap_or("(nothing)"))
        );
    }
    out.push_str("</div>\n");
}

fn task(out: &mut String, story: &Story) {
    let Some(c) = &story.config else {
        return;
    };
    out.push_str("<section id=\"task\">\n<h2>The task</h2>\n");
    tagged(out, "p", "words", &c.task.words);
    out.push('\n');
    let _ = writeln!(
        out,
        "<p class=\"signature\"><code>{}</code></p>",
        Esc(&story.signature())
    );
    examples(
        out,
        "examples",
        "Examples (the program's IO; the model sees them)",
        &c.task.examples,
    );
    if !c.task.hidden.is_empty() {
        examples(
            out,
            "examples hidden",
            "Hidden examples (held back from the model; they judge the final program)",
            &c.task.hidden,
        );
    }
    let o = &c.options;
    let b = &o.budget;
    let _ = writeln!(
        out,
        "<p class=\"settings\">constraint {} · replies {} · {} · temperature {} · at most {} tokens a reply · budget: {}, {}, {} · {} · lessons {}</p>",
        match o.constrain {
            crate::llm::repair::Constrain::Schema => "schema",
            crate::llm::repair::Constrain::Gbnf => "gbnf",
            crate::llm::repair::Constrain::None => "none",
        },
        o.reply_format.as_str(),
        count(o.samples, "sample", "samples"),
        o.temperature,
        o.max_tokens,
        count(b.rounds, "round", "rounds"),
        count(b.tokens, "token", "tokens"),
        duration(b.time_ms),
        count(b.reasks, "re-ask", "re-asks"),
        if o.lessons { "on" } else { "off" }
    );
    out.push_str("</section>\n");
}

fn examples(out: &mut String, class: &str, caption: &str, examples: &[Example]) {
    let _ = writeln!(
        out,
        "<table class=\"{class}\">\n<caption>{caption}</caption>\n<thead><tr><th>#</th><th>arguments</th><th>result</th></tr></thead>\n<tbody>"
    );
    for (i, e) in examples.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td><code>{}</code></td><td><code>{}</code></td></tr>",
            i + 1,
            Esc(&html::json(&e.input)),
            Esc(&html::json(&e.output))
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// The rounds in a table: what each decided, cost and left.
fn overview(out: &mut String, story: &Story) {
    if story.rounds.is_empty() {
        return;
    }
    out.push_str("<section id=\"rounds\">\n<h2>Rounds</h2>\n<table class=\"rounds\">\n<thead><tr><th>round</th><th>machine fixes</th><th>decision</th><th>replies</th><th>examples</th><th>errors left</th><th>tokens</th><th>time</th></tr></thead>\n<tbody>\n");
    for r in &story.rounds {
        let fixes = r
            .fixes
            .as_ref()
            .map_or(String::new(), |f| f.applied.join(", "));
        let (decision, replies, errors, tokens) = match &r.report {
            Some(rep) => (
                rep.decision.map_or("none", Decision::as_str).to_owned()
                    + match rep.applied {
                        Some(false) => " (refused)",
                        _ => "",
                    },
                if rep.rejected > 0 {
                    format!("{} ({} off the contract)", rep.requests, rep.rejected)
                } else {
                    rep.requests.to_string()
                },
                rep.errors.join(", "),
                rep.tokens,
            ),
            None => ("not asked".to_owned(), "0".to_owned(), String::new(), 0),
        };
        let passed = r.after.as_ref().map_or("-".to_owned(), |p| {
            format!("{}/{}", p.verdict.passed, p.verdict.examples)
        });
        let _ = writeln!(
            out,
            "<tr><td><a href=\"#round-{n}\">{n}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{passed}</td><td>{}</td><td>{tokens}</td><td>{}</td></tr>",
            Esc(&fixes),
            Esc(&decision),
            Esc(&replies),
            Esc(&errors),
            duration(r.ms()),
            n = r.number
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

fn round(out: &mut String, r: &RoundStory) {
    let n = r.number;
    let decision = r.report.as_ref().and_then(|rep| rep.decision);
    let _ = write!(
        out,
        "<section class=\"round\" id=\"round-{n}\" data-round=\"{n}\">\n<h2>Round {n}"
    );
    if let Some(d) = decision {
        let _ = write!(out, " <span class=\"decision {0}\">{0}</span>", d.as_str());
    }
    out.push_str("</h2>\n");
    let tokens = r.report.as_ref().map_or(0, |rep| rep.tokens);
    let _ = writeln!(
        out,
        "<p class=\"facts\">{} · {}</p>",
        count(tokens, "token", "tokens"),
        duration(r.ms())
    );
    if let Some(f) = &r.fixes {
        out.push_str("<div class=\"fixes\">\n<h3>Machine fixes before the model was asked</h3>\n<p>Applied, for free: ");
        let codes: Vec<String> = f
            .applied
            .iter()
            .map(|c| format!("<code>{}</code>", Esc(c)))
            .collect();
        out.push_str(&codes.join(", "));
        out.push_str("</p>\n");
        if let Some(before) = &r.before {
            listing::changes(out, &before.text, &f.text);
        }
        let fixed = Program {
            text: f.text.clone(),
            verdict: f.verdict.clone(),
        };
        verdict(out, &fixed);
        if r.report.is_none() {
            listing::program(out, &format!("r{n}"), &fixed);
        }
        out.push_str("</div>\n");
    }
    lookups(out, &r.lookups);
    let samples = r.samples.len();
    for s in &r.samples {
        let _ = writeln!(
            out,
            "<div class=\"sample{}\" data-sample=\"{}\">",
            if s.kept { " kept" } else { "" },
            s.number
        );
        if samples > 1 {
            let _ = writeln!(
                out,
                "<h3>Sample {} of {samples}{}</h3>",
                s.number,
                if s.kept { " (kept)" } else { "" }
            );
        }
        for a in &s.asks {
            ask(out, a, r.asked_about().is_some());
        }
        match &s.made {
            Some(Made::Refused(errors)) => {
                out.push_str("<div class=\"refused\">\n<p>The patch was not applied, so nothing changed; its errors go back with the program's:</p>\n");
                for e in errors {
                    listing::error(out, &format!("r{n}"), e);
                }
                out.push_str("</div>\n");
            }
            Some(Made::Candidate(p)) if !s.kept => {
                let _ = writeln!(
                    out,
                    "<details class=\"candidate\"><summary>Its program (not kept): {} examples pass</summary>",
                    share(p.verdict.passed, p.verdict.examples)
                );
                listing::program(out, &format!("r{n}s{}", s.number), p);
                out.push_str("</details>\n");
            }
            _ => {}
        }
        out.push_str("</div>\n");
    }
    if r.report.is_some() {
        after(out, r);
    }
    for t in &r.taught {
        taught(out, t);
    }
    if r.report.is_none() && r.fixes.as_ref().is_none_or(|f| !f.verdict.passes()) {
        out.push_str("<p class=\"unasked\">The run ended before this round asked the model.</p>\n");
    }
    out.push_str("</section>\n");
}

/// What the request asked for, from its decisions and place.
fn request_kind(a: &Ask, has_program: bool) -> String {
    if a.ask > 0 {
        return format!("re-ask {} (the reply before broke the contract)", a.ask);
    }
    if a.allow.contains(&Decision::Patch) {
        "repair: patch the program".to_owned()
    } else if has_program {
        "rewrite: the whole program again (it does not parse, so it cannot be patched)".to_owned()
    } else {
        "write the program".to_owned()
    }
}

fn ask(out: &mut String, a: &Ask, has_program: bool) {
    out.push_str("<div class=\"ask\">\n");
    let _ = writeln!(
        out,
        "<h3 class=\"request\">Request: {}</h3>",
        Esc(&request_kind(a, has_program))
    );
    let allow: Vec<&str> = a.allow.iter().map(|d| d.as_str()).collect();
    let _ = write!(
        out,
        "<p class=\"meta\">accepts {} · sent at {}",
        allow.join(" or "),
        duration(a.sent_ms)
    );
    if let Some(at) = a.answered_ms {
        let _ = write!(out, ", answered at {}", duration(at));
    }
    if let Some(reply) = &a.reply {
        let _ = write!(
            out,
            " · {} prompt + {} completion tokens",
            reply.usage.prompt_tokens, reply.usage.completion_tokens
        );
        if reply.finish_reason.as_deref() == Some("length") {
            out.push_str(" · cut short at the token limit");
        }
        if !reply.retried.is_empty() {
            let _ = write!(
                out,
                " · after {}: {}",
                count(
                    reply.retried.len() as u64,
                    "failed attempt",
                    "failed attempts"
                ),
                Esc(&reply.retried.join("; "))
            );
        }
    }
    out.push_str("</p>\n");
    if let Some(why) = &a.failed {
        let _ = writeln!(
            out,
            "<p class=\"failed\">The server failed: {}</p>",
            Esc(why)
        );
    }
    match (&a.checked, &a.reply) {
        (Some(Checked::Rejected(problems)), reply) => {
            out.push_str("<div class=\"reply rejected\">\n<p class=\"verdict\">Rejected: the reply broke the contract, and nothing in it was used.</p>\n<ul class=\"problems\">\n");
            for p in problems {
                let _ = writeln!(out, "<li>{}</li>", Esc(p));
            }
            out.push_str("</ul>\n");
            if let Some(r) = reply {
                let _ = writeln!(
                    out,
                    "<details open><summary>The reply</summary><pre class=\"raw\">{}</pre></details>",
                    Esc(&r.content)
                );
            }
            out.push_str("</div>\n");
        }
        (
            Some(Checked::Kept {
                decision,
                reason,
                artifact,
            }),
            _,
        ) => {
            let _ = writeln!(
                out,
                "<div class=\"reply kept\">\n<p class=\"verdict\"><span class=\"decision {0}\">{0}</span> <q class=\"reason\">{1}</q></p>",
                decision.as_str(),
                Esc(reason)
            );
            match decision {
                Decision::Patch => {
                    let _ = writeln!(out, "<pre class=\"artifact patch\">{}</pre>", Esc(artifact));
                }
                Decision::Submit => {
                    let _ = writeln!(
                        out,
                        "<details class=\"artifact\"><summary>The program as the model wrote it</summary><pre class=\"raw\">{}</pre></details>",
                        Esc(artifact)
                    );
                }
                // Words, as `isu explain` asks for (a round trip's description).
                Decision::Explain => {
                    let _ = writeln!(out, "<pre class=\"artifact words\">{}</pre>", Esc(artifact));
                }
                Decision::GiveUp => {}
            }
            out.push_str("</div>\n");
        }
        (None, _) => {}
    }
    out.push_str("</div>\n");
}

/// The program after a round, with its errors and what changed.
fn after(out: &mut String, r: &RoundStory) {
    let n = r.number;
    let Some(p) = &r.after else {
        out.push_str("<p class=\"no-program\">There is no program yet.</p>\n");
        return;
    };
    let _ = writeln!(
        out,
        "<div class=\"program\">\n<h3>The program after round {n}</h3>"
    );
    verdict(out, p);
    listing::program(out, &format!("r{n}"), p);
    match r.asked_about() {
        Some(before) => {
            let _ = writeln!(
                out,
                "<h4>Changes from {}</h4>",
                if r.fixes.is_some() {
                    "the program after the machine fixes".to_owned()
                } else if n == 1 {
                    "the program to repair".to_owned()
                } else {
                    format!("round {}", n - 1)
                }
            );
            listing::changes(out, &before.text, &p.text);
        }
        None => out.push_str("<p class=\"first\">The first program.</p>\n"),
    }
    out.push_str("</div>\n");
}

/// One line on a program: whether it parses, and the examples it passes.
fn verdict(out: &mut String, p: &Program) {
    let v = &p.verdict;
    let (class, text) = if v.passes() {
        (
            "pass",
            format!("Passes check and {} examples.", share(v.passed, v.examples)),
        )
    } else if !v.parses {
        (
            "fail",
            format!(
                "Does not parse: {}.",
                count(v.errors.len() as u64, "error", "errors")
            ),
        )
    } else {
        (
            "fail",
            format!(
                "{} examples pass; {}.",
                share(v.passed, v.examples),
                count(v.errors.len() as u64, "error", "errors")
            ),
        )
    };
    let _ = writeln!(out, "<p class=\"verdict {class}\">{}</p>", Esc(&text));
}

fn lookups(out: &mut String, lookups: &[Lookup]) {
    if lookups.is_empty() {
        return;
    }
    out.push_str("<div class=\"lessons\">\n<h3>Lessons looked up</h3>\n<ul>\n");
    for l in lookups {
        let _ = write!(out, "<li>for <code>{}</code>", Esc(&l.code));
        if let Some(k) = &l.step_kind {
            let _ = write!(out, " ({} step)", Esc(k));
        }
        match &l.error {
            Some(why) => {
                let _ = writeln!(out, ": the store failed: {}</li>", Esc(why));
            }
            None => {
                let _ = writeln!(out, ": {}", count(l.found.len() as u64, "found", "found"));
                for found in &l.found {
                    lesson(out, found);
                }
                out.push_str("</li>\n");
            }
        }
    }
    out.push_str("</ul>\n</div>\n");
}

fn taught(out: &mut String, t: &Taught) {
    out.push_str("<div class=\"taught\">\n<h3>A lesson kept</h3>\n");
    if let Some(r) = &t.record {
        lesson(out, r);
    }
    if let Some(why) = &t.error {
        let _ = writeln!(
            out,
            "<p class=\"failed\">The store failed: {}</p>",
            Esc(why)
        );
    }
    out.push_str("</div>\n");
}

/// A lesson record: the error, the step before, the patch that fixed it.
fn lesson(out: &mut String, record: &Map<String, Value>) {
    let s = |k: &str| record.get(k).and_then(Value::as_str).unwrap_or("");
    let _ = writeln!(
        out,
        "<div class=\"lesson\"><p><code>{}</code>: {}</p><pre class=\"raw\">{}</pre><pre class=\"artifact patch\">{}</pre></div>",
        Esc(s("code")),
        Esc(s("message")),
        Esc(s("text")),
        Esc(s("patch"))
    );
}

fn outcome(out: &mut String, story: &Story) {
    out.push_str("<section id=\"outcome\">\n<h2>Outcome</h2>\n");
    let Some(e) = &story.ending else {
        out.push_str(
            "<p class=\"verdict fail\">The log ends before the run did.</p>\n</section>\n",
        );
        return;
    };
    let status = e.status.as_str();
    let _ = write!(
        out,
        "<p class=\"status {status}\">{}: {} examples pass",
        status.replace('_', " "),
        share(e.passed, e.examples)
    );
    match e.passed_in_round {
        Some(0) => out.push_str("; the program to repair passed as it was"),
        Some(n) => {
            let _ = write!(out, "; first in round {n}");
        }
        None => {}
    }
    out.push_str(".</p>\n");
    let _ = writeln!(
        out,
        "<dl class=\"totals\"><dt>rounds</dt><dd>{}</dd><dt>tokens</dt><dd>{} prompt + {} completion = {}</dd><dt>time</dt><dd>{}</dd></dl>",
        story.rounds.len(),
        e.tokens.prompt_tokens,
        e.tokens.completion_tokens,
        e.tokens.total(),
        duration(e.ms)
    );
    match &story.last {
        Some(p) => {
            out.push_str("<h3>The final program</h3>\n");
            listing::program(out, "final", p);
        }
        None => out.push_str("<p class=\"no-program\">The run ended without a program.</p>\n"),
    }
    out.push_str("</section>\n");
}
