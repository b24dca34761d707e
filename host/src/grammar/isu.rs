//! The grammar of canonical Isu, built from the tables the parser and the
//! validator use: the keywords ([`Kw`]), the operators ([`UnaryOp`],
//! [`BinaryOp`]), the standard functions ([`crate::stdlib::STDLIB`]) and the
//! loaded packs' functions, each with its number of arguments.

use super::model::{
    alt, class, list, lit, opt, plus, repeat, rule, seq, star, Class, Expr, Grammar, Rule,
};
use super::words::{decimal_up_to, unreserved, Reserved};
use crate::functions::Functions;
use crate::stdlib::STDLIB;
use crate::syntax::{Kw, KEYWORDS};
use isu_plugin_api::{BinaryOp, UnaryOp};
use std::collections::BTreeMap;

/// The functions a call may name, each with the numbers of arguments it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocabulary {
    functions: BTreeMap<String, Vec<usize>>,
}

impl Vocabulary {
    /// The standard functions only.
    pub fn standard() -> Vocabulary {
        let mut functions = BTreeMap::new();
        for f in STDLIB {
            let mut arities: Vec<usize> = f.overloads.iter().map(|o| o.params.len()).collect();
            arities.sort_unstable();
            arities.dedup();
            functions.insert(f.name.to_owned(), arities);
        }
        Vocabulary { functions }
    }

    /// The standard functions and those of the loaded packs.
    pub fn with_packs(packs: &Functions) -> Vocabulary {
        let mut v = Vocabulary::standard();
        for f in packs.iter() {
            v.add(&f.name, f.signature.params.len());
        }
        v
    }

    /// Adds a function (`math.GCD`) taking `arity` arguments.
    pub fn add(&mut self, name: &str, arity: usize) {
        let arities = self.functions.entry(name.to_owned()).or_default();
        if !arities.contains(&arity) {
            arities.push(arity);
            arities.sort_unstable();
        }
    }

    /// Every function with its arities, sorted by name.
    pub fn functions(&self) -> impl Iterator<Item = (&str, &[usize])> {
        self.functions
            .iter()
            .map(|(n, a)| (n.as_str(), a.as_slice()))
    }

    /// The functions taking `arity` arguments, sorted by name.
    fn of_arity(&self, arity: usize) -> Vec<&str> {
        self.functions()
            .filter(|(_, a)| a.contains(&arity))
            .map(|(n, _)| n)
            .collect()
    }

    fn arities(&self) -> Vec<usize> {
        let mut all: Vec<usize> = self.functions.values().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

/// What a grammar derives: a whole program, a patch file, or either.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    Program,
    Patch,
    Any,
}

/// Whether step headers carry IDs: always (a program without `AUTO_ID`), or
/// as the writer likes (under `AUTO_ID`, and in patches).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ids {
    Required,
    Optional,
}

impl Ids {
    /// A rule name of this mode: `step` or `auto_step`.
    fn name(self, base: &str) -> String {
        match self {
            Ids::Required => base.to_owned(),
            Ids::Optional => format!("auto_{base}"),
        }
    }
}

fn kw(k: Kw) -> &'static str {
    k.as_str()
}

/// `KEYWORD: ` as a field starts.
fn field(k: Kw) -> Expr {
    lit(format!("{}: ", kw(k)))
}

/// A line: indentation, the content, a line break.
fn line(items: impl IntoIterator<Item = Expr>) -> Expr {
    seq([rule("indent")]
        .into_iter()
        .chain(items)
        .chain([rule("newline")]))
}

/// A section line at column 0.
fn section_line(items: impl IntoIterator<Item = Expr>) -> Expr {
    seq(items.into_iter().chain([rule("newline")]))
}

struct Builder {
    rules: Vec<Rule>,
}

impl Builder {
    fn rule(&mut self, name: impl Into<String>, doc: &str, body: Expr) {
        self.push(name.into(), false, doc, body);
    }

