//! `isu eval --roundtrip` against a scripted model on the loopback server:
//! program A from the task's words, its description, program B from the
//! description, both run on the task's examples and random inputs. A
//! faithful description scores 1; one that drops "even" gives a B that
//! differs exactly where an odd element counts, and those inputs are kept,
//! as a case file that `isu test` and `isu conformance` read back. Also: a
//! B that never validates, no description, no valid A, `--inputs 0`,
//! runtime errors on both sides, the same seed drawing the same inputs, and
//! every log of a round trip replayed.

use super::explain::{evens, sum_where, FAITHFUL};
use super::loopback::{envelope, Server};
use super::{dir, isu, last_message, text};
use serde_json::{json, Value};
use std::path::Path;

/// The words of the task `evens`.
const EVENS_WORDS: &str = "add up the even elements of xs";

/// A description of `evens` that drops "even".
const LOSSY: &str = "Returns the sum of the elements of xs.";

/// A description after which B never validates.
const BROKEN: &str = "Returns something.";

/// The words of the task `first`, and its description.
const FIRST_WORDS: &str = "the first element of xs";
const FIRST_DESCRIBED: &str = "Returns the first element of xs; an empty xs is an index error.";

const TASKS: &str = r#"{"id": "evens", "words": "add up the even elements of xs", "name": "sum_even", "args": "xs: int[]", "returns": "int", "examples": [{"input": {"xs": [1, 2, 3, 4]}, "output": 6}, {"input": {"xs": []}, "output": 0}], "hidden": [{"input": {"xs": [2, 2, 5]}, "output": 4}]}
{"id": "first", "words": "the first element of xs", "name": "first", "args": "xs: int[]", "returns": "int", "examples": [{"input": {"xs": [7, 8]}, "output": 7}]}
"#;

/// `evens` written another way: by index, with the evenness test turned
/// round. The same behaviour, another text.
fn evens_by_index() -> String {
    "META:\n  AUTO_ID: true\nFUNC:\n  NAME: sum_even\n  ARGS: [xs: int[]]\n  RETURNS: int\nIO:\n  INPUT: []\n  OUTPUT: []\nSTATE: [t: int = (const 0)]\nLOCAL: [i: int]\nSTEPS:\n  SEQ: BEGIN\n    LOOP:\n      ITER: (range i (const 0) (call LEN (var xs)))\n      BODY: BEGIN\n        IF:\n          COND: (ne (mod (index (var xs) (var i)) (const 2)) (const 0))\n          THEN: BEGIN\n          END\n          ELSE: BEGIN\n            ASSIGN:\n              TARGET: t\n              EXPR: (add (var t) (index (var xs) (var i)))\n          END\n      END\n    RETURN:\n      EXPR: (var t)\n  END\n"
        .to_owned()
}

/// `first` with its body `steps` (and `locals`).
fn first_with(locals: &str, steps: &str) -> String {
    format!(
        "META:\n  AUTO_ID: true\nFUNC:\n  NAME: first\n  ARGS: [xs: int[]]\n  RETURNS: int\nIO:\n  INPUT: []\n  OUTPUT: []\nLOCAL: [{locals}]\nSTEPS:\n  SEQ: BEGIN\n{steps}  END\n"
    )
}

/// A model that writes A from the task's words, describes it as
/// `describe` says, and writes B from the description; it gives up on
/// anything else (a later round of a B that does not validate).
fn model(describe: &'static str) -> Server {
    Server::with(move |_, body| {
        let last = last_message(&serde_json::from_str(body).unwrap_or(Value::Null));
        if last.starts_with("Describe what this Isu function does") {
            let words = if last.contains("NAME: first") {
                FIRST_DESCRIBED
            } else {
                describe
            };
            return match words {
                "" => envelope("give_up", "", "no words"),
                w => envelope("explain", w, "read it"),
            };
        }
        let Some(asked) = last.strip_prefix("Write this function in Isu: ") else {
            return envelope("give_up", "", "no patch");
        };
        let words = asked.split("\n\n").next().unwrap_or("");
        let program = match words {
            EVENS_WORDS | FAITHFUL => {
                if words == EVENS_WORDS {
                    evens()
                } else {
                    evens_by_index()
                }
            }
            LOSSY => sum_where("(const true)"),
            BROKEN => evens().replace("(add (var t) (var x))", "(add (var t) (const \"1\"))"),
            FIRST_WORDS => first_with("", "    RETURN:\n      EXPR: (index (var xs) (const 0))\n"),
            FIRST_DESCRIBED => first_with(
                "n: int",
                "    ASSIGN:\n      TARGET: n\n      EXPR: (call LEN (var xs))\n    RETURN:\n      EXPR: (index (var xs) (sub (var n) (var n)))\n",
            ),
            _ => return envelope("give_up", "", "what?"),
        };
        envelope("submit", &program, "written")
    })
}

