//! Whole programs: a valid one is fully typed; an invalid one gets every error.

use super::build::{ty, Prog};
use isu_plugin_api::{Block, Expr, ExprNode, Iter, Node, Place, Program, Type};

/// Calls `f` on every expression of the program.
fn each_expr(p: &Program, f: &mut impl FnMut(&Expr)) {
    for s in &p.state {
        walk(&s.init, f);
    }
    block(&p.body, f);
}

fn block(b: &Block, f: &mut impl FnMut(&Expr)) {
    for s in &b.steps {
        match &s.node {
            Node::Seq { .. } => {}
            Node::Assign { target, expr } => {
                place(target, f);
                walk(expr, f);
            }
            Node::If { cond, .. } => walk(cond, f),
            Node::Loop { iter, .. } => match iter {
                Iter::Range {
                    start, end, step, ..
                } => {
                    walk(start, f);
                    walk(end, f);
                    if let Some(st) = step {
                        walk(st, f);
                    }
                }
                Iter::Each { seq, .. } => walk(seq, f),
                Iter::While { cond, .. } => walk(cond, f),
            },
            Node::Return { expr } => walk(expr, f),
            Node::Break | Node::Continue => {}
        }
        for b in s.node.blocks() {
            block(b, f);
        }
    }
}

fn place(p: &Place, f: &mut impl FnMut(&Expr)) {
    match p {
        Place::Var { .. } => {}
        Place::Index { base, index, .. } => {
            place(base, f);
            walk(index, f);
        }
        Place::Field { base, .. } => place(base, f),
    }
}

fn walk(e: &Expr, f: &mut impl FnMut(&Expr)) {
    f(e);
    match &e.node {
        ExprNode::Const { .. } | ExprNode::Var { .. } => {}
        ExprNode::Unary { arg, .. } => walk(arg, f),
        ExprNode::Binary { lhs, rhs, .. } => {
            walk(lhs, f);
            walk(rhs, f);
        }
        ExprNode::Index { base, index } => {
            walk(base, f);
            walk(index, f);
        }
        ExprNode::Call { args, .. } => {
            for a in args {
                walk(a, f);
            }
        }
        ExprNode::Struct { fields, .. } => {
            for field in fields {
                walk(&field.value, f);
            }
        }
        ExprNode::Field { base, .. } => walk(base, f),
        ExprNode::List { items } => {
            for a in items {
                walk(a, f);
            }
        }
        ExprNode::If {
            cond,
            then_expr,
            else_expr,
        } => {
            walk(cond, f);
            walk(then_expr, f);
            walk(else_expr, f);
        }
    }
}

/// `examples/sum_evens.isu`, plus a few more kinds of expression.
fn sum_evens() -> (Prog, Vec<isu_plugin_api::Step>) {
    let p = Prog::new("int")
        .arg("xs", "int[]")
        .state("total", "int", "(const 0)")
        .state("seen", "map<int,bool>", "(const {})")
        .local("x", "int")
        .io(r#"[{"xs": [1, 2, 3, 4]}, {"xs": []}]"#, "[6, 0]");
    let steps = vec![
        p.each(
            "x",
            "(var xs)",
            vec![p.if_(
                "(eq (mod (var x) (const 2)) (const 0))",
                vec![
                    p.assign("total", "(add (var total) (var x))"),
                    p.assign("(index seen (var x))", "(const true)"),
                ],
                vec![],
            )],
        ),
        p.ret("(var total)"),
    ];
    (p, steps)
}

#[test]
fn a_valid_program_has_every_expression_typed() {
    let (p, steps) = sum_evens();
    let c = p.check(steps);
    c.assert_clean();
    let mut count = 0;
    each_expr(&c.program, &mut |e| {
        count += 1;
        assert!(e.ty.is_some(), "untyped: {e:?}");
    });
    assert_eq!(count, 14);
    let Node::Loop { body, .. } = &c.program.body.steps[0].node else {
        unreachable!()
    };
    let Node::If { cond, .. } = &body.steps[0].node else {
        unreachable!()
    };
    assert_eq!(cond.ty, Some(Type::Bool));
    assert_eq!(c.program.state[1].init.ty, Some(ty("map<int,bool>")));
}

#[test]
fn validating_twice_gives_the_same_result() {
    let (p, steps) = sum_evens();
    let c = p.check(steps);
    let mut again = c.program.clone();
    assert!(crate::validate::validate(&mut again).is_empty());
    assert_eq!(again, c.program);
}

#[test]
fn every_independent_error_is_reported_in_source_order() {
    let p = Prog::new("int")
        .arg("xs", "int[]")
        .arg("xs", "int")
        .local("s", "string")
        .io(r#"[{"xs": "no"}]"#, "[]");
    let steps = vec![
        p.assign("s", "(call LEN (var xs))"),
        p.assign("n", "(const 1)"),
        p.if_("(call FOO)", vec![p.ret("(var s)")], vec![]),
    ];
    let c = p.check(steps);
    assert_eq!(
        c.codes(),
        [
            "duplicate_declaration",
            "io_length_mismatch",
            "io_type_mismatch",
            "type_mismatch",
            "undeclared_variable",
            // The builder writes a step's blocks before its fields.
            "return_type_mismatch",
            "unknown_function",
            "missing_return",
        ]
    );
    let steps: Vec<Option<&str>> = c
        .diags
        .iter()
        .map(|d| d.step.as_ref().map(|s| s.as_str()))
        .collect();
    assert_eq!(
        steps,
        [
            None,
            None,
            None,
            Some("S1"),
            Some("S2"),
            Some("S3_1"),
            Some("S3"),
            Some("S3")
        ]
    );
    let starts: Vec<u32> = c
        .diags
        .iter()
        .filter_map(|d| d.span.map(|s| s.start))
        .collect();
    assert!(
        starts.windows(2).all(|w| w[0] <= w[1]),
        "source order: {starts:?}"
    );
}

#[test]
fn diagnostics_serialize_with_step_and_span() {
    let p = Prog::new("int");
    let r = p.ret("(var nope)");
    let c = p.check(vec![r]);
    let json = c.one().to_json();
    assert_eq!(json["kind"], "StaticError");
    assert_eq!(json["code"], "undeclared_variable");
    assert_eq!(json["step"], "S1");
    assert_eq!(json["span"]["column"], 1);
    assert!(json["hint"]
        .as_str()
        .is_some_and(|h| h.contains("LOCAL: [nope: int]")));
}
