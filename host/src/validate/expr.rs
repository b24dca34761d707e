//! The types of expressions: synthesized bottom-up as partial types, fixed
//! top-down by what the context wants, recorded in every `Expr::ty`.

use super::literal;
use super::report::{Found, Role, Side, Want};
use super::types::{Bindings, Hole, PTy};
use super::{suggest, text, Checker};
use crate::canon;
use crate::diag::{Code, Diagnostic, Fix};
use crate::functions::{Callable, PackFn};
use crate::stdlib::{self, Overload, StdFn, STDLIB};
use crate::syntax::vocab::{function_meant, OPERATOR_NAMES};
use isu_plugin_api::{BinaryOp, Expr, ExprNode, Literal, Span, Type, UnaryOp};

impl Checker {
    /// The partial type of `e` on its own, reporting nothing. Parts that an
    /// error hides are [`PTy::Error`].
    pub(super) fn shape(&self, e: &Expr) -> PTy {
        match &e.node {
            ExprNode::Const { value } => literal::shape(value).unwrap_or(PTy::Error),
            ExprNode::Var { name } => match self.scope.get(name).and_then(|v| v.ty.as_ref()) {
                Some(t) => PTy::of(t),
                None => PTy::Error,
            },
            ExprNode::Unary { op, arg } => match op {
                UnaryOp::Neg => self.numeric(&[arg]),
                UnaryOp::Not => PTy::Bool,
            },
            ExprNode::Binary { op, lhs, rhs } => match op {
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div => {
                    self.numeric(&[lhs, rhs])
                }
                BinaryOp::Mod => PTy::Int,
                _ => PTy::Bool,
            },
            ExprNode::Index { base, .. } => match self.shape(base) {
                PTy::Array(e) => *e,
                PTy::Map(_, v) => *v,
                PTy::Str => PTy::Str,
                PTy::Any => PTy::Any,
                _ => PTy::Error,
            },
            ExprNode::Call { func, args } => {
                let f = match self.functions.resolve(func) {
                    Some(Callable::Std(f)) => f,
                    Some(Callable::Pack(f)) => return PTy::of(&f.signature.ret),
                    None => return PTy::Error,
                };
                let shapes: Vec<PTy> = args.iter().map(|a| self.shape(a)).collect();
                let results: Vec<PTy> = accepting(f, &shapes)
                    .iter()
                    .map(|(o, b)| b.instantiate(&o.ret))
                    .collect();
                match results.split_first() {
                    None => PTy::Error,
                    Some((first, rest)) => rest
                        .iter()
                        .try_fold(first.clone(), |acc, r| acc.join(r))
                        .unwrap_or(PTy::Any),
                }
            }
            ExprNode::Struct { name, .. } => match self.scope.struct_def(name) {
                Some(_) => PTy::Struct(name.clone()),
                None => PTy::Error,
            },
            ExprNode::Field { base, field } => match self.shape(base) {
                PTy::Struct(name) => self
                    .scope
                    .struct_def(&name)
                    .and_then(|d| d.field(&field.name))
                    .map_or(PTy::Error, PTy::of),
                _ => PTy::Error,
            },
            ExprNode::List { items } => {
                let mut shapes = items.iter().map(|i| self.shape(i));
                let first = shapes.next().unwrap_or(PTy::Any);
                match shapes.try_fold(first, |acc, s| acc.join(&s)) {
                    Some(elem) => PTy::array(elem),
                    None => PTy::Error,
                }
            }
            ExprNode::If {
                then_expr,
                else_expr,
                ..
            } => self
                .shape(then_expr)
                .join(&self.shape(else_expr))
                .unwrap_or(PTy::Error),
        }
    }

    /// The type of arithmetic on `operands`: float when one of them is a
    /// float (the others must be too, and are reported where they are not),
    /// else int.
    fn numeric(&self, operands: &[&Expr]) -> PTy {
        if operands.iter().any(|o| self.shape(o) == PTy::Float) {
            PTy::Float
        } else {
            PTy::Int
        }
    }

    /// Types `e` where the context asks `want`, reporting every error inside
    /// it, and records the type in `e.ty`. Returns `e`'s own type when known.
    pub(super) fn expr(&mut self, e: &mut Expr, want: &Want) -> Option<Type> {
        let before = self.diags.len();
        let ty = self.expr_typed(e, want);
        if let (Some(Type::Int), Want::Is(Type::Float, _)) = (&ty, want) {
            self.offer_float(before, e);
        }
        ty
    }

