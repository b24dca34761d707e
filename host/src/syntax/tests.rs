//! Tests of the whole front end: text in, IIR or diagnostics out. Every code
//! the parser emits is checked here with its line, column and wording.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;
use crate::diag::Code;
use isu_plugin_api::{BinaryOp, ExprNode, Iter, Literal, Node, Place, Type};

fn parse_text(text: &str) -> Parsed {
    parse(&Source::new("t.isu", text))
}

/// A program whose steps start on line 8, indented by four spaces.
fn prog(steps: &str) -> String {
    format!(
        "FUNC:\n  NAME: f\n  ARGS: [xs: int[]]\n  RETURNS: int\nLOCAL: [i: int]\nSTEPS:\n  SEQ: BEGIN\n{steps}  END\n"
    )
}

/// Asserts that parsing `text` reports `code` at `line`:`col` with exactly
/// `message`, and builds no program.
fn check_err(text: &str, code: Code, line: u32, col: u32, message: &str) -> Diagnostic {
    let p = parse_text(text);
    assert!(p.program.is_none(), "a program despite errors");
    find(&p.diags, code, line, col, message)
}

fn find(diags: &[Diagnostic], code: Code, line: u32, col: u32, message: &str) -> Diagnostic {
    let Some(d) = diags.iter().find(|d| d.code == code) else {
        panic!("no {code} among {diags:#?}");
    };
    let span = d.span.expect("a span");
    assert_eq!(
        (span.line, span.column, d.message.as_str()),
        (line, col, message),
        "{diags:#?}"
    );
    d.clone()
}

fn steps(p: &Program) -> &[Step] {
    &p.body.steps
}

// ---- Programs that parse ------------------------------------------------------

#[test]
fn sum_evens_parses_to_the_expected_structure() {
    let text = include_str!("../../../examples/sum_evens.isu");
    let p = parse_text(text);
    assert!(p.diags.is_empty(), "{:#?}", p.diags);
    let prog = p.program.unwrap();
    assert!(prog.auto_id);
    assert_eq!(prog.func.name.name, "sum_evens");
    assert_eq!(prog.func.args.len(), 1);
    assert_eq!(prog.func.args[0].name.name, "xs");
    assert_eq!(prog.func.args[0].ty, Type::array(Type::Int));
    assert_eq!(prog.func.returns, Type::Int);
    assert_eq!(prog.io.input.len(), 2);
    assert_eq!(prog.io.output[0].value, Literal::Int(6));
    // `{"xs": []}` on line 8, after `  INPUT: [{"xs": [1, 2, 3, 4]}, `.
    let second = prog.io.input[1].span;
    assert_eq!((second.line, second.col), (8, 33));
    assert_eq!(
        &text[second.lo as usize..second.hi as usize],
        "{\"xs\": []}"
    );
    assert_eq!(prog.state.len(), 1);
    assert_eq!(prog.state[0].name.name, "total");
    assert!(matches!(
        prog.state[0].init.node,
        ExprNode::Const {
            value: Literal::Int(0)
        }
    ));
    assert_eq!(prog.locals[0].name.name, "x");

    let [s1, s2] = steps(&prog) else {
        panic!("two steps")
    };
    assert_eq!(s1.id.as_ref().map(StepId::as_str), Some("S1"));
    assert_eq!(s1.desc.as_deref(), Some("add up the even elements"));
    // The step spans from its header to the end of its last field.
    assert_eq!((s1.span.line, s1.span.col), (14, 5));
    assert!(text[s1.span.lo as usize..s1.span.hi as usize].ends_with("      END"));
    let Node::Loop {
        iter: Iter::Each { var, seq, .. },
        body,
    } = &s1.node
    else {
        panic!("a LOOP over each")
    };
    assert_eq!(var.name, "x");
    assert!(matches!(&seq.node, ExprNode::Var { name } if name == "xs"));
    let Node::If {
        cond,
        then_block,
        else_block,
    } = &body.steps[0].node
    else {
        panic!("an IF")
    };
    assert!(else_block.steps.is_empty());
    let ExprNode::Binary {
        op: BinaryOp::Eq,
        lhs,
        ..
    } = &cond.node
    else {
        panic!("eq")
    };
    assert!(matches!(
        lhs.node,
        ExprNode::Binary {
            op: BinaryOp::Mod,
            ..
        }
    ));
    // `(mod (var x) (const 2))` starts at column 21 of line 18.
    assert_eq!((lhs.span.line, lhs.span.col), (18, 21));
    let Node::Assign { target, expr } = &then_block.steps[0].node else {
        panic!("an ASSIGN")
    };
    assert_eq!(
        then_block.steps[0].id.as_ref().map(StepId::as_str),
        Some("S1_1_1")
    );
    assert!(matches!(target, Place::Var { name, .. } if name == "total"));
    assert!(matches!(
        expr.node,
        ExprNode::Binary {
            op: BinaryOp::Add,
            ..
        }
    ));
    assert!(matches!(&s2.node, Node::Return { .. }));
}

#[test]
fn parsing_is_deterministic() {
    let text = include_str!("../../../examples/sum_evens.isu");
    let a = serde_json::to_string(&parse_text(text).program).unwrap();
    let b = serde_json::to_string(&parse_text(text).program).unwrap();
    assert_eq!(a, b);
}

#[test]
fn braces_and_begin_end_give_the_same_blocks() {
    let braces = prog("    S1: LOOP\n      ITER: (while (const false))\n      BODY: {\n        S1_1: RETURN\n          EXPR: (const 1)\n      }\n    S2: RETURN\n      EXPR: (const 0)\n");
    let begin = braces
        .replace("BODY: {", "BODY: BEGIN")
        .replace("      }\n", "      END\n");
    let a = parse_text(&braces).program.unwrap();
    let b = parse_text(&begin).program.unwrap();
    let shape = |p: &Program| match &p.body.steps[0].node {
        Node::Loop { body, .. } => body.steps.len(),
        _ => 0,
    };
    assert_eq!(shape(&a), 1);
    assert_eq!(shape(&a), shape(&b));
    // `THEN: { }` and `ELSE: {}` are empty blocks.
    let empty = prog("    S1: IF\n      COND: (const true)\n      THEN: { }\n      ELSE: {}\n    S2: RETURN\n      EXPR: (const 0)\n");
    assert!(parse_text(&empty).program.is_some());
}

