//! Canonical, validated IIR to the interpreter's internal form: variables
//! resolved to slot indices, standard functions to [`Builtin`], constants to
//! values, steps to indices into a table, and assignments of the shape
//! `x = F(x, ...)` (the in-place rule of `isu_lang::update`) marked for
//! updating in place. Nothing is looked up by name while the program runs.

use super::value::{self, Value};
use crate::diag::Code;
use crate::functions::{Callable, Functions, PackFn};
use crate::stdlib::Builtin;
use isu_lang::analysis::vars;
use isu_lang::update::{in_place, Update};
use isu_lang::work;
use isu_lang::RuntimeCode;
use isu_plugin_api::{
    BinaryOp, Block, Expr, ExprNode, Iter, Literal, Node, Place, Program, Span, StepId, StructDef,
    Type, UnaryOp,
};
use std::collections::HashMap;
use std::rc::Rc;

/// A variable's index in the frame: ARGS first, then STATE, then LOCAL, each
/// in declaration order.
pub type Slot = u32;
/// A step's index in [`Compiled::steps`].
pub type StepIx = u32;

/// A compiled program.
#[derive(Debug)]
pub struct Compiled {
    pub vars: Vec<VarInfo>,
    /// How many of the first `vars` are ARGS.
    pub n_args: usize,
    pub state: Vec<StateInit>,
    pub steps: Vec<StepInfo>,
    pub body: Box<[St]>,
    /// The root block, where a run that ends without a RETURN points.
    pub body_span: Span,
    /// The structs of `TYPES`, for reading arguments.
    pub types: Vec<StructDef>,
}

#[derive(Debug)]
pub struct VarInfo {
    pub name: String,
    pub ty: Type,
}

/// A STATE variable's initializer.
#[derive(Debug)]
pub struct StateInit {
    pub slot: Slot,
    pub init: Ex,
    /// The variables the initializer reads, for its diagnostics.
    pub reads: Vec<Slot>,
    pub span: Span,
}

