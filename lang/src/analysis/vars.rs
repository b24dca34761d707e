//! The variables each step reads and assigns.
//!
//! A step's *own* reads are those of its own fields, not of the steps in its
//! blocks: an `ASSIGN`'s element `TARGET` (its variable, then the keys from
//! the variable outward) and `EXPR`; an `IF`'s `COND`; a `LOOP`'s `ITER`
//! expressions; a `RETURN`'s `EXPR`. A step *assigns* the variables its own
//! `TARGET` or loop variable names and, at any depth, those of the steps in
//! its blocks.

use crate::iir::{Block, Expr, ExprNode, Node, Place, Program, Span, Step, StepId};
use crate::visit::{self, Visit};
use std::collections::{BTreeMap, BTreeSet};

/// Calls `f` with every variable `e` reads and the span of the read, in
/// evaluation order.
pub fn each_read<'e>(e: &'e Expr, f: &mut impl FnMut(&'e str, Span)) {
    struct Reads<'f, F>(&'f mut F);
    impl<'e, F: FnMut(&'e str, Span)> Visit<'e> for Reads<'_, F> {
        fn visit_expr(&mut self, e: &'e Expr) {
            if let ExprNode::Var { name } = &e.node {
                (self.0)(name, e.span);
            }
            visit::walk_expr(self, e);
        }
    }
    Reads(f).visit_expr(e);
}

/// The variables `e` reads, each once.
pub fn reads(e: &Expr) -> BTreeSet<&str> {
    let mut out = BTreeSet::new();
    each_read(e, &mut |name, _| {
        out.insert(name);
    });
    out
}

/// How many times `e` reads the variable `var`.
pub fn count_reads(e: &Expr, var: &str) -> usize {
    let mut n = 0;
    each_read(e, &mut |name, _| n += usize::from(name == var));
    n
}

/// Calls `f` with every variable an element `TARGET` reads (its variable,
/// then the reads of its keys from the variable outward); a plain variable
/// `TARGET` reads nothing.
pub fn each_place_read<'p>(p: &'p Place, f: &mut impl FnMut(&'p str, Span)) {
    if !matches!(p, Place::Var { .. }) {
        let (root, span) = p.root();
        f(root, span);
        let mut keys = Vec::new();
        let mut cur = p;
        loop {
            match cur {
                Place::Var { .. } => break,
                Place::Index { base, index, .. } => {
                    keys.push(index);
                    cur = base;
                }
                Place::Field { base, .. } => cur = base,
            }
        }
        for k in keys.into_iter().rev() {
            each_read(k, f);
        }
    }
}

/// Calls `f` with every variable the step's own fields read and the span of
/// the read, in evaluation order.
pub fn each_own_read<'s>(step: &'s Step, f: &mut impl FnMut(&'s str, Span)) {
    match &step.node {
        Node::Seq { .. } => {}
        Node::Assign { target, expr } => {
            each_place_read(target, f);
            each_read(expr, f);
        }
        Node::If { cond, .. } => each_read(cond, f),
        Node::Loop { iter, .. } => {
            for e in iter.exprs() {
                each_read(e, f);
            }
        }
        Node::Return { expr } => each_read(expr, f),
        Node::Break | Node::Continue => {}
    }
}

/// The variables a step's own fields read, each once, in order of first
/// appearance.
pub fn own_reads(step: &Step) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    each_own_read(step, &mut |n, _| {
        if !out.contains(&n) {
            out.push(n);
        }
    });
    out
}

/// The variable a step itself assigns: an `ASSIGN`'s `TARGET` variable (an
/// element `TARGET` changes its variable's value), a `range` or `each`
/// loop's variable.
pub fn own_assign(step: &Step) -> Option<&str> {
    match &step.node {
        Node::Assign { target, .. } => Some(target.root().0),
        Node::Loop { iter, .. } => iter.var().map(|v| v.name.as_str()),
        Node::Seq { .. } | Node::If { .. } | Node::Return { .. } | Node::Break | Node::Continue => {
            None
        }
    }
}

/// Whether the block computes with `var`: an operand of an `add`, `sub` or
/// `mul`, or of a `neg`, is exactly `(var VAR)` (arithmetic whose overflow
/// check knowing the variable small may drop, `Interval::SMALL`).
pub fn computes_with(b: &Block, var: &str) -> bool {
    use crate::iir::{BinaryOp, UnaryOp};
    struct Arith<'v> {
        var: &'v str,
        found: bool,
    }
    impl<'e> Visit<'e> for Arith<'_> {
        fn visit_expr(&mut self, e: &'e Expr) {
            let is_var = |x: &Expr| matches!(&x.node, ExprNode::Var { name } if name == self.var);
            match &e.node {
                ExprNode::Binary {
                    op: BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul,
                    lhs,
                    rhs,
                } => self.found |= is_var(lhs) || is_var(rhs),
                ExprNode::Unary {
                    op: UnaryOp::Neg,
                    arg,
                } => self.found |= is_var(arg),
                _ => {}
            }
            visit::walk_expr(self, e);
        }
    }
    let mut a = Arith { var, found: false };
    a.visit_block(b);
    a.found
}

/// The variables the steps of a block assign, at any depth.
pub fn assigned_in(b: &Block) -> BTreeSet<&str> {
    struct Assigns<'a>(BTreeSet<&'a str>);
    impl<'a> Assigns<'a> {
        fn block(&mut self, b: &'a Block) {
            for s in &b.steps {
                self.0.extend(own_assign(s));
                for inner in s.node.blocks() {
                    self.block(inner);
                }
            }
        }
    }
    let mut a = Assigns(BTreeSet::new());
    a.block(b);
    a.0
}

