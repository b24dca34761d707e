//! Statements: SEQ, ASSIGN, IF, LOOP (range, each, while) and RETURN, with
//! the fuel they spend and the code range each step covers.

use super::{bug, ty_of, Lowering, Own, Res, StepRange};
use crate::abi::ErrorCode;
use crate::layout::{elem, is_heap, DATA, LEN};
use crate::module::Rt;
use crate::runtime::{self, load32, load_val};
use isu_plugin_api::{Block, Expr, ExprNode, Iter, Node, Place, Step};
use std::collections::BTreeSet;
use wasm_encoder::{BlockType, ValType};

/// The standard functions an ASSIGN applies in place when their first
/// argument is the assignment's own target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Update {
    Push,
    Pop,
    MapSet,
    Concat,
}

/// `TARGET: P`, `EXPR: (call F P rest...)` with F updatable in place: the
/// function and the rest of its arguments.
pub fn update_of<'e>(target: &Place, expr: &'e Expr) -> Option<(Update, &'e Expr, &'e [Expr])> {
    let ExprNode::Call { func, args } = &expr.node else {
        return None;
    };
    let op = match func.as_str() {
        "PUSH" => Update::Push,
        "POP" => Update::Pop,
        "MAP_SET" => Update::MapSet,
        "CONCAT" => Update::Concat,
        _ => return None,
    };
    let (first, rest) = args.split_first()?;
    place_is_expr(target, first).then_some((op, first, rest))
}

fn place_is_expr(p: &Place, e: &Expr) -> bool {
    match (p, &e.node) {
        (Place::Var { name, .. }, ExprNode::Var { name: n }) => name == n,
        (Place::Index { base, index, .. }, ExprNode::Index { base: b, index: i }) => {
            place_is_expr(base, b) && same_expr(index, i)
        }
        _ => false,
    }
}

/// Structural equality of expressions, spans and types aside.
pub fn same_expr(a: &Expr, b: &Expr) -> bool {
    use ExprNode as N;
    match (&a.node, &b.node) {
        (N::Const { value: x }, N::Const { value: y }) => x == y && a.ty == b.ty,
        (N::Var { name: x }, N::Var { name: y }) => x == y,
        (N::Unary { op: o1, arg: x }, N::Unary { op: o2, arg: y }) => o1 == o2 && same_expr(x, y),
        (
            N::Binary {
                op: o1,
                lhs: l1,
                rhs: r1,
            },
            N::Binary {
                op: o2,
                lhs: l2,
                rhs: r2,
            },
        ) => o1 == o2 && same_expr(l1, l2) && same_expr(r1, r2),
        (
            N::Index {
                base: b1,
                index: i1,
            },
            N::Index {
                base: b2,
                index: i2,
            },
        ) => same_expr(b1, b2) && same_expr(i1, i2),
        (N::Call { func: f1, args: a1 }, N::Call { func: f2, args: a2 }) => {
            f1 == f2 && a1.len() == a2.len() && a1.iter().zip(a2).all(|(x, y)| same_expr(x, y))
        }
        _ => false,
    }
}

