//! Canonical step IDs: checking the IDs a program was written with, and
//! numbering its steps by the canonical scheme.

use crate::diag::{Code, Diagnostic};
use isu_plugin_api::{Block, Program, Span, Step, StepId};
use std::collections::HashMap;

/// Old → new step IDs, in structural order of the steps: what renumbering
/// changed. Steps that had no ID, or kept theirs, are not in it.
pub type IdMap = Vec<(StepId, StepId)>;

/// How many pairs of the old → new map the warning's message lists; the whole
/// map is always in its `actual` field.
const MESSAGE_MAP_LIMIT: usize = 20;

/// Gives every step its canonical ID and reports what the source got wrong:
///
/// - `missing_step_id` (error), for each step without an ID while the program
///   is not `AUTO_ID`; the hint names the ID it gets;
/// - `invalid_step_id` (error), for an ID that is not of the form `S1`, `S2_1`
///   (only IIR read from JSON can hold one; the parser refuses them);
/// - `duplicate_step_id` (error), for each step whose ID an earlier step
///   already has, with a label at the first;
/// - one `step_renumbered` warning when explicit IDs did not follow the scheme:
///   its message and its `actual` field (a JSON object) give the old → new map.
///
/// Afterwards the program is canonical whatever was reported, so that `fmt`
/// and `parse` can still show it; the errors say it is not yet valid.
/// Diagnostics come in the structural order of the steps they concern.
pub fn canonicalize(program: &mut Program) -> Vec<Diagnostic> {
    super::fields::order_fields(program);
    let mut check = Check {
        auto_id: program.auto_id,
        first_at: HashMap::new(),
        diags: Vec::new(),
        renumbered: Vec::new(),
        first_renumbered_at: None,
    };
    let mut path = Vec::new();
    check.block(&mut program.body, &mut path);
    let Check {
        mut diags,
        renumbered,
        first_renumbered_at,
        ..
    } = check;
    if let Some(span) = first_renumbered_at {
        diags.push(renumbered_warning(&renumbered, span));
    }
    diags
}

/// Numbers every step of `program` canonically and returns what changed.
pub fn renumber(program: &mut Program) -> IdMap {
    let mut map = Vec::new();
    renumber_block(&mut program.body, &[], &mut map);
    map
}

/// Numbers the steps of `block`, the block (or one of the blocks) of the step
/// at `parent` (`&[]` for the root), from 1, and everything below them.
/// Appends to `map` every step whose ID was `Some` and changed.
///
/// A step with several blocks (an IF) numbers its children across them: use
/// [`renumber`], or number the step's blocks through a parent, rather than
/// calling this on the ELSE block alone.
pub fn renumber_block(block: &mut Block, parent: &[u32], map: &mut IdMap) {
    let mut path = parent.to_vec();
    number_children(vec![block], &mut path, map);
}

/// Gives `step` the ID `id` and its children the canonical IDs under it
/// (counted across its blocks); returns what changed among IDs it had.
pub fn number_step(step: &mut Step, id: &StepId) -> IdMap {
    let mut map = Vec::new();
    step.id = Some(id.clone());
    let mut path = id.path();
    number_children(step.node.blocks_mut(), &mut path, &mut map);
    map
}

fn number_children(blocks: Vec<&mut Block>, path: &mut Vec<u32>, map: &mut IdMap) {
    let mut n = 0u32;
    for block in blocks {
        for step in &mut block.steps {
            n = n.saturating_add(1);
            path.push(n);
            let id = StepId::from_path(path);
            match step.id.take() {
                Some(old) if old != id => map.push((old, id.clone())),
                _ => {}
            }
            step.id = Some(id);
            number_children(step.node.blocks_mut(), path, map);
            path.pop();
        }
    }
}

/// The walk of [`canonicalize`]: checks each step's written ID against its
/// canonical one, then gives it the canonical one.
struct Check {
    auto_id: bool,
    /// Where each explicit, well-formed ID was first written.
    first_at: HashMap<StepId, Span>,
    diags: Vec<Diagnostic>,
    /// Explicit IDs, written once each, that are not the canonical ones.
    renumbered: IdMap,
    first_renumbered_at: Option<Span>,
}

impl Check {
    fn block(&mut self, block: &mut Block, path: &mut Vec<u32>) {
        self.blocks(vec![block], path);
    }

