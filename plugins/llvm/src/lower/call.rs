//! Calls of the standard functions (`spec/stdlib.md`): each evaluates its
//! arguments left to right, then calls the runtime (or computes inline), and
//! says whether its result is owned.

use super::{bug, ty_of, Lowering, Res, Val};
use crate::abi::{RuntimeCode, What};
use inkwell::values::BasicMetadataValueEnum;
use inkwell::IntPredicate;
use isu_plugin_api::analysis::interval;
use isu_plugin_api::{work, Builtin as B, Expr, Span, Type};

impl<'ctx> Lowering<'ctx, '_> {
    pub fn call_fn(&mut self, func: &str, args: &[Expr], ty: &Type, span: Span) -> Res<Val<'ctx>> {
        if B::of(func).is_none() && func.contains('.') {
            return self.call_pack(func, args, ty, span);
        }
        let tys: Vec<Type> = args.iter().map(|a| ty_of(a).cloned()).collect::<Res<_>>()?;
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.expr(a)?);
        }
        let plain = self.site(What::Plain, span, None);
        let site = self.i32(plain);
        let Some(b) = B::of(func) else {
            return bug(format!("{func} is not a standard function"));
        };
        let (vals, tys) = (vals.as_slice(), tys.as_slice());
        let free = work::of(b).is_free();
        let lens = if free {
            Vec::new()
        } else {
            let passed: Vec<_> = vals.iter().zip(tys).map(|(v, t)| (v.v, t)).collect();
            self.measure_args(b, false, &passed)?
        };
        let float = self.float_call(b, args, vals, span, site)?;
        let r = match float {
            Some(v) => v,
            None => match b {
                B::Ceil | B::Float | B::Floor | B::ParseFloat | B::Round | B::Sqrt | B::Trunc => {
                    return arity(func, args);
                }
                B::Len => {
                    let ([x], [xt]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let n = if *xt == Type::String {
                        self.call("isu_nchars", &[x.v.into()])?
                    } else {
                        let name = match args.first().map(|a| &a.node) {
                            Some(isu_plugin_api::ExprNode::Var { name }) => Some(name.as_str()),
                            _ => None,
                        };
                        self.length(x.v, name)?.into()
                    };
                    self.release(*x, xt)?;
                    Val::borrowed(n)
                }
                B::Push => {
                    let ([xs, v], [xt, vt]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let xs = self.own(*xs, xt)?;
                    let v = self.own(*v, vt)?;
                    let s = self.to_slot(v, vt)?;
                    let t = self.tdesc(ty);
                    Val::owned(
                        self.call("isu_push", &[xs.into(), s.into(), t.into(), site.into()])?,
                    )
                }
                B::Pop => {
                    let ([xs], [xt]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let xs = self.own(*xs, xt)?;
                    let t = self.tdesc(ty);
                    Val::owned(self.call("isu_pop", &[xs.into(), t.into(), site.into()])?)
                }
                B::Concat => {
                    let ([x, y], [xt, yt]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let x = self.own(*x, xt)?;
                    let t = self.tdesc(ty);
                    let r =
                        self.call("isu_concat", &[x.into(), y.v.into(), t.into(), site.into()])?;
                    self.release(*y, yt)?;
                    Val::owned(r)
                }
                B::Slice => {
                    let ([x, lo, hi], [xt, ..]) = (vals, tys) else {
                        return arity(func, args);
                    };
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
                B::MapHas => {
                    let ([m, k], [mt, kt]) = (vals, tys) else {
                        return arity(func, args);
                    };
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
                B::MapGet => {
                    let ([m, k], [mt, kt]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let ks = self.to_slot(k.v, kt)?;
                    let t = self.tdesc(mt);
                    let s = self
                        .call(
                            "isu_map_get",
                            &[m.v.into(), ks.into(), t.into(), site.into()],
                        )?
                        .into_int_value();
                    self.release(*k, kt)?;
                    // The key's size (measured before the call), as every call spends.
                    self.spend_call(b, false, &lens, None, span)?;
                    let v = self.of_slot(s, ty)?;
                    return self.project(*m, mt, v, ty);
                }
                B::MapGetOr => {
                    let ([m, k, d], [mt, kt, dt]) = (vals, tys) else {
                        return arity(func, args);
                    };
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
                B::MapSet => {
                    let ([m, k, v], [mt, kt, vt]) = (vals, tys) else {
                        return arity(func, args);
                    };
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
                B::MapKeys => {
                    let ([m], [mt]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let t = self.tdesc(mt);
                    let r = self.call("isu_map_keys", &[m.v.into(), t.into()])?;
                    self.release(*m, mt)?;
                    Val::owned(r)
                }
                B::SplitWhitespace => {
                    let ([s], [st]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    self.text_fn("isu_split_whitespace", *s, st, &[])?
                }
                B::Lower => {
                    let ([s], [st]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    self.text_fn("isu_lower", *s, st, &[])?
                }
                B::Upper => {
                    let ([s], [st]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    self.text_fn("isu_upper", *s, st, &[])?
                }
                B::Split => {
                    let ([s, sep], [st, sept]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let r = self.call("isu_split", &[s.v.into(), sep.v.into(), site.into()])?;
                    self.release(*s, st)?;
                    self.release(*sep, sept)?;
                    Val::owned(r)
                }
                B::Sort => {
                    let ([xs], [xt]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let xs = self.own(*xs, xt)?;
                    let t = self.tdesc(xt);
                    Val::owned(self.call("isu_sort", &[xs.into(), t.into()])?)
                }
                B::Reverse => {
                    let ([x], [xt]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    if *xt == Type::String {
                        self.text_fn("isu_str_reverse", *x, xt, &[])?
                    } else {
                        let xs = self.own(*x, xt)?;
                        let t = self.tdesc(xt);
                        Val::owned(self.call("isu_reverse", &[xs.into(), t.into()])?)
                    }
                }
                B::IndexOf | B::Contains => {
                    let ([x, y], [xt, yt]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let at = match xt {
                        Type::Array(e) => {
                            let s = self.to_slot(y.v, yt)?;
                            let ed = self.tdesc(e);
                            self.call("isu_index_of", &[x.v.into(), s.into(), ed.into()])?
                        }
                        _ => self.call("isu_find", &[x.v.into(), y.v.into()])?,
                    }
                    .into_int_value();
                    self.release(*x, xt)?;
                    self.release(*y, yt)?;
                    if b == B::Contains {
                        let found =
                            self.b
                                .build_int_compare(IntPredicate::SGE, at, self.i64(0), "")?;
                        Val::borrowed(found)
                    } else {
                        Val::borrowed(at)
                    }
                }
                B::Chars => {
                    let ([s], [st]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    self.text_fn("isu_chars", *s, st, &[site.into()])?
                }
                B::Join => {
                    let ([xs, sep], [xt, st]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let r = self.call("isu_join", &[xs.v.into(), sep.v.into(), site.into()])?;
                    self.release(*xs, xt)?;
                    self.release(*sep, st)?;
                    Val::owned(r)
                }
                B::ParseInt => {
                    let ([s], [st]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let r = self.call("isu_parse_int", &[s.v.into(), site.into()])?;
                    self.release(*s, st)?;
                    Val::borrowed(r)
                }
                B::ToString => {
                    let ([n], _) = (vals, tys) else {
                        return arity(func, args);
                    };
                    Val::owned(self.call("isu_to_string", &[n.v.into()])?)
                }
                B::Abs => {
                    let ([n], _) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let x = n.int();
                    if self.env.interval(&args[0]).contains(interval::MIN) {
                        let s = self.site(What::Abs, span, None);
                        let min = self.b.build_int_compare(
                            IntPredicate::EQ,
                            x,
                            self.i64(i64::MIN),
                            "",
                        )?;
                        self.fail_if(min, RuntimeCode::IntOverflow, s, Some((x, x)))?;
                    }
                    let neg = self.b.build_int_nsw_neg(x, "")?;
                    let below = self
                        .b
                        .build_int_compare(IntPredicate::SLT, x, self.i64(0), "")?;
                    Val::borrowed(self.b.build_select(below, neg, x, "abs")?)
                }
                B::Min | B::Max => {
                    let ([x, y], _) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let pred = if b == B::Min {
                        IntPredicate::SLT
                    } else {
                        IntPredicate::SGT
                    };
                    let c = self.b.build_int_compare(pred, x.int(), y.int(), "")?;
                    Val::borrowed(self.b.build_select(c, x.int(), y.int(), "")?)
                }
                B::Repeat => {
                    let ([v, n], [vt, _]) = (vals, tys) else {
                        return arity(func, args);
                    };
                    let s = self.to_slot(v.v, vt)?;
                    let t = self.tdesc(vt);
                    let r =
                        self.call("isu_repeat", &[s.into(), n.v.into(), t.into(), site.into()])?;
                    self.release(*v, vt)?;
                    Val::owned(r)
                }
            },
        };
        if !free {
            self.spend_call(b, false, &lens, Some((r.v, ty)), span)?;
        }
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

/// A call whose number of arguments is not its function's: the validator
/// refuses those, so it is a bug of the host.
fn arity<T>(func: &str, args: &[Expr]) -> Res<T> {
    bug(format!(
        "the function {func} with {} arguments is not a standard function",
        args.len()
    ))
}