    fn expr_typed(&mut self, e: &mut Expr, want: &Want) -> Option<Type> {
        let span = e.span;
        let fixed_by_node = matches!(
            e.node,
            ExprNode::Var { .. }
                | ExprNode::Unary { .. }
                | ExprNode::Binary { .. }
                | ExprNode::Struct { .. }
                | ExprNode::Field { .. }
        );
        let shown = text::expr(e);
        let ty = match &mut e.node {
            ExprNode::Const { value } => self.constant(value, span, &shown, want),
            ExprNode::Var { name } => self.var(name, span, want),
            ExprNode::Unary { op, arg } => {
                let ty = match op {
                    UnaryOp::Neg if self.numeric(&[arg]) == PTy::Float => Type::Float,
                    UnaryOp::Neg => Type::Int,
                    UnaryOp::Not => Type::Bool,
                };
                let role = Role::Operand {
                    op: op.name(),
                    side: Side::Only,
                };
                self.expr(arg, &Want::Is(ty.clone(), role));
                Some(ty)
            }
            ExprNode::Binary { op, lhs, rhs } => Some(self.binary(*op, lhs, rhs, span, &shown)),
            ExprNode::Index { base, index } => self.index(base, index, span, &shown, want),
            ExprNode::Call { func, args } => self.call(func, args, span, &shown, want),
            ExprNode::Struct { name, fields } => self.struct_value(name, fields, span),
            ExprNode::Field { base, field } => {
                let base_shown = text::expr(base);
                let base_ty = self.expr(base, &Want::Free);
                match base_ty {
                    Some(t) => self.field_of(&t, field, span, &base_shown),
                    None => None,
                }
            }
            ExprNode::List { items } => self.list(items, span, &shown, want),
            ExprNode::If {
                cond,
                then_expr,
                else_expr,
            } => {
                self.expr(cond, &Want::Is(Type::Bool, Role::IfExprCond));
                self.branches(then_expr, else_expr, want)
            }
        };
        if fixed_by_node {
            if let (Some(t), Want::Is(w, role)) = (&ty, want) {
                if t != w {
                    self.mismatch(span, &shown, w, role, Found::Type(t.to_string()));
                }
            }
        }
        e.ty.clone_from(&ty);
        ty
    }

    /// `(const JSON)`: a value of the wanted type, or of the type it has on its own.
    fn constant(&mut self, lit: &Literal, span: Span, shown: &str, want: &Want) -> Option<Type> {
        let own = literal::shape(lit);
        if let Want::Is(w, role) = want {
            return match literal::conform(lit, w, &[]) {
                Ok(()) => Some(w.clone()),
                Err(m) => {
                    // A literal with a type of its own is reported as that type;
                    // an open or mixed one, or one whose object keys could be
                    // ints, by where it goes wrong.
                    let own_ty = own
                        .as_ref()
                        .ok()
                        .filter(|p| !p.has_int_keys())
                        .map(PTy::resolve);
                    match own_ty {
                        Some(Ok(t)) => {
                            self.mismatch(span, shown, w, role, Found::Type(t.to_string()));
                            Some(t)
                        }
                        _ => {
                            self.mismatch(span, shown, w, role, Found::Lit(&m));
                            None
                        }
                    }
                }
            };
        }
        match own {
            Err(mixed) => {
                let whole = if mixed.path.is_empty() {
                    shown.to_owned()
                } else {
                    format!("the part {} of {shown}", mixed.path)
                };
                self.type_error(
                    span,
                    format!("{whole} mixes types: {}", mixed.message),
                    Some("an array holds values of one type, and a map values of one type; make the elements alike or split them".into()),
                );
                None
            }
            Ok(p) => {
                match p.resolve() {
                    Ok(t) => Some(t),
                    Err(Hole::Open) => {
                        if matches!(want, Want::Free) {
                            self.ambiguous(span, &format!("{shown} has the type {p}, and nothing around it fixes what ? is"));
                        }
                        None
                    }
                    Err(Hole::Poisoned) => None,
                }
            }
        }
    }

    /// Reports a literal whose type nothing fixes.
    fn ambiguous(&mut self, span: Span, message: &str) {
        self.diags.push(
            Diagnostic::error(Code::AmbiguousLiteral, message)
                .at(span)
                .in_step(self.step.as_ref())
                .with_hint("give the literal a typed context: assign it to a declared variable first (ASSIGN TARGET: xs EXPR: (const [])), compare or combine it with a value of known type, or write a non-empty literal"),
        );
    }

