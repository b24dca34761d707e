//! IIR, the Isu intermediate representation: the JSON AST that Isu text parses
//! into, deterministically.
//!
//! Every statement carries its step ID and every node its source span. The
//! host guarantees that IIR it hands on is canonical: every step has an ID
//! following the scheme of `spec/isu.ebnf` (top-level steps `S1, S2, ...`, the
//! children of `S2` are `S2_1, S2_2, ...`), blocks are plain step lists, and
//! objects in literals are key-sorted. After validation every expression also
//! carries its static type (`ty`).
//!
//! Expressions have no step ID of their own: an error in an expression belongs
//! to the step that holds it (a `COND` or `ITER` to its IF or LOOP, a `TARGET`
//! or `EXPR` to its ASSIGN or RETURN).

use crate::literal::Literal;
use crate::types::Type;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The version of the IIR JSON form this crate writes. Readers take every
/// minor version of its major and ignore fields they do not know (optional
/// annotations of a later minor); see [`crate::iir_format`].
pub const IIR_FORMAT: &str = "isu-iir/0.4";

/// A region of source text. `lo..hi` are byte offsets; `line` and `col` are
/// 1-based and point at `lo` (`col` counts Unicode scalar values). The default,
/// all zeros, marks a node that no source text produced (a patch or a test built it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// The byte offset of the first byte.
    pub lo: u32,
    /// The byte offset just past the last byte.
    pub hi: u32,
    /// The 1-based line of `lo`.
    pub line: u32,
    /// The 1-based column of `lo`, in Unicode scalar values.
    pub col: u32,
}

impl Span {
    /// Whether no source text produced the node (the span is all zeros).
    pub fn is_synthetic(&self) -> bool {
        *self == Span::default()
    }

    /// The smallest span that covers both (the first's line and column).
    pub fn to(self, other: Span) -> Span {
        if self.is_synthetic() {
            return other;
        }
        if other.is_synthetic() {
            return self;
        }
        let (first, _) = if self.lo <= other.lo {
            (self, other)
        } else {
            (other, self)
        };
        Span {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
            line: first.line,
            col: first.col,
        }
    }
}

/// A step ID such as `S2_1`: `S`, then one or more positive numbers joined by `_`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StepId(String);

impl StepId {
    /// Checks the form `S<n>(_<n>)*` with every `n` a positive decimal without
    /// leading zeros. Returns `None` for anything else.
    pub fn parse(text: &str) -> Option<StepId> {
        let rest = text.strip_prefix('S')?;
        if rest.split('_').all(is_positive_decimal) {
            Some(StepId(text.to_owned()))
        } else {
            None
        }
    }

    /// The ID at a structural path: `[2, 1]` is `S2_1`. `path` must not be empty
    /// and its numbers must be positive.
    pub fn from_path(path: &[u32]) -> StepId {
        let mut s = String::from("S");
        for (i, n) in path.iter().enumerate() {
            if i > 0 {
                s.push('_');
            }
            s.push_str(&n.to_string());
        }
        StepId(s)
    }

    /// The numbers of the ID: `S2_1` is `[2, 1]`.
    pub fn path(&self) -> Vec<u32> {
        self.0[1..]
            .split('_')
            .map(|n| n.parse().unwrap_or(0))
            .collect()
    }

    /// The ID as text: `S2_1`.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn is_positive_decimal(s: &str) -> bool {
    !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()) && !s.starts_with('0')
}

/// Structural order: `S2` < `S2_1` < `S2_10` < `S3` (the order of the steps
/// in the program).
impl Ord for StepId {
    fn cmp(&self, other: &StepId) -> std::cmp::Ordering {
        let nums = |id: &StepId| -> Vec<u32> { id.path() };
        if self.0 == other.0 {
            return std::cmp::Ordering::Equal;
        }
        nums(self)
            .cmp(&nums(other))
            .then_with(|| self.0.cmp(&other.0))
    }
}