    fn token(&mut self, name: &str, doc: &str, body: Expr) {
        self.push(name.to_owned(), true, doc, body);
    }

    fn push(&mut self, name: String, token: bool, doc: &str, body: Expr) {
        self.rules.push(Rule {
            name,
            token,
            doc: doc.to_owned(),
            body,
        });
    }
}

/// The grammar of canonical Isu: a program (`start`: [`Start::Program`]) or
/// a patch file, with calls to the functions of `vocab`.
pub fn grammar(vocab: &Vocabulary, start: Start) -> Grammar {
    let mut b = Builder { rules: Vec::new() };
    if start == Start::Any {
        b.rule(
            "isu_text",
            "An Isu text is a program or a patch file.",
            alt([rule("program"), rule("patch")]),
        );
    }
    if start != Start::Patch {
        b.rule(
            "program",
            "A program: with META AUTO_ID: true its steps may leave out their IDs; without it every step has one.",
            alt([rule("auto_program"), rule("plain_program")]),
        );
        program(&mut b);
    }
    if start != Start::Program {
        b.rule(
            "patch",
            "A patch file: PATCH: and one or more entries naming steps by ID.\nThe steps a patch brings may leave out their IDs.",
            seq([
                section_line([lit(format!("{}:", kw(Kw::Patch)))]),
                plus(rule("patch_entry")),
            ]),
        );
        patch(&mut b);
    }
    if start != Start::Patch {
        steps(&mut b, Ids::Required);
    }
    steps(&mut b, Ids::Optional);
    declarations(&mut b);
    expressions(&mut b, vocab);
    types(&mut b);
    json(&mut b);
    lexical(&mut b);
    Grammar { rules: b.rules }
}

fn program(b: &mut Builder) {
    let sections = |steps: &str| {
        seq([
            rule("func"),
            opt(rule("types")),
            rule("io"),
            rule("state"),
            rule("local"),
            rule(steps),
        ])
    };
    b.rule(
        "auto_program",
        "",
        seq([rule("meta"), sections("auto_steps")]),
    );
    b.rule("plain_program", "", sections("steps"));
    b.rule(
        "meta",
        "Canonical text writes META only when AUTO_ID is true.",
        seq([
            section_line([lit(format!("{}:", kw(Kw::Meta)))]),
            line([field(Kw::AutoId), lit("true")]),
        ]),
    );
    b.rule(
        "func",
        "",
        seq([
            section_line([lit(format!("{}:", kw(Kw::Func)))]),
            line([field(Kw::Name), rule("name")]),
            line([field(Kw::Args), rule("decls")]),
            line([field(Kw::Returns), rule("type")]),
        ]),
    );
    b.rule(
        "types",
        "TYPES declares structs with fixed fields, each at least one; canonical text leaves TYPES out when it declares none.",
        section_line([
            field(Kw::Types),
            lit("["),
            rule("struct_decl"),
            star(seq([lit(", "), rule("struct_decl")])),
            lit("]"),
        ]),
    );
    b.rule(
        "io",
        "INPUT holds one object per example, from argument names to values; OUTPUT the expected results.",
        seq([
            section_line([lit(format!("{}:", kw(Kw::Io)))]),
            line([
                field(Kw::Input),
                lit("["),
                list(rule("json_object"), ", "),
                lit("]"),
            ]),
            line([field(Kw::Output), rule("json_array")]),
        ]),
    );
    b.rule(
        "state",
        "STATE variables are initialized in order before the steps run.",
        section_line([
            field(Kw::State),
            lit("["),
            list(rule("state_var"), ", "),
            lit("]"),
        ]),
    );
    b.rule("local", "", section_line([field(Kw::Local), rule("decls")]));
    b.rule(
        "decls",
        "",
        seq([lit("["), list(rule("decl"), ", "), lit("]")]),
    );

    for ids in [Ids::Required, Ids::Optional] {
        b.rule(
            ids.name("steps"),
            if ids == Ids::Required {
                "The root of the steps is one SEQ without an ID."
            } else {
                ""
            },
            seq([
                section_line([lit(format!("{}:", kw(Kw::Steps)))]),
                line([lit(format!("{}: {}", kw(Kw::Seq), kw(Kw::Begin)))]),
                star(rule(&ids.name("step"))),
                line([lit(kw(Kw::End))]),
            ]),
        );
    }
}

