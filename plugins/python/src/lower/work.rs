//! The work a run spends besides loop rounds (spec/semantics.md 7, "Work";
//! the table of `isu_lang::work`): a call of a standard function spends the
//! sizes its row names after it succeeds, and an ASSIGN that copies a
//! string, array or map spends its size, from the same `_fuel` as loop
//! rounds, in the order the reference interpreter spends them: the call's
//! own errors first, then the charge, then whatever uses the value.
//!
//! A size is a length (`len(x)`) where the type says so
//! (`work::size_is_length`: strings, and arrays and maps of ints and
//! bools); else the runtime's `_size(TYPE, x)` walks the value. The types
//! say which sizes count: a call or copy of ints and bools spends nothing
//! and gets no code. In an expression, a charge is inline:
//! `_r if (_fuel := _fuel - len(_r := CALL)) >= 0 else _step_limit()`, the
//! call's value bound to `_r`, which is read right after it is bound (so
//! nesting never mixes temporaries up). A size that only an argument
//! knows reads the argument again: a name or a constant as it is, anything
//! else through a temporary (`_a0`, ...) bound where it is evaluated, each
//! a name of its own within the statement. Statements (in-place updates,
//! copies into a variable) spend on lines of their own after the store,
//! which nothing sees when the run stops there.

use super::{ty, Gen, R};
use crate::py::{Prec, Py};
use crate::pytype;
use isu_plugin_api::work;
use isu_plugin_api::{Expr, ExprNode, Literal, Type};

pub(super) use isu_plugin_api::work::{
    assign_copies, block_spends, call_spends, has_size, index_spends, step_spends,
};

/// The size work counts of the value `text` (a name, or an expression
/// evaluated once) of type `ty`.
pub(super) fn size_of(ty: &Type, text: &str) -> String {
    if work::size_is_length(ty) {
        format!("len({text})")
    } else {
        format!("_size({}, {text})", pytype::descriptor(ty))
    }
}

/// An argument as a charge reads it: evaluated once, where the call
/// evaluates it, and read again for its length.
#[derive(Debug, Clone)]
pub(super) struct Measured {
    /// The argument's text.
    text: Py,
    /// The temporary it is bound to, when reading the text again would
    /// evaluate it again.
    temp: Option<String>,
    /// Its size, when a constant gives it.
    pub fixed: Option<usize>,
    /// Its type, when it has a size at all.
    sized: Option<Type>,
}

impl Measured {
    /// The argument where it is evaluated, binding its temporary (in
    /// parentheses: valid anywhere).
    pub fn bind(&self) -> Py {
        match &self.temp {
            Some(t) => Py::atom(format!("({t} := {})", self.text.text)),
            None => self.text.clone(),
        }
    }

    /// [`Measured::bind`] as an argument of a call, which needs no
    /// parentheses around the binding (and linters refuse them).
    pub fn bind_arg(&self) -> Py {
        match &self.temp {
            Some(t) => Py::new(format!("{t} := {}", self.text.text), Prec::Cond),
            None => self.text.clone(),
        }
    }

    /// Whether its size can be read before it is evaluated: it is a
    /// constant or a variable, bound to no temporary.
    pub fn known_before(&self) -> bool {
        self.temp.is_none()
    }

    /// The argument read again after [`Measured::bind`] ran.
    pub fn reference(&self) -> Py {
        match &self.temp {
            Some(t) => Py::atom(t.clone()),
            None => self.text.clone(),
        }
    }

    /// Its size read after it was bound; `None` for an int or a bool.
    pub fn len(&self) -> Option<String> {
        let ty = self.sized.as_ref()?;
        Some(match self.fixed {
            Some(n) => n.to_string(),
            None => size_of(ty, &self.reference().text),
        })
    }

    /// Its size where it is evaluated (binding the temporary).
    pub fn len_bound(&self) -> Option<String> {
        let ty = self.sized.as_ref()?;
        Some(match (&self.temp, self.fixed) {
            (_, Some(n)) => n.to_string(),
            (Some(t), None) => size_of(ty, &format!("{t} := {}", self.text.text)),
            (None, None) => size_of(ty, &self.text.text),
        })
    }
}