impl PartialOrd for StepId {
    fn partial_cmp(&self, other: &StepId) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for StepId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One Isu file: one function.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Program {
    /// Always [`IIR_FORMAT`].
    pub format: String,
    /// `META: AUTO_ID: true` was given: steps in the source may lack IDs.
    pub auto_id: bool,
    /// The `FUNC` section: name, arguments, return type.
    pub func: Func,
    /// The `TYPES` section: the structs the program declares, in order.
    /// Absent in IIR of format 0.1, which has no structs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<StructDef>,
    /// The `IO` section: the input/output examples.
    pub io: Io,
    /// `STATE` variables, initialized in order before the steps run.
    pub state: Vec<StateVar>,
    /// `LOCAL` variables, declared without a value.
    pub locals: Vec<Decl>,
    /// The root `SEQ` under `STEPS:`; it has no step ID.
    pub body: Block,
}

/// The `FUNC` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Func {
    /// `NAME`: the function's name.
    pub name: Ident,
    /// `ARGS`: the parameters, in order.
    pub args: Vec<Decl>,
    /// `RETURNS`: the type of the result.
    pub returns: Type,
    /// The whole section.
    pub span: Span,
}

/// `name: type`, in `ARGS` or `LOCAL`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decl {
    /// The variable's name.
    pub name: Ident,
    /// Its declared type.
    pub ty: Type,
    /// The whole declaration.
    pub span: Span,
}

/// `name = {field: type, ...}`, in `TYPES`: a struct with fixed fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StructDef {
    /// The struct's name, which is its type.
    pub name: Ident,
    /// Its fields, in declaration order (the order of its JSON object's
    /// keys is irrelevant; this order is the canonical one of literals).
    pub fields: Vec<Decl>,
    /// The whole declaration.
    pub span: Span,
}

impl StructDef {
    /// The declared type of field `name`, if the struct has one.
    pub fn field(&self, name: &str) -> Option<&Type> {
        self.fields
            .iter()
            .find(|f| f.name.name == name)
            .map(|f| &f.ty)
    }
}

/// `name: type = EXPR`, in `STATE`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StateVar {
    /// The variable's name.
    pub name: Ident,
    /// Its declared type.
    pub ty: Type,
    /// The initializer, evaluated once before the steps run.
    pub init: Expr,
    /// The whole declaration.
    pub span: Span,
}

/// A name and where it was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

/// The `IO` section: `input[i]` maps argument names to JSON values, `output[i]`
/// is the expected result. A valid program has as many of one as of the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Io {
    /// `INPUT`: each a JSON object from argument name to value.
    pub input: Vec<Example>,
    /// `OUTPUT`: the expected result of each input.
    pub output: Vec<Example>,
    /// The whole section.
    pub span: Span,
}

/// One JSON value of `IO`, with its place in the source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Example {
    /// The value.
    pub value: Literal,
    /// Where it was written.
    pub span: Span,
}

/// A `BEGIN ... END` block (or `{ ... }` on input).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Block {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// From `BEGIN` to `END`.
    pub span: Span,
}

/// A statement with its header: `S2: IF "what it does"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// `None` only before canonicalization, for a step written without an ID
    /// under `AUTO_ID: true`.
    pub id: Option<StepId>,
    /// The optional description string of the header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desc: Option<String>,
    /// The whole step, header and fields.
    pub span: Span,
    /// The statement.
    pub node: Node,
}

