//! Random expressions of a given type over the variables in scope: constants,
//! variables, int arithmetic at the edges, comparisons and logic, element
//! reads, and calls. Calls are drawn from the table of standard functions by
//! signature (every overload whose result can be the type asked for, its
//! type variables bound to types the program uses) and from the extra
//! functions given (a pack's), so a function added to the table is called
//! without a change here.

use super::rng::Rng;
use super::values;
use super::Function;
use crate::iir::*;
use crate::literal::Literal;
use crate::stdlib::{Bindings, Pat, StdFn, STDLIB};
use crate::types::Type;

pub(super) fn sp() -> Span {
    Span::default()
}

pub(super) fn expr(node: ExprNode) -> Expr {
    Expr::new(node, sp())
}

pub(super) fn int(v: i64) -> Expr {
    constant(Literal::Int(v))
}

pub(super) fn constant(value: Literal) -> Expr {
    expr(ExprNode::Const { value })
}

pub(super) fn var(n: &str) -> Expr {
    expr(ExprNode::Var { name: n.into() })
}

pub(super) fn bin(op: BinaryOp, l: Expr, r: Expr) -> Expr {
    expr(ExprNode::Binary {
        op,
        lhs: Box::new(l),
        rhs: Box::new(r),
    })
}

pub(super) fn call(f: &str, args: Vec<Expr>) -> Expr {
    expr(ExprNode::Call {
        func: f.into(),
        args,
    })
}

pub(super) fn index(base: Expr, i: Expr) -> Expr {
    expr(ExprNode::Index {
        base: Box::new(base),
        index: Box::new(i),
    })
}

pub(super) fn field(base: Expr, name: Ident) -> Expr {
    expr(ExprNode::Field {
        base: Box::new(base),
        field: name,
    })
}

/// A variable and its type.
#[derive(Debug, Clone)]
pub(super) struct Var {
    pub name: String,
    pub ty: Type,
}

/// What expressions are made of: the random source, the variables some path
/// to this point assigns (the only ones a valid program reads), the types
/// the program uses (type variables are bound to these and their parts) and
/// the extra functions.
pub(super) struct Gen<'a> {
    pub rng: &'a mut Rng,
    pub vars: Vec<Var>,
    pub types: Vec<Type>,
    pub functions: &'a [Function],
    /// Indexes that are in range where they are read (mostly): a loop's
    /// variable over the indexes of an array, or over the keys of a map,
    /// with that collection's variable and type.
    pub safe: Vec<(String, Var)>,
    /// The program's structs (`TYPES`).
    pub structs: &'a [StructDef],
}

/// A call's candidate: the function's name, its parameters' patterns and
/// the bindings its result fixed (an extra function's are concrete types).
enum Candidate<'f> {
    Std(&'static StdFn, &'static [Pat], Bindings),
    Extra(&'f Function),
}

