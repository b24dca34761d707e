//! The canonical text of a program, written into one `String` in a single
//! pass (no intermediate strings per node), so that printing is linear in the
//! size of the output.
//!
//! The format, with `examples/sum_evens.isu` as its golden case:
//!
//! - sections at column 0 in the order META (only when `AUTO_ID` is true),
//!   FUNC, IO, STATE, LOCAL, STEPS; every section but META always printed;
//! - section fields 2 spaces in; `ARGS`, `STATE` and `LOCAL` as one-line
//!   bracket lists (`[]` when empty), `IO` lists as JSON arrays;
//! - the root `  SEQ: BEGIN` / `  END` without an ID; each step header
//!   `S1: KIND` or `S1: KIND "desc"`, its fields 2 spaces further in, the
//!   steps of a block 2 spaces further than the field, and the block's `END`
//!   aligned with the field; a nested SEQ is `S3: SEQ BEGIN` (or
//!   `S3: SEQ "desc" BEGIN`) with its steps 2 spaces in and `END` aligned with
//!   its header;
//! - expressions on one line as S-expressions, literals in canonical JSON,
//!   strings (descriptions included) escaped as JSON;
//! - a newline after every line, the last included;
//! - with [`print_with`], each comment of the source on its own line before
//!   the line it preceded there, at that line's indentation.
//!
//! A step without an ID (only a program that was never canonicalized has one)
//! prints with the header of the source form for it, `KIND:` (`SEQ: BEGIN`).

use crate::syntax::Kw;
use crate::syntax::{Anchor, Comments, PatchEntry, PatchFile, PatchItems};
use isu_plugin_api::literal::write_json_string;
use isu_plugin_api::{
    BinaryOp, Block, Decl, Expr, ExprNode, Iter, Node, Place, Program, StateVar, Step, StructDef,
};
use std::fmt::Write;

/// The canonical Isu text of a program.
pub fn print(program: &Program) -> String {
    let mut p = Printer::default();
    p.program(program);
    p.out
}

/// The canonical Isu text of a program with the comments of its source, each
/// before the line it preceded (see [`crate::syntax::Layout`]). A comment
/// whose line is gone (a step a patch removed) is left out.
pub fn print_with(program: &Program, comments: &Comments) -> String {
    let mut p = Printer {
        comments: Some(comments),
        ..Printer::default()
    };
    p.program(program);
    p.out
}

/// The canonical text of one step with its header at `indent` spaces, as it
/// appears inside [`print`]'s output (lines end with a newline).
pub fn print_step(step: &Step, indent: usize) -> String {
    let mut p = Printer::default();
    p.step(step, indent);
    p.out
}

/// The canonical text of a patch file: each entry's head, and its steps as
/// [`print_step`] prints them (a step without an ID with its `KIND:` header)
/// or its entries as their section prints them.
pub fn print_patch(patch: &PatchFile) -> String {
    let mut p = Printer::default();
    p.out.push_str("PATCH:\n");
    for entry in &patch.entries {
        p.patch_entry(entry);
    }
    p.out
}

/// The one-line S-expression of an expression: `(add (var x) (const 1))`.
pub fn print_expr(expr: &Expr) -> String {
    let mut p = Printer::default();
    p.expr(expr);
    p.out
}

/// The canonical text of an ASSIGN `TARGET`: `total` or `(index m (var k))`.
pub fn print_place(place: &Place) -> String {
    let mut p = Printer::default();
    p.place(place);
    p.out
}

/// The canonical text of a LOOP `ITER`: `(range i (const 0) (var n))`.
pub fn print_iter(iter: &Iter) -> String {
    let mut p = Printer::default();
    p.iter(iter);
    p.out
}

#[derive(Default)]
struct Printer<'c> {
    out: String,
    comments: Option<&'c Comments>,
}