#[test]
fn headers_without_ids_and_nested_seqs() {
    let text = prog("    ASSIGN:\n      TARGET: i\n      EXPR: (const 1)\n    SEQ: BEGIN\n      S2_1: SEQ BEGIN\n      END\n      S2_2: SEQ \"named\" BEGIN\n        RETURN:\n          EXPR: (var i)\n      END\n    END\n");
    let p = parse_text(&text);
    assert!(p.diags.is_empty(), "{:#?}", p.diags);
    let prog = p.program.unwrap();
    let [s1, s2] = steps(&prog) else {
        panic!("two steps")
    };
    assert_eq!(s1.id, None);
    assert_eq!(s2.id, None);
    let Node::Seq { block } = &s2.node else {
        panic!("a SEQ")
    };
    assert_eq!(block.steps[0].id.as_ref().map(StepId::as_str), Some("S2_1"));
    assert_eq!(block.steps[1].desc.as_deref(), Some("named"));
    assert!(matches!(&block.steps[1].node, Node::Seq { block } if block.steps.len() == 1));
}

#[test]
fn comments_blank_lines_and_crlf() {
    let text = prog("    ; a comment line\n\n    S1: RETURN\n        ; between fields\n      EXPR: (add (const 1)\n        ; inside an expression\n        (const 2))\n");
    let crlf = format!("; leading comment\r\n{}", text.replace('\n', "\r\n"));
    for t in [text, crlf] {
        let p = parse_text(&t);
        assert!(p.diags.is_empty(), "{:#?}", p.diags);
        assert!(p.program.is_some());
    }
}

#[test]
fn a_lone_carriage_return_is_refused_at_the_first_one() {
    // Old Mac line ends: without the check, the leading comment would run
    // to the end of the text and the error would be a missing FUNC.
    let text = prog("    S1: RETURN\n      EXPR: (const 1)\n");
    let cr_only = format!("; leading comment\r{}", text.replace('\n', "\r"));
    let p = parse_text(&cr_only);
    assert_eq!(p.diags.len(), 1, "{:#?}", p.diags);
    find(
        &p.diags,
        Code::LoneCarriageReturn,
        1,
        18,
        "a carriage return (CR) that is not followed by a line feed: Isu lines end with LF or CRLF",
    );
    // One stray CR in a CRLF file, on its third line.
    let mixed = text.replace('\n', "\r\n").replacen("ARGS:", "AR\rGS:", 1);
    check_err(
        &mixed,
        Code::LoneCarriageReturn,
        3,
        5,
        "a carriage return (CR) that is not followed by a line feed: Isu lines end with LF or CRLF",
    );
    let (patch, diags) = parse_patch(&Source::new("p", "PATCH:\r  DELETE S1\r"));
    assert!(patch.is_none());
    assert_eq!(
        diags.iter().map(|d| d.code).collect::<Vec<_>>(),
        [Code::LoneCarriageReturn]
    );
}

#[test]
fn omitted_sections_are_empty() {
    let p = parse_text(&prog("    RETURN:\n      EXPR: (const 0)\n"));
    let prog = p.program.unwrap();
    assert!(!prog.auto_id);
    assert!(prog.io.input.is_empty() && prog.io.output.is_empty());
    assert!(prog.state.is_empty());
    assert_eq!(prog.locals.len(), 1);
}

#[test]
fn every_expression_place_iterator_and_type() {
    let text = "FUNC:\n  NAME: g\n  ARGS: [m: map<string,int[]>, b: bool[][]]\n  RETURNS: string\nSTATE: [s: string = (const \"a\\u00e9\\n\")]\nLOCAL: [i: int]\nSTEPS:\n  SEQ: BEGIN\n    S1: LOOP\n      ITER: (range i (const 0) (const 10) (const -2))\n      BODY: BEGIN\n        S1_1: ASSIGN\n          TARGET: (index (index m (const \"k\")) (var i))\n          EXPR: (neg (call math.GCD (const 4) (MAX (const 1) (const 2))))\n      END\n    S2: RETURN\n      EXPR: (index (var b) (not (or (const true) (const false))))\n  END\n";
    let p = parse_text(text);
    assert!(p.diags.is_empty(), "{:#?}", p.diags);
    let prog = p.program.unwrap();
    assert_eq!(prog.func.args[0].ty.to_string(), "map<string,int[]>");
    assert_eq!(prog.func.args[1].ty.to_string(), "bool[][]");
    assert!(
        matches!(&prog.state[0].init.node, ExprNode::Const { value: Literal::Str(s) } if s == "aé\n")
    );
    let Node::Loop {
        iter: Iter::Range {
            step: Some(step), ..
        },
        body,
    } = &prog.body.steps[0].node
    else {
        panic!("a range with a step")
    };
    assert!(matches!(
        step.node,
        ExprNode::Const {
            value: Literal::Int(-2)
        }
    ));
    let Node::Assign {
        target: Place::Index { base, .. },
        expr,
    } = &body.steps[0].node
    else {
        panic!("an element place")
    };
    assert!(matches!(&**base, Place::Index { .. }));
    let ExprNode::Unary { arg, .. } = &expr.node else {
        panic!("neg")
    };
    let ExprNode::Call { func, args } = &arg.node else {
        panic!("a call")
    };
    assert_eq!(func, "math.GCD");
    assert!(matches!(&args[1].node, ExprNode::Call { func, .. } if func == "MAX"));
}

// ---- Lexical errors -------------------------------------------------------------

#[test]
fn tab_character() {
    let text = prog("    S1: RETURN\n\t\tEXPR: (const 0)\n");
    let d = check_err(
        &text,
        Code::TabCharacter,
        9,
        1,
        "tab character: Isu text indents with spaces only",
    );
    assert_eq!(d.hint.as_deref(), Some("replace each tab with spaces"));
    // One report per line.
    let p = parse_text(&text);
    assert_eq!(
        p.diags
            .iter()
            .filter(|d| d.code == Code::TabCharacter)
            .count(),
        1
    );
}

