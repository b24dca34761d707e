//! Isu statements as Python lines, each under the comment naming its step.

use super::env::{self, Env};
use super::expr::{is_borrowed, roots, Arith, Codes};
use super::{invalid, ty, Gen, R};
use crate::facts::VarKind;
use crate::facts::{self, Update, UpdateOp};
use crate::interval::Interval;
use crate::py::{Prec, Py};
use crate::{live, names, pytype, text};
use isu_plugin_api::{
    BinaryOp, Block, Expr, ExprNode, Iter, Literal, Node, Place, Program, Step, Type, UnaryOp,
};
use std::collections::BTreeSet;

impl Gen {
    /// The generated function: signature, declarations, STATE, the steps,
    /// and the handler that gives every runtime error its step.
    pub fn function(&mut self, program: &Program) -> R<()> {
        let mut params: Vec<String> = Vec::new();
        for d in &program.func.args {
            params.push(format!(
                "{}: {}",
                names::local(&d.name.name),
                pytype::hint(&d.ty)
            ));
        }
        params.push("*".into());
        params.push("_fuel: int = MAX_STEPS".into());
        params.push("_max_size: int = MAX_SIZE".into());
        self.w.raw(format!(
            "def {}({}) -> {}:",
            names::function(&program.func.name.name),
            params.join(", "),
            pytype::hint(&program.func.returns)
        ));
        self.w.open();
        let declared: Vec<(String, Type)> = program
            .locals
            .iter()
            .filter(|d| {
                self.facts.read.contains(&d.name.name) && self.facts.bound.contains(&d.name.name)
            })
            .map(|d| (names::local(&d.name.name), d.ty.clone()))
            .collect();
        if !declared.is_empty() {
            self.w.comment("LOCAL");
            for (py, t) in declared {
                self.w.line(format!("{py}: {}", pytype::hint(&t)));
            }
        }
        for d in &program.func.args {
            if self.facts.mutated.contains(&d.name.name) {
                let py = Py::atom(names::local(&d.name.name));
                let copy = self.copies.copy(&d.ty, &py);
                self.w.comment(format!(
                    "`{}` changes in place below; the caller's value must not.",
                    py.text
                ));
                self.w.line(format!("{} = {}", py.text, copy.text));
            }
        }
        self.w.line("try:");
        self.w.open();
        if !program.state.is_empty() {
            self.w.comment("STATE (an error here has no step)");
        }
        for s in &program.state {
            self.assign_var(&s.name.name, &s.init, true)?;
        }
        self.block(&program.body)?;
        if !always_returns(&program.body) {
            self.w
                .line("raise IsuError(\"no_return\", \"the steps ended without a RETURN\")");
        }
        self.w.close();
        self.w.line("except _ERRORS as _e:");
        self.w.block(|w| {
            w.plain(format!(
                "raise _at_step(_e, {}) from None",
                crate::writer::STEP_VAR
            ))
        });
        self.w.close();
        Ok(())
    }

    pub fn block(&mut self, b: &Block) -> R<()> {
        for s in &b.steps {
            self.step(s)?;
        }
        Ok(())
    }

    fn step(&mut self, s: &Step) -> R<()> {
        let id =
            s.id.as_ref()
                .ok_or_else(|| invalid("a step has no ID: the program is not canonical"))?;
        let mut header = format!("{id}: {}", s.node.keyword());
        if let Some(d) = &s.desc {
            header.push(' ');
            let _ = isu_plugin_api::literal::write_json_string(&mut header, d);
        }
        self.w.comment(text::comment(&header));
        let outer = self.w.set_step(Some(id.to_string()));
        let r = match &s.node {
            Node::Seq { block } => self.block(block),
            Node::Assign { target, expr } => {
                self.dead = self.dead_in(id.as_str(), target, expr);
                let r = self.assign(target, expr);
                self.dead.clear();
                r
            }
            Node::If {
                cond,
                then_block,
                else_block,
            } => self.branch(cond, then_block, else_block),
            Node::Loop { iter, body } => self.looping_step(iter, body),
            Node::Return { expr } => self.ret(expr),
        };
        self.w.set_step(outer);
        r
    }

