//! The expression forms of language 2.1: `(list E ...)` of one to three
//! elements, `(if C A B)` (whose other branch may be one that would fail),
//! the character of a string `(index s i)` (mostly its first or last, now
//! and then past its end), and `add`/`mul` chains of three or four operands,
//! which the canonical printer writes as one n-ary call, with the edges of
//! 64 bits among them so that some overflow at the third operand.

use super::exprs::{bin, expr, index, int, Gen};
use super::values;
use crate::iir::*;
use crate::types::Type;

impl Gen<'_> {
    /// One of the forms of language 2.1 of type `ty`: a conditional of any
    /// type, and the form that gives `ty` where there is one.
    pub fn form(&mut self, ty: &Type, d: usize) -> Expr {
        match (ty, self.rng.below(2)) {
            (Type::Array(elem), 0) => self.list(elem, d),
            (Type::String, 0) => self.char_at(d),
            (Type::Int, 0) => self.chain(d),
            _ => self.conditional(ty, d),
        }
    }

    fn list(&mut self, elem: &Type, d: usize) -> Expr {
        let items = (0..1 + self.rng.below(3))
            .map(|_| self.expr(elem, d))
            .collect();
        expr(ExprNode::List { items })
    }

    fn conditional(&mut self, ty: &Type, d: usize) -> Expr {
        let cond = self.expr(&Type::Bool, d);
        let then_expr = self.expr(ty, d);
        let else_expr = self.expr(ty, d);
        expr(ExprNode::If {
            cond: Box::new(cond),
            then_expr: Box::new(then_expr),
            else_expr: Box::new(else_expr),
        })
    }

    fn char_at(&mut self, d: usize) -> Expr {
        let s = if self.rng.chance(70) {
            self.leaf(&Type::String)
        } else {
            self.expr(&Type::String, d)
        };
        let i = self.index_of(&s, d);
        index(s, i)
    }

    fn chain(&mut self, d: usize) -> Expr {
        let op = *self.rng.pick(&[BinaryOp::Add, BinaryOp::Mul]);
        let mut acc = self.expr(&Type::Int, d);
        for _ in 0..2 + self.rng.below(2) {
            let next = if self.rng.chance(30) {
                int(*self.rng.pick(values::EDGES))
            } else {
                self.expr(&Type::Int, d)
            };
            acc = bin(op, acc, next);
        }
        acc
    }
}
