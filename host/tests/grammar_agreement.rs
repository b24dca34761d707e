//! The exported grammars and JSON Schemas agree with the parser, checked by
//! real third-party implementations (host/tests/agreement/check.py: Python
//! `lark` 1.3.1, `llguidance` 1.9.1 on the Lark grammar, on the GBNF through
//! its GBNF-to-Lark conversion, and on the regex; Python `jsonschema`), and
//! in-process by the `regex` and `jsonschema` crates:
//!
//! - every program of the test data, printed canonically, every patch of the
//!   patch cases and random programs of `gen` are accepted by every grammar;
//! - the invalid programs (model mistakes and error cases), all rejected by
//!   the front end, are rejected by Lark and GBNF, except the documented few
//!   only the parser can catch; regex-lite, a superset, accepts exactly the
//!   ones listed in `test_data/grammar/regex-lite.accepts`;
//! - every IIR and diagnostic these texts produce, every golden IIR and
//!   diagnostic of the test data, and `isu patch --format json` reports
//!   satisfy their schemas.
//!
//! Needs python3 with lark==1.3.1, llguidance==1.9.1 and jsonschema
//! (`python3 -m pip install -r host/tests/agreement/requirements.txt`).

mod common;
#[path = "agreement/corpus.rs"]
mod corpus;
mod gen;

use corpus::Text;
use isu_host::grammar::{self, Format, Start};
use isu_host::{canon, pipeline, schema, Source};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// How many random programs of `gen` the grammars check.
const RANDOM_PROGRAMS: usize = 100;

fn random_programs() -> Vec<Text> {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strategy = gen::program();
    (0..RANDOM_PROGRAMS)
        .map(|i| {
            let program = strategy
                .new_tree(&mut runner)
                .unwrap_or_else(|e| panic!("generating: {e}"))
                .current();
            Text {
                name: format!("random program {i}"),
                text: canon::print(&program),
                start: Start::Program,
                accept: true,
            }
        })
        .collect()
}

fn start_name(start: Start) -> &'static str {
    match start {
        Start::Program => "program",
        Start::Patch => "patch",
        Start::Any => "any",
    }
}

/// A folder under the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("isu-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        TempDir(dir)
    }

    fn write(&self, name: &str, text: &str) -> String {
        std::fs::write(self.0.join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
        name.to_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every golden JSON file of the test data with this suffix.
fn goldens(suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![corpus::root().join("host/test_data")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// `isu patch --format json` on every patch case: the reports.
fn patch_reports() -> Vec<Value> {
    let cases = corpus::root().join("host/test_data/patch");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&cases)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("patch.isu").exists())
        .collect();
    dirs.sort();
    dirs.iter()
        .map(|d| {
            let out = Command::new(env!("CARGO_BIN_EXE_isu"))
                .args(["patch", "--format", "json"])
                .arg(d.join("program.isu"))
                .arg(d.join("patch.isu"))
                .output()
                .unwrap_or_else(|e| panic!("running isu: {e}"));
            serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{}: not JSON ({e})", d.display()))
        })
        .collect()
}

/// The documents each schema must accept: the IIR of every accepted
/// program, the diagnostics of every text, the goldens, the patch reports.
fn documents(texts: &[Text]) -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    for t in texts {
        if t.start != Start::Program {
            continue;
        }
        let src = Source::new("t", t.text.as_str());
        if let Some(p) = pipeline::parse_canonical(&src).program {
            out.push(("iir", serde_json::to_value(&p).unwrap_or_default()));
        }
        let checked = pipeline::check(&src);
        if let Some(p) = checked.valid_program() {
            out.push(("iir", serde_json::to_value(p).unwrap_or_default()));
        }
        for d in &checked.diags {
            out.push(("diagnostic", d.to_json()));
        }
    }
    for path in goldens(".iir.json") {
        out.push(("iir", read_json(&path)));
    }
    for path in goldens(".diag.json") {
        if let Value::Array(diags) = read_json(&path) {
            out.extend(diags.into_iter().map(|d| ("diagnostic", d)));
        }
    }
    for report in patch_reports() {
        out.push(("patch", report));
    }
    out
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn schemas() -> BTreeMap<&'static str, Value> {
    [
        ("iir", schema::Which::Iir),
        ("diagnostic", schema::Which::Diagnostic),
        ("patch", schema::Which::Patch),
        ("envelope", schema::Which::Envelope),
    ]
    .into_iter()
    .map(|(n, w)| (n, schema::schema(w, &[])))
    .collect()
}

/// Runs the third-party checks on the texts and documents.
fn third_party(texts: &[Text], docs: &[(&str, Value)]) -> Value {
    let dir = TempDir::new("agreement");
    let vocab = corpus::vocabulary(gen::PACK_FUNCTIONS);
    let mut grammars = serde_json::Map::new();
    for start in [Start::Program, Start::Patch] {
        let g = grammar::grammar(&vocab, start);
        let name = start_name(start);
        grammars.insert(
            name.into(),
            json!({
                "lark": dir.write(&format!("{name}.lark"), &grammar::print(&g, Format::Lark)),
                "gbnf": dir.write(&format!("{name}.gbnf"), &grammar::print(&g, Format::Gbnf)),
                "regex": dir.write(&format!("{name}.regex"), &grammar::print(&g, Format::RegexLite)),
            }),
        );
    }
    let plan_texts: Vec<Value> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            json!({
                "name": t.name,
                "file": dir.write(&format!("text{i}.isu"), &t.text),
                "start": start_name(t.start),
            })
        })
        .collect();
    let plan_schemas: serde_json::Map<String, Value> = schemas()
        .into_iter()
        .map(|(n, s)| {
            (
                n.to_owned(),
                json!(dir.write(&format!("{n}.schema.json"), &s.to_string())),
            )
        })
        .collect();
    let plan_docs: Vec<Value> = docs
        .iter()
        .enumerate()
        .map(|(i, (schema, doc))| {
            json!({ "file": dir.write(&format!("doc{i}.json"), &doc.to_string()), "schema": schema })
        })
        .collect();
    dir.write(
        "plan.json",
        &json!({ "grammars": grammars, "texts": plan_texts, "schemas": plan_schemas, "documents": plan_docs })
            .to_string(),
    );
    let script = corpus::root().join("host/tests/agreement/check.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(&dir.0)
        .output()
        .unwrap_or_else(|e| panic!("running python3 {}: {e}", script.display()));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "check.py failed ({e}):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    if let Some(missing) = result.get("missing") {
        panic!(
            "python3 lacks a package the agreement checks need ({missing}): python3 -m pip install -r host/tests/agreement/requirements.txt"
        );
    }
    assert!(
        out.status.success(),
        "check.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    result
}

