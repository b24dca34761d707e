//! What a context asks of an expression's type, and the diagnostics for an
//! expression that does not give it or a name that is not declared.

use super::literal::LitMismatch;
use super::scope::Section;
use super::text::a;
use super::Checker;
use crate::diag::{Code, Diagnostic, Fix, PendingFix};
use isu_plugin_api::{Expr, Span, Type};

/// What the context of an expression asks of its type.
#[derive(Debug, Clone)]
pub(super) enum Want {
    /// The context fixes the type; the role says what the value is for.
    Is(Type, Role),
    /// Nothing fixes it: the expression's own type counts, and a literal that
    /// leaves its type open is `ambiguous_literal`.
    Free,
    /// As `Free`, but an error already reported here hides the type, so an open
    /// literal is not reported again.
    Quiet,
}

/// Which operand of an operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    Only,
    Left,
    Right,
}

/// What a value with a required type is for, as messages say it.
#[derive(Debug, Clone)]
pub(super) enum Role {
    IfCond,
    WhileCond,
    /// The condition of an `(if ...)` expression.
    IfExprCond,
    /// The ELSE branch of an `(if ...)`, which must have the type of its THEN.
    IfBranch,
    /// Element `n` (from 1) of a `(list ...)`.
    ListItem(usize),
    Operand {
        op: &'static str,
        side: Side,
    },
    ArrayIndex,
    /// A key of the map type.
    MapKey(Type),
    /// The array or map an `index` reads.
    Indexed,
    /// Argument `n` (from 1) of a standard or pack function.
    Arg {
        func: String,
        n: usize,
    },
    /// The value of an `ASSIGN` to the place written so.
    Assign(String),
    Return,
    /// The initializer of the `STATE` variable.
    StateInit(String),
    /// `start`, `end` or `step` of a `range`.
    RangePart(&'static str),
    /// The array of an `each` whose variable is declared with its element type.
    EachSeq(String),
    /// The value of a field in a `(struct ...)`: the struct and the field.
    Field(String, String),
}

impl Role {
    /// The value the role describes: `the left operand of add`.
    fn subject(&self) -> String {
        match self {
            Role::IfCond => "the COND of an IF".into(),
            Role::WhileCond => "the condition of (while ...)".into(),
            Role::IfExprCond => "the condition of (if ...)".into(),
            Role::IfBranch => {
                "the else value of (if ...), which has the type of its then value".into()
            }
            Role::ListItem(n) => {
                format!("element {n} of (list ...), which has the type of the others")
            }
            Role::Operand { op, side } => match side {
                Side::Only => format!("the operand of {op}"),
                Side::Left => format!("the left operand of {op}"),
                Side::Right => format!("the right operand of {op}"),
            },
            Role::ArrayIndex => "an array index".into(),
            Role::MapKey(m) => format!("a key of {m}"),
            Role::Indexed => "the value indexed".into(),
            Role::Arg { func, n } => format!("argument {n} of {func}"),
            Role::Assign(place) => format!("the value assigned to {place}"),
            Role::Return => "the RETURN value".into(),
            Role::StateInit(name) => format!("the initial value of STATE variable {name}"),
            Role::RangePart(part) => format!("the {part} of (range ...)"),
            Role::EachSeq(var) => format!("the array that (each {var} ...) goes through"),
            Role::Field(st, field) => format!("the field {field} of (struct {st} ...)"),
        }
    }

    fn code(&self) -> Code {
        match self {
            Role::Return => Code::ReturnTypeMismatch,
            Role::Field(..) => Code::FieldTypeMismatch,
            _ => Code::TypeMismatch,
        }
    }

