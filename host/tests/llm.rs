//! `isu gen`, `isu repair`, `isu replay` and `isu eval` against a
//! chat-completion server on 127.0.0.1, scripted to take every path of the
//! loop: replies off the contract, a broken program, patches that fix a
//! ParseError, a StaticError, a RuntimeError and a TestFail, give_up, a 500
//! then success, a 429 with Retry-After, a timeout, a server that refuses,
//! and the budgets. Every run's log is replayed, and the replay's output and
//! program must be byte-identical. `isu explain` and `isu eval --roundtrip`
//! have modules of their own (`llm/explain.rs`, `llm/roundtrip.rs`).

#[path = "llm/explain.rs"]
mod explain;
#[path = "llm/loopback.rs"]
mod loopback;
#[path = "llm/offline.rs"]
mod offline;
#[path = "llm/roundtrip.rs"]
mod roundtrip;

use loopback::{completion, envelope, Answer, Server};
use offline::{dir, isu, text, total_with, TOTAL};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Output;
use std::time::Duration;

/// The last message of a request's body (the user's).
fn last_message(body: &Value) -> String {
    let msgs = body["messages"].as_array().cloned().unwrap_or_default();
    msgs.last()
        .and_then(|m| m["content"].as_str())
        .unwrap_or("")
        .to_owned()
}

fn good() -> String {
    total_with("(add (var t) (var x))")
}

/// The patch that puts the right body back.
const FIX: &str =
    "PATCH:\n  REPLACE S1_1:\n    ASSIGN:\n      TARGET: t\n      EXPR: (add (var t) (var x))\n";

/// A run of `isu gen` (JSON report) and its replay.
struct Run {
    out: Output,
    report: Value,
    bodies: Vec<Value>,
    log: String,
    program: Option<String>,
}

/// Runs `gen` on `server` with `extra` flags, then replays its log and
/// asserts the replay is byte-identical: the same report, the same exit
/// code, the same program.
fn gen(name: &str, answers: Vec<Answer>, extra: &[&str]) -> Run {
    let server = Server::start(answers);
    gen_on(name, &server, extra)
}

fn gen_on(name: &str, server: &Server, extra: &[&str]) -> Run {
    gen_in(&dir(name), server, extra)
}

/// [`gen_on`] in the folder `d` as it is.
fn gen_in(d: &Path, server: &Server, extra: &[&str]) -> Run {
    let d = d.to_path_buf();
    let mut args: Vec<&str> = TOTAL.to_vec();
    args.extend(["--url", &server.url, "--format", "json", "-o", "out.isu"]);
    args.extend(extra);
    let out = isu(&args, &d);
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", text(&out.stdout), text(&out.stderr)));
    let log =
        std::fs::read_to_string(d.join("out.isu.log.jsonl")).unwrap_or_else(|e| panic!("{e}"));
    let program = std::fs::read_to_string(d.join("out.isu")).ok();
    let again = isu(
        &[
            "replay",
            "out.isu.log.jsonl",
            "--format",
            "json",
            "-o",
            "replayed.isu",
        ],
        &d,
    );
    assert_eq!(
        text(&again.stdout),
        text(&out.stdout),
        "replay output differs: {}",
        text(&again.stderr)
    );
    assert_eq!(
        again.status.code(),
        out.status.code(),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(d.join("replayed.isu")).ok(),
        program
    );
    Run {
        out,
        report,
        bodies: server.bodies(),
        log,
        program,
    }
}

/// The events of a log, by kind.
fn events(log: &str, kind: &str) -> Vec<Value> {
    log.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["event"] == kind)
        .collect()
}

fn status(r: &Run) -> &str {
    r.report["status"].as_str().unwrap_or("")
}

/// The last user message of request `i`.
fn asked(r: &Run, i: usize) -> String {
    let m = &r.bodies[i]["messages"];
    let n = m.as_array().map_or(0, Vec::len);
    m[n.saturating_sub(1)]["content"]
        .as_str()
        .unwrap_or("")
        .to_owned()
}

#[test]
fn a_right_program_passes_in_round_one() {
    let r = gen("right", vec![envelope("submit", &good(), "sum")], &[]);
    assert_eq!(r.out.status.code(), Some(0), "{}", text(&r.out.stderr));
    assert_eq!(status(&r), "passed");
    assert_eq!(r.report["passed_in_round"], 1);
    assert_eq!(
        r.report["tokens"],
        json!({"prompt_tokens": 10, "completion_tokens": 5})
    );
    // The user's examples became IO, whatever the model wrote there.
    let program = r.program.clone().unwrap_or_default();
    assert!(
        program.contains("INPUT: [{\"xs\": [1, 2]}, {\"xs\": []}]"),
        "{program}"
    );
    // The request: the reference, the header, the envelope's schema.
    let b = &r.bodies[0];
    assert_eq!(b["messages"][0]["role"], "system");
    assert!(b["messages"][0]["content"]
        .as_str()
        .unwrap_or("")
        .contains("MAP_GET_OR"));
    assert!(asked(&r, 0).contains("OUTPUT: [3, 0]"));
    assert_eq!(
        b["response_format"]["json_schema"]["schema"]["properties"]["decision"]["enum"],
        json!(["submit", "give_up"])
    );
}

#[test]
fn a_test_fail_is_fixed_by_a_patch() {
    let r = gen(
        "testfail",
        vec![
            envelope("submit", &total_with("(sub (var t) (var x))"), "sum"),
            envelope("patch", FIX, "sign"),
        ],
        &[],
    );
    assert_eq!(status(&r), "passed", "{}", text(&r.out.stderr));
    assert_eq!(r.report["passed_in_round"], 2);
    let feedback = asked(&r, 1);
    assert!(
        feedback.contains("\"code\":\"test_mismatch\""),
        "{feedback}"
    );
    assert!(feedback.contains("\"expected\":3"), "{feedback}");
    assert!(feedback.contains("S1_1: ASSIGN"), "{feedback}");
    assert_eq!(
        r.bodies[1]["response_format"]["json_schema"]["schema"]["properties"]["decision"]["enum"],
        json!(["patch", "give_up"])
    );
    assert_eq!(r.report["rounds"][1]["applied"], true);
}

