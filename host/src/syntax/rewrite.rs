//! Isu for expressions written in the notation of other languages: what the
//! hint and the fix of a malformed expression say to write.
//!
//! A model writes `(var i) + 1`, `(+ a b)`, `xs[i]`, `len(xs)` or `True`
//! where Isu has `(add (var i) (const 1))`, `(add (var a) (var b))`,
//! `(index (var xs) (var i))`, `(call LEN (var xs))` and `(const true)`. The
//! rewrite reads such text the one way it can be read (infix operators with the
//! precedence every such language gives them) and says whether that reading is
//! certain: it is not when it guessed a word (`plus` for `add`) or when a
//! chain of comparisons means different things in different languages.

use super::cst::{JsonNode, Name, SExpr};
use super::vocab::{self, literal_meant, operator_alias, symbol_operator};
use isu_plugin_api::Span;

/// An expression in Isu text, and whether that is certainly what was meant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    pub text: String,
    pub certain: bool,
}

impl Rewrite {
    fn sure(text: String) -> Rewrite {
        Rewrite {
            text,
            certain: true,
        }
    }
}

/// Rewrites an expression; `source` is the text the spans point into.
pub fn expr(s: &SExpr, source: &str) -> Option<Rewrite> {
    Writer { source }.expr(s)
}

/// Rewrites a `TARGET` (a name or `(index PLACE EXPR)`).
pub fn place(s: &SExpr, source: &str) -> Option<Rewrite> {
    Writer { source }.place(s)
}

/// Rewrites an `ITER` written as a loop header of another language: `x in
/// xs` or `(var x) in (var xs)` (Python, JavaScript's `for ... of`) is
/// `(each x (var xs))`.
pub fn iter(s: &SExpr, source: &str) -> Option<Rewrite> {
    let SExpr::Seq(items, _) = s else {
        return None;
    };
    let [var, SExpr::Name(word), seq] = items.as_slice() else {
        return None;
    };
    if !matches!(word.text.as_str(), "in" | "of") {
        return None;
    }
    let var = match var {
        SExpr::Name(n) if !n.text.contains('.') => n.text.clone(),
        SExpr::List(parts, _) => match parts.as_slice() {
            [SExpr::Name(h), SExpr::Name(n)] if h.text == "var" => n.text.clone(),
            _ => return None,
        },
        _ => return None,
    };
    let seq = expr(seq, source)?;
    Some(apply("each", vec![Rewrite::sure(var), seq], true))
}

struct Writer<'s> {
    source: &'s str,
}

/// Combines rewrites of operands under an operator.
fn apply(op: &str, args: Vec<Rewrite>, certain: bool) -> Rewrite {
    let mut text = format!("({op}");
    let mut all = certain;
    for a in args {
        text.push(' ');
        text.push_str(&a.text);
        all &= a.certain;
    }
    text.push(')');
    Rewrite { text, certain: all }
}

/// The operators that combine two operands and nest for more (`(add a (add b c))`).
fn nests(op: &str) -> bool {
    matches!(op, "add" | "mul" | "and" | "or")
}

