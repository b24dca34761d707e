//! Programs built in Rust for the validator's tests.
//!
//! Expressions are written as Isu S-expressions and read by a small reader
//! here; every piece of text (expressions, declarations, step headers, IO
//! values) is appended to one virtual source, so that spans are real and a test
//! can ask which text a diagnostic points at.

use crate::diag::Diagnostic;
use crate::functions::Functions;
use crate::validate::validate_with;
use isu_lang::visit::{self, Visit};
use isu_plugin_api::{
    BinaryOp, Block, Decl, Example, Expr, ExprNode, Func, Ident, Io, Iter, Literal, Node, Place,
    Program, Span, StateVar, Step, StepId, Type, UnaryOp, IIR_FORMAT,
};
use std::cell::RefCell;

/// A program under construction and the virtual source its spans point into.
pub(super) struct Prog {
    text: RefCell<String>,
    returns: Type,
    name: String,
    args: Vec<Decl>,
    state: Vec<StateVar>,
    locals: Vec<Decl>,
    input: Vec<Example>,
    output: Vec<Example>,
    io_span: Span,
}

/// The validated program, its diagnostics, and the virtual source.
pub(super) struct Checked {
    pub program: Program,
    pub diags: Vec<Diagnostic>,
    text: String,
}

impl Checked {
    /// The codes of the diagnostics, in order.
    pub fn codes(&self) -> Vec<&'static str> {
        self.diags.iter().map(|d| d.code.as_str()).collect()
    }

    /// The only diagnostic; fails the test when there are none or several.
    pub fn one(&self) -> &Diagnostic {
        assert_eq!(
            self.diags.len(),
            1,
            "expected one diagnostic, got {:#?}",
            self.diags
        );
        &self.diags[0]
    }

    /// The source text a diagnostic points at.
    pub fn at(&self, d: &Diagnostic) -> &str {
        d.span
            .and_then(|s| self.text.get(s.start as usize..s.end as usize))
            .unwrap_or("<no span>")
    }

    /// The texts of the diagnostics' labels.
    pub fn labels(&self, d: &Diagnostic) -> Vec<&str> {
        d.labels
            .iter()
            .map(|l| {
                self.text
                    .get(l.span.start as usize..l.span.end as usize)
                    .unwrap_or("")
            })
            .collect()
    }

    /// Fails unless there is no diagnostic at all,
    /// and every expression of the program has its type (what backends need).
    pub fn assert_clean(&self) {
        assert!(
            self.diags.is_empty(),
            "unexpected diagnostics: {:#?}",
            self.diags
        );
        let mut untyped = Untyped(Vec::new());
        untyped.visit_program(&self.program);
        assert!(
            untyped.0.is_empty(),
            "a clean program with untyped expressions: {:?}",
            untyped.0
        );
    }
}

/// The expressions without a type, as text.
struct Untyped(Vec<String>);

impl Visit<'_> for Untyped {
    fn visit_expr(&mut self, e: &Expr) {
        if e.ty.is_none() {
            self.0.push(crate::validate::text::expr(e));
        }
        visit::walk_expr(self, e);
    }
}

impl Prog {
    /// A function `f` returning `returns` (canonical type text).
    pub fn new(returns: &str) -> Prog {
        Prog {
            text: RefCell::new(String::new()),
            returns: ty(returns),
            name: "f".into(),
            args: Vec::new(),
            state: Vec::new(),
            locals: Vec::new(),
            input: Vec::new(),
            output: Vec::new(),
            io_span: Span::default(),
        }
    }

    pub fn name(mut self, name: &str) -> Prog {
        self.name = name.into();
        self
    }

    /// Appends `s` on a line of its own; returns the span of it.
    fn put(&self, s: &str) -> Span {
        let mut text = self.text.borrow_mut();
        let lo = text.len() as u32;
        let line = text.matches('\n').count() as u32 + 1;
        text.push_str(s);
        text.push('\n');
        Span {
            lo,
            hi: lo + s.len() as u32,
            line,
            col: 1,
        }
    }

    fn decl(&self, name: &str, t: &str) -> Decl {
        let span = self.put(&format!("{name}: {t}"));
        Decl {
            name: Ident {
                name: name.into(),
                span: Span {
                    hi: span.lo + name.len() as u32,
                    ..span
                },
            },
            ty: ty(t),
            span,
        }
    }

    pub fn arg(mut self, name: &str, t: &str) -> Prog {
        let d = self.decl(name, t);
        self.args.push(d);
        self
    }

    pub fn local(mut self, name: &str, t: &str) -> Prog {
        let d = self.decl(name, t);
        self.locals.push(d);
        self
    }

    pub fn state(mut self, name: &str, t: &str, init: &str) -> Prog {
        let d = self.decl(name, t);
        let init = self.expr(init);
        self.state.push(StateVar {
            name: d.name,
            ty: d.ty,
            init,
            span: d.span,
        });
        self
    }

