//! What an editor asks about a point of a text: the hover there, what may be
//! written there, where a name there is declared, and the tree of the
//! text's steps. Every answer holds for a text that does not parse (it is
//! read from the tokens: [`syntax::cursor`], [`syntax::declared`],
//! [`syntax::outline_of`]); every place is a byte offset into the text.
//!
//! The words offered and described come from their one table each: the
//! keywords and their fields ([`Kw`]), the operators and iterator forms
//! ([`vocab`]), the type names ([`vocab`]), the functions (the standard
//! table and the loaded packs, [`Functions`]).

use crate::diag::{Diagnostic, Kind};
use crate::functions::{Callable, Functions};
use crate::syntax::{self, vocab, DeclKind, Declared, Kw, Lexeme, OutlineStep, Slot, Word};
use isu_lang::stdlib::STDLIB;
use isu_plugin_api::{Span, StepId};

/// A function described: its signatures, what it does, how it fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionDoc {
    /// `LEN`, `math.GCD`.
    pub name: String,
    /// Each overload, as `(T[]) -> int`.
    pub signatures: Vec<String>,
    pub doc: String,
    /// The runtime codes it fails with (a pack's say when, after a `:`).
    pub errors: Vec<String>,
}

impl FunctionDoc {
    /// Its first signature as a call's text: `LEN(T[]) -> int`.
    pub fn first_signature(&self) -> String {
        self.signatures
            .first()
            .map_or(self.name.clone(), |s| format!("{}{s}", self.name))
    }
}

/// The standard or pack function called `name`, described.
pub fn function(name: &str, packs: &Functions) -> Option<FunctionDoc> {
    Some(match packs.resolve(name)? {
        Callable::Std(f) => FunctionDoc {
            name: f.name.to_owned(),
            signatures: f.overloads.iter().map(|o| o.text()).collect(),
            doc: f.doc.to_owned(),
            errors: f.errors.iter().map(|c| c.as_str().to_owned()).collect(),
        },
        Callable::Pack(f) => FunctionDoc {
            name: f.name.clone(),
            signatures: vec![f.signature.to_string()],
            doc: f.doc.clone(),
            errors: f.errors.clone(),
        },
    })
}

/// Every function a call may name: the standard ones, then the packs'.
fn functions(packs: &Functions) -> Vec<FunctionDoc> {
    STDLIB
        .iter()
        .map(|f| f.name.to_owned())
        .chain(packs.iter().map(|f| f.name.clone()))
        .filter_map(|name| function(&name, packs))
        .collect()
}

/// A hover: the text to show (Markdown) for the word at `span`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hover {
    pub span: Span,
    pub markdown: String,
}

/// The hover at byte `offset` of `text`: a function's signatures,
/// documentation and errors; a variable's type and declaration; a step's
/// kind and ID; a keyword's place in the language.
pub fn hover(text: &str, offset: u32, packs: &Functions) -> Option<Hover> {
    let cursor = syntax::cursor(text, offset);
    let word = cursor.word?;
    let written = word_text(text, &word);
    let markdown = match word.lexeme {
        Lexeme::Name => match (&cursor.slot, function(written, packs)) {
            (Slot::Function | Slot::Operator { .. }, Some(f)) => function_markdown(&f),
            (_, f) => match declaration(text, written) {
                Some(d) => declaration_markdown(text, &d),
                None => function_markdown(&f?),
            },
        },
        Lexeme::StepId | Lexeme::Keyword(_) if on_header(text, &word).is_some() => {
            step_markdown(&on_header(text, &word)?)
        }
        Lexeme::Keyword(k) => keyword_markdown(k)?,
        _ => return None,
    };
    Some(Hover {
        span: word.span,
        markdown,
    })
}

fn word_text<'t>(text: &'t str, w: &Word) -> &'t str {
    text.get(w.span.lo as usize..w.span.hi as usize)
        .unwrap_or_default()
}

/// The step whose header holds `word` (its ID or its kind).
fn on_header(text: &str, word: &Word) -> Option<OutlineStep> {
    syntax::outline_of(text)
        .into_iter()
        .find(|s| s.lo <= word.span.lo && word.span.hi <= s.header_hi)
}