impl Writer<'_> {
    fn text(&self, span: Span) -> &str {
        self.source
            .get(span.lo as usize..span.hi as usize)
            .unwrap_or("")
    }

    fn expr(&self, s: &SExpr) -> Option<Rewrite> {
        match s {
            SExpr::Name(n) => self.name(n),
            SExpr::Json(j) => match j.node {
                JsonNode::Null => None,
                _ => Some(Rewrite::sure(format!("(const {})", self.text(j.span)))),
            },
            SExpr::StepLike(_) | SExpr::Sym(_) => None,
            SExpr::Subscript(base, index, _) => {
                let args = vec![self.expr(base)?, self.expr(index)?];
                Some(apply("index", args, true))
            }
            SExpr::Seq(items, _) => self.infix(items),
            SExpr::List(items, _) => self.list(items),
        }
    }

    /// A bare name: a variable, or `True`/`False`.
    fn name(&self, n: &Name) -> Option<Rewrite> {
        match literal_meant(&n.text) {
            Some(Some(lit)) => return Some(Rewrite::sure(format!("(const {lit})"))),
            Some(None) => return None,
            None => {}
        }
        if n.text.contains('.') || vocab::OPERATOR_NAMES.contains(&n.text.as_str()) {
            return None;
        }
        Some(Rewrite::sure(format!("(var {})", n.text)))
    }

    fn list(&self, items: &[SExpr]) -> Option<Rewrite> {
        // Commas between operands: read without them.
        let items: Vec<&SExpr> = items
            .iter()
            .filter(|i| !matches!(i, SExpr::Sym(n) if n.text == ","))
            .collect();
        let (head, operands) = items.split_first()?;
        // Infix inside parentheses: `(a + b)`.
        if operands.len() >= 2
            && operands
                .iter()
                .step_by(2)
                .all(|o| matches!(o, SExpr::Sym(_)) || is_word_operator(o))
            && !matches!(head, SExpr::Sym(_))
            && !is_prefix_word(head)
        {
            let all: Vec<SExpr> = items.iter().map(|i| (*i).clone()).collect();
            return self.infix(&all);
        }
        match head {
            SExpr::Sym(sym) => {
                let (op, _) = symbol_operator(&sym.text)?;
                let op = if op == "sub" && operands.len() == 1 {
                    "neg"
                } else {
                    op
                };
                self.operation(op, operands, true)
            }
            SExpr::Name(n) => self.named(n, operands),
            _ => None,
        }
    }

    /// `(NAME operands...)`: an operator, a function, or a word for one.
    fn named(&self, n: &Name, operands: &[&SExpr]) -> Option<Rewrite> {
        let name = n.text.as_str();
        match name {
            "const" => {
                let [value] = operands else { return None };
                return match value {
                    SExpr::Json(j) if !matches!(j.node, JsonNode::Null) => {
                        Some(Rewrite::sure(format!("(const {})", self.text(j.span))))
                    }
                    SExpr::Name(v) => match literal_meant(&v.text) {
                        Some(Some(lit)) => Some(Rewrite::sure(format!("(const {lit})"))),
                        _ => None,
                    },
                    _ => None,
                };
            }
            "var" => {
                let [value] = operands else { return None };
                return match value {
                    SExpr::Name(v) => self.name(v),
                    other => self.expr(other),
                };
            }
            "call" => {
                let (func, args) = operands.split_first()?;
                let SExpr::Name(f) = func else { return None };
                let func = vocab::function_meant(&f.text).unwrap_or(&f.text);
                let args = self.all(args)?;
                return Some(apply(&format!("call {func}"), args, true));
            }
            _ => {}
        }
        if vocab::OPERATOR_NAMES.contains(&name) || vocab::ITER_FORMS.contains(&name) {
            return self.operation(name, operands, true);
        }
        if let Some(f) = vocab::function_meant(name) {
            let args = self.all(operands)?;
            return Some(apply(&format!("call {f}"), args, true));
        }
        if super::lower::is_function_name(name) {
            let args = self.all(operands)?;
            return Some(apply(&format!("call {name}"), args, true));
        }
        let op = operator_alias(name)?;
        // Only the case differs (`ADD`): certain; another word: a guess.
        let certain = op.eq_ignore_ascii_case(name);
        self.operation(op, operands, certain)
    }

    /// `(op operands...)`, nesting a binary operator given more than two.
    fn operation(&self, op: &str, operands: &[&SExpr], certain: bool) -> Option<Rewrite> {
        let mut args = self.all(operands)?;
        if args.len() > 2 && nests(op) {
            let mut acc = args.pop()?;
            while let Some(prev) = args.pop() {
                acc = apply(op, vec![prev, acc], certain);
            }
            return Some(acc);
        }
        Some(apply(op, args, certain))
    }

    fn all(&self, items: &[&SExpr]) -> Option<Vec<Rewrite>> {
        items.iter().map(|i| self.expr(i)).collect()
    }

    /// Infix notation: operands with operator symbols (or `and`, `or`, `mod`)
    /// between them, `!`/`not`/`-` before one, and `f(args)` calls.
    fn infix(&self, items: &[SExpr]) -> Option<Rewrite> {
        let tokens = self.infix_tokens(items)?;
        let mut p = Infix {
            tokens,
            at: 0,
            comparisons: 0,
        };
        let out = p.binary(1)?;
        if p.at != p.tokens.len() {
            return None;
        }
        Some(Rewrite {
            certain: out.certain && p.comparisons <= 1,
            text: out.text,
        })
    }

    fn infix_tokens(&self, items: &[SExpr]) -> Option<Vec<InfixTok>> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < items.len() {
            let item = &items[i];
            match item {
                SExpr::Sym(s) => {
                    // `<` `=` written apart by the lexer are one `<=`.
                    let mut text = s.text.clone();
                    let mut end = s.span.hi;
                    while let Some(SExpr::Sym(next)) = items.get(i + 1) {
                        if next.span.lo != end || next.text == "," {
                            break;
                        }
                        text.push_str(&next.text);
                        end = next.span.hi;
                        i += 1;
                    }
                    out.push(InfixTok::Op(symbol_operator(&text)?));
                }
                SExpr::Name(n) if is_word_operator(item) || is_prefix_word(item) => {
                    out.push(InfixTok::Op(symbol_operator(&n.text)?));
                }
                // `len(xs)`: a function name right before its arguments.
                SExpr::Name(n) if matches!(items.get(i + 1), Some(SExpr::List(_, s)) if s.lo == n.span.hi) =>
                {
                    let Some(SExpr::List(args, _)) = items.get(i + 1) else {
                        return None;
                    };
                    out.push(InfixTok::Operand(self.call(n, args)?));
                    i += 1;
                }
                other => out.push(InfixTok::Operand(self.expr(other)?)),
            }
            i += 1;
        }
        Some(out)
    }

    /// `f(a, b)`: the call of a standard function as other languages write it.
    fn call(&self, f: &Name, args: &[SExpr]) -> Option<Rewrite> {
        let func = match vocab::function_meant(&f.text) {
            Some(func) => func,
            None if super::lower::is_function_name(&f.text) => f.text.as_str(),
            None => return None,
        };
        let groups = split_commas(args);
        let mut rewritten = Vec::new();
        for g in groups {
            rewritten.push(match g {
                [one] => self.expr(one)?,
                several => self.infix(several)?,
            });
        }
        Some(apply(&format!("call {func}"), rewritten, true))
    }

    fn place(&self, s: &SExpr) -> Option<Rewrite> {
        match s {
            SExpr::Name(n) if !n.text.contains('.') => Some(Rewrite::sure(n.text.clone())),
            SExpr::List(items, _) => match items.as_slice() {
                [SExpr::Name(h), v] if h.text == "var" => self.place(v),
                [SExpr::Name(h), base, index] if h.text == "index" => {
                    let base = self.place(base)?;
                    let index = self.expr(index)?;
                    Some(apply("index", vec![base, index], true))
                }
                _ => None,
            },
            SExpr::Subscript(base, index, _) => {
                let base = self.place(base)?;
                let index = self.expr(index)?;
                Some(apply("index", vec![base, index], true))
            }
            _ => None,
        }
    }
}