#[test]
fn invalid_character() {
    let text = prog("    S1: RETURN\n      EXPR: (add (var i) @ (const 1))\n");
    check_err(
        &text,
        Code::InvalidCharacter,
        9,
        26,
        "unexpected character `@` (U+0040): no Isu token starts with it",
    );
    // A string in single quotes is one error, read as the string it means.
    let text = prog("    S1: RETURN\n      EXPR: (const 'x')\n");
    let p = parse_text(&text);
    assert_eq!(p.diags.len(), 1, "{:#?}", p.diags);
    let d = find(
        &p.diags,
        Code::InvalidCharacter,
        9,
        20,
        "'x' is a string in single quotes: Isu strings use double quotes",
    );
    assert_eq!(d.hint.as_deref(), Some("write \"x\""));
    assert_eq!(d.step.as_ref().map(StepId::as_str), Some("S1"));
    // A `;` after a token is not a comment.
    let text = prog("    S1: RETURN ; the end\n      EXPR: (const 0)\n");
    check_err(
        &text,
        Code::InvalidCharacter,
        8,
        16,
        "unexpected character `;` (U+003B): no Isu token starts with it",
    );
}

#[test]
fn unterminated_string() {
    let text = prog("    S1: RETURN \"no end\n      EXPR: (const 0)\n");
    check_err(
        &text,
        Code::UnterminatedString,
        8,
        16,
        "unterminated string: its closing `\"` is missing on this line",
    );
}

#[test]
fn invalid_escape() {
    let text = prog("    S1: RETURN\n      EXPR: (const \"a\\qb\")\n");
    check_err(
        &text,
        Code::InvalidEscape,
        9,
        22,
        "invalid escape `\\q` in a string: JSON does not define this escape",
    );
}

#[test]
fn int_out_of_range() {
    let text = prog("    S1: RETURN\n      EXPR: (const 9223372036854775808)\n");
    check_err(&text, Code::IntOutOfRange, 9, 20, "`9223372036854775808` does not fit in a 64-bit signed integer (-9223372036854775808 to 9223372036854775807)");
}

#[test]
fn invalid_number() {
    let text = prog("    S1: RETURN\n      EXPR: (const 1e400)\n");
    check_err(
        &text,
        Code::InvalidNumber,
        9,
        20,
        "`1e400` is beyond the float range: floats are finite, at most 1.7976931348623157e+308 in size",
    );
    let text = prog("    S1: RETURN\n      EXPR: (const -007)\n");
    let d = check_err(
        &text,
        Code::InvalidNumber,
        9,
        20,
        "`-007` has a leading zero: numbers are written as in JSON",
    );
    assert_eq!(d.hint.as_deref(), Some("write -7"));
}

#[test]
fn invalid_step_id() {
    let text = prog("    S01: RETURN\n      EXPR: (const 0)\n");
    let d = check_err(&text, Code::InvalidStepId, 8, 5, "`S01` is not a step ID: a step ID is S followed by positive numbers joined by `_`, without leading zeros (S1, S2_1, S2_1_3)");
    assert_eq!(d.hint.as_deref(), Some("write S1"));
    let text = prog("    S1_: RETURN\n      EXPR: (const 0)\n");
    check_err(&text, Code::InvalidStepId, 8, 5, "`S1_` is not a step ID: a step ID is S followed by positive numbers joined by `_`, without leading zeros (S1, S2_1, S2_1_3)");
}

// ---- Structure errors -----------------------------------------------------------

#[test]
fn unclosed_block_at_the_end_of_the_file() {
    let text = "FUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (const 0)\n";
    let d = check_err(text, Code::UnclosedBlock, 6, 8, "expected END to close the BEGIN of the root SEQ opened at line 6, found the end of the file");
    assert_eq!(d.labels[0].message, "END expected here");
}

#[test]
fn unclosed_block_found_by_indentation() {
    let text = prog("    S1: IF\n      COND: (const true)\n      THEN: BEGIN\n        S1_1: RETURN\n          EXPR: (const 1)\n      ELSE: BEGIN\n      END\n    S2: RETURN\n      EXPR: (const 0)\n");
    let p = parse_text(&text);
    assert_eq!(p.diags.len(), 1, "{:#?}", p.diags);
    find(&p.diags, Code::UnclosedBlock, 10, 13, "expected END to close the BEGIN of S1's THEN opened at line 10, before line 13, which is indented no deeper than line 10");
}

#[test]
fn unclosed_expression_before_a_keyword() {
    let text = prog("    S1: IF\n      COND: (lt (var i) (const 1)\n      THEN: BEGIN\n      END\n      ELSE: BEGIN\n      END\n    S2: RETURN\n      EXPR: (var i)\n");
    let p = parse_text(&text);
    assert_eq!(p.diags.len(), 1, "{:#?}", p.diags);
    let d = find(
        &p.diags,
        Code::UnclosedBlock,
        9,
        13,
        "expected `)` to close the `(` in S1's COND opened at line 9, before line 10: an expression ends before the next field or step",
    );
    assert_eq!((d.labels[0].span.line, d.labels[0].span.column), (9, 34));
    let fix = d.fix.expect("a fix");
    let edits: Vec<_> = fix
        .edits
        .iter()
        .map(|e| (e.span.line, e.span.column, e.replacement.as_str()))
        .collect();
    assert_eq!(edits, [(9, 34, ")")]);
}

#[test]
fn mismatched_close() {
    let text = prog("    S1: IF\n      COND: (const true)\n      THEN: BEGIN\n        S1_1: RETURN\n          EXPR: (var i)\n      )\n      ELSE: BEGIN\n      END\n");
    let p = parse_text(&text);
    assert_eq!(p.diags.len(), 1, "{:#?}", p.diags);
    let d = find(
        &p.diags,
        Code::MismatchedClose,
        13,
        7,
        "expected END to close the BEGIN of S1's THEN opened at line 10, found `)`",
    );
    assert_eq!(d.labels[0].message, "opened here");
    assert_eq!(d.labels[0].span.line, 10);
    // A `]` closing a `(` whose `[` is further out.
    let text = prog("    S1: RETURN\n      EXPR: (const [1, (2])\n");
    check_err(
        &text,
        Code::MismatchedClose,
        9,
        26,
        "expected `)` to close the `(` in S1's EXPR opened at line 9, found `]`",
    );
}

