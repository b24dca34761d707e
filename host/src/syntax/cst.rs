//! The raw syntax tree the grammar builds: the text's shape, before any check.
//!
//! The grammar is deliberately looser than the language: sections come in any
//! order, a section or step holds any fields in any order, expressions, places
//! and iterators are generic S-expressions, types are unchecked names. The
//! checks that turn this tree into IIR ([`super::assemble`], [`super::lower`])
//! then say precisely what is wrong ("IF needs ELSE after its THEN block")
//! instead of a grammar's "unexpected token".

use super::token::Kw;
use isu_plugin_api::Span;

/// `v` without room to spare: the grammar grows its lists a few items at a
/// time, and a large program has hundreds of thousands of short ones.
pub fn fitted<T>(mut v: Vec<T>) -> Vec<T> {
    v.shrink_to_fit();
    v
}

/// A whole program file.
#[derive(Debug)]
pub struct File {
    pub sections: Vec<Section>,
}

/// `KW: ...` at the top level.
#[derive(Debug)]
pub struct Section {
    pub kw: Kw,
    pub kw_span: Span,
    pub body: SectionBody,
    pub span: Span,
}

#[derive(Debug)]
pub enum SectionBody {
    /// `META`, `FUNC`, `IO`: a list of fields.
    Fields(Vec<Field>),
    /// `STATE: [name: type = EXPR, ...]`.
    State(Vec<StateItem>),
    /// `LOCAL: [name: type, ...]`.
    Local(Vec<Decl>),
    /// `STEPS: SEQ: BEGIN ... END`.
    Steps(Block),
}

/// `KW: value`, in a section or a step.
#[derive(Debug)]
pub struct Field {
    pub kw: Kw,
    pub kw_span: Span,
    pub value: Value,
    pub span: Span,
}

#[derive(Debug)]
pub enum Value {
    Bool(bool),
    Name(Name),
    Decls(Vec<Decl>),
    Type(Type),
    Json(Json),
    SExpr(SExpr),
    Block(Block),
}

#[derive(Debug, Clone)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

/// `name: type`.
#[derive(Debug)]
pub struct Decl {
    pub name: Name,
    pub ty: Type,
    pub span: Span,
}

/// `name: type = EXPR`.
#[derive(Debug)]
pub struct StateItem {
    pub name: Name,
    pub ty: Type,
    pub init: SExpr,
    pub span: Span,
}

/// A type as written, not yet checked.
#[derive(Debug)]
pub enum Type {
    /// `int`, or any other name.
    Name(Name),
    /// `T[]`.
    Array(Box<Type>),
    /// `map<K,V>`, or any other `name<A,B>`.
    Generic(Name, Box<Type>, Box<Type>, Span),
}

/// A JSON value as written (with `null`, repeated keys and all).
#[derive(Debug)]
pub struct Json {
    pub node: JsonNode,
    pub span: Span,
}

#[derive(Debug)]
pub enum JsonNode {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<Member>),
}

/// `"key": value` in a JSON object.
#[derive(Debug)]
pub struct Member {
    pub key: String,
    pub key_span: Span,
    pub value: Json,
}

/// A generic S-expression: what `COND`, `EXPR`, `TARGET`, `ITER` and `STATE`
/// initializers hold before lowering.
#[derive(Debug)]
pub enum SExpr {
    /// A bare name: `x`, `add`, `LEN`, `math.GCD`.
    Name(Name),
    /// A JSON value: `1`, `"s"`, `true`, `null`, `[1, 2]`, `{"a": 1}`.
    Json(Json),
    /// A step ID where a name could stand, inside a list: `(var S1)`.
    StepLike(Name),
    /// `( items... )`.
    List(Vec<SExpr>, Span),
}

impl SExpr {
    pub fn span(&self) -> Span {
        match self {
            SExpr::Name(n) | SExpr::StepLike(n) => n.span,
            SExpr::Json(j) => j.span,
            SExpr::List(_, s) => *s,
        }
    }
}

/// `BEGIN steps END` or `{ steps }` (the same once parsed).
#[derive(Debug)]
pub struct Block {
    pub steps: Vec<Step>,
    pub span: Span,
}

/// A step's header: `S2: IF "desc"` or `IF:`.
#[derive(Debug)]
pub struct Header {
    pub id: Option<Name>,
    pub kind: Kw,
    pub desc: Option<String>,
    pub span: Span,
}

#[derive(Debug)]
pub struct Step {
    pub header: Header,
    pub body: StepBody,
    pub span: Span,
}

#[derive(Debug)]
pub enum StepBody {
    /// A nested `SEQ` with its block.
    Seq(Block),
    /// `ASSIGN`, `IF`, `LOOP`, `RETURN` and their fields.
    Fields(Vec<Field>),
}

/// A patch file: `PATCH:` and its entries.
#[derive(Debug)]
pub struct Patch {
    pub entries: Vec<PatchEntry>,
}

#[derive(Debug)]
pub struct PatchEntry {
    /// `REPLACE`, `INSERT_AFTER` or `DELETE`.
    pub kw: Kw,
    pub target: Name,
    /// The steps after `REPLACE S2:` or `INSERT_AFTER S2:`; `None` for `DELETE S2`.
    pub steps: Option<Vec<Step>>,
    pub span: Span,
}
