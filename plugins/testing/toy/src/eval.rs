//! Walks a program's IIR over ints and bools, with Isu's runtime errors: each
//! names the step the reference interpreter names.

use isu_plugin_api::{
    args, BackendCode, BinaryOp, Block, ExecLimits, Expr, ExprNode, Iter, Literal, Node, Place,
    PluginDiagnostic, Program, Step, UnaryOp,
};
use std::collections::BTreeMap;

/// The features of the vocabulary (`isu_plugin_api::feature_set`) this
/// evaluator supports, and with it the toy backend: ints and bools, `ABS`,
/// `MIN` and `MAX`, and the step limit. A feature not listed is
/// unsupported, those the language gains later too.
pub const SUPPORTS: &[&str] = &[
    "bool",
    "call:ABS",
    "call:MAX",
    "call:MIN",
    "int",
    "limit_steps",
];

type Res<T> = Result<T, PluginDiagnostic>;

/// A runtime error without its step (the statement that evaluated the
/// expression adds it), or with a backend code a failure of the backend.
struct Fail {
    code: &'static str,
    message: String,
}

fn fail<T>(code: &'static str, message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail {
        code,
        message: message.into(),
    })
}

fn unsupported(what: &str) -> Fail {
    Fail {
        code: BackendCode::UnsupportedFeature.as_str(),
        message: format!("the toy backend does not support {what}"),
    }
}

struct Machine {
    vars: BTreeMap<String, Option<Literal>>,
    fuel: u64,
}

enum Flow {
    Next,
    Return(Literal),
}

/// Runs `program` on `args` (a JSON object of its ARGS).
pub fn run(program: &Program, args: &Literal, limits: &ExecLimits) -> Res<Literal> {
    let mut m = Machine {
        vars: BTreeMap::new(),
        fuel: limits.max_steps,
    };
    // Every argument, of its type, and no other (else `invalid_argument`).
    let values = args::check_args(program, args)?;
    for (d, v) in program.func.args.iter().zip(values) {
        m.vars.insert(d.name.name.clone(), Some(v.clone()));
    }
    for s in &program.state {
        let v = m.eval(&s.init).map_err(|f| {
            runtime(
                f.code,
                None,
                format!("in STATE {}: {}", s.name.name, f.message),
            )
        })?;
        m.vars.insert(s.name.name.clone(), Some(v));
    }
    for d in &program.locals {
        m.vars.insert(d.name.name.clone(), None);
    }
    match m.block(&program.body)? {
        Flow::Return(v) => Ok(v),
        Flow::Next => Err(runtime(
            "no_return",
            None,
            "the steps ended without a RETURN",
        )),
    }
}

fn runtime(code: &str, step: Option<&Step>, message: impl Into<String>) -> PluginDiagnostic {
    if let Some(code) = BackendCode::parse(code) {
        return PluginDiagnostic::backend(code, message);
    }
    let id = step.and_then(|s| s.id.as_ref()).map(|id| id.to_string());
    PluginDiagnostic::runtime(code, id.as_deref(), message)
}