#[test]
fn a_static_error_is_fixed_by_a_patch() {
    let r = gen(
        "static",
        vec![
            envelope("submit", &total_with("(add (var t) (const \"1\"))"), "sum"),
            envelope("patch", FIX, "types"),
        ],
        &[],
    );
    assert_eq!(status(&r), "passed");
    let feedback = asked(&r, 1);
    assert!(feedback.contains("\"kind\":\"StaticError\""), "{feedback}");
    assert!(feedback.contains("\"step\":\"S1_1\""), "{feedback}");
    assert_eq!(r.report["rounds"][0]["errors"][0], "type_mismatch");
}

#[test]
fn a_runtime_error_is_fixed_by_a_patch() {
    let r = gen(
        "runtime",
        vec![
            envelope(
                "submit",
                &total_with("(add (var t) (index (var xs) (const 2)))"),
                "sum",
            ),
            envelope("patch", FIX, "index"),
        ],
        &[],
    );
    assert_eq!(status(&r), "passed");
    let feedback = asked(&r, 1);
    assert!(feedback.contains("index_out_of_range"), "{feedback}");
    assert!(feedback.contains("\"step\":\"S1_1\""), "{feedback}");
    assert!(feedback.contains("\"vars\""), "{feedback}");
}

#[test]
fn a_parse_error_in_a_step_is_sent_back_and_fixed_by_a_patch() {
    // The text does not parse, but its error is inside step S1_1, whose
    // header is intact: a patch on the text replaces the step.
    let r = gen(
        "parse",
        vec![
            envelope("submit", &total_with("add t x"), "sum"),
            envelope("patch", FIX, "parentheses"),
        ],
        &[],
    );
    assert_eq!(status(&r), "passed", "{}", text(&r.out.stderr));
    assert_eq!(r.report["passed_in_round"], 2);
    let feedback = asked(&r, 1);
    assert!(feedback.contains("\"kind\":\"ParseError\""), "{feedback}");
    assert!(feedback.contains("\"step\":\"S1_1\""), "{feedback}");
    assert!(feedback.contains("\"line\""), "{feedback}");
    assert_eq!(
        r.bodies[1]["response_format"]["json_schema"]["schema"]["properties"]["decision"]["enum"],
        json!(["patch", "give_up"])
    );
}

#[test]
fn a_parse_error_outside_the_steps_asks_for_the_whole_program_again() {
    // A declaration with two initial values: no machine fix can know which.
    let broken = good().replace(
        "STATE: [t: int = (const 0)]",
        "STATE: [t: int = (const 0) (const 1)]",
    );
    let r = gen(
        "parse-whole",
        vec![
            envelope("submit", &broken, "sum"),
            envelope("submit", &good(), "bracket"),
        ],
        &[],
    );
    assert_eq!(status(&r), "passed", "{}", text(&r.out.stderr));
    assert!(asked(&r, 1).contains("\"kind\":\"ParseError\""));
    assert_eq!(
        r.bodies[1]["response_format"]["json_schema"]["schema"]["properties"]["decision"]["enum"],
        json!(["submit", "give_up"])
    );
}

#[test]
fn machine_applicable_fixes_cost_no_round() {
    // `x` for `(var x)`: `isu fix` rewrites it before the model is asked again.
    let r = gen(
        "fixes",
        vec![envelope("submit", &total_with("(add (var t) x)"), "sum")],
        &[],
    );
    assert_eq!(status(&r), "passed", "{}", text(&r.out.stderr));
    assert_eq!(r.bodies.len(), 1);
    assert_eq!(r.report["passed_in_round"], 1);
    let fixes = events(&r.log, "fixes");
    assert_eq!(fixes.len(), 1);
    assert_eq!(fixes[0]["applied"], json!(["invalid_expression"]));
    assert!(r
        .program
        .unwrap_or_default()
        .contains("EXPR: (add (var t) (var x))"));
}

#[test]
fn an_error_in_a_declaration_names_it_and_a_patch_fixes_it_there() {
    let broken = good().replace(
        "STATE: [t: int = (const 0)]",
        "STATE: [t: int = (const \"0\")]",
    );
    let fix = "PATCH:\n  REPLACE STATE t: [t: int = (const 0)]\n";
    let r = gen(
        "declaration",
        vec![
            envelope("submit", &broken, "sum"),
            envelope("patch", fix, "the initial value is an int"),
        ],
        &[],
    );
    assert_eq!(status(&r), "passed", "{}", text(&r.out.stderr));
    let asked = asked(&r, 1);
    assert!(asked.contains("\"declaration\":\"STATE t\""), "{asked}");
    assert!(
        asked.contains("declarations (by section and name)"),
        "{asked}"
    );
}

#[test]
fn a_missing_end_costs_no_round() {
    // The loop body's END deleted: the layout says where it belonged.
    let broken = good().replacen("      END\n", "", 1);
    assert_ne!(broken, good());
    let r = gen("missing-end", vec![envelope("submit", &broken, "sum")], &[]);
    assert_eq!(status(&r), "passed", "{}", text(&r.out.stderr));
    assert_eq!(r.bodies.len(), 1);
    let fixes = events(&r.log, "fixes");
    assert_eq!(fixes[0]["applied"], json!(["unclosed_block"]));
    let program = r.program.unwrap_or_default();
    assert!(
        program.contains("(var x))\n      END\n    S2: RETURN"),
        "{program}"
    );
}