    /// `(var name)`: its declared type.
    fn var(&mut self, name: &str, span: Span, want: &Want) -> Option<Type> {
        match self.scope.get(name) {
            Some(v) => v.ty.clone(),
            None => {
                let hint_ty = match want {
                    Want::Is(t, _) => Some(t.clone()),
                    _ => None,
                };
                self.undeclared(name, span, hint_ty.as_ref(), true);
                None
            }
        }
    }

    /// A two-operand operator; its type is fixed by the operator.
    fn binary(
        &mut self,
        op: BinaryOp,
        lhs: &mut Expr,
        rhs: &mut Expr,
        span: Span,
        shown: &str,
    ) -> Type {
        let operands = match op {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
                if self.numeric(&[lhs, rhs]) == PTy::Float =>
            {
                Some((Type::Float, Type::Float))
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
                Some((Type::Int, Type::Int))
            }
            BinaryOp::And | BinaryOp::Or => Some((Type::Bool, Type::Bool)),
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => None,
        };
        let name = op.name();
        match operands {
            Some((operand, result)) => {
                let left = Role::Operand {
                    op: name,
                    side: Side::Left,
                };
                let right = Role::Operand {
                    op: name,
                    side: Side::Right,
                };
                self.expr(lhs, &Want::Is(operand.clone(), left));
                self.expr(rhs, &Want::Is(operand, right));
                result
            }
            None => {
                let ordering = !matches!(op, BinaryOp::Eq | BinaryOp::Ne);
                self.compare(name, ordering, lhs, rhs, span, shown);
                Type::Bool
            }
        }
    }

    /// `eq ne` (any two values of one type) and `lt le gt ge` (two ints, two
    /// floats or two strings).
    fn compare(
        &mut self,
        op: &'static str,
        ordering: bool,
        lhs: &mut Expr,
        rhs: &mut Expr,
        span: Span,
        shown: &str,
    ) {
        let (ls, rs) = (self.shape(lhs), self.shape(rhs));
        // An int beside a float is an int where a float is wanted, which
        // the int's side reports with its fix, (call FLOAT ...).
        let joined = match (&ls, &rs) {
            (PTy::Int, PTy::Float) | (PTy::Float, PTy::Int) => Some(PTy::Float),
            _ => ls.join(&rs),
        };
        let Some(joined) = joined else {
            let hint = match (ls.resolve(), rs.resolve()) {
                (Ok(Type::Int), Ok(Type::String)) | (Ok(Type::String), Ok(Type::Int)) => {
                    "turn one into the other's type first: (call TO_STRING n) or (call PARSE_INT s)"
                        .to_owned()
                }
                _ => format!("{op} needs both operands of one type"),
            };
            self.type_error(
                span,
                format!(
                    "{op} compares two values of one type, but {} is {ls} and {} is {rs}",
                    text::expr(lhs),
                    text::expr(rhs)
                ),
                Some(hint),
            );
            self.expr(lhs, &Want::Quiet);
            self.expr(rhs, &Want::Quiet);
            return;
        };
        match joined.resolve() {
            Ok(t) => {
                if ordering && !matches!(t, Type::Int | Type::Float | Type::String) {
                    self.type_error(
                        span,
                        format!("{op} orders two ints, two floats or two strings, but its operands are {t}"),
                        Some(
                            "compare sizes with (call LEN ...), or elements with (index ...)"
                                .into(),
                        ),
                    );
                }
                let left = Role::Operand {
                    op,
                    side: Side::Left,
                };
                let right = Role::Operand {
                    op,
                    side: Side::Right,
                };
                self.expr(lhs, &Want::Is(t.clone(), left));
                self.expr(rhs, &Want::Is(t, right));
            }
            Err(hole) => {
                if hole == Hole::Open {
                    self.ambiguous(
                        span,
                        &format!("neither operand of {shown} fixes its type: both have the type {joined}, and nothing fixes what ? is"),
                    );
                }
                self.expr(lhs, &Want::Quiet);
                self.expr(rhs, &Want::Quiet);
            }
        }
    }

