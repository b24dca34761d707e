//! The work a run spends besides its loop rounds (`spec/semantics.md` 7,
//! "Work"), defined once: what each standard function spends, and which
//! `ASSIGN`s spend the copy they make.
//!
//! Work is counted in the sizes of values: the size of a string is its
//! characters; of an array, its elements plus their sizes; of a map, its
//! entries plus the sizes of their keys and values; an int or a bool has
//! none, nor has a float ([`has_size`]). So a value's size is everything a copy of it copies,
//! whether an executor shares parts of it or not. A call spends the sizes its
//! row of [`of`] names, after it succeeds, from the same fuel as loop rounds;
//! when fewer units are left than it needs, the run stops with `step_limit`
//! at the call's step. So a function that reads, builds, stores or copies a
//! big value costs in proportion, and no step can do unbounded work for one
//! unit of fuel. An executor measures a size by walking the value only where
//! it is not its length ([`size_is_length`]), and may stop walking once the
//! size passes the fuel left.

use crate::iir::{BinaryOp, Block, Expr, ExprNode, Node, Place, Step};
use crate::stdlib::Builtin;
use crate::types::Type;
use crate::update;
use crate::visit::{self, Visit};

/// A size a call's work counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// The size of argument `i` (0-based), as it was passed.
    Arg(usize),
    /// The size of the result.
    Result,
    /// The size of `REPEAT`'s result, computed without walking it: its
    /// length times one plus the size of argument 0.
    Repeated,
}

/// What one call of a standard function spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallWork {
    /// Sizes every call spends, summed.
    pub always: &'static [Measure],
    /// The argument the call copies, whose size it spends too unless the
    /// call is an in-place update (`update::in_place`), which changes the
    /// collection where it lies.
    pub copied: Option<usize>,
}

impl CallWork {
    /// Whether a call spends nothing whatever its arguments.
    pub fn is_free(&self) -> bool {
        self.always.is_empty() && self.copied.is_none()
    }

    /// The sizes an in-place update (`in_place`) or another call spends:
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
        | Builtin::Ceil
        | Builtin::Float
        | Builtin::Floor
        | Builtin::Round
        | Builtin::Sqrt
        | Builtin::Trunc
        | Builtin::Len
        | Builtin::Max
        | Builtin::Min
        | Builtin::ToString => FREE,
        // The key they look up (a string key is compared as it is found).
        Builtin::MapGet | Builtin::MapGetOr | Builtin::MapHas => spends(&[Arg(1)]),
        // The text they read.
        Builtin::Chars
        | Builtin::Lower
        | Builtin::Upper
        | Builtin::ParseInt
        | Builtin::ParseFloat
        | Builtin::SplitWhitespace => spends(&[Arg(0)]),
        // What they search in and what they search for (a separator or a
        // substring is read before the search, an element compared).
        Builtin::Contains | Builtin::IndexOf | Builtin::Split => spends(&[Arg(0), Arg(1)]),
        // What they order.
        Builtin::Sort => spends(&[Arg(0)]),
        // What they reorder: the result is as big as the argument.
        Builtin::Reverse => spends(&[Arg(0)]),
        // The strings read and the text built.
        Builtin::Join => spends(&[Arg(0), Result]),
        // What they build.
        Builtin::MapKeys | Builtin::Slice => spends(&[Result]),
        Builtin::Repeat => spends(&[Repeated]),
        // What they store, and the collection they copy unless in place.
        Builtin::Concat | Builtin::Push => stores(&[Arg(1)], 0),
        Builtin::MapSet => stores(&[Arg(1), Arg(2)], 0),
        Builtin::Pop => stores(&[], 0),
    }
}

/// What a comparison (`eq`, `ne`, `lt`, `le`, `gt`, `ge`) spends, after
/// both operands are evaluated: the sizes of both, as if the operator were
/// a call of two arguments. Comparing two strings, arrays, maps or structs
/// reads them as far as they agree, so its work is bounded by what they
/// hold; ints and bools have no size and compare for nothing.
pub const COMPARISON: CallWork = spends(&[Measure::Arg(0), Measure::Arg(1)]);

/// Whether `op` is a comparison whose operands, of type `ty`, have a size:
/// the comparisons that spend [`COMPARISON`].
pub fn comparison_spends(op: BinaryOp, ty: Option<&Type>) -> bool {
    op.negated().is_some() && ty.is_some_and(has_size)
}

/// Whether an index into a value of type `base` spends: an index into a
/// map by a string key spends the key's size, as `MAP_GET` does.
pub fn index_spends(base: Option<&Type>) -> bool {
    matches!(base, Some(Type::Map(k, _)) if has_size(k))
}

