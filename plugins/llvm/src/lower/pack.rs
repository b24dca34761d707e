//! Calls of pack functions (`math.GCD`): the function is the pack's lowering,
//! linked into the module ([`crate::pack`]). Around the call the backend
//! does what the interpreter does around a pack's `call`
//! (`spec/semantics.md` 7): the arguments are evaluated left to right and
//! measured; the function gets them borrowed, with its calling
//! site, and raises its own errors at that site; a result longer than the
//! size limit is `size_limit`; then the call spends the sizes of its
//! arguments and of its result (`isu_lang::work::of_pack`).

use super::{bug, is_heap, ty_of, Lowering, Res, Val};
use crate::abi::What;
use inkwell::values::{BasicMetadataValueEnum, IntValue};
use isu_plugin_api::work::{self, Measure};
use isu_plugin_api::{Expr, Span, Type};

impl<'ctx> Lowering<'ctx, '_> {
    pub fn call_pack(
        &mut self,
        func: &str,
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> Res<Val<'ctx>> {
        let Some(f) = self
            .m
            .get_function(func)
            .filter(|f| f.count_basic_blocks() > 0)
        else {
            return bug(format!("the pack function {func} was not linked in"));
        };
        let site = self.site(What::Pack, span, Some(func));
        let site_v = self.i32(site);
        let mut vals = Vec::with_capacity(args.len());
        let mut lens: Vec<Option<IntValue<'ctx>>> = Vec::with_capacity(args.len());
        for a in args {
            let t = ty_of(a)?.clone();
            let v = self.expr(a)?;
            lens.push(self.size(v.v, &t)?);
            vals.push((v, t));
        }
        let mut passed: Vec<BasicMetadataValueEnum<'ctx>> =
            vals.iter().map(|(v, _)| v.v.into()).collect();
        passed.push(site_v.into());
        let call = self.b.build_call(f, &passed, "")?;
        let Some(r) = call.try_as_basic_value().basic() else {
            return bug(format!("the pack function {func} returns nothing"));
        };
        for (v, t) in &vals {
            self.release(*v, t)?;
        }
        if is_heap(ty) {
            let n = if *ty == Type::String {
                self.call("isu_nchars", &[r.into()])?
            } else {
                self.call("isu_len", &[r.into()])?
            };
            self.call("isu_check_size", &[n.into(), site_v.into()])?;
        }
        let mut units: Option<IntValue<'ctx>> = None;
        for m in work::of_pack(args.len()) {
            let n = match m {
                Measure::Arg(i) => lens.get(i).copied().flatten(),
                Measure::Result => self.size(r, ty)?,
                Measure::Repeated => None,
            };
            units = match (units, n) {
                (Some(u), Some(n)) => Some(self.b.build_int_add(u, n, "")?),
                (u, n) => u.or(n),
            };
        }
        if let Some(u) = units {
            self.spend_units(u, span)?;
        }
        Ok(if is_heap(ty) {
            Val::owned(r)
        } else {
            Val::borrowed(r)
        })
    }
}
