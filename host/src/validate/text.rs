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

/// Writing stops a little past the longest text a message quotes, so that
/// quoting a deep expression costs no more than quoting a short one.
fn full(s: &str) -> bool {
    s.len() > MAX * 4
}

fn write_place(s: &mut String, p: &Place) {
    if full(s) {
        return;
    }
    match p {
        Place::Var { name, .. } => s.push_str(name),
        Place::Index { base, index, .. } => {
            s.push_str("(index ");
            write_place(s, base);
            s.push(' ');
            write_expr(s, index);
            s.push(')');
        }
        Place::Field { base, field, .. } => {
            s.push_str("(field ");
            write_place(s, base);
            s.push(' ');
            s.push_str(&field.name);
            s.push(')');
        }
    }
}

fn write_expr(s: &mut String, e: &Expr) {
    if full(s) {
        return;
    }
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
        ExprNode::Struct { name, fields } => {
            let _ = write!(s, "(struct {name}");
            for f in fields {
                let _ = write!(s, " ({} ", f.name.name);
                write_expr(s, &f.value);
                s.push(')');
            }
            write!(s, ")")
        }
        ExprNode::Field { base, field } => {
            s.push_str("(field ");
            write_expr(s, base);
            write!(s, " {})", field.name)
        }
        ExprNode::List { items } => {
            s.push_str("(list");
            for a in items {
                s.push(' ');
                write_expr(s, a);
            }
            write!(s, ")")
        }
        ExprNode::If {
            cond,
            then_expr,
            else_expr,
        } => {
            s.push_str("(if ");
            write_expr(s, cond);
            s.push(' ');
            write_expr(s, then_expr);
            s.push(' ');
            write_expr(s, else_expr);
            write!(s, ")")
        }
    };
}

/// A type or kind with its indefinite article: `an int`, `a string`, `an int[]`.
pub(crate) fn a(what: &str) -> String {
    let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {what}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use isu_plugin_api::{BinaryOp, Literal, Span};

    fn var(name: &str) -> Expr {
        Expr::new(ExprNode::Var { name: name.into() }, Span::default())
    }

    #[test]
    fn expressions_print_as_isu_text() {
        let e = Expr::new(
            ExprNode::Call {
                func: "PUSH".into(),
                args: vec![
                    var("xs"),
                    Expr::new(
                        ExprNode::Const {
                            value: Literal::Str("a".into()),
                        },
                        Span::default(),
                    ),
                ],
            },
            Span::default(),
        );
        assert_eq!(expr(&e), "(call PUSH (var xs) (const \"a\"))");
    }

    #[test]
    fn deep_expressions_are_cut_short() {
        let mut e = var("x");
        for _ in 0..10_000 {
            e = Expr::new(
                ExprNode::Binary {
                    op: BinaryOp::Add,
                    lhs: Box::new(e),
                    rhs: Box::new(var("y")),
                },
                Span::default(),
            );
        }
        let text = expr(&e);
        assert!(text.starts_with("(add (add (add"));
        assert!(text.ends_with("...") && text.chars().count() == MAX);
        assert_eq!(a("int"), "an int");
        assert_eq!(a("string[]"), "a string[]");
    }
}