/// The five statements, fields in their fixed order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Node {
    /// A nested block of steps.
    Seq {
        /// The steps of the block.
        block: Block,
    },
    /// `ASSIGN`: `TARGET` takes the value of `EXPR`.
    Assign {
        /// `TARGET`: a variable or an element place.
        target: Place,
        /// `EXPR`: the value.
        expr: Expr,
    },
    /// `IF`: `COND`, then `THEN` or `ELSE`.
    If {
        /// `COND`: a bool.
        cond: Expr,
        /// `THEN`: run when `cond` is true.
        #[serde(rename = "then")]
        then_block: Block,
        /// `ELSE`: run when `cond` is false (may be empty).
        #[serde(rename = "else")]
        else_block: Block,
    },
    /// `LOOP`: `BODY` once per round of `ITER`.
    Loop {
        /// `ITER`: the rounds.
        iter: Iter,
        /// `BODY`: run each round.
        body: Block,
    },
    /// `RETURN`: ends the function with the value of `EXPR`.
    Return {
        /// `EXPR`: the result.
        expr: Expr,
    },
    /// `BREAK`: leaves the innermost LOOP.
    Break,
    /// `CONTINUE`: starts the next round of the innermost LOOP.
    Continue,
}

impl Node {
    /// The keyword of the statement: `SEQ`, `ASSIGN`, `IF`, `LOOP`, `RETURN`.
    pub fn keyword(&self) -> &'static str {
        match self {
            Node::Seq { .. } => "SEQ",
            Node::Assign { .. } => "ASSIGN",
            Node::If { .. } => "IF",
            Node::Loop { .. } => "LOOP",
            Node::Return { .. } => "RETURN",
            Node::Break => "BREAK",
            Node::Continue => "CONTINUE",
        }
    }

    /// The blocks directly under this statement, in source order. Their steps
    /// are this step's children for numbering.
    pub fn blocks(&self) -> Vec<&Block> {
        match self {
            Node::Seq { block } => vec![block],
            Node::If {
                then_block,
                else_block,
                ..
            } => vec![then_block, else_block],
            Node::Loop { body, .. } => vec![body],
            Node::Assign { .. } | Node::Return { .. } | Node::Break | Node::Continue => Vec::new(),
        }
    }

    /// [`Node::blocks`], mutable.
    pub fn blocks_mut(&mut self) -> Vec<&mut Block> {
        match self {
            Node::Seq { block } => vec![block],
            Node::If {
                then_block,
                else_block,
                ..
            } => vec![then_block, else_block],
            Node::Loop { body, .. } => vec![body],
            Node::Assign { .. } | Node::Return { .. } | Node::Break | Node::Continue => Vec::new(),
        }
    }
}

/// What an `ASSIGN` writes: a variable, or an element place inside one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "place", rename_all = "lowercase")]
pub enum Place {
    /// A variable, written by its name.
    Var {
        /// The variable's name.
        name: String,
        /// Where it was written.
        span: Span,
    },
    /// `(index BASE EXPR)`: an array element (which must exist) or a map entry
    /// (inserted or replaced).
    Index {
        /// The collection the element is in.
        base: Box<Place>,
        /// The array index or map key.
        index: Expr,
        /// The whole `(index ...)`.
        span: Span,
    },
    /// `(field BASE name)`: a field of a struct.
    Field {
        /// The struct the field is in.
        base: Box<Place>,
        /// The field's name.
        field: Ident,
        /// The whole `(field ...)`.
        span: Span,
    },
}

impl Place {
    /// The variable at the root of the place.
    pub fn root(&self) -> (&str, Span) {
        match self {
            Place::Var { name, span } => (name, *span),
            Place::Index { base, .. } | Place::Field { base, .. } => base.root(),
        }
    }

    /// Where the place was written.
    pub fn span(&self) -> Span {
        match self {
            Place::Var { span, .. } | Place::Index { span, .. } | Place::Field { span, .. } => {
                *span
            }
        }
    }
}

/// The `ITER` of a `LOOP`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "iter", rename_all = "lowercase")]
pub enum Iter {
    /// `(range i START END [STEP])`: `i` from START while below END (above END
    /// when STEP is negative), by STEP (default 1). Bounds and step are read once.
    Range {
        /// The loop variable (declared in `LOCAL`).
        var: Ident,
        /// START: the first value.
        start: Expr,
        /// END: the bound, never reached.
        end: Expr,
        /// STEP, when given (a non-zero int).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<Expr>,
        /// The whole `(range ...)`.
        span: Span,
    },
    /// `(each x EXPR)`: the elements of an array, in order.
    Each {
        /// The loop variable (declared in `LOCAL`).
        var: Ident,
        /// The array, read once.
        seq: Expr,
        /// The whole `(each ...)`.
        span: Span,
    },
    /// `(while COND)`: COND is checked before every round.
    While {
        /// The condition, a bool.
        cond: Expr,
        /// The whole `(while ...)`.
        span: Span,
    },
}

