//! The validator on Isu text through the whole front end: spans point at the
//! right source, and the canonical step IDs are the ones named.

use crate::diag::Diagnostic;
use crate::pipeline;
use crate::source::Source;

/// A program with `ARGS: [xs: int[]]`, `RETURNS: int`, the given LOCALs and
/// steps (AUTO_ID), checked; returns the diagnostics and the text.
fn check(locals: &str, steps: &str) -> (Vec<Diagnostic>, String) {
    let text = format!(
        "META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: [xs: int[]]\n  RETURNS: int\nLOCAL: [{locals}]\nSTEPS:\n  SEQ: BEGIN\n{steps}  END\n"
    );
    let fe = pipeline::check(&Source::new("t.isu", text.clone()));
    (fe.diags, text)
}

fn at<'a>(text: &'a str, d: &Diagnostic) -> &'a str {
    d.span
        .and_then(|s| text.get(s.start as usize..s.end as usize))
        .unwrap_or("<no span>")
}

#[test]
fn an_undeclared_loop_variable_points_at_its_name() {
    let (diags, text) = check(
        "",
        "    LOOP:\n      ITER: (each item (var xs))\n      BODY: { }\n    RETURN:\n      EXPR: (const 0)\n",
    );
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].code.as_str(), "undeclared_loop_variable");
    assert_eq!(at(&text, &diags[0]), "item");
    assert_eq!(diags[0].step.as_ref().map(|s| s.as_str()), Some("S1"));
    let span = diags[0].span.map(|s| (s.line, s.column));
    assert_eq!(span, Some((11, 19)));
}

#[test]
fn an_element_update_of_an_unassigned_map_points_at_its_name() {
    let (diags, text) = check(
        "m: map<string,int>",
        "    IF:\n      COND: (const true)\n      THEN: {\n        ASSIGN:\n          TARGET: (index m (const \"a\"))\n          EXPR: (const 1)\n      }\n      ELSE: { }\n    RETURN:\n      EXPR: (const 0)\n",
    );
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].code.as_str(), "unassigned_variable");
    assert_eq!(at(&text, &diags[0]), "m");
    assert_eq!(diags[0].step.as_ref().map(|s| s.as_str()), Some("S1_1"));
}

#[test]
fn a_missing_return_in_a_nested_branch_names_the_innermost_step() {
    let (diags, _) = check(
        "n: int",
        "    IF:\n      COND: (gt (call LEN (var xs)) (const 0))\n      THEN: {\n        ASSIGN:\n          TARGET: n\n          EXPR: (const 1)\n      }\n      ELSE: {\n        RETURN:\n          EXPR: (const 0)\n      }\n",
    );
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].code.as_str(), "missing_return");
    assert_eq!(diags[0].step.as_ref().map(|s| s.as_str()), Some("S1_1"));
}

#[test]
fn unreachable_steps_cover_their_whole_text() {
    let (diags, text) = check(
        "n: int",
        "    RETURN:\n      EXPR: (const 1)\n    ASSIGN:\n      TARGET: n\n      EXPR: (const 2)\n",
    );
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert!(!diags[0].is_error());
    assert!(
        at(&text, &diags[0]).starts_with("ASSIGN:"),
        "{}",
        at(&text, &diags[0])
    );
    assert!(at(&text, &diags[0]).trim_end().ends_with("(const 2)"));
}
