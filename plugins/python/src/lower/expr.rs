//! Isu expressions as Python expressions.
//!
//! Python evaluates operands left to right as Isu does. Where Python would
//! not fail but Isu must (overflow, a negative index), an inline check raises
//! through a runtime helper; the checks use one-letter temporaries bound with
//! `:=` (`_t` for arithmetic, `_i` for indexes, `_d` for dividends) that are
//! read right after they are bound, so nesting never mixes them up. Where an
//! interval shows that a check cannot fire, it is left out.

use super::work::call_spends;
use super::{invalid, ty, Gen, R};
use crate::py::{Prec, Py};
use crate::text::py_str;
use crate::{names, pytype};
use isu_plugin_api::analysis::alias::may_share;
use isu_plugin_api::analysis::interval::{self, Interval};
use isu_plugin_api::analysis::Section;
use isu_plugin_api::work::{comparison_spends, has_size};
use isu_plugin_api::{
    BinaryOp, Builtin, Expr, ExprNode, FieldInit, Literal, RuntimeCode, Type, UnaryOp,
};

/// The bounds of Isu's ints as Python literals, which the checks compare
/// with: a constant is read faster than the module's `_INT_MAX`.
pub const INT_MAX: &str = "9223372036854775807";
pub const INT_MIN: &str = "-9223372036854775808";

/// The bounds of the ints CPython 3.11 keeps in one digit (|v| < 2^30),
/// which its comparisons with such a constant specialize for.
const SMALL_MAX: &str = "1073741823";
const SMALL_MIN: &str = "-1073741823";

/// Which bounds an arithmetic result must be checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    None,
    /// Only `<= MAX` can fail.
    Upper,
    /// Only `>= MIN` can fail.
    Lower,
    Both,
}

impl Check {
    /// The check an operation whose exact result lies in `iv` needs.
    pub fn of(iv: Interval) -> Check {
        match (iv.lo < interval::MIN, iv.hi > interval::MAX) {
            (false, false) => Check::None,
            (false, true) => Check::Upper,
            (true, false) => Check::Lower,
            (true, true) => Check::Both,
        }
    }

    /// The condition under which the value `v` overflowed, for a statement
    /// `if ...:`; `None` when it cannot.
    pub fn failed(self, v: &str) -> Option<String> {
        match self {
            Check::None => None,
            // A bound CPython compares as fast as a small int (one digit,
            // below 2^30) goes first: most values pass it, and only those
            // past it are compared with the 64-bit bound.
            Check::Upper => Some(format!("{v} > {SMALL_MAX} and {v} > {INT_MAX}")),
            Check::Lower => Some(format!("{v} < {SMALL_MIN} and {v} < {INT_MIN}")),
            Check::Both => Some(format!(
                "({v} > {SMALL_MAX} or {v} < {SMALL_MIN}) and not {INT_MIN} <= {v} <= {INT_MAX}"
            )),
        }
    }
}

/// An arithmetic operation on Python's unbounded ints, before its check.
#[derive(Debug, Clone)]
pub struct Arith {
    pub py: Py,
    pub check: Check,
    /// The Isu operator, for the message.
    pub op: &'static str,
    /// The interval of `py`'s value, which may lie outside 64 bits.
    pub raw: Interval,
    /// Whether evaluating `py` may fail (its operands, not its own check).
    pub fails: bool,
}

impl Arith {
    /// The operation with its check inline.
    pub fn checked(self) -> Py {
        let op = self.op;
        let x = &self.py.text;
        match self.check {
            Check::None => self.py,
            Check::Upper => Py::new(
                format!("_t if (_t := {x}) <= {INT_MAX} else _overflow(\"{op}\")"),
                Prec::Cond,
            ),
            Check::Lower => Py::new(
                format!("_t if (_t := {x}) >= {INT_MIN} else _overflow(\"{op}\")"),
                Prec::Cond,
            ),
            Check::Both => Py::new(
                format!("_t if {INT_MIN} <= (_t := {x}) <= {INT_MAX} else _overflow(\"{op}\")"),
                Prec::Cond,
            ),
        }
    }
}

