//! `ASSIGN` to an element place, `(index ... (index x k1) ... kn)`
//! (`spec/semantics.md` 4.3): first the keys, from the variable outward,
//! each checked (an array index must be in range; a map key must be present,
//! except at the last level of a plain store, which inserts), a string key
//! spending its size once checked (`work::place_spends`); then EXPR; then
//! the store, which makes every level on the way unique (copying what
//! is shared) and writes in place. When EXPR is `(call PUSH|POP|MAP_SET|CONCAT
//! P ...)` of the place `P` itself, the element moves into the call and its
//! result back into the slot.

use super::stmt::slot_width;
use super::{bug, is_heap, ty_of, Lowering, Res, Val};
use crate::abi::{RuntimeCode, What};
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::IntPredicate;
use isu_plugin_api::update::{in_place, Update};
use isu_plugin_api::work;
use isu_plugin_api::{Expr, Place, Span, Type};

/// One level of the path: the container's type and the key; for a map, the
/// entry's index once found (every level but the last of a plain store).
struct Level<'ctx> {
    ty: Type,
    /// The type of the child the key leads to.
    child: Type,
    key: Val<'ctx>,
    entry: Option<IntValue<'ctx>>,
}

impl<'ctx> Level<'ctx> {
    /// Where the child sits: the array index, or the map entry's index.
    fn index(&self) -> IntValue<'ctx> {
        match self.entry {
            Some(e) => e,
            None => self.key.int(),
        }
    }
}

/// What leads from a container to its child: an index or key to evaluate,
/// or a struct's field.
#[derive(Clone, Copy)]
enum Step<'p> {
    Key(&'p Expr),
    Field(&'p str),
}

/// The variable of a place and its steps from the variable outward, each with
/// its container's place and the span of its `(index ...)` or `(field ...)`.
fn flatten<'p>(p: &'p Place, out: &mut Vec<(&'p Place, Step<'p>, Span)>) -> Res<(&'p str, Span)> {
    match p {
        Place::Var { name, span } => Ok((name, *span)),
        Place::Index { base, index, span } => {
            let root = flatten(base, out)?;
            out.push((base, Step::Key(index), *span));
            Ok(root)
        }
        Place::Field { base, field, span } => {
            let root = flatten(base, out)?;
            out.push((base, Step::Field(&field.name), *span));
            Ok(root)
        }
    }
}

/// The width of a child's slot in a container of type `ty`: an array's
/// element width; 8 for a map's entry value and a struct's field.
fn child_width(ty: &Type) -> i64 {
    match ty {
        Type::Array(e) => slot_width(e),
        _ => 8,
    }
}

