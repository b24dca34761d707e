//! The language facts the lowering needs that belong to the whole language,
//! not to this backend: the in-place update rule of `spec/semantics.md` 4.3. Kept behind this one seam so that the
//! backend reads them from the language's semantics crate as soon as it
//! exists, without touching the lowering.

use isu_plugin_api::{Expr, ExprNode, Place};

/// The standard functions an ASSIGN applies in place when their first
/// argument is the assignment's own target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Update {
    Push,
    Pop,
    MapSet,
    Concat,
}

/// `TARGET: P`, `EXPR: (call F P rest...)` with F updatable in place: the
/// function and the rest of its arguments.
pub fn update_of<'e>(target: &Place, expr: &'e Expr) -> Option<(Update, &'e [Expr])> {
    let ExprNode::Call { func, args } = &expr.node else {
        return None;
    };
    let op = match func.as_str() {
        "PUSH" => Update::Push,
        "POP" => Update::Pop,
        "MAP_SET" => Update::MapSet,
        "CONCAT" => Update::Concat,
        _ => return None,
    };
    let (first, rest) = args.split_first()?;
    place_is_expr(target, first).then_some((op, rest))
}

fn place_is_expr(p: &Place, e: &Expr) -> bool {
    match (p, &e.node) {
        (Place::Var { name, .. }, ExprNode::Var { name: n }) => name == n,
        (Place::Index { base, index, .. }, ExprNode::Index { base: b, index: i }) => {
            place_is_expr(base, b) && same_expr(index, i)
        }
        _ => false,
    }
}

/// Structural equality of expressions, spans aside.
fn same_expr(a: &Expr, b: &Expr) -> bool {
    let mut a = a.clone();
    let mut b = b.clone();
    strip(&mut a);
    strip(&mut b);
    a == b
}

fn strip(e: &mut Expr) {
    struct Strip;
    impl isu_plugin_api::visit::VisitMut for Strip {
        fn visit_span_mut(&mut self, s: &mut isu_plugin_api::Span) {
            *s = isu_plugin_api::Span::default();
        }
    }
    isu_plugin_api::visit::walk_expr_mut(&mut Strip, e);
}