/// What a diagnostic needs to know about a step.
#[derive(Debug)]
pub struct StepInfo {
    pub id: StepId,
    pub span: Span,
    /// The variables the step's own fields read (the root of an ASSIGN's
    /// TARGET first), in order of first appearance.
    pub reads: Vec<Slot>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl Arith {
    /// The operator's name in Isu text, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Arith::Add => "add",
            Arith::Sub => "sub",
            Arith::Mul => "mul",
            Arith::Div => "div",
            Arith::Mod => "mod",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A compiled expression. Spans are kept where the node can fail.
#[derive(Debug)]
pub enum Ex {
    Const(Value),
    Var(Slot, Span),
    Neg(Box<Ex>, Span),
    Not(Box<Ex>),
    Arith(Arith, Box<Ex>, Box<Ex>, Span),
    /// `(neg X)` on a float.
    FloatNeg(Box<Ex>, Span),
    /// `(OP X Y)` on two floats.
    FloatArith(Arith, Box<Ex>, Box<Ex>, Span),
    /// A comparison of two ints.
    CmpInt(Cmp, Box<Ex>, Box<Ex>),
    /// A comparison of two values of any one type (ordering: strings).
    Cmp(Cmp, Box<Ex>, Box<Ex>),
    /// A comparison of two strings, arrays, maps or structs, which spends
    /// the sizes of both (`isu_lang::work::COMPARISON`) at the span.
    CmpSized(Cmp, Box<Ex>, Box<Ex>, Span),
    And(Box<Ex>, Box<Ex>),
    Or(Box<Ex>, Box<Ex>),
    /// `(index BASE I)` on a base whose type is not known statically; the
    /// span is the whole expression's.
    Index(Box<Ex>, Box<Ex>, Span),
    /// `(index BASE I)` on an array.
    IndexArr(Box<Ex>, Box<Ex>, Span),
    /// `(index BASE K)` on a map.
    IndexMap(Box<Ex>, Box<Ex>, Span),
    Call1(Builtin, Box<Ex>, Span),
    // Fused forms of common shapes, made by [`fuse`]: they mean exactly what
    // the forms they replace mean, with fewer nodes to walk.
    /// `(OP (var a) (const k))` on ints: the variable's slot and span, k, the span.
    ArithVK(Arith, Slot, Span, i64, Span),
    /// `(OP (var a) (var b))` on ints.
    ArithVV(Arith, Slot, Span, Slot, Span, Span),
    /// `(OP X (const k))` on ints, X not a variable.
    ArithXK(Arith, Box<Ex>, i64, Span),
    /// `(OP (var a) Y)` on ints, Y neither a variable nor a constant.
    ArithVX(Arith, Slot, Span, Box<Ex>, Span),
    /// An int comparison of a variable and a constant.
    CmpVK(Cmp, Slot, Span, i64),
    /// An int comparison of two variables.
    CmpVV(Cmp, Slot, Span, Slot, Span),
    /// An int comparison of X (not a variable) and a constant.
    CmpXK(Cmp, Box<Ex>, i64),
    /// `(index (var a) I)` on an array.
    IndexArrV(Slot, Span, Box<Ex>, Span),
    /// `(index (var a) (var i))` on an array.
    IndexArrVV(Slot, Span, Slot, Span, Span),
    /// An int comparison of X (not a variable) and a variable.
    CmpXV(Cmp, Box<Ex>, Slot, Span),
    Call2(Builtin, Box<[Ex; 2]>, Span),
    Call3(Builtin, Box<[Ex; 3]>, Span),
    /// An `EXPR` whose string, array or map value an `ASSIGN` copies: it
    /// spends the value's length (`isu_lang::work::assign_copies`).
    Copy(Box<Ex>, Span),
    /// A call of a pack function (`math.GCD`), whose result has type `ret`.
    Pack(Box<PackCall>, Span),
    /// `(struct NAME (f E) ...)`: the fields in declaration order.
    Struct(Box<[(Rc<str>, Ex)]>),
    /// `(field E x)`; the span is the whole expression's.
    Field(Box<Ex>, Rc<str>, Span),
    /// `(index S I)` on a string: the character at I; the span is the
    /// whole expression's.
    IndexStr(Box<Ex>, Box<Ex>, Span),
    /// `(list E ...)`, with the span where the size limit is reported.
    List(Box<[Ex]>, Span),
    /// `(if C A B)`: only the chosen branch is evaluated.
    IfElse(Box<[Ex; 3]>),
}

/// A compiled call of a pack function.
#[derive(Debug)]
pub struct PackCall {
    pub func: PackFn,
    pub args: Box<[Ex]>,
}

/// The kind of value an expression gives, where it matters for speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    Int,
    Bool,
    Other,
}

impl Scalar {
    fn of(ty: Option<&Type>) -> Scalar {
        match ty {
            Some(Type::Int) => Scalar::Int,
            Some(Type::Bool) => Scalar::Bool,
            _ => Scalar::Other,
        }
    }
}

/// `ASSIGN (index x I) EXPR`.
#[derive(Debug)]
pub struct ElemStore {
    pub slot: Slot,
    pub target_span: Span,
    pub index: Ex,
    /// The span of the `(index ...)` place.
    pub index_span: Span,
    pub expr: Ex,
    /// What `expr` gives, so ints and bools are computed unboxed.
    pub kind: Scalar,
}

/// One level of an element TARGET: `(index PLACE EXPR)`, or `(field PLACE
/// x)`, whose key is the constant string of the field's name.
#[derive(Debug)]
pub struct Seg {
    pub index: Ex,
    /// The span of this `(index ...)` or `(field ...)` place.
    pub span: Span,
    /// Whether this level is a struct's field.
    pub field: bool,
}

/// A compiled statement; `step` indexes [`Compiled::steps`].
#[derive(Debug)]
pub enum St {
    Seq {
        step: StepIx,
        body: Box<[St]>,
    },
    /// `TARGET: x`.
    Set {
        step: StepIx,
        slot: Slot,
        expr: Ex,
    },
    /// `TARGET: x` with an int `EXPR`.
    SetInt {
        step: StepIx,
        slot: Slot,
        expr: Ex,
    },
    /// `TARGET: (index x I)`: one level, the common case of [`St::SetIndex`].
    SetElem {
        step: StepIx,
        store: ElemStore,
    },
    /// `TARGET: (index x I)` with x an `int[]` (a `bool[]`) and an int
    /// (a bool) `EXPR`: the element stored without boxing it.
    SetScalar {
        step: StepIx,
        store: ElemStore,
    },
    /// `TARGET: (index ... x ...)`; `path` from the variable outward.
    SetIndex {
        step: StepIx,
        slot: Slot,
        target_span: Span,
        path: Box<[Seg]>,
        expr: Ex,
    },
    /// `TARGET: P`, `EXPR: (call F P rest...)` with F updatable in place.
    Update {
        step: StepIx,
        slot: Slot,
        target_span: Span,
        path: Box<[Seg]>,
        op: Update,
        rest: Box<[Ex]>,
        /// The span of the call, where F's own errors point.
        call_span: Span,
        /// The span of the call's first argument (the place read).
        arg_span: Span,
    },
    If {
        step: StepIx,
        cond: Ex,
        then_block: Box<[St]>,
        else_block: Box<[St]>,
    },
    Range {
        step: StepIx,
        var: Slot,
        start: Ex,
        end: Ex,
        by: Option<Ex>,
        /// The span of the STEP expression (or of the ITER), for `zero_step`.
        by_span: Span,
        body: Box<[St]>,
    },
    Each {
        step: StepIx,
        var: Slot,
        seq: Ex,
        body: Box<[St]>,
    },
    While {
        step: StepIx,
        cond: Ex,
        body: Box<[St]>,
    },
    Return {
        step: StepIx,
        expr: Ex,
    },
    /// `BREAK`.
    Break {
        step: StepIx,
    },
    /// `CONTINUE`.
    Continue {
        step: StepIx,
    },
}

/// Why a program cannot be compiled: it was not canonical or not validated,
/// or it calls a function the interpreter does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    pub code: Code,
    pub message: String,
    pub span: Span,
}

