//! The work a run spends besides loop rounds (spec/semantics.md 7, "Work";
//! the table of `isu_lang::work`): a call of a standard function spends the
//! lengths its row names after it succeeds, and an ASSIGN that copies a
//! string, array or map spends its length, from the same `_fuel` as loop
//! rounds, in the order the reference interpreter spends them: the call's
//! own errors first, then the charge, then whatever uses the value.
//!
//! The types say which lengths count: a call or copy of ints and bools
//! spends nothing and gets no code. In an expression, a charge is inline:
//! `_r if (_fuel := _fuel - len(_r := CALL)) >= 0 else _step_limit()`, the
//! call's value bound to `_r`, which is read right after it is bound (so
//! nesting never mixes temporaries up). A length that only an argument
//! knows reads the argument again: a name or a constant as it is, anything
//! else through a temporary (`_a0`, ...) bound where it is evaluated, each
//! a name of its own within the statement. Statements (in-place updates,
//! copies into a variable) spend on lines of their own after the store,
//! which nothing sees when the run stops there.

use super::{ty, Gen, R};
use crate::py::{Prec, Py};
use isu_plugin_api::lang::work::{self, Measure};
use isu_plugin_api::update::in_place;
use isu_plugin_api::visit::{self, Visit};
use isu_plugin_api::{Block, Builtin, Expr, ExprNode, Literal, Node, Step};

pub(super) use isu_plugin_api::lang::work::{assign_copies, call_spends, counts};

/// Whether running `block` may spend work besides loop rounds: as
/// `isu_lang::work::block_spends`, except that an in-place update counts
/// only what it stores, as its charge does: `xs = PUSH(xs, i)` with `i` an
/// int spends nothing, and a loop of them may still spend its rounds at
/// once.
pub(super) fn block_spends(block: &Block) -> bool {
    let mut f = Finder(false);
    f.visit_block(block);
    f.0
}

/// [`block_spends`] for one step (with its nested blocks, and a LOOP's
/// COND and sequence).
pub(super) fn step_spends(step: &Step) -> bool {
    let mut f = Finder(false);
    f.visit_step(step);
    f.0
}

struct Finder(bool);

impl<'ast> Visit<'ast> for Finder {
    fn visit_step(&mut self, step: &'ast Step) {
        if let Node::Assign { target, expr } = &step.node {
            if in_place(target, expr).is_some() {
                if let ExprNode::Call { func, args } = &expr.node {
                    self.0 |= Builtin::of(func).is_some_and(|b| {
                        work::of(b).measures(true).any(|m| match m {
                            Measure::Arg(i) => {
                                args.get(i).and_then(|a| a.ty.as_ref()).is_some_and(counts)
                            }
                            Measure::Result | Measure::Repeated => true,
                        })
                    });
                    // The place is read where the target is walked.
                    self.visit_place(target);
                    args.iter().skip(1).for_each(|a| self.visit_expr(a));
                }
                return;
            }
            self.0 |= assign_copies(target, expr);
        }
        visit::walk_step(self, step);
    }

    fn visit_expr(&mut self, expr: &'ast Expr) {
        if let ExprNode::Call { func, args } = &expr.node {
            self.0 |= call_spends(func, args, expr.ty.as_ref());
        }
        visit::walk_expr(self, expr);
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
    /// Its length, when a constant gives it.
    pub fixed: Option<usize>,
    /// Whether its type has a length at all.
    counts: bool,
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

    /// The argument read again after [`Measured::bind`] ran.
    pub fn reference(&self) -> Py {
        match &self.temp {
            Some(t) => Py::atom(t.clone()),
            None => self.text.clone(),
        }
    }

    /// Its length read after it was bound; `None` for an int or a bool.
    pub fn len(&self) -> Option<String> {
        if !self.counts {
            return None;
        }
        Some(match self.fixed {
            Some(n) => n.to_string(),
            None => format!("len({})", self.reference().text),
        })
    }

    /// Its length where it is evaluated (binding the temporary).
    pub fn len_bound(&self) -> Option<String> {
        if !self.counts {
            return None;
        }
        Some(match (&self.temp, self.fixed) {
            (_, Some(n)) => n.to_string(),
            (Some(t), None) => format!("len({t} := {})", self.text.text),
            (None, None) => format!("len({})", self.text.text),
        })
    }
}

/// The length of `e` when it is a constant string, array or map.
pub(super) fn constant_len(e: &Expr) -> Option<usize> {
    match &e.node {
        ExprNode::Const { value } => literal_len(value),
        _ => None,
    }
}

/// The length of a constant string, array or map.
fn literal_len(v: &Literal) -> Option<usize> {
    match v {
        Literal::Str(s) => Some(s.chars().count()),
        Literal::Array(xs) => Some(xs.len()),
        Literal::Object(m) => Some(m.len()),
        _ => None,
    }
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
    /// `_fuel - UNITS` (see `less`).
    pub(super) fn fuel_less(units: &Py) -> String {
        less(units)
    }

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
        let counts = counts(ty(arg)?);
        let fixed = match &arg.node {
            ExprNode::Const { value } => literal_len(value),
            _ => None,
        };
        let again = py.is_simple() && changed != Some(py.text.as_str());
        let temp = if counts && fixed.is_none() && !again {
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
            counts,
        })
    }

    /// A call that spends the length of its result and then `tail` (text
    /// after the result's length, reading `_r`: `" + len(xs)"`, `" - 1"`,
    /// `" * 4"`), after it succeeded.
    pub(super) fn spend_after(call: &Py, tail: &str) -> Py {
        let prec = if tail.is_empty() {
            Prec::Primary
        } else if tail.starts_with(" *") {
            Prec::Term
        } else {
            Prec::Sum
        };
        let units = Py::new(format!("len(_r := {}){tail}", call.text), prec);
        Py::new(
            format!("_r if (_fuel := {}) >= 0 else _step_limit()", less(&units)),
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