    /// `(index a i)`: an element of an array (int position) or the value of a
    /// map key.
    fn index(
        &mut self,
        base: &mut Expr,
        index: &mut Expr,
        span: Span,
        shown: &str,
        want: &Want,
    ) -> Option<Type> {
        let bs = self.shape(base);
        let wanted = match want {
            Want::Is(t, _) => PTy::of(t),
            _ => PTy::Any,
        };
        let report_elem = |me: &mut Checker, elem: &PTy| {
            if let Want::Is(w, role) = want {
                me.mismatch(span, shown, w, role, Found::Type(elem.to_string()));
            }
        };
        let refined = match &bs {
            PTy::Array(elem) => PTy::array(elem.join(&wanted).unwrap_or_else(|| {
                report_elem(self, elem);
                (**elem).clone()
            })),
            PTy::Map(k, v) => {
                let key = k.join(&self.shape(index)).unwrap_or_else(|| (**k).clone());
                let value = v.join(&wanted).unwrap_or_else(|| {
                    report_elem(self, v);
                    (**v).clone()
                });
                PTy::map(key, value)
            }
            // Nothing outside fixes the base (an overloaded call of an open
            // argument, say): typing it on its own decides, then the element.
            PTy::Any => {
                let Some(t) = self.expr(base, &for_hole(Hole::Open, want)) else {
                    self.expr(index, &Want::Quiet);
                    return None;
                };
                let elem = self.element(t, base, index, span, shown);
                if let (Some(e), Want::Is(w, role)) = (&elem, want) {
                    if e != w {
                        self.mismatch(span, shown, w, role, Found::Type(e.to_string()));
                    }
                }
                return elem;
            }
            PTy::Error => {
                self.expr(base, &Want::Quiet);
                self.expr(index, &Want::Quiet);
                return None;
            }
            // One character of a string: a string.
            PTy::Str => {
                if let Want::Is(w, role) = want {
                    if *w != Type::String {
                        self.mismatch(span, shown, w, role, Found::Type("string".into()));
                    }
                }
                PTy::Str
            }
            other => {
                self.not_indexable(span, shown, base, &other.to_string());
                self.expr(base, &Want::Quiet);
                self.expr(index, &Want::Quiet);
                return None;
            }
        };
        let base_ty = match refined.resolve() {
            Ok(t) => {
                self.expr(base, &Want::Is(t.clone(), Role::Indexed));
                t
            }
            Err(hole) => {
                self.expr(base, &for_hole(hole, want));
                // An array's index is an int even when its elements are open.
                let index_want = match refined {
                    PTy::Array(_) => Want::Is(Type::Int, Role::ArrayIndex),
                    _ => Want::Quiet,
                };
                self.expr(index, &index_want);
                return None;
            }
        };
        self.element(base_ty, base, index, span, shown)
    }

    /// `(list E1 E2 ...)`: an array of the elements' one type, which the
    /// context or the elements themselves fix.
    fn list(&mut self, items: &mut [Expr], span: Span, shown: &str, want: &Want) -> Option<Type> {
        let shapes: Vec<PTy> = items.iter().map(|i| self.shape(i)).collect();
        let wanted = match want {
            Want::Is(Type::Array(elem), _) => Some((**elem).clone()),
            _ => None,
        };
        let elem = match wanted {
            Some(t) => Some(t),
            None => {
                let joined = shapes
                    .iter()
                    .skip(1)
                    .try_fold(shapes.first().cloned().unwrap_or(PTy::Any), |acc, s| {
                        acc.join(s)
                    });
                match joined.map(|p| p.resolve()) {
                    Some(Ok(t)) => Some(t),
                    // Elements of different types: the first fixes the type,
                    // and the others are reported against it.
                    None => {
                        let first = items.first_mut().and_then(|i| self.expr(i, &Want::Free));
                        for (n, item) in items.iter_mut().enumerate().skip(1) {
                            let want = match &first {
                                Some(t) => Want::Is(t.clone(), Role::ListItem(n + 1)),
                                None => Want::Quiet,
                            };
                            self.expr(item, &want);
                        }
                        return None;
                    }
                    Some(Err(Hole::Open)) => {
                        if matches!(want, Want::Free) {
                            self.ambiguous(span, &format!("the elements of {shown} are open literals, and nothing around them fixes their type"));
                        }
                        self.quiet_all(items);
                        return None;
                    }
                    Some(Err(Hole::Poisoned)) => {
                        self.quiet_all(items);
                        return None;
                    }
                }
            }
        };
        let elem = elem?;
        for (n, item) in items.iter_mut().enumerate() {
            self.expr(item, &Want::Is(elem.clone(), Role::ListItem(n + 1)));
        }
        let ty = Type::array(elem);
        if let Want::Is(w, role) = want {
            if *w != ty {
                self.mismatch(span, shown, w, role, Found::Type(ty.to_string()));
            }
        }
        Some(ty)
    }

