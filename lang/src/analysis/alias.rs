//! Sharing, for executors that hold arrays and maps by reference: which
//! variables a value may be (a part of), which variables are changed in
//! place, and which an `each` loop holds while it runs. Isu has value
//! semantics (`spec/semantics.md` 2.2), so an executor that shares storage
//! must copy exactly where a change could show through another holder;
//! these facts say where that can happen.

use super::Decls;
use crate::iir::{Block, Expr, ExprNode, Iter, Node, Place, Program};
use crate::stdlib::Builtin;
use crate::update::in_place;
use crate::visit::{self, Visit};
use std::collections::BTreeSet;

/// Whether the value of `e` may be a value some variable, element, entry or
/// field also holds, rather than one the expression builds: a variable, an
/// element, a field, a map's value (`MAP_GET`, `MAP_GET_OR`), a `SLICE` or
/// `REVERSE` of an array of arrays, maps or structs (whose elements are the
/// old ones), or
/// what a pack function returns (which may be one of its arguments), or an
/// `(if ...)` either of whose branches may be.
pub fn may_share(e: &Expr) -> bool {
    use crate::types::Type;
    match &e.node {
        ExprNode::Var { .. } | ExprNode::Index { .. } | ExprNode::Field { .. } => true,
        ExprNode::Call { func, .. } => match Builtin::of(func) {
            None => true,
            Some(Builtin::MapGet | Builtin::MapGetOr) => true,
            Some(Builtin::Slice | Builtin::Reverse) => matches!(
                e.ty.as_ref(),
                Some(Type::Array(el))
                    if matches!(**el, Type::Array(_) | Type::Map(..) | Type::Struct(_))
            ),
            Some(_) => false,
        },
        // Either branch's value.
        ExprNode::If {
            then_expr,
            else_expr,
            ..
        } => may_share(then_expr) || may_share(else_expr),
        _ => false,
    }
}

/// The variables whose values the value of `e` may be (a part of), when
/// [`may_share`] says it may be shared.
pub fn roots(e: &Expr) -> Vec<&str> {
    let mut out = Vec::new();
    roots_into(e, &mut out);
    out
}

fn roots_into<'e>(e: &'e Expr, out: &mut Vec<&'e str>) {
    match &e.node {
        ExprNode::Var { name } => out.push(name),
        ExprNode::Index { base, .. } | ExprNode::Field { base, .. } => roots_into(base, out),
        ExprNode::Call { func, args } => match Builtin::of(func) {
            Some(Builtin::MapGet | Builtin::Slice | Builtin::Reverse) => {
                if let Some(a) = args.first() {
                    roots_into(a, out);
                }
            }
            Some(Builtin::MapGetOr) => {
                if let Some(a) = args.first() {
                    roots_into(a, out);
                }
                if let Some(d) = args.get(2) {
                    roots_into(d, out);
                }
            }
            _ => {}
        },
        ExprNode::If {
            then_expr,
            else_expr,
            ..
        } => {
            roots_into(then_expr, out);
            roots_into(else_expr, out);
        }
        _ => {}
    }
}

/// The array, map and struct variables the steps of a block change in
/// place, at any depth: the variables of element and field `TARGET`s and of
/// in-place updates ([`crate::update`]).
pub fn changed_in_place(b: &Block, decls: &Decls) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    changed_into(b, decls, &mut out);
    out
}

fn changed_into(b: &Block, decls: &Decls, out: &mut BTreeSet<String>) {
    for step in &b.steps {
        if let Node::Assign { target, expr } = &step.node {
            let (root, _) = target.root();
            let changes = match target {
                Place::Index { .. } | Place::Field { .. } => true,
                Place::Var { .. } => in_place(target, expr).is_some(),
            };
            if changes && decls.is_collection(root) {
                out.insert(root.to_owned());
            }
        }
        for inner in step.node.blocks() {
            changed_into(inner, decls, out);
        }
    }
}

/// The sharing facts of a whole program.
#[derive(Debug, Clone, Default)]
pub struct Aliasing {
    /// Array and map variables some step changes in place.
    pub changed_in_place: BTreeSet<String>,
    /// The variables of `each` loops (each may share an element of the array
    /// it walks) and the variables whose arrays they walk (the loop holds the
    /// array while it runs).
    pub iterated: BTreeSet<String>,
}