#[test]
fn unmatched_close() {
    let text = prog("    S1: RETURN\n      EXPR: (var i))\n");
    check_err(&text, Code::UnmatchedClose, 9, 20, "unmatched `)` in S1's EXPR: no `(` is open here (the innermost open one is the BEGIN of the root SEQ opened at line 7)");
    let text = prog("    S1: IF\n      COND: (const true)\n      THEN: BEGIN\n      END\n      END\n      ELSE: BEGIN\n      END\n");
    let p = parse_text(&text);
    assert_eq!(p.diags.len(), 1, "{:#?}", p.diags);
    find(
        &p.diags,
        Code::UnmatchedClose,
        12,
        7,
        "unmatched END: the BEGIN of S1's THEN opened at line 10 was already closed at line 11",
    );
    let text = "END\nFUNC:\n";
    check_err(
        text,
        Code::UnmatchedClose,
        1,
        1,
        "unmatched END: no BEGIN is open here",
    );
}

#[test]
fn nesting_too_deep_is_refused_without_overflowing_the_stack() {
    for (open, close) in [("(", ")"), ("BEGIN\n", "END\n"), ("[", "]")] {
        let depth = 10_000;
        let text = prog(&format!(
            "    S1: RETURN\n      EXPR: {}{}\n",
            open.repeat(depth),
            close.repeat(depth)
        ));
        let p = parse_text(&text);
        assert!(p.program.is_none());
        let d = p
            .diags
            .iter()
            .find(|d| d.code == Code::NestingTooDeep)
            .expect("nesting_too_deep");
        assert_eq!(
            d.message,
            "nesting too deep: more than 100 blocks, parentheses and brackets are open here"
        );
    }
    // Blocks nested 10 000 deep, as steps.
    let mut text = String::new();
    for _ in 0..10_000 {
        text.push_str("SEQ: BEGIN\n");
    }
    for _ in 0..10_000 {
        text.push_str("END\n");
    }
    let p = parse_text(&prog(&text));
    assert!(p.diags.iter().any(|d| d.code == Code::NestingTooDeep));
    // Just below the limit is fine.
    let depth = MAX_NESTING - 2;
    let expr = format!(
        "{}(const 1){}",
        "(neg ".repeat(depth - 1),
        ")".repeat(depth - 1)
    );
    let p = parse_text(&prog(&format!("    S1: RETURN\n      EXPR: {expr}\n")));
    assert!(p.diags.is_empty(), "{:#?}", p.diags);
}

// ---- Grammar errors ---------------------------------------------------------------

#[test]
fn unexpected_token_in_words() {
    let text = prog(
        "    S1: IF\n      COND: (const true)\n      THEN: (var i)\n      ELSE: BEGIN\n      END\n",
    );
    let d = check_err(
        &text,
        Code::UnexpectedToken,
        10,
        13,
        "expected BEGIN or `{` to open the THEN block of S1, found `(`",
    );
    assert_eq!(d.step.as_ref().map(StepId::as_str), Some("S1"));
    let text = prog("    S1: IF check bounds\n      COND: (const true)\n");
    let d = check_err(&text, Code::UnexpectedToken, 8, 12, "a step's description is a JSON string: write `S1: IF \"check bounds\"`, found the name `check`");
    assert_eq!(d.hint.as_deref(), Some("write S1: IF \"check bounds\""));
    let text = "FUNC:\n  NAME: f\n  ARGS: [a: int,]\n  RETURNS: int\n";
    check_err(
        text,
        Code::UnexpectedToken,
        3,
        17,
        "expected a name inside the `[` in FUNC's ARGS opened at line 3, found `]`",
    );
    let text = prog("    S1: RETURN\n      EXPR: (const {\"a\" 1})\n");
    check_err(&text, Code::UnexpectedToken, 9, 25, "expected `:` after the key \"a\" of a JSON object (written {\"key\": value}), found the number 1");
    let text = "FUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nSTATE: [t: int (const 0)]\n";
    check_err(text, Code::UnexpectedToken, 5, 16, "expected `=` and the initial value: a STATE variable is written name: type = EXPR, found `(`");
    let text = "x\nFUNC:\n";
    check_err(
        text,
        Code::UnexpectedToken,
        1,
        1,
        "expected a section (META, FUNC, TYPES, IO, STATE, LOCAL or STEPS), found the name `x`",
    );
}

#[test]
fn unexpected_end() {
    let text = "FUNC:\n  NAME: f\n  ARGS: []\n  RETURNS:\n";
    check_err(text, Code::UnexpectedEnd, 5, 1, "expected a type after RETURNS: (int, float, bool, string, T[] or map<K,V>), found the end of the file");
}

#[test]
fn missing_field() {
    // ELSE may be left out: the IF has an empty one.
    let text = prog("    S1: IF\n      COND: (const true)\n      THEN: BEGIN\n      END\n    S2: RETURN\n      EXPR: (const 0)\n");
    let p = parse_text(&text)
        .program
        .expect("an IF without ELSE parses");
    assert!(
        matches!(&p.body.steps[0].node, Node::If { else_block, .. } if else_block.steps.is_empty())
    );
    let text =
        prog("    S1: IF\n      THEN: BEGIN\n      END\n    S2: RETURN\n      EXPR: (const 0)\n");
    let d = check_err(
        &text,
        Code::MissingField,
        8,
        5,
        "expected COND: after the header of S1 (IF needs COND, THEN and ELSE, in this order)",
    );
    assert_eq!(d.step.as_ref().map(StepId::as_str), Some("S1"));
    let text = prog("    LOOP:\n      BODY: BEGIN\n      END\n");
    check_err(&text, Code::MissingField, 8, 5, "expected ITER: after the header of the LOOP at line 8 (LOOP needs ITER and BODY, in this order)");
    let text = prog("    S1: ASSIGN\n      TARGET: i\n    S2: RETURN\n      EXPR: (var i)\n");
    check_err(
        &text,
        Code::MissingField,
        8,
        5,
        "expected EXPR: after the TARGET of S1 (ASSIGN needs TARGET and EXPR, in this order)",
    );
    let text = "FUNC:\n  NAME: f\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n  END\n";
    check_err(
        text,
        Code::MissingField,
        1,
        1,
        "expected ARGS: after the NAME of FUNC (FUNC needs NAME, ARGS and RETURNS, in this order)",
    );
    // A field that belongs elsewhere, a repeated field.
    let text = prog("    S1: RETURN\n      BODY: BEGIN\n      END\n");
    check_err(
        &text,
        Code::UnexpectedToken,
        9,
        7,
        "BODY: does not belong in S1 (the fields of RETURN are EXPR; BODY is a field of LOOP)",
    );
    let text = prog("    S1: RETURN\n      EXPR: (const 0)\n      EXPR: (const 1)\n");
    check_err(&text, Code::UnexpectedToken, 10, 7, "S1 has EXPR twice");
}

