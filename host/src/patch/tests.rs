//! Unit tests of patch application on IIR built in Rust. The data-driven
//! cases of `test_data/patch/` go through patch text as well.

use super::*;
use crate::canon::testing::*;
use crate::diag::Severity;
use crate::syntax::{PatchEntry, PatchItems, PatchOp, PatchTarget};
use isu_plugin_api::{BinaryOp, Span, Step};

/// A valid program: S1 sets x; S2 is an IF with two THEN steps and one ELSE
/// step (a LOOP with one child); S3 returns x.
fn base() -> Program {
    let mut p = program(
        false,
        vec![
            step("S1", assign("x", int(0))),
            step(
                "S2",
                if_(
                    binary(BinaryOp::Gt, var("n"), int(0)),
                    vec![
                        step("S2_1", assign("x", int(1))),
                        step("S2_2", assign("x", binary(BinaryOp::Add, var("x"), int(1)))),
                    ],
                    vec![step(
                        "S2_3",
                        each("i", var("xs"), vec![step("S2_3_1", assign("x", var("i")))]),
                    )],
                ),
            ),
            step("S3", ret(var("x"))),
        ],
    );
    p.func.args.push(decl(
        "xs",
        isu_plugin_api::Type::array(isu_plugin_api::Type::Int),
    ));
    p.locals.push(decl("i", isu_plugin_api::Type::Int));
    p
}

fn id(s: &str) -> StepId {
    StepId::parse(s).unwrap_or_else(|| panic!("bad ID {s}"))
}

fn entry(op: PatchOp, target: PatchTarget, items: PatchItems) -> PatchEntry {
    PatchEntry {
        op,
        target,
        items,
        span: Span::default(),
    }
}

fn replace(target: &str, step: Step) -> PatchEntry {
    entry(
        PatchOp::Replace,
        PatchTarget::Step(id(target)),
        PatchItems::Steps(vec![step]),
    )
}

fn insert(target: &str, steps: Vec<Step>) -> PatchEntry {
    entry(
        PatchOp::InsertAfter,
        PatchTarget::Step(id(target)),
        PatchItems::Steps(steps),
    )
}

fn delete(target: &str) -> PatchEntry {
    entry(
        PatchOp::Delete,
        PatchTarget::Step(id(target)),
        PatchItems::None,
    )
}

fn apply_edits(program: &Program, entries: Vec<PatchEntry>) -> Result<Patched, Vec<Diagnostic>> {
    apply(program, &PatchFile { entries })
}

fn pairs(map: &IdMap) -> Vec<(&str, &str)> {
    map.iter().map(|(o, n)| (o.as_str(), n.as_str())).collect()
}

fn applied(program: &Program, edits: Vec<PatchEntry>) -> Patched {
    match apply_edits(program, edits) {
        Ok(p) => p,
        Err(diags) => panic!("patch failed: {diags:#?}"),
    }
}

#[test]
fn replace_keeps_every_other_line_byte_for_byte() {
    let p = base();
    let before = canon::print(&p);
    let target = "S2_2";
    let new = step(
        "S2_2",
        if_(
            binary(BinaryOp::Lt, var("x"), int(10)),
            vec![step("", assign("x", int(10)))],
            vec![
                step("", assign("x", int(11))),
                step("", assign("x", int(12))),
            ],
        ),
    );
    let out = applied(&p, vec![replace(target, new)]);
    assert!(out.renumbered.is_empty());
    assert!(out.diags.is_empty(), "{:?}", out.diags);
    let old: Vec<&str> = before.lines().collect();
    let now: Vec<&str> = out.text.lines().collect();
    // The old S2_2 is lines 19..=21 of the old text (0-based 18..21).
    let start = old
        .iter()
        .position(|l| l.trim_start() == "S2_2: ASSIGN")
        .unwrap_or(0);
    let old_end = start + 3;
    let new_len = now.len() - (old.len() - 3);
    assert_eq!(now[..start], old[..start]);
    assert_eq!(now[start + new_len..], old[old_end..]);
    assert_eq!(
        now[start..start + new_len].join("\n"),
        [
            "        S2_2: IF",
            "          COND: (lt (var x) (const 10))",
            "          THEN: BEGIN",
            "            S2_2_1: ASSIGN",
            "              TARGET: x",
            "              EXPR: (const 10)",
            "          END",
            "          ELSE: BEGIN",
            "            S2_2_2: ASSIGN",
            "              TARGET: x",
            "              EXPR: (const 11)",
            "            S2_2_3: ASSIGN",
            "              TARGET: x",
            "              EXPR: (const 12)",
            "          END",
        ]
        .join("\n")
    );
    assert_eq!(out.text, canon::print(out.program.as_ref().unwrap()));
}