    fn blocks(&mut self, blocks: Vec<&mut Block>, path: &mut Vec<u32>) {
        let mut n = 0u32;
        for block in blocks {
            for step in &mut block.steps {
                n = n.saturating_add(1);
                path.push(n);
                let canonical = StepId::from_path(path);
                self.step_id(step, &canonical);
                step.id = Some(canonical);
                self.blocks(step.node.blocks_mut(), path);
                path.pop();
            }
        }
    }

    fn step_id(&mut self, step: &Step, canonical: &StepId) {
        let kind = step.node.keyword();
        let line = step.span.line;
        let Some(written) = &step.id else {
            if !self.auto_id {
                self.diags.push(
                    Diagnostic::error(
                        Code::MissingStepId,
                        format!("the {kind} step{} has no step ID", at_line(line)),
                    )
                    .at(step.span)
                    .with_expected(canonical.as_str())
                    .with_hint(format!(
                        "write `{canonical}: {kind}`, or put `META:` with `AUTO_ID: true` \
                         first in the file to have IDs given"
                    )),
                );
            }
            return;
        };
        if StepId::parse(written.as_str()).as_ref() != Some(written) {
            self.diags.push(
                Diagnostic::error(
                    Code::InvalidStepId,
                    format!(
                        "the {kind} step{} has the ID `{written}`, which is not of the form \
                         S1, S2_1",
                        at_line(line)
                    ),
                )
                .at(step.span)
                .with_actual(written.as_str())
                .with_expected(canonical.as_str())
                .with_hint(format!("its canonical ID is {canonical}")),
            );
            return;
        }
        if let Some(&first) = self.first_at.get(written) {
            self.diags.push(
                Diagnostic::error(
                    Code::DuplicateStepId,
                    format!(
                        "step ID {written} is used twice: the {kind} step{} repeats it",
                        at_line(line)
                    ),
                )
                .at(step.span)
                .in_step(Some(written))
                .with_label(first, format!("{written} first used here"))
                .with_hint(format!(
                    "give every step its own ID; this one's canonical ID is {canonical}"
                )),
            );
            // The first step with the ID was recorded as renumbered or kept; this
            // one's change is reported by its error, not in the map.
            return;
        }
        self.first_at.insert(written.clone(), step.span);
        if written != canonical {
            self.renumbered.push((written.clone(), canonical.clone()));
            self.first_renumbered_at.get_or_insert(step.span);
        }
    }
}

fn at_line(line: u32) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(" at line {line}")
    }
}

/// The map for a message: `S3 -> S2, S4 -> S3`, the first 20 pairs and then
/// how many more.
pub fn map_text(map: &IdMap) -> String {
    let mut listed: Vec<String> = map
        .iter()
        .take(MESSAGE_MAP_LIMIT)
        .map(|(old, new)| format!("{old} -> {new}"))
        .collect();
    if map.len() > MESSAGE_MAP_LIMIT {
        listed.push(format!("and {} more", map.len() - MESSAGE_MAP_LIMIT));
    }
    listed.join(", ")
}

/// The map as a JSON object from old to new IDs (for a diagnostic's `actual`
/// and for reports; its keys are sorted as JSON objects' are).
pub fn map_json(map: &IdMap) -> serde_json::Value {
    serde_json::Value::Object(
        map.iter()
            .map(|(old, new)| (old.to_string(), new.as_str().into()))
            .collect(),
    )
}

fn renumbered_warning(map: &IdMap, first: Span) -> Diagnostic {
    Diagnostic::warning(
        Code::StepRenumbered,
        format!(
            "step IDs did not follow the canonical scheme and were renumbered: {}",
            map_text(map)
        ),
    )
    .at(first)
    .with_actual(map_json(map))
    .with_hint(renumbered_hint(map))
}