#[test]
fn fields_and_sections_in_any_order_are_accepted_with_a_warning() {
    let text = prog("    S1: IF\n      THEN: BEGIN\n      END\n      COND: (const true)\n      ELSE: BEGIN\n      END\n    S2: RETURN\n      EXPR: (const 0)\n");
    let p = parse_text(&text);
    assert!(p.program.is_some(), "{:#?}", p.diags);
    let d = find(
        &p.diags,
        Code::FieldOrder,
        11,
        7,
        "COND: comes before THEN: in S1 (the fields of IF go COND, THEN and ELSE, in this order)",
    );
    assert_eq!(d.severity, crate::diag::Severity::Warning);
    let text =
        "STEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (const 0)\n  END\nLOCAL: []\nFUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\n";
    let p = parse_text(text);
    assert!(p.program.is_some(), "{:#?}", p.diags);
    let warnings: Vec<(u32, &str)> = p
        .diags
        .iter()
        .map(|d| (d.span.map_or(0, |s| s.line), d.message.as_str()))
        .collect();
    assert_eq!(
        warnings,
        [
            (6, "LOCAL comes before STEPS in the canonical order of sections (META, FUNC, TYPES, IO, STATE, LOCAL, STEPS)"),
            (7, "FUNC comes before STEPS in the canonical order of sections (META, FUNC, TYPES, IO, STATE, LOCAL, STEPS)"),
        ]
    );
}

#[test]
fn section_order() {
    let text = "FUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nLOCAL: []\nLOCAL: []\nSTEPS:\n  SEQ: BEGIN\n  END\n";
    let d = check_err(
        text,
        Code::SectionOrder,
        6,
        1,
        "LOCAL appears twice: a program has one LOCAL section",
    );
    assert_eq!(d.labels[0].span.line, 5);
}

#[test]
fn missing_section() {
    let text = "STEPS:\n  SEQ: BEGIN\n  END\n";
    check_err(text, Code::MissingSection, 1, 1, "missing FUNC section: a program gives FUNC: with NAME, ARGS and RETURNS after META (if any) and before IO");
    let text = "FUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\n";
    check_err(
        text,
        Code::MissingSection,
        5,
        1,
        "missing STEPS section: the steps come last, as STEPS: SEQ: BEGIN ... END",
    );
    let text = "FUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\n  SEQ: BEGIN\n  END\n";
    check_err(
        text,
        Code::MissingSection,
        5,
        3,
        "steps stand only under STEPS: as STEPS: SEQ: BEGIN ... END, found SEQ",
    );
}

#[test]
fn several_errors_are_reported() {
    let text = prog("    S1: IF\n      COND: (const true)\n      THEN: BEGIN\n      END\n      ELSE: BEGIN\n      END\n    S2: RETURN\n      EXPR:\n    S3: ASSIGN\n      TARGET: i\n      EXPR: (plus (var i) 1)\n    S4: RETURN\n      EXPR: (const 0)\n");
    let p = parse_text(&text);
    let codes: Vec<(Code, u32)> = p
        .diags
        .iter()
        .map(|d| (d.code, d.span.map_or(0, |s| s.line)))
        .collect();
    assert_eq!(
        codes,
        vec![(Code::UnexpectedToken, 16), (Code::UnknownOperator, 18)]
    );
    assert_eq!(p.diags[0].message, "expected an expression after EXPR: of S2, such as (var x) or (const 1), found the step ID S3");
    assert_eq!(
        p.diags[1].hint.as_deref(),
        Some("did you mean `add`? write (add (var i) (const 1))")
    );
}

#[test]
fn a_lexical_error_is_not_reported_again_by_the_grammar() {
    let text = prog("    S1: RETURN\n      EXPR: @\n");
    let p = parse_text(&text);
    assert_eq!(p.diags.len(), 1, "{:#?}", p.diags);
    assert_eq!(p.diags[0].code, Code::InvalidCharacter);
}

// ---- Lowering errors ---------------------------------------------------------------

#[test]
fn unknown_operator() {
    let text = prog("    S1: RETURN\n      EXPR: (plus (var i) (const 1))\n");
    let d = check_err(&text, Code::UnknownOperator, 9, 14, "unknown operator `plus`: the operators are const var add sub mul div mod neg eq ne lt le gt ge and or not index call struct field if list");
    assert_eq!(
        d.hint.as_deref(),
        Some("did you mean `add`? write (add (var i) (const 1))")
    );
    assert_eq!(d.step.as_ref().map(StepId::as_str), Some("S1"));
    let text = prog("    S1: RETURN\n      EXPR: (len (var xs))\n");
    let d = check_err(&text, Code::UnknownOperator, 9, 14, "unknown operator `len`: the operators are const var add sub mul div mod neg eq ne lt le gt ge and or not index call struct field if list");
    assert_eq!(
        d.hint.as_deref(),
        Some("to call the standard function LEN write (call LEN (var xs))")
    );
}

