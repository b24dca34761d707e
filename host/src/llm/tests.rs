//! The reply contract, the scripted provider, the event log, the prompt.

use super::envelope::{self, Decision, Envelope, ReplyFormat};
use super::events::{self, Log};
use super::provider::{Completion, Constraint, Provider, ProviderError, Request, Scripted, Usage};
use super::task::{Example, Task};
use crate::functions::Functions;
use serde_json::json;

fn problems(reply: &str, allow: &[Decision]) -> Vec<String> {
    envelope::check(reply, allow, ReplyFormat::Json)
        .err()
        .unwrap_or_default()
}

#[test]
fn a_reply_on_contract() {
    let e = envelope::check(
        r#"  {"decision": "submit", "artifact": "FUNC:\n", "reason": "first try"} "#,
        &[Decision::Submit, Decision::GiveUp],
        ReplyFormat::Json,
    );
    assert_eq!(
        e,
        Ok(Envelope {
            decision: Decision::Submit,
            artifact: "FUNC:\n".into(),
            reason: "first try".into(),
        })
    );
    let give_up = envelope::check(
        r#"{"decision": "give_up", "artifact": "", "reason": "no"}"#,
        &[],
        ReplyFormat::Json,
    );
    assert_eq!(give_up.map(|e| e.decision), Ok(Decision::GiveUp));
}