    /// The variables an ASSIGN may store (or change) without copying: read
    /// once in it, dead after it or assigned by it, and surely the only
    /// holder of their value (not an
    /// argument, which the caller holds too, nor an `each` loop's variable
    /// or array, which the loop shares).
    fn dead_in(&self, id: &str, target: &Place, expr: &Expr) -> BTreeSet<String> {
        let Some(live) = self.live.after(id) else {
            return BTreeSet::new();
        };
        let mut keys = Vec::new();
        let mut p = target;
        while let Place::Index { base, index, .. } = p {
            keys.push(index);
            p = base;
        }
        let mut read = BTreeSet::new();
        live::reads(expr, &mut read);
        // The variable assigned no longer holds its old value after this.
        let rebound = match target {
            Place::Var { name, .. } => Some(name.as_str()),
            Place::Index { .. } => None,
        };
        read.into_iter()
            .filter(|v| !live.contains(v) || rebound == Some(v.as_str()))
            .filter(|v| {
                self.facts
                    .var(v)
                    .is_some_and(|d| d.kind != VarKind::Arg && pytype::is_collection(&d.ty))
                    && !self.facts.each_vars.contains(v)
            })
            .filter(|v| {
                live::count_reads(expr, v)
                    + keys.iter().map(|k| live::count_reads(k, v)).sum::<usize>()
                    == 1
            })
            .collect()
    }

    fn assign(&mut self, target: &Place, expr: &Expr) -> R<()> {
        if let Some(up) = facts::update(target, expr) {
            let stored = self.stored_leaves(target, expr);
            self.update(target, up)?;
            if let Some((v, leaves)) = stored {
                self.env.add_leaves(&v, leaves);
            }
            return Ok(());
        }
        match target {
            Place::Var { name, .. } => self.assign_var(name, expr, false),
            Place::Index { .. } => {
                let stored = self.stored_leaves(target, expr);
                self.assign_element(target, expr)?;
                if let Some((v, leaves)) = stored {
                    self.env.add_leaves(&v, leaves);
                }
                Ok(())
            }
        }
    }

    /// `x = EXPR` (annotated for STATE). Arithmetic at the top is checked
    /// after the assignment, by a statement, which reads better and runs
    /// faster than the inline check; the value is never seen if it fails.
    fn assign_var(&mut self, name: &str, expr: &Expr, annotate: bool) -> R<()> {
        let var = self
            .facts
            .var(name)
            .ok_or_else(|| invalid(format!("`{name}` is not declared")))?
            .clone();
        // A variable nothing reads is assigned to `_` (Python linters refuse
        // a local that is assigned and never used).
        let (target, lhs) = if !self.facts.read.contains(name) {
            ("_".to_owned(), "_".to_owned())
        } else if annotate {
            (
                var.py.clone(),
                format!("{}: {}", var.py, pytype::hint(&var.ty)),
            )
        } else {
            (var.py.clone(), var.py.clone())
        };
        let value = (var.ty == Type::Int).then(|| self.interval(expr));
        let leaves = self.leaves_of(expr);
        match self.top_arith(expr)? {
            Some(a) => {
                self.w.line(format!("{lhs} = {}", a.py.text));
                if let Some(cond) = a.check.failed(&target) {
                    self.w.line(format!("if {cond}:"));
                    let op = a.op;
                    self.w.block(|w| w.line(format!("_overflow(\"{op}\")")));
                }
            }
            None => {
                let v = self.own(expr)?;
                self.w.line(format!("{lhs} = {}", v.text));
            }
        }
        env::evaluated(&mut self.env, expr);
        self.env.assign(name, value);
        if pytype::is_collection(&var.ty) {
            self.env.set_leaves(name, leaves);
        }
        Ok(())
    }