/// The size of `e` when it is a constant string, array or map.
pub(super) fn constant_len(e: &Expr) -> Option<usize> {
    match (&e.node, &e.ty) {
        (ExprNode::Const { value }, Some(ty)) if has_size(ty) => literal_size(value, ty),
        _ => None,
    }
}

/// The size of a constant of type `ty` (0 for an int or a bool).
fn literal_size(v: &Literal, ty: &Type) -> Option<usize> {
    Some(match (v, ty) {
        (Literal::Str(s), Type::String) => s.chars().count(),
        (Literal::Array(xs), Type::Array(e)) => {
            let mut n = xs.len();
            for x in xs {
                n += literal_size(x, e)?;
            }
            n
        }
        (Literal::Object(m), Type::Map(k, t)) => {
            let mut n = m.len();
            for (key, x) in m {
                if **k == Type::String {
                    n += key.chars().count();
                }
                n += literal_size(x, t)?;
            }
            n
        }
        (Literal::Int(_), Type::Int) | (Literal::Bool(_), Type::Bool) => 0,
        _ => return None,
    })
}

/// `_fuel - UNITS`, with the parentheses UNITS needs; `-UNITS + _fuel` when
/// UNITS spends fuel itself (a call inside a call that spends), since Python
/// reads the left operand first and would subtract from the fuel as it was
/// before the inner charge.
fn less(units: &Py) -> String {
    if units.text.contains("_fuel") {
        format!("-{} + _fuel", units.above(Prec::Unary))
    } else {
        Py::binary(&Py::atom("_fuel"), "-", units, Prec::Sum).text
    }
}

impl Gen {
    /// `arg`, lowered to `py`, as a charge after its call reads it.
    pub(super) fn measure(&mut self, arg: &Expr, py: Py) -> R<Measured> {
        self.measure_apart(arg, py, None)
    }

    /// [`Gen::measure`] for an argument of an update that changes the
    /// variable `changed` (`s = CONCAT(s, s)`): a read of that variable is
    /// bound to a temporary too, since reading it again would see the change.
    pub(super) fn measure_apart(
        &mut self,
        arg: &Expr,
        py: Py,
        changed: Option<&str>,
    ) -> R<Measured> {
        let t = ty(arg)?;
        let sized = has_size(t).then(|| t.clone());
        let fixed = constant_len(arg);
        let again = py.is_simple() && changed != Some(py.text.as_str());
        let temp = if sized.is_some() && fixed.is_none() && !again {
            let t = format!("_a{}", self.temps);
            self.temps += 1;
            Some(t)
        } else {
            None
        };
        Ok(Measured {
            text: py,
            temp,
            fixed,
            sized,
        })
    }

    /// A call, of result type `ty`, that spends the size of its result and
    /// then `tail` (text after the result's size, reading `_r`:
    /// `" + len(xs)"`, `" - 1"`), after it succeeded.
    pub(super) fn spend_after(call: &Py, ty: &Type, tail: &str) -> Py {
        let prec = if tail.is_empty() {
            Prec::Primary
        } else if tail.starts_with(" *") {
            Prec::Term
        } else {
            Prec::Sum
        };
        let first = size_of(ty, &format!("_r := {}", call.text));
        let units = Py::new(format!("{first}{tail}"), prec);
        Py::new(
            format!("_r if (_fuel := {}) >= 0 else _step_limit()", less(&units)),
            Prec::Cond,
        )
    }