impl Iter {
    /// Where the `ITER` form was written.
    pub fn span(&self) -> Span {
        match self {
            Iter::Range { span, .. } | Iter::Each { span, .. } | Iter::While { span, .. } => *span,
        }
    }

    /// The loop variable a `range` or `each` assigns every round.
    pub fn var(&self) -> Option<&Ident> {
        match self {
            Iter::Range { var, .. } | Iter::Each { var, .. } => Some(var),
            Iter::While { .. } => None,
        }
    }

    /// The expressions of the ITER in evaluation order: START, END and STEP
    /// of a `range` (read once), the array of an `each` (read once), the
    /// COND of a `while` (read before every round).
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
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
}

/// An expression, with its span and, after validation, its static type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expr {
    /// Where it was written.
    pub span: Span,
    /// Its static type: set by validation, absent before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ty: Option<Type>,
    /// What it computes.
    pub node: ExprNode,
}

impl Expr {
    /// An untyped expression at `span`.
    pub fn new(node: ExprNode, span: Span) -> Expr {
        Expr {
            span,
            ty: None,
            node,
        }
    }

    /// The value of an int constant, `(const 3)`.
    pub fn int_const(&self) -> Option<i64> {
        match self.node {
            ExprNode::Const {
                value: Literal::Int(c),
            } => Some(c),
            _ => None,
        }
    }

    /// The value of a bool constant, `(const true)`.
    pub fn bool_const(&self) -> Option<bool> {
        match self.node {
            ExprNode::Const {
                value: Literal::Bool(b),
            } => Some(b),
            _ => None,
        }
    }

    /// Structural equality: the same operators, variables, functions and
    /// constants (of the same type) in the same shape, whatever the spans.
    /// Two such expressions evaluated at one point give the same value or
    /// the same error, since expressions have no side effects.
    pub fn same(&self, other: &Expr) -> bool {
        use ExprNode as N;
        match (&self.node, &other.node) {
            (N::Const { value: x }, N::Const { value: y }) => x == y && self.ty == other.ty,
            (N::Var { name: x }, N::Var { name: y }) => x == y,
            (N::Unary { op: o, arg: x }, N::Unary { op: p, arg: y }) => o == p && x.same(y),
            (
                N::Binary {
                    op: o,
                    lhs: l1,
                    rhs: r1,
                },
                N::Binary {
                    op: p,
                    lhs: l2,
                    rhs: r2,
                },
            ) => o == p && l1.same(l2) && r1.same(r2),
            (
                N::Index {
                    base: b1,
                    index: i1,
                },
                N::Index {
                    base: b2,
                    index: i2,
                },
            ) => b1.same(b2) && i1.same(i2),
            (N::Call { func: f, args: x }, N::Call { func: g, args: y }) => {
                f == g && x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.same(q))
            }
            (N::Struct { name: s, fields: x }, N::Struct { name: t, fields: y }) => {
                s == t
                    && x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|(p, q)| p.name.name == q.name.name && p.value.same(&q.value))
            }
            (
                N::Field {
                    base: b1,
                    field: f1,
                },
                N::Field {
                    base: b2,
                    field: f2,
                },
            ) => f1.name == f2.name && b1.same(b2),
            (N::List { items: x }, N::List { items: y }) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.same(q))
            }
            (
                N::If {
                    cond: c1,
                    then_expr: t1,
                    else_expr: e1,
                },
                N::If {
                    cond: c2,
                    then_expr: t2,
                    else_expr: e2,
                },
            ) => c1.same(c2) && t1.same(t2) && e1.same(e2),
            _ => false,
        }
    }

    /// Whether the expression reads exactly the place `p`: `(var x)` for
    /// `x`, `(index (var x) K)` for `(index x K)` with the same `K`.
    pub fn is_place(&self, p: &Place) -> bool {
        match (&self.node, p) {
            (ExprNode::Var { name }, Place::Var { name: n, .. }) => name == n,
            (
                ExprNode::Index { base, index },
                Place::Index {
                    base: pb,
                    index: pi,
                    ..
                },
            ) => base.is_place(pb) && index.same(pi),
            (
                ExprNode::Field { base, field },
                Place::Field {
                    base: pb,
                    field: pf,
                    ..
                },
            ) => field.name == pf.name && base.is_place(pb),
            _ => false,
        }
    }
}

