//! Expressions and places as Isu text, cut short, for messages.

use super::literal::shorten;
use isu_plugin_api::{Expr, ExprNode, Place};
use std::fmt::Write;

/// The longest expression text a message quotes.
const MAX: usize = 60;

/// `(add (var x) (const 1))`, cut to about 60 characters.
pub(crate) fn expr(e: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, e);
    shorten(&s, MAX)
}

/// `total` or `(index m (var k))`, cut to about 60 characters.
pub(crate) fn place(p: &Place) -> String {
    let mut s = String::new();
    write_place(&mut s, p);
    shorten(&s, MAX)
}

fn write_place(s: &mut String, p: &Place) {
    match p {
        Place::Var { name, .. } => s.push_str(name),
        Place::Index { base, index, .. } => {
            s.push_str("(index ");
            write_place(s, base);
            s.push(' ');
            write_expr(s, index);
            s.push(')');
        }
    }
}

fn write_expr(s: &mut String, e: &Expr) {
    // Writing to a String cannot fail.
    let _ = match &e.node {
        ExprNode::Const { value } => write!(s, "(const {value})"),
        ExprNode::Var { name } => write!(s, "(var {name})"),
        ExprNode::Unary { op, arg } => {
            let _ = write!(s, "({} ", op.name());
            write_expr(s, arg);
            write!(s, ")")
        }
        ExprNode::Binary { op, lhs, rhs } => {
            let _ = write!(s, "({} ", op.name());
            write_expr(s, lhs);
            s.push(' ');
            write_expr(s, rhs);
            write!(s, ")")
        }
        ExprNode::Index { base, index } => {
            s.push_str("(index ");
            write_expr(s, base);
            s.push(' ');
            write_expr(s, index);
            write!(s, ")")
        }
        ExprNode::Call { func, args } => {
            let _ = write!(s, "(call {func}");
            for a in args {
                s.push(' ');
                write_expr(s, a);
            }
            write!(s, ")")
        }
    };
}