#[test]
fn wrong_operand_count() {
    let text = prog("    S1: RETURN\n      EXPR: (sub (var a) (var b) (var c))\n");
    let d = check_err(
        &text,
        Code::WrongOperandCount,
        9,
        13,
        "`sub` takes exactly 2 operands, found 3",
    );
    assert_eq!(
        d.hint.as_deref(),
        Some("(sub A B) combines two values; compute the rest in another expression or step")
    );
    let text = prog("    S1: RETURN\n      EXPR: (mul (var a))\n");
    check_err(
        &text,
        Code::WrongOperandCount,
        9,
        13,
        "`mul` takes two or more operands, found 1",
    );
    let text = prog("    S1: RETURN\n      EXPR: (list)\n");
    let d = check_err(
        &text,
        Code::WrongOperandCount,
        9,
        13,
        "`list` takes one or more elements, found none",
    );
    assert_eq!(
        d.hint.as_deref(),
        Some("the empty array is a constant: write (const [])")
    );
    let text = prog("    S1: RETURN\n      EXPR: (and (var a))\n");
    check_err(
        &text,
        Code::WrongOperandCount,
        9,
        13,
        "`and` takes two or more operands, found 1",
    );
    let text = prog("    S1: RETURN\n      EXPR: (neg (var a) (var b))\n");
    check_err(
        &text,
        Code::WrongOperandCount,
        9,
        13,
        "`neg` takes exactly 1 operand, found 2",
    );
    let text = prog("    S1: RETURN\n      EXPR: (const 1 2)\n");
    check_err(
        &text,
        Code::WrongOperandCount,
        9,
        13,
        "`const` takes exactly 1 operand, a JSON literal, found 2",
    );
}

#[test]
fn invalid_expression() {
    let text = prog("    S1: RETURN\n      EXPR: (add (var i) 1)\n");
    let d = check_err(
        &text,
        Code::InvalidExpression,
        9,
        26,
        "a bare 1 is not an expression: write (const 1) for a constant",
    );
    assert_eq!(d.hint.as_deref(), Some("write (const 1)"));
    let text = prog("    S1: RETURN\n      EXPR: i\n");
    check_err(
        &text,
        Code::InvalidExpression,
        9,
        13,
        "a bare name is not an expression: write (var i) to read the variable",
    );
    let text = prog("    S1: RETURN\n      EXPR: (var S1)\n");
    check_err(
        &text,
        Code::InvalidExpression,
        9,
        18,
        "`S1` is a step ID, not a value: names of the form S1, S2_1 are reserved for steps",
    );
    let text = prog("    S1: RETURN\n      EXPR: ()\n");
    check_err(&text, Code::InvalidExpression, 9, 13, "`()` is not an expression: an expression is (OPERATOR operands...), such as (var x) or (const 1)");
}

#[test]
fn invalid_literal() {
    let text = prog("    S1: RETURN\n      EXPR: (const null)\n");
    check_err(
        &text,
        Code::InvalidLiteral,
        9,
        20,
        "null is not an Isu value: Isu has no null",
    );
    let text = prog("    S1: RETURN\n      EXPR: (const {\"a\": 1, \"a\": 2})\n");
    let d = check_err(
        &text,
        Code::InvalidLiteral,
        9,
        29,
        "the key \"a\" appears twice in this object",
    );
    assert_eq!((d.labels[0].span.line, d.labels[0].span.column), (9, 21));
    let text = prog("    S1: RETURN\n      EXPR: (const (var i))\n");
    check_err(
        &text,
        Code::InvalidLiteral,
        9,
        20,
        "`const` takes a JSON literal such as 1, \"s\", true, [1, 2] or {\"a\": 1}, found (var i)",
    );
    let text = "FUNC:\n  NAME: f\n  ARGS: []\n  RETURNS: int\nIO:\n  INPUT: [[1]]\n  OUTPUT: [1]\nSTEPS:\n  SEQ: BEGIN\n  END\n";
    check_err(
        text,
        Code::InvalidLiteral,
        6,
        11,
        "each INPUT example is a JSON object from argument names to values",
    );
}

#[test]
fn invalid_type() {
    let text = "FUNC:\n  NAME: f\n  ARGS: [a: integer]\n  RETURNS: list<int,int>\nSTEPS:\n  SEQ: BEGIN\n  END\n";
    let p = parse_text(text);
    let d = find(
        &p.diags,
        Code::InvalidType,
        3,
        13,
        "unknown type `integer`: the types are int, float, bool, string, T[] and map<K,V>",
    );
    assert_eq!(d.hint.as_deref(), Some("write int"));
    let second = p
        .diags
        .iter()
        .filter(|d| d.code == Code::InvalidType)
        .nth(1)
        .unwrap();
    assert_eq!(
        second.message,
        "unknown type `list<int,int>`: the types are int, float, bool, string, T[] and map<K,V> (2 parameters)"
    );
}

#[test]
fn invalid_place() {
    let text = prog("    S1: ASSIGN\n      TARGET: (var i)\n      EXPR: (const 1)\n");
    let d = check_err(
        &text,
        Code::InvalidPlace,
        9,
        15,
        "a TARGET names the variable itself: write `i`, not (var i)",
    );
    assert_eq!(d.step.as_ref().map(StepId::as_str), Some("S1"));
    let text = prog("    S1: ASSIGN\n      TARGET: (const 1)\n      EXPR: (const 1)\n");
    check_err(
        &text,
        Code::InvalidPlace,
        9,
        15,
        "a TARGET is a variable name or an element place (index PLACE EXPR), found (const 1)",
    );
}

#[test]
fn invalid_iter() {
    let text = prog("    S1: LOOP\n      ITER: (for i 0 10)\n      BODY: BEGIN\n      END\n");
    let d = check_err(&text, Code::InvalidIter, 9, 13, "an ITER is (range i A B), (range i A B STEP), (each x EXPR) or (while COND), found (for i 0 10)");
    assert_eq!(d.hint.as_deref(), Some("a counting loop is (range i A B)"));
    let text =
        prog("    S1: LOOP\n      ITER: (range i (const 0))\n      BODY: BEGIN\n      END\n");
    check_err(
        &text,
        Code::InvalidIter,
        9,
        13,
        "`range` is written (range i A B) or (range i A B STEP), found 2 operands",
    );
    let text =
        prog("    S1: LOOP\n      ITER: (each (var i) (var xs))\n      BODY: BEGIN\n      END\n");
    check_err(
        &text,
        Code::InvalidIter,
        9,
        19,
        "the loop variable is written bare: (each i ...), not (var i)",
    );
}

// ---- Patch files -------------------------------------------------------------------

fn patch_text(text: &str) -> (Option<PatchFile>, Vec<Diagnostic>) {
    parse_patch(&Source::new("p.isu", text))
}