    /// A call whose runtime helper returns its value and the units it
    /// spends (`_map_set_counted`: the size of the map before), then `rest`
    /// (sizes of arguments bound in it).
    pub(super) fn spend_pair(call: &Py, rest: &[String]) -> Py {
        let mut units = vec![format!("(_r := {})[1]", call.text)];
        units.extend(rest.iter().cloned());
        let prec = if units.len() > 1 {
            Prec::Sum
        } else {
            Prec::Primary
        };
        let units = Py::new(units.join(" + "), prec);
        Py::new(
            format!(
                "_r[0] if (_fuel := {}) >= 0 else _step_limit()",
                less(&units)
            ),
            Prec::Cond,
        )
    }

    /// A call of one argument that spends `units` (the argument's length,
    /// binding it) known before it runs: the fuel is taken first, and when
    /// it does not cover them, the call runs anyway if it may fail
    /// (`fails`), so that its own error comes first.
    pub(super) fn spend_before(call: &Py, units: &str, fails: bool) -> Py {
        let fail = if fails {
            format!("_out_of_work({})", call.text)
        } else {
            "_step_limit()".to_owned()
        };
        let units = Py::new(units, Prec::Primary);
        Py::new(
            format!(
                "{} if (_fuel := {}) >= 0 else {fail}",
                call.at(Prec::Or),
                less(&units)
            ),
            Prec::Cond,
        )
    }

    /// A call that spends `units`, an argument's size that binds it where
    /// it is evaluated first (`len(_a0 := s)`), after it succeeded: the two
    /// in a tuple, which Python evaluates left to right.
    pub(super) fn spend_measured(units: &str, call: &Py) -> Py {
        let pair = Py::new(
            format!("(_r := ({units}, {}))[0]", call.text),
            Prec::Primary,
        );
        Py::new(
            format!(
                "_r[1] if (_fuel := {}) >= 0 else _step_limit()",
                less(&pair)
            ),
            Prec::Cond,
        )
    }

    /// A lookup `call` by the key `k` that spends the key's size after it
    /// (`MAP_GET`, `MAP_GET_OR`, `MAP_HAS`, an index by a string key).
    /// When nothing in the call can fail but the lookup itself (`fails`)
    /// and the key's size is known before it runs, the size is charged
    /// first ([`Gen::spend_before`]), which no one can tell apart; else
    /// after it ([`Gen::spend_tupled`]).
    pub(super) fn spend_key(call: &Py, k: &Measured, quiet: bool, fails: bool) -> Py {
        match k.len() {
            None => call.clone(),
            Some(units) if quiet && k.known_before() => Gen::spend_before(call, &units, fails),
            Some(units) => Gen::spend_tupled(call, &units),
        }
    }

    /// A call that spends `units`, sizes of arguments the call binds as it
    /// evaluates them, after it succeeded: the two in a tuple, which Python
    /// evaluates left to right.
    pub(super) fn spend_tupled(call: &Py, units: &str) -> Py {
        let pair = Py::new(
            format!("(_r := ({}, {units}))[1]", call.text),
            Prec::Primary,
        );
        Py::new(
            format!(
                "_r[0] if (_fuel := {}) >= 0 else _step_limit()",
                less(&pair)
            ),
            Prec::Cond,
        )
    }

    /// The size a level of an element target that indexes a map of type
    /// `map` by the key `index` (its value in the Python name or constant
    /// `k`) spends (spec/semantics.md 4.3): `None` when it spends nothing,
    /// an int key or an empty constant.
    pub(super) fn key_units(map: &Type, index: &Expr, k: &str) -> Option<String> {
        let Type::Map(kt, _) = map else {
            return None;
        };
        if !index_spends(Some(map)) {
            return None;
        }
        match constant_len(index) {
            Some(0) => None,
            Some(n) => Some(n.to_string()),
            None => Some(size_of(kt, k)),
        }
    }

    /// A statement's work, after its lines: `_fuel -= UNITS`, and
    /// `step_limit` at the step when the fuel did not cover it. Nothing
    /// when no length counts.
    pub(super) fn spend_lines(&mut self, lens: &[String]) {
        if lens.is_empty() {
            return;
        }
        self.w.plain(format!("_fuel -= {}", lens.join(" + ")));
        self.step_limit_if("_fuel < 0");
    }
}
