//! The TextMate grammar of Isu, for editors' highlighting (the VS Code
//! extension's `syntaxes/isu.tmLanguage.json`), from the tables the parser
//! reads: the keywords by their role ([`Kw`]), the operators and iterator
//! forms and the type names ([`vocab`]), the standard functions
//! ([`STDLIB`]). Pack functions (`math.GCD`) are matched by their form, a
//! namespace, a dot and a name, since the extension serves every project
//! whatever packs it loads.
//!
//! Every pattern is a plain regular expression (no look-around), so that
//! the tests check it with the `regex` crate as well as with the editors'
//! own engine.

use crate::stdlib::STDLIB;
use crate::syntax::vocab::{self, Kw};
use serde_json::{json, Map, Value};

/// The grammar's scope name.
pub const SCOPE: &str = "source.isu";

/// The scope of a keyword, by its role.
pub fn keyword_scope(k: Kw) -> &'static str {
    if k.is_section() {
        "keyword.other.section.isu"
    } else if k.is_step_kind() {
        "keyword.control.statement.isu"
    } else if k.is_field() {
        "variable.other.property.field.isu"
    } else if k.is_patch_entry() || k == Kw::Patch {
        "keyword.other.patch.isu"
    } else {
        "keyword.control.block.isu"
    }
}

/// The scopes of the other words.
pub const OPERATOR_SCOPE: &str = "keyword.operator.word.isu";
pub const FUNCTION_SCOPE: &str = "support.function.builtin.isu";
pub const PACK_FUNCTION_SCOPE: &str = "support.function.pack.isu";
pub const TYPE_SCOPE: &str = "support.type.isu";
pub const STEP_ID_SCOPE: &str = "entity.name.label.step-id.isu";

/// `\b(?:a|b|c)\b`, longest word first.
fn words(list: &[&str]) -> String {
    let mut sorted: Vec<&str> = list.to_vec();
    sorted.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    sorted.dedup();
    format!("\\b(?:{})\\b", sorted.join("|"))
}

fn pattern(name: &str, regex: String) -> Value {
    json!({"name": name, "match": regex})
}

/// The grammar as JSON text, pretty, with a final line break.
pub fn print() -> String {
    let mut repo = Map::new();
    repo.insert(
        "comment".into(),
        pattern("comment.line.semicolon.isu", "^[ ]*;.*$".into()),
    );
    repo.insert(
        "string".into(),
        json!({
            "name": "string.quoted.double.isu",
            "begin": "\"",
            "end": "\"|$",
            "patterns": [
                {"name": "constant.character.escape.isu", "match": "\\\\(?:[\"\\\\/bfnrt]|u[0-9a-fA-F]{4})"}
            ]
        }),
    );
    // Keywords, by role, in the order of the table.
    let mut roles: Vec<(&str, Vec<&str>)> = Vec::new();
    for &k in Kw::ALL {
        let scope = keyword_scope(k);
        match roles.iter_mut().find(|(s, _)| *s == scope) {
            Some((_, list)) => list.push(k.as_str()),
            None => roles.push((scope, vec![k.as_str()])),
        }
    }
    let keyword_patterns: Vec<Value> = roles
        .iter()
        .map(|(scope, list)| pattern(scope, words(list)))
        .collect();
    repo.insert("keywords".into(), json!({"patterns": keyword_patterns}));
    repo.insert(
        "step-id".into(),
        pattern(STEP_ID_SCOPE, "\\bS[1-9][0-9]*(?:_[1-9][0-9]*)*\\b".into()),
    );
    let mut heads: Vec<&str> = vocab::OPERATOR_NAMES.to_vec();
    heads.extend(vocab::ITER_FORMS);
    repo.insert(
        "operator".into(),
        json!({
            "match": format!("(\\()[ ]*({})", words(&heads)),
            "captures": {
                "1": {"name": "punctuation.parenthesis.begin.isu"},
                "2": {"name": OPERATOR_SCOPE}
            }
        }),
    );
    let functions: Vec<&str> = STDLIB.iter().map(|f| f.name).collect();
    repo.insert(
        "function".into(),
        json!({"patterns": [
            pattern(FUNCTION_SCOPE, words(&functions)),
            pattern(PACK_FUNCTION_SCOPE, "\\b[A-Za-z_][A-Za-z0-9_]*\\.[A-Za-z_][A-Za-z0-9_]*\\b".into()),
        ]}),
    );
    let mut types: Vec<&str> = vocab::SCALAR_TYPES.to_vec();
    types.push(vocab::MAP_TYPE);
    repo.insert("type".into(), pattern(TYPE_SCOPE, words(&types)));
    repo.insert(
        "constant".into(),
        json!({"patterns": [
            pattern("constant.language.boolean.isu", "\\b(?:true|false)\\b".into()),
            pattern("constant.numeric.float.isu", "-?\\b[0-9]+(?:\\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)\\b".into()),
            pattern("constant.numeric.integer.isu", "-?\\b[0-9]+\\b".into()),
        ]}),
    );
    repo.insert(
        "punctuation".into(),
        json!({"patterns": [
            pattern("punctuation.separator.key-value.isu", ":".into()),
            pattern("punctuation.separator.comma.isu", ",".into()),
            pattern("punctuation.bracket.isu", "[()\\[\\]{}<>]".into()),
        ]}),
    );
    let order = [
        "comment",
        "string",
        "keywords",
        "step-id",
        "operator",
        "function",
        "type",
        "constant",
        "punctuation",
    ];
    let patterns: Vec<Value> = order
        .iter()
        .map(|name| json!({"include": format!("#{name}")}))
        .collect();
    let grammar = json!({
        "$comment": "Generated by `isu grammar --format textmate` from host/src/grammar/textmate.rs; do not edit by hand (a test compares).",
        "name": "Isu",
        "scopeName": SCOPE,
        "fileTypes": ["isu"],
        "patterns": patterns,
        "repository": Value::Object(repo),
    });
    let mut text = serde_json::to_string_pretty(&grammar).unwrap_or_default();
    text.push('\n');
    text
}
