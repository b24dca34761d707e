//! The HTML pages of the repair loop: `isu replay LOG --html FILE` and
//! `isu eval --html FILE` (with each task's page beside its log).
//!
//! The pages of scripted runs (`--replies`) are golden files in
//! `host/test_data/report/` (`ISU_BLESS=1 cargo test -p isu_host --test
//! report` rewrites them): the run of `examples/total.replies.jsonl` (a
//! reply off the contract, a failing submit, a fixing patch), a run whose
//! task and replies are hostile HTML (with samples, a refused patch,
//! lessons found and kept, and machine fixes that end it), and an
//! evaluation. A run's clock readings are made fixed before it is replayed,
//! so that its page is the same on every machine.
//!
//! Then every page is opened in headless Chromium, driven through the
//! DevTools protocol (`report/chromium.rs`): the elements are there, the
//! console says nothing, hostile text stays inert text, and a screenshot of
//! each page goes to `target/screenshots/` for CI's artifacts. Without
//! Chromium that test says so and passes, unless `ISU_REQUIRE_CHROMIUM=1`
//! (as `.ci/run` sets).

#[path = "report/chromium.rs"]
mod chromium;
mod common;
#[path = "llm/loopback.rs"]
mod loopback;
#[path = "llm/offline.rs"]
mod offline;

use isu_host::llm::events::Log;
use loopback::{envelope, Server};
use offline::{dir, isu, text, total_with, TOTAL};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Output;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The task of the runs ([`TOTAL`]) in other words.
fn task_args(words: &str) -> Vec<String> {
    let mut args = TOTAL.map(str::to_owned).to_vec();
    args[1] = words.to_owned();
    args
}

/// Runs `isu gen` in `d` on the scripted replies of `replies` with `extra`
/// flags, writing its log to `run.jsonl`.
fn gen(d: &Path, words: &str, replies: &Path, extra: &[&str]) -> Output {
    let mut args = task_args(words);
    args.extend(
        [
            "--replies",
            &replies.display().to_string(),
            "--log",
            "run.jsonl",
            "-o",
            "out.isu",
        ]
        .map(str::to_owned),
    );
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    isu(&args, d)
}

/// Makes the log at `path` steady: every clock reading becomes ten times
/// its event's number, and the chain is made again (by the loop's own
/// `Log`), so that the log replays as it is and its page is the same on
/// every machine.
fn steady(path: &Path) {
    let mut log = Log::new();
    for line in read(path).lines() {
        let mut v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}"));
        let seq = v["seq"].as_u64().unwrap_or(0);
        let Value::Object(o) = &mut v else {
            panic!("{line}")
        };
        let kind = o
            .remove("event")
            .and_then(|k| k.as_str().map(str::to_owned));
        o.remove("seq");
        o.remove("prev");
        if o.contains_key("ms") {
            o.insert("ms".into(), json!(seq * 10));
        }
        log.push(&kind.unwrap_or_default(), v);
    }
    write(path, &log.text());
}

/// Replays `log` in `d` with `--html page`; the output and the page.
fn replay_html(d: &Path, log: &str, page: &str) -> (Output, Option<String>) {
    let out = isu(&["replay", log, "--html", page], d);
    (out, std::fs::read_to_string(d.join(page)).ok())
}

