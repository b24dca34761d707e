//! The reply envelope as a grammar, for servers that constrain decoding with
//! GBNF (llama.cpp's `grammar` field): `{"decision": "submit", "artifact":
//! "...", "reason": "..."}`, or the tagged reply (`DECISION: submit`,
//! `REASON: ...`, the artifact between `<<<` and `>>>`), with the artifact
//! what the decision's row of the table says
//! ([`crate::llm::envelope::DECISIONS`]): canonical Isu, a program or a
//! patch, or plain words, or nothing.
//!
//! The Isu rules are those of [`super::isu`]: as they are in a tagged
//! reply, and in a JSON reply rewritten to match the same texts written
//! inside a JSON string ([`in_json_string`]): a quote or a backslash
//! escaped, a line break as `\n`. So the model cannot write an envelope
//! that does not parse, nor an artifact outside canonical Isu.

use super::isu::{grammar, Start, Vocabulary};
use super::model::{alt, lit, repeat, rule, seq, Class, Expr, Grammar, Rule};
use crate::llm::envelope::{Artifact, ReplyFormat, CLOSE, DECISION_TAG, OPEN, REASON_TAG};
use crate::llm::Decision;

/// The longest reason the grammar lets a model write, in characters: a
/// small model under a grammar tends to write until `max_tokens`, and the
/// reason is where it would.
pub const GRAMMAR_REASON: u32 = 160;

/// The longest description (an `explain` reply's artifact) the grammar lets
/// a model write, in characters, for the same reason: long enough for a
/// paragraph, short enough to end well before a modest `max_tokens`.
pub const GRAMMAR_WORDS: u32 = 800;

/// The envelope grammar for a request that accepts `allow`, replies written
/// in `format`. With `header` (the canonical `META`, `FUNC` and `IO` a
/// program must start with), a submitted program starts with exactly that
/// text.
pub fn envelope(
    vocab: &Vocabulary,
    allow: &[Decision],
    header: Option<&str>,
    format: ReplyFormat,
) -> Grammar {
    // What a text is written as inside the reply: escaped in a JSON
    // string, or as it is between the tagged reply's delimiter lines.
    let written = |e: &Expr| match format {
        ReplyFormat::Json => in_json_string(e),
        ReplyFormat::Tagged => e.clone(),
    };
    let mut rules = vec![Rule {
        name: "envelope".into(),
        token: false,
        doc: match format {
            ReplyFormat::Json => "A reply: one JSON object, its fields in the schema's order.",
            ReplyFormat::Tagged => {
                "A reply: the decision and reason lines, then the artifact between its delimiter lines."
            }
        }
        .into(),
        body: alt(allow.iter().map(|d| {
            let artifact = match d.artifact() {
                Artifact::Program => match header {
                    Some(h) => seq([
                        written(&lit(h)),
                        rule("state"),
                        rule("local"),
                        rule("auto_steps"),
                    ]),
                    None => rule("program"),
                },
                Artifact::Patch => rule("patch"),
                Artifact::Words => rule("words"),
                Artifact::Empty => lit(""),
            };
            let (open, close) = match format {
                ReplyFormat::Json => (
                    format!("{{\"decision\": \"{}\", \"artifact\": \"", d.as_str()),
                    "\"}".to_owned(),
                ),
                ReplyFormat::Tagged => (
                    format!("{DECISION_TAG} {}\n{REASON_TAG} ", d.as_str()),
                    String::new(),
                ),
            };
            let between = match format {
                ReplyFormat::Json => [artifact, lit("\", \"reason\": \""), rule("reason")],
                ReplyFormat::Tagged => [rule("reason"), lit(format!("\n{OPEN}\n")), artifact],
            };
            let end = match format {
                ReplyFormat::Json => lit(close),
                ReplyFormat::Tagged => lit(CLOSE),
            };
            let mut items = vec![lit(open)];
            items.extend(between.into_iter().filter(|e| !matches!(e, Expr::Lit(s) if s.is_empty())));
            items.push(end);
            seq(items)
        })),
    }];
    let printable = match format {
        // Printable characters but a quote or a backslash, which a JSON
        // string would have to escape.
        ReplyFormat::Json => Class::of(&[(' ', '!'), ('#', '['), (']', '~')]),
        ReplyFormat::Tagged => Class::of(&[(' ', '~')]),
    };
    rules.push(Rule {
        name: "reason".into(),
        token: true,
        doc: match format {
            ReplyFormat::Json => "A short reason: printable characters, no quote or backslash.",
            ReplyFormat::Tagged => "A short reason: printable characters on one line.",
        }
        .into(),
        body: repeat(Expr::Class(printable.clone()), 0, Some(GRAMMAR_REASON)),
    });
    if allow.iter().any(|d| d.artifact() == Artifact::Words) {
        rules.push(Rule {
            name: "words".into(),
            token: true,
            doc: match format {
                ReplyFormat::Json => {
                    "A description: printable characters and line breaks, no quote or backslash."
                }
                ReplyFormat::Tagged => {
                    "A description: printable characters and line breaks (at most one blank line at a time), each line ended, no line starting with >, so that none closes the artifact."
                }
            }
            .into(),
            body: match format {
                ReplyFormat::Json => repeat(
                    alt([Expr::Class(printable), lit(json_inner("\n"))]),
                    1,
                    Some(GRAMMAR_WORDS),
                ),
                ReplyFormat::Tagged => {
                    let opens_line = Expr::Class(printable.minus(&Class::of(&[('>', '>')])));
                    seq([
                        opens_line.clone(),
                        repeat(
                            alt([
                                Expr::Class(printable),
                                // A line break, or one blank line between paragraphs.
                                seq([repeat(lit("\n"), 1, Some(2)), opens_line]),
                            ]),
                            0,
                            Some(GRAMMAR_WORDS - 1),
                        ),
                        lit("\n"),
                    ])
                }
            },
        });
    }
    // The rules of Isu, when an artifact is Isu text.
    if allow
        .iter()
        .any(|d| matches!(d.artifact(), Artifact::Program | Artifact::Patch))
    {
        let isu = grammar(vocab, Start::Any);
        rules.extend(
            isu.rules
                .into_iter()
                .filter(|r| r.name != "isu_text")
                .map(|r| Rule {
                    body: written(&r.body),
                    ..r
                }),
        );
    }
    Grammar { rules }
}