#[test]
fn fixes_then_a_patch_for_what_is_left() {
    // The fix leaves a TestFail; the feedback shows the fixed text and the
    // round reports what was fixed.
    let r = gen(
        "fixes-patch",
        vec![
            envelope("submit", &total_with("(sub (var t) x)"), "sum"),
            envelope("patch", FIX, "sign"),
        ],
        &[],
    );
    assert_eq!(status(&r), "passed", "{}", text(&r.out.stderr));
    assert_eq!(
        r.report["rounds"][1]["fixes"],
        json!(["invalid_expression"])
    );
    let feedback = asked(&r, 1);
    assert!(feedback.contains("(sub (var t) (var x))"), "{feedback}");
    assert!(feedback.contains("test_mismatch"), "{feedback}");
}

/// The lines of a JSONL file, as JSON.
fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn lessons_are_kept_when_a_patch_fixes_an_error_and_sent_back_for_the_same_error() {
    let d = dir("lessons");
    let store = d.join("memory.jsonl");
    let lessons = ["--lessons", "--store", "file://memory.jsonl", "--root", "."];
    let broken = total_with("(add (var t) (const \"1\"))");
    let static_error = || {
        Server::start(vec![
            envelope("submit", &broken, "sum"),
            envelope("patch", FIX, "types"),
        ])
    };
    // The first run finds no lesson, and keeps the one its patch taught.
    let first = gen_in(&d, &static_error(), &lessons);
    assert_eq!(status(&first), "passed", "{}", text(&first.out.stderr));
    assert!(!asked(&first, 1).contains("Earlier repairs"));
    assert_eq!(events(&first.log, "lessons")[0]["found"], json!([]));
    let kept = jsonl(&store);
    assert_eq!(kept.len(), 1, "the replay keeps nothing: {kept:?}");
    let record = &kept[0]["record"];
    assert_eq!(record["kind"], "lesson");
    assert_eq!(record["code"], "type_mismatch");
    assert_eq!(record["step_kind"], "ASSIGN");
    assert_eq!(
        record["text"],
        "S1_1: ASSIGN\n  TARGET: t\n  EXPR: (add (var t) (const \"1\"))\n"
    );
    assert_eq!(record["patch"], FIX);
    assert_eq!(events(&first.log, "lesson")[0]["record"], *record);
    // The second run sends it back with the same error.
    let second = gen_in(&d, &static_error(), &lessons);
    assert_eq!(status(&second), "passed");
    let feedback = asked(&second, 1);
    assert!(feedback.contains("Earlier repairs"), "{feedback}");
    assert!(feedback.contains("- type_mismatch: "), "{feedback}");
    assert!(feedback.contains("(a ASSIGN step)"), "{feedback}");
    assert!(feedback.contains(FIX.trim_end()), "{feedback}");
    assert_eq!(jsonl(&store).len(), 2);
    // Another error finds none of them.
    let other = gen_in(
        &d,
        &Server::start(vec![
            envelope("submit", &total_with("(sub (var t) (var x))"), "sum"),
            envelope("patch", FIX, "sign"),
        ]),
        &lessons,
    );
    assert_eq!(status(&other), "passed");
    assert!(!asked(&other, 1).contains("Earlier repairs"));
    let kept = jsonl(&store);
    assert_eq!(kept.len(), 3);
    assert_eq!(kept[2]["record"]["code"], "test_mismatch");
    // A TestFail names the RETURN that gave the wrong value.
    assert_eq!(kept[2]["record"]["step_kind"], "RETURN");
    // Without --lessons the memory is neither read nor written.
    let without = gen_in(&d, &static_error(), &[]);
    assert_eq!(status(&without), "passed");
    assert!(!asked(&without, 1).contains("Earlier repairs"));
    assert!(events(&without.log, "lessons").is_empty());
    assert_eq!(jsonl(&store).len(), 3);
}

