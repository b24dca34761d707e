//! `spec/isu.ebnf` and the parser agree: every example in the grammar's
//! example comments parses without a diagnostic, and every keyword and
//! operator the parser knows is a terminal of the grammar.

use isu_host::{syntax, Source};
use std::path::Path;

fn ebnf() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/isu.ebnf");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The examples: for each comment opening with `(* example: NAME`, its name
/// and the lines up to the one holding only `*)`.
fn examples(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        match current.as_mut() {
            None => {
                if let Some(name) = line.strip_prefix("(* example:") {
                    current = Some((name.trim().to_owned(), String::new()));
                }
            }
            Some((_, body)) if line.trim_end() == "*)" => {
                let _ = body;
                out.extend(current.take());
            }
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    assert!(current.is_none(), "an example comment is not closed");
    out
}

#[test]
fn every_example_parses() {
    let text = ebnf();
    let examples = examples(&text);
    assert!(
        examples.len() >= 6,
        "found only {} examples",
        examples.len()
    );
    let mut failures = Vec::new();
    for (name, body) in &examples {
        let src = Source::new(format!("spec/isu.ebnf example `{name}`"), body.clone());
        let diags = if body.trim_start().starts_with("PATCH:") {
            let (patch, diags) = syntax::parse_patch(&src);
            assert!(
                patch.is_some() || !diags.is_empty(),
                "{name}: no patch and no error"
            );
            diags
        } else {
            let parsed = syntax::parse(&src);
            assert!(
                parsed.program.is_some() || !parsed.diags.is_empty(),
                "{name}: no program and no error"
            );
            parsed.diags
        };
        if !diags.is_empty() {
            failures.push(isu_host::diag::render(&diags, Some(&src), false));
        }
    }
    assert!(
        failures.is_empty(),
        "examples that do not parse:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_seed_examples_are_there() {
    let names: Vec<String> = examples(&ebnf()).into_iter().map(|(n, _)| n).collect();
    for wanted in ["seed minimal template", "seed IF block", "a patch"] {
        assert!(
            names.iter().any(|n| n.starts_with(wanted)),
            "no example `{wanted}` in {names:?}"
        );
    }
}

#[test]
fn every_keyword_and_operator_is_a_terminal() {
    let text = ebnf();
    for word in syntax::KEYWORDS
        .iter()
        .chain(syntax::OPERATORS.split(' ').collect::<Vec<_>>().iter())
    {
        assert!(
            text.contains(&format!("\"{word}\"")),
            "the grammar lacks the terminal \"{word}\""
        );
    }
    for form in [
        "range", "each", "while", "true", "false", "int", "bool", "string", "map",
    ] {
        assert!(
            text.contains(&format!("\"{form}\"")),
            "the grammar lacks the terminal \"{form}\""
        );
    }
}
