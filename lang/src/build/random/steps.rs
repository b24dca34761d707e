//! Random statements: every kind (SEQ, ASSIGN to a variable and to an
//! element place, nested or not, IF, LOOP over each ITER form, RETURN early
//! and last), over the variables of a program. Loops mostly end by
//! themselves (a `range` of few rounds, an `each` over a short array, a
//! `while` on a counter); the others end at the step limit, which every
//! executor enforces.

use super::edges;
use super::exprs::{bin, call, field, index, int, sp, var, Gen, Var};
use crate::iir::*;
use crate::types::Type;

/// A step without its ID.
pub(super) fn step(node: Node) -> Step {
    Step {
        id: None,
        desc: None,
        span: sp(),
        node,
    }
}

pub(super) fn block(steps: Vec<Step>) -> Block {
    Block { steps, span: sp() }
}

fn ident(name: &str) -> Ident {
    Ident {
        name: name.into(),
        span: sp(),
    }
}

pub(super) fn place(name: &str) -> Place {
    Place::Var {
        name: name.into(),
        span: sp(),
    }
}

/// The statements of one program: the generator of expressions, the
/// program's result type, the LOCALs made so far (loop variables are made
/// as loops need them), those no step assigns yet, and the loops around
/// the step being made, innermost last (whether a `CONTINUE` may end a
/// round of each, [`super::exits`]).
pub(super) struct Steps<'a> {
    pub gen: Gen<'a>,
    pub returns: Type,
    pub locals: Vec<Var>,
    pub unset: Vec<Var>,
    pub loops: Vec<bool>,
}

