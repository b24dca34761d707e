//! Walkers over IIR, in the style of `syn::visit`: a [`Visit`] trait whose
//! methods each default to a `walk_*` function that visits the node's children,
//! and the same again over mutable references in [`VisitMut`]. A `Visit<'ast>`
//! borrows the tree for `'ast`, so a walker may keep references into it.
//!
//! Override the methods for the nodes you care about and call the matching
//! `walk_*` function to go on below them. Children are visited in source order
//! (the order the canonical text prints them), so a walker that collects
//! something collects it deterministically.
//!
//! [`clear_spans`] and [`clear_types`] are two small walkers that tests use to
//! compare programs built in different ways.

use crate::iir::{
    Block, Decl, Example, Expr, ExprNode, Func, Ident, Io, Iter, Node, Place, Program, Span,
    StateVar, Step,
};

/// A read-only walk over IIR. Every method defaults to visiting the children.
pub trait Visit<'ast> {
    /// Visits a [`Program`]; by default its children ([`walk_program`]).
    fn visit_program(&mut self, program: &'ast Program) {
        walk_program(self, program);
    }
    /// Visits a [`Func`]; by default its children ([`walk_func`]).
    fn visit_func(&mut self, func: &'ast Func) {
        walk_func(self, func);
    }
    /// Visits a [`Decl`]; by default its children ([`walk_decl`]).
    fn visit_decl(&mut self, decl: &'ast Decl) {
        walk_decl(self, decl);
    }
    /// Visits a [`StateVar`]; by default its children ([`walk_state_var`]).
    fn visit_state_var(&mut self, var: &'ast StateVar) {
        walk_state_var(self, var);
    }
    /// Visits an [`Ident`]; by default its span.
    fn visit_ident(&mut self, ident: &'ast Ident) {
        self.visit_span(ident.span);
    }
    /// Visits an [`Io`]; by default its children ([`walk_io`]).
    fn visit_io(&mut self, io: &'ast Io) {
        walk_io(self, io);
    }
    /// Visits an [`Example`]; by default its span.
    fn visit_example(&mut self, example: &'ast Example) {
        self.visit_span(example.span);
    }
    /// Visits a [`Block`]; by default its children ([`walk_block`]).
    fn visit_block(&mut self, block: &'ast Block) {
        walk_block(self, block);
    }
    /// Visits a [`Step`]; by default its children ([`walk_step`]).
    fn visit_step(&mut self, step: &'ast Step) {
        walk_step(self, step);
    }
    /// Visits a [`Place`]; by default its children ([`walk_place`]).
    fn visit_place(&mut self, place: &'ast Place) {
        walk_place(self, place);
    }
    /// Visits an [`Iter`]; by default its children ([`walk_iter`]).
    fn visit_iter(&mut self, iter: &'ast Iter) {
        walk_iter(self, iter);
    }
    /// Visits an [`Expr`]; by default its children ([`walk_expr`]).
    fn visit_expr(&mut self, expr: &'ast Expr) {
        walk_expr(self, expr);
    }
    /// Every span of the program, in source order of the nodes that hold them.
    fn visit_span(&mut self, span: Span) {
        let _ = span;
    }
}

/// Visits the children of a [`Program`] in source order.
pub fn walk_program<'ast, V: Visit<'ast> + ?Sized>(v: &mut V, program: &'ast Program) {
    v.visit_func(&program.func);
    // A struct's fields are no variables: only their names and spans.
    for def in &program.types {
        v.visit_span(def.span);
        v.visit_ident(&def.name);
        for field in &def.fields {
            v.visit_span(field.span);
            v.visit_ident(&field.name);
        }
    }
    v.visit_io(&program.io);
    for var in &program.state {
        v.visit_state_var(var);
    }
    for decl in &program.locals {
        v.visit_decl(decl);
    }
    v.visit_block(&program.body);
}

/// Visits the children of a [`Func`] in source order.
pub fn walk_func<'ast, V: Visit<'ast> + ?Sized>(v: &mut V, func: &'ast Func) {
    v.visit_span(func.span);
    v.visit_ident(&func.name);
    for decl in &func.args {
        v.visit_decl(decl);
    }
}

/// Visits the children of a [`Decl`] in source order.
pub fn walk_decl<'ast, V: Visit<'ast> + ?Sized>(v: &mut V, decl: &'ast Decl) {
    v.visit_span(decl.span);
    v.visit_ident(&decl.name);
}