type Res<T> = Result<T, CompileError>;

fn internal<T>(span: Span, message: impl Into<String>) -> Res<T> {
    Err(CompileError {
        code: RuntimeCode::InternalError.into(),
        message: message.into(),
        span,
    })
}

/// Compiles a canonical, validated program whose calls name standard
/// functions or the pack functions of `functions`.
pub fn compile(program: &Program, functions: &Functions) -> Res<Compiled> {
    let mut c = Compiler {
        functions: functions.clone(),
        ..Compiler::default()
    };
    for d in &program.func.args {
        c.declare(&d.name.name, &d.ty, d.span)?;
    }
    for s in &program.state {
        c.declare(&s.name.name, &s.ty, s.span)?;
    }
    for d in &program.locals {
        c.declare(&d.name.name, &d.ty, d.span)?;
    }
    let mut state = Vec::with_capacity(program.state.len());
    for s in &program.state {
        let mut names = Vec::new();
        vars::each_read(&s.init, &mut |n, _| names.push(n));
        let reads = c.slots_of(names);
        state.push(StateInit {
            slot: c.slot(&s.name.name, s.name.span)?,
            init: c.expr(&s.init)?,
            reads,
            span: s.span,
        });
    }
    let body = c.block(&program.body)?;
    Ok(Compiled {
        n_args: program.func.args.len(),
        vars: c.vars,
        state,
        steps: c.steps,
        body,
        body_span: program.body.span,
        types: program.types.clone(),
    })
}

#[derive(Default)]
struct Compiler {
    vars: Vec<VarInfo>,
    slots: HashMap<String, Slot>,
    steps: Vec<StepInfo>,
    functions: Functions,
}

impl Compiler {
    fn declare(&mut self, name: &str, ty: &Type, span: Span) -> Res<()> {
        let slot = self.vars.len() as Slot;
        if self.slots.insert(name.to_owned(), slot).is_some() {
            return internal(span, format!("`{name}` is declared twice"));
        }
        self.vars.push(VarInfo {
            name: name.to_owned(),
            ty: ty.clone(),
        });
        Ok(())
    }