/// The characters a JSON string cannot hold as they are.
fn specials() -> Class {
    Class::of(&[('\0', '\u{1f}'), ('"', '"'), ('\\', '\\')])
}

/// `text` as it is written inside a JSON string.
pub fn json_inner(text: &str) -> String {
    let quoted = serde_json::Value::String(text.to_owned()).to_string();
    quoted[1..quoted.len() - 1].to_owned()
}

/// An expression matching exactly the texts `e` matches, each written
/// inside a JSON string. Control characters other than the line break,
/// which canonical Isu never holds, are left out of character classes.
pub fn in_json_string(e: &Expr) -> Expr {
    match e {
        Expr::Lit(s) => Expr::Lit(json_inner(s)),
        Expr::Class(c) => {
            let plain = c.minus(&specials());
            let escaped = ['"', '\\', '\n']
                .into_iter()
                .filter(|&ch| c.contains(ch))
                .map(|ch| Expr::Lit(json_inner(&ch.to_string())));
            let mut items: Vec<Expr> = Vec::new();
            if !plain.is_empty() {
                items.push(Expr::Class(plain));
            }
            items.extend(escaped);
            alt(items)
        }
        Expr::Ref(_) | Expr::Described(_) => e.clone(),
        Expr::Seq(items) => Expr::Seq(items.iter().map(in_json_string).collect()),
        Expr::Alt(items) => Expr::Alt(items.iter().map(in_json_string).collect()),
        Expr::Repeat { item, min, max } => Expr::Repeat {
            item: Box::new(in_json_string(item)),
            min: *min,
            max: *max,
        },
        Expr::Except {
            base,
            minus,
            expanded,
        } => Expr::Except {
            base: Box::new(in_json_string(base)),
            minus: Box::new(in_json_string(minus)),
            expanded: Box::new(in_json_string(expanded)),
        },
    }
}