/// A model whose A of `evens` never validates.
fn no_a() -> Server {
    Server::with(|_, _| envelope("give_up", "", "no"))
}

/// `isu eval tasks.jsonl --roundtrip` with `extra` flags against `server`
/// in `d`: the JSON report.
fn eval(d: &Path, server: &Server, extra: &[&str]) -> Value {
    let mut args = vec![
        "eval",
        "tasks.jsonl",
        "--url",
        &server.url,
        "--roundtrip",
        "--format",
        "json",
        "--max-rounds",
        "2",
    ];
    args.extend(extra);
    let out = isu(&args, d);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", text(&out.stdout), text(&out.stderr)))
}

fn tasks_in(name: &str) -> std::path::PathBuf {
    let d = dir(name);
    std::fs::write(d.join("tasks.jsonl"), TASKS).unwrap_or_else(|e| panic!("{e}"));
    d
}

/// The report without its clock readings, which differ from run to run.
fn timeless(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "ms" | "ms_per_task"))
                .map(|(k, v)| (k.clone(), timeless(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(timeless).collect()),
        v => v.clone(),
    }
}

/// The sum of the elements of `xs` that `keep` keeps, as an answer of the
/// report: the value, or the overflow's error code.
fn summed(xs: &Value, keep: fn(i64) -> bool) -> Value {
    let mut t: i64 = 0;
    for x in xs
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_i64)
    {
        if keep(x) {
            match t.checked_add(x) {
                Some(s) => t = s,
                None => return json!("int_overflow"),
            }
        }
    }
    json!(t)
}

/// An answer of the report as [`summed`] writes it.
fn plain(answer: &Value) -> Value {
    match answer.get("value") {
        Some(v) => v.clone(),
        None => answer["error"]["code"].clone(),
    }
}

#[test]
fn a_faithful_description_scores_1() {
    let d = tasks_in("rt-faithful");
    let v = eval(
        &d,
        &model(FAITHFUL),
        &["--inputs", "20", "--seed", "7", "--logs", "logs"],
    );
    assert_eq!(v["roundtrip"], json!({"inputs": 20, "seed": 7}));
    let evens = &v["tasks"][0]["roundtrip"];
    assert_eq!(evens["score"], 1.0, "{evens:#}");
    assert_eq!(evens["explain_status"], "explained");
    assert_eq!(evens["explanation"], FAITHFUL);
    assert_eq!(evens["b_status"], "passed");
    // The three examples, then twenty random inputs, each once.
    assert_eq!(evens["examples"], 3);
    assert_eq!(evens["inputs"], 23);
    assert_eq!(evens["agreed"], 23);
    assert_eq!(evens["disagreements"], json!([]));
    // B is the other text, from the description.
    assert!(evens["b_program"]
        .as_str()
        .is_some_and(|p| p.contains("(range i (const 0) (call LEN (var xs)))")));
    // first: the random empty arrays stop both A and B with
    // index_out_of_range, at steps of their own: that is agreement.
    let first = &v["tasks"][1]["roundtrip"];
    assert_eq!(first["score"], 1.0, "{first:#}");
    assert!(
        first["agreed_errors"].as_u64().unwrap_or(0) >= 1,
        "{first:#}"
    );
    let s = &v["summary"]["roundtrip"];
    assert_eq!(s["tasks"], 2);
    assert_eq!(s["score"], 1.0);
    assert_eq!(s["perfect"], 2);
    assert_eq!(s["inputs"], s["agreed"]);
    // pass@1 is reported beside it, as without --roundtrip.
    assert_eq!(v["summary"]["passed"], 2);
    // Every log of the round trip replays: A's, the description's, B's.
    for log in [
        "evens.jsonl",
        "evens.explain.jsonl",
        "evens.b.jsonl",
        "first.b.jsonl",
    ] {
        let again = isu(&["replay", &format!("logs/{log}")], &d);
        assert_eq!(
            again.status.code(),
            Some(0),
            "{log}: {}",
            text(&again.stderr)
        );
    }
    let described = isu(&["replay", "logs/evens.explain.jsonl"], &d);
    assert_eq!(text(&described.stdout), format!("{FAITHFUL}\n"));
    // No disagreement: nothing is written to --out.
    let v = eval(&d, &model(FAITHFUL), &["--out", "kept"]);
    assert_eq!(v["tasks"][0]["roundtrip"]["case_file"], Value::Null);
    assert!(std::fs::read_dir(d.join("kept")).is_ok_and(|mut e| e.next().is_none()));
}