#[test]
fn a_patch_with_every_entry() {
    let (patch, diags) = patch_text("; fix the loop\nPATCH:\n  REPLACE S2_1:\n    S2_1: ASSIGN \"start at one\"\n      TARGET: i\n      EXPR: (const 1)\n  INSERT_AFTER S2:\n    S3: RETURN\n      EXPR: (var i)\n    RETURN:\n      EXPR: (const 0)\n  DELETE S4\n");
    assert!(diags.is_empty(), "{diags:#?}");
    let entries = patch.unwrap().entries;
    assert_eq!(entries.len(), 3);
    let heads: Vec<String> = entries.iter().map(PatchEntry::head).collect();
    assert_eq!(heads, ["REPLACE S2_1", "INSERT_AFTER S2", "DELETE S4"]);
    let PatchItems::Steps(steps) = &entries[0].items else {
        panic!("REPLACE")
    };
    assert_eq!(steps[0].desc.as_deref(), Some("start at one"));
    assert_eq!((entries[0].span.line, entries[0].span.col), (3, 3));
    let PatchItems::Steps(steps) = &entries[1].items else {
        panic!("INSERT_AFTER")
    };
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[1].id, None);
    assert_eq!(entries[2].items, PatchItems::None);
    assert_eq!(entries[2].step().map(StepId::as_str), Some("S4"));
}

#[test]
fn patch_entries_on_blocks_and_declarations() {
    let (patch, diags) = patch_text("PATCH:\n  INSERT_BEFORE S2:\n    RETURN:\n      EXPR: (const 0)\n  INSERT_INTO S3 ELSE:\n    RETURN:\n      EXPR: (const 1)\n  INSERT_INTO STEPS:\n    RETURN:\n      EXPR: (const 2)\n  REPLACE STATE t: [t: int = (const 1)]\n  INSERT_AFTER LOCAL x: [y: int, z: point]\n  INSERT_INTO TYPES: [point = {x: int}]\n  DELETE STATE n\n");
    assert!(diags.is_empty(), "{diags:#?}");
    let entries = patch.unwrap().entries;
    let heads: Vec<String> = entries.iter().map(PatchEntry::head).collect();
    assert_eq!(
        heads,
        [
            "INSERT_BEFORE S2",
            "INSERT_INTO S3 ELSE",
            "INSERT_INTO STEPS",
            "REPLACE STATE t",
            "INSERT_AFTER LOCAL x",
            "INSERT_INTO TYPES",
            "DELETE STATE n"
        ]
    );
    assert_eq!(entries[4].items.len(), 2);
    // A struct named in a patch is a type, whether the patch or the program declares it.
    let PatchItems::Local(decls) = &entries[4].items else {
        panic!("LOCAL")
    };
    assert_eq!(decls[1].ty, Type::Struct("point".to_owned()));
}

#[test]
fn patch_entries_that_take_other_things() {
    let check = |text: &str, message: &str| {
        let (patch, diags) = patch_text(text);
        assert!(patch.is_none());
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert_eq!(diags[0].code, Code::InvalidPatch);
        assert_eq!(diags[0].message, message);
        assert!(diags[0].hint.is_some());
    };
    check(
        "PATCH:\n  REPLACE STATE t: [t: int = (const 1), u: int = (const 2)]\n",
        "REPLACE STATE t: takes exactly one entry, found 2",
    );
    check(
        "PATCH:\n  INSERT_INTO STATE t: [u: int = (const 2)]\n",
        "INSERT_INTO STATE t: INSERT_INTO names a section, not an entry",
    );
    check(
        "PATCH:\n  REPLACE LOCAL: [u: int]\n",
        "REPLACE LOCAL: name the entry it edits",
    );
    check(
        "PATCH:\n  REPLACE S2 THEN:\n    RETURN:\n      EXPR: (const 0)\n",
        "REPLACE S2 THEN: only INSERT_INTO names a block of a step",
    );
    check(
        "PATCH:\n  INSERT_AFTER STEPS:\n    RETURN:\n      EXPR: (const 0)\n",
        "INSERT_AFTER STEPS: only INSERT_INTO names the root block",
    );
    check(
        "PATCH:\n  INSERT_BEFORE S2:\n",
        "INSERT_BEFORE S2: needs at least one step after it",
    );
    check(
        "PATCH:\n  INSERT_INTO LOCAL: []\n",
        "INSERT_INTO LOCAL: needs at least one entry after it",
    );
}

#[test]
fn invalid_patch() {
    let check = |text: &str, line: u32, col: u32, message: &str| {
        let (patch, diags) = patch_text(text);
        assert!(patch.is_none());
        find(&diags, Code::InvalidPatch, line, col, message);
    };
    check(
        "REPLACE S2:\n  S2: RETURN\n    EXPR: (const 1)\n",
        1,
        1,
        "a patch starts with `PATCH:`, found REPLACE",
    );
    check(
        "PATCH:\n  REPLACE S2:\n",
        2,
        3,
        "REPLACE S2: takes exactly one step, found 0",
    );
    check("PATCH:\n  REPLACE S2:\n    RETURN:\n      EXPR: (const 1)\n    RETURN:\n      EXPR: (const 2)\n", 2, 3, "REPLACE S2: takes exactly one step, found 2");
    check(
        "PATCH:\n  INSERT_AFTER S2:\n  DELETE S3\n",
        2,
        3,
        "INSERT_AFTER S2: needs at least one step after it",
    );
    check("PATCH:\n  DELETE S3\n    RETURN:\n      EXPR: (const 1)\n", 3, 5, "DELETE S3 takes no step after it (to change S3 write REPLACE S3: and the new step), found RETURN");
    check(
        "PATCH:\n  REPLACE S2\n  S2: RETURN\n    EXPR: (const 1)\n",
        3,
        3,
        "expected `:` after REPLACE S2, found the step ID S2",
    );
    check(
        "PATCH:\n  MOVE S2\n",
        2,
        3,
        "expected REPLACE S2:, INSERT_AFTER S2:, INSERT_BEFORE S2:, INSERT_INTO S2 THEN:, DELETE S2, or the same on STATE, LOCAL or TYPES entries (REPLACE STATE total:) after PATCH:, found the name `MOVE`",
    );
    // Errors inside a patch's steps are the usual ones.
    let (_, diags) = patch_text(
        "PATCH:\n  REPLACE S2:\n    S2: RETURN\n      EXPR: (plus (const 1) (const 2))\n",
    );
    find(&diags, Code::UnknownOperator, 4, 14, "unknown operator `plus`: the operators are const var add sub mul div mod neg eq ne lt le gt ge and or not index call struct field if list");
}

