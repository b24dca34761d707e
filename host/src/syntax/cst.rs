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
    /// `TYPES: [name = {field: type, ...}, ...]`.
    Types(Vec<StructItem>),
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

/// `name = {field: type, ...}`.
#[derive(Debug)]
pub struct StructItem {
    pub name: Name,
    pub fields: Vec<Decl>,
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
    /// `map<K,V>`, or any other `name<A, ...>`.
    Generic(Name, Vec<Type>, Span),
    /// `list[int]`, `dict[str, int]`: the notation of other languages.
    Subscript(Name, Vec<Type>, Span),
}

impl Type {
    pub fn span(&self) -> Span {
        match self {
            Type::Name(n) => n.span,
            Type::Array(t) => t.span(),
            Type::Generic(_, _, s) | Type::Subscript(_, _, s) => *s,
        }
    }
}

/// A JSON value as written (with `null`, repeated keys and all).
#[derive(Debug, Clone)]
pub struct Json {
    pub node: JsonNode,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum JsonNode {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<Member>),
}

/// `"key": value` in a JSON object.
#[derive(Debug, Clone)]
pub struct Member {
    pub key: String,
    pub key_span: Span,
    pub value: Json,
}

/// A generic S-expression: what `COND`, `EXPR`, `TARGET`, `ITER` and `STATE`
/// initializers hold before lowering.
#[derive(Debug, Clone)]
pub enum SExpr {
    /// A bare name: `x`, `add`, `LEN`, `math.GCD`.
    Name(Name),
    /// A JSON value: `1`, `"s"`, `true`, `null`, `[1, 2]`, `{"a": 1}`.
    Json(Json),
    /// A step ID where a name could stand, inside a list: `(var S1)`.
    StepLike(Name),
    /// `( items... )`.
    List(Vec<SExpr>, Span),
    /// An operator symbol of other languages (`+`, `==`, `<`) or a comma,
    /// where an operand or operator stands.
    Sym(Name),
    /// `xs[i]`: an element as other languages write it.
    Subscript(Box<SExpr>, Box<SExpr>, Span),
    /// Several items where one expression must stand: infix notation
    /// (`(var i) + 1`), a call as other languages write it (`len(xs)`).
    Seq(Vec<SExpr>, Span),
}

impl SExpr {
    pub fn span(&self) -> Span {
        match self {
            SExpr::Name(n) | SExpr::StepLike(n) | SExpr::Sym(n) => n.span,
            SExpr::Json(j) => j.span,
            SExpr::List(_, s) | SExpr::Subscript(_, _, s) | SExpr::Seq(_, s) => *s,
        }
    }

    /// One item as itself, several as a [`SExpr::Seq`].
    pub fn sequence(mut items: Vec<SExpr>, span: Span) -> SExpr {
        if items.len() == 1 {
            if let Some(one) = items.pop() {
                return one;
            }
        }
        SExpr::Seq(items, span)
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
    pub form: HeaderForm,
    pub span: Span,
}

/// How a header was written, beyond its ID, kind and description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderForm {
    /// As the language writes it: `KIND:`, `KIND "desc"`, `S2: KIND`, `S2: KIND "desc"`.
    Written,
    /// Without its `:`: `KIND` alone, `S2 KIND`.
    NoColon,
    /// `KIND: "desc"`: a `:` before a description.
    ColonBeforeDesc,
    /// `S2: KIND:`: a `:` after the kind of a header with an ID.
    ColonAfterKind,
}

impl Header {
    pub fn new(
        id: Option<Name>,
        kind: Kw,
        desc: Option<String>,
        form: HeaderForm,
        span: Span,
    ) -> Header {
        Header {
            id,
            kind,
            desc,
            form,
            span,
        }
    }
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
    /// `REPLACE`, `INSERT_AFTER`, `INSERT_BEFORE`, `INSERT_INTO` or `DELETE`.
    pub kw: Kw,
    pub target: PatchTarget,
    pub items: PatchItems,
    pub span: Span,
}

/// What a patch entry names.
#[derive(Debug)]
pub enum PatchTarget {
    /// `S2`, or `S2 THEN` (a block field of the step, for INSERT_INTO).
    Step(Name, Option<(Kw, Span)>),
    /// `STEPS`: the root block, for INSERT_INTO.
    Root(Span),
    /// `STATE t`, `LOCAL`, ...: a declaration section (its keyword's span)
    /// and the entry's name (none: the section itself, for INSERT_INTO).
    Declaration(Kw, Span, Option<Name>),
}

/// What an entry brings after its `:`.
#[derive(Debug)]
pub enum PatchItems {
    None,
    Steps(Vec<Step>),
    State(Vec<StateItem>),
    Local(Vec<Decl>),
    Types(Vec<StructItem>),
}