#[test]
fn a_description_that_drops_a_detail_shows_where() {
    let d = tasks_in("rt-lossy");
    let v = eval(
        &d,
        &model(LOSSY),
        &["--inputs", "20", "--seed", "7", "--out", "kept"],
    );
    let rt = &v["tasks"][0]["roundtrip"];
    assert_eq!(rt["b_status"], "passed");
    let score = rt["score"].as_f64().unwrap_or(1.0);
    assert!(score < 1.0 && score > 0.0, "{rt:#}");
    let kept = rt["disagreements"].as_array().cloned().unwrap_or_default();
    assert_eq!(
        rt["agreed"].as_u64().unwrap_or(0) + kept.len() as u64,
        rt["inputs"].as_u64().unwrap_or(0)
    );
    assert_eq!(
        score,
        rt["agreed"].as_f64().unwrap_or(0.0) / rt["inputs"].as_f64().unwrap_or(1.0)
    );
    // Each kept input has an odd element that counts, A's answer is the sum
    // of the even ones and B's the sum of all.
    let even = |x: i64| x % 2 == 0;
    for k in &kept {
        let xs = &k["input"]["xs"];
        assert!(
            xs.as_array()
                .into_iter()
                .flatten()
                .any(|x| x.as_i64().is_some_and(|x| x % 2 != 0)),
            "{k}"
        );
        assert_eq!(plain(&k["a"]), summed(xs, even), "{k}");
        assert_eq!(plain(&k["b"]), summed(xs, |_| true), "{k}");
    }
    // The shown and hidden examples with an odd element are among them.
    let inputs: Vec<&Value> = kept.iter().map(|k| &k["input"]).collect();
    assert!(inputs.contains(&&json!({"xs": [1, 2, 3, 4]})));
    assert!(inputs.contains(&&json!({"xs": [2, 2, 5]})));
    assert!(!inputs.contains(&&json!({"xs": []})));
    // The case file: A with the kept inputs as IO (A's answers as OUTPUT)
    // and as `; run:` lines.
    assert_eq!(rt["case_file"], "kept/evens.isu");
    let case = std::fs::read_to_string(d.join("kept/evens.isu")).unwrap_or_default();
    assert!(
        case.starts_with("; Kept by `isu eval --roundtrip --seed 7` from task `evens`"),
        "{case}"
    );
    assert!(
        case.contains("; run: {\"xs\": [1, 2, 3, 4]} => 6\n"),
        "{case}"
    );
    assert_eq!(case.matches("\n; run: ").count(), kept.len(), "{case}");
    assert!(
        case.contains("INPUT: [{\"xs\": [1, 2, 3, 4]}, {\"xs\": [2, 2, 5]}"),
        "{case}"
    );
    // isu reads it back: its IO passes on A...
    let test = isu(&["test", "kept/evens.isu"], &d);
    assert_eq!(test.status.code(), Some(0), "{}", text(&test.stderr));
    // ...and fails on B, each kept input a TestFail.
    let b = rt["b_program"].as_str().unwrap_or("");
    let io = |t: &str| -> String {
        let from = t.find("IO:\n").unwrap_or(0);
        let to = t[from..].find("\nSTATE:").map_or(t.len(), |n| from + n);
        t[from..to].to_owned()
    };
    std::fs::write(d.join("b.isu"), b.replace(&io(b), &io(&case)))
        .unwrap_or_else(|e| panic!("{e}"));
    let test = isu(&["test", "b.isu", "--format", "json"], &d);
    assert_eq!(test.status.code(), Some(6), "{}", text(&test.stderr));
    // ...and the conformance runner runs its `; run:` lines on the interpreter.
    std::fs::write(
        d.join("interpreter-only.toml"),
        "disable = [\"math\", \"text\", \"python\", \"wasm\", \"llvm\"]\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let conf = isu(
        &[
            "--plugins",
            "interpreter-only.toml",
            "conformance",
            "--cases",
            "kept",
            "--format",
            "json",
        ],
        &d,
    );
    let report: Value = serde_json::from_slice(&conf.stdout).unwrap_or(Value::Null);
    let failures: Vec<&Value> = report["reports"][0]["failures"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["case"].as_str().is_some_and(|c| c.starts_with("kept/")))
        .collect();
    assert_eq!(
        report["reports"][0]["executor"], "interpreter",
        "{report:#}"
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(report["folders"][0], "kept");
    // The table says it too.
    let out = isu(
        &[
            "eval",
            "tasks.jsonl",
            "--url",
            &model(LOSSY).url,
            "--roundtrip",
            "--inputs",
            "0",
        ],
        &d,
    );
    let table = text(&out.stdout);
    assert!(table.contains("round trip (A described, B written from the words; the task's examples and 0 random inputs, seed 0):"), "{table}");
    assert!(
        table.contains("\nevens  0.333      1/3  passed              2\n"),
        "{table}"
    );
    assert!(
        table.contains(
            "round trip (A and B agree): mean 0.667 over 2 tasks (1 at 1.000); 2/4 inputs"
        ),
        "{table}"
    );
    let said = text(&out.stderr);
    for line in [
        "evens: pass (1 of 1 hidden examples), passed, 1 rounds, 15 tokens",
        "; round trip 0.333 (1 of 3 inputs agree)",
    ] {
        assert!(said.contains(line), "{said}");
    }
}

#[test]
fn the_same_seed_draws_the_same_inputs() {
    let d = tasks_in("rt-seed");
    let run = |seed: &str| {
        eval(
            &d,
            &model(LOSSY),
            &["--inputs", "12", "--seed", seed, "--jobs", "2"],
        )
    };
    let (a, b, c) = (run("3"), run("3"), run("4"));
    assert_eq!(timeless(&a), timeless(&b));
    let kept = |v: &Value| v["tasks"][0]["roundtrip"]["disagreements"].clone();
    assert_ne!(kept(&a), kept(&c));
}

#[test]
fn no_random_inputs_compares_the_examples_alone() {
    let d = tasks_in("rt-zero");
    let v = eval(&d, &model(LOSSY), &["--inputs", "0"]);
    let rt = &v["tasks"][0]["roundtrip"];
    assert_eq!(rt["inputs"], 3);
    assert_eq!(rt["examples"], 3);
    assert_eq!(rt["agreed"], 1);
    assert_eq!(rt["score"].as_f64().map(|s| (s * 3.0).round()), Some(1.0));
    assert_eq!(v["tasks"][1]["roundtrip"]["inputs"], 1);
    // A task with no example and no random input has nothing to compare.
    std::fs::write(
        d.join("tasks.jsonl"),
        r#"{"id": "bare", "words": "add up the even elements of xs", "name": "sum_even", "args": "xs: int[]", "returns": "int"}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let v = eval(&d, &model(LOSSY), &["--inputs", "0"]);
    let rt = &v["tasks"][0]["roundtrip"];
    assert_eq!(rt["score"], Value::Null);
    assert!(
        rt["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("no inputs")),
        "{rt}"
    );
    assert_eq!(v["summary"]["roundtrip"]["tasks"], 0);
}

#[test]
fn a_b_that_never_validates_or_no_description_scores_0() {
    let d = tasks_in("rt-broken");
    let v = eval(&d, &model(BROKEN), &["--inputs", "5", "--logs", "logs"]);
    let rt = &v["tasks"][0]["roundtrip"];
    assert_eq!(rt["score"], 0.0, "{rt:#}");
    assert_eq!(rt["b_status"], "gave_up");
    assert_eq!(
        rt["reason"],
        "B never validated: its loop ended gave_up with type_mismatch"
    );
    assert_eq!(rt["inputs"], 0);
    assert!(rt["b_program"]
        .as_str()
        .is_some_and(|p| p.contains("(const \"1\")")));
    let again = isu(&["replay", "logs/evens.b.jsonl"], &d);
    assert_eq!(again.status.code(), Some(4), "{}", text(&again.stderr));
    // The mean counts it as 0.
    assert_eq!(v["summary"]["roundtrip"]["score"], 0.5);
    // No description: 0 too, and no B is asked for.
    let server = model("");
    let v = eval(&d, &server, &["--inputs", "5"]);
    let rt = &v["tasks"][0]["roundtrip"];
    assert_eq!(rt["score"], 0.0);
    assert_eq!(rt["explain_status"], "gave_up");
    assert_eq!(
        rt["reason"],
        "no description of A: the model's reply ended gave_up"
    );
    assert_eq!(rt.get("b_status"), None);
    // No valid A: no round trip to score, and no description asked for.
    let server = no_a();
    let v = eval(&d, &server, &["--inputs", "5"]);
    let rt = &v["tasks"][0]["roundtrip"];
    assert_eq!(rt["score"], Value::Null);
    assert_eq!(
        rt["reason"],
        "A has no valid program (its loop ended gave_up)"
    );
    assert_eq!(server.bodies().len(), 2, "one request per task, for A");
    assert_eq!(v["summary"]["roundtrip"]["tasks"], 0);
}

#[test]
fn roundtrip_flags_need_roundtrip() {
    let d = tasks_in("rt-usage");
    for flags in [&["--inputs", "3"][..], &["--seed", "1"], &["--out", "o"]] {
        let mut args = vec!["eval", "tasks.jsonl", "--url", "http://127.0.0.1:9"];
        args.extend(flags);
        assert_eq!(isu(&args, &d).status.code(), Some(2), "{flags:?}");
    }
}
