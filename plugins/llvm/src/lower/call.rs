//! Calls of the standard functions (`spec/stdlib.md`): each evaluates its
//! arguments left to right, then calls the runtime (or computes inline), and
//! says whether its result is owned.

use super::{bug, ty_of, Lowering, Res, Val};
use crate::abi::{ErrorCode, What};
use inkwell::values::BasicMetadataValueEnum;
use inkwell::IntPredicate;
use isu_plugin_api::{Expr, Span, Type};

impl<'ctx> Lowering<'ctx, '_> {
    pub fn call_fn(&mut self, func: &str, args: &[Expr], ty: &Type, span: Span) -> Res<Val<'ctx>> {
        let tys: Vec<Type> = args.iter().map(|a| ty_of(a).cloned()).collect::<Res<_>>()?;
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.expr(a)?);
        }
        let plain = self.site(What::Plain, span, None);
        let site = self.i32(plain);
        let r = match (func, vals.as_slice(), tys.as_slice()) {
            ("LEN", [x], [xt]) => {
                let f = if *xt == Type::String {
                    "isu_nchars"
                } else {
                    "isu_len"
                };
                let n = self.call(f, &[x.v.into()])?;
                self.release(*x, xt)?;
                Val::borrowed(n)
            }
            ("PUSH", [xs, v], [xt, vt]) => {
                let xs = self.own(*xs, xt)?;
                let v = self.own(*v, vt)?;
                let s = self.to_slot(v, vt)?;
                let t = self.tdesc(ty);
                Val::owned(self.call("isu_push", &[xs.into(), s.into(), t.into(), site.into()])?)
            }
            ("POP", [xs], [xt]) => {
                let xs = self.own(*xs, xt)?;
                let t = self.tdesc(ty);
                Val::owned(self.call("isu_pop", &[xs.into(), t.into(), site.into()])?)
            }
            ("CONCAT", [x, y], [xt, yt]) => {
                let x = self.own(*x, xt)?;
                let t = self.tdesc(ty);
                let r = self.call("isu_concat", &[x.into(), y.v.into(), t.into(), site.into()])?;
                self.release(*y, yt)?;
                Val::owned(r)
            }
            ("SLICE", [x, lo, hi], [xt, ..]) => {
                let s = self.site(What::Slice, span, None);
                let t = self.tdesc(ty);
                let r = self.call(
                    "isu_slice",
                    &[
                        x.v.into(),
                        lo.v.into(),
                        hi.v.into(),
                        t.into(),
                        self.i32(s).into(),
                    ],
                )?;
                self.release(*x, xt)?;
                Val::owned(r)
            }
            ("MAP_HAS", [m, k], [mt, kt]) => {
                let ks = self.to_slot(k.v, kt)?;
                let kd = self.tdesc(kt);
                let i = self
                    .call("isu_map_find", &[m.v.into(), ks.into(), kd.into()])?
                    .into_int_value();
                let has = self
                    .b
                    .build_int_compare(IntPredicate::SGE, i, self.i64(0), "")?;
                self.release(*m, mt)?;
                self.release(*k, kt)?;
                Val::borrowed(has)
            }
            ("MAP_GET", [m, k], [mt, kt]) => {
                let ks = self.to_slot(k.v, kt)?;
                let t = self.tdesc(mt);
                let s = self
                    .call(
                        "isu_map_get",
                        &[m.v.into(), ks.into(), t.into(), site.into()],
                    )?
                    .into_int_value();
                self.release(*k, kt)?;
                let v = self.of_slot(s, ty)?;
                return self.project(*m, mt, v, ty);
            }
            ("MAP_GET_OR", [m, k, d], [mt, kt, dt]) => {
                let ks = self.to_slot(k.v, kt)?;
                let ds = self.to_slot(d.v, dt)?;
                let t = self.tdesc(mt);
                let s = self
                    .call(
                        "isu_map_get_or",
                        &[m.v.into(), ks.into(), ds.into(), t.into()],
                    )?
                    .into_int_value();
                let v = self.of_slot(s, ty)?;
                // Borrowed from the map or the default: taken over when either
                // is a temporary about to be dropped.
                let temp = m.own == super::Own::Owned || d.own == super::Own::Owned;
                let r = if temp && super::is_heap(ty) {
                    self.inc(v, ty)?;
                    Val::owned(v)
                } else {
                    Val::borrowed(v)
                };
                self.release(*m, mt)?;
                self.release(*k, kt)?;
                self.release(*d, dt)?;
                r
            }
            ("MAP_SET", [m, k, v], [mt, kt, vt]) => {
                let m = self.own(*m, mt)?;
                let k = self.own(*k, kt)?;
                let v = self.own(*v, vt)?;
                let ks = self.to_slot(k, kt)?;
                let vs = self.to_slot(v, vt)?;
                let t = self.tdesc(ty);
                Val::owned(self.call(
                    "isu_map_set",
                    &[m.into(), ks.into(), vs.into(), t.into(), site.into()],
                )?)
            }
            ("MAP_KEYS", [m], [mt]) => {
                let t = self.tdesc(mt);
                let r = self.call("isu_map_keys", &[m.v.into(), t.into()])?;
                self.release(*m, mt)?;
                Val::owned(r)
            }
            ("SPLIT_WHITESPACE", [s], [st]) => self.text_fn("isu_split_whitespace", *s, st, &[])?,
            ("LOWER", [s], [st]) => self.text_fn("isu_lower", *s, st, &[])?,
            ("CHARS", [s], [st]) => self.text_fn("isu_chars", *s, st, &[site.into()])?,
            ("JOIN", [xs, sep], [xt, st]) => {
                let r = self.call("isu_join", &[xs.v.into(), sep.v.into(), site.into()])?;
                self.release(*xs, xt)?;
                self.release(*sep, st)?;
                Val::owned(r)
            }
            ("PARSE_INT", [s], [st]) => {
                let r = self.call("isu_parse_int", &[s.v.into(), site.into()])?;
                self.release(*s, st)?;
                Val::borrowed(r)
            }
            ("TO_STRING", [n], _) => Val::owned(self.call("isu_to_string", &[n.v.into()])?),
            ("ABS", [n], _) => {
                let x = n.int();
                let s = self.site(What::Abs, span, None);
                let min = self
                    .b
                    .build_int_compare(IntPredicate::EQ, x, self.i64(i64::MIN), "")?;
                self.fail_if(min, ErrorCode::IntOverflow, s, Some((x, x)))?;
                let neg = self.b.build_int_nsw_neg(x, "")?;
                let below = self
                    .b
                    .build_int_compare(IntPredicate::SLT, x, self.i64(0), "")?;
                Val::borrowed(self.b.build_select(below, neg, x, "abs")?)
            }
            ("MIN" | "MAX", [x, y], _) => {
                let pred = if func == "MIN" {
                    IntPredicate::SLT
                } else {
                    IntPredicate::SGT
                };
                let c = self.b.build_int_compare(pred, x.int(), y.int(), "")?;
                Val::borrowed(self.b.build_select(c, x.int(), y.int(), "")?)
            }
            ("REPEAT", [v, n], [vt, _]) => {
                let s = self.to_slot(v.v, vt)?;
                let t = self.tdesc(vt);
                let r = self.call("isu_repeat", &[s.into(), n.v.into(), t.into(), site.into()])?;
                self.release(*v, vt)?;
                Val::owned(r)
            }
            _ => {
                return bug(format!(
                    "the function {func} with {} arguments is not a standard function",
                    args.len()
                ))
            }
        };
        Ok(r)
    }

    /// A runtime function of one string (borrowed) giving a new value.
    fn text_fn(
        &mut self,
        name: &str,
        s: Val<'ctx>,
        st: &Type,
        more: &[BasicMetadataValueEnum<'ctx>],
    ) -> Res<Val<'ctx>> {
        let mut args: Vec<BasicMetadataValueEnum<'ctx>> = vec![s.v.into()];
        args.extend_from_slice(more);
        let r = self.call(name, &args)?;
        self.release(s, st)?;
        Ok(Val::owned(r))
    }
}
