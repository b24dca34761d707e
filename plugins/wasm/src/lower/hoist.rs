//! Index checks hoisted out of a `range` loop. An innermost `range` loop
//! with a positive step (a constant, or one the value bounds prove
//! positive) whose variable `v` its body never assigns,
//! which reads or stores elements `(index a v)` or `(index a (add v c))`
//! (`c` a small constant, at least 0) of arrays `a` whose length it never
//! changes (`analysis::stable`'s *unresized*), is lowered twice: once with
//! every check, once without those index checks (nor the overflow checks of
//! their `add`s). Before the first round one test picks the version: every
//! value `v` takes lies in `start..end`, so when `start >= 0` and
//! `end + c <= LEN(a)` for the greatest `c` of each array, no such index can
//! be out of range in any round, and the loop without them runs; otherwise
//! the loop with every check runs, and fails where it would have. Either way
//! the rounds do the same work, and every error and step stays.

use super::{Lowering, Res};
use isu_plugin_api::analysis::interval::Interval;
use isu_plugin_api::analysis::stable::Kept;
use isu_plugin_api::analysis::vars::{assigned_in, computes_with};
use isu_plugin_api::visit::{self, Visit};
use isu_plugin_api::{BinaryOp, Block, Expr, ExprNode, Literal, Node, Place, StepId, Type};
use std::collections::BTreeMap;

/// The greatest offset hoisted: an index `v + c` of a round stays far from
/// the ends of the 64-bit range (`end + c` cannot overflow).
const MAX_OFFSET: i64 = 1 << 20;

/// The index checks one loop's lowering without checks leaves out.
#[derive(Debug, Clone)]
pub struct Hoisted {
    /// The loop's variable.
    pub var: String,
    /// Each array indexed with it, and the greatest offset it is indexed
    /// with.
    pub arrays: BTreeMap<String, i64>,
    /// Whether the test also finds every value it takes small
    /// (`Interval::SMALL`), which the bounds of the version without checks
    /// then know: the body computes with it (`(mul (var i) (var i))`), and
    /// that arithmetic needs no overflow check there.
    pub small: bool,
}

/// `index`'s offset from the loop variable `var`: `(var v)` is 0,
/// `(add (var v) (const c))` and `(add (const c) (var v))` are `c` (when
/// `0 <= c <= MAX_OFFSET`).
pub fn offset_of(index: &Expr, var: &str) -> Option<i64> {
    let is_var = |e: &Expr| matches!(&e.node, ExprNode::Var { name } if name == var);
    let konst = |e: &Expr| match &e.node {
        ExprNode::Const {
            value: Literal::Int(c),
        } if (0..=MAX_OFFSET).contains(c) => Some(*c),
        _ => None,
    };
    match &index.node {
        ExprNode::Var { .. } if is_var(index) => Some(0),
        ExprNode::Binary {
            op: BinaryOp::Add,
            lhs,
            rhs,
        } => match (&**lhs, &**rhs) {
            (v, c) if is_var(v) => konst(c),
            (c, v) if is_var(v) => konst(c),
            _ => None,
        },
        _ => None,
    }
}

/// The array variables a block indexes (`(index (var a) i)` and element
/// `TARGET`s `(index a i)`), with their indexes; and whether it holds a
/// loop.
#[derive(Default)]
struct Accesses<'b> {
    indexed: Vec<(&'b str, &'b Expr)>,
    loops: bool,
}

impl<'b> Visit<'b> for Accesses<'b> {
    fn visit_step(&mut self, step: &'b isu_plugin_api::Step) {
        self.loops |= matches!(step.node, Node::Loop { .. });
        visit::walk_step(self, step);
    }
    fn visit_place(&mut self, place: &'b Place) {
        if let Place::Index { base, index, .. } = place {
            if let Place::Var { name, .. } = &**base {
                self.indexed.push((name, index));
            }
        }
        visit::walk_place(self, place);
    }
    fn visit_expr(&mut self, e: &'b Expr) {
        if let ExprNode::Index { base, index } = &e.node {
            if let ExprNode::Var { name } = &base.node {
                self.indexed.push((name, index));
            }
        }
        visit::walk_expr(self, e);
    }
}