/// Whether the in-process regex-lite accepts each text.
fn regex_lite(texts: &[Text]) -> Vec<bool> {
    let vocab = corpus::vocabulary(gen::PACK_FUNCTIONS);
    let compiled: BTreeMap<&str, regex::Regex> = [Start::Program, Start::Patch]
        .into_iter()
        .map(|s| {
            let rx = grammar::print(&grammar::grammar(&vocab, s), Format::RegexLite);
            let whole = format!("^(?:{})$", rx.trim_end_matches('\n'));
            let re = regex::RegexBuilder::new(&whole)
                .size_limit(1 << 26)
                .build()
                .unwrap_or_else(|e| panic!("regex-lite does not compile: {e}"));
            (start_name(s), re)
        })
        .collect();
    texts
        .iter()
        .map(|t| compiled[start_name(t.start)].is_match(&t.text))
        .collect()
}

#[test]
fn the_exported_grammars_and_schemas_agree_with_the_parser() {
    let programs = corpus::programs();
    let patches = corpus::patches();
    let invalid = corpus::invalid_programs();
    assert!(programs.len() >= 100, "only {} programs", programs.len());
    let rejected =
        invalid.iter().filter(|t| !t.accept).count() + patches.iter().filter(|t| !t.accept).count();
    assert!(rejected >= 50, "only {rejected} invalid texts");
    // Every code only the parser can catch occurs, so the documented gap is real.
    let beyond: Vec<&str> = invalid
        .iter()
        .filter(|t| t.accept)
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(beyond, corpus::BEYOND_GRAMMAR);

    let texts: Vec<Text> = [programs, patches, invalid, random_programs()].concat();
    let docs = documents(&texts);
    let result = third_party(&texts, &docs);

    let mut failures = Vec::new();
    let regex_in_process = regex_lite(&texts);
    let mut regex_accepts_invalid = BTreeSet::new();
    for (t, regex_ok) in texts.iter().zip(regex_in_process) {
        let verdicts = &result["texts"][&t.name];
        for tool in ["lark", "llguidance_lark", "llguidance_gbnf"] {
            if verdicts[tool].as_bool() != Some(t.accept) {
                failures.push(format!(
                    "{tool} {} {}:\n{}",
                    if t.accept { "rejects" } else { "accepts" },
                    t.name,
                    t.text
                ));
            }
        }
        let llg_regex = verdicts["llguidance_regex"].as_bool();
        if llg_regex != Some(regex_ok) {
            failures.push(format!(
                "llguidance and the regex crate disagree on regex-lite for {}",
                t.name
            ));
        }
        if t.accept && !regex_ok {
            failures.push(format!("regex-lite rejects {}:\n{}", t.name, t.text));
        }
        if !t.accept && regex_ok {
            regex_accepts_invalid.insert(t.name.clone());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));

    let listed: String = regex_accepts_invalid
        .iter()
        .map(|n| format!("{n}\n"))
        .collect();
    let golden = corpus::root().join("host/test_data/grammar/regex-lite.accepts");
    common::snapshot::check(&golden, &listed).unwrap_or_else(|e| panic!("{e}"));

    // The schemas: Python's jsonschema, then the jsonschema crate.
    let mut schema_failures = Vec::new();
    for (file, errors) in result["documents"].as_object().into_iter().flatten() {
        if errors.as_array().is_some_and(|e| !e.is_empty()) {
            schema_failures.push(format!("{file}: {errors}"));
        }
    }
    let validators: BTreeMap<&str, jsonschema::Validator> = schemas()
        .into_iter()
        .map(|(n, s)| {
            let v = jsonschema::validator_for(&s).unwrap_or_else(|e| panic!("{n}: {e}"));
            (n, v)
        })
        .collect();
    for (schema, doc) in &docs {
        for e in validators[schema].iter_errors(doc) {
            schema_failures.push(format!("{schema}: {e} at {} in {doc}", e.instance_path()));
        }
    }
    assert!(schema_failures.is_empty(), "{}", schema_failures.join("\n"));
}
