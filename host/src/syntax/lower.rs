//! Lowering: generic S-expressions to expressions, places and iterators, JSON
//! values to literals, written types to types, each with a diagnostic that
//! says what to write instead.

use super::cst::{Json, JsonNode, Name, SExpr, Type as RawType};
use super::rewrite::{self, Rewrite};
use super::vocab::{
    self, literal_meant, operator_alias, symbol_operator, type_meant, TypeMeant, OPERATORS,
    OPERATOR_NAMES,
};
use crate::diag::{Code, Diagnostic, Fix};
use crate::validate::suggest;
use isu_plugin_api::{
    BinaryOp, Expr, ExprNode, FieldInit, Ident, Iter, Literal, Place, Span, StepId, Type, UnaryOp,
};
use std::collections::BTreeMap;

/// Where lowering happens: the text (for quoting it back), the step the
/// expressions belong to, and the diagnostics so far.
#[derive(Debug)]
pub struct Lower<'a> {
    pub text: &'a str,
    pub step: Option<StepId>,
    pub diags: &'a mut Vec<Diagnostic>,
    /// The struct names the program's `TYPES` declares.
    pub structs: &'a [String],
}

impl Lower<'_> {
    fn report(&mut self, code: Code, span: Span, message: String, hint: Option<String>) {
        let mut d = Diagnostic::error(code, message)
            .at(span)
            .in_step(self.step.as_ref());
        d.hint = hint;
        self.diags.push(d);
    }

    /// Reports with the hint `{lead}write REWRITE` and the fix that writes it;
    /// `lead` alone when there is no rewrite.
    fn report_rewrite(
        &mut self,
        code: Code,
        span: Span,
        message: String,
        lead: &str,
        rw: Option<Rewrite>,
    ) {
        let d = self.rewritten(code, span, message, lead, rw);
        self.diags.push(d);
    }

    /// The diagnostic of [`Lower::report_rewrite`].
    fn rewritten(
        &self,
        code: Code,
        span: Span,
        message: String,
        lead: &str,
        rw: Option<Rewrite>,
    ) -> Diagnostic {
        let (hint, fix) = match rw {
            Some(rw) => {
                let fix = Fix::replace(span, rw.text.clone());
                (
                    format!("{lead}write {}", rw.text),
                    Some(if rw.certain {
                        fix
                    } else {
                        fix.maybe_incorrect()
                    }),
                )
            }
            None => (lead.trim_end_matches([':', ' ', ';']).to_owned(), None),
        };
        let mut d = Diagnostic::error(code, message)
            .at(span)
            .in_step(self.step.as_ref());
        if !hint.is_empty() {
            d.hint = Some(hint);
        }
        d.fix = fix;
        d
    }

    fn rewrite(&self, s: &SExpr) -> Option<Rewrite> {
        rewrite::expr(s, self.text)
    }

    /// The source text of `span` on one line, cut when long.
    fn snippet(&self, span: Span) -> String {
        let raw = self
            .text
            .get(span.lo as usize..span.hi as usize)
            .unwrap_or("");
        let one_line: String = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        super::token::shorten(&one_line, 60)
    }

    // ---- Expressions ---------------------------------------------------------

    /// An expression; `None` after reporting why it is not one.
    pub fn expr(&mut self, s: SExpr) -> Option<Expr> {
        match s {
            SExpr::Name(ref n) => {
                let rw = self.rewrite(&s);
                let text = n.text.as_str();
                if OPERATOR_NAMES.contains(&text) {
                    self.report(
                        Code::InvalidExpression,
                        n.span,
                        format!("`{text}` alone is not an expression: an operation is written in parentheses"),
                        Some(format!("write ({text} ...)")),
                    );
                } else if let Some(lit) = literal_meant(text) {
                    self.not_a_literal(text, lit, n.span, rw);
                } else {
                    self.report_rewrite(
                        Code::InvalidExpression,
                        n.span,
                        format!("a bare name is not an expression: write (var {text}) to read the variable"),
                        "",
                        rw,
                    );
                }
                None
            }
            SExpr::Json(j) => {
                let text = self.snippet(j.span);
                if matches!(j.node, JsonNode::Null) {
                    let _ = self.literal(j);
                    return None;
                }
                self.report_rewrite(
                    Code::InvalidExpression,
                    j.span,
                    format!(
                        "a bare {text} is not an expression: write (const {text}) for a constant"
                    ),
                    "",
                    Some(Rewrite {
                        text: format!(
                            "(const {})",
                            self.text
                                .get(j.span.lo as usize..j.span.hi as usize)
                                .unwrap_or(&text)
                        ),
                        certain: true,
                    }),
                );
                None
            }
            SExpr::StepLike(n) => {
                self.step_like(&n);
                None
            }
            SExpr::Sym(n) => {
                let hint = symbol_operator(&n.text)
                    .map(|(op, _)| format!("`{}` is written ({op} ...)", n.text));
                self.report(
                    Code::InvalidExpression,
                    n.span,
                    format!(
                        "`{}` is not an expression: Isu has no infix operators",
                        n.text
                    ),
                    hint,
                );
                None
            }
            SExpr::Subscript(_, _, span) => {
                let rw = self.rewrite(&s);
                let shown = self.snippet(span);
                self.report_rewrite(
                    Code::InvalidExpression,
                    span,
                    format!("`{shown}` is not Isu: an element is written (index ARRAY INDEX)"),
                    "",
                    rw,
                );
                None
            }
            SExpr::Seq(ref items, span) => {
                let rw = self.rewrite(&s);
                let shown = self.snippet(span);
                let infix = items.iter().any(|i| matches!(i, SExpr::Sym(_)));
                let (message, lead) = if infix {
                    (
                        format!("`{shown}` is infix notation: Isu writes every operation as a prefix S-expression (OPERATOR operands...)"),
                        "Isu has no infix operators: ",
                    )
                } else if rw.is_some() {
                    (
                        format!("`{shown}` is not Isu: a function is called as (call FN args...)"),
                        "",
                    )
                } else {
                    (
                        format!("expected one expression, found several: `{shown}`"),
                        "combine them with an operator, such as (add A B); ",
                    )
                };
                self.report_rewrite(Code::InvalidExpression, span, message, lead, rw);
                None
            }
            SExpr::List(items, span) => self.list_expr(items, span),
        }
    }

    /// `True`, `False`, `None` where an expression stands.
    fn not_a_literal(&mut self, text: &str, lit: Option<&str>, span: Span, rw: Option<Rewrite>) {
        match lit {
            Some(lit) => self.report_rewrite(
                Code::InvalidExpression,
                span,
                format!(
                    "`{text}` is not an Isu value: the booleans are (const true) and (const false)"
                ),
                "",
                rw.or(Some(Rewrite {
                    text: format!("(const {lit})"),
                    certain: true,
                })),
            ),
            None => self.report(
                Code::InvalidExpression,
                span,
                format!("`{text}` is not an Isu value: Isu has no null"),
                Some("use an empty array or string, or a separate flag".to_owned()),
            ),
        }
    }

    fn step_like(&mut self, n: &Name) {
        self.report(
            Code::InvalidExpression,
            n.span,
            format!(
                "`{}` is a step ID, not a value: names of the form S1, S2_1 are reserved for steps",
                n.text
            ),
            Some("rename the variable".to_owned()),
        );
    }

    fn list_expr(&mut self, items: Vec<SExpr>, span: Span) -> Option<Expr> {
        let mut items = items.into_iter();
        let Some(head) = items.next() else {
            self.report(
                Code::InvalidExpression,
                span,
                "`()` is not an expression: an expression is (OPERATOR operands...), such as (var x) or (const 1)".to_owned(),
                None,
            );
            return None;
        };
        let operands: Vec<SExpr> = items.collect();
        if let Some(d) = self.foreign_list(&head, &operands, span) {
            self.diags.push(d);
            return None;
        }
        let op = match head {
            SExpr::Name(n) => n,
            other => {
                let what = match &other {
                    SExpr::List(..) => "a parenthesized list".to_owned(),
                    _ => format!("`{}`", self.snippet(other.span())),
                };
                self.report(
                    Code::InvalidExpression,
                    other.span(),
                    format!("an expression starts with its operator ({OPERATORS}), found {what}"),
                    matches!(other, SExpr::Json(_)).then(|| {
                        "a constant is written (const 1), a JSON array (const [1, 2])".to_owned()
                    }),
                );
                // Still look inside, for more errors.
                for o in operands {
                    let _ = self.expr(o);
                }
                return None;
            }
        };
        let node = match op.text.as_str() {
            "const" => self.const_expr(operands, span)?,
            "var" => self.var_expr(operands, span)?,
            "neg" | "not" => {
                let unary = if op.text == "neg" {
                    UnaryOp::Neg
                } else {
                    UnaryOp::Not
                };
                let [arg] = self.exact::<1>(&op, operands, span)?;
                ExprNode::Unary {
                    op: unary,
                    arg: Box::new(arg),
                }
            }
            "index" => {
                let [base, index] = self.exact::<2>(&op, operands, span)?;
                ExprNode::Index {
                    base: Box::new(base),
                    index: Box::new(index),
                }
            }
            "if" => {
                let [cond, then_expr, else_expr] = self.exact::<3>(&op, operands, span)?;
                ExprNode::If {
                    cond: Box::new(cond),
                    then_expr: Box::new(then_expr),
                    else_expr: Box::new(else_expr),
                }
            }
            "list" if operands.is_empty() => {
                self.report_rewrite(
                    Code::WrongOperandCount,
                    span,
                    "`list` takes one or more elements, found none".to_owned(),
                    "the empty array is a constant: ",
                    Some(Rewrite {
                        text: "(const [])".to_owned(),
                        certain: true,
                    }),
                );
                return None;
            }
            "list" => {
                let items: Vec<Option<Expr>> = operands.into_iter().map(|o| self.expr(o)).collect();
                ExprNode::List {
                    items: items.into_iter().collect::<Option<Vec<_>>>()?,
                }
            }
            "call" => self.call_expr(&op, operands, span)?,
            "struct" => self.struct_expr(operands, span)?,
            "field" => {
                let [base, field] = self.exact_sexprs::<2>(&op, operands, span)?;
                let base = self.expr(base);
                let field = self.field_name(field);
                ExprNode::Field {
                    base: Box::new(base?),
                    field: field?,
                }
            }
            "and" | "or" | "add" | "mul" if operands.len() > 2 => {
                let bin = match op.text.as_str() {
                    "and" => BinaryOp::And,
                    "or" => BinaryOp::Or,
                    "add" => BinaryOp::Add,
                    _ => BinaryOp::Mul,
                };
                return self.chain(bin, operands, span);
            }
            name => match BinaryOp::ALL.iter().find(|b| b.name() == name) {
                Some(&bin) => {
                    let [lhs, rhs] = self.exact::<2>(&op, operands, span)?;
                    ExprNode::Binary {
                        op: bin,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    }
                }
                // `(LEN (var xs))`: an upper-case or pack function name in the
                // operator's place is read as `(call LEN (var xs))`.
                None if is_function_name(name) => {
                    let args: Vec<Option<Expr>> =
                        operands.into_iter().map(|o| self.expr(o)).collect();
                    ExprNode::Call {
                        func: op.text,
                        args: args.into_iter().collect::<Option<Vec<_>>>()?,
                    }
                }
                None => {
                    self.unknown_operator(op, operands, span);
                    return None;
                }
            },
        };
        Some(Expr::new(node, span))
    }

    /// A list written in another notation: an operator symbol first (`(+ a
    /// b)`), infix inside the parentheses (`(a + b)`), commas between operands.
    /// One diagnostic for the whole list, with its rewrite.
    fn foreign_list(&mut self, head: &SExpr, operands: &[SExpr], span: Span) -> Option<Diagnostic> {
        let has_comma = operands
            .iter()
            .any(|o| matches!(o, SExpr::Sym(n) if n.text == ","));
        let symbol_inside = operands
            .iter()
            .any(|o| matches!(o, SExpr::Sym(n) if n.text != ","));
        let (code, message, lead) = match head {
            SExpr::Sym(sym) => {
                let name = symbol_operator(&sym.text).map_or("add", |(op, _)| op);
                (
                    Code::UnknownOperator,
                    format!("`{}` is not an Isu operator: operators are words ({OPERATORS})", sym.text),
                    format!("`{}` is written {name}: ", sym.text),
                )
            }
            _ if symbol_inside => (
                Code::InvalidExpression,
                format!("`{}` is infix notation: Isu writes every operation as a prefix S-expression (OPERATOR operands...)", self.snippet(span)),
                "Isu has no infix operators: ".to_owned(),
            ),
            _ if has_comma => (
                Code::InvalidExpression,
                "the operands of an S-expression are separated by spaces, not commas".to_owned(),
                String::new(),
            ),
            _ => return None,
        };
        let mut items = vec![head.clone()];
        items.extend(operands.iter().cloned());
        let rw = self.rewrite(&SExpr::List(items, span));
        Some(self.rewritten(code, span, message, &lead, rw))
    }

    /// Exactly `N` operands, each lowered; all lowered (for their errors) even
    /// when the count is wrong.
    fn exact<const N: usize>(
        &mut self,
        op: &Name,
        operands: Vec<SExpr>,
        span: Span,
    ) -> Option<[Expr; N]> {
        if operands.len() != N {
            self.wrong_count(op, &operands, N, span);
            for o in operands {
                let _ = self.expr(o);
            }
            return None;
        }
        let lowered: Vec<Option<Expr>> = operands.into_iter().map(|o| self.expr(o)).collect();
        let all: Option<Vec<Expr>> = lowered.into_iter().collect();
        all?.try_into().ok()
    }

    /// Exactly `N` operands, not lowered (for forms whose operands are not
    /// all expressions, such as `(field E x)`).
    fn exact_sexprs<const N: usize>(
        &mut self,
        op: &Name,
        operands: Vec<SExpr>,
        span: Span,
    ) -> Option<[SExpr; N]> {
        if operands.len() != N {
            self.wrong_count(op, &operands, N, span);
            return None;
        }
        operands.try_into().ok()
    }

    /// The name of a field (or of a struct) where one must stand: `x` in
    /// `(field (var p) x)`.
    fn field_name(&mut self, s: SExpr) -> Option<Ident> {
        match s {
            SExpr::Name(n) if !n.text.contains('.') && !is_function_name(&n.text) => Some(Ident {
                name: n.text,
                span: n.span,
            }),
            other => {
                let text = self.snippet(other.span());
                self.report(
                    Code::InvalidExpression,
                    other.span(),
                    format!("expected a field name, found {text}"),
                    Some("a field is named bare, as x in (field (var p) x)".to_owned()),
                );
                None
            }
        }
    }

    /// `(struct point (x E) (y E))`: the struct's name, then each field as
    /// `(name EXPR)`. Which fields are right is the validator's business.
    fn struct_expr(&mut self, operands: Vec<SExpr>, span: Span) -> Option<ExprNode> {
        const FORM: &str = "a struct value is (struct NAME (field EXPR) ...), such as (struct point (x (const 1)) (y (const 2)))";
        let mut operands = operands.into_iter();
        let Some(name) = operands.next() else {
            self.report(
                Code::WrongOperandCount,
                span,
                "`struct` needs the struct's name and its fields".to_owned(),
                Some(FORM.to_owned()),
            );
            return None;
        };
        let name = self.field_name(name);
        let mut fields = Vec::new();
        let mut ok = true;
        for o in operands {
            match o {
                SExpr::List(items, _) if items.len() == 2 => {
                    let mut it = items.into_iter();
                    let (Some(field), Some(value)) = (it.next(), it.next()) else {
                        ok = false;
                        continue;
                    };
                    let field = self.field_name(field);
                    let value = self.expr(value);
                    match (field, value) {
                        (Some(name), Some(value)) => fields.push(FieldInit { name, value }),
                        _ => ok = false,
                    }
                }
                other => {
                    let text = self.snippet(other.span());
                    self.report(
                        Code::InvalidExpression,
                        other.span(),
                        format!("expected a field as (name EXPR), found {text}"),
                        Some(FORM.to_owned()),
                    );
                    ok = false;
                }
            }
        }
        let name = name?;
        ok.then_some(ExprNode::Struct {
            name: name.name,
            fields,
        })
    }

    /// `(and A B C ...)` nested to the right, `(and A (and B C))`, which
    /// evaluates the operands left to right and stops at the first that
    /// decides; `(add A B C ...)` nested to the left, `(add (add A B) C)`,
    /// which evaluates and checks them for overflow left to right (the
    /// printer writes either chain back as one list). The outer node spans
    /// the whole list, each inner one its operands.
    fn chain(&mut self, op: BinaryOp, operands: Vec<SExpr>, span: Span) -> Option<Expr> {
        let lowered: Vec<Option<Expr>> = operands.into_iter().map(|o| self.expr(o)).collect();
        let mut all = lowered.into_iter().collect::<Option<Vec<Expr>>>()?;
        let to_the_left = matches!(op, BinaryOp::Add | BinaryOp::Mul);
        if !to_the_left {
            all.reverse();
        }
        let count = all.len();
        let mut all = all.into_iter();
        let mut acc = all.next()?;
        for (i, next) in all.enumerate() {
            let inner = if i + 2 == count {
                span
            } else {
                acc.span.to(next.span)
            };
            let (lhs, rhs) = if to_the_left {
                (acc, next)
            } else {
                (next, acc)
            };
            acc = Expr::new(
                ExprNode::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                inner,
            );
        }
        Some(acc)
    }

    fn wrong_count(&mut self, op: &Name, operands: &[SExpr], want: usize, span: Span) {
        let plural = if want == 1 { "operand" } else { "operands" };
        let found = operands.len();
        if matches!(op.text.as_str(), "and" | "or" | "add" | "mul") {
            self.report(
                Code::WrongOperandCount,
                span,
                format!("`{}` takes two or more operands, found {found}", op.text),
                None,
            );
            return;
        }
        let mut hint = None;
        if found > 2 && want == 2 {
            hint = Some(format!(
                "({} A B) combines two values; compute the rest in another expression or step",
                op.text
            ));
        }
        self.report(
            Code::WrongOperandCount,
            span,
            format!("`{}` takes exactly {want} {plural}, found {found}", op.text),
            hint,
        );
    }

    /// `(name operands...)` whose head is no operator: a hint naming the
    /// operator or function meant and, where the rewrite is known, the fix.
    /// The operands are lowered for their own errors only when there is none.
    fn unknown_operator(&mut self, op: Name, operands: Vec<SExpr>, span: Span) {
        let name = op.text.as_str();
        let lower = name.to_ascii_lowercase();
        let mut items = vec![SExpr::Name(op.clone())];
        items.extend(operands.iter().cloned());
        let rw = self.rewrite(&SExpr::List(items, span));
        let lead = if OPERATOR_NAMES.contains(&lower.as_str()) {
            "operators are lower case: ".to_owned()
        } else if let Some(f) = vocab::function_meant(name) {
            format!("to call the standard function {f} ")
        } else if vocab::ITER_FORMS.contains(&name) {
            format!("({name} ...) is an ITER form; it stands only after ITER: in a LOOP")
        } else if let Some(alias) = operator_alias(name) {
            format!("did you mean `{alias}`? ")
        } else {
            match suggest::closest(name, OPERATOR_NAMES.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => String::new(),
            }
        };
        let rw = rw.filter(|_| !vocab::ITER_FORMS.contains(&name));
        let known = rw.is_some();
        let message = format!("unknown operator `{name}`: the operators are {OPERATORS}");
        let d = self.rewritten(Code::UnknownOperator, span, message, &lead, rw);
        // The error points at the operator; the fix covers the whole expression.
        self.diags.push(Diagnostic {
            span: Some(op.span.into()),
            ..d
        });
        if !known {
            for o in operands {
                let _ = self.expr(o);
            }
        }
    }

    fn const_expr(&mut self, operands: Vec<SExpr>, span: Span) -> Option<ExprNode> {
        if operands.len() != 1 {
            self.report(
                Code::WrongOperandCount,
                span,
                format!(
                    "`const` takes exactly 1 operand, a JSON literal, found {}",
                    operands.len()
                ),
                (operands.len() > 1)
                    .then(|| "an array constant is written (const [1, 2, 3])".to_owned()),
            );
            return None;
        }
        match operands.into_iter().next()? {
            SExpr::Json(j) => Some(ExprNode::Const {
                value: self.literal(j)?,
            }),
            SExpr::Name(n) if literal_meant(&n.text).is_some() => {
                let whole = SExpr::List(
                    vec![
                        SExpr::Name(Name {
                            text: "const".to_owned(),
                            span,
                        }),
                        SExpr::Name(n.clone()),
                    ],
                    span,
                );
                let rw = self.rewrite(&whole);
                let lit = literal_meant(&n.text).flatten();
                let message = match lit {
                    Some(_) => format!(
                        "`{}` is not a JSON literal: the booleans are true and false",
                        n.text
                    ),
                    None => format!("`{}` is not an Isu value: Isu has no null", n.text),
                };
                let lead = if lit.is_some() {
                    ""
                } else {
                    "use an empty array or string, or a separate flag"
                };
                self.report_rewrite(Code::InvalidLiteral, span, message, lead, rw);
                None
            }
            SExpr::Name(n) => {
                self.report(
                    Code::InvalidLiteral,
                    n.span,
                    format!("`const` takes a JSON literal, not the name `{}`", n.text),
                    Some(format!(
                        "to read the variable write (var {}); a string is written (const \"{}\")",
                        n.text, n.text
                    )),
                );
                None
            }
            other => {
                let text = self.snippet(other.span());
                self.report(
                    Code::InvalidLiteral,
                    other.span(),
                    format!("`const` takes a JSON literal such as 1, \"s\", true, [1, 2] or {{\"a\": 1}}, found {text}"),
                    Some("compute values with operators outside const: (add (const 1) (var x))".to_owned()),
                );
                None
            }
        }
    }

    fn var_expr(&mut self, operands: Vec<SExpr>, span: Span) -> Option<ExprNode> {
        if operands.len() != 1 {
            self.report(
                Code::WrongOperandCount,
                span,
                format!(
                    "`var` takes exactly 1 operand, a variable name, found {}",
                    operands.len()
                ),
                None,
            );
            return None;
        }
        match operands.into_iter().next()? {
            SExpr::Name(n) if !n.text.contains('.') => Some(ExprNode::Var { name: n.text }),
            SExpr::Name(n) => {
                self.report(
                    Code::InvalidExpression,
                    n.span,
                    format!(
                        "`{}` is a function name, not a variable: variable names have no `.`",
                        n.text
                    ),
                    Some(format!("to call it write (call {} ...)", n.text)),
                );
                None
            }
            SExpr::StepLike(n) => {
                self.step_like(&n);
                None
            }
            SExpr::Json(j) => {
                let text = self.snippet(j.span);
                self.report(
                    Code::InvalidExpression,
                    j.span,
                    format!("`var` takes a variable name, found {text}"),
                    Some(format!("for a constant write (const {text})")),
                );
                None
            }
            inner @ (SExpr::Subscript(..) | SExpr::Seq(..) | SExpr::Sym(_)) => {
                let shown = self.snippet(inner.span());
                let rw = self.rewrite(&inner);
                let message = if matches!(inner, SExpr::Subscript(..)) {
                    format!("`var` takes a variable name, found `{shown}`: an element is written (index ARRAY INDEX)")
                } else {
                    format!("`var` takes a variable name, found `{shown}`")
                };
                self.report_rewrite(Code::InvalidExpression, span, message, "", rw);
                None
            }
            SExpr::List(_, s) => {
                self.report(
                    Code::InvalidExpression,
                    s,
                    "`var` takes a variable name, not a parenthesized expression".to_owned(),
                    Some("(var x) reads x; an element is (index (var xs) (var i))".to_owned()),
                );
                None
            }
        }
    }

    fn call_expr(&mut self, op: &Name, operands: Vec<SExpr>, span: Span) -> Option<ExprNode> {
        let mut operands = operands.into_iter();
        let func = match operands.next() {
            Some(SExpr::Name(n)) => n,
            Some(other) => {
                let text = self.snippet(other.span());
                let hint = match &other {
                    SExpr::Json(Json {
                        node: JsonNode::Str(s),
                        ..
                    }) => {
                        format!("write the function name bare: (call {s} ...)")
                    }
                    _ => "for example (call LEN (var xs))".to_owned(),
                };
                self.report(
                    Code::InvalidExpression,
                    other.span(),
                    format!("`call` takes a function name first, found {text}"),
                    Some(hint),
                );
                for o in operands {
                    let _ = self.expr(o);
                }
                return None;
            }
            None => {
                self.report(
                    Code::WrongOperandCount,
                    span,
                    format!(
                        "`{}` needs a function name and its arguments, found nothing",
                        op.text
                    ),
                    Some("for example (call LEN (var xs))".to_owned()),
                );
                return None;
            }
        };
        let args: Vec<Option<Expr>> = operands.map(|o| self.expr(o)).collect();
        let args: Option<Vec<Expr>> = args.into_iter().collect();
        Some(ExprNode::Call {
            func: func.text,
            args: args?,
        })
    }

    // ---- Places and iterators -----------------------------------------------

    /// What a `TARGET` writes.
    pub fn place(&mut self, s: SExpr) -> Option<Place> {
        match s {
            SExpr::Name(n) if !n.text.contains('.') => Some(Place::Var {
                name: n.text,
                span: n.span,
            }),
            SExpr::List(items, span) => {
                let head = match items.first() {
                    Some(SExpr::Name(n)) => n.text.clone(),
                    _ => String::new(),
                };
                match head.as_str() {
                    "index" if items.len() == 3 => {
                        let mut it = items.into_iter().skip(1);
                        let (Some(base), Some(index)) = (it.next(), it.next()) else {
                            return None;
                        };
                        let base = self.place(base);
                        let index = self.expr(index);
                        Some(Place::Index {
                            base: Box::new(base?),
                            index: index?,
                            span,
                        })
                    }
                    "index" => {
                        self.report(
                            Code::WrongOperandCount,
                            span,
                            format!("`index` takes exactly 2 operands, found {}", items.len() - 1),
                            Some("an element place is (index PLACE EXPR), such as (index xs (var i))".to_owned()),
                        );
                        None
                    }
                    "field" if items.len() == 3 => {
                        let mut it = items.into_iter().skip(1);
                        let (Some(base), Some(field)) = (it.next(), it.next()) else {
                            return None;
                        };
                        let base = self.place(base);
                        let field = self.field_name(field);
                        Some(Place::Field {
                            base: Box::new(base?),
                            field: field?,
                            span,
                        })
                    }
                    "field" => {
                        self.report(
                            Code::WrongOperandCount,
                            span,
                            format!(
                                "`field` takes exactly 2 operands, found {}",
                                items.len() - 1
                            ),
                            Some(
                                "a field place is (field PLACE name), such as (field p x)"
                                    .to_owned(),
                            ),
                        );
                        None
                    }
                    "var" if items.len() == 2 => {
                        let name = self.snippet(items[1].span());
                        let rw = rewrite::place(&SExpr::List(items, span), self.text);
                        self.report_rewrite(
                            Code::InvalidPlace,
                            span,
                            format!("a TARGET names the variable itself: write `{name}`, not (var {name})"),
                            "",
                            rw,
                        );
                        None
                    }
                    _ => {
                        self.bad_place(&SExpr::List(items, span));
                        None
                    }
                }
            }
            other => {
                self.bad_place(&other);
                None
            }
        }
    }

    fn bad_place(&mut self, place: &SExpr) {
        let span = place.span();
        let text = self.snippet(span);
        if let Some(rw) = rewrite::place(place, self.text) {
            self.report_rewrite(
                Code::InvalidPlace,
                span,
                format!("a TARGET is a variable name or an element place (index PLACE EXPR), found {text}"),
                "",
                Some(rw),
            );
            return;
        }
        self.report(
            Code::InvalidPlace,
            span,
            format!(
                "a TARGET is a variable name or an element place (index PLACE EXPR), found {text}"
            ),
            Some("for example TARGET: total, or TARGET: (index counts (var word))".to_owned()),
        );
    }

    /// The `ITER` of a `LOOP`.
    pub fn iter(&mut self, s: SExpr) -> Option<Iter> {
        const FORMS: &str = "(range i A B), (range i A B STEP), (each x EXPR) or (while COND)";
        let (items, span) = match s {
            SExpr::List(items, span) => (items, span),
            other => {
                let text = self.snippet(other.span());
                let message = format!("an ITER is {FORMS}, found {text}");
                match rewrite::iter(&other, self.text) {
                    Some(rw) => {
                        self.report_rewrite(Code::InvalidIter, other.span(), message, "", Some(rw))
                    }
                    None => self.report(Code::InvalidIter, other.span(), message, None),
                }
                return None;
            }
        };
        let head = match items.first() {
            Some(SExpr::Name(n)) => n.text.clone(),
            _ => String::new(),
        };
        let n_ops = items.len().saturating_sub(1);
        let mut ops = items.into_iter().skip(1);
        match head.as_str() {
            "range" if n_ops == 3 || n_ops == 4 => {
                let var = self.loop_var(ops.next()?, "range");
                let start = ops.next().and_then(|e| self.expr(e));
                let end = ops.next().and_then(|e| self.expr(e));
                let step = match ops.next() {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                Some(Iter::Range {
                    var: var?,
                    start: start?,
                    end: end?,
                    step,
                    span,
                })
            }
            "each" if n_ops == 2 => {
                let var = self.loop_var(ops.next()?, "each");
                let seq = ops.next().and_then(|e| self.expr(e));
                Some(Iter::Each {
                    var: var?,
                    seq: seq?,
                    span,
                })
            }
            "while" if n_ops == 1 => Some(Iter::While {
                cond: self.expr(ops.next()?)?,
                span,
            }),
            "range" | "each" | "while" => {
                let shape = match head.as_str() {
                    "range" => "(range i A B) or (range i A B STEP)",
                    "each" => "(each x EXPR)",
                    _ => "(while COND)",
                };
                self.report(
                    Code::InvalidIter,
                    span,
                    format!("`{head}` is written {shape}, found {n_ops} operands"),
                    None,
                );
                None
            }
            _ => {
                let text = self.snippet(span);
                let hint = match head.as_str() {
                    "for" | "repeat" | "times" => {
                        Some("a counting loop is (range i A B)".to_owned())
                    }
                    "foreach" | "for_each" | "in" => {
                        Some("a loop over an array is (each x (var xs))".to_owned())
                    }
                    "until" | "loop" => Some("a conditional loop is (while COND)".to_owned()),
                    _ => None,
                };
                self.report(
                    Code::InvalidIter,
                    span,
                    format!("an ITER is {FORMS}, found {text}"),
                    hint,
                );
                None
            }
        }
    }

    fn loop_var(&mut self, s: SExpr, form: &str) -> Option<Ident> {
        match s {
            SExpr::Name(n) if !n.text.contains('.') => Some(Ident {
                name: n.text,
                span: n.span,
            }),
            SExpr::List(ref items, span)
                if items.len() == 2 && matches!(&items[0], SExpr::Name(h) if h.text == "var") =>
            {
                let name = self.snippet(items[1].span());
                self.report(
                    Code::InvalidIter,
                    span,
                    format!(
                        "the loop variable is written bare: ({form} {name} ...), not (var {name})"
                    ),
                    None,
                );
                None
            }
            other => {
                let text = self.snippet(other.span());
                self.report(
                    Code::InvalidIter,
                    other.span(),
                    format!("`{form}` needs a loop variable name first (declared in LOCAL), found {text}"),
                    None,
                );
                None
            }
        }
    }

    // ---- Literals and types ------------------------------------------------------

    /// A JSON value as a literal: no `null`, no repeated key.
    pub fn literal(&mut self, j: Json) -> Option<Literal> {
        match j.node {
            JsonNode::Null => {
                self.report(
                    Code::InvalidLiteral,
                    j.span,
                    "null is not an Isu value: Isu has no null".to_owned(),
                    Some("use an empty array or string, or a separate flag".to_owned()),
                );
                None
            }
            JsonNode::Bool(b) => Some(Literal::Bool(b)),
            JsonNode::Int(i) => Some(Literal::Int(i)),
            JsonNode::Float(x) => Some(Literal::Float(x)),
            JsonNode::Str(s) => Some(Literal::Str(s)),
            JsonNode::Array(items) => {
                let lowered: Vec<Option<Literal>> =
                    items.into_iter().map(|i| self.literal(i)).collect();
                let all: Option<Vec<Literal>> = lowered.into_iter().collect();
                Some(Literal::Array(all?))
            }
            JsonNode::Object(members) => {
                let mut map = BTreeMap::new();
                let mut first_at: BTreeMap<String, Span> = BTreeMap::new();
                let mut ok = true;
                for m in members {
                    if let Some(&first) = first_at.get(&m.key) {
                        let msg = format!("the key \"{}\" appears twice in this object", m.key);
                        let d = Diagnostic::error(Code::InvalidLiteral, msg)
                            .at(m.key_span)
                            .in_step(self.step.as_ref())
                            .with_label(first, "first here")
                            .with_hint("keep one of the two entries");
                        self.diags.push(d);
                        ok = false;
                        let _ = self.literal(m.value);
                        continue;
                    }
                    first_at.insert(m.key.clone(), m.key_span);
                    match self.literal(m.value) {
                        Some(v) => {
                            map.insert(m.key, v);
                        }
                        None => ok = false,
                    }
                }
                ok.then_some(Literal::Object(map))
            }
        }
    }

    /// A written type: `int`, `float`, `bool`, `string`, `T[]`, `map<K,V>`.
    pub fn ty(&mut self, t: RawType) -> Option<Type> {
        match t {
            RawType::Name(n) => match n.text.as_str() {
                "int" => Some(Type::Int),
                "float" => Some(Type::Float),
                "bool" => Some(Type::Bool),
                "string" => Some(Type::String),
                other if self.structs.iter().any(|s| s == other) => {
                    Some(Type::Struct(other.to_owned()))
                }
                other => {
                    let (hint, fix) = match type_meant(other) {
                        Some(TypeMeant::Scalar(s)) => {
                            (Some(format!("write {s}")), Some(Fix::replace(n.span, s)))
                        }
                        Some(TypeMeant::Array) => (
                            Some("an array type is written T[], such as int[]".to_owned()),
                            None,
                        ),
                        Some(TypeMeant::Map) => (
                            Some("write map<K,V>, naming the key and value types, such as map<string,int>".to_owned()),
                            None,
                        ),
                        None => (None, None),
                    };
                    let mut d = Diagnostic::error(
                        Code::InvalidType,
                        format!("unknown type `{other}`: the types are int, float, bool, string, T[] and map<K,V>"),
                    )
                    .at(n.span)
                    .in_step(self.step.as_ref());
                    d.hint = hint;
                    d.fix = fix;
                    self.diags.push(d);
                    None
                }
            },
            RawType::Array(elem) => Some(Type::array(self.ty(*elem)?)),
            RawType::Generic(n, args, _) if n.text == vocab::MAP_TYPE && args.len() == 2 => {
                let mut args = args.into_iter();
                let key = args.next().and_then(|k| self.ty(k));
                let value = args.next().and_then(|v| self.ty(v));
                Some(Type::map(key?, value?))
            }
            whole @ (RawType::Generic(..) | RawType::Subscript(..)) => {
                let span = whole.span();
                let shown = self.snippet(span);
                let (RawType::Generic(n, args, _) | RawType::Subscript(n, args, _)) = &whole else {
                    return None;
                };
                let message = match (&whole, type_meant(&n.text)) {
                    (RawType::Subscript(..), Some(TypeMeant::Array)) => format!(
                        "`{shown}` is not an Isu type: an array type is written T[], such as int[]"
                    ),
                    (_, Some(TypeMeant::Map)) | (RawType::Generic(..), None)
                        if n.text == vocab::MAP_TYPE || type_meant(&n.text) == Some(TypeMeant::Map) =>
                    {
                        format!("`{shown}` is not an Isu type: a map type is written map<K,V>, with two types, K int or string")
                    }
                    _ => format!(
                        "unknown type `{shown}`: the types are int, float, bool, string, T[] and map<K,V> ({} {})",
                        args.len(),
                        if args.len() == 1 { "parameter" } else { "parameters" }
                    ),
                };
                let rw = type_text(&whole).map(|text| Rewrite {
                    text,
                    certain: true,
                });
                self.report_rewrite(Code::InvalidType, span, message, "", rw);
                None
            }
        }
    }
}

