//! Tests of the whole front end: text in, IIR or diagnostics out.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use isu_plugin_api::{ExprNode, Node};

fn parse_text(text: &str) -> Parsed {
    parse(&Source::new("t.isu", text))
}

#[test]
fn sum_evens_parses() {
    let text = include_str!("../../../examples/sum_evens.isu");
    let p = parse_text(text);
    assert!(p.diags.is_empty(), "{:#?}", p.diags);
    assert!(p.program.is_some());
}

const SEED_TEMPLATE: &str = "META:
  AUTO_ID: true
FUNC:
  NAME: f
  ARGS: []
  RETURNS: int
IO:
  INPUT: []
  OUTPUT: []
STATE: []
LOCAL: []
STEPS:
  SEQ: BEGIN
    ASSIGN:
      TARGET: x
      EXPR: (const 0)
    RETURN:
      EXPR: (var x)
  END
";

#[test]
fn seed_template_parses() {
    let p = parse_text(SEED_TEMPLATE);
    assert!(p.diags.is_empty(), "{:#?}", p.diags);
    let prog = p.program.unwrap();
    assert!(prog.auto_id);
    assert_eq!(prog.body.steps.len(), 2);
    assert!(prog.body.steps.iter().all(|s| s.id.is_none()));
}

const DESIGN_EXAMPLE: &str = "META:
  AUTO_ID: true
FUNC:
  NAME: sum_evens
  ARGS: [xs: int[]]
  RETURNS: int
IO:
  INPUT: [{\"xs\": [1, 2, 3, 4]}, {\"xs\": []}]
  OUTPUT: [6, 0]
STATE: [total: int = (const 0)]
LOCAL: [x: int]
STEPS:
  SEQ: BEGIN
    LOOP:
      ITER: (each x (var xs))
      BODY: {
        IF:
          COND: (eq (mod (var x) (const 2)) (const 0))
          THEN: BEGIN
            ASSIGN:
              TARGET: total
              EXPR: (add (var total) (var x))
          END
          ELSE: BEGIN
          END
      }
    RETURN:
      EXPR: (var total)
  END
";

#[test]
fn design_example_with_braces_parses() {
    let p = parse_text(DESIGN_EXAMPLE);
    assert!(p.diags.is_empty(), "{:#?}", p.diags);
}

const SEED_IF: &str = "FUNC:
  NAME: f
  ARGS: [xs: int[]]
  RETURNS: bool
LOCAL: [i: int]
STEPS:
  SEQ: BEGIN
    S1: ASSIGN
      TARGET: i
      EXPR: (const 0)
    S2: IF
      COND: (lt (var i) (LEN (var xs)))
      THEN: BEGIN
        S2_1: ASSIGN
          TARGET: i
          EXPR: (add (var i) (const 1))
      END
      ELSE: BEGIN
        S2_2: RETURN
          EXPR: (const false)
      END
    S3: RETURN
      EXPR: (const true)
  END
";

#[test]
fn seed_if_block_parses_with_function_shorthand() {
    let p = parse_text(SEED_IF);
    assert!(p.diags.is_empty(), "{:#?}", p.diags);
    let prog = p.program.unwrap();
    let Node::If { cond, .. } = &prog.body.steps[1].node else {
        panic!("not an IF")
    };
    let ExprNode::Binary { rhs, .. } = &cond.node else {
        panic!("not binary")
    };
    assert!(matches!(&rhs.node, ExprNode::Call { func, args } if func == "LEN" && args.len() == 1));
}