// ---- Any input ---------------------------------------------------------------------

mod any_input {
    use super::*;
    use proptest::prelude::*;

    const SAMPLE: &str = include_str!("../../../examples/sum_evens.isu");

    fn fragment() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("BEGIN ".to_owned()),
            Just("END ".to_owned()),
            Just("(".to_owned()),
            Just(")".to_owned()),
            Just("{".to_owned()),
            Just("}".to_owned()),
            Just("[".to_owned()),
            Just("]".to_owned()),
            Just(": ".to_owned()),
            Just("S1: IF ".to_owned()),
            Just("COND: ".to_owned()),
            Just("\"".to_owned()),
            Just("\n".to_owned()),
            Just("\t".to_owned()),
            Just("PATCH:".to_owned()),
            Just("REPLACE S1:".to_owned()),
            "[a-z]{1,4}",
            "-?[0-9]{1,25}",
            any::<char>().prop_map(String::from),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// Cutting a valid program and splicing in fragments never panics, and
        /// every error has a span inside the text.
        #[test]
        fn mutations_of_a_program_never_panic(
            cut in 0usize..SAMPLE.len(),
            len in 0usize..40,
            insert in proptest::collection::vec(fragment(), 0..6),
        ) {
            let mut text = String::new();
            let cut = (0..=cut).rev().find(|&c| SAMPLE.is_char_boundary(c)).unwrap_or(0);
            let end = (cut + len..=SAMPLE.len()).find(|&c| SAMPLE.is_char_boundary(c)).unwrap_or(SAMPLE.len());
            text.push_str(&SAMPLE[..cut]);
            text.push_str(&insert.concat());
            text.push_str(&SAMPLE[end..]);
            for (program_ok, diags) in [
                { let p = parse_text(&text); (p.program.is_some(), p.diags) },
                { let (p, d) = patch_text(&text); (p.is_some(), d) },
            ] {
                prop_assert_eq!(program_ok, !has_errors(&diags));
                for d in &diags {
                    let s = d.span.expect("every parse error has a span");
                    prop_assert!(s.start <= s.end && s.end as usize <= text.len());
                    prop_assert!(s.line >= 1 && s.column >= 1);
                }
            }
        }

        /// The same mutations through `isu fix` and the printer with
        /// comments: no panic, and the fixed text, when it parses, is canonical.
        #[test]
        fn fixing_mutations_never_panics_and_ends_canonical(
            cut in 0usize..SAMPLE.len(),
            len in 0usize..40,
            insert in proptest::collection::vec(fragment(), 0..6),
        ) {
            let mut text = String::new();
            let cut = (0..=cut).rev().find(|&c| SAMPLE.is_char_boundary(c)).unwrap_or(0);
            let end = (cut + len..=SAMPLE.len()).find(|&c| SAMPLE.is_char_boundary(c)).unwrap_or(SAMPLE.len());
            text.push_str(&SAMPLE[..cut]);
            text.push_str("; a comment\n");
            text.push_str(&insert.concat());
            text.push_str(&SAMPLE[end..]);
            let fixed = crate::fix::fix(&Source::new("t.isu", text.as_str()), &Default::default());
            if let Some(p) = &fixed.front.program {
                let again = crate::canon::print_with(p, &fixed.front.layout.comments);
                prop_assert_eq!(again, fixed.text);
            }
        }

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
            let p = parse_text(&text);
            prop_assert_eq!(p.program.is_some(), !has_errors(&p.diags));
            let _ = patch_text(&text);
        }
    }
}

#[test]
fn language_2_1_forms_parse_and_print_canonically() {
    let text = prog("    S1: LOOP\n      ITER: (range i (const 0) (const 3))\n      BODY: BEGIN\n        S1_1: IF\n          COND: (eq (var i) (const 1))\n          THEN: BEGIN\n            S1_1_1: CONTINUE\n          END\n        S1_2: BREAK\n      END\n    S2: RETURN\n      EXPR: (add (var i) (if (lt (var i) (const 2)) (mul (const 1) (const 2) (const 3)) (index (list (var i) (const 4)) (const 0))) (const 5))\n");
    let p = parse_text(&text)
        .program
        .expect("the forms of language 2.1 parse");
    let Node::Loop { body, .. } = &p.body.steps[0].node else {
        panic!("a loop");
    };
    assert!(matches!(body.steps[1].node, Node::Break));
    let Node::Return { expr } = &p.body.steps[1].node else {
        panic!("a RETURN");
    };
    // `(add a b c)` is `(add (add a b) c)`, evaluated left to right.
    let ExprNode::Binary {
        op: BinaryOp::Add,
        lhs,
        ..
    } = &expr.node
    else {
        panic!("an add");
    };
    assert!(matches!(
        lhs.node,
        ExprNode::Binary {
            op: BinaryOp::Add,
            ..
        }
    ));
    let printed = crate::canon::print(&p);
    assert!(
        printed.contains("            S1_1_1: CONTINUE\n          END\n        S1_2: BREAK\n"),
        "{printed}"
    );
    assert!(
        !printed.contains("ELSE"),
        "an empty ELSE is left out: {printed}"
    );
    assert!(printed.contains("(add (var i) (if (lt (var i) (const 2)) (mul (const 1) (const 2) (const 3)) (index (list (var i) (const 4)) (const 0))) (const 5))"), "{printed}");
    // The canonical text reads back as the same program.
    let again = parse_text(&printed)
        .program
        .expect("the canonical text parses");
    assert_eq!(crate::canon::print(&again), printed);
    // BREAK takes no fields.
    let text = prog("    S1: LOOP\n      ITER: (while (const true))\n      BODY: BEGIN\n        S1_1: BREAK\n          EXPR: (const 1)\n      END\n");
    check_err(
        &text,
        Code::UnexpectedToken,
        12,
        11,
        "EXPR: does not belong in S1_1 (BREAK has no fields; EXPR is a field of ASSIGN and RETURN)",
    );
}