/// `and`, `or`, `mod`, `div` between operands.
fn is_word_operator(s: &SExpr) -> bool {
    matches!(s, SExpr::Name(n) if matches!(n.text.as_str(), "and" | "or" | "mod" | "div"))
}

/// `not` before an operand.
fn is_prefix_word(s: &SExpr) -> bool {
    matches!(s, SExpr::Name(n) if n.text == "not")
}

fn split_commas(items: &[SExpr]) -> Vec<&[SExpr]> {
    if items.is_empty() {
        return Vec::new();
    }
    items
        .split(|i| matches!(i, SExpr::Sym(n) if n.text == ","))
        .collect()
}

enum InfixTok {
    Operand(Rewrite),
    /// An operator and its precedence (0: prefix only).
    Op((&'static str, u8)),
}

/// Precedence climbing over the tokens of an infix expression.
struct Infix {
    tokens: Vec<InfixTok>,
    at: usize,
    comparisons: usize,
}

impl Infix {
    fn binary(&mut self, min: u8) -> Option<Rewrite> {
        let mut lhs = self.unary()?;
        while let Some(InfixTok::Op((op, prec))) = self.tokens.get(self.at) {
            let (op, prec) = (*op, *prec);
            if prec == 0 || prec < min {
                break;
            }
            self.at += 1;
            if prec == 3 {
                self.comparisons += 1;
            }
            let rhs = self.binary(prec + 1)?;
            lhs = apply(op, vec![lhs, rhs], true);
        }
        Some(lhs)
    }

    fn unary(&mut self) -> Option<Rewrite> {
        match self.tokens.get(self.at)? {
            InfixTok::Op(("not", _)) => {
                self.at += 1;
                let arg = self.unary()?;
                Some(apply("not", vec![arg], true))
            }
            InfixTok::Op(("sub", _)) => {
                self.at += 1;
                let arg = self.unary()?;
                Some(apply("neg", vec![arg], true))
            }
            InfixTok::Op(_) => None,
            InfixTok::Operand(r) => {
                let r = r.clone();
                self.at += 1;
                Some(r)
            }
        }
    }
}
