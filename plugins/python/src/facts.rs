//! What the generator needs to know about the whole program before it writes
//! a line: each variable's kind and type, which variables are read, which are
//! assigned, and which are changed in place (a Python list or dict mutated
//! rather than rebound), so that copies are made exactly where sharing could
//! be observed.

use isu_plugin_api::{BinaryOp, Block, Expr, ExprNode, Iter, Literal, Node, Place, Program, Type};
use std::collections::{BTreeMap, BTreeSet};

/// Where a variable is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarKind {
    Arg,
    State,
    Local,
}

#[derive(Debug, Clone)]
pub struct Var {
    pub kind: VarKind,
    pub ty: Type,
    /// Its Python name.
    pub py: String,
}

#[derive(Debug, Default)]
pub struct Facts {
    pub vars: BTreeMap<String, Var>,
    /// Variables whose value the generated code reads.
    pub read: BTreeSet<String>,
    /// Variables some statement of the generated code binds: a plain
    /// `ASSIGN` to the variable, or a loop over it. (An in-place update or an
    /// element assignment changes the value a variable already has.)
    pub bound: BTreeSet<String>,
    /// Variables whose list or dict some step changes in place.
    pub mutated: BTreeSet<String>,
    /// Variables some `each` loop iterates with (they may share an element
    /// of the array they iterate), and the variables whose arrays it
    /// iterates (the loop holds the array while it runs).
    pub each_vars: BTreeSet<String>,
}

/// A standard function an `ASSIGN` applies in place when its first argument
/// is the assignment's own target (spec/semantics.md 4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateOp {
    Push,
    Pop,
    MapSet,
    Concat,
}

/// `TARGET: P` with `EXPR: (call F P rest...)`.
#[derive(Debug, Clone, Copy)]
pub struct Update<'a> {
    pub op: UpdateOp,
    /// The arguments after `P`.
    pub rest: &'a [Expr],
}

impl Facts {
    pub fn of(program: &Program) -> Facts {
        let mut f = Facts::default();
        let decls = program
            .func
            .args
            .iter()
            .map(|d| (&d.name.name, &d.ty, VarKind::Arg))
            .chain(
                program
                    .state
                    .iter()
                    .map(|s| (&s.name.name, &s.ty, VarKind::State)),
            )
            .chain(
                program
                    .locals
                    .iter()
                    .map(|d| (&d.name.name, &d.ty, VarKind::Local)),
            );
        for (name, ty, kind) in decls {
            f.vars.insert(
                name.clone(),
                Var {
                    kind,
                    ty: ty.clone(),
                    py: crate::names::local(name),
                },
            );
        }
        for s in &program.state {
            expr_reads(&s.init, &mut f.read);
        }
        f.block(&program.body);
        f.mutated = mutates(&program.body, &f);
        f
    }

    fn block(&mut self, b: &Block) {
        for step in &b.steps {
            match &step.node {
                Node::Seq { .. } => {}
                Node::Assign { target, expr } => {
                    if let Place::Var { name, .. } = target {
                        let rebinds = match update(target, expr) {
                            None => true,
                            // `s += t` binds `s`.
                            Some(u) => u.op == UpdateOp::Concat && expr.ty == Some(Type::String),
                        };
                        if rebinds {
                            self.bound.insert(name.clone());
                        }
                    }
                    place_reads(target, &mut self.read);
                    expr_reads(expr, &mut self.read);
                }
                Node::If { cond, .. } => expr_reads(cond, &mut self.read),
                Node::Loop { iter, .. } => {
                    if let Some(v) = loop_var(iter) {
                        self.bound.insert(v.to_owned());
                    }
                    if let Iter::Each { var, seq, .. } = iter {
                        self.each_vars.insert(var.name.clone());
                        let mut from = Vec::new();
                        crate::lower::roots(seq, &mut from);
                        self.each_vars.extend(from);
                    }
                    for e in iter_exprs(iter) {
                        expr_reads(e, &mut self.read);
                    }
                }
                Node::Return { expr } => expr_reads(expr, &mut self.read),
            }
            for inner in step.node.blocks() {
                self.block(inner);
            }
        }
    }

    /// The type of a variable the program declares.
    pub fn var(&self, name: &str) -> Option<&Var> {
        self.vars.get(name)
    }

    /// Whether the variable is a collection, so changing it in place is a mutation.
    fn is_collection(&self, name: &str) -> bool {
        self.var(name)
            .is_some_and(|v| crate::pytype::is_collection(&v.ty))
    }
}

