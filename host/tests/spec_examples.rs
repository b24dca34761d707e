//! `spec/isu.ebnf`: its grammar is the one `isu grammar --format ebnf
//! --start any` prints (`ISU_BLESS=1` rewrites it, keeping the examples),
//! every example in its example comments parses without a diagnostic, and
//! every keyword and operator the parser knows is in one of its terminals.

mod common;

use isu_host::grammar::{self, Format, Start, Vocabulary};
use isu_host::{syntax, Source};
use std::path::{Path, PathBuf};

/// The line that opens the hand-written examples after the generated grammar.
const EXAMPLES: &str = "(* ======================================================================= *)\n(* Examples, written by hand";

fn path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/isu.ebnf")
}

fn ebnf() -> String {
    std::fs::read_to_string(path()).unwrap_or_else(|e| panic!("{}: {e}", path().display()))
}

fn generated() -> String {
    grammar::print(
        &grammar::grammar(&Vocabulary::standard(), Start::Any),
        Format::Ebnf,
    )
}

#[test]
fn the_grammar_is_generated() {
    let text = ebnf();
    let at = text
        .find(EXAMPLES)
        .unwrap_or_else(|| panic!("spec/isu.ebnf lacks the examples' heading"));
    let (grammar_part, examples) = text.split_at(at);
    let expected = format!("{}\n", generated());
    if common::snapshot::blessing() {
        std::fs::write(path(), format!("{expected}{examples}")).unwrap_or_else(|e| panic!("{e}"));
        return;
    }
    assert!(
        grammar_part == expected,
        "spec/isu.ebnf is not the generated grammar (ISU_BLESS=1 rewrites it):\n{}",
        common::snapshot::line_diff(&expected, grammar_part)
    );
}

/// The examples: for each comment opening with `(* example: NAME`, its name
/// and the lines up to the one holding only `*)`.
pub fn examples(text: &str) -> Vec<(String, String)> {
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
fn every_keyword_and_operator_is_in_a_terminal() {
    let text = ebnf();
    let terminals: Vec<&str> = text.split('"').skip(1).step_by(2).collect();
    let words = |t: &str| {
        t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let all: Vec<String> = terminals.iter().flat_map(|t| words(t)).collect();
    for word in syntax::KEYWORDS
        .iter()
        .chain(syntax::OPERATORS.split(' ').collect::<Vec<_>>().iter())
        .chain(
            [
                "range", "each", "while", "true", "false", "int", "bool", "string", "map",
            ]
            .iter(),
        )
    {
        assert!(
            all.iter().any(|w| w == word),
            "no terminal of the grammar holds \"{word}\""
        );
    }
}