/// The hint of a `step_renumbered` warning: what the scheme is, said for the
/// steps it moved, and the first of them.
fn renumbered_hint(map: &IdMap) -> String {
    let nested = map
        .iter()
        .any(|(old, new)| old.path().len() > 1 || new.path().len() > 1);
    let scheme = if nested {
        "steps are numbered in order within each block: S1, S2, ... at the top, S2_1, S2_2, ... for the children of S2"
    } else {
        "the steps of STEPS are numbered S1, S2, ... in order"
    };
    let shown: Vec<String> = map
        .iter()
        .take(3)
        .map(|(old, new)| format!("{old} is now {new}"))
        .collect();
    format!(
        "{scheme}; {}; refer to the steps by their new IDs (`isu fix --write` writes them)",
        shown.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::testing::*;
    use crate::diag::{Kind, Severity};
    use isu_plugin_api::{BinaryOp, Node};

    /// An IF with two THEN steps and one ELSE step holding a LOOP, then a
    /// nested SEQ, then a RETURN; every step written with `ids[i]` in
    /// structural order.
    fn nested(auto_id: bool, ids: [&str; 8]) -> Program {
        let [a, b, c, d, e, f, g, h] = ids;
        program(
            auto_id,
            vec![
                step(
                    a,
                    if_(
                        var("n"),
                        vec![step(b, assign("x", int(1))), step(c, assign("x", int(2)))],
                        vec![step(
                            d,
                            each("x", var("n"), vec![step(e, assign("x", int(3)))]),
                        )],
                    ),
                ),
                step(f, seq(vec![step(g, assign("x", int(4)))])),
                step(h, ret(var("x"))),
            ],
        )
    }

    const CANONICAL: [&str; 8] = ["S1", "S1_1", "S1_2", "S1_3", "S1_3_1", "S2", "S2_1", "S3"];

    #[test]
    fn canonical_ids_are_kept_silently() {
        let mut p = nested(false, CANONICAL);
        let before = p.clone();
        assert_eq!(canonicalize(&mut p), Vec::new());
        assert_eq!(p, before);
    }

    #[test]
    fn auto_id_numbers_children_across_then_and_else_blocks() {
        let mut p = nested(true, [""; 8]);
        assert_eq!(canonicalize(&mut p), Vec::new());
        assert_eq!(ids(&p), CANONICAL);
    }

    #[test]
    fn auto_id_mixes_written_and_missing_ids() {
        let mut p = nested(true, ["S1", "", "S1_2", "", "", "S2", "", ""]);
        assert_eq!(canonicalize(&mut p), Vec::new());
        assert_eq!(ids(&p), CANONICAL);
    }

    #[test]
    fn a_missing_id_is_an_error_naming_kind_line_and_the_id_it_would_get() {
        let mut p = program(
            false,
            vec![
                step("S1", assign("x", int(1))),
                on_line(step("", if_(var("n"), Vec::new(), Vec::new())), 7),
                step("", ret(var("x"))),
            ],
        );
        let diags = canonicalize(&mut p);
        assert_eq!(diags.len(), 2);
        let d = &diags[0];
        assert_eq!(
            (d.code, d.kind, d.severity),
            (Code::MissingStepId, Kind::StaticError, Severity::Error)
        );
        assert_eq!(d.message, "the IF step at line 7 has no step ID");
        assert_eq!(d.span.map(|s| s.line), Some(7));
        assert_eq!(d.expected, Some("S2".into()));
        assert!(d
            .hint
            .as_deref()
            .is_some_and(|h| h.contains("`S2: IF`") && h.contains("AUTO_ID")));
        assert_eq!(diags[1].message, "the RETURN step has no step ID");
        assert_eq!(diags[1].expected, Some("S3".into()));
        // The program is canonical all the same.
        assert_eq!(ids(&p), ["S1", "S2", "S3"]);
    }

    #[test]
    fn a_repeated_id_is_an_error_at_the_second_with_a_label_at_the_first() {
        let mut p = program(
            false,
            vec![
                on_line(step("S1", assign("x", int(1))), 3),
                on_line(step("S1", ret(var("x"))), 6),
            ],
        );
        let diags = canonicalize(&mut p);
        assert_eq!(diags.len(), 1, "{diags:?}");
        let d = &diags[0];
        assert_eq!(d.code, Code::DuplicateStepId);
        assert_eq!(d.step.as_ref().map(StepId::as_str), Some("S1"));
        assert_eq!(d.span.map(|s| s.line), Some(6));
        assert_eq!(d.labels.len(), 1);
        assert_eq!(d.labels[0].span.line, 3);
        assert_eq!(d.labels[0].message, "S1 first used here");
        assert!(d.message.contains("RETURN step at line 6"));
        assert_eq!(ids(&p), ["S1", "S2"]);
    }

    #[test]
    fn off_scheme_ids_are_renumbered_with_one_warning_carrying_the_map() {
        let mut p = nested(
            false,
            ["S1", "S1_1", "S1_3", "S1_2", "S1_2_1", "S5", "S5_1", "S10"],
        );
        let diags = canonicalize(&mut p);
        assert_eq!(diags.len(), 1, "{diags:?}");
        let d = &diags[0];
        assert_eq!(
            (d.code, d.severity),
            (Code::StepRenumbered, Severity::Warning)
        );
        assert_eq!(
            d.message,
            "step IDs did not follow the canonical scheme and were renumbered: \
             S1_3 -> S1_2, S1_2 -> S1_3, S1_2_1 -> S1_3_1, S5 -> S2, S5_1 -> S2_1, S10 -> S3"
        );
        assert_eq!(
            d.actual,
            Some(serde_json::json!({
                "S1_3": "S1_2", "S1_2": "S1_3", "S1_2_1": "S1_3_1",
                "S5": "S2", "S5_1": "S2_1", "S10": "S3"
            }))
        );
        assert_eq!(ids(&p), CANONICAL);
    }

    #[test]
    fn auto_id_still_reports_written_ids_it_changes() {
        let mut p = program(
            true,
            vec![step("", assign("x", int(1))), step("S1", ret(var("x")))],
        );
        let diags = canonicalize(&mut p);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, Code::StepRenumbered);
        assert_eq!(diags[0].actual, Some(serde_json::json!({"S1": "S2"})));
        assert_eq!(ids(&p), ["S1", "S2"]);
    }

    #[test]
    fn the_message_lists_the_first_pairs_and_the_field_holds_them_all() {
        let steps = (0..25)
            .map(|i| step(&format!("S{}", i + 100), assign("x", int(i))))
            .collect();
        let mut p = program(false, steps);
        let diags = canonicalize(&mut p);
        assert_eq!(diags.len(), 1);
        assert!(diags[0].message.ends_with("S119 -> S20, and 5 more"));
        let actual = diags[0]
            .actual
            .as_ref()
            .and_then(|a| a.as_object().map(|o| o.len()));
        assert_eq!(actual, Some(25));
    }

    #[test]
    fn a_malformed_id_from_json_is_refused() {
        let json = r#"{"id": "S0_1", "span": {"lo": 0, "hi": 0, "line": 0, "col": 0},
            "node": {"kind": "return", "expr": {"span": {"lo": 0, "hi": 0, "line": 0, "col": 0},
            "node": {"expr": "var", "name": "x"}}}}"#;
        let bad: Step = match serde_json::from_str(json) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        };
        let mut p = program(false, vec![bad]);
        let diags = canonicalize(&mut p);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, Code::InvalidStepId);
        assert_eq!(diags[0].actual, Some("S0_1".into()));
        assert_eq!(ids(&p), ["S1"]);
    }

    #[test]
    fn renumbering_reports_only_steps_that_had_an_id() {
        let mut p = nested(false, CANONICAL);
        // Insert a new step (no ID yet) before the IF's ELSE LOOP, as a patch would.
        if let Node::If { then_block, .. } = &mut p.body.steps[0].node {
            then_block.steps.push(step(
                "",
                assign("x", binary(BinaryOp::Add, var("x"), int(1))),
            ));
        }
        let map = renumber(&mut p);
        let pairs: Vec<(&str, &str)> = map.iter().map(|(o, n)| (o.as_str(), n.as_str())).collect();
        assert_eq!(pairs, [("S1_3", "S1_4"), ("S1_3_1", "S1_4_1")]);
        assert_eq!(
            ids(&p),
            ["S1", "S1_1", "S1_2", "S1_3", "S1_4", "S1_4_1", "S2", "S2_1", "S3"]
        );
    }

    #[test]
    fn renumber_block_numbers_under_its_parent() {
        let mut b = block(vec![
            step("S9", assign("x", int(1))),
            step("", seq(vec![step("", ret(var("x")))])),
        ]);
        let mut map = Vec::new();
        renumber_block(&mut b, &[4, 2], &mut map);
        let got: Vec<_> = b
            .steps
            .iter()
            .map(|s| s.id.as_ref().map(|i| i.to_string()))
            .collect();
        assert_eq!(got, [Some("S4_2_1".into()), Some("S4_2_2".into())]);
        assert_eq!(map.len(), 1);
        assert_eq!((map[0].0.as_str(), map[0].1.as_str()), ("S9", "S4_2_1"));
    }
}