    /// The two values of an `(if C A B)`: of the wanted type, or of one type
    /// the two fix between them.
    fn branches(
        &mut self,
        then_expr: &mut Expr,
        else_expr: &mut Expr,
        want: &Want,
    ) -> Option<Type> {
        if let Want::Is(..) | Want::Quiet = want {
            let t = self.expr(then_expr, want);
            self.expr(else_expr, want);
            return match want {
                Want::Is(w, _) => Some(w.clone()),
                _ => t,
            };
        }
        let joined = self.shape(then_expr).join(&self.shape(else_expr));
        match joined.map(|p| p.resolve()) {
            Some(Ok(t)) => {
                self.expr(then_expr, &Want::Is(t.clone(), Role::IfBranch));
                self.expr(else_expr, &Want::Is(t.clone(), Role::IfBranch));
                Some(t)
            }
            Some(Err(hole)) => {
                self.expr(then_expr, &for_hole(hole, want));
                self.expr(else_expr, &Want::Quiet);
                None
            }
            None => {
                let t = self.expr(then_expr, want);
                let w = match &t {
                    Some(t) => Want::Is(t.clone(), Role::IfBranch),
                    None => Want::Quiet,
                };
                self.expr(else_expr, &w);
                t
            }
        }
    }

    /// Types the index of a base of type `base_ty`; the element's type.
    fn element(
        &mut self,
        base_ty: Type,
        base: &Expr,
        index: &mut Expr,
        span: Span,
        shown: &str,
    ) -> Option<Type> {
        match base_ty {
            Type::Array(elem) => {
                self.expr(index, &Want::Is(Type::Int, Role::ArrayIndex));
                Some(*elem)
            }
            Type::Map(ref k, ref v) => {
                let value = (**v).clone();
                self.expr(
                    index,
                    &Want::Is((**k).clone(), Role::MapKey(base_ty.clone())),
                );
                Some(value)
            }
            Type::String => {
                self.expr(index, &Want::Is(Type::Int, Role::ArrayIndex));
                Some(Type::String)
            }
            Type::Int | Type::Float | Type::Bool | Type::Struct(_) => {
                self.not_indexable(span, shown, base, &base_ty.to_string());
                self.expr(index, &Want::Quiet);
                None
            }
        }
    }

    /// Reports indexing a base of type `ty`, which is not a collection.
    fn not_indexable(&mut self, span: Span, shown: &str, base: &Expr, ty: &str) {
        let hint =
            "index reads an element of an array, the value of a map key or a character of a string";
        self.type_error(
            span,
            format!(
                "{shown} indexes {}, which is {ty}, not an array, a map or a string",
                text::expr(base)
            ),
            Some(hint.into()),
        );
    }

    /// `(call FN args...)` of a standard function.
    fn call(
        &mut self,
        func: &str,
        args: &mut [Expr],
        span: Span,
        shown: &str,
        want: &Want,
    ) -> Option<Type> {
        let f = match self.functions.resolve(func) {
            Some(Callable::Std(f)) => f,
            Some(Callable::Pack(f)) => {
                let f = f.clone();
                return self.pack_call(&f, args, span, shown, want);
            }
            None => {
                self.unknown_function(func, args, span);
                return None;
            }
        };
        if !f.overloads.iter().any(|o| o.params.len() == args.len()) {
            self.wrong_arity(f, args.len(), span);
            self.quiet_all(args);
            return None;
        }
        let shapes: Vec<PTy> = args.iter().map(|a| self.shape(a)).collect();
        let mut candidates = accepting(f, &shapes);
        if candidates.is_empty() {
            // Ints where floats would fit: the float overload types them, so
            // each int is reported with its fix, (call FLOAT ...).
            let floated: Vec<PTy> = shapes.iter().map(int_as_float).collect();
            candidates = accepting(f, &floated);
        }
        if candidates.is_empty() {
            self.no_overload(f, args, &shapes, span);
            self.quiet_all(args);
            return None;
        }
        if let Want::Is(w, role) = want {
            let wp = PTy::of(w);
            let fitting: Vec<(&Overload, Bindings)> = candidates
                .iter()
                .filter_map(|(o, b)| {
                    let mut b = b.clone();
                    b.unify(&o.ret, &wp).then_some((*o, b))
                })
                .collect();
            if fitting.is_empty() {
                let (o, b) = &candidates[0];
                self.mismatch(
                    span,
                    shown,
                    w,
                    role,
                    Found::Type(b.instantiate(&o.ret).to_string()),
                );
            } else {
                candidates = fitting;
            }
        }
        // Several overloads fit only where an argument's type is open or hidden
        // by an error; the first in the table then decides.
        let (o, b) = candidates.swap_remove(0);
        for (n, (arg, param)) in args.iter_mut().zip(o.params).enumerate() {
            let w = match b.instantiate(param).resolve() {
                Ok(t) => Want::Is(
                    t,
                    Role::Arg {
                        func: f.name.to_owned(),
                        n: n + 1,
                    },
                ),
                Err(hole) => for_hole(hole, want),
            };
            self.expr(arg, &w);
        }
        b.instantiate(&o.ret).resolve().ok()
    }