/// The variable a `range` or `each` loop assigns.
pub fn loop_var(iter: &Iter) -> Option<&str> {
    match iter {
        Iter::Range { var, .. } | Iter::Each { var, .. } => Some(&var.name),
        Iter::While { .. } => None,
    }
}

/// The expressions of an ITER, in evaluation order.
pub fn iter_exprs(iter: &Iter) -> Vec<&Expr> {
    match iter {
        Iter::Range {
            start, end, step, ..
        } => {
            let mut v = vec![start, end];
            v.extend(step.iter());
            v
        }
        Iter::Each { seq, .. } => vec![seq],
        Iter::While { cond, .. } => vec![cond],
    }
}

/// Whether an `ASSIGN` is an in-place update, and of what.
pub fn update<'a>(target: &Place, expr: &'a Expr) -> Option<Update<'a>> {
    let ExprNode::Call { func, args } = &expr.node else {
        return None;
    };
    let (op, arity) = match func.as_str() {
        "PUSH" => (UpdateOp::Push, 2),
        "POP" => (UpdateOp::Pop, 1),
        "MAP_SET" => (UpdateOp::MapSet, 3),
        "CONCAT" => (UpdateOp::Concat, 2),
        _ => return None,
    };
    let first = args.first()?;
    if args.len() != arity || !is_place(first, target) {
        return None;
    }
    // A string cannot change in place; only a variable can take `+=`.
    if op == UpdateOp::Concat
        && first.ty == Some(Type::String)
        && !matches!(target, Place::Var { .. })
    {
        return None;
    }
    Some(Update {
        op,
        rest: &args[1..],
    })
}

/// Whether the expression reads exactly the place `p`.
pub fn is_place(e: &Expr, p: &Place) -> bool {
    match (&e.node, p) {
        (ExprNode::Var { name }, Place::Var { name: n, .. }) => name == n,
        (
            ExprNode::Index { base, index },
            Place::Index {
                base: pb,
                index: pi,
                ..
            },
        ) => is_place(base, pb) && same(index, pi),
        _ => false,
    }
}

/// Structural equality of expressions, without spans and types.
pub fn same(a: &Expr, b: &Expr) -> bool {
    match (&a.node, &b.node) {
        (ExprNode::Const { value: x }, ExprNode::Const { value: y }) => x == y,
        (ExprNode::Var { name: x }, ExprNode::Var { name: y }) => x == y,
        (ExprNode::Unary { op: o1, arg: a1 }, ExprNode::Unary { op: o2, arg: a2 }) => {
            o1 == o2 && same(a1, a2)
        }
        (
            ExprNode::Binary {
                op: o1,
                lhs: l1,
                rhs: r1,
            },
            ExprNode::Binary {
                op: o2,
                lhs: l2,
                rhs: r2,
            },
        ) => o1 == o2 && same(l1, l2) && same(r1, r2),
        (
            ExprNode::Index {
                base: b1,
                index: i1,
            },
            ExprNode::Index {
                base: b2,
                index: i2,
            },
        ) => same(b1, b2) && same(i1, i2),
        (ExprNode::Call { func: f1, args: a1 }, ExprNode::Call { func: f2, args: a2 }) => {
            f1 == f2 && a1.len() == a2.len() && a1.iter().zip(a2).all(|(x, y)| same(x, y))
        }
        _ => false,
    }
}

/// The variables a block changes in place, at any depth: roots of element
/// targets and of in-place updates of arrays and maps.
pub fn mutates(b: &Block, facts: &Facts) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    mutates_into(b, facts, &mut out);
    out
}

fn mutates_into(b: &Block, facts: &Facts, out: &mut BTreeSet<String>) {
    for step in &b.steps {
        if let Node::Assign { target, expr } = &step.node {
            let (root, _) = target.root();
            let in_place = match target {
                Place::Index { .. } => true,
                Place::Var { .. } => update(target, expr).is_some(),
            };
            if in_place && facts.is_collection(root) {
                out.insert(root.to_owned());
            }
        }
        for inner in step.node.blocks() {
            mutates_into(inner, facts, out);
        }
    }
}

/// The variables a block assigns, at any depth (loop variables included).
pub fn assigns(b: &Block) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    assigns_into(b, &mut out);
    out
}

