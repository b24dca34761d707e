//! The standard functions (`isu_lang::stdlib`, spec/stdlib.md) as Python,
//! matched exhaustively: a new standard function does not compile here
//! until it has its Python form.
//!
//! Functions that build a collection return a new object that nothing else
//! holds: their collection arguments are copied first when some variable
//! holds them (`own`), so the runtime's `_..._into` helpers may change them
//! in place.

use super::{invalid, ty, Gen, R};
use crate::py::{Prec, Py};
use crate::{names, pytype};
use isu_plugin_api::analysis::interval;
use isu_plugin_api::work::{self, has_size};
use isu_plugin_api::{Builtin, Expr, Type};

const MAX_SIZE: &str = "_max_size";

impl Gen {
    pub(super) fn call(&mut self, e: &Expr, func: &str, args: &[Expr]) -> R<Py> {
        let Some(b) = Builtin::of(func) else {
            if !func.contains('.') {
                return Err(invalid(format!("`{func}` is not a standard function")));
            }
            let name = names::pack_function(func);
            let Some(&limited) = self.packs.get(&name) else {
                return Err(isu_plugin_api::PluginDiagnostic::backend(
                    isu_plugin_api::BackendCode::UnsupportedFeature,
                    format!("no Python definition of the pack function `{func}` was given"),
                )
                .with_hint("load the pack that defines it (isu-plugins.toml)"));
            };
            return self.pack_call(e, func, &name, args, limited);
        };
        let want = b.info().arity();
        if args.len() != want {
            return Err(invalid(format!(
                "{func} takes {want} arguments, not {}",
                args.len()
            )));
        }
        let max = Py::atom(MAX_SIZE);
        Ok(match b {
            // Python's int to float rounds to nearest, ties to even.
            Builtin::Float => Py::call("float", &self.exprs(args)?),
            // math.trunc, math.floor, math.ceil and round (half to even)
            // give Python ints, checked against the int range.
            Builtin::Trunc | Builtin::Floor | Builtin::Ceil | Builtin::Round => {
                let f = match b {
                    Builtin::Trunc => "_math.trunc",
                    Builtin::Floor => "_math.floor",
                    Builtin::Ceil => "_math.ceil",
                    _ => "round",
                };
                let x = self.expr(&args[0])?;
                Py::call(
                    "_to_int",
                    &[x, Py::atom(f), Py::atom(crate::text::py_str(func))],
                )
            }
            Builtin::Sqrt => Py::call("_sqrt", &self.exprs(args)?),
            // PARSE_FLOAT may fail itself, so its error comes before the charge.
            Builtin::ParseFloat => self.text_read("_parse_float", &args[0], true)?,
            Builtin::Len => Py::call("len", &[self.expr(&args[0])?]),
            // The calls that spend work (spec/semantics.md 7, lower/work.rs):
            // a copied collection's size is told by the result's. PUSH:
            // the sizes of `xs` and `v` are the result's but its one more
            // element.
            Builtin::Push => {
                let xs = self.own(&args[0])?;
                let x = self.own(&args[1])?;
                let call = Py::call("_push_into", &[xs, x, max]);
                Gen::spend_after(&call, ty(e)?, " - 1")
            }
            Builtin::Pop => {
                let t = ty(&args[0])?.clone();
                let xs = self.own(&args[0])?;
                if work::size_is_length(&t) {
                    Gen::spend_after(&Py::call("_pop_from", &[xs]), &t, " + 1")
                } else {
                    // The element removed is gone from the result.
                    let call = Py::call("_pop_counted", &[xs, Py::atom(pytype::descriptor(&t))]);
                    Gen::spend_pair(&call, &[])
                }
            }
            Builtin::Slice => {
                let parts = self.exprs(args)?;
                Gen::spend_after(&Py::call("_slice", &parts), ty(e)?, "")
            }
            // A lookup by a string key spends the key's size after it.
            Builtin::MapHas if has_size(ty(&args[1])?) => {
                let quiet = self.quiet(args);
                let m = self.expr(&args[0])?;
                let k = self.expr(&args[1])?;
                let k = self.measure(&args[1], k)?;
                let call = Py::call("_map_has", &[m, k.bind_arg()]);
                Gen::spend_key(&call, &k, quiet, false)
            }
            Builtin::MapHas => match self.map_has(args, false)? {
                Some(py) => py,
                None => Py::call("_map_has", &self.exprs(args)?),
            },
            Builtin::MapGet => {
                let quiet = self.quiet(args);
                let m = self.expr(&args[0])?;
                let k = self.expr(&args[1])?;
                let k = self.measure(&args[1], k)?;
                let call = Py::new(
                    format!("{}[{}]", m.at(Prec::Primary), k.bind().text),
                    Prec::Primary,
                );
                Gen::spend_key(&call, &k, quiet, true)
            }
            Builtin::MapSet => {
                let m = self.own(&args[0])?;
                let k = self.expr(&args[1])?;
                let k = self.measure(&args[1], k)?;
                let v = self.own(&args[2])?;
                let v = self.measure(&args[2], v)?;
                // The size of the map before it changed.
                let d = Py::atom(pytype::descriptor(ty(e)?));
                let call = Py::call("_map_set_counted", &[m, k.bind_arg(), v.bind_arg(), max, d]);
                let rest: Vec<String> = k.len().into_iter().chain(v.len()).collect();
                Gen::spend_pair(&call, &rest)
            }
            Builtin::SplitWhitespace => self.text_read("_split_whitespace", &args[0], false)?,
            Builtin::Join => {
                let xs = self.expr(&args[0])?;
                let xs = self.measure(&args[0], xs)?;
                let sep = self.expr(&args[1])?;
                let call = Py::call("_join", &[xs.bind_arg(), sep, max]);
                let tail = xs.len().map(|l| format!(" + {l}")).unwrap_or_default();
                Gen::spend_after(&call, &Type::String, &tail)
            }
            // The size of `s` is the result's.
            Builtin::Lower => {
                Gen::spend_after(&Py::call("_lower", &self.exprs(args)?), &Type::String, "")
            }
            Builtin::Abs => {
                let a = self.expr(&args[0])?;
                let int = ty(&args[0])? == &Type::Int;
                let f = if int && self.env.interval(&args[0]).contains(interval::MIN) {
                    "_abs"
                } else {
                    "abs"
                };
                Py::call(f, &[a])
            }
            Builtin::Min => Py::call("min", &self.exprs(args)?),
            Builtin::Max => Py::call("max", &self.exprs(args)?),
            // Both lengths: the result's. Too long is `size_limit` before
            // the charge is `step_limit`.
            Builtin::Concat => match ty(e)? {
                Type::String => {
                    let a = self.expr(&args[0])?;
                    let b = self.expr(&args[1])?;
                    Py::new(
                        format!(
                            "_s if (_n := len(_s := {} + {})) <= _max_size and (_fuel := _fuel - _n) >= 0 else _too_long(_n, _max_size, \"CONCAT's result\")",
                            a.at(Prec::Sum),
                            b.above(Prec::Sum)
                        ),
                        Prec::Cond,
                    )
                }
                Type::Array(_) => {
                    let xs = self.own(&args[0])?;
                    let ys = self.elements(&args[1])?;
                    Gen::spend_after(&Py::call("_extend_into", &[xs, ys, max]), ty(e)?, "")
                }
                other => return Err(invalid(format!("CONCAT of type {other}"))),
            },
            Builtin::ToString => Py::call("str", &self.exprs(args)?),
            // PARSE_INT may fail itself, so its error comes before the charge.
            Builtin::ParseInt => self.text_read("_parse_int", &args[0], true)?,
            Builtin::MapKeys => {
                Gen::spend_after(&Py::call("sorted", &self.exprs(args)?), ty(e)?, "")
            }
            Builtin::MapGetOr => {
                let quiet = self.quiet(args);
                let m = self.expr(&args[0])?;
                let k = self.expr(&args[1])?;
                let k = self.measure(&args[1], k)?;
                let d = self.expr(&args[2])?;
                let call = Py::new(
                    format!(
                        "{}.get({}, {})",
                        m.at(Prec::Primary),
                        k.bind_arg().text,
                        d.text
                    ),
                    Prec::Primary,
                );
                Gen::spend_key(&call, &k, quiet, false)
            }
            Builtin::Repeat => {
                let t = ty(&args[0])?.clone();
                let x = self.expr(&args[0])?;
                let x = self.measure(&args[0], x)?;
                let n = self.expr(&args[1])?;
                if pytype::is_mutable(&t) {
                    // Copies are built only once the fuel covers them.
                    let copy = Py::atom(self.copies.function(&t));
                    let d = Py::atom(pytype::descriptor(&t));
                    let fuel = Py::atom("_fuel");
                    let call = Py::call("_repeat_counted", &[x.bind_arg(), n, max, copy, d, fuel]);
                    return Ok(Gen::spend_pair(&call, &[]));
                }
                let call = Py::call("_repeat", &[x.bind_arg(), n, max]);
                // The array, and every copy of the value in it.
                let tail = match (x.fixed, x.len()) {
                    (Some(k), _) => format!(" * {}", k + 1),
                    (None, Some(l)) => format!(" * (1 + {l})"),
                    (None, None) => String::new(),
                };
                Gen::spend_after(&call, &Type::array(Type::Int), &tail)
            }
            // The size of `s` is the result's length.
            Builtin::Chars => Gen::spend_after(
                &Py::call("_chars", &[self.expr(&args[0])?, max]),
                &Type::String,
                "",
            ),
            // The size of `s` is the result's.
            Builtin::Upper => {
                Gen::spend_after(&Py::call("_upper", &self.exprs(args)?), &Type::String, "")
            }
            // The size of `xs` is the result's; its elements are ints or
            // strings, which nothing can change, so the new list shares them.
            Builtin::Sort => Gen::spend_after(&Py::call("sorted", &self.exprs(args)?), ty(e)?, ""),
            // The size of `xs` (or `s`) is the result's; a reversed array
            // holds the old elements, as a slice does.
            Builtin::Reverse => {
                let x = self.expr(&args[0])?;
                let back = Py::new(format!("{}[::-1]", x.at(Prec::Primary)), Prec::Primary);
                Gen::spend_after(&back, ty(e)?, "")
            }
            // The rest spend the sizes of what they search in and for:
            // the text split and the separator, the text or array searched
            // and the substring or element.
            Builtin::Split => self.spend_read(args, true, |parts| {
                Py::call("_split", &[&parts[..], &[max]].concat())
            })?,
            // `t in s` evaluates `t` first, but `s` is a name, a constant
            // or a temporary the charge bound already.
            Builtin::Contains => {
                self.spend_read(args, false, |parts| Py::compare(&parts[1], "in", &parts[0]))?
            }
            Builtin::IndexOf => {
                let text = ty(&args[0])? == &Type::String;
                self.spend_read(args, false, |parts| {
                    let [hay, needle] = parts.as_slice() else {
                        unreachable!("INDEX_OF takes 2 arguments")
                    };
                    if text {
                        // Positions in code points, -1 when absent, 0 for "".
                        Py::new(
                            format!("{}.find({})", hay.at(Prec::Primary), needle.text),
                            Prec::Primary,
                        )
                    } else {
                        Py::call("_index_of", &parts)
                    }
                })?
            }
        })
    }