impl Gen {
    pub fn expr(&mut self, e: &Expr) -> R<Py> {
        match &e.node {
            ExprNode::Const { value } => constant(value, ty(e)?),
            ExprNode::Var { name } => self.var(name),
            ExprNode::Unary {
                op: UnaryOp::Neg,
                arg,
            } if ty(e)? == &Type::Float => self.float_neg(arg),
            ExprNode::Binary { op, lhs, rhs } if ty(lhs)? == &Type::Float => {
                self.float_binary(*op, lhs, rhs)
            }
            ExprNode::Unary { op, arg } => match op {
                UnaryOp::Neg => Ok(self.neg(arg)?.checked()),
                UnaryOp::Not => self.not(arg),
            },
            ExprNode::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs),
            ExprNode::Index { base, index } => self.index(base, index),
            ExprNode::Call { func, args } => self.call(e, func, args),
            ExprNode::Struct { name, fields } => self.structure(name, fields),
            ExprNode::Field { base, field } => {
                let b = self.expr(base)?;
                Ok(Py::new(
                    format!("{}.{}", b.at(Prec::Primary), names::field(&field.name)),
                    Prec::Primary,
                ))
            }
            // Each element one that nothing else holds; the length checked
            // against the size limit once all are evaluated.
            ExprNode::List { items } => {
                let items = items.iter().map(|i| self.own(i)).collect::<R<Vec<Py>>>()?;
                let texts: Vec<String> = items.into_iter().map(|p| p.text).collect();
                Ok(Py::call(
                    "_list",
                    &[
                        Py::atom(format!("[{}]", texts.join(", "))),
                        Py::atom("_max_size"),
                    ],
                ))
            }
            // Python's conditional expression evaluates only the branch chosen.
            ExprNode::If {
                cond,
                then_expr,
                else_expr,
            } => {
                let c = self.expr(cond)?;
                let a = self.expr(then_expr)?;
                let b = self.expr(else_expr)?;
                Ok(Py::new(
                    format!(
                        "{} if {} else {}",
                        a.above(Prec::Cond),
                        c.above(Prec::Cond),
                        b.at(Prec::Cond)
                    ),
                    Prec::Cond,
                ))
            }
        }
    }

    /// `(struct S (f E)...)`: the class called with each field by name, in
    /// the order `TYPES` declares them (Python evaluates arguments in the
    /// order written), each value one that nothing else holds.
    fn structure(&mut self, name: &str, fields: &[FieldInit]) -> R<Py> {
        let def = self
            .facts
            .structs
            .iter()
            .find(|d| d.name.name == name)
            .ok_or_else(|| invalid(format!("`{name}` is not a struct of TYPES")))?
            .clone();
        if fields.len() != def.fields.len() {
            return Err(invalid(format!(
                "a value of `{name}` does not give each of its fields once"
            )));
        }
        let mut args = Vec::with_capacity(fields.len());
        for f in &def.fields {
            let init = fields
                .iter()
                .find(|i| i.name.name == f.name.name)
                .ok_or_else(|| {
                    invalid(format!(
                        "a value of `{name}` lacks its field `{}`",
                        f.name.name
                    ))
                })?;
            let v = self.own(&init.value)?;
            args.push(format!("{}={}", names::field(&f.name.name), v.text));
        }
        Ok(Py::new(
            format!("{}({})", names::structure(name), args.join(", ")),
            Prec::Primary,
        ))
    }

    /// The value of `e` as an object nothing else holds: a copy when `e` is an
    /// array, map or struct that some variable, element, entry or field
    /// already holds.
    pub fn own(&mut self, e: &Expr) -> R<Py> {
        let py = self.expr(e)?;
        let t = ty(e)?;
        let dead = matches!(&e.node, ExprNode::Var { name } if self.dead.contains(name));
        if pytype::is_mutable(t) && may_share(e) && !dead {
            Ok(self.copies.copy(t, &py))
        } else {
            Ok(py)
        }
    }

    pub fn var(&self, name: &str) -> R<Py> {
        let v = self
            .facts
            .var(name)
            .ok_or_else(|| invalid(format!("`{name}` is not declared")))?;
        if v.section == Section::Local && !self.facts.bound.contains(name) {
            // No statement binds it, so every read fails (the validator
            // refuses most such programs); Python would take it for a global.
            return Ok(Py::call("_uninitialized", &[Py::atom(py_str(name))]));
        }
        Ok(Py::atom(v.py.clone()))
    }

    /// `(neg a)` before its check.
    pub fn neg(&mut self, arg: &Expr) -> R<Arith> {
        let a = self.expr(arg)?;
        let text = format!("-{}", a.above(Prec::Unary));
        let raw = -self.env.interval(arg);
        Ok(Arith {
            py: Py::new(text, Prec::Unary),
            check: Check::of(raw),
            op: "neg",
            raw,
            fails: !self.codes(arg).is_empty(),
        })
    }

    /// `add`, `sub`, `mul` before their check.
    ///
    /// An operand's own overflow check can be left to the sum's when the
    /// sum must overflow whenever the operand does, in the same direction:
    /// `(add p s)` with `s >= 0` is above MAX whenever `p` is. Both are
    /// `int_overflow` in the same step, so only the order of other errors
    /// could tell them apart: the right operand, which Python evaluates in
    /// between, may then fail in no other way.
    pub fn arith(&mut self, op: BinaryOp, l: &Expr, r: &Expr) -> R<Arith> {
        let (li, ri) = (self.env.interval(l), self.env.interval(r));
        let quiet = self.codes(r).only(Codes::OVERFLOW);
        // (up, down): whether an operand that overflows up (down) may skip
        // its check.
        let (left, right) = match op {
            BinaryOp::Add => (
                (quiet && ri.lo >= 0, quiet && ri.hi <= 0),
                (li.lo >= 0, li.hi <= 0),
            ),
            BinaryOp::Sub => (
                (quiet && ri.hi <= 0, quiet && ri.lo >= 0),
                (li.hi <= -1, li.lo >= 0),
            ),
            _ => ((false, false), (false, false)),
        };
        let (a, la, lf) = self.operand(l, left)?;
        let (b, rb, rf) = self.operand(r, right)?;
        let (sym, prec, raw, name) = match op {
            BinaryOp::Add => ("+", Prec::Sum, la + rb, "add"),
            BinaryOp::Sub => ("-", Prec::Sum, la - rb, "sub"),
            BinaryOp::Mul if l.same(r) => ("*", Prec::Term, la.square(), "mul"),
            BinaryOp::Mul => ("*", Prec::Term, la * rb, "mul"),
            _ => return Err(invalid(format!("`{}` is not add, sub or mul", op.name()))),
        };
        Ok(Arith {
            py: Py::binary(&a, sym, &b, prec),
            check: Check::of(raw),
            op: name,
            raw,
            fails: lf || rf,
        })
    }

    /// An operand of `add` or `sub`: its Python text, the interval of that
    /// text's value, unchecked where `(up, down)` allows, and whether
    /// evaluating the text may fail.
    fn operand(&mut self, e: &Expr, (up, down): (bool, bool)) -> R<(Py, Interval, bool)> {
        let raw = match &e.node {
            ExprNode::Binary {
                op: op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul),
                lhs,
                rhs,
            } => Some(self.arith(*op, lhs, rhs)?),
            ExprNode::Unary {
                op: UnaryOp::Neg,
                arg,
            } => Some(self.neg(arg)?),
            _ => None,
        };
        let Some(a) = raw else {
            let fails = !self.codes(e).is_empty();
            return Ok((self.expr(e)?, self.env.interval(e), fails));
        };
        let unchecked = match a.check {
            Check::None => true,
            Check::Upper => up,
            Check::Lower => down,
            Check::Both => false,
        };
        if unchecked {
            Ok((a.py.clone(), a.raw, a.fails))
        } else {
            let iv = a.raw.clamp();
            let fails = a.fails || a.check != Check::None;
            Ok((a.checked(), iv, fails))
        }
    }

    /// `(not arg)`: comparisons inverted, double negations dropped.
    pub(super) fn not(&mut self, arg: &Expr) -> R<Py> {
        match &arg.node {
            ExprNode::Binary { op, lhs, rhs } if op.negated().is_some() => {
                let inv = op.negated().unwrap_or(*op);
                self.compare(inv, lhs, rhs)
            }
            ExprNode::Unary {
                op: UnaryOp::Not,
                arg,
            } => self.expr(arg),
            ExprNode::Call { func, args } if Builtin::of(func) == Some(Builtin::MapHas) => {
                match self.map_has(args, true)? {
                    Some(py) => Ok(py),
                    None => self.negation(arg),
                }
            }
            _ => self.negation(arg),
        }
    }

    fn negation(&mut self, arg: &Expr) -> R<Py> {
        let a = self.expr(arg)?;
        Ok(Py::new(format!("not {}", a.at(Prec::Not)), Prec::Not))
    }

    fn binary(&mut self, op: BinaryOp, l: &Expr, r: &Expr) -> R<Py> {
        match op {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul => Ok(self.arith(op, l, r)?.checked()),
            BinaryOp::Div | BinaryOp::Mod => self.divmod(op, l, r),
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => self.compare(op, l, r),
            BinaryOp::And | BinaryOp::Or => {
                let and = op == BinaryOp::And;
                let a = self.expr(l)?;
                // The right side runs only when the left is true (`and`) or
                // false (`or`), and knows it.
                let inner = self.env.learned(l, and);
                let outer = std::mem::replace(&mut self.env, inner);
                let b = self.expr(r);
                self.env = outer;
                let (word, prec) = if and {
                    ("and", Prec::And)
                } else {
                    ("or", Prec::Or)
                };
                Ok(Py::binary(&a, word, &b?, prec))
            }
        }
    }

    /// `div` truncates toward zero and `mod` takes the dividend's sign, where
    /// Python's `//` and `%` floor: they agree when both operands are
    /// positive, and a positive constant divisor needs only a sign test.
    fn divmod(&mut self, op: BinaryOp, l: &Expr, r: &Expr) -> R<Py> {
        let (li, ri) = (self.env.interval(l), self.env.interval(r));
        let (sym, helper) = if op == BinaryOp::Div {
            ("//", "_div")
        } else {
            ("%", "_mod")
        };
        let a = self.expr(l)?;
        let b = self.expr(r)?;
        if li.lo >= 0 && ri.lo > 0 {
            return Ok(Py::binary(&a, sym, &b, Prec::Term));
        }
        let divisor = match (&r.node, op) {
            (
                ExprNode::Const {
                    value: Literal::Int(c),
                },
                BinaryOp::Div,
            ) if *c > 0 => Some(i128::from(*c)),
            (
                ExprNode::Const {
                    value: Literal::Int(c),
                },
                BinaryOp::Mod,
            ) if *c != 0 => Some(i128::from(*c).abs()),
            _ => None,
        };
        let Some(c) = divisor else {
            // A divisor in a variable that surely has a value: Python's
            // operator where both signs are positive, the helper otherwise
            // (which also tells a divisor of 0).
            if !b.is_simple() || !self.codes(r).is_empty() {
                return Ok(Py::call(helper, &[a, b]));
            }
            let (bind, x) = if a.is_simple() {
                (a.text.clone(), a.text)
            } else {
                (format!("(_d := {})", a.text), "_d".to_owned())
            };
            let y = &b.text;
            let call = Py::call(helper, &[Py::atom(x.clone()), b.clone()]).text;
            return Ok(Py::new(
                format!("{x} {sym} {y} if {bind} >= 0 < {y} else {call}"),
                Prec::Cond,
            ));
        };
        if li.lo >= 0 {
            return Ok(Py::binary(&a, sym, &Py::atom(c.to_string()), Prec::Term));
        }
        let (bind, x) = if a.is_simple() {
            (a.text.clone(), a.text)
        } else {
            (format!("(_d := {})", a.text), "_d".to_owned())
        };
        Ok(Py::new(
            format!("{x} {sym} {c} if {bind} >= 0 else -(-{x} {sym} {c})"),
            Prec::Cond,
        ))
    }

    pub fn compare(&mut self, op: BinaryOp, l: &Expr, r: &Expr) -> R<Py> {
        let sym = match op {
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            _ => return Err(invalid(format!("`{}` is not a comparison", op.name()))),
        };
        let eq = matches!(op, BinaryOp::Eq | BinaryOp::Ne);
        // `x == True` reads badly (and linters refuse it): compare with a
        // boolean constant as the value itself or its negation.
        if eq {
            match (l.bool_const(), r.bool_const()) {
                (Some(x), Some(y)) => {
                    let v = (x == y) == (op == BinaryOp::Eq);
                    return Ok(Py::atom(if v { "True" } else { "False" }));
                }
                (Some(b), None) | (None, Some(b)) => {
                    let other = if l.bool_const().is_some() { r } else { l };
                    return if b == (op == BinaryOp::Eq) {
                        self.expr(other)
                    } else {
                        self.negation(other)
                    };
                }
                (None, None) => {}
            }
            // `(eq (mod a c) 0)`: only whether the remainder is 0 matters,
            // and that does not depend on the sign convention.
            if let Some((a, c)) = mod_of_const(l, r).or_else(|| mod_of_const(r, l)) {
                let x = self.expr(a)?;
                let m = Py::binary(&x, "%", &Py::atom(c.to_string()), Prec::Term);
                return Ok(Py::compare(&m, sym, &Py::atom("0")));
            }
        }
        let (a, b) = (self.expr(l)?, self.expr(r)?);
        if !comparison_spends(op, l.ty.as_ref()) {
            return Ok(Py::compare(&a, sym, &b));
        }
        // The sizes of both, after the comparison (`work::COMPARISON`).
        let (a, b) = (self.measure(l, a)?, self.measure(r, b)?);
        let call = Py::compare(&a.bind(), sym, &b.bind());
        let lens: Vec<String> = a.len().into_iter().chain(b.len()).collect();
        Ok(Gen::spend_tupled(&call, &lens.join(" + ")))
    }

    fn index(&mut self, base: &Expr, index: &Expr) -> R<Py> {
        let b = self.expr(base)?;
        if let Type::Map(k, _) = ty(base)? {
            if has_size(k) {
                // A string key spends its size after the lookup, as MAP_GET.
                let quiet = self.codes(base).with(self.codes(index)).is_empty();
                let key = self.expr(index)?;
                let key = self.measure(index, key)?;
                let call = Py::new(
                    format!("{}[{}]", b.at(Prec::Primary), key.bind().text),
                    Prec::Primary,
                );
                return Ok(Gen::spend_key(&call, &key, quiet, true));
            }
        }
        let key = match ty(base)? {
            // A string's characters are Python's code points.
            Type::Array(_) | Type::String => self.array_key(index)?,
            Type::Map(..) => self.expr(index)?.text,
            other => return Err(invalid(format!("an index into a value of type {other}"))),
        };
        Ok(Py::new(
            format!("{}[{key}]", b.at(Prec::Primary)),
            Prec::Primary,
        ))
    }

    /// An array index as Python subscript text: a negative one fails
    /// (Python would count it from the end); one past the end fails through
    /// Python's own IndexError.
    pub fn array_key(&mut self, index: &Expr) -> R<String> {
        let k = self.expr(index)?;
        if self.env.interval(index).lo >= 0 {
            return Ok(k.text);
        }
        Ok(if k.is_simple() {
            format!("{0} if {0} >= 0 else _index_error()", k.text)
        } else {
            format!("_i if (_i := {}) >= 0 else _index_error()", k.text)
        })
    }

    /// The runtime errors evaluating `e` can raise (conservatively).
    pub fn codes(&self, e: &Expr) -> Codes {
        let own = match &e.node {
            ExprNode::Const { .. }
            | ExprNode::Struct { .. }
            | ExprNode::Field { .. }
            | ExprNode::If { .. } => Codes::NONE,
            ExprNode::List { .. } => Codes::SIZE,
            ExprNode::Var { name } => {
                if self.may_be_unset(name) {
                    Codes::UNINITIALIZED
                } else {
                    Codes::NONE
                }
            }
            ExprNode::Unary { op, arg } => {
                if *op == UnaryOp::Neg
                    && arg.ty.as_ref() == Some(&Type::Int)
                    && self.env.interval(arg).contains(interval::MIN)
                {
                    Codes::OVERFLOW
                } else {
                    Codes::NONE
                }
            }
            ExprNode::Binary { op, lhs, .. } if lhs.ty.as_ref() == Some(&Type::Float) => {
                super::float::codes(*op)
            }
            ExprNode::Binary { op, lhs, rhs } => {
                let (l, r) = (self.env.interval(lhs), self.env.interval(rhs));
                let overflows = match op {
                    BinaryOp::Add => !(l + r).fits(),
                    BinaryOp::Sub => !(l - r).fits(),
                    BinaryOp::Mul => !self.env.product(lhs, rhs).fits(),
                    BinaryOp::Div => l.contains(interval::MIN) && r.contains(-1),
                    _ => false,
                };
                let by_zero = matches!(op, BinaryOp::Div | BinaryOp::Mod) && r.contains(0);
                let mut c = Codes::NONE;
                // A comparison of strings or collections spends their sizes.
                if comparison_spends(*op, lhs.ty.as_ref()) {
                    c = c.with(Codes::STEP);
                }
                if overflows {
                    c = c.with(Codes::OVERFLOW);
                }
                if by_zero {
                    c = c.with(Codes::DIVISION_BY_ZERO);
                }
                c
            }
            ExprNode::Index { base, index } => match (&base.ty, &base.node) {
                // A string key spends its size.
                (Some(Type::Map(k, _)), _) if has_size(k) => Codes::MISSING_KEY.with(Codes::STEP),
                (Some(Type::Map(..)), _) => Codes::MISSING_KEY,
                // An index the bounds prove in range (`analysis::bounds`).
                (Some(Type::Array(_)), ExprNode::Var { name })
                    if self.env.index_in_bounds(index, name) =>
                {
                    Codes::NONE
                }
                _ => Codes::INDEX,
            },
            ExprNode::Call { func, args } => match (Builtin::of(func), args.as_slice()) {
                // A pack function may raise anything.
                (None, _) => Codes::ANY,
                (Some(Builtin::Abs), [a]) if !self.env.interval(a).contains(interval::MIN) => {
                    Codes::NONE
                }
                (Some(b), _) => {
                    let f = b.info();
                    let mut errors = f
                        .errors
                        .iter()
                        .fold(Codes::NONE, |c, &e| c.with(Codes::of(e)));
                    if f.grows {
                        errors = errors.with(Codes::SIZE);
                    }
                    // The work it spends may run out (lower/work.rs).
                    if call_spends(func, args, e.ty.as_ref()) {
                        errors = errors.with(Codes::STEP);
                    }
                    errors
                }
            },
        };
        let children = match &e.node {
            ExprNode::Const { .. } | ExprNode::Var { .. } => Codes::NONE,
            ExprNode::Unary { arg, .. } => self.codes(arg),
            ExprNode::Binary { lhs, rhs, .. } => self.codes(lhs).with(self.codes(rhs)),
            ExprNode::Index { base, index } => self.codes(base).with(self.codes(index)),
            ExprNode::Call { args, .. } => {
                args.iter().fold(Codes::NONE, |c, a| c.with(self.codes(a)))
            }
            ExprNode::Struct { fields, .. } => fields
                .iter()
                .fold(Codes::NONE, |c, f| c.with(self.codes(&f.value))),
            ExprNode::Field { base, .. } => self.codes(base),
            ExprNode::List { items } => {
                items.iter().fold(Codes::NONE, |c, a| c.with(self.codes(a)))
            }
            ExprNode::If {
                cond,
                then_expr,
                else_expr,
            } => self
                .codes(cond)
                .with(self.codes(then_expr))
                .with(self.codes(else_expr)),
        };
        own.with(children)
    }

    /// Whether reading the variable can find it without a value: a `LOCAL`
    /// not surely assigned where the step being written starts (no `LOCAL`
    /// holds a value in `STATE`).
    pub fn may_be_unset(&self, name: &str) -> bool {
        match &self.step {
            Some(id) => !self.facts.must.holds(id, name),
            None => self.facts.decls.is_local(name),
        }
    }
}