/// Visits the children of a [`StateVar`] in source order.
pub fn walk_state_var<'ast, V: Visit<'ast> + ?Sized>(v: &mut V, var: &'ast StateVar) {
    v.visit_span(var.span);
    v.visit_ident(&var.name);
    v.visit_expr(&var.init);
}

/// Visits the children of an [`Io`] in source order.
pub fn walk_io<'ast, V: Visit<'ast> + ?Sized>(v: &mut V, io: &'ast Io) {
    v.visit_span(io.span);
    for example in io.input.iter().chain(&io.output) {
        v.visit_example(example);
    }
}

/// Visits the children of a [`Block`] in source order.
pub fn walk_block<'ast, V: Visit<'ast> + ?Sized>(v: &mut V, block: &'ast Block) {
    v.visit_span(block.span);
    for step in &block.steps {
        v.visit_step(step);
    }
}

/// Visits the children of a [`Step`] in source order.
pub fn walk_step<'ast, V: Visit<'ast> + ?Sized>(v: &mut V, step: &'ast Step) {
    v.visit_span(step.span);
    match &step.node {
        Node::Seq { block } => v.visit_block(block),
        Node::Assign { target, expr } => {
            v.visit_place(target);
            v.visit_expr(expr);
        }
        Node::If {
            cond,
            then_block,
            else_block,
        } => {
            v.visit_expr(cond);
            v.visit_block(then_block);
            v.visit_block(else_block);
        }
        Node::Loop { iter, body } => {
            v.visit_iter(iter);
            v.visit_block(body);
        }
        Node::Return { expr } => v.visit_expr(expr),
        Node::Break | Node::Continue => {}
    }
}

/// Visits the children of a [`Place`] in source order.
pub fn walk_place<'ast, V: Visit<'ast> + ?Sized>(v: &mut V, place: &'ast Place) {
    match place {
        Place::Var { span, .. } => v.visit_span(*span),
        Place::Index { base, index, span } => {
            v.visit_span(*span);
            v.visit_place(base);
            v.visit_expr(index);
        }
        Place::Field { base, field, span } => {
            v.visit_span(*span);
            v.visit_place(base);
            v.visit_ident(field);
        }
    }
}

/// Visits the children of an [`Iter`] in source order.
pub fn walk_iter<'ast, V: Visit<'ast> + ?Sized>(v: &mut V, iter: &'ast Iter) {
    match iter {
        Iter::Range {
            var,
            start,
            end,
            step,
            span,
        } => {
            v.visit_span(*span);
            v.visit_ident(var);
            v.visit_expr(start);
            v.visit_expr(end);
            if let Some(step) = step {
                v.visit_expr(step);
            }
        }
        Iter::Each { var, seq, span } => {
            v.visit_span(*span);
            v.visit_ident(var);
            v.visit_expr(seq);
        }
        Iter::While { cond, span } => {
            v.visit_span(*span);
            v.visit_expr(cond);
        }
    }
}

/// Visits the children of an [`Expr`] in source order.
pub fn walk_expr<'ast, V: Visit<'ast> + ?Sized>(v: &mut V, expr: &'ast Expr) {
    v.visit_span(expr.span);
    match &expr.node {
        ExprNode::Const { .. } | ExprNode::Var { .. } => {}
        ExprNode::Unary { arg, .. } => v.visit_expr(arg),
        ExprNode::Binary { lhs, rhs, .. } => {
            v.visit_expr(lhs);
            v.visit_expr(rhs);
        }
        ExprNode::Index { base, index } => {
            v.visit_expr(base);
            v.visit_expr(index);
        }
        ExprNode::Call { args, .. } => {
            for arg in args {
                v.visit_expr(arg);
            }
        }
        ExprNode::Struct { fields, .. } => {
            for f in fields {
                v.visit_ident(&f.name);
                v.visit_expr(&f.value);
            }
        }
        ExprNode::Field { base, field } => {
            v.visit_expr(base);
            v.visit_ident(field);
        }
        ExprNode::List { items } => {
            for item in items {
                v.visit_expr(item);
            }
        }
        ExprNode::If {
            cond,
            then_expr,
            else_expr,
        } => {
            v.visit_expr(cond);
            v.visit_expr(then_expr);
            v.visit_expr(else_expr);
        }
    }
}