fn patch(b: &mut Builder) {
    let target = |k: Kw| seq([lit(format!("{} ", kw(k))), rule("step_id")]);
    let steps_entry = |k: Kw| seq([line([target(k), lit(":")]), plus(rule("auto_step"))]);
    // `OP SECTION NAME: [entries]`, each section with its own entries. The
    // operation is a literal of its own, as in the step forms, so that no
    // literal is a prefix of another one a lexer must choose between.
    let declaration = |k: Kw, name: bool| {
        let section = |sec: Kw, items: &str| {
            let mut head = vec![lit(kw(sec))];
            if name {
                head.push(lit(" "));
                head.push(rule("name"));
            }
            head.push(lit(": "));
            head.push(rule(items));
            seq(head)
        };
        line([
            lit(format!("{} ", kw(k))),
            alt([
                section(Kw::State, "state_entries"),
                section(Kw::Local, "local_entries"),
                section(Kw::Types, "types_entries"),
            ]),
        ])
    };
    b.rule(
        "patch_entry",
        "REPLACE takes exactly one step or entry, the inserts one or more. INSERT_INTO puts steps first in a block (an IF names THEN or ELSE; STEPS is the root block) or entries first in a section.",
        alt([
            seq([line([target(Kw::Replace), lit(":")]), rule("auto_step")]),
            steps_entry(Kw::InsertAfter),
            steps_entry(Kw::InsertBefore),
            seq([
                line([
                    lit(format!("{} ", kw(Kw::InsertInto))),
                    alt([
                        seq([
                            rule("step_id"),
                            opt(seq([lit(" "), rule("block_name")])),
                        ]),
                        lit(kw(Kw::Steps)),
                    ]),
                    lit(":"),
                ]),
                plus(rule("auto_step")),
            ]),
            line([target(Kw::Delete)]),
            declaration(Kw::Replace, true),
            declaration(Kw::InsertAfter, true),
            declaration(Kw::InsertBefore, true),
            declaration(Kw::InsertInto, false),
            line([
                lit(format!("{} ", kw(Kw::Delete))),
                rule("declaration_section"),
                lit(" "),
                rule("name"),
            ]),
        ]),
    );
    b.rule(
        "block_name",
        "",
        alt([Kw::Then, Kw::Else, Kw::Body].map(|k| lit(kw(k)))),
    );
    b.rule(
        "declaration_section",
        "",
        alt([Kw::State, Kw::Local, Kw::Types].map(|k| lit(kw(k)))),
    );
    let some = |item: &str| {
        seq([
            lit("["),
            rule(item),
            star(seq([lit(", "), rule(item)])),
            lit("]"),
        ])
    };
    b.rule(
        "state_entries",
        "The entries a patch brings, one or more, written as in their section.",
        some("state_var"),
    );
    b.rule("local_entries", "", some("decl"));
    b.rule("types_entries", "", some("struct_decl"));
}

/// The entries of STATE, LOCAL and TYPES, in programs and patches alike.
fn declarations(b: &mut Builder) {
    b.rule(
        "state_var",
        "",
        seq([
            rule("name"),
            lit(": "),
            rule("type"),
            lit(" = "),
            rule("expr"),
        ]),
    );
    b.rule("decl", "", seq([rule("name"), lit(": "), rule("type")]));
    b.rule(
        "struct_decl",
        "",
        seq([
            rule("name"),
            lit(" = {"),
            rule("decl"),
            star(seq([lit(", "), rule("decl")])),
            lit("}"),
        ]),
    );
}