/// A set of runtime error codes, to tell whether two computations that can
/// fail may be run in either order: only if they cannot fail differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Codes(u64);

impl Codes {
    pub const NONE: Codes = Codes(0);
    pub const UNINITIALIZED: Codes = Codes::of(RuntimeCode::UninitializedRead);
    pub const OVERFLOW: Codes = Codes::of(RuntimeCode::IntOverflow);
    pub const DIVISION_BY_ZERO: Codes = Codes::of(RuntimeCode::DivisionByZero);
    pub const INDEX: Codes = Codes::of(RuntimeCode::IndexOutOfRange);
    pub const MISSING_KEY: Codes = Codes::of(RuntimeCode::MissingKey);
    pub const SIZE: Codes = Codes::of(RuntimeCode::SizeLimit);
    pub const STEP: Codes = Codes::of(RuntimeCode::StepLimit);
    pub const NOT_FINITE: Codes = Codes::of(RuntimeCode::FloatNotFinite);
    /// Anything (a function this module does not know).
    pub const ANY: Codes = Codes(u64::MAX);

    /// The set of one code (there are fewer than 64).
    pub const fn of(code: RuntimeCode) -> Codes {
        const _: () = assert!(RuntimeCode::ALL.len() <= 64);
        Codes(1 << code as u32)
    }

