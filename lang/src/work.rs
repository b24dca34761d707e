//! The work a run spends besides its loop rounds (`spec/semantics.md` 7,
//! "Work"), defined once: what each standard function spends, and which
//! `ASSIGN`s spend the copy they make.
//!
//! Work is counted in the lengths of values: the characters of a string, the
//! elements of an array, the entries of a map ([`counts`]: an int or a bool
//! counts nothing). A call spends the lengths its row of [`of`] names, after
//! it succeeds, from the same fuel as loop rounds; when fewer units are left
//! than it needs, the run stops with `step_limit` at the call's step. So a
//! function that reads, builds or stores a long value costs in proportion,
//! and no step can do unbounded work for one unit of fuel.

use crate::iir::{Block, Expr, ExprNode, Node, Place, Step};
use crate::stdlib::Builtin;
use crate::types::Type;
use crate::update;
use crate::visit::{self, Visit};

/// A length a call's work counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// The length of argument `i` (0-based), as it was passed.
    Arg(usize),
    /// The length of the result.
    Result,
    /// The length of the result times the length of argument 0: `REPEAT`
    /// counts every copy of the value it repeats.
    Repeated,
}

/// What one call of a standard function spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallWork {
    /// Lengths every call spends, summed.
    pub always: &'static [Measure],
    /// The argument the call copies, whose length it spends too unless the
    /// call is an in-place update (`update::in_place`), which changes the
    /// collection where it lies.
    pub copied: Option<usize>,
}

impl CallWork {
    /// Whether a call spends nothing whatever its arguments.
    pub fn is_free(&self) -> bool {
        self.always.is_empty() && self.copied.is_none()
    }

    /// The lengths an in-place update (`in_place`) or another call spends:
    /// [`CallWork::always`], and the copied argument unless in place.
    pub fn measures(&self, in_place: bool) -> impl Iterator<Item = Measure> + '_ {
        let copied = if in_place { None } else { self.copied };
        self.always.iter().copied().chain(copied.map(Measure::Arg))
    }
}

const FREE: CallWork = CallWork {
    always: &[],
    copied: None,
};

const fn spends(always: &'static [Measure]) -> CallWork {
    CallWork {
        always,
        copied: None,
    }
}

const fn stores(always: &'static [Measure], copied: usize) -> CallWork {
    CallWork {
        always,
        copied: Some(copied),
    }
}

/// What a call of `b` spends (the table of `spec/semantics.md` 7).
pub fn of(b: Builtin) -> CallWork {
    use Measure::{Arg, Repeated, Result};
    match b {
        Builtin::Abs
        | Builtin::Len
        | Builtin::MapGet
        | Builtin::MapGetOr
        | Builtin::MapHas
        | Builtin::Max
        | Builtin::Min
        | Builtin::ToString => FREE,
        // What they read.
        Builtin::Chars
        | Builtin::Lower
        | Builtin::MapKeys
        | Builtin::ParseInt
        | Builtin::SplitWhitespace => spends(&[Arg(0)]),
        // The elements read and the text built.
        Builtin::Join => spends(&[Arg(0), Result]),
        // What they build.
        Builtin::Slice => spends(&[Result]),
        Builtin::Repeat => spends(&[Result, Repeated]),
        // What they store, and the collection they copy unless in place.
        Builtin::Concat | Builtin::Push => stores(&[Arg(1)], 0),
        Builtin::MapSet => stores(&[Arg(1), Arg(2)], 0),
        Builtin::Pop => stores(&[], 0),
    }
}

/// Whether a value of type `ty` has a length work counts: a string, an
/// array or a map. An int or a bool counts nothing.
pub fn counts(ty: &Type) -> bool {
    matches!(ty, Type::String | Type::Array(_) | Type::Map(_, _))
}

/// Whether `ASSIGN target expr` spends the length of the value it assigns:
/// the value is a string, array or map that `expr` reads from somewhere (a
/// variable, an element, a constant, `MAP_GET`, `MAP_GET_OR`) rather than a
/// call building it, so the assignment makes a copy (value semantics, 2.2).
/// An in-place update spends only its call's work.
pub fn assign_copies(target: &Place, expr: &Expr) -> bool {
    if !expr.ty.as_ref().is_some_and(counts) || update::in_place(target, expr).is_some() {
        return false;
    }
    match &expr.node {
        ExprNode::Call { func, .. } => {
            matches!(Builtin::of(func), Some(Builtin::MapGet | Builtin::MapGetOr))
        }
        _ => true,
    }
}

/// Whether a call of `func` with these arguments and result type may spend
/// work (a pack function spends none).
pub fn call_spends(func: &str, args: &[Expr], ty: Option<&Type>) -> bool {
    let Some(b) = Builtin::of(func) else {
        return false;
    };
    let arg_counts = |i: usize| args.get(i).and_then(|a| a.ty.as_ref()).is_some_and(counts);
    of(b).measures(false).any(|m| match m {
        Measure::Arg(i) => arg_counts(i),
        Measure::Result => ty.is_some_and(counts),
        Measure::Repeated => ty.is_some_and(counts) && arg_counts(0),
    })
}

/// Whether running `block` may spend work besides loop rounds: a call that
/// spends, or an `ASSIGN` that copies, anywhere in it (nested blocks and
/// loops included). An executor that spends a loop's rounds all at once
/// before it starts may do so only when its body spends nothing else.
pub fn block_spends(block: &Block) -> bool {
    let mut f = Finder(false);
    f.visit_block(block);
    f.0
}

/// Whether `step` alone (with its nested blocks) may spend work besides
/// loop rounds; see [`block_spends`].
pub fn step_spends(step: &Step) -> bool {
    let mut f = Finder(false);
    f.visit_step(step);
    f.0
}

struct Finder(bool);

impl<'ast> Visit<'ast> for Finder {
    fn visit_step(&mut self, step: &'ast Step) {
        if let Node::Assign { target, expr } = &step.node {
            self.0 |= assign_copies(target, expr);
        }
        visit::walk_step(self, step);
    }

    fn visit_expr(&mut self, expr: &'ast Expr) {
        if let ExprNode::Call { func, args } = &expr.node {
            self.0 |= call_spends(func, args, expr.ty.as_ref());
        }
        visit::walk_expr(self, expr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stdlib::STDLIB;

    #[test]
    fn measures_name_real_arguments() {
        for f in STDLIB {
            let w = of(f.builtin);
            for m in w.measures(false) {
                if let Measure::Arg(i) = m {
                    assert!(i < f.arity(), "{}: argument {i}", f.name);
                }
            }
        }
    }

    #[test]
    fn only_update_functions_copy() {
        for f in STDLIB {
            let copies = of(f.builtin).copied.is_some();
            assert_eq!(
                copies,
                update::Update::of(f.builtin).is_some(),
                "{}",
                f.name
            );
        }
    }

    #[test]
    fn functions_on_scalars_and_lookups_are_free() {
        for b in [
            Builtin::Abs,
            Builtin::Len,
            Builtin::MapGet,
            Builtin::ToString,
        ] {
            assert!(of(b).is_free(), "{b:?}");
        }
        assert!(!of(Builtin::SplitWhitespace).is_free());
    }
}
