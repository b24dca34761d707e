//! Which language features a program uses, by the names of the feature
//! vocabulary ([`crate::feature_set`]). Conformance cases needing a feature a
//! backend does not declare are reported as unsupported.

use crate::iir::{Block, Expr, ExprNode, Iter, Node, Place, Program};
use crate::types::Type;
use std::collections::BTreeSet;

/// The features a program uses: the types of its variables and expressions and
/// the functions it calls.
pub fn used_by(program: &Program) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for d in program.func.args.iter().chain(&program.locals) {
        type_features(&d.ty, &mut out);
    }
    type_features(&program.func.returns, &mut out);
    for s in &program.state {
        type_features(&s.ty, &mut out);
        expr_features(&s.init, &mut out);
    }
    block_features(&program.body, &mut out);
    out
}

fn type_features(t: &Type, out: &mut BTreeSet<String>) {
    match t {
        Type::Int => {
            out.insert("int".into());
        }
        Type::Bool => {
            out.insert("bool".into());
        }
        Type::String => {
            out.insert("string".into());
        }
        Type::Array(e) => {
            out.insert("array".into());
            if matches!(**e, Type::Array(_) | Type::Map(..)) {
                out.insert("nested_array".into());
            }
            type_features(e, out);
        }
        Type::Map(k, v) => {
            out.insert("map".into());
            type_features(k, out);
            type_features(v, out);
        }
    }
}

fn block_features(b: &Block, out: &mut BTreeSet<String>) {
    for step in &b.steps {
        match &step.node {
            Node::Seq { .. } => {}
            Node::Assign { target, expr } => {
                place_features(target, out);
                expr_features(expr, out);
            }
            Node::If { cond, .. } => expr_features(cond, out),
            Node::Loop { iter, .. } => match iter {
                Iter::Range {
                    start, end, step, ..
                } => {
                    expr_features(start, out);
                    expr_features(end, out);
                    if let Some(s) = step {
                        expr_features(s, out);
                    }
                }
                Iter::Each { seq, .. } => expr_features(seq, out),
                Iter::While { cond, .. } => expr_features(cond, out),
            },
            Node::Return { expr } => expr_features(expr, out),
        }
        for inner in step.node.blocks() {
            block_features(inner, out);
        }
    }
}

fn place_features(p: &Place, out: &mut BTreeSet<String>) {
    if let Place::Index { base, index, .. } = p {
        place_features(base, out);
        expr_features(index, out);
    }
}

fn expr_features(e: &Expr, out: &mut BTreeSet<String>) {
    if let Some(t) = &e.ty {
        type_features(t, out);
    }
    match &e.node {
        ExprNode::Const { .. } | ExprNode::Var { .. } => {}
        ExprNode::Unary { arg, .. } => expr_features(arg, out),
        ExprNode::Binary { lhs, rhs, .. } => {
            expr_features(lhs, out);
            expr_features(rhs, out);
        }
        ExprNode::Index { base, index } => {
            expr_features(base, out);
            expr_features(index, out);
        }
        ExprNode::Call { func, args } => {
            out.insert(format!("call:{func}"));
            for a in args {
                expr_features(a, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_arrays_and_maps_are_named() {
        let mut out = BTreeSet::new();
        type_features(&Type::array(Type::map(Type::String, Type::Int)), &mut out);
        let names: Vec<&str> = out.iter().map(String::as_str).collect();
        assert_eq!(names, ["array", "int", "map", "nested_array", "string"]);
    }
}
