//! `isu explain` against the loopback server: the description, the request
//! (the reference, the program without its examples, the envelope of
//! `explain`), a program that does not validate refused before the model is
//! asked, replies off the contract re-asked, give_up, the GBNF constraint,
//! and the log replayed byte for byte (and a changed one detected).

use super::loopback::{envelope, Server};
use super::{dir, events, isu, last_message, rechain, text};
use serde_json::{json, Value};
use std::path::Path;

/// The sum of the even elements of `xs`, with `cond` deciding which count.
pub fn sum_where(cond: &str) -> String {
    format!(
        "META:\n  AUTO_ID: true\nFUNC:\n  NAME: sum_even\n  ARGS: [xs: int[]]\n  RETURNS: int\nIO:\n  INPUT: []\n  OUTPUT: []\nSTATE: [t: int = (const 0)]\nLOCAL: [x: int]\nSTEPS:\n  SEQ: BEGIN\n    LOOP:\n      ITER: (each x (var xs))\n      BODY: BEGIN\n        IF:\n          COND: {cond}\n          THEN: BEGIN\n            ASSIGN:\n              TARGET: t\n              EXPR: (add (var t) (var x))\n          END\n          ELSE: BEGIN\n          END\n      END\n    RETURN:\n      EXPR: (var t)\n  END\n"
    )
}

/// Program A of most tests: the sum of the even elements.
pub fn evens() -> String {
    sum_where("(eq (mod (var x) (const 2)) (const 0))")
}

/// A faithful description of [`evens`].
pub const FAITHFUL: &str =
    "Returns the sum of the even elements of xs (0 when it has none); the sum overflowing 64 bits is an error.";

/// `evens` with IO examples, as a user's file.
fn evens_file(d: &Path) {
    let program = evens().replace(
        "INPUT: []\n  OUTPUT: []",
        "INPUT: [{\"xs\": [1, 2, 3, 4]}]\n  OUTPUT: [6]",
    );
    std::fs::write(d.join("evens.isu"), program).unwrap_or_else(|e| panic!("{e}"));
}

/// Runs `isu explain evens.isu` in `d` against `server`, then replays its
/// log and checks the replay prints the same and exits the same.
fn explain_in(d: &Path, server: &Server, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["explain", "evens.isu", "--url", &server.url];
    args.extend(extra);
    let out = isu(&args, d);
    let mut again = vec!["replay", "evens.isu.explain.jsonl"];
    if extra.contains(&"json") {
        again.extend(["--format", "json"]);
    }
    let replayed = isu(&again, d);
    assert_eq!(text(&replayed.stdout), text(&out.stdout));
    assert_eq!(
        replayed.status.code(),
        out.status.code(),
        "{}",
        text(&replayed.stderr)
    );
    out
}