/// A walk over IIR that may change it. Every method defaults to visiting the
/// children.
pub trait VisitMut {
    /// Visits a [`Program`]; by default its children ([`walk_program_mut`]).
    fn visit_program_mut(&mut self, program: &mut Program) {
        walk_program_mut(self, program);
    }
    /// Visits a [`Func`]; by default its children ([`walk_func_mut`]).
    fn visit_func_mut(&mut self, func: &mut Func) {
        walk_func_mut(self, func);
    }
    /// Visits a [`Decl`]; by default its children ([`walk_decl_mut`]).
    fn visit_decl_mut(&mut self, decl: &mut Decl) {
        walk_decl_mut(self, decl);
    }
    /// Visits a [`StateVar`]; by default its children ([`walk_state_var_mut`]).
    fn visit_state_var_mut(&mut self, var: &mut StateVar) {
        walk_state_var_mut(self, var);
    }
    /// Visits an [`Ident`]; by default its span.
    fn visit_ident_mut(&mut self, ident: &mut Ident) {
        self.visit_span_mut(&mut ident.span);
    }
    /// Visits an [`Io`]; by default its children ([`walk_io_mut`]).
    fn visit_io_mut(&mut self, io: &mut Io) {
        walk_io_mut(self, io);
    }
    /// Visits an [`Example`]; by default its span.
    fn visit_example_mut(&mut self, example: &mut Example) {
        self.visit_span_mut(&mut example.span);
    }
    /// Visits a [`Block`]; by default its children ([`walk_block_mut`]).
    fn visit_block_mut(&mut self, block: &mut Block) {
        walk_block_mut(self, block);
    }
    /// Visits a [`Step`]; by default its children ([`walk_step_mut`]).
    fn visit_step_mut(&mut self, step: &mut Step) {
        walk_step_mut(self, step);
    }
    /// Visits a [`Place`]; by default its children ([`walk_place_mut`]).
    fn visit_place_mut(&mut self, place: &mut Place) {
        walk_place_mut(self, place);
    }
    /// Visits an [`Iter`]; by default its children ([`walk_iter_mut`]).
    fn visit_iter_mut(&mut self, iter: &mut Iter) {
        walk_iter_mut(self, iter);
    }
    /// Visits an [`Expr`]; by default its children ([`walk_expr_mut`]).
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        walk_expr_mut(self, expr);
    }
    /// Every span of the program, in source order of the nodes that hold them.
    fn visit_span_mut(&mut self, span: &mut Span) {
        let _ = span;
    }
}

/// Visits the children of a [`Program`] in source order, mutably.
pub fn walk_program_mut<V: VisitMut + ?Sized>(v: &mut V, program: &mut Program) {
    v.visit_func_mut(&mut program.func);
    for def in &mut program.types {
        v.visit_span_mut(&mut def.span);
        v.visit_ident_mut(&mut def.name);
        for field in &mut def.fields {
            v.visit_span_mut(&mut field.span);
            v.visit_ident_mut(&mut field.name);
        }
    }
    v.visit_io_mut(&mut program.io);
    for var in &mut program.state {
        v.visit_state_var_mut(var);
    }
    for decl in &mut program.locals {
        v.visit_decl_mut(decl);
    }
    v.visit_block_mut(&mut program.body);
}

/// Visits the children of a [`Func`] in source order, mutably.
pub fn walk_func_mut<V: VisitMut + ?Sized>(v: &mut V, func: &mut Func) {
    v.visit_span_mut(&mut func.span);
    v.visit_ident_mut(&mut func.name);
    for decl in &mut func.args {
        v.visit_decl_mut(decl);
    }
}

/// Visits the children of a [`Decl`] in source order, mutably.
pub fn walk_decl_mut<V: VisitMut + ?Sized>(v: &mut V, decl: &mut Decl) {
    v.visit_span_mut(&mut decl.span);
    v.visit_ident_mut(&mut decl.name);
}

/// Visits the children of a [`StateVar`] in source order, mutably.
pub fn walk_state_var_mut<V: VisitMut + ?Sized>(v: &mut V, var: &mut StateVar) {
    v.visit_span_mut(&mut var.span);
    v.visit_ident_mut(&mut var.name);
    v.visit_expr_mut(&mut var.init);
}

/// Visits the children of an [`Io`] in source order, mutably.
pub fn walk_io_mut<V: VisitMut + ?Sized>(v: &mut V, io: &mut Io) {
    v.visit_span_mut(&mut io.span);
    for example in io.input.iter_mut().chain(&mut io.output) {
        v.visit_example_mut(example);
    }
}