#[test]
fn a_lessons_store_that_cannot_be_used_is_refused_before_the_model_is_asked() {
    let server = Server::start(vec![envelope("submit", &good(), "sum")]);
    let d = dir("lessons-outside");
    let mut args: Vec<&str> = TOTAL.to_vec();
    args.extend(["--url", &server.url, "--format", "json"]);
    args.extend([
        "--lessons",
        "--store",
        "file://../outside.jsonl",
        "--root",
        ".",
    ]);
    let out = isu(&args, &d);
    assert_eq!(out.status.code(), Some(10), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report["diagnostics"][0]["code"], "path_outside_root");
    assert!(server.bodies().is_empty());
    // --store without --lessons is bad usage.
    let out = isu(&[&TOTAL[..], &["--store", "file://m.jsonl"]].concat(), &d);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn a_patch_that_is_refused_is_said_so() {
    let r = gen(
        "refused",
        vec![
            envelope("submit", &total_with("(sub (var t) (var x))"), "sum"),
            envelope("patch", "PATCH:\n  DELETE S9\n", "oops"),
            envelope("patch", FIX, "sign"),
        ],
        &[],
    );
    assert_eq!(status(&r), "passed");
    assert_eq!(r.report["rounds"][1]["applied"], false);
    let feedback = asked(&r, 2);
    assert!(
        feedback.contains("unknown_step") && feedback.contains("\"patch\":true"),
        "{feedback}"
    );
}

#[test]
fn replies_off_the_contract_are_re_asked_and_do_not_count_as_rounds() {
    let r = gen(
        "offcontract",
        vec![
            completion("Sure! Here is the program:", 3, 3),
            completion(
                "{\"decision\": \"patch\", \"artifact\": \"PATCH:\\n\", \"reason\": \"r\"}",
                3,
                3,
            ),
            envelope("submit", &good(), "sum"),
        ],
        &[],
    );
    assert_eq!(status(&r), "passed");
    assert_eq!(r.report["rounds"].as_array().map(Vec::len), Some(1));
    assert_eq!(r.report["rounds"][0]["rejected"], 2);
    assert!(
        asked(&r, 1).contains("is not one JSON object"),
        "{}",
        asked(&r, 1)
    );
    assert!(
        asked(&r, 2).contains("the decision `patch` is not allowed now; allowed: submit, give_up")
    );
    // The rejected reply goes back as the assistant's turn.
    assert_eq!(
        r.bodies[1]["messages"][2]["content"],
        "Sure! Here is the program:"
    );
    assert_eq!(events(&r.log, "envelope").len(), 3);
}

#[test]
fn replies_off_the_contract_after_every_re_ask_stop_the_run() {
    let bad = || completion("{\"decision\": \"submit\"}", 1, 1);
    let r = gen(
        "offcontract-stop",
        vec![bad(), bad(), bad()],
        &["--max-reasks", "2"],
    );
    assert_eq!(status(&r), "off_contract");
    assert_eq!(r.out.status.code(), Some(11));
    assert_eq!(r.bodies.len(), 3);
    assert!(asked(&r, 1).contains("`artifact` is missing"));
    assert!(r.program.is_none());
}

#[test]
fn give_up_stops_the_run() {
    let r = gen("giveup", vec![envelope("give_up", "", "no idea")], &[]);
    assert_eq!(status(&r), "gave_up");
    assert_eq!(r.out.status.code(), Some(11));
}

#[test]
fn a_500_then_success() {
    let r = gen(
        "500",
        vec![
            Answer::Http(500, vec![], "boom".into()),
            envelope("submit", &good(), "sum"),
        ],
        &[],
    );
    assert_eq!(status(&r), "passed");
    assert_eq!(r.bodies.len(), 2);
    let reply = &events(&r.log, "reply")[0];
    assert_eq!(reply["reply"]["retried"], json!(["500: boom"]));
}

#[test]
fn a_429_with_retry_after() {
    let r = gen(
        "429",
        vec![
            Answer::Http(
                429,
                vec![("Retry-After".into(), "1".into())],
                "later".into(),
            ),
            envelope("submit", &good(), "sum"),
        ],
        &[],
    );
    assert_eq!(status(&r), "passed");
    let reply = &events(&r.log, "reply")[0];
    assert_eq!(reply["reply"]["retried"], json!(["429: later"]));
    // The wait is in the clock readings: at least Retry-After's second.
    let sent = events(&r.log, "request")[0]["ms"].as_u64().unwrap_or(0);
    let got = reply["ms"].as_u64().unwrap_or(0);
    assert!(got - sent >= 1000, "{sent} -> {got}");
}

#[test]
fn a_timeout_is_retried() {
    let r = gen(
        "timeout",
        vec![
            Answer::Silence(Duration::from_millis(2500)),
            envelope("submit", &good(), "sum"),
        ],
        &["--timeout", "1"],
    );
    assert_eq!(status(&r), "passed");
    let reply = &events(&r.log, "reply")[0];
    assert!(
        reply["reply"]["retried"][0]
            .as_str()
            .unwrap_or("")
            .starts_with("timed out"),
        "{reply}"
    );
}

#[test]
fn a_server_that_refuses_ends_the_run() {
    let r = gen(
        "refuses",
        vec![Answer::Http(
            404,
            vec![],
            "{\"error\": \"no such model\"}".into(),
        )],
        &[],
    );
    assert_eq!(status(&r), "provider_failed");
    assert_eq!(r.out.status.code(), Some(1));
    assert!(r.report["failure"].as_str().unwrap_or("").contains("404"));
    assert_eq!(events(&r.log, "provider_error").len(), 1);
}

#[test]
fn the_round_budget() {
    let r = gen(
        "rounds",
        vec![envelope(
            "submit",
            &total_with("(sub (var t) (var x))"),
            "sum",
        )],
        &["--max-rounds", "1"],
    );
    assert_eq!(status(&r), "round_budget");
    assert_eq!(r.out.status.code(), Some(6));
    assert_eq!(r.report["passed"], 1);
}

#[test]
fn the_token_budget() {
    let r = gen(
        "tokens",
        vec![envelope(
            "submit",
            &total_with("(sub (var t) (var x))"),
            "sum",
        )],
        &["--max-total-tokens", "15"],
    );
    assert_eq!(status(&r), "token_budget");
    assert_eq!(r.bodies.len(), 1);
}

#[test]
fn the_time_budget() {
    let r = gen(
        "time",
        vec![
            Answer::Silence(Duration::from_millis(1500)),
            envelope("submit", &total_with("(sub (var t) (var x))"), "sum"),
        ],
        &["--max-time", "1", "--timeout", "1"],
    );
    assert_eq!(status(&r), "time_budget");
    assert_eq!(r.report["rounds"].as_array().map(Vec::len), Some(1));
}

#[test]
fn samples_keep_the_candidate_that_passes_most_examples() {
    let r = gen(
        "samples",
        vec![
            envelope("submit", &total_with("(sub (var t) (var x))"), "one"),
            envelope("submit", &good(), "two"),
            envelope("give_up", "", "three"),
        ],
        &["--samples", "3", "--temperature", "0.8"],
    );
    assert_eq!(status(&r), "passed");
    assert_eq!(r.report["passed_in_round"], 1);
    assert_eq!(events(&r.log, "candidate").len(), 2);
    assert_eq!(r.bodies[2]["temperature"], 0.8);
}

#[test]
fn gbnf_constrains_with_llama_cpps_grammar() {
    let r = gen(
        "gbnf",
        vec![envelope("submit", &good(), "sum")],
        &["--constrain", "gbnf"],
    );
    assert_eq!(status(&r), "passed");
    let g = r.bodies[0]["grammar"].as_str().unwrap_or("");
    assert!(g.starts_with("root ::= envelope\n"), "{g}");
    // The header is imposed: the program starts with exactly the task's.
    assert!(g.contains("NAME: total\\\\n  ARGS: [xs: int[]]"), "{g}");
    assert!(r.bodies[0].get("response_format").is_none());
}

#[test]
fn human_output_is_replayed_too() {
    let server = Server::start(vec![
        envelope("submit", &total_with("(sub (var t) (var x))"), "sum"),
        envelope("patch", FIX, "sign"),
    ]);
    let d = dir("human");
    let mut args: Vec<&str> = TOTAL.to_vec();
    args.extend(["--url", &server.url, "--log", "run.jsonl"]);
    let out = isu(&args, &d);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let again = isu(&["replay", "run.jsonl"], &d);
    assert_eq!(text(&again.stdout), text(&out.stdout));
    assert_eq!(text(&again.stderr), text(&out.stderr));
    assert!(
        text(&out.stderr).contains("round 2: patch, 2 of 2 examples pass"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("EXPR: (add (var t) (var x))"));
}

/// Rewrites a log's hash chain after an edit, as a forger would.
fn rechain(lines: &[String]) -> String {
    let mut prev = isu_host::llm::events::GENESIS.to_owned();
    let mut out = String::new();
    for l in lines {
        let mut v: Value = serde_json::from_str(l).unwrap_or(Value::Null);
        v["prev"] = json!(prev);
        let line = v.to_string();
        prev = isu_host::llm::events::hash(&line);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[test]
fn a_changed_log_is_detected_and_a_different_replay_named() {
    let r = gen("tamper", vec![envelope("submit", &good(), "sum")], &[]);
    let d = dir("tamper-check");
    let lines: Vec<String> = r.log.lines().map(str::to_owned).collect();
    // Changed without fixing the chain: detected, exit 12.
    let changed = r
        .log
        .replacen("\"reason\":\"sum\"", "\"reason\":\"SUM\"", 1);
    assert_ne!(changed, r.log);
    std::fs::write(d.join("changed.jsonl"), &changed).unwrap_or_else(|e| panic!("{e}"));
    let out = isu(&["replay", "changed.jsonl"], &d);
    assert_eq!(out.status.code(), Some(13), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("the log was changed"),
        "{}",
        text(&out.stderr)
    );
    // A line dropped.
    let dropped: String = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 2)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    std::fs::write(d.join("dropped.jsonl"), dropped).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        isu(&["replay", "dropped.jsonl"], &d).status.code(),
        Some(13)
    );
    // Changed with the chain rewritten: the replay parts at that event.
    let mut forged = lines.clone();
    let at = forged
        .iter()
        .position(|l| l.contains("\"event\":\"envelope\""))
        .unwrap_or(0);
    forged[at] = forged[at].replace("\"reason\":\"sum\"", "\"reason\":\"forged\"");
    std::fs::write(d.join("forged.jsonl"), rechain(&forged)).unwrap_or_else(|e| panic!("{e}"));
    let out = isu(&["replay", "forged.jsonl"], &d);
    assert_eq!(out.status.code(), Some(12), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(&format!("at event {at} (envelope)")),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn repair_patches_a_program_from_a_file() {
    let server = Server::start(vec![envelope("patch", FIX, "sign")]);
    let d = dir("repair");
    let program = total_with("(sub (var t) (var x))").replace(
        "INPUT: []\n  OUTPUT: []",
        "INPUT: [{\"xs\": [4, 5]}]\n  OUTPUT: [9]",
    );
    std::fs::write(d.join("p.isu"), program).unwrap_or_else(|e| panic!("{e}"));
    let out = isu(
        &["repair", "p.isu", "--url", &server.url, "-o", "fixed.isu"],
        &d,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let fixed = std::fs::read_to_string(d.join("fixed.isu")).unwrap_or_default();
    assert!(
        fixed.contains("(add (var t) (var x))") && fixed.contains("OUTPUT: [9]"),
        "{fixed}"
    );
    let start = events(
        &std::fs::read_to_string(d.join("fixed.isu.log.jsonl")).unwrap_or_default(),
        "start",
    );
    assert_eq!(start.len(), 1);
    let bodies = server.bodies();
    assert_eq!(
        bodies[0]["response_format"]["json_schema"]["schema"]["properties"]["decision"]["enum"],
        json!(["patch", "give_up"])
    );
    let again = isu(&["replay", "fixed.isu.log.jsonl"], &d);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
}

/// A tagged reply (`--reply-format tagged`), written as the system message
/// shows it.
fn tagged(decision: &str, artifact: &str, reason: &str) -> Answer {
    let mut content = format!("DECISION: {decision}\nREASON: {reason}\n<<<\n{artifact}");
    if !artifact.is_empty() && !artifact.ends_with('\n') {
        content.push('\n');
    }
    content.push_str(">>>\n");
    completion(&content, 10, 5)
}

#[test]
fn tagged_replies_are_read_checked_re_asked_and_replayed() {
    let r = gen(
        "tagged",
        vec![
            // JSON where tagged lines are asked for: re-asked, saying so.
            envelope("submit", &good(), "sum"),
            tagged("submit", &total_with("(sub (var t) (var x))"), "sum"),
            // An artifact left open: re-asked.
            completion("DECISION: patch\nREASON: sign\n<<<\nPATCH:\n", 3, 3),
            tagged("patch", FIX, "sign \"quoted\" as it is"),
        ],
        &["--reply-format", "tagged"],
    );
    assert_eq!(status(&r), "passed", "{}", text(&r.out.stderr));
    assert_eq!(r.report["passed_in_round"], 2);
    let system = r.bodies[0]["messages"][0]["content"].as_str().unwrap_or("");
    assert!(
        system.contains("Reply with exactly these lines and nothing else: `DECISION: <decision>`"),
        "{system}"
    );
    assert!(system.contains("For example:\nDECISION: submit\nREASON: counts the positive elements in one loop\n<<<\nMETA:"));
    assert!(!system.contains("{\"decision\""), "{system}");
    // No JSON Schema constrains tagged replies unless asked for.
    assert!(r.bodies[0].get("response_format").is_none());
    assert!(
        asked(&r, 1).contains("the first line `DECISION: ...` is missing"),
        "{}",
        asked(&r, 1)
    );
    assert!(asked(&r, 1).contains("Reply again with the lines `DECISION: ...`"));
    assert!(
        asked(&r, 3).contains("the artifact is not closed: end it with a line `>>>` alone"),
        "{}",
        asked(&r, 3)
    );
    assert_eq!(r.report["rounds"][0]["rejected"], 1);
    assert_eq!(r.report["rounds"][1]["rejected"], 1);
    assert_eq!(r.report["rounds"][1]["applied"], true);
    // The log records the format, so that the replay reads the replies so.
    assert_eq!(
        events(&r.log, "config")[0]["config"]["options"]["reply_format"],
        "tagged"
    );
}

#[test]
fn tagged_replies_under_gbnf_and_against_a_schema() {
    let r = gen(
        "tagged-gbnf",
        vec![tagged("submit", &good(), "sum")],
        &["--reply-format", "tagged", "--constrain", "gbnf"],
    );
    assert_eq!(status(&r), "passed");
    let g = r.bodies[0]["grammar"].as_str().unwrap_or("");
    // The artifact is written as it is: the header unescaped.
    assert!(g.contains("\"DECISION: submit\\nREASON: \""), "{g}");
    assert!(g.contains("NAME: total\\n  ARGS: [xs: int[]]"), "{g}");
    // In a JSON reply the header's line break is written `\n`, which GBNF
    // writes `\\n`; here it is a line break, which GBNF writes `\n`.
    assert!(!g.contains(r"total\\n"), "no JSON escapes: {g}");
    let d = dir("tagged-schema");
    let mut args: Vec<&str> = TOTAL.to_vec();
    args.extend([
        "--url",
        "http://127.0.0.1:9",
        "--reply-format",
        "tagged",
        "--constrain",
        "schema",
    ]);
    let out = isu(&args, &d);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("a JSON Schema cannot constrain tagged replies"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bad_tasks_and_flags_are_usage_errors() {
    let d = dir("usage");
    let out = isu(
        &[
            "gen",
            "x",
            "--name",
            "f",
            "--args",
            "xs: integer",
            "--returns",
            "int",
            "--url",
            "http://127.0.0.1:9",
        ],
        &d,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("task `f`"),
        "{}",
        text(&out.stderr)
    );
    let out = isu(
        &[
            "gen",
            "x",
            "--name",
            "f",
            "--returns",
            "int",
            "--example",
            "3=>4",
        ],
        &d,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a JSON object of arguments"),
        "{}",
        text(&out.stderr)
    );
    let out = isu(
        &[
            "gen",
            "x",
            "--name",
            "f",
            "--args",
            "n: int",
            "--returns",
            "int",
            "--example",
            "{\"n\": \"a\"}=>4",
        ],
        &d,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("io_type_mismatch"),
        "{}",
        text(&out.stderr)
    );
    let out = isu(&["gen", "x", "--name", "f", "--returns", "int"], &d);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("ISU_LLM_URL"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn scripted_replies_from_a_file() {
    let d = dir("replies");
    let replies = format!(
        "\"not json\"\n{}\n",
        json!({"content": json!({"decision": "submit", "artifact": good(), "reason": "r"}).to_string(), "usage": {"prompt_tokens": 7, "completion_tokens": 2}})
    );
    std::fs::write(d.join("replies.jsonl"), replies).unwrap_or_else(|e| panic!("{e}"));
    let mut args: Vec<&str> = TOTAL.to_vec();
    args.extend(["--replies", "replies.jsonl", "--format", "json"]);
    let out = isu(&args, &d);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(report["tokens"]["prompt_tokens"], 7);
    assert!(d.join("total.log.jsonl").exists());
}

#[test]
fn prompt_prints_the_reference() {
    let d = dir("prompt");
    let out = isu(&["prompt"], &d);
    assert_eq!(out.status.code(), Some(0));
    let t = text(&out.stdout);
    for f in isu_host::stdlib::STDLIB {
        assert!(t.contains(&format!("- {} (", f.name)), "{}", f.name);
    }
    assert!(t.contains("S1_1: IF") && t.contains("REPLACE S1_1:"));
    assert_eq!(t, isu_host::llm::prompt::reference(&Default::default()));
    // What it says of strings is what the validator does: indexing one gives
    // a one-character string.
    assert!(t.contains("or the one-character string at i of a string"));
    let first = |expr: &str| {
        format!("META:\n  AUTO_ID: true\nFUNC:\n  NAME: first\n  ARGS: [s: string]\n  RETURNS: string\nIO:\n  INPUT: []\n  OUTPUT: []\nSTEPS:\n  SEQ: BEGIN\n    RETURN:\n      EXPR: {expr}\n  END\n")
    };
    let check = |text: String| {
        let fe = isu_host::pipeline::check_with(
            &isu_host::Source::new("first.isu", text.as_str()),
            &Default::default(),
        );
        fe.diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code.as_str().to_owned())
            .collect::<Vec<_>>()
    };
    assert!(check(first("(index (var s) (const 0))")).is_empty());
    assert!(check(first("(list (var s) (const 0))")) == ["type_mismatch"]);
}

/// Replies by task: the function's name in the request decides.
fn eval_server() -> Server {
    Server::with(|_, body| {
        let body: Value = serde_json::from_str(body).unwrap_or(Value::Null);
        let last = last_message(&body);
        let first_round = body["messages"].as_array().map(Vec::len) == Some(2)
            && last.starts_with("Write this function");
        if last.contains("NAME: total") {
            if first_round {
                envelope("submit", &total_with("(sub (var t) (var x))"), "first")
            } else {
                envelope("patch", FIX, "sign")
            }
        } else if last.contains("NAME: double") {
            envelope(
                "submit",
                &total_with("(add (var t) (var x))").replace("NAME: total", "NAME: double"),
                "wrong",
            )
        } else {
            envelope("give_up", "", "no")
        }
    })
}

const TASKS: &str = r#"# three tasks
{"id": "sum", "words": "add up", "name": "total", "args": "xs: int[]", "returns": "int", "examples": [{"input": {"xs": [1, 2]}, "output": 3}], "hidden": [{"input": {"xs": [5, 5, 5]}, "output": 15}]}
{"id": "dbl", "words": "twice the sum", "name": "double", "args": "xs: int[]", "returns": "int", "examples": [{"input": {"xs": []}, "output": 0}], "hidden": [{"input": {"xs": [1]}, "output": 2}]}
{"id": "none", "words": "nothing", "name": "nothing", "args": "", "returns": "int", "examples": [{"input": {}, "output": 0}]}
"#;

#[test]
fn eval_reports_pass_at_1_and_repair_figures() {
    let server = eval_server();
    let d = dir("eval");
    std::fs::write(d.join("tasks.jsonl"), TASKS).unwrap_or_else(|e| panic!("{e}"));
    let out = isu(
        &[
            "eval",
            "tasks.jsonl",
            "--url",
            &server.url,
            "--jobs",
            "2",
            "--format",
            "json",
            "--logs",
            "logs",
            "--max-rounds",
            "3",
        ],
        &d,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let ids: Vec<&str> = v["tasks"]
        .as_array()
        .map(|a| a.iter().filter_map(|t| t["id"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(ids, ["sum", "dbl", "none"]);
    // sum: fixed by a patch in round 2, passes its hidden example.
    assert_eq!(v["tasks"][0]["passed"], true);
    assert_eq!(v["tasks"][0]["passed_in_round"], 2);
    // dbl: passes its shown example in round 1 but not the hidden one.
    assert_eq!(v["tasks"][1]["passed_in_round"], 1);
    assert_eq!(v["tasks"][1]["passed"], false);
    assert_eq!(v["tasks"][2]["status"], "gave_up");
    let s = &v["summary"];
    assert_eq!(s["tasks"], 3);
    assert_eq!(s["passed"], 1);
    assert_eq!(s["rounds_to_pass"], json!({"0": 1, "1": 1, "2": 1}));
    assert_eq!(s["failed_first"], 2);
    assert_eq!(s["fixed_within_two"], 1);
    assert_eq!(s["tokens_per_task"], 20.0);
    // Each task's log replays.
    let again = isu(&["replay", "logs/sum.jsonl"], &d);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    // The table, and a shard.
    let out = isu(
        &[
            "eval",
            "tasks.jsonl",
            "--url",
            &server.url,
            "--shard",
            "2/2",
        ],
        &d,
    );
    let table = text(&out.stdout);
    assert!(
        table.contains("dbl") && !table.contains("sum ") && !table.contains("none"),
        "{table}"
    );
    assert!(
        table.contains("pass@1 (hidden examples): 0/1 = 0.000"),
        "{table}"
    );
    assert_eq!(
        isu(
            &[
                "eval",
                "tasks.jsonl",
                "--url",
                &server.url,
                "--shard",
                "3/2"
            ],
            &d
        )
        .status
        .code(),
        Some(2)
    );
}

#[test]
fn eval_refuses_a_bad_task_file() {
    let d = dir("eval-bad");
    std::fs::write(d.join("t.jsonl"), "{\"words\": \"x\"}\n").unwrap_or_else(|e| panic!("{e}"));
    let out = isu(&["eval", "t.jsonl", "--url", "http://127.0.0.1:9"], &d);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 1"),
        "{}",
        text(&out.stderr)
    );
}

/// A report with its times set to 0: they are the only figures that differ
/// from run to run.
fn timeless(mut v: Value) -> Value {
    for t in v["tasks"].as_array_mut().into_iter().flatten() {
        t["ms"] = json!(0);
    }
    v["summary"]["ms_per_task"] = json!(0.0);
    v
}

#[test]
fn merged_shard_reports_equal_the_whole_run() {
    let server = eval_server();
    let d = dir("eval-merge");
    std::fs::write(d.join("tasks.jsonl"), TASKS).unwrap_or_else(|e| panic!("{e}"));
    let run = |extra: &[&str]| {
        let mut args = vec![
            "eval",
            "tasks.jsonl",
            "--url",
            &server.url,
            "--format",
            "json",
        ];
        args.extend(extra);
        let out = isu(&args, &d);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        out.stdout
    };
    let whole: Value = serde_json::from_slice(&run(&[])).unwrap_or(Value::Null);
    assert_eq!(whole["shard"], Value::Null);
    // Two shards, and four (one of them empty).
    for count in [2, 4] {
        let mut files = Vec::new();
        for i in 1..=count {
            let name = format!("shard-{i}-of-{count}.json");
            std::fs::write(d.join(&name), run(&["--shard", &format!("{i}/{count}")]))
                .unwrap_or_else(|e| panic!("{e}"));
            files.push(name);
        }
        let part: Value = serde_json::from_slice(
            &std::fs::read(d.join(&files[0])).unwrap_or_else(|e| panic!("{e}")),
        )
        .unwrap_or(Value::Null);
        assert_eq!(part["shard"]["index"], 1);
        assert_eq!(part["shard"]["count"], count);
        assert_eq!(part["shard"]["tasks"], 3);
        // Given in any order.
        files.reverse();
        let mut args = vec!["eval", "--format", "json", "--merge"];
        args.extend(files.iter().map(String::as_str));
        let out = isu(&args, &d);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let merged: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert_eq!(timeless(merged), timeless(whole.clone()), "{count} shards");
        // The table of the merged run.
        let mut args = vec!["eval", "--merge"];
        args.extend(files.iter().map(String::as_str));
        let table = text(&isu(&args, &d).stdout);
        assert!(
            table.contains("pass@1 (hidden examples): 1/3 = 0.333"),
            "{table}"
        );
    }
    // A shard missing, a report that is no report, a file that is not there,
    // and shards with a task file: structured usage errors.
    for (files, message) in [
        (
            vec!["shard-1-of-2.json"],
            "shard 2/2 missing: merge the reports of every shard of the run",
        ),
        (
            vec!["tasks.jsonl"],
            "tasks.jsonl is not a report of `isu eval --format json`",
        ),
        (vec!["gone.json"], "cannot read gone.json"),
    ] {
        let mut args = vec!["eval", "--format", "json", "--merge"];
        args.extend(files);
        let out = isu(&args, &d);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        let m = v["diagnostics"][0]["message"].as_str().unwrap_or_default();
        assert!(m.starts_with(message), "{v}");
        assert_ne!(out.status.code(), Some(0));
    }
    let out = isu(&["eval", "tasks.jsonl", "--merge", "shard-1-of-2.json"], &d);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

/// Two tasks, both first written with a StaticError that a patch fixes.
const TWICE: &str = r#"{"id": "a", "words": "add up", "name": "total", "args": "xs: int[]", "returns": "int", "examples": [{"input": {"xs": [1, 2]}, "output": 3}], "hidden": [{"input": {"xs": [5, 5]}, "output": 10}]}
{"id": "b", "words": "sum them", "name": "total", "args": "xs: int[]", "returns": "int", "examples": [{"input": {"xs": [4]}, "output": 4}], "hidden": [{"input": {"xs": []}, "output": 0}]}
"#;

fn static_error_server() -> Server {
    Server::with(|_, body| {
        let body: Value = serde_json::from_str(body).unwrap_or(Value::Null);
        let msgs = body["messages"].as_array().cloned().unwrap_or_default();
        let last = msgs
            .last()
            .and_then(|m| m["content"].as_str())
            .unwrap_or("");
        if last.starts_with("Write this function") {
            envelope("submit", &total_with("(add (var t) (const \"1\"))"), "sum")
        } else {
            envelope("patch", FIX, "types")
        }
    })
}

#[test]
fn eval_with_lessons_uses_the_store_across_tasks_and_says_so() {
    let d = dir("eval-lessons");
    std::fs::write(d.join("tasks.jsonl"), TWICE).unwrap_or_else(|e| panic!("{e}"));
    let store = d.join("memory.jsonl");
    let run = |server: &Server, extra: &[&str]| {
        let mut args = vec![
            "eval",
            "tasks.jsonl",
            "--url",
            &server.url,
            "--format",
            "json",
            "--logs",
            "logs",
        ];
        args.extend(extra);
        let out = isu(&args, &d);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap_or(Value::Null)
    };
    // Without lessons: the report says so, and the memory is not touched.
    let server = static_error_server();
    let without = run(&server, &[]);
    assert_eq!(without["lessons"], false);
    assert_eq!(without["store"], Value::Null);
    assert_eq!(without["summary"]["passed"], 2);
    assert!(!store.exists());
    assert!(server
        .bodies()
        .iter()
        .all(|b| !b.to_string().contains("Earlier repairs")));
    // With lessons: task a keeps the lesson its patch taught, and task b's
    // feedback holds it.
    let server = static_error_server();
    let with = run(
        &server,
        &["--lessons", "--store", "file://memory.jsonl", "--root", "."],
    );
    assert_eq!(with["lessons"], true);
    assert_eq!(with["store"], "file://memory.jsonl");
    assert_eq!(with["summary"]["passed"], 2);
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 4, "two rounds per task");
    let feedback = |i: usize| {
        let m = &bodies[i]["messages"];
        m[m.as_array().map_or(1, Vec::len) - 1]["content"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    assert!(!feedback(1).contains("Earlier repairs"), "{}", feedback(1));
    assert!(feedback(3).contains("Earlier repairs"), "{}", feedback(3));
    assert!(feedback(3).contains(FIX.trim_end()), "{}", feedback(3));
    let kept = jsonl(&store);
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(kept.iter().all(|k| k["record"]["code"] == "type_mismatch"));
    // Each task's log replays, with the memory's recorded answers.
    for id in ["a", "b"] {
        let again = isu(&["replay", &format!("logs/{id}.jsonl")], &d);
        assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    }
    assert_eq!(jsonl(&store).len(), 2, "a replay keeps nothing");
    // The table says whether lessons were on.
    let server = static_error_server();
    let table = |extra: &[&str]| {
        let mut args = vec!["eval", "tasks.jsonl", "--url", &server.url];
        args.extend(extra);
        text(&isu(&args, &d).stdout)
    };
    assert!(table(&[]).ends_with("lessons: off\n"));
    assert!(
        table(&["--lessons", "--store", "file://memory.jsonl", "--root", "."])
            .ends_with("lessons: on (store file://memory.jsonl)\n")
    );
    // A store outside the root is refused before the model is asked.
    let out = isu(
        &[
            "eval",
            "tasks.jsonl",
            "--url",
            "http://127.0.0.1:9",
            "--lessons",
            "--store",
            "file://../outside.jsonl",
            "--root",
            ".",
        ],
        &d,
    );
    assert_eq!(out.status.code(), Some(10), "{}", text(&out.stderr));
    // --store without --lessons is bad usage.
    let out = isu(&["eval", "tasks.jsonl", "--store", "file://m.jsonl"], &d);
    assert_eq!(out.status.code(), Some(2));
}
