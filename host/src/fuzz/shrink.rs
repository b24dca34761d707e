//! Shrinking a program that differs between the interpreter and a target to
//! a small one that still does: greedy reduction, one edit at a time (delete
//! a step, put a step's own block in its place, drop a STATE, LOCAL or ARGS
//! variable, replace an expression by a subexpression of its type or by a
//! simple constant, make a constant or an argument smaller), each result
//! checked by the front end and kept only when the difference is still there
//! and of the same kind (the interpreter's outcome and the target's, each a
//! value or an error of one code).

use super::{checked, prepare, Target};
use crate::conformance::{self, Outcome, Verdict};
use crate::functions::Functions;
use isu_lang::visit::{self, Visit, VisitMut};
use isu_plugin_api::{Block, ExecLimits, Expr, ExprNode, Literal, Node, Program, Step, Type};
use std::collections::BTreeMap;

/// A program that still differs, with the run that shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Shrunk {
    /// Checked by the front end: canonical and typed.
    pub program: Program,
    pub args: Literal,
    pub limits: ExecLimits,
    /// The interpreter's outcome.
    pub expected: Outcome,
    /// The target's, in the case-file notation (or how it failed).
    pub got: String,
}

/// Removes every step's ID, so that canonicalization numbers them afresh.
pub fn clear_ids(program: &mut Program) {
    struct Clear;
    impl VisitMut for Clear {
        fn visit_step_mut(&mut self, step: &mut Step) {
            step.id = None;
            visit::walk_step_mut(self, step);
        }
    }
    Clear.visit_program_mut(program);
}

/// The outcome of the run of `program` on `args` on the interpreter, and
/// the target's when it differs from it.
fn difference(
    program: &Program,
    args: &Literal,
    limits: ExecLimits,
    target: &Target,
    table: &Functions,
) -> Option<(Outcome, String)> {
    let body = prepare(program.clone(), limits, std::slice::from_ref(args), table)?;
    let executor = target.executor(table);
    match conformance::backend_verdict("shrink", &body, &executor, &target.features) {
        Verdict::Failed(fs) => {
            let got = fs.first()?.got.clone();
            Some((body.oracle.first()?.clone(), got))
        }
        Verdict::Passed | Verdict::Unsupported(_) => None,
    }
}

/// What kind of outcome a case-file text is: `error CODE`, `value`, or
/// `failure` (a backend's own failure).
fn kind(text: &str) -> String {
    if let Some(rest) = text.strip_prefix("error ") {
        let code = rest.split_whitespace().next().unwrap_or("");
        return format!("error {code}");
    }
    if isu_plugin_api::json::from_str::<Literal>(text).is_ok() {
        "value".into()
    } else {
        "failure".into()
    }
}

/// Shrinks `program` (checked) and `args`, a run that differs on `target`,
/// trying at most `tries` edits. `None` when the run does not differ when
/// run again.
pub fn shrink(
    program: &Program,
    args: &Literal,
    limits: ExecLimits,
    target: &Target,
    table: &Functions,
    tries: usize,
) -> Option<Shrunk> {
    let (expected, got) = difference(program, args, limits, target, table)?;
    let want = (kind(&expected.to_string()), kind(&got));
    let mut best = Shrunk {
        program: program.clone(),
        args: args.clone(),
        limits,
        expected,
        got,
    };
    let mut left = tries;
    'rounds: loop {
        for (p, a) in candidates(&best.program, &best.args) {
            if left == 0 {
                break 'rounds;
            }
            if p == best.program && a == best.args {
                continue;
            }
            left -= 1;
            let Some(p) = checked(p, table) else {
                continue;
            };
            let Some((expected, got)) = difference(&p, &a, limits, target, table) else {
                continue;
            };
            if (kind(&expected.to_string()), kind(&got)) == want {
                best = Shrunk {
                    program: p,
                    args: a,
                    limits,
                    expected,
                    got,
                };
                continue 'rounds;
            }
        }
        break;
    }
    Some(best)
}