impl Printer<'_> {
    /// The comments before the line of `anchor`, at `indent`.
    fn comments(&mut self, anchor: Anchor, indent: usize) {
        let Some(comments) = self.comments else {
            return;
        };
        for line in comments.at(anchor) {
            self.indent(indent);
            self.out.push_str(line);
            self.out.push('\n');
        }
    }

    /// Whether comments stand before the `kw` field of `step` or its END.
    fn has_comments(&self, step: &Step, kw: Kw) -> bool {
        let (Some(comments), false) = (self.comments, step.span.is_synthetic()) else {
            return false;
        };
        let at = step.span.lo;
        !comments.at(Anchor::Field(at, kw)).is_empty()
            || !comments.at(Anchor::End(at, Some(kw))).is_empty()
    }

    /// The comments of a step's line, when the step comes from the source.
    fn step_comments(&mut self, step: &Step, anchor: impl Fn(u32) -> Anchor, indent: usize) {
        if !step.span.is_synthetic() {
            self.comments(anchor(step.span.lo), indent);
        }
    }

    fn indent(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(' ', n));
    }

    /// `indent` spaces, then `text`, with no newline.
    fn line_start(&mut self, n: usize, text: &str) {
        self.indent(n);
        self.out.push_str(text);
    }

    fn line(&mut self, n: usize, text: &str) {
        self.line_start(n, text);
        self.out.push('\n');
    }

    fn json_string(&mut self, s: &str) {
        // Writing into a String cannot fail.
        let _ = write_json_string(&mut self.out, s);
    }

    fn display(&mut self, value: impl std::fmt::Display) {
        let _ = write!(self.out, "{value}");
    }

    fn program(&mut self, program: &Program) {
        let meta = [
            Anchor::Section(Kw::Meta),
            Anchor::SectionField(Kw::Meta, Kw::AutoId),
        ];
        if program.auto_id {
            self.comments(meta[0], 0);
            self.line(0, "META:");
            self.comments(meta[1], 2);
            self.line(2, "AUTO_ID: true");
        } else {
            // META is not printed: its comments stay, before FUNC.
            for a in meta {
                self.comments(a, 0);
            }
        }
        self.comments(Anchor::Section(Kw::Func), 0);
        self.line(0, "FUNC:");
        self.comments(Anchor::SectionField(Kw::Func, Kw::Name), 2);
        self.line_start(2, "NAME: ");
        self.out.push_str(&program.func.name.name);
        self.out.push('\n');
        self.comments(Anchor::SectionField(Kw::Func, Kw::Args), 2);
        self.line_start(2, "ARGS: ");
        self.decls(&program.func.args);
        self.out.push('\n');
        self.comments(Anchor::SectionField(Kw::Func, Kw::Returns), 2);
        self.line_start(2, "RETURNS: ");
        self.display(&program.func.returns);
        self.out.push('\n');

        self.comments(Anchor::Section(Kw::Types), 0);
        if !program.types.is_empty() {
            self.out.push_str("TYPES: ");
            self.struct_defs(&program.types);
            self.out.push('\n');
        }

        self.comments(Anchor::Section(Kw::Io), 0);
        self.line(0, "IO:");
        self.comments(Anchor::SectionField(Kw::Io, Kw::Input), 2);
        self.line_start(2, "INPUT: ");
        self.literals(program.io.input.iter().map(|e| &e.value));
        self.out.push('\n');
        self.comments(Anchor::SectionField(Kw::Io, Kw::Output), 2);
        self.line_start(2, "OUTPUT: ");
        self.literals(program.io.output.iter().map(|e| &e.value));
        self.out.push('\n');

        self.comments(Anchor::Section(Kw::State), 0);
        self.out.push_str("STATE: ");
        self.state_vars(&program.state);
        self.out.push('\n');

        self.comments(Anchor::Section(Kw::Local), 0);
        self.out.push_str("LOCAL: ");
        self.decls(&program.locals);
        self.out.push('\n');

        self.comments(Anchor::Section(Kw::Steps), 0);
        self.line(0, "STEPS:");
        self.comments(Anchor::Root, 2);
        self.line(2, "SEQ: BEGIN");
        self.steps(&program.body, 4);
        self.comments(Anchor::RootEnd, 4);
        self.line(2, "END");
        self.comments(Anchor::FileEnd, 0);
    }

    fn struct_defs(&mut self, defs: &[StructDef]) {
        self.out.push('[');
        for (i, def) in defs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push_str(&def.name.name);
            self.out.push_str(" = {");
            for (j, field) in def.fields.iter().enumerate() {
                if j > 0 {
                    self.out.push_str(", ");
                }
                self.out.push_str(&field.name.name);
                self.out.push_str(": ");
                self.display(&field.ty);
            }
            self.out.push('}');
        }
        self.out.push(']');
    }

    fn state_vars(&mut self, vars: &[StateVar]) {
        self.out.push('[');
        for (i, var) in vars.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push_str(&var.name.name);
            self.out.push_str(": ");
            self.display(&var.ty);
            self.out.push_str(" = ");
            self.expr(&var.init);
        }
        self.out.push(']');
    }

    /// A patch entry: its head line, then its steps or its entries.
    fn patch_entry(&mut self, entry: &PatchEntry) {
        self.line_start(2, &entry.head());
        match &entry.items {
            PatchItems::None => self.out.push('\n'),
            PatchItems::Steps(steps) => {
                self.out.push_str(":\n");
                for step in steps {
                    self.step(step, 4);
                }
            }
            PatchItems::State(vars) => {
                self.out.push_str(": ");
                self.state_vars(vars);
                self.out.push('\n');
            }
            PatchItems::Local(decls) => {
                self.out.push_str(": ");
                self.decls(decls);
                self.out.push('\n');
            }
            PatchItems::Types(defs) => {
                self.out.push_str(": ");
                self.struct_defs(defs);
                self.out.push('\n');
            }
        }
    }

    fn decls(&mut self, decls: &[Decl]) {
        self.out.push('[');
        for (i, decl) in decls.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push_str(&decl.name.name);
            self.out.push_str(": ");
            self.display(&decl.ty);
        }
        self.out.push(']');
    }

    fn literals<'a>(&mut self, values: impl Iterator<Item = &'a isu_plugin_api::Literal>) {
        self.out.push('[');
        for (i, value) in values.enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.display(value);
        }
        self.out.push(']');
    }

    fn steps(&mut self, block: &Block, indent: usize) {
        for step in &block.steps {
            self.step(step, indent);
        }
    }

    /// The header: `S1: KIND "desc"` (no newline), or `KIND:` without an ID.
    fn header(&mut self, step: &Step, indent: usize) {
        self.indent(indent);
        let keyword = step.node.keyword();
        match &step.id {
            Some(id) => {
                self.out.push_str(id.as_str());
                self.out.push_str(": ");
                self.out.push_str(keyword);
                if let Some(desc) = &step.desc {
                    self.out.push(' ');
                    self.json_string(desc);
                }
            }
            None => {
                self.out.push_str(keyword);
                self.out.push(':');
            }
        }
    }

    fn step(&mut self, step: &Step, indent: usize) {
        self.step_comments(step, Anchor::Step, indent);
        self.header(step, indent);
        let field = indent + 2;
        match &step.node {
            Node::Seq { block } => {
                self.out.push_str(" BEGIN\n");
                self.steps(block, field);
                self.step_comments(step, |at| Anchor::End(at, None), field);
                self.line(indent, "END");
            }
            Node::Assign { target, expr } => {
                self.out.push('\n');
                self.step_comments(step, |at| Anchor::Field(at, Kw::Target), field);
                self.line_start(field, "TARGET: ");
                self.place(target);
                self.out.push('\n');
                self.expr_field(step, field, Kw::Expr, expr);
            }
            Node::If {
                cond,
                then_block,
                else_block,
            } => {
                self.out.push('\n');
                self.expr_field(step, field, Kw::Cond, cond);
                self.block_field(step, field, Kw::Then, then_block);
                // An empty ELSE is left out, unless comments stand in it.
                if !else_block.steps.is_empty() || self.has_comments(step, Kw::Else) {
                    self.block_field(step, field, Kw::Else, else_block);
                }
            }
            Node::Loop { iter, body } => {
                self.out.push('\n');
                self.step_comments(step, |at| Anchor::Field(at, Kw::Iter), field);
                self.line_start(field, "ITER: ");
                self.iter(iter);
                self.out.push('\n');
                self.block_field(step, field, Kw::Body, body);
            }
            Node::Return { expr } => {
                self.out.push('\n');
                self.expr_field(step, field, Kw::Expr, expr);
            }
            Node::Break | Node::Continue => self.out.push('\n'),
        }
    }

    /// `COND: (...)`, with its comments.
    fn expr_field(&mut self, step: &Step, indent: usize, kw: Kw, expr: &Expr) {
        self.step_comments(step, |at| Anchor::Field(at, kw), indent);
        self.indent(indent);
        self.out.push_str(kw.as_str());
        self.out.push_str(": ");
        self.expr(expr);
        self.out.push('\n');
    }

    /// `THEN: BEGIN`, its steps and `END`, with their comments.
    fn block_field(&mut self, step: &Step, indent: usize, kw: Kw, block: &Block) {
        self.step_comments(step, |at| Anchor::Field(at, kw), indent);
        self.indent(indent);
        self.out.push_str(kw.as_str());
        self.out.push_str(": BEGIN\n");
        self.steps(block, indent + 2);
        self.step_comments(step, |at| Anchor::End(at, Some(kw)), indent + 2);
        self.line(indent, "END");
    }

    /// The operands of a left-nested chain of `op` (`add`, `mul`), each
    /// after a space but the first: `(add (add a b) c)` is `(add a b c)`.
    fn left_chain(&mut self, op: BinaryOp, e: &Expr) {
        match &e.node {
            ExprNode::Binary {
                op: inner,
                lhs,
                rhs,
            } if *inner == op => {
                self.left_chain(op, lhs);
                self.out.push(' ');
                self.expr(rhs);
            }
            _ => self.expr(e),
        }
    }

    fn place(&mut self, place: &Place) {
        match place {
            Place::Var { name, .. } => self.out.push_str(name),
            Place::Index { base, index, .. } => {
                self.out.push_str("(index ");
                self.place(base);
                self.out.push(' ');
                self.expr(index);
                self.out.push(')');
            }
            Place::Field { base, field, .. } => {
                self.out.push_str("(field ");
                self.place(base);
                self.out.push(' ');
                self.out.push_str(&field.name);
                self.out.push(')');
            }
        }
    }

    fn iter(&mut self, iter: &Iter) {
        match iter {
            Iter::Range {
                var,
                start,
                end,
                step,
                ..
            } => {
                self.out.push_str("(range ");
                self.out.push_str(&var.name);
                self.out.push(' ');
                self.expr(start);
                self.out.push(' ');
                self.expr(end);
                if let Some(step) = step {
                    self.out.push(' ');
                    self.expr(step);
                }
                self.out.push(')');
            }
            Iter::Each { var, seq, .. } => {
                self.out.push_str("(each ");
                self.out.push_str(&var.name);
                self.out.push(' ');
                self.expr(seq);
                self.out.push(')');
            }
            Iter::While { cond, .. } => {
                self.out.push_str("(while ");
                self.expr(cond);
                self.out.push(')');
            }
        }
    }

    fn expr(&mut self, expr: &Expr) {
        match &expr.node {
            ExprNode::Const { value } => {
                self.out.push_str("(const ");
                self.display(value);
                self.out.push(')');
            }
            ExprNode::Var { name } => {
                self.out.push_str("(var ");
                self.out.push_str(name);
                self.out.push(')');
            }
            ExprNode::Unary { op, arg } => {
                self.out.push('(');
                self.out.push_str(op.name());
                self.out.push(' ');
                self.expr(arg);
                self.out.push(')');
            }
            ExprNode::Binary { op, lhs, rhs } => {
                self.out.push('(');
                self.out.push_str(op.name());
                self.out.push(' ');
                if matches!(op, BinaryOp::Add | BinaryOp::Mul) {
                    self.left_chain(*op, lhs);
                    self.out.push(' ');
                    self.expr(rhs);
                    self.out.push(')');
                    return;
                }
                self.expr(lhs);
                // `and` and `or` take their right-nested chains as more
                // operands: `(and a (and b c))` is `(and a b c)`.
                let mut rest = rhs;
                while let ExprNode::Binary {
                    op: inner,
                    lhs,
                    rhs,
                } = &rest.node
                {
                    if *inner != *op || !matches!(op, BinaryOp::And | BinaryOp::Or) {
                        break;
                    }
                    self.out.push(' ');
                    self.expr(lhs);
                    rest = rhs;
                }
                self.out.push(' ');
                self.expr(rest);
                self.out.push(')');
            }
            ExprNode::Index { base, index } => {
                self.out.push_str("(index ");
                self.expr(base);
                self.out.push(' ');
                self.expr(index);
                self.out.push(')');
            }
            ExprNode::Call { func, args } => {
                self.out.push_str("(call ");
                self.out.push_str(func);
                for arg in args {
                    self.out.push(' ');
                    self.expr(arg);
                }
                self.out.push(')');
            }
            ExprNode::Struct { name, fields } => {
                self.out.push_str("(struct ");
                self.out.push_str(name);
                for f in fields {
                    self.out.push_str(" (");
                    self.out.push_str(&f.name.name);
                    self.out.push(' ');
                    self.expr(&f.value);
                    self.out.push(')');
                }
                self.out.push(')');
            }
            ExprNode::List { items } => {
                self.out.push_str("(list");
                for item in items {
                    self.out.push(' ');
                    self.expr(item);
                }
                self.out.push(')');
            }
            ExprNode::If {
                cond,
                then_expr,
                else_expr,
            } => {
                self.out.push_str("(if ");
                self.expr(cond);
                self.out.push(' ');
                self.expr(then_expr);
                self.out.push(' ');
                self.expr(else_expr);
                self.out.push(')');
            }
            ExprNode::Field { base, field } => {
                self.out.push_str("(field ");
                self.expr(base);
                self.out.push(' ');
                self.out.push_str(&field.name);
                self.out.push(')');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::testing::*;
    use isu_plugin_api::{BinaryOp, Example, Literal, Span, StateVar, Type, UnaryOp};
    use std::collections::BTreeMap;

    fn lit(value: Literal) -> Expr {
        Expr::new(ExprNode::Const { value }, Span::default())
    }

    fn example(value: Literal) -> Example {
        Example {
            value,
            span: Span::default(),
        }
    }

    fn obj(entries: &[(&str, Literal)]) -> Literal {
        Literal::Object(
            entries
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        )
    }

    fn described(mut s: Step, desc: &str) -> Step {
        s.desc = Some(desc.into());
        s
    }

    /// `examples/sum_evens.isu`, built by hand.
    fn sum_evens() -> Program {
        let mut p = program(
            true,
            vec![
                described(
                    step(
                        "S1",
                        each(
                            "x",
                            var("xs"),
                            vec![step(
                                "S1_1",
                                if_(
                                    binary(
                                        BinaryOp::Eq,
                                        binary(BinaryOp::Mod, var("x"), int(2)),
                                        int(0),
                                    ),
                                    vec![step(
                                        "S1_1_1",
                                        assign(
                                            "total",
                                            binary(BinaryOp::Add, var("total"), var("x")),
                                        ),
                                    )],
                                    Vec::new(),
                                ),
                            )],
                        ),
                    ),
                    "add up the even elements",
                ),
                step("S2", ret(var("total"))),
            ],
        );
        p.func.name = ident("sum_evens");
        p.func.args = vec![decl("xs", Type::array(Type::Int))];
        let xs = |items: &[i64]| {
            obj(&[(
                "xs",
                Literal::Array(items.iter().map(|&i| Literal::Int(i)).collect()),
            )])
        };
        p.io.input = vec![example(xs(&[1, 2, 3, 4])), example(xs(&[]))];
        p.io.output = vec![example(Literal::Int(6)), example(Literal::Int(0))];
        p.state = vec![StateVar {
            name: ident("total"),
            ty: Type::Int,
            init: int(0),
            span: Span::default(),
        }];
        p
    }

    #[test]
    fn prints_the_golden_example_byte_for_byte() {
        let golden = include_str!("../../../examples/sum_evens.isu");
        assert_eq!(print(&sum_evens()), golden);
    }

    #[test]
    fn prints_every_form() {
        let index_place = Place::Index {
            base: Box::new(Place::Index {
                base: Box::new(Place::Var {
                    name: "m".into(),
                    span: Span::default(),
                }),
                index: var("i"),
                span: Span::default(),
            }),
            index: lit(Literal::Str("k".into())),
            span: Span::default(),
        };
        let call = |func: &str, args: Vec<Expr>| {
            Expr::new(
                ExprNode::Call {
                    func: func.into(),
                    args,
                },
                Span::default(),
            )
        };
        let unary = |op, arg| {
            Expr::new(
                ExprNode::Unary {
                    op,
                    arg: Box::new(arg),
                },
                Span::default(),
            )
        };
        let index = Expr::new(
            ExprNode::Index {
                base: Box::new(var("xs")),
                index: Box::new(unary(UnaryOp::Neg, int(-1))),
            },
            Span::default(),
        );
        let range = |step: Option<Expr>, body| Node::Loop {
            iter: Iter::Range {
                var: ident("i"),
                start: int(0),
                end: call("LEN", vec![var("xs")]),
                step,
                span: Span::default(),
            },
            body: block(body),
        };
        let mut p = program(
            false,
            vec![
                described(step("S1", seq(Vec::new())), "empty \"block\"\n"),
                step(
                    "S2",
                    seq(vec![
                        step(
                            "S2_1",
                            Node::Assign {
                                target: index_place,
                                expr: index,
                            },
                        ),
                        described(
                            step(
                                "S2_2",
                                seq(vec![step("S2_2_1", ret(call("math.GCD", Vec::new())))]),
                            ),
                            "ü",
                        ),
                    ]),
                ),
                step(
                    "S3",
                    range(None, vec![step("S3_1", range(Some(int(-2)), Vec::new()))]),
                ),
                step(
                    "S4",
                    Node::Loop {
                        iter: Iter::While {
                            cond: unary(UnaryOp::Not, lit(Literal::Bool(false))),
                            span: Span::default(),
                        },
                        body: block(Vec::new()),
                    },
                ),
                step(
                    "S5",
                    ret(lit(Literal::Array(vec![
                        obj(&[
                            ("b", Literal::Array(Vec::new())),
                            ("a", Literal::Object(BTreeMap::new())),
                        ]),
                        Literal::Str("tab\there \u{1}".into()),
                        Literal::Int(i64::MIN),
                    ]))),
                ),
            ],
        );
        p.func.args = Vec::new();
        p.locals = vec![
            decl("i", Type::Int),
            decl(
                "m",
                Type::map(Type::Int, Type::map(Type::String, Type::Bool)),
            ),
        ];
        p.io.input = vec![example(obj(&[]))];
        p.io.output = vec![example(Literal::Bool(true))];
        let expected = r#"FUNC:
  NAME: f
  ARGS: []
  RETURNS: int
IO:
  INPUT: [{}]
  OUTPUT: [true]
STATE: []
LOCAL: [i: int, m: map<int,map<string,bool>>]
STEPS:
  SEQ: BEGIN
    S1: SEQ "empty \"block\"\n" BEGIN
    END
    S2: SEQ BEGIN
      S2_1: ASSIGN
        TARGET: (index (index m (var i)) (const "k"))
        EXPR: (index (var xs) (neg (const -1)))
      S2_2: SEQ "ü" BEGIN
        S2_2_1: RETURN
          EXPR: (call math.GCD)
      END
    END
    S3: LOOP
      ITER: (range i (const 0) (call LEN (var xs)))
      BODY: BEGIN
        S3_1: LOOP
          ITER: (range i (const 0) (call LEN (var xs)) (const -2))
          BODY: BEGIN
          END
      END
    S4: LOOP
      ITER: (while (not (const false)))
      BODY: BEGIN
      END
    S5: RETURN
      EXPR: (const [{"a": {}, "b": []}, "tab\there \u0001", -9223372036854775808])
  END
"#;
        assert_eq!(print(&p), expected);
    }

    #[test]
    fn steps_without_an_id_print_the_source_header() {
        let p = program(true, vec![step("", seq(vec![step("", ret(var("x")))]))]);
        assert!(print(&p).ends_with(
            "  SEQ: BEGIN\n    SEQ: BEGIN\n      RETURN:\n        EXPR: (var x)\n    END\n  END\n"
        ));
    }

    #[test]
    fn pieces_print_as_inside_the_program() {
        let s = step("S2", assign("x", binary(BinaryOp::Sub, var("x"), int(1))));
        assert_eq!(
            print_step(&s, 4),
            "    S2: ASSIGN\n      TARGET: x\n      EXPR: (sub (var x) (const 1))\n"
        );
        assert_eq!(print_expr(&int(3)), "(const 3)");
        let Node::Assign { target, .. } = &s.node else {
            unreachable!()
        };
        assert_eq!(print_place(target), "x");
        let iter = Iter::Each {
            var: ident("x"),
            seq: var("xs"),
            span: Span::default(),
        };
        assert_eq!(print_iter(&iter), "(each x (var xs))");
    }

    #[test]
    fn prints_ten_megabytes_in_linear_time() {
        // 100k steps of about 100 bytes each, plus a long literal.
        let big = Literal::Array((0..20_000).map(Literal::Int).collect());
        let mut steps: Vec<Step> = (0..100_000)
            .map(|i| {
                step(
                    &format!("S{}", i + 1),
                    if_(
                        var("n"),
                        vec![step(&format!("S{}_1", i + 1), assign("x", int(i)))],
                        Vec::new(),
                    ),
                )
            })
            .collect();
        steps.push(step("S100001", ret(lit(big))));
        let p = program(false, steps);
        let start = std::time::Instant::now();
        let text = print(&p);
        let took = start.elapsed();
        assert!(text.len() > 10_000_000, "{}", text.len());
        // Generous even for an unoptimized build on a slow machine; a quadratic
        // printer takes minutes here.
        assert!(took.as_secs() < 10, "printing took {took:?}");
    }
}