/// Whether a level of an element target with the key `index` spends: a
/// level that indexes a map by a string key spends the key's size when it
/// walks the level (spec/semantics.md 4.3), as the lookup `(index M K)`
/// does. An array index, an int key and a field level spend nothing.
pub fn target_level_spends(index: &Expr) -> bool {
    index.ty.as_ref().is_some_and(has_size)
}

/// Whether walking the element target `place` spends work: one of its
/// levels indexes a map by a string key ([`target_level_spends`]).
pub fn place_spends(place: &Place) -> bool {
    match place {
        Place::Var { .. } => false,
        Place::Index { base, index, .. } => target_level_spends(index) || place_spends(base),
        Place::Field { base, .. } => place_spends(base),
    }
}

/// What a call of a pack function of `arity` parameters spends, after it
/// returns: the sizes of its arguments and of its result. The host cannot
/// know what a pack function does inside, so the rule bounds its work by
/// what it reads and what it builds, as for the standard functions.
pub fn of_pack(arity: usize) -> impl Iterator<Item = Measure> {
    (0..arity)
        .map(Measure::Arg)
        .chain(std::iter::once(Measure::Result))
}

impl CallWork {
    /// What a call spends, in words, as `spec/semantics.md` 7 lists it
    /// (generated from this table): "the size of argument 2, plus the size
    /// of argument 1 unless in place".
    pub fn describe(&self) -> String {
        let term = |m: &Measure| match m {
            Measure::Arg(i) => format!("the size of argument {}", i + 1),
            Measure::Result => "the size of the result".to_owned(),
            Measure::Repeated => {
                "the size of the result (its length times one plus the size of argument 1)"
                    .to_owned()
            }
        };
        let mut parts: Vec<String> = self.always.iter().map(term).collect();
        if let Some(i) = self.copied {
            let copy = format!("the size of argument {} unless in place", i + 1);
            if parts.is_empty() {
                parts.push(format!(
                    "nothing in place; {}",
                    copy.replace(" unless in place", " otherwise")
                ));
            } else {
                parts.push(copy);
            }
        }
        match parts.len() {
            0 => "nothing".to_owned(),
            _ => parts.join(", plus "),
        }
    }
}

/// Whether values of type `ty` have a size: strings, arrays, maps and
/// structs (a struct's is its number of fields plus their sizes). An int, a
/// float or a bool has none.
pub fn has_size(ty: &Type) -> bool {
    matches!(
        ty,
        Type::String | Type::Array(_) | Type::Map(_, _) | Type::Struct(_)
    )
}

/// Whether the size of a value of type `ty` is its length (characters,
/// elements or entries), known without walking it: a string, or an array
/// or map whose elements (and keys) have no size.
pub fn size_is_length(ty: &Type) -> bool {
    match ty {
        Type::String => true,
        Type::Array(e) => !has_size(e),
        Type::Map(k, v) => !has_size(k) && !has_size(v),
        Type::Int | Type::Float | Type::Bool | Type::Struct(_) => false,
    }
}

/// Whether `ASSIGN target expr` spends the size of the value it assigns:
/// the value is a string, array or map that `expr` reads from somewhere (a
/// variable, an element, a constant, `MAP_GET`, `MAP_GET_OR`) rather than a
/// call building it, so the assignment makes a copy (value semantics, 2.2).
/// An in-place update spends only its call's work.
pub fn assign_copies(target: &Place, expr: &Expr) -> bool {
    if !expr.ty.as_ref().is_some_and(has_size) || update::in_place(target, expr).is_some() {
        return false;
    }
    match &expr.node {
        ExprNode::Call { func, .. } => {
            matches!(Builtin::of(func), Some(Builtin::MapGet | Builtin::MapGetOr))
        }
        _ => true,
    }
}

/// Whether a call of `func` (a standard function or a pack's) with these
/// arguments and result type may spend work.
pub fn call_spends(func: &str, args: &[Expr], ty: Option<&Type>) -> bool {
    may_spend(func, args, ty, false)
}

/// Whether a call, an in-place update (`in_place`) or not, may spend work:
/// some size it counts is of a type that has one.
fn may_spend(func: &str, args: &[Expr], ty: Option<&Type>, in_place: bool) -> bool {
    let arg_has_size = |i: usize| {
        args.get(i)
            .and_then(|a| a.ty.as_ref())
            .is_some_and(has_size)
    };
    let Some(b) = Builtin::of(func) else {
        return !in_place && (ty.is_some_and(has_size) || (0..args.len()).any(arg_has_size));
    };
    of(b).measures(in_place).any(|m| match m {
        Measure::Arg(i) => arg_has_size(i),
        Measure::Result | Measure::Repeated => ty.is_some_and(has_size),
    })
}

