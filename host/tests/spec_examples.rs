//! Every example of the documentation is right, so that none a model copies
//! can be wrong, and `spec/isu.ebnf` is the generated grammar:
//!
//! - the grammar part of `spec/isu.ebnf` is the one `isu grammar --format
//!   ebnf --start any` prints (`ISU_BLESS=1` rewrites it, keeping the
//!   examples), and every keyword and operator the parser knows is in one of
//!   its terminals;
//! - the examples of `spec/isu.ebnf`, the fenced blocks tagged `isu` in
//!   `README.md` and `spec/*.md`, and the here-documents of their `sh`
//!   blocks that hold Isu (`cat > fix.patch <<'PATCH'`) parse; a whole
//!   program also validates and passes its IO examples (one whose title names
//!   `isu fix` is made valid by it), a patch parses as a patch;
//! - a fenced block that holds Isu but is not tagged `isu` is refused;
//! - every inline code span of those pages that is an S-expression headed by
//!   an operator, an ITER form or a function (`(call LEN (var xs))`) parses as
//!   an expression, a TARGET or an ITER. Upper-case placeholders (`A`, `COND`,
//!   `PLACE`, ... see [`PLACEHOLDERS`]) stand for a variable; a span with
//!   `...` is a schema and is skipped.

mod common;

use isu_host::diag::{has_errors, render};
use isu_host::functions::Functions;
use isu_host::grammar::{self, Format, Start, Vocabulary};
use isu_host::{fix, pipeline, syntax, Source};
use isu_plugin_api::{ExecLimits, Literal, Pack, PackFunction, PackInfo, PluginDiagnostic};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

/// The `math` pack the examples call (`math.GCD`), linked in-process.
#[derive(Debug)]
struct Math;

impl Pack for Math {
    fn info(&self) -> PackInfo {
        PackInfo {
            namespace: "math".into(),
            version: "0.1.0".into(),
            functions: vec![PackFunction {
                name: "GCD".into(),
                signature: "(int, int) -> int".into(),
                doc: "The greatest common divisor.".into(),
                errors: Vec::new(),
            }],
        }
    }

    fn call(&self, _: &str, args: &[Literal]) -> Result<Literal, PluginDiagnostic> {
        let [Literal::Int(a), Literal::Int(b)] = args else {
            return Err(PluginDiagnostic::runtime(
                "invalid_argument",
                None,
                "two ints",
            ));
        };
        let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
        while b != 0 {
            (a, b) = (b, a % b);
        }
        Ok(Literal::Int(i64::try_from(a).unwrap_or(i64::MAX)))
    }

    fn lower(&self, _: &str, _: &str) -> Option<String> {
        None
    }
}

fn packs() -> Functions {
    let mut p = Functions::default();
    p.add_local(Arc::new(Math));
    p
}

/// Checks one example; `Err` says what is wrong with it.
fn check_example(name: &str, title: &str, body: &str) -> Result<(), String> {
    let src = Source::new(name, body);
    if body.trim_start().starts_with("PATCH:") {
        let (patch, diags) = syntax::parse_patch(&src);
        return match patch {
            Some(_) if !has_errors(&diags) => Ok(()),
            _ => Err(render(&diags, Some(&src), false)),
        };
    }
    let parsed = syntax::parse(&src);
    if parsed.program.is_none() {
        return Err(render(&parsed.diags, Some(&src), false));
    }
    let packs = packs();
    let fe = if title.contains("`isu fix`") {
        let fixed = fix::fix(&src, &packs);
        if fixed.rounds == 0 {
            return Err("it says `isu fix` repairs it, but there was nothing to fix".into());
        }
        fixed.front
    } else {
        pipeline::check_with(&src, &packs)
    };
    let Some(program) = fe.valid_program() else {
        return Err(render(&fe.diags, Some(&src), false));
    };
    let fails = isu_host::executor::test_on_interpreter(program, &ExecLimits::DEFAULT, &packs);
    if fails.is_empty() {
        Ok(())
    } else {
        Err(render(&fails, Some(&src), false))
    }
}