impl Aliasing {
    /// The aliasing facts of a program whose variables are `decls`.
    pub fn of(program: &Program, decls: &Decls) -> Aliasing {
        let mut each = Each(BTreeSet::new());
        each.visit_program(program);
        Aliasing {
            changed_in_place: changed_in_place(&program.body, decls),
            iterated: each.0,
        }
    }
}

struct Each(BTreeSet<String>);

impl Visit<'_> for Each {
    fn visit_iter(&mut self, iter: &Iter) {
        if let Iter::Each { var, seq, .. } = iter {
            self.0.insert(var.name.clone());
            self.0.extend(roots(seq).into_iter().map(str::to_owned));
        }
        visit::walk_iter(self, iter);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::*;
    use crate::types::Type;

    #[test]
    fn changes_in_place_and_loops_that_hold_arrays() {
        let ints = Type::array(Type::Int);
        let grid = Type::array(ints.clone());
        let p = program(
            "f",
            &[("g", grid.clone()), ("s", Type::String)],
            Type::Int,
            vec![],
            &[
                ("row", ints.clone()),
                ("x", Type::Int),
                ("acc", ints.clone()),
            ],
            vec![
                each(
                    "S1",
                    "row",
                    var("g", grid.clone()),
                    vec![
                        assign("S1_1", pidx(pvar("row"), int(0)), int(1)),
                        set(
                            "S1_2",
                            "acc",
                            call("PUSH", vec![var("acc", ints.clone()), int(1)], ints.clone()),
                        ),
                        set(
                            "S1_3",
                            "s",
                            call(
                                "CONCAT",
                                vec![var("s", Type::String), string("x")],
                                Type::String,
                            ),
                        ),
                    ],
                ),
                ret("S2", int(0)),
            ],
        );
        let a = Aliasing::of(&p, &Decls::of(&p));
        let changed: Vec<&str> = a.changed_in_place.iter().map(String::as_str).collect();
        assert_eq!(changed, ["acc", "row"], "a string is not changed in place");
        let iterated: Vec<&str> = a.iterated.iter().map(String::as_str).collect();
        assert_eq!(iterated, ["g", "row"]);
        let get = call(
            "MAP_GET_OR",
            vec![
                var("m", Type::map(Type::Int, ints.clone())),
                int(1),
                var("d", ints.clone()),
            ],
            ints.clone(),
        );
        assert!(may_share(&get));
        assert_eq!(roots(&get), ["m", "d"]);
        let built = call("PUSH", vec![var("acc", ints.clone()), int(1)], ints.clone());
        assert!(!may_share(&built));
        let rows = call(
            "SLICE",
            vec![var("g", grid.clone()), int(0), int(1)],
            grid.clone(),
        );
        assert!(may_share(&rows), "the rows of a slice are the old rows");
        let back = call("REVERSE", vec![var("g", grid.clone())], grid);
        assert!(
            may_share(&back),
            "the rows of a reversed grid are the old rows"
        );
        assert_eq!(roots(&back), ["g"]);
        let flat = call("REVERSE", vec![var("acc", ints.clone())], ints);
        assert!(!may_share(&flat), "ints are not shared");
    }

    #[test]
    fn a_field_shares_its_struct_and_a_slice_its_structs() {
        let point = Type::Struct("point".into());
        let ps = Type::array(point.clone());
        let mut at = var("ps", ps.clone());
        at = Expr::new(
            ExprNode::Index {
                base: Box::new(at),
                index: Box::new(int(0)),
            },
            crate::iir::Span::default(),
        );
        let field = Expr::new(
            ExprNode::Field {
                base: Box::new(at),
                field: crate::iir::Ident {
                    name: "x".into(),
                    span: crate::iir::Span::default(),
                },
            },
            crate::iir::Span::default(),
        );
        assert!(may_share(&field));
        assert_eq!(roots(&field), ["ps"]);
        let some = call("SLICE", vec![var("ps", ps.clone()), int(0), int(1)], ps);
        assert!(
            may_share(&some),
            "the elements of a slice are the old structs"
        );
    }
}
