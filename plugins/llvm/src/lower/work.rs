//! Work (`spec/semantics.md` 7): what calls of standard functions and
//! copying assignments spend from the step budget, as `isu_lang::work`
//! says. Sizes are measured as the static types allow: a call or a term whose
//! type has no size (an int, a bool) emits nothing, a flat value's size is
//! its length.

use super::{Lowering, Res};
use crate::abi::{RuntimeCode, What};
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::IntPredicate;
use isu_plugin_api::work::{self, Measure};
use isu_plugin_api::{Builtin, Span, Type};

impl<'ctx> Lowering<'ctx, '_> {
    /// The size of `v` of type `ty` (`work` counts it), or `None` when
    /// values of `ty` have none: a flat value's length from its header, a
    /// nested one's walked by the runtime no further than past the fuel left.
    pub fn size(&mut self, v: BasicValueEnum<'ctx>, ty: &Type) -> Res<Option<IntValue<'ctx>>> {
        if !work::has_size(ty) {
            return Ok(None);
        }
        let n = if !work::size_is_length(ty) {
            let i64t = self.cx.i64_type();
            let left = self.b.build_load(i64t, self.fuel, "fuel")?;
            let t = self.tdesc(ty);
            let slot = self.to_slot(v, ty)?;
            self.call("isu_size", &[slot.into(), t.into(), left.into()])?
        } else if *ty == Type::String {
            self.call("isu_nchars", &[v.into()])?
        } else {
            self.call("isu_len", &[v.into()])?
        };
        Ok(Some(n.into_int_value()))
    }

    /// The sizes of the arguments a call of `b` spends, measured before the
    /// call (which may take them): one entry per argument, `None` where the
    /// call does not count it or it has no length.
    pub fn measure_args(
        &mut self,
        b: Builtin,
        in_place: bool,
        args: &[(BasicValueEnum<'ctx>, &Type)],
    ) -> Res<Vec<Option<IntValue<'ctx>>>> {
        let mut lens = vec![None; args.len()];
        for m in work::of(b).measures(in_place) {
            let i = match m {
                Measure::Arg(i) => i,
                Measure::Repeated => 0,
                Measure::Result => continue,
            };
            if let (Some(&(v, ty)), Some(slot)) = (args.get(i), lens.get_mut(i)) {
                if slot.is_none() {
                    *slot = self.size(v, ty)?;
                }
            }
        }
        Ok(lens)
    }

    /// Spends the work of a call of `b` that returned `result` of type `ty`,
    /// with its argument sizes from [`Lowering::measure_args`].
    pub fn spend_call(
        &mut self,
        b: Builtin,
        in_place: bool,
        lens: &[Option<IntValue<'ctx>>],
        result: Option<(BasicValueEnum<'ctx>, &Type)>,
        span: Span,
    ) -> Res<()> {
        let mut units: Option<IntValue<'ctx>> = None;
        for m in work::of(b).measures(in_place) {
            let n = match (m, result) {
                (Measure::Arg(i), _) => lens.get(i).copied().flatten(),
                (Measure::Result, Some((v, ty))) => self.size(v, ty)?,
                // The result's length times one plus the size of the value.
                (Measure::Repeated, Some((v, _))) => {
                    let n = self.call("isu_len", &[v.into()])?.into_int_value();
                    let one = self.cx.i64_type().const_int(1, false);
                    let each = match lens.first().copied().flatten() {
                        Some(a) => self.b.build_int_add(a, one, "")?,
                        None => one,
                    };
                    Some(self.b.build_int_mul(n, each, "")?)
                }
                (Measure::Result | Measure::Repeated, None) => None,
            };
            units = match (units, n) {
                (Some(u), Some(n)) => Some(self.b.build_int_add(u, n, "")?),
                (u, n) => u.or(n),
            };
        }
        match units {
            Some(u) => self.spend_units(u, span),
            None => Ok(()),
        }
    }

    /// Spends the size of the value `v` of type `ty` that an `ASSIGN`
    /// copies (`work::assign_copies`), at the span of its `EXPR`.
    pub fn spend_copy(&mut self, v: BasicValueEnum<'ctx>, ty: &Type, span: Span) -> Res<()> {
        match self.size(v, ty)? {
            Some(n) => self.spend_units(n, span),
            None => Ok(()),
        }
    }

    /// Spends `units` of the step budget at `span`: `step_limit` when fewer
    /// are left.
    pub(super) fn spend_units(&mut self, units: IntValue<'ctx>, span: Span) -> Res<()> {
        let site = self.site(What::Plain, span, None);
        let i64t = self.cx.i64_type();
        let fuel = self.b.build_load(i64t, self.fuel, "fuel")?.into_int_value();
        let short = self
            .b
            .build_int_compare(IntPredicate::UGT, units, fuel, "")?;
        self.fail_if(short, RuntimeCode::StepLimit, site, None)?;
        let left = self.b.build_int_sub(fuel, units, "")?;
        self.b.build_store(self.fuel, left)?;
        Ok(())
    }
}