#[test]
fn insert_after_renumbers_later_siblings_across_then_and_else() {
    let p = base();
    let target = "S2_1";
    let new = vec![step("", assign("x", int(5))), step("", assign("x", int(6)))];
    let out = applied(&p, vec![insert(target, new)]);
    assert_eq!(
        pairs(&out.renumbered),
        [("S2_2", "S2_4"), ("S2_3", "S2_5"), ("S2_3_1", "S2_5_1")]
    );
    assert_eq!(
        out.renumbered_json(),
        serde_json::json!({"S2_2": "S2_4", "S2_3": "S2_5", "S2_3_1": "S2_5_1"})
    );
    assert_eq!(
        ids(out.program.as_ref().unwrap()),
        ["S1", "S2", "S2_1", "S2_2", "S2_3", "S2_4", "S2_5", "S2_5_1", "S3"]
    );
    assert!(out
        .text
        .contains("        S2_2: ASSIGN\n          TARGET: x\n          EXPR: (const 5)\n"));
}

#[test]
fn insert_after_the_last_step_renumbers_nothing() {
    let p = base();
    let target = "S3";
    let new = vec![step("", ret(int(1)))];
    let out = applied(&p, vec![insert(target, new)]);
    assert!(out.renumbered.is_empty());
    assert_eq!(
        ids(out.program.as_ref().unwrap())
            .last()
            .map(String::as_str),
        Some("S4")
    );
}

#[test]
fn delete_renumbers_later_siblings_and_their_children() {
    let p = base();
    let target = "S2_2";
    let out = applied(&p, vec![delete(target)]);
    assert_eq!(
        pairs(&out.renumbered),
        [("S2_3", "S2_2"), ("S2_3_1", "S2_2_1")]
    );
    assert!(!out.text.contains("S2_3"));
}

#[test]
fn targets_name_the_original_ids_whatever_earlier_entries_renumbered() {
    let p = base();
    let new = vec![step("", assign("x", int(7)))];
    // After the insert, the old S2 is S3 and the old S3 is S4; DELETE S2 still
    // means the IF, and REPLACE S3 the RETURN.
    let ret2 = step("S3", ret(binary(BinaryOp::Mul, var("x"), int(2))));
    let out = applied(
        &p,
        vec![insert("S1", new), delete("S2"), replace("S3", ret2)],
    );
    assert_eq!(ids(out.program.as_ref().unwrap()), ["S1", "S2", "S3"]);
    assert_eq!(pairs(&out.renumbered), []);
    assert!(out
        .text
        .contains("    S2: ASSIGN\n      TARGET: x\n      EXPR: (const 7)\n"));
    assert!(out
        .text
        .contains("    S3: RETURN\n      EXPR: (mul (var x) (const 2))\n"));
    // The replacement was written as S3 and landed as S3: no warning.
    assert!(out.diags.is_empty(), "{:?}", out.diags);
}

#[test]
fn two_inserts_after_one_target_put_the_later_entry_first() {
    let p = base();
    let a = vec![step("", assign("x", int(1)))];
    let b = vec![step("", assign("x", int(2)))];
    let out = applied(&p, vec![insert("S1", a), insert("S1", b)]);
    let s2 = out
        .program
        .as_ref()
        .unwrap()
        .find_step(&id("S2"))
        .map(|s| crate::canon::print_step(s, 0));
    assert_eq!(
        s2.as_deref(),
        Some("S2: ASSIGN\n  TARGET: x\n  EXPR: (const 2)\n")
    );
}

#[test]
fn a_missing_target_is_an_error_naming_it_with_the_steps_nearby() {
    let p = base();
    let diags = match apply_edits(&p, vec![delete("S9"), delete("S2_7"), delete("S2_3_4")]) {
        Err(d) => d,
        Ok(_) => panic!("expected errors"),
    };
    assert_eq!(diags.len(), 3);
    assert!(diags
        .iter()
        .all(|d| d.code == Code::UnknownStep && d.severity == Severity::Error));
    assert_eq!(
        diags[0].message,
        "DELETE S9 (entry 1): the program has no step S9"
    );
    assert_eq!(diags[0].step.as_ref().map(StepId::as_str), Some("S9"));
    assert_eq!(
        diags[0].hint.as_deref(),
        Some("the top-level steps are S1, S2, S3")
    );
    assert_eq!(
        diags[1].hint.as_deref(),
        Some("the child steps of S2 are S2_1, S2_2, S2_3")
    );
    assert_eq!(
        diags[2].hint.as_deref(),
        Some("the child steps of S2_3 are S2_3_1")
    );
}

#[test]
fn naming_a_step_an_earlier_entry_removed_says_which_entry() {
    let p = base();
    let diags = apply_edits(&p, vec![delete("S2"), delete("S2_3_1")])
        .err()
        .unwrap_or_default();
    assert_eq!(diags.len(), 1);
    assert_eq!(
        diags[0].message,
        "DELETE S2_3_1 (entry 2): step S2_3_1 is no longer in the program; entry 1 of this patch removed it"
    );
}