/// The Isu text of a type written in any notation (`list[str]`,
/// `Dict[str, int]`, `Array<int>`), when it means one Isu type.
fn type_text(t: &RawType) -> Option<String> {
    match t {
        RawType::Name(n) => match type_meant(&n.text) {
            Some(TypeMeant::Scalar(s)) => Some(s.to_owned()),
            None if vocab::SCALAR_TYPES.contains(&n.text.as_str()) => Some(n.text.clone()),
            _ => None,
        },
        RawType::Array(elem) => Some(format!("{}[]", type_text(elem)?)),
        RawType::Generic(n, args, _) | RawType::Subscript(n, args, _) => {
            let meant = if n.text == vocab::MAP_TYPE {
                TypeMeant::Map
            } else {
                type_meant(&n.text)?
            };
            match (meant, args.as_slice()) {
                (TypeMeant::Array, [elem]) => Some(format!("{}[]", type_text(elem)?)),
                (TypeMeant::Map, [k, v]) => {
                    Some(format!("map<{},{}>", type_text(k)?, type_text(v)?))
                }
                _ => None,
            }
        }
    }
}

/// A standard function's name (`LEN`, `MAP_GET`: upper case) or a pack's
/// (`math.GCD`), as opposed to an operator (lower case).
pub fn is_function_name(name: &str) -> bool {
    let upper = name.as_bytes().first().is_some_and(u8::is_ascii_uppercase)
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    upper || name.contains('.')
}