    /// IO examples as JSON arrays: `INPUT` objects and `OUTPUT` values.
    pub fn io(mut self, input: &str, output: &str) -> Prog {
        let start = self.put("IO:");
        let examples = |json: &str| -> Vec<Example> {
            let items: Vec<Literal> = serde_json::from_str(json).unwrap_or_default();
            items
                .into_iter()
                .map(|value| Example {
                    span: self.put(&value.to_string()),
                    value,
                })
                .collect()
        };
        let (input, output) = (examples(input), examples(output));
        self.input = input;
        self.output = output;
        let end = self.put("END IO");
        self.io_span = start.to(end);
        self
    }

    /// An expression read from Isu S-expression text.
    pub fn expr(&self, s: &str) -> Expr {
        let span = self.put(s);
        let mut r = Reader {
            src: s,
            pos: 0,
            base: span,
        };
        r.expr()
    }

    fn step(&self, keyword: &str, node: Node) -> Step {
        Step {
            id: None,
            desc: None,
            span: self.put(keyword),
            node,
        }
    }

    pub fn assign(&self, target: &str, value: &str) -> Step {
        let target = self.place(target);
        let expr = self.expr(value);
        self.step("ASSIGN", Node::Assign { target, expr })
    }

    pub fn ret(&self, value: &str) -> Step {
        let expr = self.expr(value);
        self.step("RETURN", Node::Return { expr })
    }

    pub fn if_(&self, cond: &str, then_steps: Vec<Step>, else_steps: Vec<Step>) -> Step {
        let cond = self.expr(cond);
        let then_block = self.block(then_steps);
        let else_block = self.block(else_steps);
        self.step(
            "IF",
            Node::If {
                cond,
                then_block,
                else_block,
            },
        )
    }

    pub fn seq(&self, steps: Vec<Step>) -> Step {
        let block = self.block(steps);
        self.step("SEQ", Node::Seq { block })
    }

    /// `(range var start end [step])`.
    pub fn range(
        &self,
        var: &str,
        start: &str,
        end: &str,
        step: Option<&str>,
        body: Vec<Step>,
    ) -> Step {
        let var = self.ident(var);
        let (start, end) = (self.expr(start), self.expr(end));
        let step = step.map(|s| self.expr(s));
        let span = var.span;
        let iter = Iter::Range {
            var,
            start,
            end,
            step,
            span,
        };
        self.loop_(iter, body)
    }

    pub fn each(&self, var: &str, seq: &str, body: Vec<Step>) -> Step {
        let var = self.ident(var);
        let seq = self.expr(seq);
        let span = var.span;
        self.loop_(Iter::Each { var, seq, span }, body)
    }

    pub fn while_(&self, cond: &str, body: Vec<Step>) -> Step {
        let cond = self.expr(cond);
        let span = cond.span;
        self.loop_(Iter::While { cond, span }, body)
    }

    fn loop_(&self, iter: Iter, body: Vec<Step>) -> Step {
        let body = self.block(body);
        self.step("LOOP", Node::Loop { iter, body })
    }

    fn ident(&self, name: &str) -> Ident {
        Ident {
            name: name.into(),
            span: self.put(name),
        }
    }

    fn block(&self, steps: Vec<Step>) -> Block {
        let span = self.put("BLOCK");
        Block { steps, span }
    }

    /// A TARGET: `name` or `(index PLACE EXPR)`.
    fn place(&self, s: &str) -> Place {
        if !s.starts_with('(') {
            return Place::Var {
                name: s.into(),
                span: self.put(s),
            };
        }
        fn to_place(e: Expr) -> Place {
            match e.node {
                // The name inside `(var name)`.
                ExprNode::Var { name } => Place::Var {
                    span: Span {
                        lo: e.span.lo + 5,
                        hi: e.span.hi - 1,
                        col: e.span.col + 5,
                        ..e.span
                    },
                    name,
                },
                ExprNode::Index { base, index } => Place::Index {
                    base: Box::new(to_place(*base)),
                    index: *index,
                    span: e.span,
                },
                other => panic!("not a place: {other:?}"),
            }
        }
        // A bare name inside an index place reads as (var name).
        let e = self.expr(&bare_names_as_vars(s));
        to_place(e)
    }

    /// Numbers the steps canonically, validates, and returns the result.
    pub fn check(self, steps: Vec<Step>) -> Checked {
        self.check_with(steps, &Functions::default())
    }

    /// [`Prog::check`] where calls may name the functions of `functions`.
    pub fn check_with(self, steps: Vec<Step>, functions: &Functions) -> Checked {
        let mut body = self.block(steps);
        number([&mut body], &[]);
        let mut program = Program {
            types: Vec::new(),
            format: IIR_FORMAT.into(),
            auto_id: false,
            func: Func {
                name: Ident {
                    name: self.name.clone(),
                    span: Span::default(),
                },
                args: self.args,
                returns: self.returns,
                span: Span::default(),
            },
            io: Io {
                input: self.input,
                output: self.output,
                span: self.io_span,
            },
            state: self.state,
            locals: self.locals,
            body,
        };
        let diags = validate_with(&mut program, functions);
        Checked {
            program,
            diags,
            text: self.text.into_inner(),
        }
    }
}