    /// `(call ns.NAME args...)` of a pack function: its declared signature
    /// types the arguments and the result.
    fn pack_call(
        &mut self,
        f: &PackFn,
        args: &mut [Expr],
        span: Span,
        shown: &str,
        want: &Want,
    ) -> Option<Type> {
        let params = &f.signature.params;
        if params.len() != args.len() {
            let plural = |n: usize| if n == 1 { "" } else { "s" };
            self.diags.push(
                Diagnostic::error(
                    Code::WrongArity,
                    format!(
                        "{} takes {} argument{}, but {} {} given",
                        f.name,
                        params.len(),
                        plural(params.len()),
                        args.len(),
                        if args.len() == 1 { "is" } else { "are" }
                    ),
                )
                .at(span)
                .in_step(self.step.as_ref())
                .with_expected(params.len())
                .with_actual(args.len())
                .with_hint(format!("{} {}", f.name, f.signature)),
            );
            self.quiet_all(args);
            return None;
        }
        for (n, (arg, param)) in args.iter_mut().zip(params).enumerate() {
            let role = Role::Arg {
                func: f.name.clone(),
                n: n + 1,
            };
            self.expr(arg, &Want::Is(param.clone(), role));
        }
        let ret = f.signature.ret.clone();
        if let Want::Is(w, role) = want {
            if *w != ret {
                self.mismatch(span, shown, w, role, Found::Type(ret.to_string()));
            }
        }
        Some(ret)
    }

    /// Types each expression for the errors inside it, after an error that hides what it should be.
    pub(super) fn quiet_all(&mut self, exprs: &mut [Expr]) {
        for e in exprs {
            self.expr(e, &Want::Quiet);
        }
    }

    /// A call of a function that is not standard: the arguments are typed
    /// (for the errors inside them, and for the suggestion), and the hint
    /// names the standard function meant: a synonym or a near spelling whose
    /// signature the arguments fit, ranked by spelling; the fix calls it.
    /// When only functions the arguments do not fit are near, the hint says
    /// so and there is no fix.
    fn unknown_function(&mut self, func: &str, args: &mut [Expr], span: Span) {
        let types: Vec<Option<Type>> = args
            .iter_mut()
            .map(|a| self.expr(a, &Want::Quiet))
            .collect();
        let lower = func.to_ascii_lowercase();
        if let Some((ns, name)) = func.split_once('.') {
            return self.unknown_pack_function(func, ns, name, args, &types, span);
        }
        let message = format!("{func} is not a standard function");
        let mut fix = None;
        let hint = if let Some(op) = OPERATOR_NAMES
            .iter()
            .find(|o| **o == lower && !matches!(**o, "const" | "var" | "call"))
        {
            format!("{op} is an operator, not a function: write ({op} a b) without call")
        } else if let Some(f) = meant(func, &types) {
            // `len` for `LEN` is certain; another word for it is a guess.
            let replace = Fix::replace(span, call_text(f.name, args));
            fix = Some(if f.name.eq_ignore_ascii_case(func) {
                replace
            } else {
                replace.maybe_incorrect()
            });
            format!("did you mean {}? {}", f.name, signatures(f))
        } else if let Some(f) = function_meant(func)
            .or_else(|| suggest::closest(func, STDLIB.iter().map(|f| f.name)))
            .and_then(stdlib::lookup)
        {
            format!(
                "{} is spelt alike, but these arguments do not fit it: {}",
                f.name,
                signatures(f)
            )
        } else {
            let names: Vec<&str> = STDLIB.iter().map(|f| f.name).collect();
            format!("the standard functions are {}", names.join(", "))
        };
        let mut d = Diagnostic::error(Code::UnknownFunction, message)
            .at(span)
            .in_step(self.step.as_ref())
            .with_hint(hint);
        d.fix = fix.filter(|_| !span.is_synthetic());
        self.diags.push(d);
    }