impl Machine {
    fn block(&mut self, block: &Block) -> Res<Flow> {
        for step in &block.steps {
            if let Flow::Return(v) = self.step(step)? {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Next)
    }

    fn step(&mut self, step: &Step) -> Res<Flow> {
        let at = |f: Fail| runtime(f.code, Some(step), f.message);
        match &step.node {
            Node::Seq { block } => self.block(block),
            Node::Assign { target, expr } => {
                let Place::Var { name, .. } = target else {
                    return Err(at(unsupported("element targets")));
                };
                let v = self.eval(expr).map_err(at)?;
                self.vars.insert(name.clone(), Some(v));
                Ok(Flow::Next)
            }
            Node::If {
                cond,
                then_block,
                else_block,
            } => {
                let c = self.bool(cond).map_err(at)?;
                self.block(if c { then_block } else { else_block })
            }
            Node::Loop { iter, body } => self.run_loop(step, iter, body),
            Node::Return { expr } => Ok(Flow::Return(self.eval(expr).map_err(at)?)),
            Node::Break | Node::Continue => Err(at(unsupported("BREAK and CONTINUE"))),
        }
    }

    fn spend(&mut self, step: &Step) -> Res<()> {
        if self.fuel == 0 {
            return Err(runtime(
                "step_limit",
                Some(step),
                "the run used up its step budget",
            ));
        }
        self.fuel -= 1;
        Ok(())
    }

    fn run_loop(&mut self, step: &Step, iter: &Iter, body: &Block) -> Res<Flow> {
        let at = |f: Fail| runtime(f.code, Some(step), f.message);
        match iter {
            Iter::Range {
                var,
                start,
                end,
                step: by,
                ..
            } => {
                let mut i = self.int(start).map_err(at)?;
                let end = self.int(end).map_err(at)?;
                let by = match by {
                    Some(e) => self.int(e).map_err(at)?,
                    None => 1,
                };
                if by == 0 {
                    return Err(runtime("zero_step", Some(step), "a range with the step 0"));
                }
                while if by > 0 { i < end } else { i > end } {
                    self.spend(step)?;
                    self.vars.insert(var.name.clone(), Some(Literal::Int(i)));
                    if let Flow::Return(v) = self.block(body)? {
                        return Ok(Flow::Return(v));
                    }
                    match i.checked_add(by) {
                        Some(next) => i = next,
                        None => break,
                    }
                }
                Ok(Flow::Next)
            }
            Iter::While { cond, .. } => {
                while self.bool(cond).map_err(at)? {
                    self.spend(step)?;
                    if let Flow::Return(v) = self.block(body)? {
                        return Ok(Flow::Return(v));
                    }
                }
                Ok(Flow::Next)
            }
            Iter::Each { .. } => Err(at(unsupported("each loops (arrays)"))),
        }
    }

    fn int(&mut self, e: &Expr) -> Result<i64, Fail> {
        match self.eval(e)? {
            Literal::Int(i) => Ok(i),
            other => Err(unsupported(&format!(
                "the value {other} (an int was expected)"
            ))),
        }
    }

    fn bool(&mut self, e: &Expr) -> Result<bool, Fail> {
        match self.eval(e)? {
            Literal::Bool(b) => Ok(b),
            other => Err(unsupported(&format!(
                "the value {other} (a bool was expected)"
            ))),
        }
    }

    fn eval(&mut self, e: &Expr) -> Result<Literal, Fail> {
        match &e.node {
            ExprNode::Const { value } => match value {
                Literal::Int(_) | Literal::Bool(_) => Ok(value.clone()),
                _ => Err(unsupported("strings, arrays and maps")),
            },
            ExprNode::Var { name } => match self.vars.get(name) {
                Some(Some(v)) => Ok(v.clone()),
                Some(None) => fail(
                    "uninitialized_read",
                    format!("{name} is read before it is assigned"),
                ),
                None => Err(unsupported(&format!("the unknown variable {name}"))),
            },
            ExprNode::Unary { op, arg } => match op {
                UnaryOp::Neg => {
                    let a = self.int(arg)?;
                    a.checked_neg()
                        .map(Literal::Int)
                        .ok_or_else(|| overflow(format!("(neg {a})")))
                }
                UnaryOp::Not => Ok(Literal::Bool(!self.bool(arg)?)),
            },
            ExprNode::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs),
            ExprNode::Index { .. } => Err(unsupported("index")),
            ExprNode::Struct { .. } | ExprNode::Field { .. } => Err(unsupported("structs")),
            ExprNode::List { .. } => Err(unsupported("list")),
            ExprNode::If { .. } => Err(unsupported("if expressions")),
            ExprNode::Call { func, args } => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.int(a)?);
                }
                match (func.as_str(), vals.as_slice()) {
                    ("ABS", [a]) => a
                        .checked_abs()
                        .map(Literal::Int)
                        .ok_or_else(|| overflow(format!("ABS({a})"))),
                    ("MIN", [a, b]) => Ok(Literal::Int(*a.min(b))),
                    ("MAX", [a, b]) => Ok(Literal::Int(*a.max(b))),
                    _ => Err(unsupported(&format!("the function {func}"))),
                }
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, lhs: &Expr, rhs: &Expr) -> Result<Literal, Fail> {
        use BinaryOp::*;
        match op {
            And => Ok(Literal::Bool(self.bool(lhs)? && self.bool(rhs)?)),
            Or => Ok(Literal::Bool(self.bool(lhs)? || self.bool(rhs)?)),
            Eq | Ne => {
                let (a, b) = (self.eval(lhs)?, self.eval(rhs)?);
                Ok(Literal::Bool((a == b) == (op == Eq)))
            }
            Lt | Le | Gt | Ge => {
                let (a, b) = (self.int(lhs)?, self.int(rhs)?);
                Ok(Literal::Bool(match op {
                    Lt => a < b,
                    Le => a <= b,
                    Gt => a > b,
                    _ => a >= b,
                }))
            }
            Add | Sub | Mul | Div | Mod => {
                let (a, b) = (self.int(lhs)?, self.int(rhs)?);
                let shown = || format!("({} {a} {b})", name(op));
                if matches!(op, Div | Mod) && b == 0 {
                    return fail("division_by_zero", format!("{} by zero", shown()));
                }
                let r = match op {
                    Add => a.checked_add(b),
                    Sub => a.checked_sub(b),
                    Mul => a.checked_mul(b),
                    Div => a.checked_div(b),
                    _ => Some(a.wrapping_rem(b)),
                };
                r.map(Literal::Int).ok_or_else(|| overflow(shown()))
            }
        }
    }
}

fn name(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "add",
        BinaryOp::Sub => "sub",
        BinaryOp::Mul => "mul",
        BinaryOp::Div => "div",
        _ => "mod",
    }
}

fn overflow(what: String) -> Fail {
    Fail {
        code: "int_overflow",
        message: format!("{what} is outside the 64-bit int range"),
    }
}
