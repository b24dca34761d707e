//! Typed IIR built by hand, for tests of the analyses and of backends: what
//! the front end would make of a program, without the front end. Spans are
//! synthetic; the caller gives every step its canonical ID and every
//! variable and call its type.

mod random;

pub use random::{Function, RandomPrograms, LIMITS};

use crate::iir::*;
use crate::literal::Literal;
use crate::types::Type;

fn sp() -> Span {
    Span::default()
}

fn ident(name: &str) -> Ident {
    Ident {
        name: name.into(),
        span: sp(),
    }
}

fn typed(node: ExprNode, ty: Type) -> Expr {
    Expr {
        span: sp(),
        ty: Some(ty),
        node,
    }
}

/// `(const VALUE)` of type `ty`.
pub fn lit(value: Literal, ty: Type) -> Expr {
    typed(ExprNode::Const { value }, ty)
}

/// An int constant.
pub fn int(v: i64) -> Expr {
    lit(Literal::Int(v), Type::Int)
}

/// A float constant.
pub fn float(x: f64) -> Expr {
    lit(Literal::Float(x), Type::Float)
}

/// A bool constant.
pub fn boolean(b: bool) -> Expr {
    lit(Literal::Bool(b), Type::Bool)
}

/// A string constant.
pub fn string(s: &str) -> Expr {
    lit(Literal::Str(s.into()), Type::String)
}

/// `(var NAME)` of type `ty`.
pub fn var(name: &str, ty: Type) -> Expr {
    typed(ExprNode::Var { name: name.into() }, ty)
}

/// `(OP l r)`, typed as the operator gives: arithmetic of two floats is a
/// float, of two ints an int; a comparison is a bool.
pub fn bin(op: BinaryOp, l: Expr, r: Expr) -> Expr {
    let ty = match op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
            numeric(&l)
        }
        _ => Type::Bool,
    };
    typed(
        ExprNode::Binary {
            op,
            lhs: Box::new(l),
            rhs: Box::new(r),
        },
        ty,
    )
}

/// `(neg a)`, of `a`'s type (int or float).
pub fn neg(a: Expr) -> Expr {
    let ty = numeric(&a);
    typed(
        ExprNode::Unary {
            op: UnaryOp::Neg,
            arg: Box::new(a),
        },
        ty,
    )
}

/// The type of arithmetic on `operand`: float on a float, else int.
fn numeric(operand: &Expr) -> Type {
    match operand.ty {
        Some(Type::Float) => Type::Float,
        _ => Type::Int,
    }
}

/// `(not a)`.
pub fn not(a: Expr) -> Expr {
    typed(
        ExprNode::Unary {
            op: UnaryOp::Not,
            arg: Box::new(a),
        },
        Type::Bool,
    )
}

/// `(index base i)`, typed as the element or value of `base`.
pub fn idx(base: Expr, i: Expr) -> Expr {
    let ty = match base.ty.as_ref() {
        Some(Type::Array(e)) => (**e).clone(),
        Some(Type::Map(_, v)) => (**v).clone(),
        _ => Type::Int,
    };
    typed(
        ExprNode::Index {
            base: Box::new(base),
            index: Box::new(i),
        },
        ty,
    )
}

/// `(call F args...)` returning `ty`.
pub fn call(f: &str, args: Vec<Expr>, ty: Type) -> Expr {
    typed(
        ExprNode::Call {
            func: f.into(),
            args,
        },
        ty,
    )
}

/// The place `NAME`.
pub fn pvar(name: &str) -> Place {
    Place::Var {
        name: name.into(),
        span: sp(),
    }
}

/// The place `(index base i)`.
pub fn pidx(base: Place, i: Expr) -> Place {
    Place::Index {
        base: Box::new(base),
        index: i,
        span: sp(),
    }
}

fn step(id: &str, node: Node) -> Step {
    Step {
        id: StepId::parse(id),
        desc: None,
        span: sp(),
        node,
    }
}

fn block(steps: Vec<Step>) -> Block {
    Block { steps, span: sp() }
}

/// `ASSIGN` of `expr` to `target`.
pub fn assign(id: &str, target: Place, expr: Expr) -> Step {
    step(id, Node::Assign { target, expr })
}

/// `ASSIGN` of `expr` to the variable `name`.
pub fn set(id: &str, name: &str, expr: Expr) -> Step {
    assign(id, pvar(name), expr)
}

/// A `SEQ` of `steps`.
pub fn seq(id: &str, steps: Vec<Step>) -> Step {
    step(
        id,
        Node::Seq {
            block: block(steps),
        },
    )
}

/// `IF cond THEN then ELSE els`.
pub fn if_(id: &str, cond: Expr, then: Vec<Step>, els: Vec<Step>) -> Step {
    step(
        id,
        Node::If {
            cond,
            then_block: block(then),
            else_block: block(els),
        },
    )
}

/// `LOOP (range v a b [by])`.
pub fn range(id: &str, v: &str, a: Expr, b: Expr, by: Option<Expr>, body: Vec<Step>) -> Step {
    step(
        id,
        Node::Loop {
            iter: Iter::Range {
                var: ident(v),
                start: a,
                end: b,
                step: by,
                span: sp(),
            },
            body: block(body),
        },
    )
}

/// `LOOP (each v seq)`.
pub fn each(id: &str, v: &str, seq: Expr, body: Vec<Step>) -> Step {
    step(
        id,
        Node::Loop {
            iter: Iter::Each {
                var: ident(v),
                seq,
                span: sp(),
            },
            body: block(body),
        },
    )
}

/// `LOOP (while cond)`.
pub fn while_(id: &str, cond: Expr, body: Vec<Step>) -> Step {
    step(
        id,
        Node::Loop {
            iter: Iter::While { cond, span: sp() },
            body: block(body),
        },
    )
}

/// `RETURN expr`.
pub fn ret(id: &str, expr: Expr) -> Step {
    step(id, Node::Return { expr })
}

/// `BREAK`.
pub fn brk(id: &str) -> Step {
    step(id, Node::Break)
}

/// `CONTINUE`.
pub fn cont(id: &str) -> Step {
    step(id, Node::Continue)
}

fn decl(name: &str, ty: &Type) -> Decl {
    Decl {
        name: ident(name),
        ty: ty.clone(),
        span: sp(),
    }
}

/// A struct declaration of `TYPES`: its name and its fields in order.
pub fn struct_def(name: &str, fields: &[(&str, Type)]) -> StructDef {
    StructDef {
        name: ident(name),
        fields: fields.iter().map(|(n, t)| decl(n, t)).collect(),
        span: sp(),
    }
}

/// A program: its name, ARGS, RETURNS, STATE, LOCAL and steps.
pub fn program(
    name: &str,
    args: &[(&str, Type)],
    returns: Type,
    state: Vec<(&str, Type, Expr)>,
    locals: &[(&str, Type)],
    body: Vec<Step>,
) -> Program {
    Program {
        types: Vec::new(),
        format: IIR_FORMAT.into(),
        auto_id: false,
        func: Func {
            name: ident(name),
            args: args.iter().map(|(n, t)| decl(n, t)).collect(),
            returns,
            span: sp(),
        },
        io: Io {
            input: Vec::new(),
            output: Vec::new(),
            span: sp(),
        },
        state: state
            .into_iter()
            .map(|(n, ty, init)| StateVar {
                name: ident(n),
                ty,
                init,
                span: sp(),
            })
            .collect(),
        locals: locals.iter().map(|(n, t)| decl(n, t)).collect(),
        body: block(body),
    }
}