/// The declaration of the variable or struct `name`.
fn declaration(text: &str, name: &str) -> Option<Declared> {
    syntax::declared(text).into_iter().find(|d| d.name == name)
}

fn function_markdown(f: &FunctionDoc) -> String {
    let mut out = String::from("```isu\n");
    for s in &f.signatures {
        out.push_str(&format!("{}{s}\n", f.name));
    }
    out.push_str("```\n\n");
    out.push_str(&f.doc);
    if !f.errors.is_empty() {
        out.push_str("\n\nErrors:");
        for e in &f.errors {
            let summary = isu_lang::RuntimeCode::ALL
                .iter()
                .find(|c| c.as_str() == e.as_str())
                .map_or(String::new(), |c| format!(": {}", c.summary()));
            out.push_str(&format!("\n- `{e}`{summary}"));
        }
    }
    out
}

fn decl_where(kind: DeclKind) -> &'static str {
    match kind {
        DeclKind::Arg => "an argument (FUNC ARGS)",
        DeclKind::State => "a STATE variable",
        DeclKind::Local => "a LOCAL variable",
        DeclKind::Struct => "a struct of TYPES",
    }
}

fn declaration_markdown(text: &str, d: &Declared) -> String {
    let written = text
        .get(d.span.lo as usize..d.span.hi as usize)
        .unwrap_or_default();
    let shown = match d.kind {
        DeclKind::Struct => written.to_owned(),
        _ => format!("{}: {}", d.name, d.ty),
    };
    format!(
        "```isu\n{shown}\n```\n\n{}, declared at line {}.",
        capitalized(decl_where(d.kind)),
        d.name_span.line
    )
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

fn step_markdown(s: &OutlineStep) -> String {
    let kind = s.kind.map_or("step", Kw::as_str);
    let header = syntax::header_text(kind, Some(s.id.as_str()), s.desc.as_deref());
    let mut out = format!("```isu\n{header}\n```\n\nStep {}", s.id);
    match s.kind {
        Some(k) => {
            let fields: Vec<&str> = k.field_order().iter().map(|f| f.as_str()).collect();
            match fields.as_slice() {
                [] => out.push_str(&format!(" ({})", k.as_str())),
                _ => out.push_str(&format!(" ({}: {})", k.as_str(), fields.join(", "))),
            }
        }
        None => out.push_str(" (of no known kind)"),
    }
    out.push('.');
    if let Some(w) = s.written.as_deref().filter(|w| *w != s.id.as_str()) {
        out.push_str(&format!(
            " Written `{w}`: its canonical ID is {} (`isu fmt` writes it).",
            s.id
        ));
    }
    out
}

fn keyword_markdown(k: Kw) -> Option<String> {
    let fields = |k: Kw| {
        k.field_order()
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some(if k.is_section() {
        match k.field_order() {
            [] => format!("`{}`: a section.", k.as_str()),
            _ => format!("`{}`: a section, with {}.", k.as_str(), fields(k)),
        }
    } else if k.is_step_kind() {
        match k.field_order() {
            [] => format!("`{}`: a step.", k.as_str()),
            _ => format!("`{}`: a step, with {}.", k.as_str(), fields(k)),
        }
    } else if k.is_field() {
        format!("`{}`: a field of {}.", k.as_str(), k.field_holder())
    } else {
        return None;
    })
}

/// Where the name at byte `offset` of `text` is declared: a variable's
/// `name: type` in ARGS, STATE or LOCAL, a struct's in TYPES.
pub fn definition(text: &str, offset: u32) -> Option<Span> {
    let cursor = syntax::cursor(text, offset);
    let word = cursor.word.filter(|w| w.lexeme == Lexeme::Name)?;
    if matches!(cursor.slot, Slot::Function | Slot::Operator { .. }) {
        return None;
    }
    declaration(text, word_text(text, &word)).map(|d| d.name_span)
}

/// One step of the text's tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// Its canonical ID.
    pub id: StepId,
    pub kind: Option<Kw>,
    pub desc: Option<String>,
    /// The whole step.
    pub span: (u32, u32),
    /// Its header.
    pub header: (u32, u32),
    /// The steps in its blocks.
    pub children: Vec<Symbol>,
}

/// The tree of the steps of `text`, by canonical ID, also when the text does
/// not parse (as far as its headers can be read).
pub fn symbols(text: &str) -> Vec<Symbol> {
    let mut roots: Vec<Symbol> = Vec::new();
    for s in syntax::outline_of(text) {
        let symbol = Symbol {
            id: s.id.clone(),
            kind: s.kind,
            desc: s.desc.clone(),
            span: (s.lo, s.hi.max(s.header_hi)),
            header: (s.lo, s.header_hi),
            children: Vec::new(),
        };
        // Steps come in source order, a parent before its children.
        let path = s.id.path();
        let mut level = &mut roots;
        for depth in 1..path.len() {
            let prefix = &path[..depth];
            match level.iter().position(|c| c.id.path() == prefix) {
                Some(i) => level = &mut level[i].children,
                None => break,
            }
        }
        level.push(symbol);
    }
    roots
}

/// What a completion inserts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionKind {
    Section,
    Statement,
    Field,
    Operator,
    Function,
    Variable,
    Type,
    Struct,
}

