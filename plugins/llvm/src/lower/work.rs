//! Work (`spec/semantics.md` 7): what calls of standard functions and
//! copying assignments spend from the step budget, as `isu_lang::work`
//! says. Lengths are measured from the static types: a call or a term whose
//! type has no length (an int, a bool) emits nothing.

use super::{Lowering, Res};
use crate::abi::{RuntimeCode, What};
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::IntPredicate;
use isu_plugin_api::work::{self, Measure};
use isu_plugin_api::{Builtin, Span, Type};

impl<'ctx> Lowering<'ctx, '_> {
    /// The length of `v` of type `ty` (characters, elements or entries), or
    /// `None` when values of `ty` have none.
    pub fn length(&mut self, v: BasicValueEnum<'ctx>, ty: &Type) -> Res<Option<IntValue<'ctx>>> {
        if !work::counts(ty) {
            return Ok(None);
        }
        let f = if *ty == Type::String {
            "isu_nchars"
        } else {
            "isu_len"
        };
        Ok(Some(self.call(f, &[v.into()])?.into_int_value()))
    }

    /// The lengths of the arguments a call of `b` spends, measured before the
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
                    *slot = self.length(v, ty)?;
                }
            }
        }
        Ok(lens)
    }

    /// Spends the work of a call of `b` that returned `result` of type `ty`,
    /// with its argument lengths from [`Lowering::measure_args`].
    pub fn spend_call(
        &mut self,
        b: Builtin,
        in_place: bool,
        lens: &[Option<IntValue<'ctx>>],
        result: Option<(BasicValueEnum<'ctx>, &Type)>,
        span: Span,
    ) -> Res<()> {
        let mut units: Option<IntValue<'ctx>> = None;
        let wants_result = work::of(b)
            .measures(in_place)
            .any(|m| matches!(m, Measure::Result | Measure::Repeated));
        let result_len = match result {
            Some((v, ty)) if wants_result => self.length(v, ty)?,
            _ => None,
        };
        for m in work::of(b).measures(in_place) {
            let n = match m {
                Measure::Arg(i) => lens.get(i).copied().flatten(),
                Measure::Result => result_len,
                Measure::Repeated => match (result_len, lens.first().copied().flatten()) {
                    (Some(r), Some(a)) => Some(self.b.build_int_mul(r, a, "")?),
                    _ => None,
                },
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

    /// Spends the length of the value `v` of type `ty` that an `ASSIGN`
    /// copies (`work::assign_copies`), at the span of its `EXPR`.
    pub fn spend_copy(&mut self, v: BasicValueEnum<'ctx>, ty: &Type, span: Span) -> Res<()> {
        match self.length(v, ty)? {
            Some(n) => self.spend_units(n, span),
            None => Ok(()),
        }
    }

    /// Spends `units` of the step budget at `span`: `step_limit` when fewer
    /// are left.
    fn spend_units(&mut self, units: IntValue<'ctx>, span: Span) -> Res<()> {
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
