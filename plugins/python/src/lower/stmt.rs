//! Isu statements as Python lines, each under the comment naming its step.

use super::expr::{Arith, Codes};
use super::memory::{self, Delta};
use super::work::{self, has_size, size_of};
use super::{invalid, ty, Gen, R};
use crate::facts;
use crate::py::{Prec, Py};
use crate::{names, pytype, text};
use isu_plugin_api::analysis::alias::{changed_in_place, may_share, roots};
use isu_plugin_api::analysis::flow::{block_completes, breaks};
use isu_plugin_api::analysis::interval::{self, Interval};
use isu_plugin_api::analysis::vars::{assigned_in, computes_with, count_reads, reads};
use isu_plugin_api::analysis::Section;
use isu_plugin_api::update::{in_place, InPlace, Update};
use isu_plugin_api::{
    BinaryOp, Block, Expr, ExprNode, Iter, Node, Place, Program, Step, Type, UnaryOp,
};
use std::collections::BTreeSet;

impl Gen {
    /// The generated function: signature, declarations, STATE, the steps,
    /// and the handler that gives every runtime error its step.
    pub fn function(&mut self, program: &Program) -> R<()> {
        self.mem = memory::Plan::of(program, &self.facts);
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
        params.extend(self.memory_param().map(str::to_owned));
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
            .filter(|d| self.facts.is_read(&d.name.name) && self.facts.bound.contains(&d.name.name))
            .map(|d| (names::local(&d.name.name), d.ty.clone()))
            .collect();
        if !declared.is_empty() {
            self.w.comment("LOCAL");
            for (py, t) in declared {
                self.w.line(format!("{py}: {}", pytype::hint(&t)));
            }
        }
        for d in &program.func.args {
            if self.facts.aliasing.changed_in_place.contains(&d.name.name) {
                let py = Py::atom(names::local(&d.name.name));
                let copy = self.copies.copy(&d.ty, &py);
                self.w.comment(format!(
                    "`{}` changes in place below; the caller's value must not.",
                    py.text
                ));
                self.w.line(format!("{} = {}", py.text, copy.text));
            }
        }
        self.memory_entry(program);
        self.w.line("try:");
        self.w.open();
        if !program.state.is_empty() {
            self.w.comment("STATE (an error here has no step)");
        }
        for (i, s) in program.state.iter().enumerate() {
            self.env = self.facts.bounds.state(i);
            self.temps = 0;
            let stored = self.assign_var(&s.name.name, &s.init, true)?;
            self.hold_var(&s.name.name, &stored, Some(&s.init), true)?;
        }
        self.block(&program.body)?;
        if block_completes(&program.body) {
            self.w
                .line("raise IsuError(_Code.NO_RETURN, \"the steps ended without a RETURN\")");
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
        self.env = self.facts.bounds.before(id);
        // The variables of the loops around whose copy runs only when they
        // are small, which no round assigns, are small here.
        for var in &self.small {
            self.env.refine(var, Interval::SMALL);
        }
        self.step = Some(id.clone());
        self.temps = 0;
        let r = match &s.node {
            Node::Seq { block } => self.block(block),
            Node::Assign { target, expr } => {
                self.dead = self.dead_in(id, target, expr);
                let r = self.assign(target, expr);
                self.dead.clear();
                r
            }
            Node::If {
                cond,
                then_block,
                else_block,
            } => self.branch(cond, then_block, else_block),
            Node::Loop { iter, body } => {
                // Work in the rounds (or in a `while`'s COND) must find the
                // fuel its rounds so far left.
                let spends = match iter {
                    Iter::While { .. } => work::step_spends(s),
                    _ => work::block_spends(body),
                };
                // What a CONTINUE jumps to may fail only in a `while`'s COND.
                let cond_fails = match iter {
                    Iter::While { cond, .. } => {
                        let head = self.facts.bounds.head(id);
                        let outer = std::mem::replace(&mut self.env, head);
                        let fails = !self.codes(cond).is_empty();
                        self.env = outer;
                        fails
                    }
                    _ => false,
                };
                // A loop inside a `while` whose iterator counts its rounds
                // takes the fuel that iterator left, and gives back what
                // is left after it (`counted_while`).
                let counter = self.counters.last().cloned().flatten();
                if let Some(w) = &counter {
                    self.w.plain(format!("_fuel = _f_{w} - _r_{w}"));
                }
                self.counters.push(None);
                self.loops.push((id.to_string(), cond_fails));
                let r = self.looping_step(id, iter, body, spends);
                self.loops.pop();
                self.counters.pop();
                if let Some(w) = &counter {
                    self.w.plain(format!(
                        "_it_{w}.__setstate__((_r_{w} := _f_{w} - _fuel) + 1)"
                    ));
                }
                r
            }
            Node::Return { expr } => self.ret(expr),
            Node::Break => {
                self.w.plain("break");
                Ok(())
            }
            Node::Continue => {
                // The next round starts with the loop's own work (a
                // `while`'s COND, the round's unit), whose errors name the
                // loop: the round's unit names it itself, and before a COND
                // that may fail `_step` is set to it.
                let (step, fails) = match self.loops.last() {
                    Some((id, fails)) => (Some(id.clone()), *fails),
                    None => (None, false),
                };
                let here = self.w.set_step(step);
                self.w.continue_line(fails);
                self.w.set_step(here);
                Ok(())
            }
        };
        self.w.set_step(outer);
        r
    }

    /// The variables an ASSIGN may store (or change) without copying: read
    /// once in it, dead after it or assigned by it, and surely the only
    /// holder of their value (not an
    /// argument, which the caller holds too, nor an `each` loop's variable
    /// or array, which the loop shares).
    fn dead_in(
        &self,
        id: &isu_plugin_api::StepId,
        target: &Place,
        expr: &Expr,
    ) -> BTreeSet<String> {
        let Some(live) = self.facts.live.after(id) else {
            return BTreeSet::new();
        };
        let mut keys = Vec::new();
        let mut p = target;
        loop {
            match p {
                Place::Index { base, index, .. } => {
                    keys.push(index);
                    p = base;
                }
                Place::Field { base, .. } => p = base,
                Place::Var { .. } => break,
            }
        }
        let read = reads(expr);
        // The variable assigned no longer holds its old value after this.
        let rebound = match target {
            Place::Var { name, .. } => Some(name.as_str()),
            Place::Index { .. } | Place::Field { .. } => None,
        };
        read.into_iter()
            .filter(|v| !live.contains(*v) || rebound == Some(*v))
            .filter(|v| {
                self.facts
                    .var(v)
                    .is_some_and(|d| d.section != Section::Args && pytype::is_mutable(&d.ty))
                    && !self.facts.aliasing.iterated.contains(*v)
            })
            .filter(|v| {
                count_reads(expr, v) + keys.iter().map(|k| count_reads(k, v)).sum::<usize>() == 1
            })
            .map(str::to_owned)
            .collect()
    }

    fn assign(&mut self, target: &Place, expr: &Expr) -> R<()> {
        if let Some(up) = in_place(target, expr) {
            return self.update(target, up);
        }
        // The copy spends its length (spec/semantics.md 7) once EXPR is
        // evaluated: a constant's is known, and a constant that is empty
        // spends nothing.
        let copies = if work::assign_copies(target, expr) {
            Some(work::constant_len(expr))
        } else {
            None
        };
        match target {
            Place::Var { name, .. } => {
                let stored = self.assign_var(name, expr, false)?;
                // The store before the charge is not seen when the fuel
                // does not cover it.
                match copies {
                    None | Some(Some(0)) => {}
                    Some(Some(n)) => self.spend_lines(&[n.to_string()]),
                    Some(None) => self.spend_lines(&[size_of(ty(expr)?, &stored)]),
                }
                // The memory limit is checked last (lower/memory.rs).
                self.hold_var(name, &stored, Some(expr), false)
            }
            Place::Index { .. } => self.assign_element(target, expr, copies),
            Place::Field { .. } => self.assign_field(target, expr, copies),
        }
    }

    /// `x = EXPR` (annotated for STATE). Arithmetic at the top is checked
    /// after the assignment, by a statement, which reads better and runs
    /// faster than the inline check; the value is never seen if it fails.
    /// Returns the Python name assigned.
    fn assign_var(&mut self, name: &str, expr: &Expr, annotate: bool) -> R<String> {
        let var = self
            .facts
            .var(name)
            .ok_or_else(|| invalid(format!("`{name}` is not declared")))?
            .clone();
        // A variable nothing reads is assigned to `_` (Python linters refuse
        // a local that is assigned and never used).
        let (target, lhs) = if !self.facts.is_read(name) {
            ("_".to_owned(), "_".to_owned())
        } else if annotate {
            (
                var.py.clone(),
                format!("{}: {}", var.py, pytype::hint(&var.ty)),
            )
        } else {
            (var.py.clone(), var.py.clone())
        };
        match self.top_arith(expr)? {
            Some(a) => {
                self.w.code_line(format!("{lhs} = {}", a.py.text), a.fails);
                if let Some(cond) = a.check.failed(&target) {
                    self.w.plain(format!("if {cond}:"));
                    let call = self.overflow_call(a.op);
                    self.w.block(|w| w.plain(call));
                }
            }
            None => {
                let fails = !self.codes(expr).is_empty();
                let v = self.own(expr)?;
                self.w.code_line(format!("{lhs} = {}", v.text), fails);
            }
        }
        Ok(target)
    }

    /// `_overflow("add", "S1")`: the error of a check written as a
    /// statement, which names its step itself.
    fn overflow_call(&self, op: &str) -> String {
        match self.w.step() {
            Some(id) => format!("_overflow(\"{op}\", \"{id}\")"),
            None => format!("_overflow(\"{op}\")"),
        }
    }

    fn top_arith(&mut self, e: &Expr) -> R<Option<Arith>> {
        if e.ty.as_ref() != Some(&Type::Int) {
            return Ok(None);
        }
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
    /// same order as the call, and then the work of the call (the lengths it
    /// stores, not the collection's).
    fn update(&mut self, target: &Place, up: InPlace<'_>) -> R<()> {
        let (lens, delta) = self.update_lines(target, up)?;
        self.spend_lines(&lens);
        let (root, _) = target.root();
        self.add_memory(root, delta);
        Ok(())
    }

    /// The lines of [`Gen::update`]; the lengths its work counts, and how
    /// it changes the live size (lower/memory.rs: a POP's lines take it
    /// away themselves; the others add it after the work).
    fn update_lines(&mut self, target: &Place, up: InPlace<'_>) -> R<(Vec<String>, Delta)> {
        let max = Py::atom("_max_size");
        let arg = |n: usize| {
            up.rest
                .get(n)
                .ok_or_else(|| invalid("an in-place update lacks an argument"))
        };
        let Place::Var { name, .. } = target else {
            if up.op == Update::Concat && ty(up.place)? == &Type::String {
                let lens = self.concat_at(target, arg(0)?)?;
                let delta = grows(lens.first());
                return Ok((lens, delta));
            }
            let (root, _) = target.root();
            let (place, place_ty) = self.place_read(target)?;
            let mut lens = Vec::new();
            let mut delta = Delta::Nothing;
            let call = match up.op {
                Update::Push => {
                    let v = self.own(arg(0)?)?;
                    let v = self.measure(arg(0)?, v)?;
                    delta = match v.len() {
                        Some(n) => Delta::Adds(format!("1 + {n}")),
                        None => Delta::Adds("1".to_owned()),
                    };
                    lens.extend(v.len());
                    Py::call("_push_into", &[place, v.bind_arg(), max])
                }
                Update::Pop => match pytype::element(&place_ty) {
                    Some(e) if self.counts_memory() && has_size(e) => {
                        let e = pytype::descriptor(e);
                        self.w.line(format!(
                            "_g = {}",
                            Py::call("_popped", &[place, Py::atom(e)]).text
                        ));
                        self.remove_memory(root, "_g");
                        return Ok((lens, delta));
                    }
                    _ => {
                        self.w.line(Py::call("_pop_from", &[place]).text);
                        self.remove_memory(root, "1");
                        return Ok((lens, delta));
                    }
                },
                Update::MapSet => {
                    let k = self.expr(arg(0)?)?;
                    let k = self.measure(arg(0)?, k)?;
                    let v = self.own(arg(1)?)?;
                    let v = self.measure(arg(1)?, v)?;
                    lens.extend(k.len());
                    lens.extend(v.len());
                    if self.counts_memory() {
                        self.w.line(Gen::put_call(
                            &place_ty,
                            &place.text,
                            &k.bind_arg().text,
                            &v.bind_arg().text,
                            "MAP_SET's result",
                        ));
                        return Ok((lens, Delta::Changes("_g".to_owned())));
                    }
                    Py::call("_map_set_into", &[place, k.bind_arg(), v.bind_arg(), max])
                }
                Update::Concat => {
                    let ys = self.elements(arg(0)?)?;
                    let ys = self.measure(arg(0)?, ys)?;
                    lens.extend(ys.len());
                    delta = grows(lens.first());
                    Py::call("_extend_into", &[place, ys.bind_arg(), max])
                }
            };
            self.w.line(call.text);
            return Ok((lens, delta));
        };
        let p = self.var(name)?.text;
        let mut lens = Vec::new();
        let mut delta = Delta::Nothing;
        match up.op {
            Update::Push => {
                let fails = self.may_be_unset(name) || !self.codes(arg(0)?).is_empty();
                let x = self.own(arg(0)?)?;
                self.w.code_line(format!("{p}.append({})", x.text), fails);
                self.size_check(&p, "PUSH's result");
                let t = ty(arg(0)?)?;
                if has_size(t) && self.counts_memory() {
                    // The size pushed, measured once for the work and the
                    // live size (`_n` is free between statements).
                    let last = size_of(t, &format!("{p}[-1]"));
                    lens.push(format!("(_n := {last})"));
                    delta = Delta::Adds("1 + _n".to_owned());
                } else if has_size(t) {
                    lens.push(size_of(t, &format!("{p}[-1]")));
                } else {
                    delta = Delta::Adds("1".to_owned());
                }
            }
            Update::Pop => {
                self.w.line(format!("if not {p}:"));
                self.w.block(|w| w.line("_pop_empty()"));
                let var_ty = self.place_type(target)?;
                match pytype::element(&var_ty) {
                    Some(e) if self.counts_memory() && has_size(e) => {
                        let removed = size_of(e, &format!("{p}.pop()"));
                        self.w.line(format!("_g = 1 + {removed}"));
                        self.remove_memory(name, "_g");
                    }
                    _ => {
                        self.w.line(format!("del {p}[-1]"));
                        self.remove_memory(name, "1");
                    }
                }
            }
            Update::MapSet => {
                let (k, v) = (arg(0)?, arg(1)?);
                // Python's `m[k] = v` evaluates v before m and k.
                let mut before = self.codes(k);
                if self.may_be_unset(name) {
                    before = before.with(Codes::UNINITIALIZED);
                }
                let in_order = self.codes(v).commutes(before);
                let kp = self.expr(k)?;
                let km = self.measure(k, kp)?;
                let vp = self.own(v)?;
                let vm = self.measure(v, vp)?;
                lens.extend(km.len());
                lens.extend(vm.len());
                let map_ty = self.place_type(target)?;
                let flat = matches!(&map_ty, Type::Map(_, v) if !has_size(v));
                if self.counts_memory() && flat {
                    // A value without a size: the store adds an entry and
                    // its key when the dict grew.
                    // `len` of a LOCAL not yet set fails: under its step's
                    // marker (`store_in_map` sets it in order).
                    if !in_order {
                        self.w.line(format!("_was = len({p})"));
                    }
                    delta = Delta::NewKey {
                        map: p.clone(),
                        text: km.len().map_or("1".to_owned(), |n| format!("1 + {n}")),
                    };
                }
                if self.counts_memory() && !flat {
                    // `_put` reads P, K and V in Isu's order.
                    self.w.line(Gen::put_call(
                        &map_ty,
                        &p,
                        &km.bind_arg().text,
                        &vm.bind_arg().text,
                        "MAP_SET's result",
                    ));
                    delta = Delta::Changes("_g".to_owned());
                } else if in_order {
                    let (k, v) = (km.bind().text, vm.bind().text);
                    self.store_in_map(&p, &k, &v, "MAP_SET's result");
                } else {
                    let call = Py::call(
                        "_map_set_into",
                        &[Py::atom(p), km.bind_arg(), vm.bind_arg(), max],
                    );
                    self.w.line(call.text);
                }
            }
            Update::Concat => {
                let t = ty(arg(0)?)?.clone();
                let s = if t == Type::String {
                    self.expr(arg(0)?)?
                } else {
                    self.elements(arg(0)?)?
                };
                let s = self.measure_apart(arg(0)?, s, Some(&p))?;
                if t != Type::String {
                    // The argument may be the target's own list (`x =
                    // CONCAT(x, x)`, `x = CONCAT(x, (if c [] x))`), which
                    // grows as it extends itself: its size is taken first.
                    if let Some(n) = s.len_bound() {
                        self.w.line(format!("_grown = {n}"));
                        lens.push("_grown".to_owned());
                    }
                    self.w.line(format!("{p}.extend({})", s.reference().text));
                } else {
                    lens.extend(s.len());
                    self.w.line(format!("{p} += {}", s.bind().text));
                }
                delta = grows(lens.first());
                self.size_check(&p, "CONCAT's result");
            }
        }
        Ok((lens, delta))
    }

    /// `TARGET: (index B K)`, `EXPR: (call CONCAT (index B K) s)` on a
    /// string element (or the same on a string field, `(field B f)`):
    /// Python's strings do not change in place, so the element is read,
    /// joined and stored back. The container and the key go into
    /// temporaries first, so each is evaluated (and checked) once, in Isu's
    /// order: B, K, the element's own read, `s`, the size check.
    fn concat_at(&mut self, target: &Place, s: &Expr) -> R<Vec<String>> {
        let (base, at, charge) = match target {
            Place::Index { base, index, .. } => {
                let (b, bt) = self.place_read(base)?;
                let key = match bt {
                    Type::Array(_) => self.array_key(index)?,
                    _ => self.expr(index)?.text,
                };
                let charge = Gen::key_units(&bt, index, "_k");
                (b, Ok(key), charge)
            }
            // A string field: `_p.f`, which has no key to check.
            Place::Field { base, field, .. } => (
                self.place_read(base)?.0,
                Err(names::field(&field.name)),
                None,
            ),
            Place::Var { .. } => return Err(invalid("an element update of a variable")),
        };
        let t = self.expr(s)?;
        let t = self.measure(s, t)?;
        self.w.line(format!("_p = {}", base.text));
        let (at, old) = match at {
            Ok(key) => {
                self.w.line(format!("_k = {key}"));
                match charge {
                    // A string key spends its size once the element is
                    // found, before the string appended is evaluated.
                    Some(units) => {
                        self.w.line("_old = _p[_k]");
                        self.w.plain(format!("_fuel -= {units}"));
                        self.step_limit_if("_fuel < 0");
                        ("_p[_k]".to_owned(), "_old".to_owned())
                    }
                    None => ("_p[_k]".to_owned(), "_p[_k]".to_owned()),
                }
            }
            Err(attr) => (format!("_p.{attr}"), format!("_p.{attr}")),
        };
        self.w.line(format!(
            "{at} = _s if len(_s := {old} + {}) <= _max_size else _size_limit(\"CONCAT's result\")",
            t.bind().at(Prec::Sum)
        ));
        Ok(t.len().into_iter().collect())
    }

    /// After `_was = len(M)` and a store into the dict `M` of a value
    /// without a size at the key `key` (when it has a size): a new entry
    /// is checked against the size limit and then adds one and the key's
    /// size to the live size (lower/memory.rs).
    fn new_entry(&mut self, root: &str, m: &str, key: Option<&str>) {
        self.w.plain(format!("if len({m}) > _was:"));
        self.w.open();
        self.w.plain(format!("if len({m}) > _max_size:"));
        self.w
            .block(|w| w.plain(format!("_size_limit({})", text::py_str("the map"))));
        let adds = key.map_or("1".to_owned(), |k| format!("1 + len({k})"));
        self.add_memory(root, Delta::Adds(adds));
        self.w.close();
    }

    /// `M[K] = V` into the dict `M`, in Python's order (V, then K): only a
    /// new key can break the size limit; a map already over it (an
    /// argument) may still have an existing key replaced, as in the
    /// interpreter.
    fn store_in_map(&mut self, m: &str, k: &str, v: &str, what: &str) {
        // `len` of a LOCAL not yet set fails: under its step's marker.
        self.w.line(format!("_was = len({m})"));
        self.w.line(format!("{m}[{k}] = {v}"));
        self.w
            .line(format!("if len({m}) > _was and len({m}) > _max_size:"));
        self.w
            .block(|w| w.line(format!("_size_limit({})", text::py_str(what))));
    }

    /// After a line that grew the list or string `p` (and so read it):
    /// the size check, which names its step itself.
    fn size_check(&mut self, p: &str, what: &str) {
        let call = match self.w.step() {
            Some(id) => format!("_size_limit({}, \"{id}\")", text::py_str(what)),
            None => format!("_size_limit({})", text::py_str(what)),
        };
        self.w.plain(format!("if len({p}) > _max_size:"));
        self.w.block(|w| w.plain(call));
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
                    Type::Map(_, v) if work::index_spends(Some(&bt)) => {
                        // A string key spends its size once the element is
                        // found, as a lookup does (spec/semantics.md 4.3).
                        let quiet = self
                            .target_codes(base, false)?
                            .with(self.codes(index))
                            .is_empty();
                        let key = self.expr(index)?;
                        let key = self.measure(index, key)?;
                        let call = Py::new(
                            format!("{}[{}]", b.at(Prec::Primary), key.bind().text),
                            Prec::Primary,
                        );
                        return Ok((Gen::spend_key(&call, &key, quiet, true), (**v).clone()));
                    }
                    Type::Map(_, v) => (self.expr(index)?.text, (**v).clone()),
                    other => return Err(invalid(format!("an index into a value of type {other}"))),
                };
                let py = Py::new(format!("{}[{key}]", b.at(Prec::Primary)), Prec::Primary);
                Ok((py, et))
            }
            Place::Field { base, field, .. } => {
                let (b, bt) = self.place_read(base)?;
                let ft = self.field_type(&bt, &field.name)?;
                let py = Py::new(
                    format!("{}.{}", b.at(Prec::Primary), names::field(&field.name)),
                    Prec::Primary,
                );
                Ok((py, ft))
            }
        }
    }

    /// The type of the field `field` of the struct type `ty`.
    fn field_type(&self, ty: &Type, field: &str) -> R<Type> {
        self.facts
            .field_type(ty, field)
            .cloned()
            .ok_or_else(|| invalid(format!("a value of type {ty} has no field `{field}`")))
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
                let base_ty = self.place_type(base)?;
                // A string key spends its size (spec/semantics.md 4.3).
                let spends = if work::index_spends(Some(&base_ty)) {
                    Codes::STEP
                } else {
                    Codes::NONE
                };
                let level = match base_ty {
                    Type::Map(..) if last => spends,
                    Type::Map(..) => Codes::MISSING_KEY.with(spends),
                    // An index the bounds prove in range (`analysis::bounds`).
                    _ if self.env.target_in_bounds(base, index, &self.facts.decls) => Codes::NONE,
                    _ => Codes::INDEX,
                };
                Ok(level
                    .with(self.codes(index))
                    .with(self.target_codes(base, false)?))
            }
            // A field level has no key and cannot fail.
            Place::Field { base, .. } => self.target_codes(base, false),
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
            Place::Field { base, field, .. } => {
                let bt = self.place_type(base)?;
                self.field_type(&bt, &field.name)
            }
        }
    }

    /// `TARGET: (index P K)`: the target's variable and keys are evaluated
    /// and checked before EXPR (spec/semantics.md 4.3). Python's `p[k] = v`
    /// evaluates `v` first, which is the same when one of the two cannot
    /// fail (or `v` starts by reading `p[k]` itself); otherwise the keys go
    /// first, into temporaries.
    /// `copies`: the ASSIGN copies a value, of this length when it is a
    /// constant (lower/work.rs).
    fn assign_element(
        &mut self,
        target: &Place,
        expr: &Expr,
        copies: Option<Option<usize>>,
    ) -> R<()> {
        let Place::Index { base, index, .. } = target else {
            return Err(invalid("an element target without an index"));
        };
        let base_ty = self.place_type(base)?;
        let copies = copies.filter(|n| *n != Some(0));
        let mut codes = self.codes(expr);
        if copies.is_some() {
            codes = codes.with(Codes::STEP);
        }
        // A store that may change the live size goes through `_put`, which
        // measures what it replaces (lower/memory.rs), after the keys.
        let counted = self.counts_memory() && memory::element_counts(&base_ty);
        // A dict of values without a size: the store adds an entry and its
        // key when the dict grew.
        let flat_map = matches!(&base_ty, Type::Map(_, v) if !has_size(v));
        let string_keys = matches!(&base_ty, Type::Map(k, _) if **k == Type::String);
        let (root, _) = target.root();
        // A map's key that spends its size is evaluated and charged on
        // lines of its own before EXPR (spec/semantics.md 4.3), after the
        // map, which is read first unless it is a variable that may be
        // unset (then the walk below reads it first).
        let key_spends = work::index_spends(Some(&base_ty));
        let unset_root = matches!(**base, Place::Var { .. }) && self.may_be_unset(root);
        let inline = (!counted || flat_map)
            && !(key_spends && unset_root)
            && (key_spends
                || codes.commutes(self.target_codes(target, true)?)
                || facts::leads_with_read(expr, target));
        let v = self.stored(expr, copies)?;
        if inline {
            let (b, _) = self.place_read(base)?;
            match base_ty {
                Type::Array(_) => {
                    let fails = !codes.with(self.target_codes(target, true)?).is_empty();
                    let key = self.array_key(index)?;
                    self.w.code_line(
                        format!("{}[{key}] = {}", b.at(Prec::Primary), v.text),
                        fails,
                    );
                }
                _ => {
                    let key = self.expr(index)?;
                    let m = if matches!(**base, Place::Var { .. }) {
                        b.text
                    } else {
                        self.w.line(format!("_p = {}", b.text));
                        "_p".to_owned()
                    };
                    // Isu reads the key before EXPR: it may go first.
                    let k = if key.is_simple()
                        || work::constant_len(index).is_some()
                        || !(string_keys && counted || key_spends)
                    {
                        key.text
                    } else {
                        self.w.line(format!("_k = {}", key.text));
                        "_k".to_owned()
                    };
                    let key_fails = k != "_k" && !self.codes(index).is_empty();
                    self.spend_key_lines(&base_ty, index, &k, key_fails);
                    if counted {
                        // `len` of a LOCAL not yet set fails: under its step's marker.
                        self.w.line(format!("_was = len({m})"));
                        self.w.line(format!("{m}[{k}] = {}", v.text));
                        self.new_entry(root, &m, string_keys.then_some(k.as_str()));
                    } else {
                        self.store_in_map(&m, &k, &v.text, "the map");
                    }
                }
            }
            return Ok(());
        }
        // The levels from the variable outward: the container at each and
        // its key, or the field it names.
        let mut levels = Vec::new();
        let mut p = target;
        loop {
            match p {
                Place::Index { base, index, .. } => {
                    levels.push((base.as_ref(), Ok(index)));
                    p = base;
                }
                Place::Field { base, field, .. } => {
                    levels.push((base.as_ref(), Err(field.name.as_str())));
                    p = base;
                }
                Place::Var { .. } => break,
            }
        }
        levels.reverse();
        let root_py = self.var(root)?;
        self.w.line(format!("_p = {}", root_py.text));
        let n = levels.len();
        for (i, (lb, key)) in levels.into_iter().enumerate() {
            let key = match key {
                Ok(key) => key,
                // A field on the way (the last level is an index): it
                // cannot fail.
                Err(field) => {
                    self.w.plain(format!("_p = _p.{}", names::field(field)));
                    continue;
                }
            };
            let level_ty = self.place_type(lb)?;
            let is_array = matches!(level_ty, Type::Array(_));
            if i + 1 < n {
                if work::index_spends(Some(&level_ty)) {
                    // The key spends its size once its element is found.
                    let k = self.expr(key)?;
                    let k = if k.is_simple() || work::constant_len(key).is_some() {
                        k.text
                    } else {
                        self.w.line(format!("_k = {}", k.text));
                        "_k".to_owned()
                    };
                    self.w.line(format!("_p = _p[{k}]"));
                    self.spend_key_lines(&level_ty, key, &k, false);
                    continue;
                }
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
            // The last key spends its size once evaluated.
            self.spend_key_lines(&level_ty, key, "_k", false);
            if is_array {
                self.w.line("if not 0 <= _k < len(_p):");
                self.w.block(|w| w.line("_index_error()"));
            }
            if counted && flat_map {
                self.w.plain("_was = len(_p)");
                self.w.line(format!("_p[_k] = {}", v.text));
                self.new_entry(root, "_p", string_keys.then_some("_k"));
                continue;
            }
            if counted {
                let put = Gen::put_call(&base_ty, "_p", "_k", &v.text, "the map");
                self.w.line(put);
                self.add_memory(root, Delta::Changes("_g".to_owned()));
                continue;
            }
            if is_array {
                self.w.line(format!("_p[_k] = {}", v.text));
            } else {
                self.store_in_map("_p", "_k", &v.text, "the map");
            }
        }
        Ok(())
    }

    /// The charge of a level of an element target that indexes the map of
    /// type `map` by `index` (its value in `k`) by a string key: the key's
    /// size, at the ASSIGN's step (spec/semantics.md 4.3). `fails`:
    /// reading `k` may fail (a variable that may be unset), so the line
    /// names its step. Nothing for a level that spends nothing.
    fn spend_key_lines(&mut self, map: &Type, index: &Expr, k: &str, fails: bool) {
        if let Some(units) = Gen::key_units(map, index, k) {
            self.w.code_line(format!("_fuel -= {units}"), fails);
            self.step_limit_if("_fuel < 0");
        }
    }

    /// EXPR of an element or field ASSIGN as the value to store: one that
    /// nothing else holds, and when the ASSIGN copies (`copies`: of this
    /// size when a constant gives it), charged its size once evaluated,
    /// before the store (spec/semantics.md 7).
    fn stored(&mut self, expr: &Expr, copies: Option<Option<usize>>) -> R<Py> {
        let v = self.own(expr)?;
        Ok(match copies {
            None => v,
            Some(Some(n)) => Gen::spend_before(&v, &n.to_string(), false),
            Some(None) if v.is_simple() => {
                let n = size_of(ty(expr)?, &v.text);
                Gen::spend_before(&v, &n, false)
            }
            Some(None) => Gen::spend_after(&v, ty(expr)?, ""),
        })
    }

    /// `TARGET: (field P f)`: the struct at `P` (its variable read and its
    /// keys checked, spec/semantics.md 4.3), then EXPR, then the attribute
    /// stored. Python's `P.f = v` evaluates `v` before `P`, which is the
    /// same when one of the two cannot fail (or `v` starts by reading the
    /// field itself); otherwise `P` goes first, into `_p`. A store that may
    /// change the live size measures the field's old value first
    /// (lower/memory.rs).
    fn assign_field(
        &mut self,
        target: &Place,
        expr: &Expr,
        copies: Option<Option<usize>>,
    ) -> R<()> {
        let Place::Field { base, field, .. } = target else {
            return Err(invalid("a field target without a field"));
        };
        let ft = self.field_type(&self.place_type(base)?, &field.name)?;
        let attr = names::field(&field.name);
        let copies = copies.filter(|n| *n != Some(0));
        let mut codes = self.codes(expr);
        if copies.is_some() {
            codes = codes.with(Codes::STEP);
        }
        let counted = self.counts_memory() && has_size(&ft);
        let inline = !counted
            && (codes.commutes(self.target_codes(base, false)?)
                || facts::leads_with_read(expr, target));
        let (root, _) = target.root();
        if inline {
            let v = self.stored(expr, copies)?;
            let (b, _) = self.place_read(base)?;
            self.w
                .line(format!("{}.{attr} = {}", b.at(Prec::Primary), v.text));
            return Ok(());
        }
        let (b, _) = self.place_read(base)?;
        let p = if b.is_simple() && !self.may_be_unset(root) {
            b.text
        } else {
            self.w.line(format!("_p = {}", b.text));
            "_p".to_owned()
        };
        let old = format!("{p}.{attr}");
        if counted {
            // Reading a field cannot fail.
            self.w.plain(format!("_was = {}", size_of(&ft, &old)));
        }
        let v = self.stored(expr, copies)?;
        self.w.line(format!("{old} = {}", v.text));
        if counted {
            let delta = format!("{} - _was", size_of(&ft, &old));
            self.add_memory(root, Delta::Changes(delta));
        }
        Ok(())
    }

    fn branch(&mut self, cond: &Expr, then_block: &Block, else_block: &Block) -> R<()> {
        let fails = !self.codes(cond).is_empty();
        let c = self.expr(cond)?;
        self.w.code_line(format!("if {}:", c.text), fails);
        self.w.open();
        self.block(then_block)?;
        self.w.close();
        if !else_block.steps.is_empty() {
            self.w.line("else:");
            self.w.open();
            self.block(else_block)?;
            self.w.close();
        }
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
    /// Python's own loop; a loop with loops inside, or whose rounds (or a
    /// `while`'s COND) spend work (`spends`: lower/work.rs), spends round by
    /// round.
    fn looping_step(
        &mut self,
        id: &isu_plugin_api::StepId,
        iter: &Iter,
        body: &Block,
        spends: bool,
    ) -> R<()> {
        // A loop a BREAK may end early spends round by round, as the
        // interpreter does.
        let innermost = !facts::has_loop(body) && !spends && !breaks(body);
        match iter {
            Iter::Range {
                var,
                start,
                end,
                step,
                ..
            } => {
                let mut codes = self.codes(start).with(self.codes(end));
                if let Some(s) = step {
                    codes = codes.with(self.codes(s));
                }
                let a = self.expr(start)?;
                let b = self.expr(end)?;
                let by = step.as_ref().map(|s| self.env.interval(s));
                let from_zero = start.int_const() == Some(0);
                let seq = match (step, by) {
                    (None, _) if from_zero => Py::call("range", &[b]),
                    (None, _) => Py::call("range", &[a, b]),
                    // Python's range refuses a step of 0 with a ValueError.
                    (Some(s), Some(iv)) if !iv.contains(0) => {
                        let s = self.expr(s)?;
                        Py::call("range", &[a, b, s])
                    }
                    (Some(s), _) => {
                        codes = codes.with(Codes::ANY);
                        let s = self.expr(s)?;
                        Py::call("_range", &[a, b, s])
                    }
                };
                let (ai, bi) = (self.env.interval(start), self.env.interval(end));
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
                let count = if longest <= interval::MAX {
                    "len"
                } else {
                    "_rounds"
                };
                let fails = !codes.is_empty();
                // A body that computes with the variable runs in a copy that
                // knows it small, when it is (`Interval::SMALL`).
                let small = innermost
                    && seq.text.starts_with("range(")
                    && computes_with(body, &var.name)
                    && !assigned_in(body).contains(var.name.as_str());
                let each = Rounds::Range { small };
                self.for_loop(&var.name, seq, count, fails, innermost, body, each)
            }
            Iter::Each { var, seq, .. } => {
                let t = ty(seq)?.clone();
                let from = roots(seq);
                // The rounds see the array as it was when the loop started,
                // and the loop variable may not share an element with a
                // variable that changes in place.
                let snapshot = may_share(seq)
                    && if pytype::element(&t).is_some_and(pytype::is_mutable) {
                        let changed = &self.facts.aliasing.changed_in_place;
                        from.iter()
                            .chain(std::iter::once(&var.name.as_str()))
                            .any(|r| changed.contains(*r))
                    } else {
                        let changed = changed_in_place(body, &self.facts.decls);
                        from.iter().any(|r| changed.contains(*r))
                    };
                let fails = !self.codes(seq).is_empty();
                let s = self.expr(seq)?;
                let s = if snapshot {
                    self.copies.copy(&t, &s)
                } else {
                    s
                };
                self.for_loop(&var.name, s, "len", fails, innermost, body, Rounds::Each)
            }
            Iter::While { cond, .. } => {
                // COND runs before every round, where only what holds in
                // every round is known.
                self.env = self.facts.bounds.head(id);
                let fails = !self.codes(cond).is_empty();
                let c = self.expr(cond)?;
                let counted = !innermost && self.counted_while(cond, body);
                if innermost || counted {
                    // At most as many rounds as the fuel covers, counted by
                    // the `for` itself rather than round by round: `_it`
                    // yields `_fuel` times (None, which makes no int), and
                    // the round that stops has taken one more than it spends.
                    // A counted `while` (`counted_while`) iterates over
                    // `range(_fuel)` instead, whose position can be set:
                    // `_r_S1` is the units taken before its round, so that
                    // `_f_S1 - _r_S1` is the fuel left in it (`_f_S1` is the
                    // fuel at the start, less one), which the loops inside
                    // take and give back.
                    let stop = self.not(cond)?;
                    let (var, left) = if counted {
                        self.w.plain(format!("_f_{id} = _fuel - 1"));
                        self.w.plain(format!("_it_{id} = iter(range(_fuel))"));
                        (format!("_r_{id} in _it_{id}"), format!("_f_{id} - _r_{id}"))
                    } else {
                        self.w.plain("_it = _units(None, _fuel)");
                        ("_ in _it".to_owned(), "_it.__length_hint__()".to_owned())
                    };
                    self.w.safe_for(format!("for {var}:"));
                    self.w.open();
                    self.w.code_line(format!("if {}:", stop.text), fails);
                    self.w.block(|w| {
                        w.plain(format!("_fuel = {left} + 1"));
                        w.plain("break");
                    });
                } else {
                    self.w.while_line(format!("while {}:", c.text), fails);
                    self.w.open();
                    self.spend_round();
                }
                if counted {
                    self.counters.push(Some(id.to_string()));
                }
                let r = self.block(body);
                if counted {
                    self.counters.pop();
                }
                self.w.close();
                if innermost || counted {
                    // The fuel ran out: the loop ends here if COND is false.
                    self.w.line("else:");
                    self.w.open();
                    self.w.code_line(format!("if {}:", c.text), fails);
                    self.step_limit_block();
                    self.w.plain("_fuel = 0");
                    self.w.close();
                }
                r
            }
        }
    }

    /// Whether a `while` loop with loops inside may count its rounds with
    /// a range iterator instead of spending each round's unit on lines of
    /// its own: no BREAK ends it early, and nothing in its COND or in its
    /// rounds spends fuel but the loops inside, which take the fuel the
    /// iterator left before they run and set it after. So the rounds cost
    /// Python's `for`, and a loop inside two method calls each time it runs.
    fn counted_while(&self, cond: &Expr, body: &Block) -> bool {
        !breaks(body) && !self.spends(cond) && !self.spends_outside_loops(body)
    }

    /// Whether evaluating `e` may spend fuel (then it may fail with
    /// `step_limit`).
    fn spends(&self, e: &Expr) -> bool {
        self.codes(e).with(Codes::STEP) == self.codes(e)
    }

    /// Whether a step of `b` spends fuel outside the loops in it.
    fn spends_outside_loops(&self, b: &Block) -> bool {
        b.steps.iter().any(|s| match &s.node {
            Node::Loop { .. } => false,
            Node::Seq { block } => self.spends_outside_loops(block),
            Node::If {
                cond,
                then_block,
                else_block,
            } => {
                self.spends(cond)
                    || self.spends_outside_loops(then_block)
                    || self.spends_outside_loops(else_block)
            }
            _ => work::step_spends(s),
        })
    }

    /// A `for` loop over `seq` (a range or an array: `rounds`); `count` is
    /// the function that counts its rounds. The variable of an `each` loop
    /// takes each element once the round's unit is spent, a store the memory
    /// limit checks (lower/memory.rs).
    /// `fails`: evaluating `seq` may fail.
    #[allow(clippy::too_many_arguments)]
    fn for_loop(
        &mut self,
        var: &str,
        seq: Py,
        count: &str,
        fails: bool,
        innermost: bool,
        body: &Block,
        rounds: Rounds,
    ) -> R<()> {
        let each = rounds == Rounds::Each;
        let target = if self.facts.is_read(var) {
            self.var(var)?.text
        } else {
            "_".to_owned()
        };
        if !innermost {
            // A sequence that may fail is made first, under the loop's
            // step, so that the header cannot fail.
            let seq = if fails {
                self.w.line(format!("_seq = {}", seq.text));
                "_seq".to_owned()
            } else {
                seq.text
            };
            self.w.safe_for(format!("for {target} in {seq}:"));
            self.w.open();
            self.spend_round();
            if each {
                self.hold_var(var, &target, None, false)?;
            }
            let r = self.block(body);
            self.w.close();
            return r;
        }
        let (s, fails) = if seq.is_simple() {
            (seq.text, fails)
        } else {
            self.w.code_line(format!("_seq = {}", seq.text), fails);
            ("_seq".to_owned(), false)
        };
        // Counting the rounds of a range or list made cannot fail (a range
        // too long for `len` is counted by `_rounds`), but reading a
        // variable not yet set can (`fails`).
        self.w.code_line(format!("_fuel -= {count}({s})"), fails);
        // `s` is a range or a list already made, and its length was taken on
        // the line above: the header cannot fail.
        let header = format!("for {target} in {s} if _fuel >= 0 else {s}[: {count}({s}) + _fuel]:");
        let r = if rounds == (Rounds::Range { small: true }) {
            // Its first and last values (a range is monotonic) tell whether
            // every value is small; the copy for then knows it.
            let (lo, hi) = Interval::SMALL.ends();
            self.w.plain(format!(
                "if not {s} or {lo} <= {s}[0] <= {hi} and {lo} <= {s}[-1] <= {hi}:"
            ));
            self.w.open();
            self.small.push(var.to_owned());
            let fast = self.for_rounds(&header, var, &target, body, each);
            self.small.pop();
            fast?;
            self.w.close();
            self.w.line("else:");
            self.w.open();
            let checked = self.for_rounds(&header, var, &target, body, each);
            self.w.close();
            checked
        } else {
            self.for_rounds(&header, var, &target, body, each)
        };
        // The rounds the fuel covered ran; one more would have been needed.
        self.step_limit_if("_fuel < 0");
        r
    }

    /// The `for` line `header` of an innermost loop and its body.
    fn for_rounds(
        &mut self,
        header: &str,
        var: &str,
        target: &str,
        body: &Block,
        each: bool,
    ) -> R<()> {
        self.w.safe_for(header);
        self.w.open();
        if each {
            self.hold_var(var, target, None, false)?;
        }
        let r = self.block(body);
        self.w.close();
        r
    }

    fn spend_round(&mut self) {
        self.w.plain("_fuel -= 1");
        self.step_limit_if("_fuel < 0");
    }

    /// `if COND: _step_limit("S1")`, COND one that cannot fail: lines that
    /// name their step themselves, so that the step need not be recorded.
    pub(super) fn step_limit_if(&mut self, cond: &str) {
        self.w.plain(format!("if {cond}:"));
        self.step_limit_block();
    }

    /// The block `_step_limit("S1")`, which names its step itself.
    fn step_limit_block(&mut self) {
        let call = match self.w.step() {
            Some(id) => format!("_step_limit(\"{id}\")"),
            None => "_step_limit()".to_owned(),
        };
        self.w.block(|w| w.plain(call));
    }

    fn ret(&mut self, expr: &Expr) -> R<()> {
        let v = self.expr(expr)?;
        let t = ty(expr)?;
        if pytype::is_mutable(t) {
            self.w.line(format!(
                "return _result({}, {}, _max_size)",
                v.text,
                pytype::descriptor(t)
            ));
        } else {
            // Even one value is more than a size limit of 0 lets a result hold.
            self.w
                .line(format!("return _scalar_result({}, _max_size)", v.text));
        }
        Ok(())
    }
}

/// How an update that appends a value of size `len` (None: no size)
/// changes the live size.
fn grows(len: Option<&String>) -> Delta {
    match len {
        None => Delta::Nothing,
        Some(n) if n == "0" => Delta::Nothing,
        Some(n) if n.chars().all(|c| c.is_ascii_digit()) => Delta::Adds(n.clone()),
        Some(n) => Delta::Changes(n.clone()),
    }
}

/// What a `for` loop walks: a `range` (`small`: in a copy of its body that
/// knows its variable small, when every value is), or an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rounds {
    Range { small: bool },
    Each,
}
