//! The types of statements: `STATE` initializers, `ASSIGN` places and values,
//! conditions, `ITER`s with their loop variables, and `RETURN` values.

use super::report::{Role, Want};
use super::scope::{self, Section};
use super::types::{Hole, PTy};
use super::{text, Checker};
use crate::diag::{Code, Diagnostic};
use isu_plugin_api::{Block, Expr, Ident, Iter, Node, Place, Program, Step, Type};

impl Checker {
    /// Types the whole program: `STATE` initializers, then every step.
    pub(super) fn program(&mut self, p: &mut Program) {
        self.step = None;
        self.in_state = true;
        for sv in &mut p.state {
            let want = if scope::is_valid(&sv.ty) {
                Want::Is(sv.ty.clone(), Role::StateInit(sv.name.name.clone()))
            } else {
                Want::Quiet
            };
            self.expr(&mut sv.init, &want);
        }
        self.in_state = false;
        self.block(&mut p.body);
    }

    fn block(&mut self, b: &mut Block) {
        for s in &mut b.steps {
            self.step(s);
        }
    }

    fn step(&mut self, s: &mut Step) {
        self.step = s.id.clone();
        match &mut s.node {
            Node::Seq { block } => self.block(block),
            Node::Assign { target, expr } => self.assign(target, expr),
            Node::If {
                cond,
                then_block,
                else_block,
            } => {
                // A COND must be a bool.
                self.expr(cond, &Want::Is(Type::Bool, Role::IfCond));
                self.block(then_block);
                self.block(else_block);
            }
            Node::Loop { iter, body } => {
                self.iter(iter);
                self.loops += 1;
                self.block(body);
                self.loops -= 1;
            }
            Node::Break | Node::Continue if self.loops == 0 => {
                let (code, kw) = match s.node {
                    Node::Break => (Code::BreakOutsideLoop, "BREAK"),
                    _ => (Code::ContinueOutsideLoop, "CONTINUE"),
                };
                let hint = match s.node {
                    Node::Break => "BREAK leaves the innermost LOOP; outside a loop, end the function with RETURN or put the steps that should not run in an IF",
                    _ => "CONTINUE starts the next round of the innermost LOOP; outside a loop, put the steps to skip in an IF",
                };
                self.diags.push(
                    Diagnostic::error(code, format!("{kw} is not inside the BODY of a LOOP"))
                        .at(s.span)
                        .in_step(s.id.as_ref())
                        .with_hint(hint),
                );
            }
            Node::Break | Node::Continue => {}
            Node::Return { expr } => {
                // The value must have the type of FUNC RETURNS.
                let want = match &self.scope.returns {
                    Some(t) => Want::Is(t.clone(), Role::Return),
                    None => Want::Quiet,
                };
                self.expr(expr, &want);
            }
        }
    }

    /// `ASSIGN`: the value must have the type of the place it is written to.
    fn assign(&mut self, target: &mut Place, expr: &mut Expr) {
        let value = self.shape(expr);
        let want = match self.place(target, &value) {
            Some(t) => Want::Is(t, Role::Assign(text::place(target))),
            None => Want::Quiet,
        };
        self.expr(expr, &want);
    }

    /// The type of a `TARGET`: a declared variable, an array element (by an int
    /// index) or a map entry (by a key of the map's key type). `value` is the
    /// type of what is assigned, for the declaration a missing name needs.
    fn place(&mut self, p: &mut Place, value: &PTy) -> Option<Type> {
        let shown = text::place(p);
        match p {
            Place::Var { name, span } => match self.scope.get(name) {
                Some(v) => v.ty.clone(),
                None => {
                    let ty = value.resolve().ok();
                    self.undeclared(name, *span, ty.as_ref(), false);
                    None
                }
            },
            Place::Index { base, index, span } => {
                let base_ty = self.place(base, &PTy::Any);
                match base_ty {
                    None => {
                        self.expr(index, &Want::Quiet);
                        None
                    }
                    Some(Type::Array(elem)) => {
                        self.expr(index, &Want::Is(Type::Int, Role::ArrayIndex));
                        Some(*elem)
                    }
                    Some(map @ Type::Map(..)) => {
                        let (key, value) = match &map {
                            Type::Map(k, v) => ((**k).clone(), (**v).clone()),
                            _ => return None,
                        };
                        self.expr(index, &Want::Is(key, Role::MapKey(map)));
                        Some(value)
                    }
                    Some(other) => {
                        let hint = match other {
                            Type::String => "a string cannot be changed in place: build the new string with SLICE and CONCAT and assign it to the variable",
                            _ => "only an element of an array or an entry of a map can be assigned through (index ...)",
                        };
                        let message = format!(
                            "TARGET {shown} assigns into {}, which is {other}, not an array or a map",
                            text::place(base),
                        );
                        self.type_error(*span, message, Some(hint.into()));
                        self.expr(index, &Want::Quiet);
                        None
                    }
                }
            }
            Place::Field { base, field, span } => {
                let base_ty = self.place(base, &PTy::Any)?;
                let base_shown = text::place(base);
                self.field_of(&base_ty, field, *span, &base_shown)
            }
        }
    }