    fn top_arith(&mut self, e: &Expr) -> R<Option<Arith>> {
        match &e.node {
            ExprNode::Binary {
                op: op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul),
                lhs,
                rhs,
            } => Ok(Some(self.arith(*op, lhs, rhs)?)),
            ExprNode::Unary {
                op: UnaryOp::Neg,
                arg,
            } => Ok(Some(self.neg(arg)?)),
            _ => Ok(None),
        }
    }

    /// `TARGET: P`, `EXPR: (call F P rest...)`: the list or dict at `P`
    /// changes in place (spec/semantics.md 4.3), with the same checks in the
    /// same order as the call.
    fn update(&mut self, target: &Place, up: Update<'_>) -> R<()> {
        let max = Py::atom("_max_size");
        let arg = |n: usize| {
            up.rest
                .get(n)
                .ok_or_else(|| invalid("an in-place update lacks an argument"))
        };
        let Place::Var { name, .. } = target else {
            let (place, _) = self.place_read(target)?;
            let call = match up.op {
                UpdateOp::Push => Py::call("_push_into", &[place, self.own(arg(0)?)?, max]),
                UpdateOp::Pop => Py::call("_pop_from", &[place]),
                UpdateOp::MapSet => {
                    let k = self.expr(arg(0)?)?;
                    let v = self.own(arg(1)?)?;
                    Py::call("_map_set_into", &[place, k, v, max])
                }
                UpdateOp::Concat => {
                    Py::call("_extend_into", &[place, self.elements(arg(0)?)?, max])
                }
            };
            self.w.line(call.text);
            return Ok(());
        };
        let p = self.var(name)?.text;
        match up.op {
            UpdateOp::Push => {
                let x = self.own(arg(0)?)?;
                self.w.line(format!("{p}.append({})", x.text));
                self.size_check(&p, "PUSH's result");
            }
            UpdateOp::Pop => {
                self.w.line(format!("if not {p}:"));
                self.w.block(|w| w.line("_pop_empty()"));
                self.w.line(format!("del {p}[-1]"));
            }
            UpdateOp::MapSet => {
                let (k, v) = (arg(0)?, arg(1)?);
                // Python's `m[k] = v` evaluates v before m and k.
                let mut before = self.codes(k);
                if self.may_be_unset(name) {
                    before = before.with(Codes::UNINITIALIZED);
                }
                let in_order = self.codes(v).commutes(before);
                let kp = self.expr(k)?;
                let vp = self.own(v)?;
                if in_order {
                    self.w.line(format!("{p}[{}] = {}", kp.text, vp.text));
                    self.size_check(&p, "MAP_SET's result");
                } else {
                    let call = Py::call("_map_set_into", &[Py::atom(p), kp, vp, max]);
                    self.w.line(call.text);
                }
            }
            UpdateOp::Concat => {
                let t = ty(arg(0)?)?.clone();
                if t == Type::String {
                    let s = self.expr(arg(0)?)?;
                    self.w.line(format!("{p} += {}", s.text));
                } else {
                    let ys = self.elements(arg(0)?)?;
                    self.w.line(format!("{p}.extend({})", ys.text));
                }
                self.size_check(&p, "CONCAT's result");
            }
        }
        for a in up.rest {
            env::evaluated(&mut self.env, a);
        }
        Ok(())
    }

    fn size_check(&mut self, p: &str, what: &str) {
        self.w.line(format!("if len({p}) > _max_size:"));
        self.w
            .block(|w| w.line(format!("_size_limit({})", text::py_str(what))));
    }

    /// The value at a place, read with the checks of an index.
    fn place_read(&mut self, p: &Place) -> R<(Py, Type)> {
        match p {
            Place::Var { name, .. } => {
                let t = self
                    .facts
                    .var(name)
                    .map(|v| v.ty.clone())
                    .ok_or_else(|| invalid(format!("`{name}` is not declared")))?;
                Ok((self.var(name)?, t))
            }
            Place::Index { base, index, .. } => {
                let (b, bt) = self.place_read(base)?;
                let (key, et) = match &bt {
                    Type::Array(e) => (self.array_key(index)?, (**e).clone()),
                    Type::Map(_, v) => (self.expr(index)?.text, (**v).clone()),
                    other => return Err(invalid(format!("an index into a value of type {other}"))),
                };
                let py = Py::new(format!("{}[{key}]", b.at(Prec::Primary)), Prec::Primary);
                Ok((py, et))
            }
        }
    }

    /// The errors walking an element target from its variable outward can
    /// raise, up to the store (`last`: this is the level stored into).
    fn target_codes(&self, p: &Place, last: bool) -> R<Codes> {
        match p {
            Place::Var { name, .. } => Ok(if self.may_be_unset(name) {
                Codes::UNINITIALIZED
            } else {
                Codes::NONE
            }),
            Place::Index { base, index, .. } => {
                let level = match self.place_type(base)? {
                    Type::Map(..) if last => Codes::NONE,
                    Type::Map(..) => Codes::MISSING_KEY,
                    _ => Codes::INDEX,
                };
                Ok(level
                    .with(self.codes(index))
                    .with(self.target_codes(base, false)?))
            }
        }
    }

    fn place_type(&self, p: &Place) -> R<Type> {
        match p {
            Place::Var { name, .. } => self
                .facts
                .var(name)
                .map(|v| v.ty.clone())
                .ok_or_else(|| invalid(format!("`{name}` is not declared"))),
            Place::Index { base, .. } => match self.place_type(base)? {
                Type::Array(e) => Ok(*e),
                Type::Map(_, v) => Ok(*v),
                other => Err(invalid(format!("an index into a value of type {other}"))),
            },
        }
    }

    /// `TARGET: (index P K)`: the target's variable and keys are evaluated
    /// and checked before EXPR (spec/semantics.md 4.3). Python's `p[k] = v`
    /// evaluates `v` first, which is the same when one of the two cannot
    /// fail (or `v` starts by reading `p[k]` itself); otherwise the keys go
    /// first, into temporaries.
    fn assign_element(&mut self, target: &Place, expr: &Expr) -> R<()> {
        let Place::Index { base, index, .. } = target else {
            return Err(invalid("an element target without an index"));
        };
        let base_ty = self.place_type(base)?;
        let inline = self.codes(expr).commutes(self.target_codes(target, true)?)
            || facts::leads_with_read(expr, target);
        let v = self.own(expr)?;
        if inline {
            let (b, _) = self.place_read(base)?;
            match base_ty {
                Type::Array(_) => {
                    let key = self.array_key(index)?;
                    self.w
                        .line(format!("{}[{key}] = {}", b.at(Prec::Primary), v.text));
                }
                _ => {
                    let key = self.expr(index)?.text;
                    let m = if matches!(**base, Place::Var { .. }) {
                        b.text
                    } else {
                        self.w.line(format!("_p = {}", b.text));
                        "_p".to_owned()
                    };
                    self.w.line(format!("{m}[{key}] = {}", v.text));
                    self.size_check(&m, "the map");
                }
            }
            self.learn_from_target(target, expr);
            return Ok(());
        }
        let (root, _) = target.root();
        let mut levels = Vec::new();
        let mut p = target;
        while let Place::Index { base, index, .. } = p {
            levels.push((base.as_ref(), index));
            p = base;
        }
        levels.reverse();
        let root_py = self.var(root)?;
        self.w.line(format!("_p = {}", root_py.text));
        let n = levels.len();
        for (i, (lb, key)) in levels.into_iter().enumerate() {
            let is_array = matches!(self.place_type(lb)?, Type::Array(_));
            if i + 1 < n {
                let k = if is_array {
                    self.array_key(key)?
                } else {
                    self.expr(key)?.text
                };
                self.w.line(format!("_p = _p[{k}]"));
                continue;
            }
            let k = self.expr(key)?;
            self.w.line(format!("_k = {}", k.text));
            if is_array {
                self.w.line("if not 0 <= _k < len(_p):");
                self.w.block(|w| w.line("_index_error()"));
            }
            self.w.line(format!("_p[_k] = {}", v.text));
            if !is_array {
                self.size_check("_p", "the map");
            }
        }
        self.learn_from_target(target, expr);
        Ok(())
    }

    /// What is known where `cond` was just found `truth`.
    fn learned(&self, cond: &Expr, truth: bool) -> Env {
        let mut env = self.env.clone();
        env::learn(&mut env, cond, truth, &|e| self.interval(e));
        env
    }

    /// What an element assignment that went through tells: its keys and
    /// EXPR were evaluated, and an array key indexed its array.
    fn learn_from_target(&mut self, target: &Place, expr: &Expr) {
        let mut p = target;
        while let Place::Index { base, index, .. } = p {
            env::evaluated(&mut self.env, index);
            if let (Ok(Type::Array(_)), ExprNode::Var { name }) =
                (self.place_type(base), &index.node)
            {
                self.env
                    .refine(name, Interval::new(0, crate::interval::MAX_LEN - 1));
            }
            p = base;
        }
        env::evaluated(&mut self.env, expr);
    }

    fn branch(&mut self, cond: &Expr, then_block: &Block, else_block: &Block) -> R<()> {
        let c = self.expr(cond)?;
        let before = self.env.clone();
        self.w.line(format!("if {}:", c.text));
        self.w.open();
        self.env = self.learned(cond, true);
        self.block(then_block)?;
        let after_then = std::mem::replace(&mut self.env, before);
        self.w.close();
        self.env = self.learned(cond, false);
        if !else_block.steps.is_empty() {
            self.w.line("else:");
            self.w.open();
            self.block(else_block)?;
            self.w.close();
        }
        // A branch that returns does not reach what follows.
        self.env = match (always_returns(then_block), always_returns(else_block)) {
            (true, _) => std::mem::take(&mut self.env),
            (false, true) => after_then,
            (false, false) => after_then.join(&self.env),
        };
        Ok(())
    }

    /// A LOOP. Each round spends one unit of fuel (spec/semantics.md section 7: the budget
    /// counts loop rounds). A `range` or `each` loop with no loop inside knows
    /// its number of rounds before it starts, so it spends them all at once;
    /// when the fuel left does not cover them it runs only the rounds it
    /// covers and then fails. That gives the same outcome as spending round
    /// by round, since nothing else spends fuel while it runs, and costs
    /// nothing per round. A `while` loop with no loop inside runs as a `for`
    /// over the rounds the fuel covers, which counts them at the cost of
    /// Python's own loop; a loop with loops inside spends round by round.
    fn looping_step(&mut self, iter: &Iter, body: &Block) -> R<()> {
        let innermost = !facts::has_loop(body);
        match iter {
            Iter::Range {
                var,
                start,
                end,
                step,
                ..
            } => {
                let a = self.expr(start)?;
                let b = self.expr(end)?;
                let by = step.as_ref().map(|s| self.interval(s));
                let from_zero = const_int(start) == Some(0);
                let seq = match (step, by) {
                    (None, _) if from_zero => Py::call("range", &[b]),
                    (None, _) => Py::call("range", &[a, b]),
                    // Python's range refuses a step of 0 with a ValueError.
                    (Some(s), Some(iv)) if !iv.contains(0) => {
                        let s = self.expr(s)?;
                        Py::call("range", &[a, b, s])
                    }
                    (Some(s), _) => {
                        let s = self.expr(s)?;
                        Py::call("_range", &[a, b, s])
                    }
                };
                let (ai, bi) = (self.interval(start), self.interval(end));
                let (up, down) = match by {
                    None => (true, false),
                    Some(iv) => (iv.hi > 0, iv.lo < 0),
                };
                // `len()` of a range longer than 2^63 - 1 raises OverflowError.
                let mut longest = 0;
                if up {
                    longest = longest.max(bi.hi - ai.lo);
                }
                if down {
                    longest = longest.max(ai.hi - bi.lo);
                }
                let count = if longest <= crate::interval::MAX {
                    "len"
                } else {
                    "_rounds"
                };
                let values = self.range_values(start, end, step.as_ref());
                for e in [start, end].into_iter().chain(step.iter()) {
                    env::evaluated(&mut self.env, e);
                }
                self.enter_loop_head(body, Some((&var.name, values)));
                let outside = self.env.clone();
                self.env.assign(&var.name, Some(values));
                let r = self.for_loop(&var.name, seq, count, innermost, body);
                self.env = outside;
                // Zero rounds or some: its old value or a new one.
                self.env.forget(&var.name);
                r
            }
            Iter::Each { var, seq, .. } => {
                let t = ty(seq)?.clone();
                let mut from = Vec::new();
                roots(seq, &mut from);
                // The rounds see the array as it was when the loop started,
                // and the loop variable may not share an element with a
                // variable that changes in place.
                let snapshot = is_borrowed(seq)
                    && if pytype::element(&t).is_some_and(pytype::is_collection) {
                        from.iter()
                            .chain(std::iter::once(&var.name))
                            .any(|r| self.facts.mutated.contains(r))
                    } else {
                        let changed = facts::mutates(body, &self.facts);
                        from.iter().any(|r| changed.contains(r))
                    };
                let s = self.expr(seq)?;
                let s = if snapshot {
                    self.copies.copy(&t, &s)
                } else {
                    s
                };
                let elements = match pytype::element(&t) {
                    Some(Type::Int) => Some(self.element_interval(seq)),
                    _ => None,
                };
                let leaves = self.leaves_of(seq);
                env::evaluated(&mut self.env, seq);
                self.enter_loop_head(body, elements.map(|iv| (var.name.as_str(), iv)));
                let outside = self.env.clone();
                self.env.assign(&var.name, elements);
                if pytype::element(&t).is_some_and(pytype::is_collection) {
                    self.env.set_leaves(&var.name, leaves);
                }
                let r = self.for_loop(&var.name, s, "len", innermost, body);
                self.env = outside;
                self.env.forget(&var.name);
                r
            }
            Iter::While { cond, .. } => {
                // COND runs before every round, where only what holds in
                // every round is known.
                self.enter_loop_head(body, None);
                let outside = self.env.clone();
                let c = self.expr(cond)?;
                if innermost {
                    // At most as many rounds as the fuel covers, counted by
                    // the `for` itself rather than round by round.
                    let stop = self.not(cond)?;
                    self.w.line("for _round in range(_fuel):");
                    self.w.open();
                    self.w.line(format!("if {}:", stop.text));
                    self.w.block(|w| {
                        w.line("_fuel -= _round");
                        w.line("break");
                    });
                } else {
                    self.w.line(format!("while {}:", c.text));
                    self.w.open();
                    self.spend_round();
                }
                self.env = self.learned(cond, true);
                let r = self.block(body);
                self.env = outside;
                self.w.close();
                if innermost {
                    // The fuel ran out: the loop ends here if COND is false.
                    self.w.line("else:");
                    self.w.open();
                    self.w.line(format!("if {}:", c.text));
                    self.w.block(|w| w.line("_step_limit()"));
                    self.w.line("_fuel = 0");
                    self.w.close();
                }
                self.env = self.learned(cond, false);
                r
            }
        }
    }

    /// A `for` loop over `seq` (a range or an array); `count` is the function
    /// that counts its rounds.
    fn for_loop(
        &mut self,
        var: &str,
        seq: Py,
        count: &str,
        innermost: bool,
        body: &Block,
    ) -> R<()> {
        let target = if self.facts.read.contains(var) {
            self.var(var)?.text
        } else {
            "_".to_owned()
        };
        if !innermost {
            self.w.line(format!("for {target} in {}:", seq.text));
            self.w.open();
            self.spend_round();
            let r = self.block(body);
            self.w.close();
            return r;
        }
        let s = if seq.is_simple() {
            seq.text
        } else {
            self.w.line(format!("_seq = {}", seq.text));
            "_seq".to_owned()
        };
        self.w.line(format!("_fuel -= {count}({s})"));
        // `s` is a range or a list already made, and its length was taken on
        // the line above: the header cannot fail.
        self.w.safe_for(format!(
            "for {target} in {s} if _fuel >= 0 else {s}[: {count}({s}) + _fuel]:"
        ));
        self.w.open();
        let r = self.block(body);
        self.w.close();
        // The rounds the fuel covered ran; one more would have been needed.
        self.step_limit_if("_fuel < 0");
        r
    }

    fn spend_round(&mut self) {
        self.w.plain("_fuel -= 1");
        self.step_limit_if("_fuel < 0");
    }

    /// `if COND: _step_limit("S1")`, COND one that cannot fail: lines that
    /// name their step themselves, so that the step need not be recorded.
    fn step_limit_if(&mut self, cond: &str) {
        let call = match self.w.step() {
            Some(id) => format!("_step_limit(\"{id}\")"),
            None => "_step_limit()".to_owned(),
        };
        self.w.plain(format!("if {cond}:"));
        self.w.block(|w| w.plain(call));
    }

    /// The values the variable of `(range i START END [STEP])` takes, under
    /// the current facts.
    pub(super) fn range_values(&self, start: &Expr, end: &Expr, step: Option<&Expr>) -> Interval {
        let (a, b) = (self.interval(start), self.interval(end));
        let (up, down) = match step.map(|s| self.interval(s)) {
            None => (true, false),
            Some(iv) => (iv.hi > 0, iv.lo < 0),
        };
        match (up, down) {
            (true, false) => Interval::new(a.lo, a.lo.max(b.hi - 1)),
            (false, true) => Interval::new(a.hi.min(b.lo + 1), a.hi),
            _ => Interval::new(a.lo.min(b.lo), a.hi.max(b.hi)),
        }
    }

    fn ret(&mut self, expr: &Expr) -> R<()> {
        let v = self.expr(expr)?;
        let t = ty(expr)?;
        if pytype::is_collection(t) {
            self.w.line(format!(
                "return _result({}, {}, _max_size)",
                v.text,
                pytype::descriptor(t)
            ));
        } else {
            self.w.line(format!("return {}", v.text));
        }
        Ok(())
    }
}

/// Whether every path through the block ends in a RETURN (so nothing after
/// it runs).
fn always_returns(b: &Block) -> bool {
    b.steps.iter().any(|s| match &s.node {
        Node::Return { .. } => true,
        Node::Seq { block } => always_returns(block),
        Node::If {
            then_block,
            else_block,
            ..
        } => always_returns(then_block) && always_returns(else_block),
        Node::Assign { .. } | Node::Loop { .. } => false,
    })
}

fn const_int(e: &Expr) -> Option<i64> {
    match e.node {
        ExprNode::Const {
            value: Literal::Int(c),
        } => Some(c),
        _ => None,
    }
}