/// The forms of an expression.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "expr", rename_all = "lowercase")]
pub enum ExprNode {
    /// `(const JSON)`.
    Const {
        /// The value.
        value: Literal,
    },
    /// `(var name)`.
    Var {
        /// The variable's name.
        name: String,
    },
    /// `(neg a)`, `(not a)`.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        arg: Box<Expr>,
    },
    /// `(add a b)` and the other two-operand operators.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// The left operand, evaluated first.
        lhs: Box<Expr>,
        /// The right operand (not evaluated when `and`/`or` short-circuit).
        rhs: Box<Expr>,
    },
    /// `(index a i)`: an array element or a map value (`MAP_GET`).
    Index {
        /// The array or map.
        base: Box<Expr>,
        /// The index or key.
        index: Box<Expr>,
    },
    /// `(call FN args...)` with FN a standard function or a pack's `ns.NAME`.
    Call {
        /// The function's name: `LEN`, or `math.GCD` for a pack function.
        func: String,
        /// The arguments, evaluated left to right.
        args: Vec<Expr>,
    },
    /// `(struct point (x E) (y E))`: a struct value, every field once, in
    /// declaration order (canonical), evaluated in that order.
    Struct {
        /// The struct's name.
        name: String,
        /// The fields with their values.
        fields: Vec<FieldInit>,
    },
    /// `(field E x)`: a field of a struct.
    Field {
        /// The struct.
        base: Box<Expr>,
        /// The field's name.
        field: Ident,
    },
    /// `(list E1 E2 ...)`: an array of one or more elements of one type,
    /// evaluated in order.
    List {
        /// The elements.
        items: Vec<Expr>,
    },
    /// `(if C A B)`: `A` when `C` is true, else `B`; only the chosen branch
    /// is evaluated.
    If {
        /// The condition, a bool.
        cond: Box<Expr>,
        /// The value when `cond` is true.
        #[serde(rename = "then")]
        then_expr: Box<Expr>,
        /// The value when `cond` is false.
        #[serde(rename = "else")]
        else_expr: Box<Expr>,
    },
}

/// `(x E)` in a struct literal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldInit {
    /// The field's name.
    pub name: Ident,
    /// Its value.
    pub value: Expr,
}

/// The one-operand operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnaryOp {
    /// `neg`: int negation (the minimum int overflows).
    Neg,
    /// `not`: bool negation.
    Not,
}

/// The two-operand operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BinaryOp {
    /// `add`: int addition (overflow is an error).
    Add,
    /// `sub`: int subtraction.
    Sub,
    /// `mul`: int multiplication.
    Mul,
    /// `div`: int division, truncating toward zero.
    Div,
    /// `mod`: int remainder, with the sign of the dividend.
    Mod,
    /// `eq`: equality of two values of one type.
    Eq,
    /// `ne`: inequality of two values of one type.
    Ne,
    /// `lt`: less than, on ints or strings.
    Lt,
    /// `le`: less than or equal.
    Le,
    /// `gt`: greater than.
    Gt,
    /// `ge`: greater than or equal.
    Ge,
    /// `and`: short-circuit conjunction of bools.
    And,
    /// `or`: short-circuit disjunction of bools.
    Or,
}

