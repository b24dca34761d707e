use super::editor::{self, CompletionKind};
use super::*;
use crate::diag::Code;
use crate::functions::Functions;
use crate::source::Source;

const PROGRAM: &str = "FUNC:\n  NAME: f\n  ARGS: [xs: int[]]\n  RETURNS: int\nIO:\n  INPUT: [{\"xs\": [1]}, {\"xs\": []}]\n  OUTPUT: [1, 5]\nSTATE: [total: int = (const 0)]\nLOCAL: [x: int]\nSTEPS:\n  SEQ: BEGIN\n    S1: LOOP \"walk\"\n      ITER: (each x (var xs))\n      BODY: BEGIN\n        S1_1: ASSIGN\n          TARGET: total\n          EXPR: (add (var total) (call ABS (var x)))\n      END\n    S2: RETURN\n      EXPR: (var total)\n  END\n";

fn at(text: &str, needle: &str, plus: usize) -> u32 {
    (text.find(needle).unwrap_or_else(|| panic!("no {needle}")) + plus) as u32
}

#[test]
fn formatting_keeps_comments_and_needs_a_parse() {
    let src = Source::new(
        "t",
        format!("; the sum\n{}", PROGRAM.replace("  SEQ", "    SEQ")),
    );
    let f = format(&src);
    let text = f.text.clone().unwrap_or_default();
    assert!(text.starts_with("; the sum\n"), "{text}");
    assert!(!f.is_canonical(&src));
    assert!(format(&Source::new("t", text.as_str())).is_canonical(&Source::new("t", text.as_str())));
    // Valid or not, a program that parses formats; one that does not, does not.
    let invalid = Source::new("t", PROGRAM.replace("(var total))", "(var totl))"));
    assert!(format(&invalid).text.is_some());
    assert!(
        format(&Source::new("t", PROGRAM.replace("(var x)))", "(var x))")))
            .text
            .is_none()
    );
}

#[test]
fn the_examples_verdict() {
    let tested = examples(&Source::new("t", PROGRAM), &Functions::default())
        .unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(
        (tested.examples, tested.passed(), tested.failed()),
        (2, 1, 1)
    );
    assert_eq!(tested.outcome(), "failed");
    assert_eq!(tested.fails[0].code, Code::TestMismatch);
    let invalid = examples(
        &Source::new("t", PROGRAM.replace("(var x)", "(var y)")),
        &Functions::default(),
    );
    assert!(invalid.is_err());
}

#[test]
fn hover_on_a_function_a_variable_and_a_step() {
    let packs = Functions::default();
    let h =
        editor::hover(PROGRAM, at(PROGRAM, "ABS", 1), &packs).unwrap_or_else(|| panic!("no hover"));
    assert!(h.markdown.contains("ABS(int) -> int"), "{}", h.markdown);
    assert!(h.markdown.contains("`int_overflow`"), "{}", h.markdown);
    assert_eq!(
        (h.span.lo, h.span.hi),
        (at(PROGRAM, "ABS", 0), at(PROGRAM, "ABS", 3))
    );
    let h = editor::hover(PROGRAM, at(PROGRAM, "(var total)", 6), &packs)
        .unwrap_or_else(|| panic!("no hover"));
    assert!(
        h.markdown.contains("total: int")
            && h.markdown.contains("A STATE variable, declared at line 8"),
        "{}",
        h.markdown
    );
    let h = editor::hover(PROGRAM, at(PROGRAM, "S1: LOOP", 5), &packs)
        .unwrap_or_else(|| panic!("no hover"));
    assert!(
        h.markdown.contains("S1: LOOP \"walk\"") && h.markdown.contains("(LOOP: ITER, BODY)"),
        "{}",
        h.markdown
    );
    assert_eq!(editor::hover(PROGRAM, at(PROGRAM, "[1]", 1), &packs), None);
}

