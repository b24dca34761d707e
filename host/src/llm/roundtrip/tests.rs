//! The inputs of a round trip and how answers agree.

use super::{inputs, Answer, Settings};
use crate::llm::task::{Example, Task};
use crate::source::Source;
use isu_plugin_api::Literal;
use serde_json::json;

fn task(id: &str) -> Task {
    Task {
        id: Some(id.into()),
        words: "w".into(),
        name: "f".into(),
        args: "b: bool, xs: int[]".into(),
        returns: "int".into(),
        examples: vec![Example {
            input: json!({"b": true, "xs": [1]}),
            output: json!(1),
        }],
        hidden: vec![
            Example {
                input: json!({"b": false, "xs": []}),
                output: json!(0),
            },
            Example {
                input: json!({"xs": [1], "b": true}),
                output: json!(1),
            },
        ],
    }
}

fn program(args: &str) -> isu_plugin_api::Program {
    let text = format!(
        "META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: [{args}]\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    RETURN:\n      EXPR: (const 0)\n  END\n"
    );
    crate::pipeline::check(&Source::new("f", text.as_str()))
        .valid_program()
        .cloned()
        .unwrap_or_else(|| panic!("{text}"))
}

#[test]
fn the_examples_come_first_then_distinct_random_inputs_of_the_seed() {
    let p = program("b: bool, xs: int[]");
    let settings = Settings {
        inputs: 30,
        seed: 5,
    };
    let got = inputs(&task("t"), &p, settings);
    // The hidden example that repeats the shown one is there once.
    assert_eq!(got.examples, 2);
    assert_eq!(got.all.len(), 32);
    let distinct: std::collections::BTreeSet<&Literal> = got.all.iter().collect();
    assert_eq!(distinct.len(), got.all.len());
    for input in &got.all {
        let Literal::Object(args) = input else {
            panic!("{input}")
        };
        assert!(matches!(args.get("b"), Some(Literal::Bool(_))), "{input}");
        assert!(matches!(args.get("xs"), Some(Literal::Array(_))), "{input}");
    }
    // The same seed and task draw the same inputs; another seed or task, others.
    assert_eq!(inputs(&task("t"), &p, settings), got);
    assert_ne!(
        inputs(
            &task("t"),
            &p,
            Settings {
                seed: 6,
                ..settings
            }
        )
        .all,
        got.all
    );
    assert_ne!(inputs(&task("u"), &p, settings).all, got.all);
    // None asked for: the examples alone.
    let none = inputs(
        &task("t"),
        &p,
        Settings {
            inputs: 0,
            ..settings
        },
    );
    assert_eq!(none.all, got.all[..2]);
}

#[test]
fn a_small_signature_gives_what_the_draws_find() {
    let p = program("b: bool");
    let mut t = task("t");
    t.args = "b: bool".into();
    t.examples.clear();
    t.hidden.clear();
    let got = inputs(
        &t,
        &p,
        Settings {
            inputs: 10,
            seed: 1,
        },
    );
    assert_eq!(got.all.len(), 2, "{:?}", got.all);
}

#[test]
fn answers_agree_on_the_value_or_the_error_code() {
    let value = |v: i64| Answer::Value(Literal::Int(v));
    let error = |code: &str, step: Option<&str>| Answer::Error {
        code: code.into(),
        step: step.map(str::to_owned),
    };
    assert!(value(3).agrees(&value(3)));
    assert!(!value(3).agrees(&value(4)));
    assert!(error("int_overflow", Some("S1")).agrees(&error("int_overflow", Some("S2_1"))));
    assert!(!error("int_overflow", Some("S1")).agrees(&error("index_out_of_range", Some("S1"))));
    assert!(!value(0).agrees(&error("int_overflow", None)));
    assert_eq!(
        serde_json::to_value(error("step_limit", Some("S1"))).ok(),
        Some(json!({"error": {"code": "step_limit", "step": "S1"}}))
    );
    assert_eq!(
        serde_json::to_value(value(2)).ok(),
        Some(json!({"value": 2}))
    );
}