impl Lowering<'_> {
    /// Lowers a block; true when it surely ends in a RETURN.
    pub fn block(&mut self, b: &Block) -> Res<bool> {
        let mut diverges = false;
        for s in &b.steps {
            // Steps after a RETURN still get their numbers (and dead code).
            diverges |= self.step(s)?;
        }
        Ok(diverges)
    }

    fn step(&mut self, s: &Step) -> Res<bool> {
        let ix = self.next_step;
        self.next_step += 1;
        let step = ix as i32;
        let start = self.a.offset();
        if self.fuel_model.per_step {
            self.spend(step);
        }
        let diverges = match &s.node {
            Node::Seq { block } => self.block(block)?,
            Node::Assign { target, expr } => {
                self.assign(target, expr, step)?;
                false
            }
            Node::If {
                cond,
                then_block,
                else_block,
            } => self.if_(cond, then_block, else_block, step)?,
            Node::Loop { iter, body } => {
                self.loop_(iter, body, step)?;
                false
            }
            Node::Return { expr } => {
                let ty = ty_of(expr)?.clone();
                if ty != self.ret_ty {
                    return bug(format!(
                        "RETURN of {ty} from a function returning {}",
                        self.ret_ty
                    ));
                }
                self.expr(expr, step)?;
                let enc = self.mb.rt(Rt::Encode(ty));
                self.a.i32(step).i().call(enc).return_();
                true
            }
        };
        self.ranges.push(StepRange {
            start,
            end: self.a.offset(),
            step: ix,
        });
        Ok(diverges)
    }

    fn assign(&mut self, target: &Place, expr: &Expr, step: i32) -> Res<()> {
        match target {
            Place::Var { name, .. } => {
                if let Some((op, _, rest)) = update_of(target, expr) {
                    let var = self.var(name)?.clone();
                    // The variable's reference moves into the call.
                    self.read_var(name, step)?;
                    self.apply_update(op, &var.ty, rest, step)?;
                    self.a.set(var.local);
                } else {
                    let var = self.var(name)?.clone();
                    let own = self.expr(expr, step)?;
                    self.own(own, &var.ty);
                    if is_heap(&var.ty) {
                        self.a.get(var.local);
                        runtime::emit_drop(self.mb, &mut self.a, &var.ty);
                    }
                    self.a.set(var.local);
                }
                self.mark_assigned(name)?;
                Ok(())
            }
            Place::Index { .. } => self.assign_index(target, expr, step),
        }
    }

    pub fn mark_assigned(&mut self, name: &str) -> Res<()> {
        let var = self.var(name)?.clone();
        if let Some(flag) = var.flag {
            self.a.i32(1).set(flag);
        }
        if var.is_local {
            self.assigned.insert(name.to_owned());
        }
        Ok(())
    }

    /// With the collection of type `ty` (owned) on the stack, evaluates the
    /// rest of the arguments of `op` and calls it; the new collection is left
    /// on the stack.
    pub fn apply_update(
        &mut self,
        op: Update,
        ty: &crate::Type,
        rest: &[Expr],
        step: i32,
    ) -> Res<()> {
        match (op, rest) {
            (Update::Push, [v]) => {
                let own = self.expr(v, step)?;
                self.own(own, elem(ty));
                let f = self.mb.rt(Rt::Push(ty.clone()));
                self.a.i32(step).i().call(f);
            }
            (Update::Pop, []) => {
                let f = self.mb.rt(Rt::Pop(ty.clone()));
                self.a.i32(step).i().call(f);
            }
            (Update::MapSet, [k, v]) => {
                let (kt, vt) = crate::layout::key_value(ty);
                let (kt, vt) = (kt.clone(), vt.clone());
                let own = self.expr(k, step)?;
                self.own(own, &kt);
                let own = self.expr(v, step)?;
                self.own(own, &vt);
                let f = self.mb.rt(Rt::MapSet(ty.clone()));
                self.a.i32(step).i().call(f);
            }
            (Update::Concat, [b]) => {
                let own = self.expr(b, step)?;
                let held = self.hold(own, ty);
                let f = match ty {
                    crate::Type::String => self.mb.rt(Rt::ConcatStr),
                    _ => self.mb.rt(Rt::ConcatArr(ty.clone())),
                };
                self.a.i32(step).i().call(f);
                self.release_held(vec![held]);
            }
            _ => return bug(format!("{op:?} with {} more arguments", rest.len())),
        }
        Ok(())
    }

    fn if_(&mut self, cond: &Expr, then_b: &Block, else_b: &Block, step: i32) -> Res<bool> {
        self.expr(cond, step)?;
        let before = self.assigned.clone();
        self.a.if_(BlockType::Empty);
        let then_div = self.block(then_b)?;
        let after_then = std::mem::replace(&mut self.assigned, before);
        self.a.else_();
        let else_div = self.block(else_b)?;
        self.a.end();
        let after_else = std::mem::take(&mut self.assigned);
        self.assigned = match (then_div, else_div) {
            (true, false) => after_else,
            (false, true) => after_then,
            _ => after_then.intersection(&after_else).cloned().collect(),
        };
        Ok(then_div && else_div)
    }

    /// The body of a loop: what it assigns does not count after the loop,
    /// which may run no round.
    fn loop_body(&mut self, body: &Block, var: Option<&str>) -> Res<()> {
        let before: BTreeSet<String> = self.assigned.clone();
        if let Some(v) = var {
            self.mark_assigned(v)?;
        }
        self.block(body)?;
        self.assigned = before;
        Ok(())
    }

    fn loop_(&mut self, iter: &Iter, body: &Block, step: i32) -> Res<()> {
        match iter {
            Iter::Range {
                var,
                start,
                end,
                step: by,
                ..
            } => self.range(&var.name, start, end, by.as_ref(), body, step),
            Iter::Each { var, seq, .. } => self.each(&var.name, seq, body, step),
            Iter::While { cond, .. } => {
                let exit = self.a.block(BlockType::Empty);
                let top = self.a.loop_(BlockType::Empty);
                self.expr(cond, step)?;
                self.a.i().i32_eqz();
                self.a.br_if(exit);
                self.spend(step);
                self.loop_body(body, None)?;
                self.a.br(top);
                self.a.end();
                self.a.end();
                Ok(())
            }
        }
    }

    fn range(
        &mut self,
        var: &str,
        start: &Expr,
        end: &Expr,
        by: Option<&Expr>,
        body: &Block,
        step: i32,
    ) -> Res<()> {
        let v = self.var(var)?.clone();
        let cur = self.a.local(ValType::I64);
        let last = self.a.local(ValType::I64);
        self.expr(start, step)?;
        self.a.set(cur);
        self.expr(end, step)?;
        self.a.set(last);
        let by_const = match by {
            None => Some(1),
            Some(Expr {
                node:
                    ExprNode::Const {
                        value: isu_plugin_api::Literal::Int(k),
                    },
                ..
            }) => Some(*k),
            Some(_) => None,
        };
        let by_local = self.a.local(ValType::I64);
        match (by, by_const) {
            (_, Some(0)) => {
                runtime::raise(
                    self.mb,
                    &mut self.a,
                    ErrorCode::ZeroStep,
                    runtime::StepArg::Const(step),
                );
            }
            (Some(e), None) => {
                self.expr(e, step)?;
                self.a.tee(by_local).i().i64_eqz();
                self.raise_if(ErrorCode::ZeroStep, step);
            }
            _ => {}
        }
        let exit = self.a.block(BlockType::Empty);
        let top = self.a.loop_(BlockType::Empty);
        // Still in range?
        match by_const {
            Some(k) if k > 0 => {
                self.a.get(cur).get(last).i().i64_ge_s();
            }
            Some(_) => {
                self.a.get(cur).get(last).i().i64_le_s();
            }
            None => {
                self.a.get(cur).get(last).i().i64_ge_s();
                self.a.get(cur).get(last).i().i64_le_s();
                self.a.get(by_local).i64(0).i().i64_gt_s().select();
            }
        }
        self.a.br_if(exit);
        self.spend(step);
        self.a.get(cur).set(v.local);
        self.loop_body(body, Some(var))?;
        // Next, unless it would leave the 64-bit range (then the range is done).
        match by_const {
            Some(1) => {
                self.a.get(cur).i64(1).i().i64_add();
                self.a.set(cur);
            }
            Some(k) if k > 0 => {
                self.a.get(cur).i64(i64::MAX - k).i().i64_gt_s();
                self.a.br_if(exit);
                self.a.get(cur).i64(k).i().i64_add();
                self.a.set(cur);
            }
            Some(k) => {
                self.a.get(cur).i64(i64::MIN - k).i().i64_lt_s();
                self.a.br_if(exit);
                self.a.get(cur).i64(k).i().i64_add();
                self.a.set(cur);
            }
            None => {
                let next = self.a.temp(ValType::I64);
                self.a.get(cur).get(by_local).i().i64_add();
                self.a.set(next);
                // Overflow: the sign of the sum differs from both operands'.
                self.a.get(cur).get(next).i().i64_xor();
                self.a
                    .get(by_local)
                    .get(next)
                    .i()
                    .i64_xor()
                    .i64_and()
                    .i64_const(0)
                    .i64_lt_s();
                self.a.br_if(exit);
                self.a.get(next).set(cur);
                self.a.release(next);
            }
        }
        self.a.br(top);
        self.a.end();
        self.a.end();
        Ok(())
    }

    fn each(&mut self, var: &str, seq: &Expr, body: &Block, step: i32) -> Res<()> {
        let v = self.var(var)?.clone();
        let seq_ty = ty_of(seq)?.clone();
        let ety = elem(&seq_ty).clone();
        let xs = self.a.local(ValType::I32);
        let n = self.a.local(ValType::I32);
        let i = self.a.local(ValType::I32);
        // The loop holds the array, so changes to its variable in the body
        // (copied on write) do not change what it walks.
        let own = self.expr(seq, step)?;
        self.own(own, &seq_ty);
        self.a.tee(xs);
        load32(&mut self.a, LEN);
        self.a.set(n);
        self.a.i32(0).set(i);
        let exit = self.a.block(BlockType::Empty);
        let top = self.a.loop_(BlockType::Empty);
        self.a.get(i).get(n).i().i32_ge_u();
        self.a.br_if(exit);
        self.spend(step);
        runtime::elem_addr(&mut self.a, xs, i, crate::layout::slot_shift(&ety));
        load_val(&mut self.a, &ety, DATA);
        if is_heap(&ety) {
            runtime::emit_inc(self.mb, &mut self.a, &ety);
            self.a.get(v.local);
            runtime::emit_drop(self.mb, &mut self.a, &ety);
        }
        self.a.set(v.local);
        self.loop_body(body, Some(var))?;
        self.a.get(i).i32(1).i().i32_add();
        self.a.set(i);
        self.a.br(top);
        self.a.end();
        self.a.end();
        self.a.get(xs);
        runtime::emit_drop(self.mb, &mut self.a, &seq_ty);
        let _ = Own::Owned;
        Ok(())
    }
}