impl Gen<'_> {
    /// The variables of type `ty` in scope.
    pub fn vars_of(&self, ty: &Type) -> Vec<String> {
        self.vars
            .iter()
            .filter(|v| &v.ty == ty)
            .map(|v| v.name.clone())
            .collect()
    }

    /// A type the program uses, or a part of one.
    pub fn some_type(&mut self) -> Type {
        let mut all = Vec::new();
        for t in &self.types {
            parts(t, &mut all);
        }
        self.rng.pick(&all).clone()
    }

    /// An expression of type `ty`, nested at most `depth` deep.
    pub fn expr(&mut self, ty: &Type, depth: usize) -> Expr {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        if self.rng.chance(7) {
            return self.form(ty, d);
        }
        for _ in 0..4 {
            let made = match (ty, self.rng.below(10)) {
                (Type::Int, 0..=2) => Some(self.arith(d)),
                (Type::Int | Type::Float, 3) => Some(expr(ExprNode::Unary {
                    op: UnaryOp::Neg,
                    arg: Box::new(self.expr(ty, d)),
                })),
                (Type::Float, 0..=2) => Some(self.float_arith(d)),
                (Type::Bool, 0..=2) => Some(self.compare(d)),
                (Type::Bool, 3) => {
                    let op = *self.rng.pick(&[BinaryOp::And, BinaryOp::Or]);
                    Some(bin(op, self.expr(ty, d), self.expr(ty, d)))
                }
                (Type::Bool, 4) => Some(expr(ExprNode::Unary {
                    op: UnaryOp::Not,
                    arg: Box::new(self.expr(ty, d)),
                })),
                (_, 5) => self.element(ty, d),
                (_, 6) => self.field_read(ty, d),
                (Type::Struct(_), 7 | 8) => Some(self.build(ty, d)),
                _ => self.call(ty, d),
            };
            if let Some(e) = made {
                return e;
            }
        }
        self.leaf(ty)
    }

    /// A variable of type `ty` when there is one (most of the time), else a
    /// constant.
    pub fn leaf(&mut self, ty: &Type) -> Expr {
        let names = self.vars_of(ty);
        if !names.is_empty() && self.rng.chance(70) {
            return var(self.rng.pick::<String>(&names));
        }
        if values::holds_struct(ty) {
            return self.build(ty, 0);
        }
        constant(values::filled(self.rng, ty, 3))
    }

    /// A value of `ty`, which holds a struct, built as no constant can: a
    /// struct literal of its fields in declaration order (each nested at
    /// most `depth` deep: a field that holds a struct is built again, one
    /// struct lower, so building ends), an array of `REPEAT`ed copies, a map
    /// of one entry set into `{}`.
    pub fn build(&mut self, ty: &Type, depth: usize) -> Expr {
        match ty {
            Type::Struct(name) => {
                let fields = self
                    .structs
                    .iter()
                    .find(|d| d.name.name == *name)
                    .map_or(Vec::new(), |d| d.fields.clone());
                let fields = fields
                    .iter()
                    .map(|f| FieldInit {
                        name: f.name.clone(),
                        value: self.expr(&f.ty, depth.saturating_sub(1)),
                    })
                    .collect();
                expr(ExprNode::Struct {
                    name: name.clone(),
                    fields,
                })
            }
            Type::Array(e) => {
                let n = int(self.rng.between(0, 2));
                call("REPEAT", vec![self.leaf(e), n])
            }
            Type::Map(k, v) => {
                let empty = constant(Literal::Object(Default::default()));
                let k = self.key(k, 0);
                call("MAP_SET", vec![empty, k, self.leaf(v)])
            }
            _ => self.leaf(ty),
        }
    }

    /// `(field S f)` of type `ty`, when some struct has a field of it.
    fn field_read(&mut self, ty: &Type, d: usize) -> Option<Expr> {
        let mut found = Vec::new();
        for s in self.structs {
            for f in &s.fields {
                if f.ty == *ty {
                    found.push((Type::Struct(s.name.name.clone()), f.name.clone()));
                }
            }
        }
        if found.is_empty() {
            return None;
        }
        let (sty, name) = self.rng.pick(&found).clone();
        let base = self.leaf_or(&sty, d);
        Some(field(base, name))
    }

    /// A map key of type `ty`: mostly one of the few keys map values hold.
    pub fn key(&mut self, ty: &Type, depth: usize) -> Expr {
        if self.rng.chance(70) {
            constant(values::key(self.rng, ty))
        } else {
            self.expr(ty, depth)
        }
    }

    /// An index into the array `base`: mostly its first or last element.
    pub fn index_of(&mut self, base: &Expr, depth: usize) -> Expr {
        match self.rng.below(12) {
            0..=3 => int(0),
            4..=6 => bin(BinaryOp::Sub, call("LEN", vec![base.clone()]), int(1)),
            7 => super::edges::index(self.rng, base),
            _ => self.small_int(depth),
        }
    }

    /// An int that is usually small: an index, a count, a bound.
    pub fn small_int(&mut self, depth: usize) -> Expr {
        match self.rng.below(10) {
            0..=4 => int(if self.rng.chance(90) {
                self.rng.between(0, 2)
            } else {
                self.rng.between(-1, 5)
            }),
            5 | 6 => {
                let ints = self.vars_of(&Type::Int);
                if ints.is_empty() {
                    int(self.rng.between(0, 3))
                } else {
                    var(self.rng.pick::<String>(&ints))
                }
            }
            7 => {
                let arrays: Vec<String> = self
                    .vars
                    .iter()
                    .filter(|v| matches!(v.ty, Type::Array(_) | Type::String))
                    .map(|v| v.name.clone())
                    .collect();
                if arrays.is_empty() {
                    int(1)
                } else {
                    let len = call("LEN", vec![var(self.rng.pick::<String>(&arrays))]);
                    if self.rng.chance(50) {
                        bin(BinaryOp::Sub, len, int(1))
                    } else {
                        len
                    }
                }
            }
            _ => self.expr(&Type::Int, depth),
        }
    }

    fn arith(&mut self, d: usize) -> Expr {
        let op = *self.rng.pick(&[
            BinaryOp::Add,
            BinaryOp::Sub,
            BinaryOp::Mul,
            BinaryOp::Div,
            BinaryOp::Mod,
        ]);
        let l = self.expr(&Type::Int, d);
        let r = if self.rng.chance(40) {
            int(*self.rng.pick(values::EDGES))
        } else {
            self.expr(&Type::Int, d)
        };
        if self.rng.chance(10) {
            // The square of a value: overflow exactly past 3037000499.
            return bin(BinaryOp::Mul, l.clone(), l);
        }
        bin(op, l, r)
    }

    fn compare(&mut self, d: usize) -> Expr {
        if self.rng.chance(40) {
            let ty = self.some_type();
            let op = *self.rng.pick(&[BinaryOp::Eq, BinaryOp::Ne]);
            return bin(op, self.expr(&ty, d), self.expr(&ty, d));
        }
        let ty = self
            .rng
            .pick(&[Type::Int, Type::Int, Type::Int, Type::Float, Type::String])
            .clone();
        let op = *self
            .rng
            .pick(&[BinaryOp::Lt, BinaryOp::Le, BinaryOp::Gt, BinaryOp::Ge]);
        bin(op, self.expr(&ty, d), self.expr(&ty, d))
    }

    /// An element of an array or a map value of type `ty`, when the program
    /// uses such a collection.
    fn element(&mut self, ty: &Type, d: usize) -> Option<Expr> {
        let safe: Vec<(String, String)> = self
            .safe
            .iter()
            .filter(|(_, c)| match &c.ty {
                Type::Array(e) => **e == *ty,
                Type::Map(_, v) => **v == *ty,
                _ => false,
            })
            .map(|(i, c)| (i.clone(), c.name.clone()))
            .collect();
        if !safe.is_empty() && self.rng.chance(75) {
            let (i, c) = self.rng.pick(&safe).clone();
            return Some(index(var(&c), var(&i)));
        }
        let mut all = Vec::new();
        for t in &self.types {
            parts(t, &mut all);
        }
        let bases: Vec<Type> = all
            .into_iter()
            .filter(|t| match t {
                Type::Array(e) => **e == *ty,
                Type::Map(_, v) => **v == *ty,
                _ => false,
            })
            .collect();
        if bases.is_empty() {
            return None;
        }
        let base_ty = self.rng.pick(&bases).clone();
        let base = self.leaf_or(&base_ty, d);
        let i = match &base_ty {
            Type::Map(k, _) => self.key(k, d),
            _ => self.index_of(&base, d),
        };
        Some(index(base, i))
    }

    /// Mostly a variable of `ty`, sometimes any expression of it.
    fn leaf_or(&mut self, ty: &Type, d: usize) -> Expr {
        if self.rng.chance(70) {
            self.leaf(ty)
        } else {
            self.expr(ty, d)
        }
    }

    /// A call whose result has type `ty`, when some function gives one.
    pub fn call(&mut self, ty: &Type, d: usize) -> Option<Expr> {
        let mut candidates = Vec::new();
        for f in STDLIB {
            for o in f.overloads {
                let mut b = Bindings::default();
                if b.unify(&o.ret, ty) {
                    candidates.push(Candidate::Std(f, o.params, b));
                }
            }
        }
        for f in self.functions {
            if f.ret == *ty {
                candidates.push(Candidate::Extra(f));
            }
        }
        if candidates.is_empty() {
            return None;
        }
        let mut pick = self.rng.below(candidates.len());
        // A function that can fail is picked a quarter as often, so that
        // most runs get past their first calls.
        if let Candidate::Std(f, ..) = &candidates[pick] {
            if !f.errors.is_empty() && self.rng.chance(75) {
                pick = self.rng.below(candidates.len());
            }
        }
        let chosen = candidates.swap_remove(pick);
        Some(match chosen {
            Candidate::Std(f, params, mut b) => {
                let name = f.name;
                let mut args = Vec::new();
                for (i, p) in params.iter().enumerate() {
                    let t = self.bound(p, &mut b);
                    let edge = !f.errors.is_empty() && self.rng.chance(40);
                    let a = if edge && t == Type::String {
                        // At the edge of what a failing function takes.
                        constant(Literal::Str(String::new()))
                    } else if edge && t == Type::Int {
                        int(*self.rng.pick(&[-1, 0, i64::MIN]))
                    } else if *p == Pat::K {
                        self.key(&t, d)
                    } else if t == Type::Int && self.rng.chance(60) {
                        self.small_int(d)
                    } else if i == 0 && self.rng.chance(50) {
                        self.leaf_or(&t, d)
                    } else {
                        self.expr(&t, d)
                    };
                    args.push(a);
                }
                call(name, args)
            }
            Candidate::Extra(f) => {
                let (name, params) = (f.name.clone(), f.params.clone());
                let args = params.iter().map(|t| self.pack_arg(t, d)).collect();
                call(&name, args)
            }
        })
    }

    /// An argument of an extra (pack) function: ints stay small, since a
    /// pack function may work in proportion to its ints without spending
    /// the step budget.
    fn pack_arg(&mut self, ty: &Type, d: usize) -> Expr {
        if *ty != Type::Int {
            return self.expr(ty, d);
        }
        if self.rng.chance(60) {
            return int(self.rng.between(-20, 120));
        }
        bin(BinaryOp::Mod, self.expr(&Type::Int, d), int(97))
    }

    /// The type `p` stands for, binding each of its free type variables to a
    /// type the program uses (a map key to `int` or `string`).
    pub fn bound(&mut self, p: &Pat, b: &mut Bindings) -> Type {
        for v in pat_vars(p) {
            if b.instantiate(&v).is_some() {
                continue;
            }
            let t = match v {
                Pat::K => {
                    if self.rng.chance(50) {
                        Type::Int
                    } else {
                        Type::String
                    }
                }
                _ => self.some_type(),
            };
            b.unify(&v, &t);
        }
        b.instantiate(p).unwrap_or(Type::Int)
    }
}

/// The type variables of a pattern, in order.
fn pat_vars(p: &Pat) -> Vec<Pat> {
    match p {
        Pat::T | Pat::K | Pat::V => vec![*p],
        Pat::Array(e) => pat_vars(e),
        Pat::Map(k, v) => {
            let mut out = pat_vars(k);
            out.extend(pat_vars(v));
            out
        }
        Pat::Int | Pat::Float | Pat::Bool | Pat::Str => Vec::new(),
    }
}

/// `t` and every type inside it, each once.
pub(super) fn parts(t: &Type, out: &mut Vec<Type>) {
    if !out.contains(t) {
        out.push(t.clone());
    }
    match t {
        Type::Array(e) => parts(e, out),
        Type::Map(k, v) => {
            parts(k, out);
            parts(v, out);
        }
        Type::Int | Type::Float | Type::Bool | Type::String | Type::Struct(_) => {}
    }
}