/// One completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    /// A short line beside the label (a function's first signature, a
    /// variable's type).
    pub detail: Option<String>,
    /// Markdown shown with it.
    pub doc: Option<String>,
    /// What replaces the bytes `replace` of the text.
    pub insert: String,
    pub replace: (u32, u32),
}

/// What may be written at byte `offset` of `text`: the keywords and fields
/// that fit there, the operators after `(`, the functions of a call with
/// their signatures, the declared variables, the types.
pub fn complete(text: &str, offset: u32, packs: &Functions) -> Vec<Completion> {
    let cursor = syntax::cursor(text, offset);
    let replace = cursor
        .word
        .filter(|w| w.span.lo <= offset)
        .map_or((offset, offset), |w| (w.span.lo, offset.max(w.span.lo)));
    let mut out = Vec::new();
    let mut add = |label: String, kind, detail: Option<String>, doc: Option<String>, insert| {
        out.push(Completion {
            label,
            kind,
            detail,
            doc,
            insert,
            replace,
        })
    };
    // Keywords of one role, each inserted with `suffix` (`IF:` on a line of
    // its own, `IF` after `S2: `).
    let keywords = |role: fn(Kw) -> bool, kind, suffix: &str, add: &mut Add<'_>| {
        for k in Kw::ALL.iter().filter(|k| role(**k)) {
            let doc = keyword_markdown(*k);
            add(
                k.as_str().to_owned(),
                kind,
                None,
                doc,
                format!("{}{suffix}", k.as_str()),
            );
        }
    };
    match cursor.slot {
        Slot::Section { section, given } => {
            keywords(Kw::is_section, CompletionKind::Section, ":", &mut add);
            fields(section, &given, &mut add);
        }
        Slot::Statement { step, given } => {
            keywords(Kw::is_step_kind, CompletionKind::Statement, ":", &mut add);
            fields(step, &given, &mut add);
        }
        Slot::StepKind => keywords(Kw::is_step_kind, CompletionKind::Statement, "", &mut add),
        Slot::Operator { field } => {
            let forms: &[&str] = if field == Some(Kw::Iter) {
                vocab::ITER_FORMS
            } else {
                vocab::OPERATOR_NAMES
            };
            for op in forms {
                add(
                    (*op).to_owned(),
                    CompletionKind::Operator,
                    None,
                    None,
                    (*op).to_owned(),
                );
            }
        }
        Slot::Value { field } => match field {
            Kw::Iter => {
                for form in vocab::ITER_FORMS {
                    add(
                        format!("({form}"),
                        CompletionKind::Operator,
                        None,
                        None,
                        format!("({form} "),
                    );
                }
            }
            Kw::Cond | Kw::Expr => {
                for op in vocab::OPERATOR_NAMES {
                    add(
                        format!("({op}"),
                        CompletionKind::Operator,
                        None,
                        None,
                        format!("({op} "),
                    );
                }
            }
            Kw::Target => variables(text, &mut add),
            Kw::Returns => types(text, &mut add),
            _ => {}
        },
        Slot::Function => {
            for f in functions(packs) {
                let doc = function_markdown(&f);
                add(
                    f.name.clone(),
                    CompletionKind::Function,
                    Some(f.first_signature()),
                    Some(doc),
                    f.name.clone(),
                );
            }
        }
        Slot::Variable => variables(text, &mut add),
        Slot::Type => types(text, &mut add),
        Slot::Other => {}
    }
    out
}