/// The statements, in one of the two ID modes.
fn steps(b: &mut Builder, ids: Ids) {
    let n = |base: &str| ids.name(base);
    let header = |k: Kw| {
        let with_id = seq([
            rule("step_id"),
            lit(format!(": {}", kw(k))),
            opt(seq([lit(" "), rule("string")])),
        ]);
        match ids {
            Ids::Required => with_id,
            Ids::Optional => alt([lit(format!("{}:", kw(k))), with_id]),
        }
    };
    let block = |k: Kw| {
        seq([
            line([lit(format!("{}: {}", kw(k), kw(Kw::Begin)))]),
            star(rule(&n("step"))),
            line([lit(kw(Kw::End))]),
        ])
    };
    b.rule(
        n("step"),
        match ids {
            Ids::Required => "A step header is ID: KIND, with an optional description.",
            Ids::Optional => "Under AUTO_ID a header may also be KIND: alone.",
        },
        alt(["assign", "if", "loop", "jump", "seq"].map(|k| rule(&n(k)))),
    );
    b.rule(
        n("assign"),
        "",
        seq([
            line([header(Kw::Assign)]),
            line([field(Kw::Target), rule("place")]),
            line([field(Kw::Expr), rule("expr")]),
        ]),
    );
    b.rule(
        n("if"),
        "An empty ELSE is left out.",
        seq([
            line([header(Kw::If)]),
            line([field(Kw::Cond), rule("expr")]),
            block(Kw::Then),
            opt(block(Kw::Else)),
        ]),
    );
    b.rule(
        n("loop"),
        "",
        seq([
            line([header(Kw::Loop)]),
            line([field(Kw::Iter), rule("iter")]),
            block(Kw::Body),
        ]),
    );
    // One rule for the three: a rule of BREAK alone would be regular, and
    // llguidance makes a regular rule one lexeme, whose lexer then loses
    // the lines that share its start.
    b.rule(
        n("jump"),
        "RETURN, BREAK and CONTINUE leave a block; BREAK and CONTINUE stand only inside a LOOP's BODY (the validator checks).",
        alt([
            seq([
                line([header(Kw::Return)]),
                line([field(Kw::Expr), rule("expr")]),
            ]),
            line([header(Kw::Break)]),
            line([header(Kw::Continue)]),
        ]),
    );
    let seq_header = match ids {
        Ids::Required => seq([header(Kw::Seq), lit(format!(" {}", kw(Kw::Begin)))]),
        Ids::Optional => alt([
            lit(format!("{}: {}", kw(Kw::Seq), kw(Kw::Begin))),
            seq([
                rule("step_id"),
                lit(format!(": {}", kw(Kw::Seq))),
                opt(seq([lit(" "), rule("string")])),
                lit(format!(" {}", kw(Kw::Begin))),
            ]),
        ]),
    };
    b.rule(
        n("seq"),
        "A nested SEQ takes its block right after its header.",
        seq([
            line([seq_header]),
            star(rule(&n("step"))),
            line([lit(kw(Kw::End))]),
        ]),
    );
}