    /// `ns.NAME` that no loaded pack provides: says which pack to enable and
    /// how, or, when its pack is loaded, which functions it has. When NAME
    /// is a standard function the arguments fit (`text.REVERSE`, which the
    /// `text` pack had before `REVERSE` was standard), the hint and the fix
    /// call it without the namespace instead.
    fn unknown_pack_function(
        &mut self,
        func: &str,
        ns: &str,
        name: &str,
        args: &[Expr],
        types: &[Option<Type>],
        span: Span,
    ) {
        let mut fix = None;
        let (message, hint) = if self.functions.has_namespace(ns) {
            let names: Vec<&str> = self
                .functions
                .in_namespace(ns)
                .filter_map(|f| f.name.split_once('.').map(|(_, n)| n))
                .collect();
            let mut hint = format!("the pack `{ns}` has {}", names.join(", "));
            if let Some(near) = suggest::closest(name, names.iter().copied()) {
                let call = call_text(&format!("{ns}.{near}"), args);
                fix = Some(Fix::replace(span, call).maybe_incorrect());
                hint = format!("did you mean {ns}.{near}? {hint}");
            }
            (format!("{func} is not a function of the pack `{ns}`"), hint)
        } else if let Some(why) = self.functions.unavailable(ns) {
            (
                format!("{func} is not a known function: the pack `{ns}` is not enabled"),
                why.to_owned(),
            )
        } else {
            (
                format!("{func} is not a known function: no loaded pack has the namespace `{ns}`"),
                "a pack is enabled by a plugins.toml that lists it (`isu plugins add FILE`); `isu plugins` lists the loaded packs and their functions".to_owned(),
            )
        };
        let standard = stdlib::lookup(&name.to_ascii_uppercase()).filter(|f| fits(f, types));
        let hint = match standard {
            Some(f) => {
                fix = Some(Fix::replace(span, call_text(f.name, args)));
                format!(
                    "{} is a standard function, called without a namespace: {}",
                    f.name,
                    signatures(f)
                )
            }
            None => hint,
        };
        let mut d = Diagnostic::error(Code::UnknownFunction, message)
            .at(span)
            .in_step(self.step.as_ref())
            .with_hint(hint);
        d.fix = fix.filter(|_| !span.is_synthetic());
        self.diags.push(d);
    }

    fn wrong_arity(&mut self, f: &StdFn, given: usize, span: Span) {
        let mut counts: Vec<usize> = f.overloads.iter().map(|o| o.params.len()).collect();
        counts.dedup();
        let takes = counts
            .iter()
            .map(|n| format!("{n} argument{}", if *n == 1 { "" } else { "s" }))
            .collect::<Vec<_>>()
            .join(" or ");
        let given_text = if given == 1 {
            "1 is".to_owned()
        } else {
            format!("{given} are")
        };
        self.diags.push(
            Diagnostic::error(
                Code::WrongArity,
                format!("{} takes {takes}, but {given_text} given", f.name),
            )
            .at(span)
            .in_step(self.step.as_ref())
            .with_expected(counts.first().copied().unwrap_or(0))
            .with_actual(given)
            .with_hint(signatures(f)),
        );
    }

    /// No overload of `f` accepts the argument types: with one overload, points
    /// at the first argument that does not fit.
    fn no_overload(&mut self, f: &StdFn, args: &[Expr], shapes: &[PTy], span: Span) {
        let arity: Vec<&Overload> = f
            .overloads
            .iter()
            .filter(|o| o.params.len() == args.len())
            .collect();
        if let [o] = arity.as_slice() {
            let mut b = Bindings::default();
            for (n, ((param, shape), arg)) in o.params.iter().zip(shapes).zip(args).enumerate() {
                let before = b.clone();
                if !b.unify(param, shape) {
                    let need = match before.instantiate(param) {
                        // The keys of an empty object literal could be either.
                        PTy::Key { int_ok: true } => "int or string".to_owned(),
                        p => match p.resolve() {
                            Ok(t) => t.to_string(),
                            Err(_) => stdlib::pat_text(param),
                        },
                    };
                    let mut d = Diagnostic::error(
                        Code::TypeMismatch,
                        format!(
                            "argument {} of {} must be {need}, but {} is {shape}",
                            n + 1,
                            f.name,
                            text::expr(arg)
                        ),
                    )
                    .at(arg.span)
                    .in_step(self.step.as_ref())
                    .with_expected(need)
                    .with_actual(shape.to_string())
                    .with_hint(signatures(f));
                    if arg.span.is_synthetic() {
                        d = d.at(span);
                    }
                    self.diags.push(d);
                    return;
                }
            }
        }
        let given: Vec<String> = shapes.iter().map(PTy::to_string).collect();
        self.diags.push(
            Diagnostic::error(
                Code::TypeMismatch,
                format!("no signature of {} takes ({})", f.name, given.join(", ")),
            )
            .at(span)
            .in_step(self.step.as_ref())
            .with_actual(format!("({})", given.join(", ")))
            .with_hint(signatures(f)),
        );
    }
}

