//! The canonical order of a struct literal's fields: the order `TYPES`
//! declares them in, whatever order the source wrote them in.

use isu_plugin_api::visit::{self, VisitMut};
use isu_plugin_api::{Expr, ExprNode, Program, StructDef};

/// Sorts the fields of every `(struct ...)` literal of a declared struct
/// into declaration order. Fields the struct does not declare (the
/// validator reports them) keep their order after the declared ones, and
/// literals of undeclared structs are left as written.
pub fn order_fields(program: &mut Program) {
    let types = std::mem::take(&mut program.types);
    Order { types: &types }.visit_program_mut(program);
    program.types = types;
}

struct Order<'a> {
    types: &'a [StructDef],
}

impl VisitMut for Order<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        if let ExprNode::Struct { name, fields } = &mut expr.node {
            if let Some(def) = self.types.iter().find(|d| d.name.name == *name) {
                let rank = |field: &str| {
                    def.fields
                        .iter()
                        .position(|f| f.name.name == field)
                        .unwrap_or(def.fields.len())
                };
                fields.sort_by_key(|f| rank(&f.name.name));
            }
        }
        visit::walk_expr_mut(self, expr);
    }
}
