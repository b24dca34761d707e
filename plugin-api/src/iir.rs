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
pub const IIR_FORMAT: &str = "isu-iir/0.1";

/// A region of source text. `lo..hi` are byte offsets; `line` and `col` are
/// 1-based and point at `lo` (`col` counts Unicode scalar values). The default,
/// all zeros, marks a node that no source text produced (a patch or a test built it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    pub lo: u32,
    pub hi: u32,
    pub line: u32,
    pub col: u32,
}

impl Span {
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

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn is_positive_decimal(s: &str) -> bool {
    !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()) && !s.starts_with('0')
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
    pub func: Func,
    pub io: Io,
    /// `STATE` variables, initialized in order before the steps run.
    pub state: Vec<StateVar>,
    /// `LOCAL` variables, declared without a value.
    pub locals: Vec<Decl>,
    /// The root `SEQ` under `STEPS:`; it has no step ID.
    pub body: Block,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Func {
    pub name: Ident,
    pub args: Vec<Decl>,
    pub returns: Type,
    pub span: Span,
}

/// `name: type`, in `ARGS` or `LOCAL`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decl {
    pub name: Ident,
    pub ty: Type,
    pub span: Span,
}

/// `name: type = EXPR`, in `STATE`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StateVar {
    pub name: Ident,
    pub ty: Type,
    pub init: Expr,
    pub span: Span,
}

/// A name and where it was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// The `IO` section: `input[i]` maps argument names to JSON values, `output[i]`
/// is the expected result. A valid program has as many of one as of the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Io {
    pub input: Vec<Example>,
    pub output: Vec<Example>,
    pub span: Span,
}

/// One JSON value of `IO`, with its place in the source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Example {
    pub value: Literal,
    pub span: Span,
}

/// A `BEGIN ... END` block (or `{ ... }` on input).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub steps: Vec<Step>,
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
    pub span: Span,
    pub node: Node,
}

/// The five statements, fields in their fixed order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Node {
    /// A nested block of steps.
    Seq {
        block: Block,
    },
    Assign {
        target: Place,
        expr: Expr,
    },
    If {
        cond: Expr,
        #[serde(rename = "then")]
        then_block: Block,
        #[serde(rename = "else")]
        else_block: Block,
    },
    Loop {
        iter: Iter,
        body: Block,
    },
    Return {
        expr: Expr,
    },
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
            Node::Assign { .. } | Node::Return { .. } => Vec::new(),
        }
    }

    pub fn blocks_mut(&mut self) -> Vec<&mut Block> {
        match self {
            Node::Seq { block } => vec![block],
            Node::If {
                then_block,
                else_block,
                ..
            } => vec![then_block, else_block],
            Node::Loop { body, .. } => vec![body],
            Node::Assign { .. } | Node::Return { .. } => Vec::new(),
        }
    }
}

/// What an `ASSIGN` writes: a variable, or an element place inside one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "place", rename_all = "lowercase")]
pub enum Place {
    Var {
        name: String,
        span: Span,
    },
    /// `(index BASE EXPR)`: an array element (which must exist) or a map entry
    /// (inserted or replaced).
    Index {
        base: Box<Place>,
        index: Expr,
        span: Span,
    },
}

impl Place {
    /// The variable at the root of the place.
    pub fn root(&self) -> (&str, Span) {
        match self {
            Place::Var { name, span } => (name, *span),
            Place::Index { base, .. } => base.root(),
        }
    }

    pub fn span(&self) -> Span {
        match self {
            Place::Var { span, .. } | Place::Index { span, .. } => *span,
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
        var: Ident,
        start: Expr,
        end: Expr,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<Expr>,
        span: Span,
    },
    /// `(each x EXPR)`: the elements of an array, in order.
    Each { var: Ident, seq: Expr, span: Span },
    /// `(while COND)`: COND is checked before every round.
    While { cond: Expr, span: Span },
}

impl Iter {
    pub fn span(&self) -> Span {
        match self {
            Iter::Range { span, .. } | Iter::Each { span, .. } | Iter::While { span, .. } => *span,
        }
    }
}

/// An expression, with its span and, after validation, its static type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expr {
    pub span: Span,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ty: Option<Type>,
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
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "expr", rename_all = "lowercase")]
pub enum ExprNode {
    /// `(const JSON)`.
    Const { value: Literal },
    /// `(var name)`.
    Var { name: String },
    /// `(neg a)`, `(not a)`.
    Unary { op: UnaryOp, arg: Box<Expr> },
    /// `(add a b)` and the other two-operand operators.
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `(index a i)`: an array element or a map value (`MAP_GET`).
    Index { base: Box<Expr>, index: Box<Expr> },
    /// `(call FN args...)` with FN a standard function or a pack's `ns.NAME`.
    Call { func: String, args: Vec<Expr> },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl UnaryOp {
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