/// `(index m k)` as written in a TARGET is `(index (var m) k)` as an expression.
fn bare_names_as_vars(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("(index ") {
        out.push_str(&rest[..i + 7]);
        rest = &rest[i + 7..];
        if !rest.starts_with('(') {
            let end = rest.find([' ', ')']).unwrap_or(rest.len());
            out.push_str(&format!("(var {})", &rest[..end]));
            rest = &rest[end..];
        }
    }
    out.push_str(rest);
    out
}

/// Numbers the steps of `blocks`, the blocks of one parent at `prefix`, canonically.
fn number<'a>(blocks: impl IntoIterator<Item = &'a mut Block>, prefix: &[u32]) {
    let mut n = 0;
    for b in blocks {
        for s in &mut b.steps {
            n += 1;
            let mut path = prefix.to_vec();
            path.push(n);
            s.id = Some(StepId::from_path(&path));
            number(s.node.blocks_mut(), &path);
        }
    }
}

/// A type from its canonical text.
pub(super) fn ty(s: &str) -> Type {
    let s = s.trim();
    if let Some(elem) = s.strip_suffix("[]") {
        return Type::array(ty(elem));
    }
    if let Some(inner) = s.strip_prefix("map<").and_then(|r| r.strip_suffix('>')) {
        // Split at the comma outside any nested <...>.
        let mut depth = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                ',' if depth == 0 => return Type::map(ty(&inner[..i]), ty(&inner[i + 1..])),
                _ => {}
            }
        }
    }
    match s {
        "int" => Type::Int,
        "bool" => Type::Bool,
        "string" => Type::String,
        other => panic!("not a type: {other}"),
    }
}

/// Reads one S-expression, with spans offset into the virtual source.
struct Reader<'a> {
    src: &'a str,
    pos: usize,
    base: Span,
}

impl Reader<'_> {
    fn span(&self, lo: usize, hi: usize) -> Span {
        Span {
            lo: self.base.lo + lo as u32,
            hi: self.base.lo + hi as u32,
            line: self.base.line,
            col: lo as u32 + 1,
        }
    }

    fn skip_ws(&mut self) {
        while self.src[self.pos..].starts_with(' ') {
            self.pos += 1;
        }
    }

    fn word(&mut self) -> &str {
        self.skip_ws();
        let start = self.pos;
        let len = self.src[start..]
            .find([' ', ')'])
            .unwrap_or(self.src.len() - start);
        self.pos += len;
        &self.src[start..start + len]
    }

    fn expect(&mut self, c: char) {
        self.skip_ws();
        assert!(
            self.src[self.pos..].starts_with(c),
            "expected {c} at {} in {}",
            self.pos,
            self.src
        );
        self.pos += 1;
    }

    fn expr(&mut self) -> Expr {
        self.skip_ws();
        let lo = self.pos;
        self.expect('(');
        let head = self.word().to_owned();
        let node = match head.as_str() {
            "const" => {
                self.skip_ws();
                let json = self.json_text();
                let value: Literal =
                    serde_json::from_str(json).unwrap_or_else(|e| panic!("bad JSON {json}: {e}"));
                ExprNode::Const { value }
            }
            "var" => ExprNode::Var {
                name: self.word().to_owned(),
            },
            "neg" | "not" => {
                let op = if head == "neg" {
                    UnaryOp::Neg
                } else {
                    UnaryOp::Not
                };
                ExprNode::Unary {
                    op,
                    arg: Box::new(self.expr()),
                }
            }
            "index" => {
                let base = Box::new(self.expr());
                let index = Box::new(self.expr());
                ExprNode::Index { base, index }
            }
            "call" => {
                let func = self.word().to_owned();
                let mut args = Vec::new();
                loop {
                    self.skip_ws();
                    if self.src[self.pos..].starts_with(')') {
                        break;
                    }
                    args.push(self.expr());
                }
                ExprNode::Call { func, args }
            }
            op => {
                let op = BinaryOp::ALL
                    .into_iter()
                    .find(|o| o.name() == op)
                    .unwrap_or_else(|| panic!("unknown operator {op}"));
                let lhs = Box::new(self.expr());
                let rhs = Box::new(self.expr());
                ExprNode::Binary { op, lhs, rhs }
            }
        };
        self.expect(')');
        Expr::new(node, self.span(lo, self.pos))
    }

    /// The JSON text of a `const`, up to its closing parenthesis.
    fn json_text(&mut self) -> &str {
        let start = self.pos;
        let (mut depth, mut in_str, mut escaped) = (0i32, false, false);
        for (i, c) in self.src[start..].char_indices() {
            if in_str {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => in_str = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '"' => in_str = true,
                '[' | '{' => depth += 1,
                ']' | '}' => depth -= 1,
                ')' if depth == 0 => {
                    self.pos = start + i;
                    return self.src[start..start + i].trim_end();
                }
                _ => {}
            }
        }
        panic!("unterminated const in {}", self.src)
    }
}