type Add<'a> = dyn FnMut(String, CompletionKind, Option<String>, Option<String>, String) + 'a;

/// The fields of `holder` not yet `given`, in their canonical order.
fn fields(holder: Option<Kw>, given: &[Kw], add: &mut Add<'_>) {
    for f in holder.map_or(&[][..], Kw::field_order) {
        if !given.contains(f) {
            let doc = keyword_markdown(*f);
            add(
                f.as_str().to_owned(),
                CompletionKind::Field,
                None,
                doc,
                format!("{}: ", f.as_str()),
            );
        }
    }
}

fn variables(text: &str, add: &mut Add<'_>) {
    for d in syntax::declared(text) {
        if d.kind != DeclKind::Struct {
            add(
                d.name.clone(),
                CompletionKind::Variable,
                Some(d.ty.clone()),
                Some(declaration_markdown(text, &d)),
                d.name,
            );
        }
    }
}

fn types(text: &str, add: &mut Add<'_>) {
    for t in vocab::SCALAR_TYPES {
        add(
            (*t).to_owned(),
            CompletionKind::Type,
            None,
            None,
            (*t).to_owned(),
        );
    }
    let map = format!("{}<K, V>", vocab::MAP_TYPE);
    add(
        map.clone(),
        CompletionKind::Type,
        None,
        None,
        format!("{}<", vocab::MAP_TYPE),
    );
    for d in syntax::declared(text) {
        if d.kind == DeclKind::Struct {
            add(
                d.name.clone(),
                CompletionKind::Struct,
                Some(d.ty.clone()),
                None,
                d.name,
            );
        }
    }
}

/// Where an editor shows a diagnostic of `text`: at its span; at its step's
/// header when it has no span, or when its span lies outside the step it
/// names (a TestFail points at the IO example's OUTPUT but belongs to the
/// RETURN that gave the result), the span then among `related`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub span: (u32, u32),
    /// Other places involved, each with what it is: the diagnostic's labels.
    pub related: Vec<((u32, u32), String)>,
}

/// Where to show `d`, a diagnostic of `text` whose steps are `outline`.
pub fn place(text: &str, d: &Diagnostic, outline: &[OutlineStep]) -> Placed {
    let own = d.span.map(|s| (s.start, s.end));
    let step = d
        .step
        .as_ref()
        .and_then(|id| outline.iter().find(|s| &s.id == id));
    let mut related: Vec<((u32, u32), String)> = d
        .labels
        .iter()
        .map(|l| ((l.span.start, l.span.end), l.message.clone()))
        .collect();
    let span = match (step, own) {
        (Some(s), Some(own)) if own.0 < s.lo || own.1 > s.hi.max(s.header_hi) => {
            let what = match d.kind {
                Kind::TestFail => "the IO example's expected OUTPUT",
                _ => "the place it points at",
            };
            related.insert(0, (own, what.to_owned()));
            (s.lo, s.header_hi)
        }
        (_, Some(own)) => own,
        (Some(s), None) => (s.lo, s.header_hi),
        (None, None) => (0, first_line_end(text)),
    };
    Placed { span, related }
}

/// The end of the first line: where a diagnostic without a place is shown.
fn first_line_end(text: &str) -> u32 {
    text.find(['\n', '\r']).unwrap_or(text.len()) as u32
}

/// Where the IO examples of `text` stand (the IO section) and how many
/// there are: what a code lens that runs them needs. `None` when the text
/// does not parse or gives no example.
pub fn examples_at(text: &str) -> Option<((u32, u32), usize)> {
    let fe = crate::pipeline::parse_canonical(&crate::source::Source::new("", text));
    let program = fe.program?;
    let n = program.io.input.len();
    (n > 0).then_some(((program.io.span.lo, program.io.span.hi), n))
}
