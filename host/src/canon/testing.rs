//! Small builders of IIR for the unit tests of `canon` and `patch`: terse
//! enough that a test shows the shape of the program it checks. Every span is
//! synthetic unless a test sets one.

use isu_plugin_api::{
    BinaryOp, Block, Decl, Expr, ExprNode, Func, Ident, Io, Iter, Literal, Node, Place, Program,
    Span, Step, StepId, Type, IIR_FORMAT,
};

/// A step with the written ID `id` (`""` for none).
pub fn step(id: &str, node: Node) -> Step {
    Step {
        id: if id.is_empty() {
            None
        } else {
            StepId::parse(id)
        },
        desc: None,
        span: Span::default(),
        node,
    }
}

/// The same step, said to start at `line` (for messages that name the line).
pub fn on_line(mut s: Step, line: u32) -> Step {
    s.span = Span {
        lo: line * 10,
        hi: line * 10 + 5,
        line,
        col: 5,
    };
    s
}

pub fn block(steps: Vec<Step>) -> Block {
    Block {
        steps,
        span: Span::default(),
    }
}

pub fn ident(name: &str) -> Ident {
    Ident {
        name: name.into(),
        span: Span::default(),
    }
}

pub fn int(i: i64) -> Expr {
    Expr::new(
        ExprNode::Const {
            value: Literal::Int(i),
        },
        Span::default(),
    )
}

pub fn var(name: &str) -> Expr {
    Expr::new(ExprNode::Var { name: name.into() }, Span::default())
}

pub fn binary(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    Expr::new(
        ExprNode::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        Span::default(),
    )
}

pub fn assign(target: &str, expr: Expr) -> Node {
    Node::Assign {
        target: Place::Var {
            name: target.into(),
            span: Span::default(),
        },
        expr,
    }
}

pub fn ret(expr: Expr) -> Node {
    Node::Return { expr }
}

pub fn if_(cond: Expr, then_steps: Vec<Step>, else_steps: Vec<Step>) -> Node {
    Node::If {
        cond,
        then_block: block(then_steps),
        else_block: block(else_steps),
    }
}

pub fn each(var: &str, seq: Expr, body: Vec<Step>) -> Node {
    Node::Loop {
        iter: Iter::Each {
            var: ident(var),
            seq,
            span: Span::default(),
        },
        body: block(body),
    }
}

pub fn seq(steps: Vec<Step>) -> Node {
    Node::Seq {
        block: block(steps),
    }
}

pub fn decl(name: &str, ty: Type) -> Decl {
    Decl {
        name: ident(name),
        ty,
        span: Span::default(),
    }
}

/// `FUNC f` returning int with one int argument `n` and one int local `x`,
/// no IO and no STATE, with these root steps.
pub fn program(auto_id: bool, steps: Vec<Step>) -> Program {
    Program {
        types: Vec::new(),
        format: IIR_FORMAT.into(),
        auto_id,
        func: Func {
            name: ident("f"),
            args: vec![decl("n", Type::Int)],
            returns: Type::Int,
            span: Span::default(),
        },
        io: Io {
            input: Vec::new(),
            output: Vec::new(),
            span: Span::default(),
        },
        state: Vec::new(),
        locals: vec![decl("x", Type::Int)],
        body: block(steps),
    }
}

/// The IDs of every step in structural order.
pub fn ids(program: &Program) -> Vec<String> {
    program
        .steps()
        .iter()
        .map(|s| s.id.as_ref().map_or_else(String::new, |id| id.to_string()))
        .collect()
}
