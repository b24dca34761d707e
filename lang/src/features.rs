//! Which language features a program uses, by the names of the feature
//! vocabulary ([`crate::feature_set`]). Conformance cases needing a feature a
//! backend does not declare are reported as unsupported.

use crate::iir::{Decl, Expr, ExprNode, Node, Program, StateVar, Step};
use crate::types::Type;
use crate::visit::{self, Visit};
use std::collections::BTreeSet;

/// The features a program uses: the types of its variables and expressions and
/// the functions it calls.
pub fn used_by(program: &Program) -> BTreeSet<String> {
    let mut f = Features(BTreeSet::new());
    f.visit_program(program);
    type_features(&program.func.returns, &mut f.0);
    for def in &program.types {
        for field in &def.fields {
            type_features(&field.ty, &mut f.0);
        }
    }
    f.0
}

struct Features(BTreeSet<String>);

impl Visit<'_> for Features {
    fn visit_decl(&mut self, decl: &Decl) {
        type_features(&decl.ty, &mut self.0);
    }

    fn visit_state_var(&mut self, var: &StateVar) {
        type_features(&var.ty, &mut self.0);
        visit::walk_state_var(self, var);
    }

    fn visit_step(&mut self, step: &Step) {
        if matches!(step.node, Node::Break | Node::Continue) {
            self.0.insert("loop_exit".into());
        }
        visit::walk_step(self, step);
    }

    fn visit_expr(&mut self, e: &Expr) {
        if let Some(t) = &e.ty {
            type_features(t, &mut self.0);
        }
        match &e.node {
            ExprNode::Call { func, .. } => {
                self.0.insert(format!("call:{func}"));
            }
            ExprNode::List { .. } => {
                self.0.insert("list".into());
            }
            ExprNode::If { .. } => {
                self.0.insert("if_expr".into());
            }
            ExprNode::Index { base, .. } if base.ty == Some(Type::String) => {
                self.0.insert("string_index".into());
            }
            _ => {}
        }
        visit::walk_expr(self, e);
    }
}

fn type_features(t: &Type, out: &mut BTreeSet<String>) {
    match t {
        Type::Int => {
            out.insert("int".into());
        }
        Type::Float => {
            out.insert("float".into());
        }
        Type::Bool => {
            out.insert("bool".into());
        }
        Type::String => {
            out.insert("string".into());
        }
        Type::Array(e) => {
            out.insert("array".into());
            if matches!(**e, Type::Array(_) | Type::Map(..) | Type::Struct(_)) {
                out.insert("nested_array".into());
            }
            type_features(e, out);
        }
        Type::Map(k, v) => {
            out.insert("map".into());
            type_features(k, out);
            type_features(v, out);
        }
        Type::Struct(_) => {
            out.insert("struct".into());
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