impl Lowering<'_> {
    /// What the loop `range var ... BODY` (with a positive step)
    /// at the step `id` can lower without index checks; `None` when
    /// nothing.
    pub fn hoistable(
        &self,
        id: Option<&StepId>,
        var: &str,
        body: &Block,
        kept: &Kept,
    ) -> Option<Hoisted> {
        let mut acc = Accesses::default();
        acc.visit_block(body);
        if acc.loops || assigned_in(body).contains(var) {
            return None;
        }
        let mut arrays: BTreeMap<String, i64> = BTreeMap::new();
        for (a, index) in acc.indexed {
            let Some(c) = offset_of(index, var) else {
                continue;
            };
            // An array that holds a value where the loop starts (so that
            // its length can be read there), whose length no round changes.
            let holds = !self.decls.is_local(a) || id.is_some_and(|id| self.must.holds(id, a));
            let array = matches!(self.decls.ty(a), Some(Type::Array(_)));
            if array && holds && kept.keeps_length(a) {
                let m = arrays.entry(a.to_owned()).or_insert(c);
                *m = (*m).max(c);
            }
        }
        let small = computes_with(body, var);
        (!arrays.is_empty() || small).then(|| Hoisted {
            var: var.to_owned(),
            arrays,
            small,
        })
    }

    /// Pushes whether the loop whose first and end values are in `cur` and
    /// `last` indexes every array of `h` in range in every round (`i32`).
    pub fn hoist_test(
        &mut self,
        h: &Hoisted,
        cur: crate::asm::Local,
        last: crate::asm::Local,
    ) -> Res<()> {
        let (least, most) = Interval::SMALL.ends();
        let least = if h.arrays.is_empty() { least } else { 0 };
        self.a.get(cur).i64(least).i().i64_ge_s();
        if h.small {
            // Every value lies below `last`.
            self.a.get(last).i64(most).i().i64_le_s().i32_and();
        }
        for (a, c) in &h.arrays {
            let local = self.var(a)?.local;
            // end <= LEN(a) - c, with LEN(a) < 2^32: no overflow.
            self.a.get(last).get(local);
            crate::runtime::load32(&mut self.a, crate::layout::LEN);
            self.a.i().i64_extend_i32_u();
            self.a.i64(*c).i().i64_sub().i64_le_s().i32_and();
        }
        Ok(())
    }

    /// Narrows the facts of the step being lowered by what the test of the
    /// loop around found ([`Hoisted::small`]): its variable, which no round
    /// assigns, is small everywhere in the version without checks.
    pub fn assume_hoisted(&mut self) {
        if let Some(h) = self.hoisted.as_ref().filter(|h| h.small) {
            self.env.refine(&h.var, Interval::SMALL);
        }
    }

    /// The offset of `index` into `array` when the loop being lowered
    /// proved it in range before its first round.
    pub fn hoisted_index(&self, array: &str, index: &Expr) -> Option<i64> {
        let h = self.hoisted.as_ref()?;
        let c = offset_of(index, &h.var)?;
        (h.arrays.get(array).is_some_and(|&m| c <= m)).then_some(c)
    }

    /// Pushes the hoisted index `v + c` (`i64`), which cannot overflow.
    pub fn hoisted_value(&mut self, c: i64) -> Res<()> {
        let Some(h) = &self.hoisted else {
            return super::bug("a hoisted index outside its loop");
        };
        let local = self.var(&h.var.clone())?.local;
        self.a.get(local);
        if c != 0 {
            self.a.i64(c).i().i64_add();
        }
        Ok(())
    }
}
