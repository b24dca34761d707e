//! The guarantees of design.md section 2, each checked:
//!
//! - the same text always gives byte-identical IIR JSON;
//! - formatting canonical text changes nothing (`fmt` is a fixed point), on
//!   every file of `examples/` and `host/test_data/ok/`;
//! - printing then parsing random canonical IIR gives it back
//!   (`parse(print(p)) == p`, spans aside);
//! - canonicalization gives random programs their canonical IDs, whether they
//!   lack IDs (AUTO_ID, or an error per step without it) or carry others.
//!
//! The round-trip property runs 2000 cases by default (and the cheaper
//! properties a tenth of that each), a few seconds unoptimized. For more, set `PROPTEST_CASES`:
//! `PROPTEST_CASES=100000 cargo test --release -p isu_host --test roundtrip`.
//! A failure is shrunk to a small program and saved under
//! `host/tests/roundtrip.proptest-regressions`, which later runs try first.

mod gen;

use isu_host::diag::{has_errors, render};
use isu_host::{canon, syntax, Code, Source};
use isu_plugin_api::visit::{clear_spans, walk_step_mut, VisitMut};
use isu_plugin_api::{Program, Step, StepId};
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::path::{Path, PathBuf};

/// Parses and canonicalizes `text`, failing on any error.
fn front(name: &str, text: &str) -> Result<Program, String> {
    let src = Source::new(name, text);
    let parsed = syntax::parse(&src);
    let mut diags = parsed.diags;
    let program = parsed.program.map(|mut p| {
        diags.extend(canon::canonicalize(&mut p));
        p
    });
    match program {
        Some(p) if !has_errors(&diags) => Ok(p),
        _ => Err(format!(
            "{name} does not parse:\n{}",
            render(&diags, Some(&src), false)
        )),
    }
}

fn fmt(name: &str, text: &str) -> Result<String, String> {
    front(name, text).map(|p| canon::print(&p))
}

/// Every `.isu` file of `examples/` and `host/test_data/ok/` (not the golden
/// outputs beside them), sorted.
fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [root.join("../examples"), root.join("test_data/ok")] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".isu") && !name.ends_with(".canon.isu") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn read(path: &Path) -> String {
    match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

fn ok<T>(r: Result<T, String>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_corpus_is_not_empty() {
    let files = corpus();
    assert!(
        files.iter().any(|f| f.ends_with("examples/sum_evens.isu")),
        "{files:?}"
    );
}

#[test]
fn the_golden_example_prints_back_byte_for_byte() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sum_evens.isu");
    let text = read(&path);
    assert_eq!(ok(fmt("sum_evens.isu", &text)), text);
}

#[test]
fn the_same_text_gives_byte_identical_iir_json() {
    for path in corpus() {
        let name = path.display().to_string();
        let text = read(&path);
        let a = ok(front(&name, &text));
        let b = ok(front(&name, &text));
        let ja = serde_json::to_string(&a).unwrap_or_default();
        let jb = serde_json::to_string(&b).unwrap_or_default();
        assert!(!ja.is_empty());
        assert_eq!(ja, jb, "{name}: two parses differ");
        assert_eq!(
            ja,
            serde_json::to_string(&a).unwrap_or_default(),
            "{name}: two serializations differ"
        );
        // And the JSON reads back to the same program.
        let back: Program = ok(serde_json::from_str(&ja).map_err(|e| e.to_string()));
        assert_eq!(back, a, "{name}: IIR JSON does not read back");
    }
}

#[test]
fn fmt_is_a_fixed_point_on_the_corpus() {
    for path in corpus() {
        let name = path.display().to_string();
        let once = ok(fmt(&name, &read(&path)));
        let twice = ok(fmt(&name, &once));
        assert_eq!(twice, once, "{name}: formatting canonical text changed it");
        // The canonical text parses to the canonical program, spans aside.
        let mut a = ok(front(&name, &read(&path)));
        let mut b = ok(front(&name, &once));
        clear_spans(&mut a);
        clear_spans(&mut b);
        assert_eq!(a, b, "{name}: the canonical text means another program");
    }
}

/// The property itself, for one program.
fn round_trip(program: &Program) -> Result<(), TestCaseError> {
    let text = canon::print(program);
    let src = Source::new("generated.isu", text.as_str());
    let parsed = syntax::parse(&src);
    prop_assert!(
        parsed.diags.is_empty(),
        "parsing the printed program reported:\n{}\n{text}",
        render(&parsed.diags, Some(&src), false)
    );
    let Some(mut back) = parsed.program else {
        return Err(TestCaseError::fail(format!("no program from:\n{text}")));
    };
    // Canonical text parses to canonical IIR: canonicalization has nothing to say.
    let diags = canon::canonicalize(&mut back);
    prop_assert!(
        diags.is_empty(),
        "canonicalize reported {diags:?} on:\n{text}"
    );
    prop_assert_eq!(canon::print(&back), text.clone());
    clear_spans(&mut back);
    prop_assert_eq!(&back, program, "parse(print(p)) != p for:\n{}", text);
    Ok(())
}

/// Cases for the JSON property (serde_json is unoptimized in test builds).
fn json_cases() -> u32 {
    cases() / 10
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(2000)
}

proptest! {
    #![proptest_config(Config {
        cases: cases(),
        max_shrink_iters: 4096,
        ..Config::default()
    })]

    #[test]
    fn parse_of_print_is_the_identity_on_random_iir(program in gen::program()) {
        round_trip(&program)?;
    }
}