impl<'ctx> Lowering<'ctx, '_> {
    pub fn assign_index(&mut self, target: &Place, expr: &Expr) -> Res<()> {
        let mut keys = Vec::new();
        let (root, root_span) = flatten(target, &mut keys)?;
        let var = self.var(root)?.clone();
        let update = in_place(target, expr).map(|u| (u.op, u.rest));
        let n = keys.len();

        // 1. The keys, checked level by level against the current values.
        let mut cur = self.read_var(root, root_span)?.v;
        let mut ty = var.ty.clone();
        let mut levels: Vec<Level<'ctx>> = Vec::with_capacity(n);
        for (j, &(container, step, span)) in keys.iter().enumerate() {
            let last = j + 1 == n;
            let k = match step {
                Step::Key(k) => k,
                Step::Field(f) => {
                    // A field level has no key to evaluate and cannot fail.
                    let (i, fty) = self.field_slot(&ty, f)?;
                    let i = self.i64(i as i64);
                    if !last {
                        let s = self
                            .call("isu_get", &[cur.into(), i.into(), self.i64(8).into()])?
                            .into_int_value();
                        cur = self.of_slot(s, &fty)?;
                    }
                    levels.push(Level {
                        ty: ty.clone(),
                        child: fty.clone(),
                        key: Val::borrowed(i),
                        entry: None,
                    });
                    ty = fty;
                    continue;
                }
            };
            match ty.clone() {
                Type::Array(e) => {
                    let i = self.expr(k)?;
                    let name = match container {
                        Place::Var { name, .. } => Some(name.as_str()),
                        _ => None,
                    };
                    let guarded = name.is_some_and(|a| self.guarded(a, k));
                    if !guarded && !self.env.target_in_bounds(container, k, &self.decls) {
                        self.check_index(cur, i.int(), span, name)?;
                    }
                    if !last {
                        let w = self.i64(slot_width(&e));
                        let s = self
                            .call("isu_get", &[cur.into(), i.v.into(), w.into()])?
                            .into_int_value();
                        cur = self.of_slot(s, &e)?;
                    }
                    levels.push(Level {
                        ty: ty.clone(),
                        child: (*e).clone(),
                        key: i,
                        entry: None,
                    });
                    ty = *e;
                }
                Type::Map(kt, vt) => {
                    let key = self.expr(k)?;
                    let mut entry = None;
                    if !last || update.is_some() {
                        let ks = self.to_slot(key.v, &kt)?;
                        let kd = self.tdesc(&kt);
                        let i = self
                            .call("isu_map_find", &[cur.into(), ks.into(), kd.into()])?
                            .into_int_value();
                        let missing =
                            self.b
                                .build_int_compare(IntPredicate::SLT, i, self.i64(0), "")?;
                        let site = self.site(What::Plain, span, None);
                        let len = self.call("isu_len", &[cur.into()])?.into_int_value();
                        self.fail_if(missing, RuntimeCode::MissingKey, site, Some((len, len)))?;
                        if !last {
                            let s = self
                                .call("isu_entry_value", &[cur.into(), i.into()])?
                                .into_int_value();
                            cur = self.of_slot(s, &vt)?;
                        }
                        entry = Some(i);
                    }
                    // A string key spends its size (`work::place_spends`):
                    // after the entry is found, or, at the last level of a
                    // plain store, right after the key.
                    if let Some(n) = self.size(key.v, &kt)? {
                        self.spend_units(n, span)?;
                    }
                    levels.push(Level {
                        ty: ty.clone(),
                        child: (*vt).clone(),
                        key,
                        entry,
                    });
                    ty = *vt;
                }
                other => return bug(format!("an element target indexes a value of type {other}")),
            }
        }

        // 2. EXPR, or the other arguments of the in-place call.
        let mut value = None;
        let mut rest_args = Vec::new();
        match update {
            None => {
                let v = self.expr(expr)?;
                if work::assign_copies(target, expr) {
                    self.spend_copy(v.v, ty_of(expr)?, expr.span)?;
                }
                value = Some(self.own(v, ty_of(expr)?)?);
            }
            Some((op, rest)) => {
                for (i, r) in rest.iter().enumerate() {
                    let rty = ty_of(r)?.clone();
                    let v = self.expr(r)?;
                    let v = if op == Update::Concat && i == 0 {
                        v
                    } else {
                        Val::owned(self.own(v, &rty)?)
                    };
                    rest_args.push((v, rty));
                }
            }
        }

        // The memory the store adds, checked last (the in-place call checks
        // its own after its work). A map's entry is found once, here, for
        // the store as well.
        let mut found = None;
        if let (None, Some(lv), Some(v), Some(_)) = (&update, levels.last(), value, var.size) {
            let site = self.site(What::Plain, target.span(), None);
            let (old, new) = match &lv.ty {
                Type::Array(e) if work::has_size(e) => {
                    let old = self.elem_size(cur, lv.index(), e)?;
                    (old, self.full_size(v, e)?)
                }
                Type::Struct(_) if work::has_size(&ty) => {
                    // `ty`: the field's type (8-byte slots, as an array's).
                    let old = self.elem_size(cur, lv.index(), &ty)?;
                    (old, self.full_size(v, &ty)?)
                }
                Type::Map(kt, vt) => {
                    let n = self.full_size(v, vt)?;
                    let (old, new, i) = self.entry_sizes(cur, lv.key.v, kt, vt, n)?;
                    // A new key past the size limit fails with `size_limit`
                    // before the memory it would add is checked, which comes
                    // after every other check of the step (the insert's own
                    // check, at the store's site, made first). A key the map
                    // holds adds no entry: 0 passes, even for a map given
                    // over the limit.
                    let len = self.call("isu_len", &[cur.into()])?.into_int_value();
                    let missing =
                        self.b
                            .build_int_compare(IntPredicate::SLT, i, self.i64(0), "")?;
                    let more = self.b.build_int_add(len, self.i64(1), "")?;
                    let grown = self
                        .b
                        .build_select(missing, more, self.i64(0), "")?
                        .into_int_value();
                    let store_site = self.site(What::Plain, expr.span, None);
                    self.call(
                        "isu_check_size",
                        &[grown.into(), self.i32(store_site).into()],
                    )?;
                    found = Some(i);
                    (old, new)
                }
                _ => (self.i64(0), self.i64(0)),
            };
            self.hold(&var, old, new, site)?;
        }

        // 3. The store: unique containers all the way down (the variable
        // already, where a loop around made it its own and never shares it).
        let old = self.b.build_load(self.llty(&var.ty), var.slot, "")?;
        let unique = if self.owned.contains(root) {
            old
        } else {
            let t = self.tdesc(&var.ty);
            let unique = self.call("isu_own", &[old.into(), t.into()])?;
            self.b.build_store(var.slot, unique)?;
            unique
        };
        let mut cur = unique;
        // Where the current container sits: its parent and the level that leads to it.
        let mut parent: Option<(BasicValueEnum<'ctx>, usize)> = None;
        for (j, lv) in levels.iter().enumerate() {
            let last = j + 1 == n;
            // A map's child is an entry's value; an array's or a struct's, a
            // slot of its own.
            let child_ty = lv.child.clone();
            let entry = i32::from(matches!(lv.ty, Type::Map(..)));
            let width = self.i64(child_width(&lv.ty));
            // (A plain store into a map has no entry index: it inserts.)
            let plain_map_store = last && update.is_none() && entry == 1;
            let index = if plain_map_store {
                self.i64(0)
            } else {
                lv.index()
            };
            if !last {
                let cd = self.tdesc(&child_ty);
                let child = self.call(
                    "isu_unique_child",
                    &[cur.into(), index.into(), self.i32(entry).into(), cd.into()],
                )?;
                parent = Some((cur, j));
                cur = child;
                continue;
            }
            match (&update, entry) {
                (None, 0) => {
                    let w = width;
                    if is_heap(&child_ty) {
                        let s = self
                            .call("isu_get", &[cur.into(), index.into(), w.into()])?
                            .into_int_value();
                        let old = self.of_slot(s, &child_ty)?;
                        self.drop_value(old, &child_ty)?;
                    }
                    let v = value.unwrap_or_else(|| self.i64(0).into());
                    let s = self.to_slot(v, &child_ty)?;
                    self.call("isu_set", &[cur.into(), index.into(), w.into(), s.into()])?;
                }
                (None, _) => {
                    // Insert or replace; the map may move, so its holder is rewritten.
                    let Type::Map(kt, _) = &lv.ty else {
                        return bug("a map level without a map type");
                    };
                    let key = self.own(lv.key, kt)?;
                    let ks = self.to_slot(key, kt)?;
                    let v = value.unwrap_or_else(|| self.i64(0).into());
                    let vs = self.to_slot(v, &child_ty)?;
                    let md = self.tdesc(&lv.ty);
                    let site = self.site(What::Plain, expr.span, None);
                    let site = self.i32(site);
                    // Making the map (and the containers on the way) unique
                    // keeps its entries where they were found.
                    let m = match found {
                        Some(i) => self.call(
                            "isu_map_set_at",
                            &[
                                cur.into(),
                                i.into(),
                                ks.into(),
                                vs.into(),
                                md.into(),
                                site.into(),
                            ],
                        )?,
                        None => self.call(
                            "isu_map_set",
                            &[cur.into(), ks.into(), vs.into(), md.into(), site.into()],
                        )?,
                    };
                    self.store_back(parent, &levels, var.slot, m)?;
                    // The key was handed on with a reference of its own.
                    continue;
                }
                (Some((op, _)), _) => {
                    // The element moves into the call; the result goes back.
                    let s = if entry == 0 {
                        let w = width;
                        self.call("isu_get", &[cur.into(), index.into(), w.into()])?
                    } else {
                        self.call("isu_entry_value", &[cur.into(), index.into()])?
                    }
                    .into_int_value();
                    let elem = self.of_slot(s, &child_ty)?;
                    let new =
                        self.call_update(*op, elem, &child_ty, &var, &rest_args, expr.span)?;
                    let ns = self.to_slot(new, &child_ty)?;
                    if entry == 0 {
                        let w = width;
                        self.call("isu_set", &[cur.into(), index.into(), w.into(), ns.into()])?;
                    } else {
                        self.call(
                            "isu_set_entry_value",
                            &[cur.into(), index.into(), ns.into()],
                        )?;
                    }
                }
            }
            // Map keys that were temporaries and not handed on.
            if let Type::Map(kt, _) = &lv.ty {
                self.release(lv.key, kt)?;
            }
        }
        // Keys of outer map levels that were temporaries.
        for lv in levels.iter().take(n.saturating_sub(1)) {
            if let Type::Map(kt, _) = &lv.ty {
                self.release(lv.key, kt)?;
            }
        }
        Ok(())
    }

    /// Writes the map `m` back where the last container sat: the variable,
    /// or its parent's slot.
    fn store_back(
        &mut self,
        parent: Option<(BasicValueEnum<'ctx>, usize)>,
        levels: &[Level<'ctx>],
        var_slot: inkwell::values::PointerValue<'ctx>,
        m: BasicValueEnum<'ctx>,
    ) -> Res<()> {
        let Some((p, j)) = parent else {
            self.b.build_store(var_slot, m)?;
            return Ok(());
        };
        let Some(lv) = levels.get(j) else {
            return bug("a parent level that is not there");
        };
        let index = lv.index();
        let ms = self
            .b
            .build_ptr_to_int(m.into_pointer_value(), self.cx.i64_type(), "")?;
        if matches!(lv.ty, Type::Map(..)) {
            self.call("isu_set_entry_value", &[p.into(), index.into(), ms.into()])?;
        } else {
            self.call(
                "isu_set",
                &[p.into(), index.into(), self.i64(8).into(), ms.into()],
            )?;
        }
        Ok(())
    }
}