#[test]
fn hover_and_symbols_on_a_text_that_does_not_parse() {
    let broken = PROGRAM.replace("(call ABS (var x))", "(call ABS (var x)");
    assert!(crate::pipeline::check(&Source::new("t", broken.as_str()))
        .program
        .is_none());
    let packs = Functions::default();
    let h =
        editor::hover(&broken, at(&broken, "ABS", 0), &packs).unwrap_or_else(|| panic!("no hover"));
    assert!(h.markdown.contains("ABS(int) -> int"));
    let tree: Vec<(String, Vec<String>)> = editor::symbols(&broken)
        .into_iter()
        .map(|s| {
            (
                s.id.to_string(),
                s.children.iter().map(|c| c.id.to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(
        tree,
        [
            ("S1".to_owned(), vec!["S1_1".to_owned()]),
            ("S2".to_owned(), vec![])
        ]
    );
}

#[test]
fn definition_of_a_variable() {
    let found =
        editor::definition(PROGRAM, at(PROGRAM, "(var xs)", 6)).unwrap_or_else(|| panic!("none"));
    assert_eq!(found.lo, at(PROGRAM, "xs: int[]", 0));
    assert_eq!(editor::definition(PROGRAM, at(PROGRAM, "ABS", 0)), None);
}

#[test]
fn completions_come_from_the_tables() {
    let packs = Functions::default();
    let labels = |text: &str, kind: CompletionKind| -> Vec<String> {
        let off = at(text, "|", 0);
        let text = text.replacen('|', "", 1);
        editor::complete(&text, off, &packs)
            .into_iter()
            .filter(|c| c.kind == kind)
            .map(|c| c.label)
            .collect()
    };
    let expr = |typed: &str| PROGRAM.replace("(var total) (call ABS (var x))", typed);
    let functions = labels(&expr("(call |"), CompletionKind::Function);
    let names: Vec<&str> = crate::stdlib::STDLIB.iter().map(|f| f.name).collect();
    assert_eq!(functions, names);
    let ops = labels(&expr("(|"), CompletionKind::Operator);
    assert_eq!(ops, crate::syntax::vocab::OPERATOR_NAMES);
    assert_eq!(
        labels(&expr("(var t|"), CompletionKind::Variable),
        ["xs", "total", "x"]
    );
    let iter = PROGRAM.replace("(each x (var xs))", "(|");
    assert_eq!(
        labels(&iter, CompletionKind::Operator),
        crate::syntax::vocab::ITER_FORMS
    );
}

#[test]
fn a_pack_function_is_hovered_completed_and_checked() {
    let mut packs = Functions::default();
    packs.add_local(std::sync::Arc::new(isu_packs::math::MATH));
    let text = PROGRAM.replace("(call ABS (var x))", "(call math.GCD (var x) (const 4))");
    let h = editor::hover(&text, at(&text, "GCD", 1), &packs).unwrap_or_else(|| panic!("no hover"));
    assert!(
        h.markdown.contains("math.GCD(int, int) -> int"),
        "{}",
        h.markdown
    );
    assert!(
        h.markdown.contains("greatest common divisor"),
        "{}",
        h.markdown
    );
    assert_eq!(
        (h.span.lo, h.span.hi),
        (at(&text, "math.GCD", 0), at(&text, "math.GCD", 8))
    );
    // Without the pack, the name means nothing and the check says so.
    assert_eq!(
        editor::hover(&text, at(&text, "GCD", 1), &Functions::default()),
        None
    );
    let src = Source::new("t", text.as_str());
    assert!(check(&src, &packs).diags.iter().all(|d| !d.is_error()));
    assert!(check(&src, &Functions::default())
        .diags
        .iter()
        .any(|d| d.is_error()));
    let typed = PROGRAM.replace("(call ABS (var x))", "(call ");
    let off = at(&typed, "(call ", 6);
    let gcd = editor::complete(&typed, off, &packs)
        .into_iter()
        .find(|c| c.label == "math.GCD")
        .unwrap_or_else(|| panic!("no math.GCD"));
    assert_eq!(gcd.kind, CompletionKind::Function);
    assert!(
        gcd.detail
            .as_deref()
            .is_some_and(|d| d.contains("(int, int) -> int")),
        "{gcd:?}"
    );
}

#[test]
fn a_test_failure_is_shown_at_its_step() {
    let src = Source::new("t", PROGRAM);
    let tested = examples(&src, &Functions::default()).unwrap_or_else(|d| panic!("{d:?}"));
    let outline = crate::syntax::outline_of(PROGRAM);
    let placed = editor::place(PROGRAM, &tested.fails[0], &outline);
    assert_eq!(placed.span.0, at(PROGRAM, "S2: RETURN", 0));
    assert_eq!(placed.related[0].0 .0, at(PROGRAM, "5]", 0));
}