    /// Whether evaluating the arguments can fail in no way.
    fn quiet(&self, args: &[Expr]) -> bool {
        args.iter().all(|a| self.codes(a).is_empty())
    }

    /// A call of two arguments that spends the sizes of both after it
    /// succeeds (`work::of`: `Arg(0)`, `Arg(1)`), made by `build` from its
    /// arguments (as read again). When the second argument cannot fail, the
    /// sizes are charged before the call ([`Gen::spend_before`]; `fails`:
    /// the call may fail itself), which changes nothing anyone can see;
    /// else the sizes and the call are a tuple, evaluated in Isu's order,
    /// and the sizes are charged after it.
    fn spend_read(
        &mut self,
        args: &[Expr],
        fails: bool,
        build: impl FnOnce(Vec<Py>) -> Py,
    ) -> R<Py> {
        let quiet = args[1..].iter().all(|a| self.codes(a).is_empty());
        let mut lens = Vec::new();
        let mut parts = Vec::new();
        for a in args {
            let py = self.expr(a)?;
            let m = self.measure(a, py)?;
            lens.extend(m.len_bound());
            parts.push(m.reference());
        }
        let units = match lens.len() {
            0 => "0".to_owned(),
            1 => lens.join(""),
            _ => format!("({})", lens.join(" + ")),
        };
        let call = build(parts);
        Ok(if quiet {
            Gen::spend_before(&call, &units, fails)
        } else {
            Gen::spend_measured(&units, &call)
        })
    }