#[test]
fn explain_describes_a_program_and_its_log_replays() {
    let d = dir("explain");
    evens_file(&d);
    let server = Server::start(vec![envelope("explain", FAITHFUL, "read the loop")]);
    let out = explain_in(&d, &server, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{FAITHFUL}\n"));
    assert!(text(&out.stderr).contains("explained (15 tokens"));
    // The request: the reference, the decisions of explain, the program
    // without its examples.
    let body = &server.bodies()[0];
    let system = body["messages"][0]["content"].as_str().unwrap_or("");
    assert!(system.contains("MAP_GET_OR"), "{system}");
    assert!(
        system.contains("- \"explain\": the artifact is what the program does"),
        "{system}"
    );
    assert!(!system.contains("\"submit\""), "{system}");
    let asked = last_message(body);
    assert!(asked.starts_with("Describe what this Isu function does"));
    assert!(asked.contains("(eq (mod (var x) (const 2)) (const 0))"));
    assert!(asked.contains("INPUT: []") && !asked.contains("[1, 2, 3, 4]"));
    assert!(asked.ends_with("Accepted decisions: \"explain\", \"give_up\"."));
    assert_eq!(
        body["response_format"]["json_schema"]["schema"]["properties"]["decision"]["enum"],
        json!(["explain", "give_up"])
    );
    // The log: its configuration, the request, the result.
    let log = std::fs::read_to_string(d.join("evens.isu.explain.jsonl")).unwrap_or_default();
    let config = &events(&log, "config")[0];
    assert!(config["explain"]["program"]
        .as_str()
        .is_some_and(|p| p.contains("NAME: sum_even")));
    assert_eq!(events(&log, "result")[0]["explanation"], FAITHFUL);
    // JSON, and -o.
    let server = Server::start(vec![envelope("explain", FAITHFUL, "again")]);
    let out = explain_in(&d, &server, &["--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(report["ok"], true);
    assert_eq!(report["status"], "explained");
    assert_eq!(report["explanation"], FAITHFUL);
    let server = Server::start(vec![envelope("explain", FAITHFUL, "to a file")]);
    let out = isu(
        &[
            "explain",
            "evens.isu",
            "--url",
            &server.url,
            "-o",
            "words.txt",
        ],
        &d,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        std::fs::read_to_string(d.join("words.txt")).unwrap_or_default(),
        format!("{FAITHFUL}\n")
    );
    assert!(d.join("words.txt.log.jsonl").exists());
}

#[test]
fn explain_refuses_a_program_that_does_not_validate_before_asking() {
    let d = dir("explain-invalid");
    let server = Server::start(vec![envelope("explain", FAITHFUL, "never asked")]);
    for (program, code, kind) in [
        (evens().replace("(var xs))", "(var xs)"), 3, "ParseError"),
        (
            evens().replace("(add (var t) (var x))", "(add (var t) (const \"1\"))"),
            4,
            "StaticError",
        ),
    ] {
        std::fs::write(d.join("evens.isu"), program).unwrap_or_else(|e| panic!("{e}"));
        let out = isu(
            &[
                "explain",
                "evens.isu",
                "--url",
                &server.url,
                "--format",
                "json",
            ],
            &d,
        );
        assert_eq!(out.status.code(), Some(code), "{}", text(&out.stderr));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert_eq!(report["ok"], false);
        assert_eq!(report["diagnostics"][0]["kind"], kind, "{report}");
        let human = isu(&["explain", "evens.isu", "--url", &server.url], &d);
        assert_eq!(human.status.code(), Some(code));
        assert!(text(&human.stderr).contains("only a program that validates is described"));
    }
    assert!(server.bodies().is_empty(), "the model was asked");
    assert!(!d.join("evens.isu.explain.jsonl").exists());
}

#[test]
fn explain_re_asks_replies_off_the_contract() {
    let d = dir("explain-reask");
    evens_file(&d);
    let server = Server::start(vec![
        envelope("submit", &evens(), "wrong job"),
        envelope(
            "explain",
            "It does this:\nSTEPS:\n  SEQ: BEGIN\n  END",
            "pasted",
        ),
        envelope("explain", FAITHFUL, "words"),
    ]);
    let out = explain_in(&d, &server, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(report["requests"], 3);
    assert_eq!(report["rejected"], 2);
    let bodies = server.bodies();
    assert!(last_message(&bodies[1])
        .contains("the decision `submit` is not allowed now; allowed: explain, give_up"));
    assert!(
        last_message(&bodies[2]).contains("is plain words, not Isu: it has the line `STEPS:`"),
        "{}",
        last_message(&bodies[2])
    );
    // Still off the contract after every re-ask: no description, exit 11.
    let server = Server::start(vec![envelope("submit", &evens(), "again"); 3]);
    let out = explain_in(&d, &server, &[]);
    assert_eq!(out.status.code(), Some(11), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("stopped (off contract): no description"));
}

#[test]
fn explain_gives_up_and_constrains_with_gbnf() {
    let d = dir("explain-give-up");
    evens_file(&d);
    let server = Server::start(vec![envelope("give_up", "", "cannot")]);
    let out = explain_in(&d, &server, &["--constrain", "gbnf"]);
    assert_eq!(out.status.code(), Some(11), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    let body = &server.bodies()[0];
    let g = body["grammar"].as_str().unwrap_or("");
    assert!(g.starts_with("root ::= envelope\n"), "{g}");
    assert!(
        g.contains("\"{\\\"decision\\\": \\\"explain\\\", \\\"artifact\\\": \\\"\" words"),
        "{g}"
    );
    assert!(g.contains("\nwords ::= "), "{g}");
    // No artifact is Isu, so the grammar holds none of Isu's rules.
    assert!(!g.contains("auto-steps"), "{g}");
    assert!(body.get("response_format").is_none());
    // A server that is not there: exit 1.
    let out = isu(
        &[
            "explain",
            "evens.isu",
            "--url",
            "http://127.0.0.1:9",
            "--retries",
            "0",
        ],
        &d,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // --samples does not apply.
    let out = isu(
        &[
            "explain",
            "evens.isu",
            "--url",
            "http://127.0.0.1:9",
            "--samples",
            "2",
        ],
        &d,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn a_changed_explain_log_is_detected() {
    let d = dir("explain-tamper");
    evens_file(&d);
    let server = Server::start(vec![envelope("explain", FAITHFUL, "words")]);
    let out = explain_in(&d, &server, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = std::fs::read_to_string(d.join("evens.isu.explain.jsonl")).unwrap_or_default();
    // Changed without fixing the chain: exit 13.
    let changed = log.replacen("the sum of the even", "the sum of all the", 1);
    assert_ne!(changed, log);
    std::fs::write(d.join("changed.jsonl"), &changed).unwrap_or_else(|e| panic!("{e}"));
    let out = isu(&["replay", "changed.jsonl"], &d);
    assert_eq!(out.status.code(), Some(13), "{}", text(&out.stderr));
    // Changed with the chain rewritten: the replay parts at the result.
    let lines: Vec<String> = changed.lines().map(str::to_owned).collect();
    std::fs::write(d.join("forged.jsonl"), rechain(&lines)).unwrap_or_else(|e| panic!("{e}"));
    let out = isu(&["replay", "forged.jsonl"], &d);
    assert_eq!(out.status.code(), Some(12), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("(result)"),
        "{}",
        text(&out.stderr)
    );
}