#[test]
fn replies_off_contract_say_what_is_wrong() {
    let first = [Decision::Submit, Decision::GiveUp];
    for (reply, wanted) in [
        ("Sure! Here is the program: FUNC:", "not one JSON object"),
        ("```json\n{}\n```", "not one JSON object"),
        ("{\"decision\": \"submit\"", "not one JSON object"),
        ("[1, 2]", "not an object"),
        (
            r#"{"decision": "submit", "artifact": "x"}"#,
            "`reason` is missing",
        ),
        (
            r#"{"decision": "submit", "artifact": 3, "reason": "r"}"#,
            "`artifact` must be a string",
        ),
        (
            r#"{"decision": "submit", "artifact": "x", "reason": "r", "code": "y"}"#,
            "unknown field `code`",
        ),
        (
            r#"{"decision": "patch", "artifact": "PATCH:\n", "reason": "r"}"#,
            "the decision `patch` is not allowed now; allowed: submit, give_up",
        ),
        (
            r#"{"decision": "rewrite", "artifact": "x", "reason": "r"}"#,
            "`rewrite` is not a decision",
        ),
        (
            r#"{"decision": "submit", "artifact": "  ", "reason": "r"}"#,
            "`artifact` is empty",
        ),
        (
            r#"{"decision": "submit", "artifact": "PATCH:\n  DELETE S1", "reason": "r"}"#,
            "not a patch",
        ),
    ] {
        let p = problems(reply, &first);
        assert!(p.iter().any(|m| m.contains(wanted)), "{reply}: {p:?}");
    }
    let later = [Decision::Patch, Decision::GiveUp];
    let p = problems(
        r#"{"decision": "patch", "artifact": "REPLACE S1:", "reason": "r"}"#,
        &later,
    );
    assert!(
        p.iter().any(|m| m.contains("starts with `PATCH:`")),
        "{p:?}"
    );
    let long = "x".repeat(envelope::MAX_REASON + 1);
    let p = problems(
        &json!({"decision": "give_up", "artifact": "", "reason": long}).to_string(),
        &later,
    );
    assert!(p.iter().any(|m| m.contains("longer than")), "{p:?}");
    // Every problem at once.
    let p = problems(r#"{"decision": 1, "extra": true}"#, &later);
    assert_eq!(p.len(), 4, "{p:?}");
}

#[test]
fn the_checker_and_the_schema_agree() {
    let schema = envelope::schema(&[Decision::Patch, Decision::GiveUp]);
    assert_eq!(
        schema["properties"]["decision"]["enum"],
        json!(["patch", "give_up"])
    );
    assert_eq!(
        schema["required"],
        json!(["decision", "artifact", "reason"])
    );
    assert_eq!(schema["additionalProperties"], json!(false));
    assert_eq!(
        schema["properties"]["reason"]["maxLength"],
        json!(envelope::MAX_REASON)
    );
}

#[test]
fn scripted_replies_in_order_then_none() {
    let mut s = Scripted::parse(
        "\"one\"\n\n{\"content\": \"two\", \"usage\": {\"prompt_tokens\": 3, \"completion_tokens\": 4}}\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.remaining(), 2);
    let req = Request {
        messages: Vec::new(),
        constraint: Constraint::None,
        max_tokens: 1,
        temperature: 0.0,
    };
    assert_eq!(s.complete(&req).map(|c| c.content), Ok("one".into()));
    let two = s.complete(&req).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        two.usage,
        Usage {
            prompt_tokens: 3,
            completion_tokens: 4
        }
    );
    assert_eq!(s.complete(&req), Err(ProviderError::NoMoreReplies));
    assert!(Scripted::parse("\"ok\"\nnot json\n")
        .err()
        .is_some_and(|e| e.starts_with("line 2")));
    let recorded = Scripted::new([
        Err(ProviderError::Recorded("gone".into())),
        Ok(Completion::text("x")),
    ]);
    let mut recorded = recorded;
    assert_eq!(
        recorded.complete(&req).map_err(|e| e.to_string()),
        Err("gone".into())
    );
}

#[test]
fn the_log_is_a_hash_chain() {
    let mut l = Log::new();
    l.push("config", json!({"model": "m"}));
    l.push("reply", json!({"content": "x"}));
    l.push("result", json!({"status": "passed"}));
    let text = l.text();
    let read = events::read(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read.len(), 3);
    assert_eq!(read[0].1["prev"], events::GENESIS);
    assert_eq!(read[1].1["prev"], json!(events::hash(&l.lines()[0])));
    assert_eq!(read[2].1["event"], "result");

    // A changed line breaks the chain at the next one.
    let tampered = text.replacen("\"x\"", "\"y\"", 1);
    assert_eq!(
        events::read(&tampered).map(|_| ()).map_err(|e| e.line),
        Err(3)
    );
    // A dropped line shows in the sequence numbers.
    let lines: Vec<&str> = text.lines().collect();
    let dropped = format!("{}\n{}\n", lines[0], lines[2]);
    assert_eq!(
        events::read(&dropped).map(|_| ()).map_err(|e| e.line),
        Err(2)
    );
    assert!(events::read("{\"seq\": 0}\n").is_err());
    assert!(events::read("").is_err());

    let other: Vec<String> = vec![l.lines()[0].clone(), "changed".into()];
    let (at, a, b) = events::first_difference(l.lines(), &other).unwrap_or((9, None, None));
    assert_eq!((at, b), (1, Some("changed")));
    assert!(a.is_some());
    assert_eq!(events::first_difference(l.lines(), l.lines()), None);
    assert_eq!(
        events::first_difference(l.lines(), &l.lines()[..2]).map(|d| (d.0, d.2)),
        Some((2, None))
    );
}

#[test]
fn the_log_writes_each_line_as_it_goes() {
    let buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?
                .extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut l = Log::to(Box::new(Shared(buf.clone())));
    l.push("a", json!({}));
    assert_eq!(buf.lock().map(|b| b.len()).unwrap_or(0), l.text().len());
    l.push("b", json!(3));
    let written = buf
        .lock()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    assert_eq!(written, l.text());
    assert!(written.contains("\"value\":3"));
}

#[test]
fn examples_read_args_then_result() {
    let e = Example::parse(r#"{"s": "a=>b"}=>"x=>y""#).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(e.input, json!({"s": "a=>b"}));
    assert_eq!(e.output, json!("x=>y"));
    assert!(Example::parse("{}=>").is_err());
    assert!(Example::parse("[1]=>2").is_err_and(|e| e.contains("not a JSON object")));
}

fn task() -> Task {
    Task {
        id: None,
        words: "w".into(),
        name: "f".into(),
        args: "xs: int[], m: map<string,int>".into(),
        returns: "int".into(),
        examples: vec![Example {
            input: json!({"xs": [1], "m": {}}),
            output: json!(1),
        }],
        hidden: vec![Example {
            input: json!({"xs": [], "m": {"a": 1}}),
            output: json!(0),
        }],
    }
}

#[test]
fn a_task_gives_the_header_and_is_checked() {
    let packs = Functions::default();
    let header = task().header(&packs).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        header,
        "META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: [xs: int[], m: map<string,int>]\n  RETURNS: int\nIO:\n  INPUT: [{\"m\": {}, \"xs\": [1]}]\n  OUTPUT: [1]\n"
    );
    assert!(task().check(&packs).is_ok());
    let mut bad = task();
    bad.hidden[0].output = json!("zero");
    let errors = bad.check(&packs).err().unwrap_or_default();
    assert!(
        errors
            .iter()
            .any(|d| d.code == crate::Code::IoTypeMismatch && d.message.starts_with("task `f`")),
        "{errors:?}"
    );
    let mut bad = task();
    bad.args = "xs: int[]]\nSTEPS:".into();
    assert!(bad.check(&packs).is_err());
    let mut bad = task();
    bad.returns = "double".into();
    assert!(bad.check(&packs).is_err());
}

#[test]
fn task_files_name_the_bad_line() {
    let ok = r#"{"words": "w", "name": "f", "returns": "int", "examples": [{"input": {}, "output": 1}]}"#;
    assert_eq!(
        super::task::read_tasks(&format!("# c\n\n{ok}\n")).map(|t| t.len()),
        Ok(1)
    );
    assert!(super::task::read_tasks(&format!("{ok}\n{{\"name\": 1}}\n"))
        .is_err_and(|e| e.starts_with("line 2")));
    assert!(
        super::task::read_tasks(&format!("{ok}\n{ok}\n")).is_err_and(|e| e.contains("two tasks"))
    );
}

#[test]
fn the_template_is_a_valid_program_that_passes_and_the_patch_applies() {
    use crate::{pipeline, syntax, Source};
    let text = super::prompt::template();
    let fe = pipeline::check(&Source::new("t", text.as_str()));
    let program = fe
        .valid_program()
        .cloned()
        .unwrap_or_else(|| panic!("{:?}", fe.diags));
    let fails = crate::executor::test_on_interpreter(
        &program,
        &isu_plugin_api::ExecLimits::DEFAULT,
        &crate::functions::Functions::default(),
    );
    assert!(fails.is_empty(), "{fails:?}");
    assert_eq!(
        crate::canon::print(&program),
        text,
        "the template is canonical"
    );
    // The program as a model writes it is the template once printed.
    let written = pipeline::parse_canonical(&Source::new("w", super::prompt::template_source()));
    assert_eq!(
        written.program.as_ref().map(crate::canon::print),
        Some(text)
    );
    // Every PATCH of the reference applies to the template and leaves a
    // valid program; one of them changes a STATE initial value.
    let reference = super::prompt::reference(&Functions::default());
    let patches: Vec<&str> = reference
        .match_indices("PATCH:\n")
        .map(|(at, _)| {
            let rest = &reference[at..];
            &rest[..rest.find("\n\n").map_or(rest.len(), |n| n + 1)]
        })
        .collect();
    assert_eq!(patches, super::prompt::template_patches());
    let mut changes_state = false;
    for text in patches {
        let (patch, diags) = syntax::parse_patch(&Source::new("p", text));
        let patch = patch.unwrap_or_else(|| panic!("{diags:?}"));
        let patched = crate::patch::apply(&program, &patch).unwrap_or_else(|d| panic!("{d:?}"));
        assert!(patched.is_valid(), "{text}\n{:?}", patched.diags);
        let state = |p: &isu_plugin_api::Program| crate::canon::print_expr(&p.state[0].init);
        changes_state |= patched.program.as_ref().map(state) != Some(state(&program));
    }
    assert!(changes_state);
}

#[test]
fn the_reference_names_every_function_and_operator() {
    let r = super::prompt::reference(&Functions::default());
    for f in crate::stdlib::STDLIB {
        assert!(r.contains(&format!("- {} (", f.name)), "{}", f.name);
    }
    for op in isu_plugin_api::BinaryOp::ALL {
        assert!(r.contains(op.name()), "{}", op.name());
    }
    assert!(r.contains("(range i START END STEP)"));
}

#[test]
fn a_repeated_key_is_refused_wherever_json_enters() {
    assert!(Example::parse(r#"{"xs": [1], "xs": [2]}=>3"#).is_err());
    let twice =
        r#"{"decision": "give_up", "decision": "submit", "artifact": "FUNC:\n", "reason": "r"}"#;
    assert!(
        problems(twice, &[])
            .iter()
            .any(|p| p.contains("not one JSON object")),
        "{:?}",
        problems(twice, &[])
    );
    assert!(super::task::read_tasks(r#"{"name": "f", "name": "g"}"#)
        .is_err_and(|e| e.contains("line 1")));
}

#[test]
fn the_step_an_error_names_in_a_text_that_does_not_parse() {
    use super::repair::candidate::Candidate;
    let packs = Functions::default();
    let text = "META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: [xs: int[]]\n  RETURNS: int\nIO:\n  INPUT: [{\"xs\": [1]}]\n  OUTPUT: [1]\nSTATE: [t: int = (const 0)]\nSTEPS:\n  SEQ: BEGIN\n    ASSIGN:\n      TARGET: t\n      EXPR: add t 1\n    RETURN:\n      EXPR: (var t)\n  END\n";
    let mut t = task();
    t.name = "f".into();
    t.args = "xs: int[]".into();
    t.examples.truncate(0);
    let c = Candidate::evaluate(text, &t, &packs);
    assert!(c.program.is_none() && c.patchable(), "{:?}", c.errors);
    let error = &c.errors[0];
    assert_eq!(
        error.step.as_ref().map(ToString::to_string).as_deref(),
        Some("S1")
    );
    let (kind, step) = c.step_of(error);
    assert_eq!(kind.as_deref(), Some("ASSIGN"));
    assert_eq!(step, "ASSIGN:\n      TARGET: t\n      EXPR: add t 1");
    // An error that names no step: the whole text.
    let mut whole = error.clone();
    whole.step = None;
    assert_eq!(c.step_of(&whole), (None, text.to_owned()));
}

#[test]
fn the_system_message_stays_short() {
    // A longer reference costs every request its tokens: the budget is 14,000
    // characters without packs.
    let n = super::prompt::system(
        &Functions::default(),
        &super::prompt::WRITING,
        ReplyFormat::Json,
    )
    .chars()
    .count();
    assert!(n < 14_000, "the system message has {n} characters");
}

#[test]
fn the_table_of_decisions_is_the_one_source() {
    use super::envelope::DECISIONS;
    for (row, d) in DECISIONS.iter().zip(Decision::ALL) {
        assert_eq!(row.decision, d);
        assert_eq!(d.info(), row);
        assert_eq!(
            serde_json::to_value(d).ok(),
            Some(json!(row.name)),
            "the serde name is the table's"
        );
    }
    let names: Vec<&str> = DECISIONS.iter().map(|r| r.name).collect();
    assert_eq!(names, ["submit", "patch", "explain", "give_up"]);
    let schema = envelope::schema(&[]);
    assert_eq!(schema["properties"]["decision"]["enum"], json!(names));
    for row in &DECISIONS {
        let described = schema["properties"]["decision"]["description"]
            .as_str()
            .unwrap_or("");
        assert!(described.contains(&format!("{}: artifact is {}", row.name, row.says)));
    }
    // The system message of each job lists its decisions, as the table says them.
    let packs = Functions::default();
    let explaining = super::prompt::system(&packs, &super::prompt::EXPLAINING, ReplyFormat::Json);
    assert!(explaining.contains(&format!(
        "- \"explain\": the artifact is {}.",
        Decision::Explain.info().says
    )));
    assert!(!explaining.contains("\"submit\"") && !explaining.contains("\"patch\""));
    let writing = super::prompt::system(&packs, &super::prompt::WRITING, ReplyFormat::Json);
    assert!(writing.contains("- \"submit\": the artifact is a whole Isu program.\n- \"patch\": the artifact is a patch, starting with PATCH:.\n- \"give_up\": the artifact is empty.\n"));
    assert!(!writing.contains("\"explain\""));
}

#[test]
fn an_explanation_is_plain_words() {
    let explain = [Decision::Explain, Decision::GiveUp];
    let reply =
        |words: &str| json!({"decision": "explain", "artifact": words, "reason": "r"}).to_string();
    let ok = envelope::check(
        &reply("Sums the even elements.\nSTEPS: none, it is words."),
        &explain,
        ReplyFormat::Json,
    );
    assert_eq!(ok.map(|e| e.decision), Err(vec!["an explain's `artifact` is plain words, not Isu: it has the line `STEPS: none, it is words.`".to_owned()]));
    let ok = envelope::check(
        &reply("Sums the even elements.\nSteps: one loop; IO: none."),
        &explain,
        ReplyFormat::Json,
    );
    assert_eq!(ok.map(|e| e.decision), Ok(Decision::Explain));
    for (words, wanted) in [
        ("  \n", "`artifact` is empty: an explain needs its text"),
        ("PATCH:\n  DELETE S1", "it has the line `PATCH:`"),
        (
            "It is this:\n  FUNC:\n    NAME: f",
            "it has the line `FUNC:`",
        ),
        (
            &"w".repeat(envelope::MAX_WORDS + 1),
            "longer than 4000 characters",
        ),
    ] {
        let p = problems(&reply(words), &explain);
        assert!(p.iter().any(|m| m.contains(wanted)), "{words}: {p:?}");
    }
    // Where only the loop's decisions are accepted, explain is not one.
    let p = problems(&reply("Sums."), &[Decision::Submit, Decision::GiveUp]);
    assert!(
        p.iter()
            .any(|m| m.contains("the decision `explain` is not allowed now")),
        "{p:?}"
    );
}

#[test]
fn the_envelope_grammar_of_explain_holds_words_and_no_isu() {
    use crate::grammar::envelope::{envelope as grammar, GRAMMAR_WORDS};
    use crate::grammar::{print, Format, Vocabulary};
    let vocab = Vocabulary::with_packs(&Functions::default());
    let g = grammar(
        &vocab,
        &[Decision::Explain, Decision::GiveUp],
        None,
        ReplyFormat::Json,
    );
    let names: Vec<&str> = g.rules.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["envelope", "reason", "words"]);
    assert!(g.undefined().is_empty());
    let writing = grammar(
        &vocab,
        &[Decision::Submit, Decision::GiveUp],
        Some("META:\n"),
        ReplyFormat::Json,
    );
    assert!(writing.get("words").is_none() && writing.get("auto_steps").is_some());
    // The grammar, as one regular expression (exact: nothing recurses),
    // takes an explain envelope and refuses what the checker refuses.
    let re = regex::Regex::new(&format!(
        "^(?:{})$",
        print(&g, Format::RegexLite).trim_end()
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let reply = |words: &str| json!({"decision": "explain", "artifact": words, "reason": "r"});
    // The grammar writes the fields in the schema's order, as `json!` does not.
    let text = |v: serde_json::Value| {
        format!(
            "{{\"decision\": {}, \"artifact\": {}, \"reason\": {}}}",
            v["decision"], v["artifact"], v["reason"]
        )
    };
    assert!(re.is_match(&text(reply("Sums the even elements.\nZero when none."))));
    assert!(re.is_match("{\"decision\": \"give_up\", \"artifact\": \"\", \"reason\": \"no\"}"));
    assert!(!re.is_match(&text(reply(""))));
    assert!(!re.is_match(&text(reply(&"w".repeat(GRAMMAR_WORDS as usize + 1)))));
    assert!(!re.is_match("{\"decision\": \"submit\", \"artifact\": \"x\", \"reason\": \"r\"}"));
    for format in [Format::Gbnf, Format::Lark] {
        let printed = print(&g, format).to_lowercase();
        assert!(printed.contains("words"), "{printed}");
    }
}

#[test]
fn tagged_replies_read_back_what_is_written() {
    let all = [Decision::Submit, Decision::Patch, Decision::GiveUp];
    for e in [
        Envelope {
            decision: Decision::Submit,
            artifact: "FUNC:\n  NAME: \"f\" ; {\"a\": \"\\\\\"}\n".into(),
            reason: "quotes \"and\" backslashes \\ stay as they are".into(),
        },
        Envelope {
            decision: Decision::Patch,
            artifact: "PATCH:\n  DELETE S1\n".into(),
            reason: String::new(),
        },
        Envelope {
            decision: Decision::GiveUp,
            artifact: String::new(),
            reason: "no".into(),
        },
    ] {
        let written = e.write(ReplyFormat::Tagged);
        assert_eq!(
            envelope::check(&written, &all, ReplyFormat::Tagged),
            Ok(e.clone())
        );
        // Blank lines around it and CRLF line breaks read the same.
        let crlf = format!("\n\n{}\n", written.replace('\n', "\r\n"));
        assert_eq!(
            envelope::check(&crlf, &all, ReplyFormat::Tagged),
            Ok(e.clone())
        );
        // JSON round-trips too, and neither format reads the other.
        let json = e.write(ReplyFormat::Json);
        assert_eq!(
            envelope::check(&json, &all, ReplyFormat::Json),
            Ok(e.clone())
        );
        assert!(envelope::check(&json, &all, ReplyFormat::Tagged).is_err());
        assert!(envelope::check(&written, &all, ReplyFormat::Json).is_err());
    }
}

#[test]
fn tagged_replies_off_contract_say_what_is_wrong() {
    let first = [Decision::Submit, Decision::GiveUp];
    for (reply, wanted) in [
        ("", "the first line `DECISION: ...` is missing"),
        (
            "Sure! Here it is.",
            "the first line `DECISION: ...` is missing: found `Sure! Here it is.`",
        ),
        (
            "DECISION: submit",
            "the second line `REASON: ...` is missing",
        ),
        (
            "DECISION: submit\nBecause.",
            "the second line `REASON: ...` is missing: found `Because.`",
        ),
        (
            "DECISION: submit\nREASON: r",
            "the artifact is missing: after the REASON line, write `<<<`",
        ),
        (
            "DECISION: submit\nREASON: r\n```isu\nFUNC:\n```",
            "the third line must be `<<<` alone, opening the artifact: found ````isu`",
        ),
        (
            "DECISION: submit\nREASON: r\n<<<\nFUNC:\n",
            "the artifact is not closed",
        ),
        (
            "DECISION: submit\nREASON: r\n<<<\nFUNC:\n>>>\nThanks!",
            "the reply goes on after the closing `>>>` line (`Thanks!`)",
        ),
        (
            "DECISION: patch\nREASON: r\n<<<\nPATCH:\n>>>",
            "the decision `patch` is not allowed now",
        ),
        (
            "DECISION: submit\nREASON: r\n<<<\nPATCH:\n  DELETE S1\n>>>",
            "a submit's `artifact` is a whole program, not a patch",
        ),
        (
            "DECISION: submit\nREASON: r\n<<<\n>>>",
            "`artifact` is empty: a submit needs its text",
        ),
        (
            "DECISION: done\nREASON: r\n<<<\n>>>",
            "`done` is not a decision; allowed: submit, give_up",
        ),
    ] {
        let p = envelope::check(reply, &first, ReplyFormat::Tagged)
            .err()
            .unwrap_or_default();
        assert!(p.iter().any(|m| m.contains(wanted)), "{reply:?}: {p:?}");
    }
    let long = format!("DECISION: give_up\nREASON: {}\n<<<\n>>>", "r".repeat(1001));
    let p = envelope::check(&long, &first, ReplyFormat::Tagged)
        .err()
        .unwrap_or_default();
    assert_eq!(p, ["`reason` is longer than 1000 characters"]);
}

#[test]
fn the_tagged_envelope_grammar_takes_what_the_checker_takes() {
    use crate::grammar::envelope::{envelope as grammar, GRAMMAR_WORDS};
    use crate::grammar::{print, Format, Vocabulary};
    let vocab = Vocabulary::with_packs(&Functions::default());
    let regex = |allow: &[Decision]| {
        let g = grammar(&vocab, allow, None, ReplyFormat::Tagged);
        assert!(g.undefined().is_empty());
        regex::Regex::new(&format!(
            "^(?:{})$",
            print(&g, Format::RegexLite).trim_end()
        ))
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let reply = |decision, artifact: &str| {
        Envelope {
            decision,
            artifact: artifact.to_owned(),
            reason: "it \"works\"".to_owned(),
        }
        .write(ReplyFormat::Tagged)
    };
    let words = regex(&[Decision::Explain, Decision::GiveUp]);
    // The grammar ends at the closing line: the server stops there.
    let take = |re: &regex::Regex, text: &str| re.is_match(text.trim_end_matches('\n'));
    // No line of the words may start with `>`: none can close the artifact.
    assert!(!take(
        &words,
        &reply(Decision::Explain, "Sums the evens.\n\n> 0 when none.")
    ));
    assert!(take(
        &words,
        &reply(Decision::Explain, "Sums the evens.\n\nZero when none > 1.")
    ));
    assert!(take(&words, &reply(Decision::GiveUp, "")));
    assert!(!take(&words, &reply(Decision::Explain, "")));
    assert!(!take(
        &words,
        &reply(Decision::Explain, &"w".repeat(GRAMMAR_WORDS as usize + 1))
    ));
    let writing = regex(&[Decision::Submit, Decision::Patch, Decision::GiveUp]);
    let program = super::prompt::EXAMPLE;
    assert!(
        take(&writing, &reply(Decision::Submit, program)),
        "{program}"
    );
    assert!(take(
        &writing,
        &reply(Decision::Patch, "PATCH:\n  DELETE S1\n")
    ));
    assert!(!take(
        &writing,
        &reply(Decision::Submit, "PATCH:\n  DELETE S1\n")
    ));
    assert!(!take(&writing, &reply(Decision::Explain, "Sums.")));
}