/// An int's shape as a float's: what an argument would be turned into a
/// float.
fn int_as_float(shape: &PTy) -> PTy {
    match shape {
        PTy::Int => PTy::Float,
        other => other.clone(),
    }
}

/// What a part whose type has a hole is asked for: its own type; an open
/// literal in it is reported unless an error already hides the whole (`want`
/// is quiet) or the hole itself comes from an error.
fn for_hole(hole: Hole, want: &Want) -> Want {
    match (hole, want) {
        (Hole::Open, Want::Is(..) | Want::Free) => Want::Free,
        _ => Want::Quiet,
    }
}

/// The overloads of `f` that accept arguments of these partial types, with the
/// bindings each makes.
fn accepting(f: &StdFn, shapes: &[PTy]) -> Vec<(&'static Overload, Bindings)> {
    f.overloads
        .iter()
        .filter(|o| o.params.len() == shapes.len())
        .filter_map(|o| {
            let mut b = Bindings::default();
            o.params
                .iter()
                .zip(shapes)
                .all(|(p, s)| b.unify(p, s))
                .then_some((o, b))
        })
        .collect()
}

/// The standard function a call of the unknown `func` with arguments of
/// `types` (`None`: not known) most likely meant: its synonym or its name in
/// another case when the arguments fit it, else the function they fit whose
/// name is nearest (a near spelling, or one sharing a word: MAP_PUT and
/// MAP_SET, JOIN_STR and JOIN).
fn meant(func: &str, types: &[Option<Type>]) -> Option<&'static StdFn> {
    if let Some(f) = function_meant(func).and_then(stdlib::lookup) {
        if fits(f, types) {
            return Some(f);
        }
    }
    let words = |name: &str| -> Vec<String> {
        name.split('_')
            .filter(|w| w.len() >= 3)
            .map(str::to_ascii_uppercase)
            .collect()
    };
    let own = words(func);
    let near = |f: &StdFn| {
        suggest::closest(func, [f.name]).is_some() || words(f.name).iter().any(|w| own.contains(w))
    };
    STDLIB
        .iter()
        .filter(|f| fits(f, types) && near(f))
        .min_by_key(|f| suggest::distance(&func.to_ascii_uppercase(), f.name))
}

/// `(call NAME ARGS...)`, the arguments as the canonical printer writes them.
fn call_text(name: &str, args: &[Expr]) -> String {
    let mut call = format!("(call {name}");
    for a in args {
        call.push(' ');
        call.push_str(&canon::print_expr(a));
    }
    call.push(')');
    call
}

/// Whether some overload of `f` takes arguments of `types` (an unknown type
/// fits any parameter).
fn fits(f: &StdFn, types: &[Option<Type>]) -> bool {
    f.overloads.iter().any(|o| {
        let mut b = stdlib::Bindings::default();
        o.params.len() == types.len()
            && o.params
                .iter()
                .zip(types)
                .all(|(p, t)| t.as_ref().is_none_or(|t| b.unify(p, t)))
    })
}

/// `LEN(T[]) -> int; LEN(map<K,V>) -> int; LEN(string) -> int`.
pub(super) fn signatures(f: &StdFn) -> String {
    let sigs: Vec<String> = f
        .overloads
        .iter()
        .map(|o| format!("{}{}", f.name, o.text()))
        .collect();
    let mut vars = Vec::new();
    for o in f.overloads {
        for p in o.params.iter().chain([&o.ret]) {
            type_vars(p, &mut vars);
        }
    }
    vars.sort_unstable();
    vars.dedup();
    let meanings: Vec<&str> = vars
        .iter()
        .map(|v| match v {
            'K' => "K is int or string",
            'T' => "T is any type",
            _ => "V is any type",
        })
        .collect();
    let mut s = sigs.join("; ");
    if !meanings.is_empty() {
        s.push_str(&format!(
            " ({}, the same at each place it appears in one signature)",
            meanings.join(", ")
        ));
    }
    s
}

/// The type variables in a pattern.
fn type_vars(p: &stdlib::Pat, out: &mut Vec<char>) {
    use stdlib::Pat;
    match p {
        Pat::T => out.push('T'),
        Pat::K => out.push('K'),
        Pat::V => out.push('V'),
        Pat::Array(e) => type_vars(e, out),
        Pat::Map(k, v) => {
            type_vars(k, out);
            type_vars(v, out);
        }
        Pat::Int | Pat::Float | Pat::Bool | Pat::Str => {}
    }
}