    pub fn with(self, other: Codes) -> Codes {
        Codes(self.0 | other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether these can only be (some of) `codes`.
    pub fn only(self, codes: Codes) -> bool {
        self.0 & !codes.0 == 0
    }

    /// Whether running `self`'s computation before `other`'s (or after)
    /// gives the same outcome: one of them cannot fail, or both can fail
    /// only in one and the same way.
    pub fn commutes(self, other: Codes) -> bool {
        (self.0 | other.0).count_ones() <= 1 || self.is_empty() || other.is_empty()
    }
}

/// `(mod a c)` compared with 0, `c` a constant other than 0: `a` and `|c|`.
fn mod_of_const<'e>(m: &'e Expr, zero: &Expr) -> Option<(&'e Expr, i128)> {
    let ExprNode::Const {
        value: Literal::Int(0),
    } = zero.node
    else {
        return None;
    };
    match &m.node {
        ExprNode::Binary {
            op: BinaryOp::Mod,
            lhs,
            rhs,
        } => match rhs.node {
            ExprNode::Const {
                value: Literal::Int(c),
            } if c != 0 => Some((lhs, i128::from(c).abs())),
            _ => None,
        },
        _ => None,
    }
}

/// A constant of type `ty` as a Python literal (a new object each time it
/// is evaluated, for arrays and maps).
pub fn constant(value: &Literal, ty: &Type) -> R<Py> {
    let text = literal(value, ty)?;
    Ok(if text.starts_with('-') {
        Py::new(text, Prec::Unary)
    } else {
        Py::atom(text)
    })
}

fn literal(value: &Literal, ty: &Type) -> R<String> {
    Ok(match (value, ty) {
        (Literal::Int(i), Type::Int) => i.to_string(),
        // Python's repr, which Python reads back to the same float.
        (Literal::Float(_), Type::Float) => value.to_string(),
        (Literal::Bool(b), Type::Bool) => if *b { "True" } else { "False" }.to_owned(),
        (Literal::Str(s), Type::String) => py_str(s),
        (Literal::Array(items), Type::Array(e)) => {
            let items: Vec<String> = items.iter().map(|x| literal(x, e)).collect::<R<_>>()?;
            format!("[{}]", items.join(", "))
        }
        (Literal::Object(entries), Type::Map(k, v)) => {
            let mut out = Vec::with_capacity(entries.len());
            for (key, x) in entries {
                let key = match **k {
                    Type::Int => isu_plugin_api::literal::int_key(key)
                        .ok_or_else(|| invalid(format!("the map key {key:?} is not an int")))?
                        .to_string(),
                    Type::String => py_str(key),
                    _ => return Err(invalid(format!("a map with keys of type {k}"))),
                };
                out.push(format!("{key}: {}", literal(x, v)?));
            }
            format!("{{{}}}", out.join(", "))
        }
        _ => {
            return Err(invalid(format!(
                "the constant {value} is not of its type {ty}"
            )))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn constants_follow_their_types() {
        let m = Literal::Object(BTreeMap::from([
            ("-3".to_owned(), Literal::Array(vec![Literal::Bool(true)])),
            ("10".to_owned(), Literal::Array(vec![])),
        ]));
        let t = Type::map(Type::Int, Type::array(Type::Bool));
        assert_eq!(
            literal(&m, &t).ok(),
            Some("{-3: [True], 10: []}".to_owned())
        );
        let s = Literal::Str("a\"b".into());
        assert_eq!(
            literal(&s, &Type::String).ok(),
            Some(r#""a\"b""#.to_owned())
        );
        assert!(literal(&s, &Type::Int).is_err());
        let bad = Literal::Object(BTreeMap::from([("01".to_owned(), Literal::Int(1))]));
        assert!(literal(&bad, &Type::map(Type::Int, Type::Int)).is_err());
        assert_eq!(
            constant(&Literal::Int(i64::MIN), &Type::Int).map(|p| p.prec),
            Ok(Prec::Unary)
        );
    }

    #[test]
    fn checks_pick_the_bounds_that_can_fail() {
        assert_eq!(Check::of(Interval::new(0, 10)), Check::None);
        assert_eq!(Check::of(Interval::FULL + Interval::exact(1)), Check::Upper);
        assert_eq!(Check::of(Interval::FULL - Interval::exact(1)), Check::Lower);
        assert_eq!(Check::of(Interval::FULL * Interval::FULL), Check::Both);
        let a = Arith {
            py: Py::new("x + 1", Prec::Sum),
            check: Check::Upper,
            op: "add",
            raw: Interval::FULL + Interval::exact(1),
            fails: false,
        };
        assert_eq!(
            a.checked().text,
            "_t if (_t := x + 1) <= 9223372036854775807 else _overflow(\"add\")"
        );
        assert_eq!(
            Check::Both.failed("x").as_deref(),
            Some(
                "(x > 1073741823 or x < -1073741823) \
                 and not -9223372036854775808 <= x <= 9223372036854775807"
            )
        );
        assert_eq!(
            Check::Upper.failed("x").as_deref(),
            Some("x > 1073741823 and x > 9223372036854775807")
        );
    }
}