    /// The slots of these variables, each once, in order.
    fn slots_of<'n>(&self, names: impl IntoIterator<Item = &'n str>) -> Vec<Slot> {
        let mut out = Vec::new();
        for name in names {
            if let Some(&s) = self.slots.get(name) {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out
    }

    fn slot(&self, name: &str, span: Span) -> Res<Slot> {
        match self.slots.get(name) {
            Some(&s) => Ok(s),
            None => internal(span, format!("`{name}` is not declared")),
        }
    }

    fn block(&mut self, block: &Block) -> Res<Box<[St]>> {
        block.steps.iter().map(|s| self.step(s)).collect()
    }

    fn step(&mut self, step: &isu_plugin_api::Step) -> Res<St> {
        let Some(id) = step.id.clone() else {
            return internal(step.span, "a step has no ID (the program is not canonical)");
        };
        let ix = self.steps.len() as StepIx;
        // What a diagnostic shows: an ASSIGN's variable, what the step's own
        // fields read, a loop's variable.
        let mut names: Vec<&str> = Vec::new();
        if let Node::Assign { target, .. } = &step.node {
            names.push(target.root().0);
        }
        names.extend(vars::own_reads(step));
        if let Node::Loop { iter, .. } = &step.node {
            names.extend(iter.var().map(|v| v.name.as_str()));
        }
        let reads = self.slots_of(names);
        self.steps.push(StepInfo {
            id,
            span: step.span,
            reads,
        });
        Ok(match &step.node {
            Node::Seq { block } => St::Seq {
                step: ix,
                body: self.block(block)?,
            },
            Node::Assign { target, expr } => self.assign(ix, target, expr)?,
            Node::If {
                cond,
                then_block,
                else_block,
            } => St::If {
                step: ix,
                cond: self.expr(cond)?,
                then_block: self.block(then_block)?,
                else_block: self.block(else_block)?,
            },
            Node::Loop { iter, body } => match iter {
                Iter::Range {
                    var,
                    start,
                    end,
                    step,
                    span,
                } => St::Range {
                    step: ix,
                    var: self.slot(&var.name, var.span)?,
                    start: self.expr(start)?,
                    end: self.expr(end)?,
                    by_span: step.as_ref().map_or(*span, |e| e.span),
                    by: step.as_ref().map(|e| self.expr(e)).transpose()?,
                    body: self.block(body)?,
                },
                Iter::Each { var, seq, .. } => St::Each {
                    step: ix,
                    var: self.slot(&var.name, var.span)?,
                    seq: self.expr(seq)?,
                    body: self.block(body)?,
                },
                Iter::While { cond, .. } => St::While {
                    step: ix,
                    cond: self.expr(cond)?,
                    body: self.block(body)?,
                },
            },
            Node::Return { expr } => St::Return {
                step: ix,
                expr: self.expr(expr)?,
            },
            Node::Break => St::Break { step: ix },
            Node::Continue => St::Continue { step: ix },
        })
    }

    fn assign(&mut self, step: StepIx, target: &Place, expr: &Expr) -> Res<St> {
        let (root, root_span) = target.root();
        let slot = self.slot(root, root_span)?;
        let mut path = Vec::new();
        self.place_path(target, &mut path)?;
        if let Some(up) = in_place(target, expr) {
            return Ok(St::Update {
                step,
                slot,
                target_span: target.span(),
                path: path.into(),
                op: up.op,
                rest: up.rest.iter().map(|e| self.expr(e)).collect::<Res<_>>()?,
                call_span: expr.span,
                arg_span: up.place.span,
            });
        }
        let is_int = expr.ty == Some(Type::Int);
        let kind = Scalar::of(expr.ty.as_ref());
        let copies = work::assign_copies(target, expr);
        let span = expr.span;
        let mut expr = self.expr(expr)?;
        if copies {
            expr = Ex::Copy(Box::new(expr), span);
        }
        Ok(if path.is_empty() && is_int {
            St::SetInt { step, slot, expr }
        } else if path.is_empty() {
            St::Set { step, slot, expr }
        } else if path.len() == 1 && !path.iter().any(|s| s.field) {
            let seg = path.pop().ok_or_else(|| CompileError {
                code: RuntimeCode::InternalError.into(),
                message: "an element target without a level".into(),
                span: target.span(),
            })?;
            let store = ElemStore {
                slot,
                target_span: target.span(),
                index: seg.index,
                index_span: seg.span,
                expr,
                kind,
            };
            if self.scalar_array(slot) == Some(kind) && kind != Scalar::Other {
                St::SetScalar { step, store }
            } else {
                St::SetElem { step, store }
            }
        } else {
            St::SetIndex {
                step,
                slot,
                target_span: target.span(),
                path: path.into(),
                expr,
            }
        })
    }

    /// The element kind of the variable `slot` when it is an array of ints
    /// or of bools.
    fn scalar_array(&self, slot: Slot) -> Option<Scalar> {
        match &self.vars.get(slot as usize)?.ty {
            Type::Array(elem) => Some(Scalar::of(Some(elem))),
            _ => None,
        }
    }

    fn place_path(&mut self, place: &Place, out: &mut Vec<Seg>) -> Res<()> {
        match place {
            Place::Var { .. } => {}
            Place::Index { base, index, span } => {
                self.place_path(base, out)?;
                out.push(Seg {
                    index: self.expr(index)?,
                    span: *span,
                    field: false,
                });
            }
            Place::Field { base, field, span } => {
                self.place_path(base, out)?;
                out.push(Seg {
                    index: Ex::Const(Value::str(&field.name)),
                    span: *span,
                    field: true,
                });
            }
        }
        Ok(())
    }

    fn expr(&mut self, e: &Expr) -> Res<Ex> {
        self.plain_expr(e).map(fuse)
    }

    fn plain_expr(&mut self, e: &Expr) -> Res<Ex> {
        let b = |c: &mut Self, x: &Expr| c.expr(x).map(Box::new);
        Ok(match &e.node {
            ExprNode::Const { value } => Ex::Const(const_value(value, e)?),
            ExprNode::Var { name } => Ex::Var(self.slot(name, e.span)?, e.span),
            ExprNode::Unary { op, arg } => match op {
                UnaryOp::Neg if e.ty == Some(Type::Float) => Ex::FloatNeg(b(self, arg)?, e.span),
                UnaryOp::Neg => Ex::Neg(b(self, arg)?, e.span),
                UnaryOp::Not => Ex::Not(b(self, arg)?),
            },
            ExprNode::Binary { op, lhs, rhs } => {
                let (l, r) = (b(self, lhs)?, b(self, rhs)?);
                let ints = lhs.ty == Some(Type::Int);
                match binary_kind(*op) {
                    BinKind::Arith(Arith::Mod) if e.ty == Some(Type::Float) => {
                        return internal(e.span, "mod of two floats");
                    }
                    BinKind::Arith(a) if e.ty == Some(Type::Float) => {
                        Ex::FloatArith(a, l, r, e.span)
                    }
                    BinKind::Arith(a) => Ex::Arith(a, l, r, e.span),
                    BinKind::Cmp(c) if ints => Ex::CmpInt(c, l, r),
                    BinKind::Cmp(c) if work::comparison_spends(*op, lhs.ty.as_ref()) => {
                        Ex::CmpSized(c, l, r, e.span)
                    }
                    BinKind::Cmp(c) => Ex::Cmp(c, l, r),
                    BinKind::And => Ex::And(l, r),
                    BinKind::Or => Ex::Or(l, r),
                }
            }
            ExprNode::Index { base, index } => {
                let (bx, ix) = (b(self, base)?, b(self, index)?);
                match base.ty {
                    Some(Type::Array(_)) => Ex::IndexArr(bx, ix, e.span),
                    Some(Type::Map(..)) => Ex::IndexMap(bx, ix, e.span),
                    Some(Type::String) => Ex::IndexStr(bx, ix, e.span),
                    _ => Ex::Index(bx, ix, e.span),
                }
            }
            ExprNode::Call { func, args } => {
                let f = match self.functions.resolve(func) {
                    Some(Callable::Std(f)) => f,
                    Some(Callable::Pack(pf)) => {
                        let pf = pf.clone();
                        if args.len() != pf.signature.params.len() {
                            return internal(
                                e.span,
                                format!(
                                    "{func} takes {} arguments, not {}",
                                    pf.signature.params.len(),
                                    args.len()
                                ),
                            );
                        }
                        let args = args.iter().map(|a| self.expr(a)).collect::<Res<_>>()?;
                        return Ok(Ex::Pack(Box::new(PackCall { func: pf, args }), e.span));
                    }
                    None => {
                        return Err(CompileError {
                            code: Code::UnknownFunction,
                            message: format!("the interpreter has no function `{func}`"),
                            span: e.span,
                        })
                    }
                };
                let arity = f.arity();
                if args.len() != arity {
                    return internal(
                        e.span,
                        format!("{func} takes {arity} arguments, not {}", args.len()),
                    );
                }
                let mut xs = args
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<Res<Vec<Ex>>>()?;
                match (xs.pop(), xs.pop(), xs.pop()) {
                    (Some(a), None, None) => Ex::Call1(f.builtin, Box::new(a), e.span),
                    (Some(b2), Some(a), None) => Ex::Call2(f.builtin, Box::new([a, b2]), e.span),
                    (Some(c3), Some(b2), Some(a)) => {
                        Ex::Call3(f.builtin, Box::new([a, b2, c3]), e.span)
                    }
                    _ => return internal(e.span, format!("{func} has no arguments")),
                }
            }
            ExprNode::Struct { fields, .. } => Ex::Struct(
                fields
                    .iter()
                    .map(|f| Ok((Rc::from(f.name.name.as_str()), self.expr(&f.value)?)))
                    .collect::<Res<_>>()?,
            ),
            ExprNode::Field { base, field } => {
                Ex::Field(b(self, base)?, Rc::from(field.name.as_str()), e.span)
            }
            ExprNode::List { items } => Ex::List(
                items.iter().map(|i| self.expr(i)).collect::<Res<_>>()?,
                e.span,
            ),
            ExprNode::If {
                cond,
                then_expr,
                else_expr,
            } => Ex::IfElse(Box::new([
                self.expr(cond)?,
                self.expr(then_expr)?,
                self.expr(else_expr)?,
            ])),
        })
    }
}

/// The fused form of a node whose operands are variables or constants.
fn fuse(e: Ex) -> Ex {
    match e {
        Ex::Arith(op, a, b, span) => match (*a, *b) {
            (Ex::Var(x, xs), Ex::Const(Value::Int(k))) => Ex::ArithVK(op, x, xs, k, span),
            (Ex::Var(x, xs), Ex::Var(y, ys)) => Ex::ArithVV(op, x, xs, y, ys, span),
            (a, Ex::Const(Value::Int(k))) => Ex::ArithXK(op, Box::new(a), k, span),
            (Ex::Var(x, xs), b) => Ex::ArithVX(op, x, xs, Box::new(b), span),
            (a, b) => Ex::Arith(op, Box::new(a), Box::new(b), span),
        },
        Ex::CmpInt(op, a, b) => match (*a, *b) {
            (Ex::Var(x, xs), Ex::Const(Value::Int(k))) => Ex::CmpVK(op, x, xs, k),
            (Ex::Var(x, xs), Ex::Var(y, ys)) => Ex::CmpVV(op, x, xs, y, ys),
            (a, Ex::Const(Value::Int(k))) => Ex::CmpXK(op, Box::new(a), k),
            (a, Ex::Var(y, ys)) => Ex::CmpXV(op, Box::new(a), y, ys),
            (a, b) => Ex::CmpInt(op, Box::new(a), Box::new(b)),
        },
        Ex::IndexArr(base, index, span) => match (*base, *index) {
            (Ex::Var(x, xs), Ex::Var(i, is)) => Ex::IndexArrVV(x, xs, i, is, span),
            (Ex::Var(x, xs), index) => Ex::IndexArrV(x, xs, Box::new(index), span),
            (base, index) => Ex::IndexArr(Box::new(base), Box::new(index), span),
        },
        other => other,
    }
}

enum BinKind {
    Arith(Arith),
    Cmp(Cmp),
    And,
    Or,
}

fn binary_kind(op: BinaryOp) -> BinKind {
    match op {
        BinaryOp::Add => BinKind::Arith(Arith::Add),
        BinaryOp::Sub => BinKind::Arith(Arith::Sub),
        BinaryOp::Mul => BinKind::Arith(Arith::Mul),
        BinaryOp::Div => BinKind::Arith(Arith::Div),
        BinaryOp::Mod => BinKind::Arith(Arith::Mod),
        BinaryOp::Eq => BinKind::Cmp(Cmp::Eq),
        BinaryOp::Ne => BinKind::Cmp(Cmp::Ne),
        BinaryOp::Lt => BinKind::Cmp(Cmp::Lt),
        BinaryOp::Le => BinKind::Cmp(Cmp::Le),
        BinaryOp::Gt => BinKind::Cmp(Cmp::Gt),
        BinaryOp::Ge => BinKind::Cmp(Cmp::Ge),
        BinaryOp::And => BinKind::And,
        BinaryOp::Or => BinKind::Or,
    }
}

/// The value of `(const LIT)`, by the type the validator gave it.
fn const_value(lit: &Literal, e: &Expr) -> Res<Value> {
    let ty = match (&e.ty, lit) {
        (Some(t), _) => t.clone(),
        (None, Literal::Int(_)) => Type::Int,
        (None, Literal::Float(_)) => Type::Float,
        (None, Literal::Bool(_)) => Type::Bool,
        (None, Literal::Str(_)) => Type::String,
        (None, _) => {
            return internal(
                e.span,
                format!("(const {lit}) has no type: the interpreter runs validated programs only"),
            )
        }
    };
    // A constant is never a struct: only `(struct ...)` makes one.
    value::from_literal(lit, &ty, &[]).or_else(|m| {
        internal(
            e.span,
            format!("(const {lit}) is not a {ty}: at {}{}", m.path, m.message),
        )
    })
}
