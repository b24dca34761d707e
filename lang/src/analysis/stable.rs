//! What a loop leaves stable in its collection variables, so that an
//! executor can do once, before the first round, what would otherwise be
//! done in every round:
//!
//! - *unresized*: the array variables the loop never assigns as a whole
//!   (neither a plain `ASSIGN`, an in-place `PUSH`/`POP`/`CONCAT`, nor a
//!   loop variable), so their length where the loop starts is their length
//!   in every round (an element `TARGET` changes an element, never the
//!   length);
//! - *unshared*: the collection variables whose value the loop never hands
//!   to another holder (a variable, an element, an entry, a field, an `each`
//!   loop that walks it) and never replaces by a value that may be held
//!   elsewhere; an in-place update keeps its variable's value its own. An
//!   executor that shares storage and makes such a variable's value its own
//!   (copied if shared) before the loop starts finds it still its own at
//!   every element store of every round, once its temporaries of the step
//!   before are released: the not-shared test of the store can be made once.
//!
//! A read of the variable hands its value on unless it is read through: the
//! container of an `(index ...)` or `(field ...)` (what comes out is a part,
//! not the whole), or an operand of an expression whose value is an int, a
//! bool, a float or a string (which cannot hold a collection). The loop's
//! `ITER` counts as part of the loop: an `each` over the variable holds it.

use super::Decls;
use crate::iir::{Block, Expr, ExprNode, Iter, Node, Place};
use crate::types::Type;
use crate::update::in_place;
use std::collections::BTreeSet;

/// The collection variables one loop leaves stable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kept {
    /// Array variables whose length no round changes.
    pub unresized: BTreeSet<String>,
    /// Array, map and struct variables whose value no round shares.
    pub unshared: BTreeSet<String>,
}

impl Kept {
    /// Whether the loop keeps the array variable's length.
    pub fn keeps_length(&self, var: &str) -> bool {
        self.unresized.contains(var)
    }

    /// Whether the loop never shares the collection variable's value.
    pub fn keeps_own(&self, var: &str) -> bool {
        self.unshared.contains(var)
    }
}

/// What the loop `LOOP iter body` leaves stable, among the variables
/// `decls` declares.
pub fn kept(iter: &Iter, body: &Block, decls: &Decls) -> Kept {
    let mut scan = Scan::default();
    if let Some(v) = iter.var() {
        scan.replaced(&v.name);
    }
    for e in iter.exprs() {
        scan.expr(e, false);
    }
    scan.block(body);
    let collections = decls
        .iter()
        .filter(|&(n, _, _)| decls.is_collection(n))
        .map(|(n, t, _)| (n, t));
    let mut out = Kept::default();
    for (name, ty) in collections {
        if matches!(ty, Type::Array(_)) && !scan.resized.contains(name) {
            out.unresized.insert(name.to_owned());
        }
        if !scan.shared.contains(name) {
            out.unshared.insert(name.to_owned());
        }
    }
    out
}

#[derive(Default)]
struct Scan {
    /// Variables some step assigns as a whole.
    resized: BTreeSet<String>,
    /// Variables whose value may gain another holder, or be replaced by
    /// one that may have one.
    shared: BTreeSet<String>,
}

impl Scan {
    /// The variable gets a new value, which may be held elsewhere.
    fn replaced(&mut self, var: &str) {
        self.resized.insert(var.to_owned());
        self.shared.insert(var.to_owned());
    }

    fn block(&mut self, b: &Block) {
        for s in &b.steps {
            match &s.node {
                Node::Assign { target, expr } => match (target, in_place(target, expr)) {
                    (_, Some(update)) => {
                        // The place moves into the call and its result back.
                        if let Place::Var { name, .. } = target {
                            self.resized.insert(name.clone());
                        }
                        self.place(target);
                        for r in update.rest {
                            self.expr(r, false);
                        }
                    }
                    (Place::Var { name, .. }, None) => {
                        self.replaced(name);
                        self.expr(expr, false);
                    }
                    (_, None) => {
                        self.place(target);
                        self.expr(expr, false);
                    }
                },
                Node::Loop { iter, .. } => {
                    if let Some(v) = iter.var() {
                        self.replaced(&v.name);
                    }
                    for e in iter.exprs() {
                        self.expr(e, false);
                    }
                }
                Node::If { cond, .. } => self.expr(cond, false),
                Node::Return { expr } => self.expr(expr, false),
                Node::Seq { .. } | Node::Break | Node::Continue => {}
            }
            for inner in s.node.blocks() {
                self.block(inner);
            }
        }
    }

    /// The keys of an element `TARGET` (its variable is written through,
    /// not handed on).
    fn place(&mut self, p: &Place) {
        match p {
            Place::Var { .. } => {}
            Place::Index { base, index, .. } => {
                self.place(base);
                self.expr(index, false);
            }
            Place::Field { base, .. } => self.place(base),
        }
    }

    /// An expression; `through` when its value is read through (its parent
    /// takes a part of it or makes a scalar of it), not handed on.
    fn expr(&mut self, e: &Expr, through: bool) {
        let scalar = matches!(
            e.ty,
            Some(Type::Int | Type::Bool | Type::Float | Type::String)
        );
        match &e.node {
            ExprNode::Var { name } => {
                if !through {
                    self.shared.insert(name.clone());
                }
            }
            ExprNode::Const { .. } => {}
            ExprNode::Index { base, index } => {
                self.expr(base, true);
                self.expr(index, false);
            }
            ExprNode::Field { base, .. } => self.expr(base, true),
            ExprNode::Unary { arg, .. } => self.expr(arg, scalar),
            ExprNode::Binary { lhs, rhs, .. } => {
                self.expr(lhs, scalar);
                self.expr(rhs, scalar);
            }
            ExprNode::Call { args, .. } => {
                for a in args {
                    self.expr(a, scalar);
                }
            }
            ExprNode::Struct { fields, .. } => {
                for f in fields {
                    self.expr(&f.value, false);
                }
            }
            ExprNode::List { items } => {
                for item in items {
                    self.expr(item, false);
                }
            }
            ExprNode::If {
                cond,
                then_expr,
                else_expr,
            } => {
                self.expr(cond, true);
                self.expr(then_expr, false);
                self.expr(else_expr, false);
            }
        }
    }
}

#[cfg(test)]
mod tests;
