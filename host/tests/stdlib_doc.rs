//! `spec/stdlib.md` stays in step with the language's table of standard
//! functions (`isu_lang::stdlib`), and every example in it gives what it says
//! through the whole pipeline.

use isu_host::diag;
use isu_host::interp::{self, RunOptions};
use isu_host::stdlib::STDLIB;
use isu_host::{pipeline, Source};
use isu_lang::RuntimeCode;
use isu_plugin_api::Literal;
use std::path::Path;

fn page() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/stdlib.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `## NAME` sections of the page, with their text.
fn sections(page: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut parts = page.split("\n## ");
    parts.next();
    for part in parts {
        let (name, body) = part.split_once('\n').unwrap_or((part, ""));
        out.push((name.trim(), body));
    }
    out
}

#[test]
fn every_function_and_signature_is_documented_in_table_order() {
    let page = page();
    let secs = sections(&page);
    let names: Vec<&str> = secs.iter().map(|(n, _)| *n).collect();
    let table: Vec<&str> = STDLIB.iter().map(|f| f.name).collect();
    assert_eq!(names, table, "the `## NAME` sections of spec/stdlib.md");
    for (f, (_, body)) in STDLIB.iter().zip(&secs) {
        let sigs: Vec<&str> = body
            .lines()
            .filter(|l| l.starts_with('`') && l.contains(") -> "))
            .collect();
        let wanted: Vec<String> = f
            .overloads
            .iter()
            .map(|o| format!("`{}{}`", f.name, o.text()))
            .collect();
        assert_eq!(sigs, wanted, "the signatures of {}", f.name);
        for code in f.errors {
            assert!(
                body.contains(&format!("`{code}`")),
                "{} does not document {code}",
                f.name
            );
        }
        assert!(
            body.contains("| expression | type | result |"),
            "{} has no examples",
            f.name
        );
    }
}

/// One example row: `| `EXPR` | `TYPE` | `RESULT` |`.
fn examples(body: &str) -> Vec<(String, String, String)> {
    body.lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<String> = l
                .trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().trim_matches('`').to_owned())
                .collect();
            assert_eq!(cells.len(), 3, "an example row: {l}");
            (cells[0].clone(), cells[1].clone(), cells[2].clone())
        })
        .collect()
}

#[test]
fn every_example_gives_its_result() {
    let page = page();
    let mut failures = Vec::new();
    let mut count = 0;
    for (name, body) in sections(&page) {
        for (expr, ty, result) in examples(body) {
            count += 1;
            let text = format!(
                "FUNC:\n  NAME: example\n  ARGS: []\n  RETURNS: {ty}\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: {expr}\n  END\n"
            );
            let src = Source::new(format!("{name} example"), text);
            let fe = pipeline::check(&src);
            let Some(program) = fe.valid_program() else {
                failures.push(format!(
                    "{expr}: {}",
                    diag::render(&fe.diags, Some(&src), false)
                ));
                continue;
            };
            let got = interp::run(
                program,
                &serde_json::json!({}),
                &RunOptions::default(),
                None,
            );
            let ok = match (result.strip_prefix("error "), &got) {
                (Some(code), Err(d)) => {
                    d.code.as_str() == code && d.code != RuntimeCode::InternalError
                }
                (None, Ok(v)) => {
                    serde_json::from_str::<Literal>(&result).is_ok_and(|want| &want == v)
                }
                _ => false,
            };
            if !ok {
                let got = match got {
                    Ok(v) => v.to_string(),
                    Err(d) => format!("error {}: {}", d.code, d.message),
                };
                failures.push(format!("{expr}: expected {result}, got {got}"));
            }
        }
    }
    assert!(count >= 2 * STDLIB.len(), "only {count} examples");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every standard function is a feature of the vocabulary backends declare
/// (`call:NAME`), so a backend written before a function existed reports the
/// cases calling it unsupported.
#[test]
fn every_standard_function_is_a_feature() {
    for f in isu_host::stdlib::STDLIB {
        let feature = format!("call:{}", f.name);
        assert!(
            isu_plugin_api::feature_set::is_feature(&feature),
            "{feature} is not in isu_plugin_api::feature_set::FEATURES"
        );
    }
}