    /// A call of the pack function `func` defined as `name` (`limited`: its
    /// definition takes the run's size limit as a last parameter
    /// `max_size`), which spends the sizes of its arguments and of its
    /// result after it returns (`isu_lang::work::of_pack`): the result's
    /// size first, then the arguments' bound where the call evaluates them.
    fn pack_call(
        &mut self,
        e: &Expr,
        func: &str,
        name: &str,
        args: &[Expr],
        limited: bool,
    ) -> R<Py> {
        let mut parts = Vec::with_capacity(args.len() + 1);
        let mut lens = Vec::new();
        for a in args {
            let py = self.expr(a)?;
            let m = self.measure(a, py)?;
            parts.push(m.bind_arg());
            lens.extend(m.len());
        }
        if limited {
            parts.push(Py::atom(MAX_SIZE));
        }
        let ret = ty(e)?;
        let call = if has_size(ret) {
            // The host's rule for every pack call, the function's own checks aside.
            let what = format!("the result of {func}");
            Py::call(
                "_pack_result",
                &[
                    Py::call(name, &parts),
                    Py::atom(MAX_SIZE),
                    Py::atom(crate::text::py_str(&what)),
                ],
            )
        } else {
            Py::call(name, &parts)
        };
        if has_size(ret) {
            let tail: String = lens.iter().map(|l| format!(" + {l}")).collect();
            return Ok(Gen::spend_after(&call, ret, &tail));
        }
        if lens.is_empty() {
            return Ok(call);
        }
        Ok(Gen::spend_tupled(&call, &lens.join(" + ")))
    }