/// The run of `examples/total.replies.jsonl`, steadied, in `d`.
fn total_run(d: &Path) {
    let out = gen(
        d,
        "add up the numbers",
        &repo().join("examples/total.replies.jsonl"),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    steady(&d.join("run.jsonl"));
}

const PWNED: &str = "console.error(\"pwned\")";

/// What the hostile run's task says, and its replies.
fn hostile_words() -> String {
    format!(
        "add up </pre><script>{PWNED}</script> \"double\" 'single' <a href=\"javascript:{PWNED}\">link</a> & done"
    )
}

fn reply(decision: &str, artifact: &str, reason: &str) -> String {
    json!({"content": json!({"decision": decision, "artifact": artifact, "reason": reason}).to_string(), "usage": {"prompt_tokens": 100, "completion_tokens": 20}}).to_string()
}

/// Two samples in round 1: the first off the contract, then a program with
/// a type error holding hostile text (and a bare variable, which the
/// machine fixes before round 2); the second a program that does not
/// parse. Then a patch that is refused, and one that fixes the program.
fn hostile_replies() -> String {
    let attack = format!(
        "</pre><script>{PWNED}</script><img src=x onerror='{PWNED}'><a href=\"javascript:{PWNED}\">x</a> \"quoted\""
    );
    let typed = total_with(&format!(
        "(add (var t) (const \"</pre><script>{}</script>\"))",
        PWNED.replace('"', "'")
    ))
    .replace("EXPR: (var t)\n  END", "EXPR: t\n  END");
    [
        json!({"content": attack, "usage": {"prompt_tokens": 100, "completion_tokens": 20}})
            .to_string(),
        reply("submit", &typed, &format!("\"><script>{PWNED}</script>")),
        reply(
            "submit",
            &total_with(&format!("(add (var t) </pre><script>{PWNED}</script>")),
            "an unbalanced </div>",
        ),
        reply("patch", "PATCH:\n  DELETE S9\n", &format!("javascript:{PWNED}")),
        reply(
            "patch",
            "PATCH:\n  REPLACE S1_1:\n    ASSIGN:\n      TARGET: t\n      EXPR: (add (var t) (var x))\n",
            "<b>bold</b> & 'quoted'",
        ),
    ]
    .map(|l| l + "\n")
    .concat()
}

/// The hostile run, steadied, in `d`: run twice with lessons, so that the
/// second run (whose log is kept) finds the lesson the first one kept.
fn hostile_run(d: &Path) {
    write(&d.join("replies.jsonl"), &hostile_replies());
    let words = hostile_words();
    let lessons = [
        "--samples",
        "2",
        "--lessons",
        "--store",
        "file://memory.jsonl",
        "--root",
        ".",
    ];
    for _ in 0..2 {
        let out = gen(d, &words, Path::new("replies.jsonl"), &lessons);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    steady(&d.join("run.jsonl"));
}

/// Checks `page` against its golden file in `host/test_data/report/`.
fn golden(name: &str, page: &str) {
    let path = repo().join("host/test_data/report").join(name);
    if let Err(e) = common::snapshot::check(&path, page) {
        panic!("{e}");
    }
}

#[test]
fn a_repair_replayed_as_a_page_is_its_golden_file_and_the_same_every_time() {
    let d = dir("total");
    total_run(&d);
    let (out, page) = replay_html(&d, "run.jsonl", "run.html");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = page.unwrap_or_default();
    // The same log gives the same bytes.
    let (_, again) = replay_html(&d, "run.jsonl", "again.html");
    assert_eq!(again.as_deref(), Some(page.as_str()));
    // Its rounds, the rejected reply, the patch, the error at its step.
    for shown in [
        "<section class=\"round\" id=\"round-1\"",
        "<section class=\"round\" id=\"round-2\"",
        "<div class=\"reply rejected\">",
        "Sure! Here is a program that adds up the numbers.",
        "<pre class=\"artifact patch\">PATCH:\n  REPLACE S1_1:",
        "<div class=\"error\" data-code=\"test_error\" data-step=\"S1_1\">",
        "<div class=\"line bad\" data-step=\"S1_1\" id=\"r1-S1_1\">",
        "index 2 is out of range for an array of length 2",
        "hint: it happened in round 1 of S1 (x = 1)",
        "<div class=\"line del\">",
        "<div class=\"line add\">",
    ] {
        assert!(page.contains(shown), "the page lacks {shown}:\n{page}");
    }
    assert!(!page.contains("<script"), "{page}");
    golden("total.html", &page);
}

#[test]
fn hostile_tasks_and_replies_stay_text() {
    let d = dir("hostile");
    hostile_run(&d);
    let (out, page) = replay_html(&d, "run.jsonl", "run.html");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = page.unwrap_or_default();
    let lower = page.to_lowercase();
    for markup in ["<script", "<img", "<a href=\"javascript", "<b>"] {
        assert!(
            !lower.contains(markup),
            "{markup} reached the page:\n{page}"
        );
    }
    for shown in [
        "&lt;/pre&gt;&lt;script&gt;console.error(&quot;pwned&quot;)&lt;/script&gt;",
        "&lt;img src=x onerror=&#39;",
        "&lt;b&gt;bold&lt;/b&gt; &amp; &#39;quoted&#39;",
        // Two samples, the first kept; a refused patch; lessons found and
        // kept; the fixes that ended the run.
        "<h3>Sample 1 of 2 (kept)</h3>",
        "Its program (not kept)",
        "The patch was not applied",
        "<h3>Lessons looked up</h3>",
        "for <code>type_mismatch</code> (ASSIGN step): 1 found",
        "<h3>A lesson kept</h3>",
        "<h3>Machine fixes before the model was asked</h3>",
        "<code>invalid_expression</code>",
    ] {
        assert!(page.contains(shown), "the page lacks {shown}:\n{page}");
    }
    golden("hostile.html", &page);
}

#[test]
fn machine_fixes_that_end_a_run_are_shown_as_its_last_round() {
    let d = dir("fixes");
    write(
        &d.join("replies.jsonl"),
        &(reply("submit", &total_with("(add (var t) x)"), "sum") + "\n"),
    );
    let out = gen(&d, "add up the numbers", Path::new("replies.jsonl"), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (out, page) = replay_html(&d, "run.jsonl", "run.html");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = page.unwrap_or_default();
    for shown in [
        "<section class=\"round\" id=\"round-2\" data-round=\"2\">\n<h2>Round 2</h2>",
        "<td><a href=\"#round-2\">2</a></td><td>invalid_expression</td><td>not asked</td>",
        "<p>Applied, for free: <code>invalid_expression</code></p>",
        "<div class=\"line del\"><span class=\"ln\">19</span><span class=\"ln\"></span><span class=\"mark\">-</span><code>          EXPR: (add (var t) x)</code></div>",
        "<p class=\"verdict pass\">Passes check and 2 of 2 (100.0%) examples.</p>",
        "<div class=\"line\" data-step=\"S1_1\" id=\"r2-S1_1\">",
        "examples pass; first in round 1.</p>",
    ] {
        assert!(page.contains(shown), "the page lacks {shown}:\n{page}");
    }
    assert!(
        !page.contains("The run ended before this round asked"),
        "{page}"
    );
}

#[test]
fn a_changed_log_gives_no_page_and_a_differing_replay_says_so_on_its_page() {
    let d = dir("changed");
    total_run(&d);
    let log = read(&d.join("run.jsonl"));
    let lines: Vec<&str> = log.lines().collect();
    // Cut (a line dropped): exit 13, and a page already there is left as
    // it was.
    let mut cut = lines.clone();
    cut.remove(2);
    write(&d.join("cut.jsonl"), &(cut.join("\n") + "\n"));
    let changed = log.replacen("\"reason\":\"loop over", "\"reason\":\"LOOP OVER", 1);
    assert_ne!(changed, log);
    write(&d.join("changed.jsonl"), &changed);
    for broken in ["cut.jsonl", "changed.jsonl"] {
        write(&d.join("page.html"), "old");
        let (out, page) = replay_html(&d, broken, "page.html");
        assert_eq!(out.status.code(), Some(13), "{}", text(&out.stderr));
        assert_eq!(page.as_deref(), Some("old"));
        let (_, page) = replay_html(&d, broken, "new.html");
        assert_eq!(page, None, "a page was written for {broken}");
    }
    // Changed with the chain made again: the replay differs (exit 12), and
    // its page says where, at the top.
    let forged: Vec<String> = log
        .lines()
        .map(|l| l.replace("\"reason\":\"loop over", "\"reason\":\"LOOP OVER"))
        .collect();
    let at = forged
        .iter()
        .position(|l| l.contains("LOOP OVER"))
        .unwrap_or(0);
    let mut rechained = Log::new();
    for l in &forged {
        let mut v: Value = serde_json::from_str(l).unwrap_or(Value::Null);
        let kind = v["event"].as_str().unwrap_or("").to_owned();
        if let Value::Object(o) = &mut v {
            for k in ["event", "seq", "prev"] {
                o.remove(k);
            }
        }
        rechained.push(&kind, v);
    }
    write(&d.join("forged.jsonl"), &rechained.text());
    let (out, page) = replay_html(&d, "forged.jsonl", "forged.html");
    assert_eq!(out.status.code(), Some(12), "{}", text(&out.stderr));
    let page = page.unwrap_or_default();
    let banner =
        format!("<strong>The replay differs from the log</strong> at event {at} (envelope)");
    assert!(page.contains(&banner), "{page}");
    assert!(page.contains("LOOP OVER"), "the recorded event is shown");
    // `-` is no file: bad usage, before anything is read.
    for args in [
        ["replay", "run.jsonl", "--html", "-"],
        ["eval", "tasks.jsonl", "--html", "-"],
    ] {
        let out = isu(&args, &d);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    }
}

/// An evaluation's report, as `isu eval --format json` prints it: tasks
/// passing in rounds 1, 2 and 3 and never, one with a hostile name.
fn report() -> Value {
    let task = |id: &str,
                passed: bool,
                status: &str,
                rounds: u32,
                first: Option<u32>,
                tokens: u64| {
        json!({
            "id": id, "status": status, "passed": passed,
            "hidden_passed": u32::from(passed) * 2, "hidden": 2,
            "rounds": rounds, "passed_in_round": first, "tokens": tokens, "ms": 1500 * u64::from(rounds),
            "log": format!("logs/{id}.jsonl"),
        })
    };
    json!({
        "model": "<b>model</b>",
        "lessons": true,
        "store": "file://memory.jsonl",
        "tasks": [
            task("sum", true, "passed", 1, Some(1), 1200),
            task("max", true, "passed", 2, Some(2), 2600),
            task("sort", false, "passed", 3, Some(3), 4100),
            task("javascript:console.error(\"pwned\")</td><script>x</script>", false, "round_budget", 6, None, 9000),
        ],
        "summary": {},
    })
}

#[test]
fn an_evaluation_page_is_made_from_its_report() {
    let page = isu_host::report::eval_page(&report(), Path::new("report.html"))
        .unwrap_or_else(|e| panic!("{e}"));
    for shown in [
        "<div class=\"figure\" id=\"pass-at-1\"><dt>pass@1 (hidden examples)</dt><dd>2 of 4 (50.0%)</dd></div>",
        "<dd>1 of 3 (33.3%)</dd>",
        "<dd>2 of 3 (66.7%)</dd>",
        "<svg class=\"chart histogram\"",
        "<svg class=\"chart tokens\"",
        "<a href=\"logs/sum.html\">sum</a>",
        // The name's slashes are folders of its log's path, as written.
        "<a href=\"logs/javascript%3Aconsole.error%28%22pwned%22%29%3C/td%3E%3Cscript%3Ex%3C/script%3E.html\">",
        "&lt;b&gt;model&lt;/b&gt;",
    ] {
        assert!(page.contains(shown), "the page lacks {shown}:\n{page}");
    }
    assert!(!page.to_lowercase().contains("<script"), "{page}");
    golden("eval.html", &page);
    // Links are relative to where the page goes.
    let deeper = isu_host::report::eval_page(&report(), Path::new("out/html/report.html"))
        .unwrap_or_default();
    assert!(deeper.contains("<a href=\"../../logs/sum.html\">sum</a>"));
}

/// Replies by task: `total` is first written wrong and then patched,
/// `double` gives up.
fn eval_server() -> Server {
    Server::with(|_, body| {
        let last = serde_json::from_str::<Value>(body)
            .ok()
            .and_then(|b| {
                b["messages"].as_array()?.last()?["content"]
                    .as_str()
                    .map(str::to_owned)
            })
            .unwrap_or_default();
        if !last.contains("NAME: total") {
            envelope("give_up", "", "no")
        } else if last.starts_with("Write this function") {
            envelope("submit", &total_with("(sub (var t) (var x))"), "first")
        } else {
            envelope(
                "patch",
                "PATCH:\n  REPLACE S1_1:\n    ASSIGN:\n      TARGET: t\n      EXPR: (add (var t) (var x))\n",
                "sign",
            )
        }
    })
}

const TASKS: &str = r#"{"id": "sum", "words": "add up", "name": "total", "args": "xs: int[]", "returns": "int", "examples": [{"input": {"xs": [1, 2]}, "output": 3}], "hidden": [{"input": {"xs": [5, 5, 5]}, "output": 15}]}
{"id": "dbl", "words": "twice the sum", "name": "double", "args": "xs: int[]", "returns": "int", "examples": [{"input": {"xs": []}, "output": 0}]}
"#;

/// `isu eval --logs logs --html out/eval.html` in `d`: its JSON report.
fn eval_run(d: &Path) -> Value {
    let server = eval_server();
    write(&d.join("tasks.jsonl"), TASKS);
    std::fs::create_dir_all(d.join("out")).unwrap_or_else(|e| panic!("{e}"));
    let out = isu(
        &[
            "eval",
            "tasks.jsonl",
            "--url",
            &server.url,
            "--logs",
            "logs",
            "--html",
            "out/eval.html",
            "--format",
            "json",
        ],
        d,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn eval_writes_its_page_and_each_tasks_page_beside_its_log() {
    let d = dir("eval");
    let report = eval_run(&d);
    assert_eq!(report["tasks"][0]["log"], "logs/sum.jsonl");
    assert_eq!(report["summary"]["fixed_within_one"], 1);
    let page = read(&d.join("out/eval.html"));
    assert!(
        page.contains("<a href=\"../logs/sum.html\">sum</a>"),
        "{page}"
    );
    assert!(
        page.contains("<a href=\"../logs/dbl.html\">dbl</a>"),
        "{page}"
    );
    // The page is the report's: the same as made from the JSON printed.
    let again =
        isu_host::report::eval_page(&report, Path::new("out/eval.html")).unwrap_or_default();
    assert_eq!(again, page);
    // Each task's page is its log's replay page, byte for byte.
    for id in ["sum", "dbl"] {
        let (out, replayed) = replay_html(
            &d,
            &format!("logs/{id}.jsonl"),
            &format!("{id}.replayed.html"),
        );
        assert!(out.status.success() || id == "dbl", "{}", text(&out.stderr));
        assert_eq!(
            replayed.as_deref(),
            Some(read(&d.join(format!("logs/{id}.html"))).as_str()),
            "{id}"
        );
    }
}

/// What the browser is asked of each page: its rounds, patches, errors at
/// their steps, charts and links, its text, and anything active in it.
const PROBE: &str = r#"(() => {
  const all = [...document.querySelectorAll('*')];
  return {
    title: document.title,
    scripts: document.scripts.length,
    handlers: all.flatMap(e => [...e.attributes].filter(a => a.name.toLowerCase().startsWith('on')).map(a => e.tagName + ' ' + a.name)),
    active: [...document.querySelectorAll('[href], [src], [action], [srcdoc]')]
      .map(e => e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('action') || 'srcdoc')
      .filter(u => u === 'srcdoc' || /^\s*(javascript|data|vbscript):/i.test(u)),
    embedded: document.querySelectorAll('img, iframe, object, embed, form, link, base, b, meta[http-equiv=refresh]').length,
    rounds: [...document.querySelectorAll('section.round')].map(s => ({
      id: s.id,
      heading: s.querySelector('h2').textContent,
      rejected: s.querySelectorAll('.reply.rejected').length,
    })),
    patches: [...document.querySelectorAll('pre.artifact.patch')].map(p => p.textContent),
    pinned: [...document.querySelectorAll('.listing .pin .error')].map(e => ({
      step: e.dataset.step || null,
      code: e.dataset.code,
      after: e.closest('.pin').previousElementSibling.textContent,
      stepLink: (e.querySelector('a.step') || {}).hash || null,
    })),
    badSteps: [...document.querySelectorAll('.listing .line.bad[data-step]')].map(l => l.dataset.step),
    charts: [...document.querySelectorAll('svg.chart')].map(s => ({
      class: s.getAttribute('class'),
      bars: s.querySelectorAll('g.bar rect').length,
      tallest: Math.max(0, ...[...s.querySelectorAll('g.bar rect')].map(r => r.getBBox().height)),
    })),
    links: [...document.querySelectorAll('table.tasks a')].map(a => ({ text: a.textContent, href: a.href })),
    text: document.body.innerText,
  };
})()"#;

/// Where screenshots go for CI's artifacts: `target/screenshots/`.
fn screenshots() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap_or(Path::new(env!("CARGO_TARGET_TMPDIR")))
        .join("screenshots");
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
    d
}

fn url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Opens `page` and checks what every page must be: no console message,
/// no script, no active attribute, nothing embedded.
fn open(browser: &mut chromium::Browser, page: &Path, shot: &str) -> Value {
    let shot = screenshots().join(shot);
    let r = browser
        .render(&url(page), PROBE, &shot)
        .unwrap_or_else(|e| panic!("{}: {e}", page.display()));
    assert!(
        r.console.is_empty(),
        "{} made the console speak: {:#?}",
        page.display(),
        r.console
    );
    let p = r.probe;
    assert_eq!(p["scripts"], 0, "{}", page.display());
    assert_eq!(p["handlers"], json!([]), "{}", page.display());
    assert_eq!(p["active"], json!([]), "{}", page.display());
    assert_eq!(p["embedded"], 0, "{}", page.display());
    assert!(
        std::fs::metadata(&shot).is_ok_and(|m| m.len() > 1000),
        "no screenshot at {}",
        shot.display()
    );
    p
}

fn has(p: &Value, key: &str, what: &str) -> bool {
    p[key].as_str().unwrap_or("").contains(what)
}

#[test]
fn the_pages_render_in_headless_chromium() {
    let Some(bin) = chromium::find() else {
        assert!(
            !chromium::required(),
            "Chromium is missing: apt-get install chromium"
        );
        eprintln!("skipped: Chromium is not installed (apt-get install chromium)");
        return;
    };
    let d = dir("chromium");
    let mut browser =
        chromium::Browser::start(&bin, &d.join("profile")).unwrap_or_else(|e| panic!("{e}"));

    // A reply off the contract, a failing submit and a fixing patch: its
    // rounds, the patch, and the error at its step.
    let run = dir("chromium-total");
    total_run(&run);
    let (out, _) = replay_html(&run, "run.jsonl", "run.html");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let p = open(&mut browser, &run.join("run.html"), "report-total.png");
    let rounds = p["rounds"].as_array().cloned().unwrap_or_default();
    assert_eq!(rounds.len(), 2, "{p:#}");
    assert!(has(&rounds[0], "heading", "Round 1") && has(&rounds[0], "heading", "submit"));
    assert_eq!(rounds[0]["rejected"], 1);
    assert!(has(&rounds[1], "heading", "Round 2") && has(&rounds[1], "heading", "patch"));
    assert!(
        p["patches"][0]
            .as_str()
            .unwrap_or("")
            .starts_with("PATCH:\n  REPLACE S1_1:"),
        "{p:#}"
    );
    let pinned = p["pinned"].as_array().cloned().unwrap_or_default();
    assert_eq!(pinned.len(), 1, "{p:#}");
    assert_eq!(pinned[0]["step"], "S1_1");
    assert_eq!(pinned[0]["code"], "test_error");
    assert_eq!(pinned[0]["stepLink"], "#r1-S1_1");
    assert!(has(
        &pinned[0],
        "after",
        "EXPR: (add (var t) (index (var xs) (const 2)))"
    ));
    assert!(p["badSteps"]
        .as_array()
        .is_some_and(|s| s.contains(&json!("S1_1"))));
    assert!(has(
        &p,
        "text",
        "Sure! Here is a program that adds up the numbers."
    ));
    assert!(has(&p, "title", "total: passed"));

    // Hostile text is shown, as text, and nothing of it runs.
    let run = dir("chromium-hostile");
    hostile_run(&run);
    let (out, _) = replay_html(&run, "run.jsonl", "run.html");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let p = open(&mut browser, &run.join("run.html"), "report-hostile.png");
    for shown in [
        format!("</pre><script>{PWNED}</script>"),
        format!("<img src=x onerror='{PWNED}'>"),
        format!("<a href=\"javascript:{PWNED}\">"),
        "<b>bold</b> & 'quoted'".to_owned(),
        hostile_words(),
    ] {
        assert!(
            has(&p, "text", &shown),
            "{shown} is not shown as text:\n{}",
            p["text"]
        );
    }
    assert_eq!(p["rounds"].as_array().map(Vec::len), Some(3), "{p:#}");

    // The evaluation: figures, charts, and links that lead to the tasks'
    // pages.
    let run = dir("chromium-eval");
    eval_run(&run);
    let p = open(&mut browser, &run.join("out/eval.html"), "report-eval.png");
    assert!(
        has(&p, "text", "pass@1 (hidden examples)\n1 of 2 (50.0%)"),
        "{}",
        p["text"]
    );
    let charts = p["charts"].as_array().cloned().unwrap_or_default();
    assert_eq!(charts.len(), 2, "{p:#}");
    assert!(
        charts
            .iter()
            .all(|c| c["tallest"].as_f64().unwrap_or(0.0) > 0.0),
        "{p:#}"
    );
    let links = p["links"].as_array().cloned().unwrap_or_default();
    assert_eq!(links.len(), 2, "{p:#}");
    let first = links[0]["href"].as_str().unwrap_or("").to_owned();
    assert_eq!(first, url(&run.join("logs/sum.html")));
    let p = open(
        &mut browser,
        Path::new(first.trim_start_matches("file://")),
        "report-eval-sum.png",
    );
    assert!(has(&p, "title", "sum: passed"), "{p:#}");
    assert_eq!(p["rounds"].as_array().map(Vec::len), Some(2));

    // The evaluation of the golden report, hostile names and all.
    let page = d.join("report.html");
    write(
        &page,
        &isu_host::report::eval_page(&report(), &page).unwrap_or_else(|e| panic!("{e}")),
    );
    let p = open(&mut browser, &page, "report-eval-hostile.png");
    assert!(has(
        &p,
        "text",
        "javascript:console.error(\"pwned\")</td><script>x</script>"
    ));
    let links = p["links"].as_array().cloned().unwrap_or_default();
    assert!(
        links.iter().all(|l| has(l, "href", "file:///")),
        "{links:#?}"
    );
}