/// Visits the children of a [`Block`] in source order, mutably.
pub fn walk_block_mut<V: VisitMut + ?Sized>(v: &mut V, block: &mut Block) {
    v.visit_span_mut(&mut block.span);
    for step in &mut block.steps {
        v.visit_step_mut(step);
    }
}

/// Visits the children of a [`Step`] in source order, mutably.
pub fn walk_step_mut<V: VisitMut + ?Sized>(v: &mut V, step: &mut Step) {
    v.visit_span_mut(&mut step.span);
    match &mut step.node {
        Node::Seq { block } => v.visit_block_mut(block),
        Node::Assign { target, expr } => {
            v.visit_place_mut(target);
            v.visit_expr_mut(expr);
        }
        Node::If {
            cond,
            then_block,
            else_block,
        } => {
            v.visit_expr_mut(cond);
            v.visit_block_mut(then_block);
            v.visit_block_mut(else_block);
        }
        Node::Loop { iter, body } => {
            v.visit_iter_mut(iter);
            v.visit_block_mut(body);
        }
        Node::Return { expr } => v.visit_expr_mut(expr),
        Node::Break | Node::Continue => {}
    }
}

/// Visits the children of a [`Place`] in source order, mutably.
pub fn walk_place_mut<V: VisitMut + ?Sized>(v: &mut V, place: &mut Place) {
    match place {
        Place::Var { span, .. } => v.visit_span_mut(span),
        Place::Index { base, index, span } => {
            v.visit_span_mut(span);
            v.visit_place_mut(base);
            v.visit_expr_mut(index);
        }
        Place::Field { base, field, span } => {
            v.visit_span_mut(span);
            v.visit_place_mut(base);
            v.visit_ident_mut(field);
        }
    }
}

/// Visits the children of an [`Iter`] in source order, mutably.
pub fn walk_iter_mut<V: VisitMut + ?Sized>(v: &mut V, iter: &mut Iter) {
    match iter {
        Iter::Range {
            var,
            start,
            end,
            step,
            span,
        } => {
            v.visit_span_mut(span);
            v.visit_ident_mut(var);
            v.visit_expr_mut(start);
            v.visit_expr_mut(end);
            if let Some(step) = step {
                v.visit_expr_mut(step);
            }
        }
        Iter::Each { var, seq, span } => {
            v.visit_span_mut(span);
            v.visit_ident_mut(var);
            v.visit_expr_mut(seq);
        }
        Iter::While { cond, span } => {
            v.visit_span_mut(span);
            v.visit_expr_mut(cond);
        }
    }
}

/// Visits the children of an [`Expr`] in source order, mutably.
pub fn walk_expr_mut<V: VisitMut + ?Sized>(v: &mut V, expr: &mut Expr) {
    v.visit_span_mut(&mut expr.span);
    match &mut expr.node {
        ExprNode::Const { .. } | ExprNode::Var { .. } => {}
        ExprNode::Unary { arg, .. } => v.visit_expr_mut(arg),
        ExprNode::Binary { lhs, rhs, .. } => {
            v.visit_expr_mut(lhs);
            v.visit_expr_mut(rhs);
        }
        ExprNode::Index { base, index } => {
            v.visit_expr_mut(base);
            v.visit_expr_mut(index);
        }
        ExprNode::Call { args, .. } => {
            for arg in args {
                v.visit_expr_mut(arg);
            }
        }
        ExprNode::Struct { fields, .. } => {
            for f in fields {
                v.visit_ident_mut(&mut f.name);
                v.visit_expr_mut(&mut f.value);
            }
        }
        ExprNode::Field { base, field } => {
            v.visit_expr_mut(base);
            v.visit_ident_mut(field);
        }
        ExprNode::List { items } => {
            for item in items {
                v.visit_expr_mut(item);
            }
        }
        ExprNode::If {
            cond,
            then_expr,
            else_expr,
        } => {
            v.visit_expr_mut(cond);
            v.visit_expr_mut(then_expr);
            v.visit_expr_mut(else_expr);
        }
    }
}

struct ClearSpans;

impl VisitMut for ClearSpans {
    fn visit_span_mut(&mut self, span: &mut Span) {
        *span = Span::default();
    }
}

/// Sets every span of the program to the synthetic span, so that programs
/// parsed from different texts (or built in Rust) compare by structure alone.
pub fn clear_spans(program: &mut Program) {
    ClearSpans.visit_program_mut(program);
}