    /// A call of the runtime function `func` on the string `arg`, which
    /// spends only the string's length: charged before the call, since the
    /// argument gives it (`fails`: the call may fail itself, see
    /// [`Gen::spend_before`]).
    fn text_read(&mut self, func: &str, arg: &Expr, fails: bool) -> R<Py> {
        let s = self.expr(arg)?;
        let s = self.measure(arg, s)?;
        let call = Py::call(func, &[s.reference()]);
        let units = s.len_bound().unwrap_or_default();
        Ok(Gen::spend_before(&call, &units, fails))
    }

    fn exprs(&mut self, args: &[Expr]) -> R<Vec<Py>> {
        args.iter().map(|a| self.expr(a)).collect()
    }

    /// An array whose elements are about to be stored in another: copied
    /// when they are arrays or maps that something else holds.
    pub(super) fn elements(&mut self, e: &Expr) -> R<Py> {
        let t = ty(e)?;
        let nested = pytype::element(t).is_some_and(pytype::is_mutable);
        if nested {
            self.own(e)
        } else {
            self.expr(e)
        }
    }

    /// `MAP_HAS(m, k)` as `k in m` (or `k not in m`), unless the key has a
    /// size (a lookup by a string key spends it, which the call's own
    /// lowering does) or both can fail, differently: Python evaluates `k`
    /// first, Isu `m` first; then `None`.
    pub(super) fn map_has(&mut self, args: &[Expr], negated: bool) -> R<Option<Py>> {
        let [m, k] = args else {
            return Err(invalid("MAP_HAS takes 2 arguments"));
        };
        if has_size(ty(k)?) || !self.codes(m).commutes(self.codes(k)) {
            return Ok(None);
        }
        let (mp, kp) = (self.expr(m)?, self.expr(k)?);
        let op = if negated { "not in" } else { "in" };
        Ok(Some(Py::compare(&kp, op, &mp)))
    }
}