#[test]
fn every_example_of_the_grammar_is_right() {
    let text = ebnf();
    let examples = examples(&text);
    assert!(
        examples.len() >= 6,
        "found only {} examples",
        examples.len()
    );
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|(name, body)| {
            let shown = format!("spec/isu.ebnf example `{name}`");
            check_example(&shown, name, body)
                .err()
                .map(|e| format!("{shown}:\n{e}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// README.md and every page of `spec/` in Markdown.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = vec![root.join("README.md")];
    let mut specs: Vec<PathBuf> = std::fs::read_dir(root.join("spec"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    specs.retain(|p| p.extension().is_some_and(|e| e == "md"));
    specs.sort();
    out.extend(specs);
    out
}

/// The fenced blocks of a Markdown page: language, first line number, text.
fn fenced(text: &str) -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        match open.as_mut() {
            None => {
                if let Some(lang) = line.strip_prefix("```") {
                    open = Some((lang.trim().to_owned(), i + 2, String::new()));
                }
            }
            Some(_) if line.starts_with("```") => out.extend(open.take()),
            Some((_, _, body)) => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    out
}

/// The here-documents of a shell block (`<<'TAG'` to a line `TAG`): the
/// line of their first line within the block, and their text.
fn here_documents(body: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize, String)> = None;
    for (i, line) in body.lines().enumerate() {
        match open.as_mut() {
            Some((tag, _, _)) if line.trim() == tag => {
                out.extend(open.take().map(|(_, at, t)| (at, t)))
            }
            Some((_, _, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {
                if let Some((_, rest)) = line.split_once("<<") {
                    let tag = rest.trim().trim_matches(['\'', '"']).to_owned();
                    if !tag.is_empty() {
                        open = Some((tag, i + 1, String::new()));
                    }
                }
            }
        }
    }
    out
}

/// Whether a block holds Isu: its first line that is not a comment starts a
/// section or a patch.
fn looks_like_isu(body: &str) -> bool {
    let first = body
        .lines()
        .map(str::trim_start)
        .find(|l| !l.is_empty() && !l.starts_with(';'))
        .unwrap_or("");
    ["META:", "FUNC:", "PATCH:", "STEPS:"]
        .iter()
        .any(|k| first.starts_with(k))
}

#[test]
fn every_isu_block_of_the_documentation_is_right() {
    let mut failures = Vec::new();
    let mut count = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap_or_default();
        let name = page
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut blocks = Vec::new();
        for (lang, line, body) in fenced(&text) {
            if lang == "sh" {
                blocks.extend(
                    here_documents(&body)
                        .into_iter()
                        .filter(|(_, doc)| looks_like_isu(doc))
                        .map(|(at, doc)| ("isu".to_owned(), line + at, doc)),
                );
            } else {
                blocks.push((lang, line, body));
            }
        }
        for (lang, line, body) in blocks {
            let shown = format!("{name}:{line}");
            if lang == "isu" {
                count += 1;
                if let Err(e) = check_example(&shown, "", &body) {
                    failures.push(format!("{shown}:\n{e}"));
                }
            } else if looks_like_isu(&body) {
                failures.push(format!(
                    "{shown}: a block of Isu tagged `{lang}`: tag it `isu`"
                ));
            }
        }
    }
    assert!(count >= 3, "only {count} isu blocks");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Words that stand for a variable in schematic examples (`(div A B)`).
const PLACEHOLDERS: &[&str] = &[
    "A", "B", "C", "K", "V", "X", "N", "COND", "EXPR", "PLACE", "START", "END", "STEP", "ARRAY",
    "INDEX", "INT_MIN", "INT_MAX", "JSON",
];

/// The inline code spans of a text (single backquotes).
fn inline_spans(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut rest = line;
        while let Some(open) = rest.find('`') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('`') else { break };
            out.push(&after[..close]);
            rest = &after[close + 1..];
        }
    }
    out
}

/// Whether an inline span is an S-expression of Isu: `(` then an operator,
/// an ITER form or a function name.
fn is_isu_expression(span: &str) -> bool {
    let Some(inner) = span.strip_prefix('(') else {
        return false;
    };
    if !span.ends_with(')') {
        return false;
    }
    let head: String = inner
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
        .collect();
    syntax::OPERATORS.split(' ').any(|o| o == head)
        || ["range", "each", "while"].contains(&head.as_str())
        || isu_host::stdlib::lookup(&head).is_some()
}

/// The span with its placeholders written as variables (`PLACE` as a name,
/// a placeholder right after `const` as a literal).
fn instantiate(span: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if PLACEHOLDERS.contains(&word.as_str()) {
            if out.ends_with("(const ") {
                out.push('0');
            } else if word == "PLACE" {
                out.push('p');
            } else {
                out.push_str(&format!("(var {})", word.to_lowercase()));
            }
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in span.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Whether `expr` parses as an expression, a TARGET or an ITER.
fn parses_somewhere(expr: &str) -> bool {
    let wrap = |fields: &str| {
        format!("META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n{fields}  END\n")
    };
    [
        wrap(&format!("    RETURN:\n      EXPR: {expr}\n")),
        wrap(&format!(
            "    ASSIGN:\n      TARGET: {expr}\n      EXPR: (const 0)\n"
        )),
        wrap(&format!(
            "    LOOP:\n      ITER: {expr}\n      BODY: BEGIN\n      END\n"
        )),
    ]
    .iter()
    .any(|text| !has_errors(&syntax::parse(&Source::new("span", text.as_str())).diags))
}

#[test]
fn every_inline_expression_of_the_documentation_parses() {
    let mut failures = Vec::new();
    let mut count = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap_or_default();
        let name = page
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for span in inline_spans(&text) {
            if !is_isu_expression(span) || span.contains("...") || span.contains('…') {
                continue;
            }
            count += 1;
            if !parses_somewhere(&instantiate(span)) {
                failures.push(format!("{name}: `{span}`"));
            }
        }
    }
    assert!(count >= 50, "only {count} inline expressions");
    assert!(
        failures.is_empty(),
        "inline expressions that are not Isu:\n{}",
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