/// [`clear_spans`] for one step and everything under it.
pub fn clear_step_spans(step: &mut Step) {
    ClearSpans.visit_step_mut(step);
}

struct ClearTypes;

impl VisitMut for ClearTypes {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        expr.ty = None;
        walk_expr_mut(self, expr);
    }
}

/// Forgets the static types validation wrote into every expression.
pub fn clear_types(program: &mut Program) {
    ClearTypes.visit_program_mut(program);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iir::{BinaryOp, StepId, IIR_FORMAT};
    use crate::literal::Literal;
    use crate::types::Type;

    fn sp(n: u32) -> Span {
        Span {
            lo: n,
            hi: n + 1,
            line: 1,
            col: n + 1,
        }
    }

    fn ident(name: &str, n: u32) -> Ident {
        Ident {
            name: name.into(),
            span: sp(n),
        }
    }

    fn expr(node: ExprNode, n: u32) -> Expr {
        Expr {
            span: sp(n),
            ty: Some(Type::Int),
            node,
        }
    }

    /// A program in which every span is distinct: `sp(n)` for n in 1..=22.
    fn sample() -> Program {
        let var = |name: &str, n| expr(ExprNode::Var { name: name.into() }, n);
        Program {
            types: Vec::new(),
            format: IIR_FORMAT.into(),
            auto_id: false,
            func: Func {
                name: ident("f", 2),
                args: vec![Decl {
                    name: ident("xs", 4),
                    ty: Type::array(Type::Int),
                    span: sp(3),
                }],
                returns: Type::Int,
                span: sp(1),
            },
            io: Io {
                input: vec![Example {
                    value: Literal::Int(1),
                    span: sp(6),
                }],
                output: vec![Example {
                    value: Literal::Int(2),
                    span: sp(7),
                }],
                span: sp(5),
            },
            state: vec![StateVar {
                name: ident("t", 9),
                ty: Type::Int,
                init: expr(
                    ExprNode::Const {
                        value: Literal::Int(0),
                    },
                    10,
                ),
                span: sp(8),
            }],
            locals: vec![Decl {
                name: ident("x", 12),
                ty: Type::Int,
                span: sp(11),
            }],
            body: Block {
                span: sp(13),
                steps: vec![
                    Step {
                        id: StepId::parse("S1"),
                        desc: None,
                        span: sp(14),
                        node: Node::Loop {
                            iter: Iter::Each {
                                var: ident("x", 16),
                                seq: var("xs", 17),
                                span: sp(15),
                            },
                            body: Block {
                                steps: Vec::new(),
                                span: sp(18),
                            },
                        },
                    },
                    Step {
                        id: StepId::parse("S2"),
                        desc: None,
                        span: sp(19),
                        node: Node::Return {
                            expr: expr(
                                ExprNode::Binary {
                                    op: BinaryOp::Add,
                                    lhs: Box::new(var("t", 21)),
                                    rhs: Box::new(var("x", 22)),
                                },
                                20,
                            ),
                        },
                    },
                ],
            },
        }
    }

    struct Spans(Vec<u32>);

    impl Visit<'_> for Spans {
        fn visit_span(&mut self, span: Span) {
            self.0.push(span.lo);
        }
    }

    #[test]
    fn visits_every_span_in_source_order() {
        let mut spans = Spans(Vec::new());
        spans.visit_program(&sample());
        assert_eq!(spans.0, (1..=22).collect::<Vec<_>>());
    }

    #[test]
    fn clear_spans_and_types_leave_only_structure() {
        let mut p = sample();
        clear_spans(&mut p);
        let mut spans = Spans(Vec::new());
        spans.visit_program(&p);
        assert_eq!(spans.0, vec![0; 22]);
        assert_eq!(p.func.name.name, "f");
        assert!(matches!(p.state[0].init.ty, Some(Type::Int)));
        clear_types(&mut p);
        assert_eq!(p.state[0].init.ty, None);
    }

    #[test]
    fn clear_step_spans_reaches_nested_nodes() {
        let mut p = sample();
        for step in &mut p.body.steps {
            clear_step_spans(step);
        }
        let mut spans = Spans(Vec::new());
        for step in &p.body.steps {
            spans.visit_step(step);
        }
        assert_eq!(spans.0, vec![0; 9]);
        assert_eq!(p.body.span, sp(13));
    }
}