impl UnaryOp {
    /// Every unary operator.
    pub const ALL: [UnaryOp; 2] = [UnaryOp::Neg, UnaryOp::Not];

    /// The operator as written in Isu: `neg`, `not`.
    pub fn name(self) -> &'static str {
        match self {
            UnaryOp::Neg => "neg",
            UnaryOp::Not => "not",
        }
    }
}

impl BinaryOp {
    /// Every binary operator.
    pub const ALL: [BinaryOp; 13] = [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Mod,
        BinaryOp::Eq,
        BinaryOp::Ne,
        BinaryOp::Lt,
        BinaryOp::Le,
        BinaryOp::Gt,
        BinaryOp::Ge,
        BinaryOp::And,
        BinaryOp::Or,
    ];

    /// The comparison that is true exactly when this one is false (`lt`
    /// for `ge`); `None` for an operator that is not a comparison.
    pub fn negated(self) -> Option<BinaryOp> {
        Some(match self {
            BinaryOp::Eq => BinaryOp::Ne,
            BinaryOp::Ne => BinaryOp::Eq,
            BinaryOp::Lt => BinaryOp::Ge,
            BinaryOp::Le => BinaryOp::Gt,
            BinaryOp::Gt => BinaryOp::Le,
            BinaryOp::Ge => BinaryOp::Lt,
            _ => return None,
        })
    }

    /// The operator as written in Isu: `add`, `eq`, `and`, ...
    pub fn name(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::Div => "div",
            BinaryOp::Mod => "mod",
            BinaryOp::Eq => "eq",
            BinaryOp::Ne => "ne",
            BinaryOp::Lt => "lt",
            BinaryOp::Le => "le",
            BinaryOp::Gt => "gt",
            BinaryOp::Ge => "ge",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
        }
    }
}

impl Program {
    /// Every step in structural (pre-)order: a step, then its blocks' steps.
    pub fn steps(&self) -> Vec<&Step> {
        let mut out = Vec::new();
        collect_steps(&self.body, &mut out);
        out
    }

    /// The step with this ID, if any.
    pub fn find_step(&self, id: &StepId) -> Option<&Step> {
        self.steps().into_iter().find(|s| s.id.as_ref() == Some(id))
    }
}

fn collect_steps<'a>(block: &'a Block, out: &mut Vec<&'a Step>) {
    for step in &block.steps {
        out.push(step);
        for b in step.node.blocks() {
            collect_steps(b, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_ids() {
        assert!(StepId::parse("S1").is_some());
        assert_eq!(
            StepId::parse("S12_3_40").map(|s| s.path()),
            Some(vec![12, 3, 40])
        );
        for bad in [
            "S",
            "S0",
            "S01",
            "S1_",
            "S_1",
            "s1",
            "S1__2",
            "T1",
            "S1_0",
            "S1234567890",
        ] {
            assert_eq!(StepId::parse(bad), None, "{bad}");
        }
        assert_eq!(StepId::from_path(&[2, 1]).as_str(), "S2_1");
        let mut ids: Vec<StepId> = ["S10", "S2_1", "S2", "S2_10", "S2_9", "S1"]
            .iter()
            .filter_map(|s| StepId::parse(s))
            .collect();
        ids.sort();
        let sorted: Vec<&str> = ids.iter().map(StepId::as_str).collect();
        assert_eq!(sorted, ["S1", "S2", "S2_1", "S2_9", "S2_10", "S10"]);
    }

    #[test]
    fn span_cover() {
        let a = Span {
            lo: 10,
            hi: 12,
            line: 2,
            col: 3,
        };
        let b = Span {
            lo: 4,
            hi: 6,
            line: 1,
            col: 5,
        };
        assert_eq!(
            a.to(b),
            Span {
                lo: 4,
                hi: 12,
                line: 1,
                col: 5
            }
        );
        assert_eq!(Span::default().to(a), a);
    }
}