#[test]
fn steps_of_the_patch_written_with_other_ids_get_a_warning() {
    let p = base();
    let target = "S1";
    let new = vec![
        step("S7", assign("x", int(1))),
        step("S2", seq(vec![step("S2_9", assign("x", int(2)))])),
    ];
    let out = applied(&p, vec![insert(target, new)]);
    assert_eq!(out.diags.len(), 1);
    let w = &out.diags[0];
    assert_eq!(
        (w.code, w.severity),
        (Code::StepRenumbered, Severity::Warning)
    );
    assert_eq!(
        w.message,
        "steps of the patch were written with IDs other than the ones they got: S7 -> S2, S2 -> S3, S2_9 -> S3_1"
    );
    assert_eq!(
        pairs(&out.renumbered),
        [
            ("S2", "S4"),
            ("S2_1", "S4_1"),
            ("S2_2", "S4_2"),
            ("S2_3", "S4_3"),
            ("S2_3_1", "S4_3_1"),
            ("S3", "S5")
        ]
    );
}

#[test]
fn a_replacement_written_with_another_id_is_reported_under_its_new_place() {
    let p = base();
    let target = "S3";
    let new = step("S4", ret(int(0)));
    let out = applied(&p, vec![replace(target, new)]);
    assert_eq!(out.diags.len(), 1);
    assert!(out.diags[0].message.ends_with("S4 -> S3"));
}

#[test]
fn applying_leaves_the_program_untouched() {
    let p = base();
    let copy = p.clone();
    let target = "S2";
    let _ = apply_edits(&p, vec![delete(target)]);
    assert_eq!(p, copy);
}

#[test]
fn the_patched_program_is_the_validated_parse_of_its_text() {
    let p = base();
    let target = "S1";
    let new = vec![step("", assign("x", int(3)))];
    let out = applied(&p, vec![insert(target, new)]);
    let fe = pipeline::check(&Source::new("t", out.text.as_str()));
    assert_eq!(fe.program.as_ref(), Some(out.program.as_ref().unwrap()));
    // Spans point into the text.
    let s2 = out
        .program
        .as_ref()
        .unwrap()
        .find_step(&id("S2"))
        .map(|s| s.span);
    assert_eq!(
        s2.map(|s| s.line),
        Some(
            out.text
                .lines()
                .position(|l| l.trim_start().starts_with("S2: "))
                .map_or(0, |i| i as u32 + 1)
        )
    );
}

#[test]
fn a_replaced_step_keeps_its_target_id_for_later_entries() {
    let p = base();
    // Put a new first step in S2's THEN: replace S2_1, then insert the old one after it.
    let out = applied(
        &p,
        vec![
            replace("S2_1", step("", assign("x", int(9)))),
            insert("S2_1", vec![step("", assign("x", int(1)))]),
        ],
    );
    let then: Vec<String> = out
        .text
        .lines()
        .skip_while(|l| !l.contains("THEN: BEGIN"))
        .take(7)
        .map(str::trim)
        .map(str::to_owned)
        .collect();
    assert_eq!(
        then,
        [
            "THEN: BEGIN",
            "S2_1: ASSIGN",
            "TARGET: x",
            "EXPR: (const 9)",
            "S2_2: ASSIGN",
            "TARGET: x",
            "EXPR: (const 1)"
        ]
    );
    assert_eq!(
        pairs(&out.renumbered),
        [("S2_2", "S2_3"), ("S2_3", "S2_4"), ("S2_3_1", "S2_4_1")]
    );
}

#[test]
fn children_a_replacement_brings_are_not_targets() {
    let p = base();
    let new_loop = step(
        "S2_3",
        each("i", var("xs"), vec![step("S2_3_1", assign("x", int(0)))]),
    );
    let diags = apply_edits(&p, vec![replace("S2_3", new_loop), delete("S2_3_1")])
        .err()
        .unwrap_or_default();
    assert_eq!(diags.len(), 1);
    assert!(diags[0]
        .message
        .ends_with("step S2_3_1 is no longer in the program; entry 1 of this patch removed it"));
    // The hint lists only the steps the author can name.
    assert_eq!(diags[0].hint.as_deref(), Some("the steps under S2_3 come from this patch; entries name steps of the program as it was written"));
}

#[test]
fn hints_say_when_there_is_nothing_to_name() {
    let p = base();
    let diags = apply_edits(&p, vec![delete("S3_1")])
        .err()
        .unwrap_or_default();
    assert_eq!(diags[0].hint.as_deref(), Some("S3 has no child steps"));
    let empty = program(false, Vec::new());
    let diags = apply_edits(&empty, vec![delete("S1")])
        .err()
        .unwrap_or_default();
    assert_eq!(diags[0].hint.as_deref(), Some("the program has no steps"));
}