/// Rewrites every step's ID, in structural order: `None` removes them,
/// `Some(base)` writes `S<base + n>` for the n-th step (unique, off-scheme).
struct RewriteIds {
    base: Option<u32>,
    n: u32,
}

impl VisitMut for RewriteIds {
    fn visit_step_mut(&mut self, step: &mut Step) {
        self.n += 1;
        step.id = self.base.map(|b| StepId::from_path(&[b + self.n]));
        walk_step_mut(self, step);
    }
}

fn rewrite_ids(program: &Program, base: Option<u32>) -> Program {
    let mut p = program.clone();
    RewriteIds { base, n: 0 }.visit_program_mut(&mut p);
    p
}

proptest! {
    #![proptest_config(Config {
        cases: cases() / 10,
        ..Config::default()
    })]

    /// AUTO_ID numbers exactly as the scheme says (the generator numbers on
    /// its own, apart from canon).
    #[test]
    fn auto_id_gives_the_canonical_ids(program in gen::program()) {
        let mut p = rewrite_ids(&program, None);
        p.auto_id = true;
        prop_assert_eq!(canon::canonicalize(&mut p), Vec::new());
        p.auto_id = program.auto_id;
        prop_assert_eq!(&p, &program);
    }

    /// Without AUTO_ID, each step without an ID is one error whose `expected`
    /// is the ID it gets.
    #[test]
    fn every_missing_id_is_reported(program in gen::program()) {
        let mut p = rewrite_ids(&program, None);
        p.auto_id = false;
        let diags = canon::canonicalize(&mut p);
        let wanted: Vec<Option<serde_json::Value>> = program
            .steps()
            .iter()
            .map(|s| s.id.as_ref().map(|id| id.as_str().into()))
            .collect();
        prop_assert!(diags.iter().all(|d| d.code == Code::MissingStepId));
        prop_assert_eq!(diags.into_iter().map(|d| d.expected).collect::<Vec<_>>(), wanted);
    }

    /// Off-scheme IDs are renumbered to the canonical ones, with one warning
    /// whose map covers every step.
    #[test]
    fn off_scheme_ids_are_renumbered_with_one_warning(program in gen::program()) {
        let mut p = rewrite_ids(&program, Some(1000));
        let diags = canon::canonicalize(&mut p);
        let steps = program.steps().len();
        if steps == 0 {
            prop_assert!(diags.is_empty());
        } else {
            prop_assert_eq!(diags.len(), 1);
            prop_assert_eq!(diags[0].code, Code::StepRenumbered);
            let mapped = diags[0].actual.as_ref().and_then(|a| a.as_object()).map(|o| o.len());
            prop_assert_eq!(mapped, Some(steps));
        }
        prop_assert_eq!(&p, &program);
    }
}

proptest! {
    #![proptest_config(Config {
        cases: json_cases(),
        ..Config::default()
    })]

    #[test]
    fn iir_json_reads_back_to_the_same_program(program in gen::program()) {
        let json = serde_json::to_string(&program).unwrap_or_default();
        let again: Option<Program> = serde_json::from_str(&json).ok();
        prop_assert_eq!(again.as_ref(), Some(&program), "{}", json);
    }
}