/// Every one-edit reduction of `program` and `args`, the biggest first.
pub fn candidates(program: &Program, args: &Literal) -> Vec<(Program, Literal)> {
    let mut out = Vec::new();
    let steps = step_kinds(program);
    for (n, node) in steps.iter().enumerate() {
        let mut edits = vec![StepEdit::Remove];
        match node {
            Node::If { .. } => edits.extend([StepEdit::Then, StepEdit::Else]),
            Node::Loop { .. } | Node::Seq { .. } => edits.push(StepEdit::Inner),
            Node::Assign { .. } | Node::Return { .. } | Node::Break | Node::Continue => {}
        }
        for edit in edits {
            let mut p = program.clone();
            let mut at = AtStep {
                n,
                seen: 0,
                edit,
                done: false,
            };
            at.visit_program_mut(&mut p);
            out.push((p, args.clone()));
        }
    }
    for i in 0..program.state.len() {
        let mut p = program.clone();
        p.state.remove(i);
        out.push((p, args.clone()));
    }
    for i in 0..program.locals.len() {
        let mut p = program.clone();
        p.locals.remove(i);
        out.push((p, args.clone()));
    }
    for i in 0..program.func.args.len() {
        let mut p = program.clone();
        let d = p.func.args.remove(i);
        let mut a = args.clone();
        if let Literal::Object(m) = &mut a {
            m.remove(&d.name.name);
        }
        out.push((p, a));
    }
    let exprs = all_exprs(program);
    for (n, e) in exprs.iter().enumerate() {
        for smaller in smaller_exprs(e) {
            let mut p = program.clone();
            let mut at = AtExpr {
                n,
                seen: 0,
                new: Some(smaller),
            };
            at.visit_program_mut(&mut p);
            out.push((p, args.clone()));
        }
    }
    if let Literal::Object(m) = args {
        for (k, v) in m {
            for smaller in smaller_literals(v) {
                let mut a = m.clone();
                a.insert(k.clone(), smaller);
                out.push((program.clone(), Literal::Object(a)));
            }
        }
    }
    out
}

#[derive(Debug, Clone, Copy)]
enum StepEdit {
    Remove,
    /// An IF's THEN block in its place.
    Then,
    /// An IF's ELSE block in its place.
    Else,
    /// A LOOP's BODY or a SEQ's block in its place.
    Inner,
}

/// Every step's statement, in the order [`AtStep`] counts them.
fn step_kinds(program: &Program) -> Vec<Node> {
    struct Steps(Vec<Node>);
    impl<'a> Visit<'a> for Steps {
        fn visit_step(&mut self, step: &'a Step) {
            self.0.push(step.node.clone());
            visit::walk_step(self, step);
        }
    }
    let mut s = Steps(Vec::new());
    s.visit_program(program);
    s.0
}

/// Edits step number `n` (in pre-order).
struct AtStep {
    n: usize,
    seen: usize,
    edit: StepEdit,
    done: bool,
}

impl VisitMut for AtStep {
    fn visit_block_mut(&mut self, block: &mut Block) {
        let mut i = 0;
        while i < block.steps.len() && !self.done {
            if self.seen == self.n {
                self.done = true;
                let step = block.steps.remove(i);
                let inner = match (self.edit, step.node) {
                    (StepEdit::Remove, _) => Vec::new(),
                    (StepEdit::Then, Node::If { then_block, .. }) => then_block.steps,
                    (StepEdit::Else, Node::If { else_block, .. }) => else_block.steps,
                    (StepEdit::Inner, Node::Loop { body: b, .. } | Node::Seq { block: b }) => {
                        b.steps
                    }
                    (_, node) => vec![Step { node, ..step }],
                };
                block.steps.splice(i..i, inner);
                return;
            }
            self.seen += 1;
            visit::walk_step_mut(self, &mut block.steps[i]);
            i += 1;
        }
    }
}

/// Every expression, in pre-order.
fn all_exprs(program: &Program) -> Vec<Expr> {
    struct Exprs(Vec<Expr>);
    impl<'a> Visit<'a> for Exprs {
        fn visit_expr(&mut self, e: &'a Expr) {
            self.0.push(e.clone());
            visit::walk_expr(self, e);
        }
    }
    let mut s = Exprs(Vec::new());
    s.visit_program(program);
    s.0
}

/// Replaces expression number `n` (in pre-order) by `new`.
struct AtExpr {
    n: usize,
    seen: usize,
    new: Option<Expr>,
}

impl VisitMut for AtExpr {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if self.new.is_none() {
            return;
        }
        if self.seen == self.n {
            if let Some(new) = self.new.take() {
                *e = new;
            }
            return;
        }
        self.seen += 1;
        visit::walk_expr_mut(self, e);
    }
}