fn expressions(b: &mut Builder, vocab: &Vocabulary) {
    let unary: Vec<Expr> = UnaryOp::ALL.iter().map(|o| lit(o.name())).collect();
    let is_logic = |o: &&BinaryOp| {
        matches!(
            o,
            BinaryOp::Add | BinaryOp::Mul | BinaryOp::And | BinaryOp::Or
        )
    };
    let binary: Vec<Expr> = BinaryOp::ALL
        .iter()
        .filter(|o| !is_logic(o))
        .map(|o| lit(o.name()))
        .collect();
    let logic: Vec<Expr> = BinaryOp::ALL
        .iter()
        .filter(is_logic)
        .map(|o| lit(o.name()))
        .collect();
    let operands = |n: usize| seq((0..n).map(|_| seq([lit(" "), rule("expr")])));
    let mut calls = Vec::new();
    for arity in vocab.arities() {
        let names = vocab.of_arity(arity);
        if names.is_empty() {
            continue;
        }
        calls.push(seq([rule(&format!("function_{arity}")), operands(arity)]));
    }
    b.rule(
        "expr",
        "Expressions are prefix S-expressions on one line; canonical text always writes call.",
        alt([
            seq([lit("(const "), rule("json"), lit(")")]),
            seq([lit("(var "), rule("name"), lit(")")]),
            seq([lit("("), rule("unary_op"), operands(1), lit(")")]),
            seq([lit("("), rule("binary_op"), operands(2), lit(")")]),
            seq([
                lit("("),
                rule("nary_op"),
                operands(2),
                star(seq([lit(" "), rule("expr")])),
                lit(")"),
            ]),
            seq([lit("("), rule("form")]),
            seq([lit("(call "), alt(calls), lit(")")]),
            // `(` apart, in a rule of its own: `(struct ` as one literal
            // would share `(s` with `(sub`, and a lexer that does not back
            // up (llguidance's) would then lose `(sub`.
            seq([lit("("), rule("struct_value")]),
            seq([lit("(field"), operands(1), lit(" "), rule("name"), lit(")")]),
        ]),
    );
    b.rule(
        "struct_value",
        "A struct value gives every field of its struct once, in declaration order.",
        seq([
            lit("struct "),
            rule("name"),
            plus(seq([
                lit(" ("),
                rule("name"),
                lit(" "),
                rule("expr"),
                lit(")"),
            ])),
            lit(")"),
        ]),
    );
    b.rule("unary_op", "", alt(unary));
    b.rule("binary_op", "", alt(binary));
    b.rule(
        "nary_op",
        "`add`, `mul`, `and` and `or` take two or more operands.",
        alt(logic),
    );
    b.rule(
        "form",
        "`(index A I)` of an array, a map or a string; `(if C A B)`; `(list E ...)` with one or more elements.",
        alt([
            seq([lit("index"), operands(2), lit(")")]),
            seq([lit("if"), operands(3), lit(")")]),
            seq([
                lit("list"),
                operands(1),
                star(seq([lit(" "), rule("expr")])),
                lit(")"),
            ]),
        ]),
    );
    for arity in vocab.arities() {
        let names = vocab.of_arity(arity);
        b.rule(
            format!("function_{arity}"),
            &format!(
                "The functions that take {arity} argument{}.",
                if arity == 1 { "" } else { "s" }
            ),
            alt(names.into_iter().map(lit)),
        );
    }
    b.rule(
        "place",
        "What an ASSIGN writes: a variable, or an element or a field of one.",
        alt([
            rule("name"),
            seq([
                lit("(index "),
                rule("place"),
                lit(" "),
                rule("expr"),
                lit(")"),
            ]),
            seq([
                lit("(field "),
                rule("place"),
                lit(" "),
                rule("name"),
                lit(")"),
            ]),
        ]),
    );
    b.rule(
        "iter",
        "Loop variables are declared in LOCAL.",
        alt([
            seq([
                lit("(range "),
                rule("name"),
                lit(" "),
                rule("expr"),
                lit(" "),
                rule("expr"),
                opt(seq([lit(" "), rule("expr")])),
                lit(")"),
            ]),
            seq([
                lit("(each "),
                rule("name"),
                lit(" "),
                rule("expr"),
                lit(")"),
            ]),
            seq([lit("(while "), rule("expr"), lit(")")]),
        ]),
    );
}

fn types(b: &mut Builder) {
    b.rule(
        "type",
        "Types: int, float, bool, string, arrays T[], maps map<K,V> with K int or string, and the structs of TYPES by name.",
        seq([
            alt([
                lit("int"),
                lit("float"),
                lit("bool"),
                lit("string"),
                rule("struct_name"),
                seq([
                    lit("map<"),
                    alt([lit("int"), lit("string")]),
                    lit(","),
                    rule("type"),
                    lit(">"),
                ]),
            ]),
            star(lit("[]")),
        ]),
    );
}