/// Whether running `block` may spend work besides loop rounds: a call that
/// spends, or an `ASSIGN` that copies, anywhere in it (nested blocks and
/// loops included). An in-place update counts only what it stores, as its
/// charge does: `xs = PUSH(xs, i)` with `i` an int spends nothing. An
/// executor that spends a loop's rounds all at once before it starts may do
/// so only when its body spends nothing else.
pub fn block_spends(block: &Block) -> bool {
    let mut f = Finder(false);
    f.visit_block(block);
    f.0
}

/// Whether `step` alone (with its nested blocks, and a LOOP's sequence or
/// condition) may spend work besides loop rounds; see [`block_spends`].
pub fn step_spends(step: &Step) -> bool {
    let mut f = Finder(false);
    f.visit_step(step);
    f.0
}

struct Finder(bool);

impl<'ast> Visit<'ast> for Finder {
    fn visit_step(&mut self, step: &'ast Step) {
        if let Node::Assign { target, expr } = &step.node {
            if let (Some(_), ExprNode::Call { func, args }) =
                (update::in_place(target, expr), &expr.node)
            {
                self.0 |= may_spend(func, args, expr.ty.as_ref(), true);
                // The place is read where the target is walked; the rest
                // of the arguments are evaluated as usual.
                self.visit_place(target);
                args.iter().skip(1).for_each(|a| self.visit_expr(a));
                return;
            }
            self.0 |= assign_copies(target, expr);
        }
        visit::walk_step(self, step);
    }

    fn visit_place(&mut self, place: &'ast Place) {
        if let Place::Index { index, .. } = place {
            self.0 |= target_level_spends(index);
        }
        visit::walk_place(self, place);
    }

    fn visit_expr(&mut self, expr: &'ast Expr) {
        match &expr.node {
            ExprNode::Call { func, args } => {
                self.0 |= call_spends(func, args, expr.ty.as_ref());
            }
            ExprNode::Binary { op, lhs, .. } => {
                self.0 |= comparison_spends(*op, lhs.ty.as_ref());
            }
            ExprNode::Index { base, .. } => {
                self.0 |= index_spends(base.ty.as_ref());
            }
            _ => {}
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
    fn functions_on_scalars_are_free_and_lookups_spend_their_key() {
        for b in [Builtin::Abs, Builtin::Len, Builtin::ToString] {
            assert!(of(b).is_free(), "{b:?}");
        }
        assert!(!of(Builtin::SplitWhitespace).is_free());
        for b in [Builtin::MapGet, Builtin::MapGetOr, Builtin::MapHas] {
            assert_eq!(of(b).always, &[Measure::Arg(1)], "{b:?}");
        }
        for b in [Builtin::Contains, Builtin::IndexOf, Builtin::Split] {
            assert_eq!(of(b).always, &[Measure::Arg(0), Measure::Arg(1)], "{b:?}");
        }
    }

    #[test]
    fn element_targets_spend_at_levels_of_string_keys() {
        use crate::build::{assign, int, pidx, pvar, string};
        let by_key = pidx(pvar("m"), string("k"));
        assert!(place_spends(&by_key));
        assert!(place_spends(&pidx(by_key.clone(), int(1))));
        assert!(place_spends(&pidx(pidx(pvar("xs"), int(0)), string("k"))));
        assert!(!place_spends(&pidx(pidx(pvar("xs"), int(0)), int(1))));
        assert!(step_spends(&assign("S1", by_key, int(1))));
        assert!(!step_spends(&assign(
            "S1",
            pidx(pvar("xs"), int(0)),
            int(1)
        )));
    }

    #[test]
    fn comparisons_of_sized_values_spend() {
        let arr = Type::Array(Box::new(Type::Int));
        for op in BinaryOp::ALL {
            let cmp = op.negated().is_some();
            assert_eq!(comparison_spends(op, Some(&Type::String)), cmp, "{op:?}");
            assert_eq!(comparison_spends(op, Some(&arr)), cmp, "{op:?}");
            assert!(!comparison_spends(op, Some(&Type::Int)), "{op:?}");
            assert!(!comparison_spends(op, Some(&Type::Bool)), "{op:?}");
        }
    }

    #[test]
    fn sizes_are_lengths_only_for_flat_values() {
        let arr = |t: Type| Type::Array(Box::new(t));
        let map = |k: Type, v: Type| Type::Map(Box::new(k), Box::new(v));
        assert!(size_is_length(&Type::String));
        assert!(size_is_length(&arr(Type::Int)));
        assert!(size_is_length(&map(Type::Int, Type::Bool)));
        assert!(!size_is_length(&arr(Type::String)));
        assert!(!size_is_length(&arr(arr(Type::Int))));
        assert!(!size_is_length(&map(Type::String, Type::Int)));
        assert!(!size_is_length(&Type::Int));
        assert!(!has_size(&Type::Bool));
    }
}