/// What an expression may become: a subexpression of its type, the simplest
/// constant of its type, or a smaller constant.
fn smaller_exprs(e: &Expr) -> Vec<Expr> {
    let Some(ty) = &e.ty else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let children: Vec<&Expr> = match &e.node {
        ExprNode::Unary { arg, .. } => vec![arg],
        ExprNode::Binary { lhs, rhs, .. } => vec![lhs, rhs],
        ExprNode::Index { base, index } => vec![base, index],
        ExprNode::Call { args, .. } => args.iter().collect(),
        ExprNode::Struct { fields, .. } => fields.iter().map(|f| &f.value).collect(),
        ExprNode::Field { base, .. } => vec![base],
        ExprNode::List { items } => items.iter().collect(),
        ExprNode::If {
            then_expr,
            else_expr,
            ..
        } => vec![then_expr, else_expr],
        ExprNode::Const { .. } | ExprNode::Var { .. } => Vec::new(),
    };
    out.extend(
        children
            .into_iter()
            .filter(|c| c.ty.as_ref() == Some(ty))
            .cloned(),
    );
    let constant = |value: Literal| Expr {
        span: e.span,
        ty: None,
        node: ExprNode::Const { value },
    };
    match &e.node {
        ExprNode::Const { value } => out.extend(smaller_literals(value).into_iter().map(constant)),
        _ => out.extend(simplest(ty).map(constant)),
    }
    out
}

/// The simplest value of a type: 0, false, "", [], {}; none for a struct,
/// which no constant makes.
fn simplest(ty: &Type) -> Option<Literal> {
    Some(match ty {
        Type::Int => Literal::Int(0),
        Type::Float => Literal::Float(0.0),
        Type::Bool => Literal::Bool(false),
        Type::String => Literal::Str(String::new()),
        Type::Array(_) => Literal::Array(Vec::new()),
        Type::Map(..) => Literal::Object(BTreeMap::new()),
        Type::Struct(_) => return None,
    })
}

/// Smaller values of a literal's type: toward 0, shorter, fewer elements.
fn smaller_literals(v: &Literal) -> Vec<Literal> {
    match v {
        Literal::Int(i) => {
            let mut out = Vec::new();
            for c in [0, 1, i / 2, i - i.signum()] {
                if c != *i && c.unsigned_abs() < i.unsigned_abs() && !out.contains(&Literal::Int(c))
                {
                    out.push(Literal::Int(c));
                }
            }
            out
        }
        // Toward 0.0, and to an integral value.
        Literal::Float(x) => {
            let mut out = Vec::new();
            for c in [0.0, x.trunc(), x / 2.0] {
                let simpler = c.abs() < x.abs() || (c.fract() == 0.0 && x.fract() != 0.0);
                if simpler && !out.contains(&Literal::Float(c)) {
                    out.push(Literal::Float(c));
                }
            }
            out
        }
        Literal::Bool(true) => vec![Literal::Bool(false)],
        Literal::Bool(false) => Vec::new(),
        Literal::Str(s) => {
            let chars: Vec<char> = s.chars().collect();
            if chars.is_empty() {
                return Vec::new();
            }
            let mut out = vec![Literal::Str(String::new())];
            if chars.len() > 1 {
                out.push(Literal::Str(chars[..chars.len() / 2].iter().collect()));
                out.push(Literal::Str(chars[1..].iter().collect()));
            }
            out
        }
        Literal::Array(items) => {
            let mut out = Vec::new();
            if items.is_empty() {
                return out;
            }
            out.push(Literal::Array(Vec::new()));
            for i in 0..items.len().min(6) {
                let mut fewer = items.clone();
                fewer.remove(i);
                out.push(Literal::Array(fewer));
            }
            for (i, item) in items.iter().enumerate().take(6) {
                for s in smaller_literals(item) {
                    let mut some = items.clone();
                    some[i] = s;
                    out.push(Literal::Array(some));
                }
            }
            out
        }
        Literal::Object(m) => {
            let mut out = Vec::new();
            if m.is_empty() {
                return out;
            }
            out.push(Literal::Object(BTreeMap::new()));
            for k in m.keys().take(6) {
                let mut fewer = m.clone();
                fewer.remove(k);
                out.push(Literal::Object(fewer));
            }
            for (k, item) in m.iter().take(6) {
                for s in smaller_literals(item) {
                    let mut some = m.clone();
                    some.insert(k.clone(), s);
                    out.push(Literal::Object(some));
                }
            }
            out
        }
    }
}
