//! The in-place update rule of `spec/semantics.md` 4.3, defined once: an
//! `ASSIGN` whose `EXPR` is `(call F P rest...)`, with `P` the `TARGET`
//! itself and `F` one of `PUSH`, `POP`, `MAP_SET`, `CONCAT`, means exactly
//! what the call means, and an executor may change the value at `P` where it
//! lies instead of building a new one. It holds for every place (a variable
//! or an element, at any depth) and for both overloads of `CONCAT` (strings
//! and arrays); executors that recognise it recognise exactly these forms.

use crate::iir::{Expr, ExprNode, Place};
use crate::stdlib::Builtin;

/// The standard functions an `ASSIGN` may apply in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Update {
    /// `PUSH`: an element added at the end.
    Push,
    /// `POP`: the last element removed.
    Pop,
    /// `MAP_SET`: an entry set.
    MapSet,
    /// `CONCAT`: text added at the end.
    Concat,
}

impl Update {
    /// The update form of a standard function, if it has one.
    pub fn of(b: Builtin) -> Option<Update> {
        match b {
            Builtin::Push => Some(Update::Push),
            Builtin::Pop => Some(Update::Pop),
            Builtin::MapSet => Some(Update::MapSet),
            Builtin::Concat => Some(Update::Concat),
            _ => None,
        }
    }

    /// The standard function this update applies.
    pub fn builtin(self) -> Builtin {
        match self {
            Update::Push => Builtin::Push,
            Update::Pop => Builtin::Pop,
            Update::MapSet => Builtin::MapSet,
            Update::Concat => Builtin::Concat,
        }
    }
}

/// `TARGET: P`, `EXPR: (call F P rest...)`: an assignment the rule covers.
#[derive(Debug, Clone, Copy)]
pub struct InPlace<'e> {
    /// The update.
    pub op: Update,
    /// The call's first argument: the read of the place itself.
    pub place: &'e Expr,
    /// The arguments after it.
    pub rest: &'e [Expr],
}

/// Whether `ASSIGN target expr` is an in-place update, and of what.
pub fn in_place<'e>(target: &Place, expr: &'e Expr) -> Option<InPlace<'e>> {
    let ExprNode::Call { func, args } = &expr.node else {
        return None;
    };
    let b = Builtin::of(func)?;
    let op = Update::of(b)?;
    let (place, rest) = args.split_first()?;
    if args.len() != b.info().arity() || !place.is_place(target) {
        return None;
    }
    Some(InPlace { op, place, rest })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iir::{Expr, ExprNode, Span};
    use crate::literal::Literal;
    use crate::types::Type;

    fn var(name: &str) -> Expr {
        Expr::new(ExprNode::Var { name: name.into() }, Span::default())
    }

    fn konst(s: &str) -> Expr {
        let mut e = Expr::new(
            ExprNode::Const {
                value: Literal::Str(s.into()),
            },
            Span::default(),
        );
        e.ty = Some(Type::String);
        e
    }

    fn call(func: &str, args: Vec<Expr>) -> Expr {
        Expr::new(
            ExprNode::Call {
                func: func.into(),
                args,
            },
            Span::default(),
        )
    }

    fn index(base: Expr, i: Expr) -> Expr {
        Expr::new(
            ExprNode::Index {
                base: Box::new(base),
                index: Box::new(i),
            },
            Span::default(),
        )
    }

    fn place(name: &str) -> Place {
        Place::Var {
            name: name.into(),
            span: Span::default(),
        }
    }

    fn elem(base: Place, i: Expr) -> Place {
        Place::Index {
            base: Box::new(base),
            index: i,
            span: Span::default(),
        }
    }

    #[test]
    fn the_rule_covers_every_place_and_both_concats() {
        let s = call("CONCAT", vec![var("s"), konst("x")]);
        let u = in_place(&place("s"), &s).map(|u| (u.op, u.rest.len()));
        assert_eq!(u, Some((Update::Concat, 1)));
        // A string element of an array, two levels down: the same rule.
        let p = elem(elem(place("g"), var("i")), var("j"));
        let read = index(index(var("g"), var("i")), var("j"));
        let e = call("CONCAT", vec![read, konst("x")]);
        assert_eq!(in_place(&p, &e).map(|u| u.op), Some(Update::Concat));
        let pop = call("POP", vec![var("xs")]);
        assert_eq!(
            in_place(&place("xs"), &pop).map(|u| u.op),
            Some(Update::Pop)
        );
    }

    #[test]
    fn other_places_and_functions_are_not_updates() {
        let other = call("PUSH", vec![var("ys"), var("v")]);
        assert!(in_place(&place("xs"), &other).is_none());
        let second = call("CONCAT", vec![konst("x"), var("s")]);
        assert!(in_place(&place("s"), &second).is_none());
        let slice = call("SLICE", vec![var("xs"), var("i"), var("j")]);
        assert!(in_place(&place("xs"), &slice).is_none());
        let p = elem(place("g"), var("i"));
        let e = call("PUSH", vec![index(var("g"), var("j")), var("v")]);
        assert!(in_place(&p, &e).is_none(), "another element");
        assert!(in_place(&place("xs"), &call("PUSH", vec![var("xs")])).is_none());
    }
}