fn assigns_into(b: &Block, out: &mut BTreeSet<String>) {
    for step in &b.steps {
        match &step.node {
            Node::Assign { target, .. } => {
                out.insert(target.root().0.to_owned());
            }
            Node::Loop { iter, .. } => {
                if let Some(v) = loop_var(iter) {
                    out.insert(v.to_owned());
                }
            }
            _ => {}
        }
        for inner in step.node.blocks() {
            assigns_into(inner, out);
        }
    }
}

/// Whether a block holds a LOOP at any depth.
pub fn has_loop(b: &Block) -> bool {
    b.steps
        .iter()
        .any(|s| matches!(s.node, Node::Loop { .. }) || s.node.blocks().into_iter().any(has_loop))
}

fn place_reads(p: &Place, out: &mut BTreeSet<String>) {
    if let Place::Index { base, index, .. } = p {
        // `ROOT[k] = v` loads ROOT.
        out.insert(p.root().0.to_owned());
        place_reads(base, out);
        expr_reads(index, out);
    }
}

fn expr_reads(e: &Expr, out: &mut BTreeSet<String>) {
    match &e.node {
        ExprNode::Const { .. } => {}
        ExprNode::Var { name } => {
            out.insert(name.clone());
        }
        ExprNode::Unary { arg, .. } => expr_reads(arg, out),
        ExprNode::Binary { lhs, rhs, .. } => {
            expr_reads(lhs, out);
            expr_reads(rhs, out);
        }
        ExprNode::Index { base, index } => {
            expr_reads(base, out);
            expr_reads(index, out);
        }
        ExprNode::Call { args, .. } => {
            for a in args {
                expr_reads(a, out);
            }
        }
    }
}

/// Whether the first thing that can fail while evaluating `e` (left to right)
/// is a read of the place `p` itself. Then `e` fails exactly where storing
/// into `p` would, so evaluating `e` before the place's keys, as Python's
/// `p[k] = e` does, changes no outcome.
pub fn leads_with_read(e: &Expr, p: &Place) -> bool {
    if is_place(e, p) {
        return true;
    }
    match &e.node {
        ExprNode::Unary { arg, .. } => leads_with_read(arg, p),
        ExprNode::Binary { lhs, .. } => leads_with_read(lhs, p),
        ExprNode::Index { base, .. } => leads_with_read(base, p),
        ExprNode::Call { args, .. } => args.first().is_some_and(|a| leads_with_read(a, p)),
        ExprNode::Const { .. } | ExprNode::Var { .. } => false,
    }
}

/// How every assignment a block makes to an int variable moves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drift {
    /// Only ever `x = x + c` with `c >= 0` (or `x - c`, `c <= 0`).
    Up,
    /// Only ever `x = x - c` with `c >= 0` (or `x + c`, `c <= 0`).
    Down,
}

/// Whether the block's assignments to `var` only ever move it one way, so
/// that a bound it had before a loop over the block holds in every round
/// and after. `None` when anything else assigns it (a loop over it too).
pub fn drift(b: &Block, var: &str) -> Option<Drift> {
    let mut seen: Option<Drift> = None;
    let mut ok = true;
    drift_into(b, var, &mut seen, &mut ok);
    if ok {
        seen
    } else {
        None
    }
}

fn drift_into(b: &Block, var: &str, seen: &mut Option<Drift>, ok: &mut bool) {
    for step in &b.steps {
        match &step.node {
            Node::Assign {
                target: Place::Var { name, .. },
                expr,
            } if name == var => match step_of(expr, var) {
                Some(d) if seen.is_none_or(|s| s == d) => *seen = Some(d),
                _ => *ok = false,
            },
            Node::Loop { iter, .. } if loop_var(iter) == Some(var) => *ok = false,
            _ => {}
        }
        for inner in step.node.blocks() {
            drift_into(inner, var, seen, ok);
        }
    }
}

/// `x + c` or `x - c` with `c` a constant: the direction it moves `x`.
fn step_of(e: &Expr, var: &str) -> Option<Drift> {
    let ExprNode::Binary { op, lhs, rhs } = &e.node else {
        return None;
    };
    let (
        ExprNode::Var { name },
        ExprNode::Const {
            value: Literal::Int(c),
        },
    ) = (&lhs.node, &rhs.node)
    else {
        return None;
    };
    if name != var {
        return None;
    }
    let up = match op {
        BinaryOp::Add => *c >= 0,
        BinaryOp::Sub => *c <= 0,
        _ => return None,
    };
    Some(if up { Drift::Up } else { Drift::Down })
}
