//! Memory (`spec/semantics.md` 7): the live size of the variables, checked
//! at every store that adds to it. Each variable whose type has a size keeps
//! it in a slot of its own beside its value, so a store needs only the size
//! of what it puts in and of what it replaces; variables of ints and bools
//! emit nothing.

use super::{Lowering, Res, Var};
use crate::abi::{RuntimeCode, MAX_MEMORY};
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::IntPredicate;
use isu_plugin_api::work;
use isu_plugin_api::Type;

impl<'ctx> Lowering<'ctx, '_> {
    /// The whole size of `v` of type `ty` (0 for a type without one).
    pub fn full_size(&mut self, v: BasicValueEnum<'ctx>, ty: &Type) -> Res<IntValue<'ctx>> {
        if !work::has_size(ty) {
            return Ok(self.i64(0));
        }
        if work::size_is_length(ty) {
            let f = if *ty == Type::String {
                "isu_nchars"
            } else {
                "isu_len"
            };
            return Ok(self.call(f, &[v.into()])?.into_int_value());
        }
        let t = self.tdesc(ty);
        let slot = self.to_slot(v, ty)?;
        let all = self.i64(-1);
        Ok(self
            .call("isu_size", &[slot.into(), t.into(), all.into()])?
            .into_int_value())
    }

    /// Checks that `v` may be stored over the whole of `var`, at the error
    /// site `site`, and counts it (the caller then stores it).
    pub fn hold_var(&mut self, var: &Var<'ctx>, v: BasicValueEnum<'ctx>, site: i32) -> Res<()> {
        let Some(size) = var.size else {
            return Ok(());
        };
        let old = self
            .b
            .build_load(self.cx.i64_type(), size, "held")?
            .into_int_value();
        let new = self.full_size(v, &var.ty)?;
        self.hold(var, old, new, site)
    }

    /// Checks that a part of `var` of size `old` may be replaced by one of
    /// size `new`, at the error site `site`: `memory_limit` when that adds
    /// to the live size and takes it past the limit. Then counts it.
    pub fn hold(
        &mut self,
        var: &Var<'ctx>,
        old: IntValue<'ctx>,
        new: IntValue<'ctx>,
        site: i32,
    ) -> Res<()> {
        let Some(size) = var.size else {
            return Ok(());
        };
        let i64t = self.cx.i64_type();
        let max = self.runtime_global(MAX_MEMORY);
        let max = self.b.build_load(i64t, max, "max_memory")?.into_int_value();
        let live = self.b.build_load(i64t, self.live, "live")?.into_int_value();
        let others = self.b.build_int_sub(live, old, "others")?;
        let full = self
            .b
            .build_int_compare(IntPredicate::UGT, others, max, "")?;
        let room = self.b.build_int_sub(max, others, "")?;
        let room = self
            .b
            .build_select(full, self.i64(0), room, "room")?
            .into_int_value();
        let adds = self.b.build_int_compare(IntPredicate::UGT, new, old, "")?;
        let over = self.b.build_int_compare(IntPredicate::UGT, new, room, "")?;
        let bad = self.b.build_and(adds, over, "")?;
        let more = self.b.build_int_sub(new, old, "")?;
        self.fail_if(bad, RuntimeCode::MemoryLimit, site, Some((more, max)))?;
        let live = self.b.build_int_add(others, new, "")?;
        self.b.build_store(self.live, live)?;
        let held = self.b.build_load(i64t, size, "")?.into_int_value();
        let held = self.b.build_int_sub(held, old, "")?;
        let held = self.b.build_int_add(held, new, "")?;
        self.b.build_store(size, held)?;
        Ok(())
    }

    /// The size of the element `i` of the array `xs` of elements of type
    /// `et`; 0 when it has none or there is no such element.
    pub fn elem_size(
        &mut self,
        xs: BasicValueEnum<'ctx>,
        i: IntValue<'ctx>,
        et: &Type,
    ) -> Res<IntValue<'ctx>> {
        if !work::has_size(et) {
            return Ok(self.i64(0));
        }
        let t = self.tdesc(et);
        Ok(self
            .call("isu_elem_size", &[xs.into(), i.into(), t.into()])?
            .into_int_value())
    }

    /// The sizes a store of `v` under the key slot `ks` of the map `m`
    /// (keys `kt`, values `vt`) takes away and puts in: the old value's and
    /// the new one's when the key is there, else nothing and one entry with
    /// the key and the value. Also where the key is (`isu_map_find`'s
    /// answer), which a store into `m` or a copy of it can use.
    pub fn entry_sizes(
        &mut self,
        m: BasicValueEnum<'ctx>,
        key: BasicValueEnum<'ctx>,
        kt: &Type,
        vt: &Type,
        v: IntValue<'ctx>,
    ) -> Res<(IntValue<'ctx>, IntValue<'ctx>, IntValue<'ctx>)> {
        let kd = self.tdesc(kt);
        let ks = self.to_slot(key, kt)?;
        let i = self
            .call("isu_map_find", &[m.into(), ks.into(), kd.into()])?
            .into_int_value();
        let vd = self.tdesc(vt);
        let old = self
            .call("isu_entry_size", &[m.into(), i.into(), vd.into()])?
            .into_int_value();
        let missing = self
            .b
            .build_int_compare(IntPredicate::SLT, i, self.i64(0), "")?;
        let k = self.full_size(key, kt)?;
        let entry = self.b.build_int_add(k, self.i64(1), "")?;
        let entry = self.b.build_int_add(entry, v, "")?;
        let new = self.b.build_select(missing, entry, v, "")?.into_int_value();
        Ok((old, new, i))
    }
}