    /// Advice for a value of type `found` where `want` is needed.
    fn hint(&self, want: &Type, found: &str) -> Option<String> {
        let is_arith = |op: &str| matches!(op, "add" | "sub" | "mul" | "div" | "mod" | "neg");
        Some(match self {
            _ if *want == Type::Float && found == "int" => {
                "Isu never turns an int into a float by itself: convert it with (call FLOAT ...), or write a float literal with a fraction, such as (const 2.0)".into()
            }
            _ if *want == Type::Int && found == "float" => {
                "Isu never turns a float into an int by itself: convert it with (call TRUNC ...), FLOOR, CEIL or ROUND".into()
            }
            Role::IfCond | Role::WhileCond | Role::IfExprCond => {
                let example = match found {
                    "int" => " (for an int, e.g. (ne X (const 0)))",
                    "string" => " (for a string, e.g. (ne X (const \"\")))",
                    f if f.ends_with("[]") || f.starts_with("map<") => {
                        " (for an array or a map, e.g. (gt (call LEN X) (const 0)))"
                    }
                    _ => "",
                };
                format!(
                    "a condition must be bool: compare values with eq, ne, lt, le, gt or ge{example}, and combine conditions with and, or, not"
                )
            }
            Role::Operand { op, .. } if is_arith(op) && found == "string" => {
                format!("{op} works on ints; join strings with (call CONCAT a b), turn text into an int with (call PARSE_INT s)")
            }
            Role::Operand { op, .. } if is_arith(op) && found.ends_with("[]") => {
                format!("{op} works on ints; append to an array with (call PUSH xs v), join two arrays with (call CONCAT a b)")
            }
            Role::Operand { op, .. } if matches!(*op, "and" | "or" | "not") => {
                format!("{op} works on bools; compare the value to get one, e.g. (ne X (const 0))")
            }
            Role::ArrayIndex => "an array is indexed by an int position from 0; to look values up by another key, use a map".into(),
            Role::MapKey(m) => format!("the keys of {m} are {}", key_of(m)),
            Role::Return => format!(
                "FUNC RETURNS is {want}: return {} here, or change RETURNS if the function should give {}",
                a(&want.to_string()),
                a(found)
            ),
            Role::Assign(place) => format!(
                "{place} holds {}; assign {} to it, or use another variable declared with the type {found}",
                a(&want.to_string()),
                a(&want.to_string())
            ),
            Role::StateInit(name) => format!(
                "{name} is declared {want}: give it an initial value of that type, or change its declared type"
            ),
            Role::Field(st, field) => format!(
                "TYPES declares the field {field} of {st} as {want}: give it a value of that type, or change its declaration"
            ),
            _ if want_is_struct(want) && found.starts_with("map<") => format!(
                "a {want} value is made by (struct {want} (field EXPR) ...); (const {{...}}) makes a map, never a struct"
            ),
            _ => return None,
        })
    }
}

fn want_is_struct(want: &Type) -> bool {
    matches!(want, Type::Struct(_))
}

fn key_of(map: &Type) -> String {
    match map {
        Type::Map(k, _) => k.to_string(),
        other => other.to_string(),
    }
}

/// What an expression turned out to be, for a mismatch.
pub(super) enum Found<'a> {
    /// Its own type (or partial type, `?` for a hole).
    Type(String),
    /// A literal that is not a value of the wanted type, and where.
    Lit(&'a LitMismatch),
}

impl Checker {
    /// Reports that `text` (at `span`) is not what `role` needs.
    pub(super) fn mismatch(
        &mut self,
        span: Span,
        text: &str,
        want: &Type,
        role: &Role,
        found: Found<'_>,
    ) {
        let subject = role.subject();
        let suffix = if matches!(role, Role::Return) {
            " (FUNC RETURNS)"
        } else {
            ""
        };
        let (message, actual) = match &found {
            Found::Type(t) => (
                format!("{subject} must be {want}{suffix}, but {text} is {t}"),
                t.clone(),
            ),
            Found::Lit(m) => (
                format!(
                    "{subject} must be {want}{suffix}, but {text} is not: {}",
                    m.message("its value")
                ),
                text.to_owned(),
            ),
        };
        let found_text = match &found {
            Found::Type(t) => t.clone(),
            Found::Lit(_) => String::new(),
        };
        let mut d = Diagnostic::error(role.code(), message)
            .at(span)
            .in_step(self.step.as_ref())
            .with_expected(want.to_string())
            .with_actual(actual);
        if let Some(h) = role.hint(want, &found_text) {
            d = d.with_hint(h);
        }
        self.diags.push(d);
    }

    /// Gives the mismatch reported since `before` for `e`, an int where a
    /// float is wanted, its fix: `(call FLOAT e)`.
    pub(super) fn offer_float(&mut self, before: usize, e: &Expr) {
        if e.span.is_synthetic() {
            return;
        }
        let text = crate::canon::print_expr(e);
        let want = Some(serde_json::Value::from("float"));
        let found = Some(serde_json::Value::from("int"));
        let from = before.min(self.diags.len());
        let reported = self.diags[from..]
            .iter_mut()
            .rev()
            .find(|d| d.expected == want && d.actual == found && d.fix.is_none());
        if let Some(d) = reported {
            d.fix = Some(Fix::replace(e.span, format!("(call FLOAT {text})")));
        }
    }