fn json(b: &mut Builder) {
    b.rule(
        "json",
        "JSON values as canonical text writes them: no null, one space after each comma and colon.",
        alt([
            rule("int"),
            rule("float"),
            rule("string"),
            lit("true"),
            lit("false"),
            rule("json_array"),
            rule("json_object"),
        ]),
    );
    b.rule(
        "json_array",
        "",
        seq([lit("["), list(rule("json"), ", "), lit("]")]),
    );
    b.rule(
        "json_object",
        "An object may not repeat a key (the parser checks).",
        seq([
            lit("{"),
            list(seq([rule("string"), lit(": "), rule("json")]), ", "),
            lit("}"),
        ]),
    );
}

fn lexical(b: &mut Builder) {
    let letter = [('A', 'Z'), ('a', 'z'), ('_', '_')];
    let word_char = [('A', 'Z'), ('a', 'z'), ('_', '_'), ('0', '9')];
    let mut reserved = Reserved {
        words: KEYWORDS.iter().map(|k| (*k).to_owned()).collect(),
        shapes: vec![("S".to_owned(), Class::of(&[('0', '9'), ('_', '_')]))],
    };
    reserved
        .words
        .extend(["true", "false", "null"].map(str::to_owned));
    let expanded = unreserved(&Class::of(&letter), &Class::of(&word_char), &reserved)
        .unwrap_or_else(|| seq([class(&letter), star(class(&word_char))]));
    b.token(
        "name",
        "A name is a word that is not a keyword, not true, false or null, and not shaped like a step ID (S and digits and underscores).",
        Expr::Except {
            base: Box::new(seq([class(&letter), star(class(&word_char))])),
            minus: Box::new(alt(reserved
                .words
                .iter()
                .map(|w| lit(w.as_str()))
                .chain([seq([lit("S"), plus(class(&[('0', '9'), ('_', '_')]))])]))),
            expanded: Box::new(expanded),
        },
    );
    // A struct's name where a type stands: a name that is none of the
    // built-in type words either, so that a lexer never has two tokens for
    // `int` (tools such as llguidance refuse a grammar that lets it).
    reserved
        .words
        .extend(["int", "float", "bool", "string", "map"].map(str::to_owned));
    let expanded = unreserved(&Class::of(&letter), &Class::of(&word_char), &reserved)
        .unwrap_or_else(|| seq([class(&letter), star(class(&word_char))]));
    b.token(
        "struct_name",
        "A struct's name as a type: a name that is not int, float, bool, string or map.",
        Expr::Except {
            base: Box::new(seq([class(&letter), star(class(&word_char))])),
            minus: Box::new(alt(reserved
                .words
                .iter()
                .map(|w| lit(w.as_str()))
                .chain([seq([lit("S"), plus(class(&[('0', '9'), ('_', '_')]))])]))),
            expanded: Box::new(expanded),
        },
    );
    b.token(
        "step_id",
        "A step ID: S, then positive numbers of at most 9 digits without leading zeros, joined by _.",
        seq([
            lit("S"),
            rule("step_number"),
            star(seq([lit("_"), rule("step_number")])),
        ]),
    );
    b.token(
        "step_number",
        "",
        seq([
            class(&[('1', '9')]),
            repeat(class(&[('0', '9')]), 0, Some(8)),
        ]),
    );
    b.token(
        "int",
        "A 64-bit signed integer, written as in JSON: -9223372036854775808 to 9223372036854775807.",
        Expr::Except {
            base: Box::new(seq([
                opt(lit("-")),
                alt([
                    lit("0"),
                    seq([class(&[('1', '9')]), star(class(&[('0', '9')]))]),
                ]),
            ])),
            minus: Box::new(Expr::Described(format!(
                "an integer below {} or above {}",
                i64::MIN,
                i64::MAX
            ))),
            expanded: Box::new(alt([
                seq([
                    lit("-"),
                    decimal_up_to(&i64::MIN.unsigned_abs().to_string()),
                ]),
                decimal_up_to(&i64::MAX.to_string()),
            ])),
        },
    );
    let digits = || plus(class(&[('0', '9')]));
    let float = |exponent: Expr| {
        seq([
            opt(lit("-")),
            alt([
                seq([
                    alt([
                        lit("0"),
                        seq([class(&[('1', '9')]), star(class(&[('0', '9')]))]),
                    ]),
                    lit("."),
                    digits(),
                ]),
                seq([
                    class(&[('1', '9')]),
                    opt(seq([lit("."), digits()])),
                    lit("e"),
                    class(&[('+', '+'), ('-', '-')]),
                    exponent,
                ]),
            ]),
        ])
    };
    b.token(
        "float",
        "A float as canonical text writes it (Python's repr: 0.1, 2.0, -0.0, 1e+16, 1.5e-05), within the float range (at most 1.7976931348623157e+308 in size). Where a format has no exceptions, the exponent has two or three digits up to 329 (5e-324 is the smallest float) and the parser refuses the rest.",
        Expr::Except {
            base: Box::new(float(seq([
                class(&[('0', '9')]),
                plus(class(&[('0', '9')])),
            ]))),
            minus: Box::new(Expr::Described(
                "a number beyond the float range".to_owned(),
            )),
            expanded: Box::new(float(alt([
                seq([class(&[('0', '9')]), class(&[('0', '9')])]),
                seq([class(&[('1', '2')]), class(&[('0', '9')]), class(&[('0', '9')])]),
                seq([lit("3"), class(&[('0', '2')]), class(&[('0', '9')])]),
            ]))),
        },
    );
    b.token(
        "string",
        "A string as in JSON, on one line; a high surrogate escape must be followed by a low one.",
        seq([
            lit("\""),
            star(alt([rule("string_char"), rule("escape")])),
            lit("\""),
        ]),
    );
    b.token(
        "string_char",
        "Any character but a quote, a backslash or a control character.",
        Expr::Class(
            Class::of(&[
                ('"', '"'),
                ('\\', '\\'),
                ('\0', '\u{1f}'),
                ('\u{7f}', '\u{7f}'),
            ])
            .complement(),
        ),
    );
    let hex = |ranges: &[(char, char)]| class(ranges);
    let any_hex = || hex(&[('0', '9'), ('A', 'F'), ('a', 'f')]);
    let d = || hex(&[('D', 'D'), ('d', 'd')]);
    let exact = seq([
        lit("\\"),
        alt([
            Expr::Class(Class::chars("\"\\/bfnrt")),
            seq([
                lit("u"),
                alt([
                    seq([
                        hex(&[('0', '9'), ('A', 'C'), ('a', 'c'), ('E', 'F'), ('e', 'f')]),
                        any_hex(),
                        any_hex(),
                        any_hex(),
                    ]),
                    seq([d(), hex(&[('0', '7')]), any_hex(), any_hex()]),
                    seq([
                        d(),
                        hex(&[('8', '9'), ('A', 'B'), ('a', 'b')]),
                        any_hex(),
                        any_hex(),
                        lit("\\u"),
                        d(),
                        hex(&[('C', 'F'), ('c', 'f')]),
                        any_hex(),
                        any_hex(),
                    ]),
                ]),
            ]),
        ]),
    ]);
    b.token(
        "escape",
        "",
        Expr::Except {
            base: Box::new(seq([
                lit("\\"),
                alt([
                    Expr::Class(Class::chars("\"\\/bfnrt")),
                    seq([lit("u"), repeat(any_hex(), 4, Some(4))]),
                ]),
            ])),
            minus: Box::new(Expr::Described(
                "a surrogate escape (\\uD800 to \\uDFFF) that is not a high one followed by a low one".to_owned(),
            )),
            expanded: Box::new(exact),
        },
    );
    b.token(
        "indent",
        "Every line but a section's starts with spaces; how many is free (canonical text indents by two per level).",
        plus(lit(" ")),
    );
    b.token("newline", "", lit("\n"));
}
