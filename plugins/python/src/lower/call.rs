//! The standard functions (`isu_lang::stdlib`, spec/stdlib.md) as Python,
//! matched exhaustively: a new standard function does not compile here
//! until it has its Python form.
//!
//! Functions that build a collection return a new object that nothing else
//! holds: their collection arguments are copied first when some variable
//! holds them (`own`), so the runtime's `_..._into` helpers may change them
//! in place.

use super::expr::Codes;
use super::{invalid, ty, Gen, R};
use crate::py::{Prec, Py};
use crate::{names, pytype};
use isu_plugin_api::analysis::interval;
use isu_plugin_api::{Builtin, Expr, ExprNode, Type};

const MAX_SIZE: &str = "_max_size";

impl Gen {
    pub(super) fn call(&mut self, e: &Expr, func: &str, args: &[Expr]) -> R<Py> {
        let Some(b) = Builtin::of(func) else {
            if !func.contains('.') {
                return Err(invalid(format!("`{func}` is not a standard function")));
            }
            let name = names::pack_function(func);
            if !self.packs.contains(&name) {
                return Err(isu_plugin_api::PluginDiagnostic::backend(
                    isu_plugin_api::BackendCode::UnsupportedFeature,
                    format!("no Python definition of the pack function `{func}` was given"),
                )
                .with_hint("load the pack that defines it (isu-plugins.toml)"));
            }
            return Ok(Py::call(&name, &self.exprs(args)?));
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
            Builtin::Len => Py::call("len", &[self.expr(&args[0])?]),
            Builtin::Push => {
                let xs = self.own(&args[0])?;
                let x = self.own(&args[1])?;
                Py::call("_push_into", &[xs, x, max])
            }
            Builtin::Pop => Py::call("_pop_from", &[self.own(&args[0])?]),
            Builtin::Slice => {
                let parts = self.exprs(args)?;
                Py::call("_slice", &parts)
            }
            Builtin::MapHas => match self.map_has(args, false)? {
                Some(py) => py,
                None => Py::call("_map_has", &self.exprs(args)?),
            },
            Builtin::MapGet => {
                let m = self.expr(&args[0])?;
                let k = self.expr(&args[1])?;
                Py::new(
                    format!("{}[{}]", m.at(Prec::Primary), k.text),
                    Prec::Primary,
                )
            }
            Builtin::MapSet => {
                let m = self.own(&args[0])?;
                let k = self.expr(&args[1])?;
                let v = self.own(&args[2])?;
                Py::call("_map_set_into", &[m, k, v, max])
            }
            Builtin::SplitWhitespace => Py::call("_split_whitespace", &self.exprs(args)?),
            Builtin::Join => {
                let mut parts = self.exprs(args)?;
                parts.push(max);
                Py::call("_join", &parts)
            }
            Builtin::Lower => Py::call("_lower", &self.exprs(args)?),
            Builtin::Abs => {
                let a = self.expr(&args[0])?;
                let f = if self.env.interval(&args[0]).contains(interval::MIN) {
                    "_abs"
                } else {
                    "abs"
                };
                Py::call(f, &[a])
            }
            Builtin::Min => Py::call("min", &self.exprs(args)?),
            Builtin::Max => Py::call("max", &self.exprs(args)?),
            Builtin::Concat => match ty(e)? {
                Type::String => {
                    let mut parts = Vec::new();
                    self.concat_parts(e, &mut parts)?;
                    let texts: Vec<String> = parts.iter().map(|p| p.at(Prec::Sum)).collect();
                    Py::new(
                        format!(
                            "_s if len(_s := {}) <= _max_size else _size_limit(\"CONCAT's result\")",
                            texts.join(" + ")
                        ),
                        Prec::Cond,
                    )
                }
                Type::Array(_) => {
                    let xs = self.own(&args[0])?;
                    let ys = self.elements(&args[1])?;
                    Py::call("_extend_into", &[xs, ys, max])
                }
                other => return Err(invalid(format!("CONCAT of type {other}"))),
            },
            Builtin::ToString => Py::call("str", &self.exprs(args)?),
            Builtin::ParseInt => Py::call("_parse_int", &self.exprs(args)?),
            Builtin::MapKeys => Py::call("sorted", &self.exprs(args)?),
            Builtin::MapGetOr => {
                let m = self.expr(&args[0])?;
                let k = self.expr(&args[1])?;
                let d = self.expr(&args[2])?;
                Py::new(
                    format!("{}.get({}, {})", m.at(Prec::Primary), k.text, d.text),
                    Prec::Primary,
                )
            }
            Builtin::Repeat => {
                let t = ty(&args[0])?.clone();
                let x = self.expr(&args[0])?;
                let n = self.expr(&args[1])?;
                if pytype::is_collection(&t) {
                    let copy = Py::atom(self.copies.function(&t));
                    Py::call("_repeat_copies", &[x, n, max, copy])
                } else {
                    Py::call("_repeat", &[x, n, max])
                }
            }
            Builtin::Chars => Py::call("_chars", &[self.expr(&args[0])?, max]),
        })
    }

    /// The strings a CONCAT joins, with nested CONCATs joined into it: an
    /// inner CONCAT too long makes the outer one too long, with the same
    /// error in the same step, so one check at the end does for all (when
    /// what is evaluated between them cannot fail another way).
    fn concat_parts(&mut self, e: &Expr, out: &mut Vec<Py>) -> R<()> {
        let ExprNode::Call { func, args } = &e.node else {
            out.push(self.expr(e)?);
            return Ok(());
        };
        let [a, b] = args.as_slice() else {
            out.push(self.expr(e)?);
            return Ok(());
        };
        if Builtin::of(func) != Some(Builtin::Concat) || e.ty != Some(Type::String) {
            out.push(self.expr(e)?);
            return Ok(());
        }
        let nested = |x: &Expr| matches!(&x.node, ExprNode::Call { func, .. } if Builtin::of(func) == Some(Builtin::Concat));
        if nested(a) && self.codes(b).only(Codes::SIZE) {
            self.concat_parts(a, out)?;
        } else {
            out.push(self.expr(a)?);
        }
        if nested(b) {
            self.concat_parts(b, out)
        } else {
            out.push(self.expr(b)?);
            Ok(())
        }
    }

    fn exprs(&mut self, args: &[Expr]) -> R<Vec<Py>> {
        args.iter().map(|a| self.expr(a)).collect()
    }

    /// An array whose elements are about to be stored in another: copied
    /// when they are arrays or maps that something else holds.
    pub(super) fn elements(&mut self, e: &Expr) -> R<Py> {
        let t = ty(e)?;
        let nested = pytype::element(t).is_some_and(pytype::is_collection);
        if nested {
            self.own(e)
        } else {
            self.expr(e)
        }
    }

    /// `MAP_HAS(m, k)` as `k in m` (or `k not in m`), unless both can fail,
    /// differently: Python evaluates `k` first, Isu `m` first; then `None`.
    pub(super) fn map_has(&mut self, args: &[Expr], negated: bool) -> R<Option<Py>> {
        let [m, k] = args else {
            return Err(invalid("MAP_HAS takes 2 arguments"));
        };
        if !self.codes(m).commutes(self.codes(k)) {
            return Ok(None);
        }
        let (mp, kp) = (self.expr(m)?, self.expr(k)?);
        let op = if negated { "not in" } else { "in" };
        Ok(Some(Py::compare(&kp, op, &mp)))
    }
}