    /// Reports a plain type error at `span` with `hint`.
    pub(super) fn type_error(&mut self, span: Span, message: String, hint: Option<String>) {
        let mut d = Diagnostic::error(Code::TypeMismatch, message)
            .at(span)
            .in_step(self.step.as_ref());
        if let Some(h) = hint {
            d = d.with_hint(h);
        }
        self.diags.push(d);
    }

    /// Reports `name` (at `span`: an expression `(var name)` when `as_expr`,
    /// else a TARGET's name) as not declared. `ty` is its type where the
    /// context tells it, for the suggested declaration.
    pub(super) fn undeclared(&mut self, name: &str, span: Span, ty: Option<&Type>, as_expr: bool) {
        let decl = match ty {
            Some(t) => format!("{name}: {t}"),
            None => format!("{name}: TYPE"),
        };
        let mut hint = if self.in_state {
            format!(
                "a STATE initializer reads ARGS and earlier STATE variables: declare it in ARGS: [{decl}] or earlier in STATE: [{decl} = (const ...)]"
            )
        } else {
            format!(
                "declare it: LOCAL: [{decl}] for a variable the steps assign, STATE: [{decl} = (const ...)] for one with an initial value, or ARGS: [{decl}] for one the caller passes"
            )
        };
        let mut d = Diagnostic::error(
            Code::UndeclaredVariable,
            format!("{name} is not declared in ARGS, STATE or LOCAL"),
        )
        .at(span)
        .in_step(self.step.as_ref());
        let close = self
            .scope
            .closest(name)
            .and_then(|c| self.scope.get(c).map(|v| (c.to_owned(), v.clone())));
        if let Some((close, v)) = close {
            hint = format!(
                "did you mean {close} (declared in {})? If not, {hint}",
                v.section.keyword()
            );
            d = d.with_label(v.span, format!("{close} is declared here"));
            // `(var totl)` or a TARGET `totl`: the name as written, renamed.
            if !span.is_synthetic() {
                let renamed = if as_expr {
                    format!("(var {close})")
                } else {
                    close.clone()
                };
                d = d.with_fix(Fix::replace(span, renamed).maybe_incorrect());
            }
        } else if let (Some(t), false) = (ty, self.in_state) {
            d.pending = Some(Box::new(PendingFix::Declare {
                name: name.to_owned(),
                ty: t.to_string(),
            }));
        }
        self.diags.push(d.with_hint(hint));
    }

    /// Reports an `ITER` variable that is not declared in `LOCAL`. `section` is
    /// where it is declared instead, if anywhere; `ty` the type it needs.
    pub(super) fn undeclared_loop_var(
        &mut self,
        name: &str,
        span: Span,
        section: Option<(Section, Span)>,
        ty: Option<&Type>,
    ) {
        let decl = match ty {
            Some(t) => format!("{name}: {t}"),
            None => format!("{name}: TYPE"),
        };
        let mut d = match section {
            Some((section, decl_span)) => Diagnostic::error(
                Code::UndeclaredLoopVariable,
                format!(
                    "the loop variable {name} is declared in {}, but a loop variable must be declared in LOCAL",
                    section.keyword()
                ),
            )
            .with_label(decl_span, format!("{name} is declared here"))
            .with_hint(format!(
                "loop with a variable of its own, declared in LOCAL (e.g. LOCAL: [item: {}]); {name} keeps its value",
                ty.map_or("TYPE".to_owned(), Type::to_string)
            )),
            None => {
                let mut hint = format!("declare it in LOCAL: [{decl}]");
                let mut pending = ty.map(|t| {
                    Box::new(PendingFix::Declare {
                        name: name.to_owned(),
                        ty: t.to_string(),
                    })
                });
                if let Some(close) = self.scope.closest(name) {
                    hint = format!("did you mean {close}? If not, {hint}");
                    pending = None;
                }
                let mut d = Diagnostic::error(
                    Code::UndeclaredLoopVariable,
                    format!("the loop variable {name} is not declared; loop variables are declared in LOCAL"),
                )
                .with_hint(hint);
                d.pending = pending;
                d
            }
        };
        d = d.at(span).in_step(self.step.as_ref());
        self.diags.push(d);
    }
}