impl Steps<'_> {
    /// Marks `name` assigned from here on: expressions may read it.
    fn assigned(&mut self, name: &str) {
        if self.gen.vars.iter().any(|v| v.name == name) {
            return;
        }
        if let Some(v) = self.locals.iter().find(|v| v.name == name) {
            self.gen.vars.push(v.clone());
        }
        self.unset.retain(|v| v.name != name);
    }

    /// A LOCAL of type `ty` for a loop to use: an existing one of the type,
    /// or a new one. It is not yet marked assigned.
    fn loop_var(&mut self, ty: &Type, prefix: &str) -> String {
        let existing: Vec<String> = self
            .locals
            .iter()
            .filter(|v| v.ty == *ty && v.name.starts_with(prefix))
            .map(|v| v.name.clone())
            .collect();
        if !existing.is_empty() && self.gen.rng.chance(50) {
            return self.gen.rng.pick(&existing).clone();
        }
        let name = format!("{prefix}{}", self.locals.len());
        self.locals.push(Var {
            name: name.clone(),
            ty: ty.clone(),
        });
        name
    }

    /// A block of up to `most` steps, nested at most `depth` deep, which may
    /// end with a RETURN.
    pub fn block(&mut self, depth: usize, most: usize) -> Block {
        let n = self.gen.rng.below(most + 1);
        let before = self.gen.vars.clone();
        let mut steps: Vec<Step> = (0..n).map(|_| step(self.node(depth))).collect();
        if self.gen.rng.chance(8) {
            let e = self.gen.expr(&self.returns.clone(), 2);
            steps.push(step(Node::Return { expr: e }));
            // No path from this block goes on: what it assigned is not
            // assigned after it.
            self.gen.vars = before;
        } else if let Some(jump) = self.exit() {
            // Nor from this one, but to its loop's next round or end (what
            // it assigned is left out there too, which only reads less).
            steps.push(step(jump));
            self.gen.vars = before;
        }
        block(steps)
    }

    fn node(&mut self, depth: usize) -> Node {
        let kinds = if depth == 0 { 4 } else { 11 };
        match self.gen.rng.below(kinds) {
            0 | 1 => self.assign(),
            2 => self.update(),
            3 => self.assign_element(),
            4 | 5 => {
                let cond = self.gen.expr(&Type::Bool, 2);
                // What THEN assigns, ELSE may not read; after the IF, some
                // path has assigned what either assigns.
                let before = self.gen.vars.clone();
                let then_block = self.block(depth - 1, 3);
                let after_then = std::mem::replace(&mut self.gen.vars, before);
                let else_block = self.block(depth - 1, 2);
                for v in after_then {
                    self.assigned(&v.name);
                }
                Node::If {
                    cond,
                    then_block,
                    else_block,
                }
            }
            6 => self.range(depth),
            7 => self.each(depth),
            8 => self.while_(depth),
            9 => Node::Seq {
                block: self.block(depth - 1, 3),
            },
            _ => self.shift_down(depth),
        }
    }

    /// `x = EXPR` for a variable `x`, now and then a LOCAL no step has
    /// assigned yet (which a path that misses this step reads unset).
    fn assign(&mut self) -> Node {
        let v = if !self.unset.is_empty() && self.gen.rng.chance(40) {
            self.gen.rng.pick(&self.unset).clone()
        } else {
            self.gen.rng.pick(&self.gen.vars).clone()
        };
        let expr = self.gen.expr(&v.ty, 3);
        self.assigned(&v.name);
        Node::Assign {
            target: place(&v.name),
            expr,
        }
    }

    /// `x = F(x, ...)` where F gives the type of `x`: the in-place updates
    /// (`PUSH`, `POP`, `CONCAT`, `MAP_SET`, ...) and arithmetic on itself.
    fn update(&mut self) -> Node {
        let v = self.gen.rng.pick(&self.gen.vars).clone();
        let e = match self.gen.call(&v.ty, 2) {
            Some(Expr {
                node: ExprNode::Call { func, mut args },
                ..
            }) if !args.is_empty() && self.first_param_is(&func, &v.ty) => {
                args[0] = var(&v.name);
                call(&func, args)
            }
            _ if v.ty == Type::Int => bin(BinaryOp::Add, var(&v.name), self.gen.small_int(1)),
            _ => self.gen.expr(&v.ty, 2),
        };
        Node::Assign {
            target: place(&v.name),
            expr: e,
        }
    }

    /// Whether some overload of the standard function `name` takes a first
    /// argument of type `ty` and gives `ty`.
    fn first_param_is(&self, name: &str, ty: &Type) -> bool {
        crate::stdlib::lookup(name).is_some_and(|f| {
            f.overloads.iter().any(|o| {
                let mut b = crate::stdlib::Bindings::default();
                o.params.first().is_some_and(|p| b.unify(p, ty)) && b.unify(&o.ret, ty)
            })
        })
    }

    /// `x[i] = EXPR` (or `x[i][j] = EXPR`, `x.f = EXPR`, `x[i].f = EXPR`, ...)
    /// for an array, map or struct `x`.
    fn assign_element(&mut self) -> Node {
        let collections: Vec<Var> = self
            .gen
            .vars
            .iter()
            .filter(|v| matches!(v.ty, Type::Array(_) | Type::Map(..) | Type::Struct(_)))
            .cloned()
            .collect();
        if collections.is_empty() {
            return self.assign();
        }
        let v = self.gen.rng.pick(&collections).clone();
        let mut target = place(&v.name);
        let mut ty = v.ty.clone();
        // The container's value where the target is: what an index is drawn for.
        let mut at = var(&v.name);
        loop {
            if let Type::Struct(name) = &ty {
                let fields = self
                    .gen
                    .structs
                    .iter()
                    .find(|d| d.name.name == *name)
                    .map_or(Vec::new(), |d| d.fields.clone());
                let Some(f) = fields.get(self.gen.rng.below(fields.len().max(1))) else {
                    break;
                };
                target = Place::Field {
                    base: Box::new(target),
                    field: f.name.clone(),
                    span: sp(),
                };
                at = field(at, f.name.clone());
                ty = f.ty.clone();
                if !self.gen.rng.chance(30) {
                    break;
                }
                continue;
            }
            let (key, elem) = match &ty {
                Type::Array(e) => (self.gen.index_of(&at, 1), (**e).clone()),
                Type::Map(k, val) => (self.gen.key(&k.clone(), 1), (**val).clone()),
                _ => break,
            };
            at = index(at, key.clone());
            target = Place::Index {
                base: Box::new(target),
                index: key,
                span: sp(),
            };
            ty = elem;
            if !self.gen.rng.chance(30) {
                break;
            }
        }
        Node::Assign {
            target,
            expr: self.gen.expr(&ty, 2),
        }
    }

    /// The body of a loop whose variable is `var`: it reads `var`, and so
    /// does what follows the loop, unless every round ends in a RETURN.
    fn looped(&mut self, var: &str, depth: usize) -> Block {
        let before = self.gen.vars.iter().any(|v| v.name == var);
        self.assigned(var);
        let body = self.in_loop(true, |s| s.block(depth - 1, 3));
        let returns = matches!(
            body.steps.last().map(|s| &s.node),
            Some(Node::Return { .. })
        );
        if returns && !before {
            self.gen.vars.retain(|v| v.name != var);
        }
        body
    }

    /// `LOOP (range i START END [STEP])`.
    fn range(&mut self, depth: usize) -> Node {
        let i = self.loop_var(&Type::Int, "i");
        let arrays: Vec<Var> = self
            .gen
            .vars
            .iter()
            .filter(|v| matches!(v.ty, Type::Array(_)))
            .cloned()
            .collect();
        if !arrays.is_empty() && self.gen.rng.chance(45) {
            // Over the indexes of an array, up or down.
            let a = self.gen.rng.pick(&arrays).clone();
            let len = call("LEN", vec![var(&a.name)]);
            let (start, end, step) = edges::index_range(self.gen.rng, len);
            self.gen.safe.push((i.clone(), a));
            let body = self.looped(&i, depth);
            self.gen.safe.pop();
            return Node::Loop {
                iter: Iter::Range {
                    var: ident(&i),
                    start,
                    end,
                    step,
                    span: sp(),
                },
                body,
            };
        }
        let (start, end, step) = if self.gen.rng.chance(8) {
            edges::range_at_an_end(self.gen.rng)
        } else {
            self.small_range()
        };
        let body = self.looped(&i, depth);
        Node::Loop {
            iter: Iter::Range {
                var: ident(&i),
                start,
                end,
                step,
                span: sp(),
            },
            body,
        }
    }

    /// START, END and STEP of a `range` of few rounds.
    fn small_range(&mut self) -> (Expr, Expr, Option<Expr>) {
        let start = self.gen.small_int(1);
        let end = self.gen.small_int(1);
        let step = match self.gen.rng.below(10) {
            0..=5 => None,
            6..=8 => Some(int(*self.gen.rng.pick(&[1, 2, 3, -1, -2]))),
            _ => Some(self.gen.small_int(1)),
        };
        let (start, end) = match &step {
            // Downwards, most of the time from high to low.
            Some(Expr {
                node: ExprNode::Const { .. },
                ..
            }) if self.gen.rng.chance(50) => (end, start),
            _ => (start, end),
        };
        (start, end, step)
    }

    /// `LOOP (each x ARRAY)` over an array the program uses.
    fn each(&mut self, depth: usize) -> Node {
        let arrays: Vec<Type> = self
            .gen
            .types
            .iter()
            .filter(|t| matches!(t, Type::Array(_)))
            .cloned()
            .collect();
        let ty = if arrays.is_empty() {
            Type::array(Type::Int)
        } else {
            self.gen.rng.pick(&arrays).clone()
        };
        let elem = match &ty {
            Type::Array(e) => (**e).clone(),
            _ => Type::Int,
        };
        let maps: Vec<Var> = self
            .gen
            .vars
            .iter()
            .filter(|v| matches!(v.ty, Type::Map(..)))
            .cloned()
            .collect();
        if !maps.is_empty() && self.gen.rng.chance(35) {
            // Over the keys of a map.
            let m = self.gen.rng.pick(&maps).clone();
            let key = match &m.ty {
                Type::Map(k, _) => (**k).clone(),
                _ => Type::Int,
            };
            let k = self.loop_var(&key, "e");
            let seq = call("MAP_KEYS", vec![var(&m.name)]);
            self.gen.safe.push((k.clone(), m));
            let body = self.looped(&k, depth);
            self.gen.safe.pop();
            return Node::Loop {
                iter: Iter::Each {
                    var: ident(&k),
                    seq,
                    span: sp(),
                },
                body,
            };
        }
        let seq = if self.gen.rng.chance(75) {
            self.gen.leaf(&ty)
        } else {
            self.gen.expr(&ty, 2)
        };
        let x = self.loop_var(&elem, "e");
        let body = self.looped(&x, depth);
        Node::Loop {
            iter: Iter::Each {
                var: ident(&x),
                seq,
                span: sp(),
            },
            body,
        }
    }

    /// `LOOP (while COND)`: mostly on a counter set before it and counted up
    /// in its body, sometimes on any condition (which the step limit ends
    /// when nothing else does).
    fn while_(&mut self, depth: usize) -> Node {
        if self.gen.rng.chance(20) {
            return Node::Loop {
                iter: Iter::While {
                    cond: self.gen.expr(&Type::Bool, 2),
                    span: sp(),
                },
                body: self.in_loop(true, |s| s.block(depth - 1, 3)),
            };
        }
        let w = self.loop_var(&Type::Int, "w");
        self.assigned(&w);
        let bound = int(self.gen.rng.between(0, 5));
        let mut cond = bin(BinaryOp::Lt, var(&w), bound);
        if self.gen.rng.chance(30) {
            cond = bin(BinaryOp::And, cond, self.gen.expr(&Type::Bool, 1));
        }
        let mut body = self.in_loop(true, |s| s.block(depth - 1, 3)).steps;
        let count = step(Node::Assign {
            target: place(&w),
            expr: bin(BinaryOp::Add, var(&w), int(1)),
        });
        // Before any RETURN or BREAK that ends the body; first when a
        // CONTINUE could skip it.
        let at = if super::exits::continues(&body) {
            0
        } else {
            body.iter()
                .position(|s| matches!(s.node, Node::Return { .. } | Node::Break))
                .unwrap_or(body.len())
        };
        body.insert(at, count);
        Node::Seq {
            block: block(vec![
                step(Node::Assign {
                    target: place(&w),
                    expr: int(0),
                }),
                step(Node::Loop {
                    iter: Iter::While { cond, span: sp() },
                    body: block(body),
                }),
            ]),
        }
    }

    /// The inner loop of insertion sort on an int array: `j` from an index
    /// down while the element at `j` is above a bound, each element moved one
    /// up (where the value bounds of the analyses drop checks).
    fn shift_down(&mut self, depth: usize) -> Node {
        let arrays = self.gen.vars_of(&Type::array(Type::Int));
        if arrays.is_empty() {
            return self.range(depth);
        }
        let arr = self.gen.rng.pick(&arrays).clone();
        let j = self.loop_var(&Type::Int, "j");
        self.assigned(&j);
        let start = bin(BinaryOp::Sub, call("LEN", vec![var(&arr)]), int(2));
        let at_j = || index(var(&arr), var(&j));
        let cond = bin(
            BinaryOp::And,
            bin(BinaryOp::Ge, var(&j), int(0)),
            bin(BinaryOp::Gt, at_j(), self.gen.expr(&Type::Int, 1)),
        );
        let elem = |i: Expr| Place::Index {
            base: Box::new(place(&arr)),
            index: i,
            span: sp(),
        };
        let mut body = vec![
            step(Node::Assign {
                target: elem(bin(BinaryOp::Add, var(&j), int(1))),
                expr: at_j(),
            }),
            step(Node::Assign {
                target: place(&j),
                expr: bin(BinaryOp::Sub, var(&j), int(1)),
            }),
        ];
        if self.gen.rng.chance(30) {
            // A CONTINUE there would skip the step down.
            let inner = self.in_loop(false, |s| s.node(depth - 1));
            body.insert(1, step(inner));
        }
        Node::Seq {
            block: block(vec![
                step(Node::Assign {
                    target: place(&j),
                    expr: start,
                }),
                step(Node::Loop {
                    iter: Iter::While { cond, span: sp() },
                    body: block(body),
                }),
            ]),
        }
    }
}