/// What one step reads and assigns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StepVars {
    /// Its own reads, in order of first appearance.
    pub reads: Vec<String>,
    /// What it and the steps in its blocks assign.
    pub assigns: BTreeSet<String>,
}

/// The variables read and assigned, by step, and every variable the program
/// reads anywhere (`STATE` initializers included).
#[derive(Debug, Clone, Default)]
pub struct Vars {
    steps: BTreeMap<StepId, StepVars>,
    read: BTreeSet<String>,
}

impl Vars {
    /// The variables each step of `program` reads and assigns.
    pub fn of(program: &Program) -> Vars {
        let mut v = Collect::default();
        v.visit_program(program);
        Vars {
            steps: v.steps,
            read: v.read,
        }
    }

    /// The facts of one step (`None` for a step without an ID).
    pub fn step(&self, id: &StepId) -> Option<&StepVars> {
        self.steps.get(id)
    }

    /// Whether any expression or element `TARGET` of the program reads `name`.
    pub fn is_read(&self, name: &str) -> bool {
        self.read.contains(name)
    }
}

#[derive(Default)]
struct Collect {
    steps: BTreeMap<StepId, StepVars>,
    read: BTreeSet<String>,
}

impl Visit<'_> for Collect {
    fn visit_step(&mut self, step: &Step) {
        if let Some(id) = &step.id {
            let mut assigns: BTreeSet<String> =
                own_assign(step).map(str::to_owned).into_iter().collect();
            for b in step.node.blocks() {
                assigns.extend(assigned_in(b).into_iter().map(str::to_owned));
            }
            let reads = own_reads(step).into_iter().map(str::to_owned).collect();
            self.steps.insert(id.clone(), StepVars { reads, assigns });
        }
        if let Node::Assign { target, .. } = &step.node {
            each_place_read(target, &mut |n, _| {
                self.read.insert(n.to_owned());
            });
        }
        visit::walk_step(self, step);
    }

    fn visit_expr(&mut self, e: &Expr) {
        if let ExprNode::Var { name } = &e.node {
            self.read.insert(name.clone());
        }
        visit::walk_expr(self, e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::*;
    use crate::iir::BinaryOp;
    use crate::types::Type;

    fn id(s: &str) -> StepId {
        StepId::parse(s).unwrap_or_else(|| StepId::from_path(&[99]))
    }

    #[test]
    fn own_reads_in_order_of_first_appearance() {
        let int_t = || Type::Int;
        let grid = Type::array(Type::array(Type::Int));
        let p = program(
            "f",
            &[("a", int_t()), ("b", int_t()), ("g", grid.clone())],
            int_t(),
            vec![],
            &[
                ("i", int_t()),
                ("j", int_t()),
                ("k", int_t()),
                ("n", int_t()),
                ("t", int_t()),
            ],
            vec![
                assign(
                    "S1",
                    pidx(pidx(pvar("g"), var("i", int_t())), var("j", int_t())),
                    bin(BinaryOp::Add, var("k", int_t()), var("i", int_t())),
                ),
                range(
                    "S2",
                    "n",
                    var("a", int_t()),
                    var("b", int_t()),
                    None,
                    vec![set("S2_1", "t", var("n", int_t()))],
                ),
                set("S3", "k", int(1)),
                ret("S4", var("t", int_t())),
            ],
        );
        let v = Vars::of(&p);
        let reads = |s: &str| v.step(&id(s)).map(|s| s.reads.clone()).unwrap_or_default();
        assert_eq!(reads("S1"), ["g", "i", "j", "k"]);
        assert_eq!(reads("S2"), ["a", "b"]);
        assert_eq!(reads("S2_1"), ["n"]);
        assert!(reads("S3").is_empty(), "assigning k does not read it");
        let assigns: Vec<String> = v
            .step(&id("S2"))
            .map(|s| s.assigns.iter().cloned().collect())
            .unwrap_or_default();
        assert_eq!(assigns, ["n", "t"]);
        assert!(v.is_read("g") && v.is_read("t") && !v.is_read("zz"));
        let e = bin(
            BinaryOp::Mul,
            var("x", int_t()),
            bin(BinaryOp::Add, var("x", int_t()), var("y", int_t())),
        );
        assert_eq!(count_reads(&e, "x"), 2);
        assert_eq!(reads_of(&e), ["x", "y"]);
    }

    #[test]
    fn computes_with_finds_arithmetic_on_the_variable_itself() {
        let int_t = || Type::Int;
        let xs = || var("xs", Type::array(Type::Int));
        let body = |e: Expr| Block {
            steps: vec![if_("S1", boolean(true), vec![set("S1_1", "s", e)], vec![])],
            span: Span::default(),
        };
        let i = || var("i", int_t());
        let computes = |e: Expr| computes_with(&body(e), "i");
        assert!(computes(bin(BinaryOp::Mul, i(), i())));
        assert!(computes(bin(BinaryOp::Sub, int(1), i())));
        assert!(computes(neg(i())));
        assert!(computes(idx(xs(), bin(BinaryOp::Add, i(), int(1)))));
        assert!(!computes(idx(xs(), i())), "an index is no arithmetic");
        assert!(
            !computes(bin(BinaryOp::Div, i(), int(2))),
            "a quotient cannot overflow but by -1"
        );
        assert!(!computes(bin(BinaryOp::Add, var("j", int_t()), int(1))));
    }

    fn reads_of(e: &Expr) -> Vec<&str> {
        reads(e).into_iter().collect()
    }
}