    /// An `ITER`: `range` bounds and step are ints and so is its variable;
    /// `each` goes through an array whose elements have its variable's type;
    /// a `while` condition is a bool.
    fn iter(&mut self, iter: &mut Iter) {
        match iter {
            Iter::Range {
                var,
                start,
                end,
                step,
                ..
            } => {
                if let Some(t) = self.loop_var(var, Some(&Type::Int)) {
                    if t != Type::Int {
                        self.loop_var_type(
                            var,
                            &t,
                            "(range ...) counts with ints, so its variable must be int".into(),
                        );
                    }
                }
                self.expr(start, &Want::Is(Type::Int, Role::RangePart("start")));
                self.expr(end, &Want::Is(Type::Int, Role::RangePart("end")));
                if let Some(step) = step {
                    self.expr(step, &Want::Is(Type::Int, Role::RangePart("step")));
                }
            }
            Iter::Each { var, seq, .. } => self.each(var, seq),
            Iter::While { cond, .. } => {
                self.expr(cond, &Want::Is(Type::Bool, Role::WhileCond));
            }
        }
    }

    fn each(&mut self, var: &Ident, seq: &mut Expr) {
        let shape = self.shape(seq);
        let elem_hint = match &shape {
            PTy::Array(e) => e.resolve().ok(),
            _ => None,
        };
        let var_ty = self.loop_var(var, elem_hint.as_ref());
        let shown = text::expr(seq);
        match (&shape, &var_ty) {
            (PTy::Array(elem), Some(t)) => match elem.join(&PTy::of(t)) {
                Some(j) => {
                    let want = match PTy::array(j).resolve() {
                        Ok(arr) => Want::Is(arr, Role::EachSeq(var.name.clone())),
                        Err(Hole::Open) => Want::Free,
                        Err(Hole::Poisoned) => Want::Quiet,
                    };
                    self.expr(seq, &want);
                }
                None => {
                    let msg = format!("the elements of {shown} are {elem}, but the loop variable {} is declared {t}", var.name);
                    self.loop_var_type(var, t, msg);
                    self.expr(seq, &Want::Quiet);
                }
            },
            (PTy::Any, Some(t)) => {
                let want = Want::Is(Type::array(t.clone()), Role::EachSeq(var.name.clone()));
                self.expr(seq, &want);
            }
            (PTy::Array(_) | PTy::Any | PTy::Error, _) => {
                self.expr(seq, &Want::Quiet);
            }
            (other, _) => {
                let hint = match other {
                    PTy::Map(..) => format!("go through the keys of a map with (each {} (call MAP_KEYS {shown})), and read each value with (index ...)", var.name),
                    PTy::Str | PTy::Key { .. } => format!("go through the characters of a string with (each {} (call CHARS {shown}))", var.name),
                    _ => "to count, use (range i START END)".into(),
                };
                self.type_error(
                    seq.span,
                    format!(
                        "(each {} ...) goes through an array, but {shown} is {other}",
                        var.name
                    ),
                    Some(hint),
                );
                self.expr(seq, &Want::Quiet);
            }
        }
    }

    /// Checks that a loop variable is declared in `LOCAL`; returns its declared
    /// type (even when it is declared elsewhere, which is reported). `need` is
    /// the type the loop gives it, for the hint.
    fn loop_var(&mut self, var: &Ident, need: Option<&Type>) -> Option<Type> {
        match self.scope.get(&var.name) {
            None => {
                self.undeclared_loop_var(&var.name, var.span, None, need);
                None
            }
            Some(v) if v.section != Section::Local => {
                let (section, span, ty) = (v.section, v.span, v.ty.clone());
                self.undeclared_loop_var(&var.name, var.span, Some((section, span)), need);
                ty
            }
            Some(v) => v.ty.clone(),
        }
    }

    /// Reports a loop variable declared with a type its loop does not give it.
    fn loop_var_type(&mut self, var: &Ident, declared: &Type, message: String) {
        let mut d = Diagnostic::error(Code::TypeMismatch, message)
            .at(var.span)
            .in_step(self.step.as_ref())
            .with_actual(declared.to_string())
            .with_hint(format!(
                "declare {} in LOCAL with the type the loop gives it, or loop with another variable",
                var.name
            ));
        if let Some(v) = self.scope.get(&var.name) {
            d = d.with_label(v.span, format!("{} is declared {declared} here", var.name));
        }
        self.diags.push(d);
    }
}
