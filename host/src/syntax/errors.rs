//! Grammar errors in words: what lalrpop expected, said for the place it
//! happened ("expected BEGIN or `{` to open the THEN block of S2, found
//! (var x)"), with the step it belongs to.

use super::structure::{Delim, Scanner};
use super::token::{Kw, Pos, Tok};
use super::vocab::{statement_advice, symbol_operator};
use super::Goal;
use crate::diag::{Code, Diagnostic, Fix};
use isu_plugin_api::StepId;

/// The failure the grammar reported, reduced to what the messages need.
#[derive(Debug)]
pub struct Failure<'a> {
    /// The token it stopped at, or `None` at the end of the text.
    pub found: Option<(Pos, Tok<'a>, Pos)>,
    /// Where the text ends (for an error at the end).
    pub end: Pos,
    /// The terminals the grammar would have taken, as lalrpop names them.
    pub expected: Vec<String>,
    /// The tokens before the failing one, most recent first (up to three).
    pub before: [Option<Tok<'a>>; 3],
    /// Whether the failing token is the first of its line.
    pub first_on_line: bool,
    /// The whole text (to quote the rest of a line).
    pub text: &'a str,
}

impl Failure<'_> {
    /// The text from the failing token to the end of its line, without
    /// trailing blanks and a trailing `:`, and where that ends.
    fn rest_of_line(&self) -> Option<(&str, u32)> {
        let (l, _, _) = self.found?;
        let from = l.off as usize;
        let end = self.text[from..]
            .find('\n')
            .map_or(self.text.len(), |p| from + p);
        let rest = self.text[from..end].trim_end();
        Some((
            rest.strip_suffix(':').unwrap_or(rest).trim_end(),
            (from + rest.len()) as u32,
        ))
    }
}

const EXPR_STARTS: &[&str] = &[
    "name", "number", "string", "true", "false", "null", "(", "[", "{",
];
const JSON_STARTS: &[&str] = &["number", "string", "true", "false", "null", "[", "{"];
/// The keywords of one class, as lalrpop names the terminals.
fn keywords(class: fn(Kw) -> bool) -> Vec<&'static str> {
    Kw::ALL
        .iter()
        .filter(|k| class(**k))
        .map(|k| k.as_str())
        .collect()
}

/// What starts a step: its kind, or its ID.
fn step_starts() -> Vec<&'static str> {
    let mut out = keywords(Kw::is_step_kind);
    out.push("step ID");
    out
}

/// The diagnostic for a grammar failure at a place the scanner describes.
pub fn describe(goal: Goal, f: &Failure<'_>, cx: &Scanner<'_>) -> Diagnostic {
    let expected: Vec<&str> = f.expected.iter().map(|s| s.trim_matches('"')).collect();
    let found = match &f.found {
        Some((_, t, _)) => t.describe(),
        None => "the end of the file".to_owned(),
    };
    let (code, message, hint) = classify(goal, f, cx, &expected);
    let code = match (code, &f.found) {
        (Code::UnexpectedToken, None) => Code::UnexpectedEnd,
        (c, _) => c,
    };
    let span = match &f.found {
        Some((l, _, r)) => l.to(*r),
        None => f.end.to(f.end),
    };
    let step = cx
        .innermost_step()
        .and_then(|s| s.id)
        .and_then(StepId::parse);
    // A message about the token itself names it already.
    let message = if matches!(code, Code::UnknownStatement | Code::InvalidExpression) {
        message
    } else {
        format!("{message}, found {found}")
    };
    let mut d = Diagnostic::error(code, message)
        .at(span)
        .in_step(step.as_ref())
        .with_expected(words(&expected));
    d.hint = hint;
    d.fix = header_rest(f, cx).and_then(|(_, fix)| fix);
    d
}

type Said = (Code, String, Option<String>);

fn classify(goal: Goal, f: &Failure<'_>, cx: &Scanner<'_>, expected: &[&str]) -> Said {
    let [b0, b1, b2] = f.before;
    let of_owner = cx
        .innermost_step()
        .map_or(String::new(), |s| format!(" of {}", s.name()));
    let unexpected = |m: String| (Code::UnexpectedToken, m, None);

    // A line `WORD:` naming a statement Isu does not have (`BREAK:`).
    if let Some(Tok::Ident(word)) = f.found.map(|t| t.1) {
        if let Some(advice) = statement_advice(word).filter(|_| f.first_on_line) {
            return (
                Code::UnknownStatement,
                format!("`{word}` is not an Isu statement: the statements are SEQ, ASSIGN, IF, LOOP and RETURN"),
                Some(advice.to_owned()),
            );
        }
    }

    // An operator symbol outside an expression's parentheses.
    if let Some(Tok::Sym(sym)) = f.found.map(|t| t.1) {
        let hint = symbol_operator(sym).map(|(op, _)| {
            format!(
                "Isu has no infix operators: `{sym}` is written ({op} ...), inside the expression"
            )
        });
        return (
            Code::InvalidExpression,
            format!("`{sym}` cannot stand here: Isu has no infix operators"),
            hint,
        );
    }

    // Right after `KW:`: the value the keyword takes.
    if b0 == Some(Tok::Colon) {
        if let Some(Tok::Kw(k)) = b1 {
            if let Some(said) = after_colon(k, b2, &of_owner) {
                return said;
            }
        }
        if let Some(Tok::StepId(id)) = b1 {
            return unexpected(format!(
                "expected the kind of step {id} (SEQ, ASSIGN, IF, LOOP or RETURN) after `{id}:`"
            ));
        }
    }

    // The entries of a patch.
    if goal == Goal::Patch && cx.stack.is_empty() {
        if let (Some(Tok::StepId(id)), Some(Tok::Kw(k))) = (b0, b1) {
            if k == Kw::Delete {
                return (
                    Code::InvalidPatch,
                    format!("DELETE {id} takes no step after it (to change {id} write REPLACE {id}: and the new step)"),
                    None,
                );
            }
            if k.is_patch_entry() {
                return (
                    Code::InvalidPatch,
                    format!("expected `:` after {} {id}", k.as_str()),
                    None,
                );
            }
        }
    }

    // A header or field keyword without its `:`.
    if expected == [":"] {
        return match b0 {
            Some(Tok::StepId(id)) => unexpected(format!(
                "expected `:` after the step ID {id} (a step header is `{id}: IF`)"
            )),
            Some(Tok::Kw(k)) if k.is_step_kind() => unexpected(format!(
                "expected `:` after {} (a step header is `{}:` without an ID, `S1: {}` with one)",
                k.as_str(),
                k.as_str(),
                k.as_str()
            )),
            Some(Tok::Kw(k)) => unexpected(format!(
                "expected `:` after {} (it is written `{}: ...`)",
                k.as_str(),
                k.as_str()
            )),
            Some(Tok::Str(key)) if cx.stack.last().is_some_and(|f| f.delim == Delim::Brace) => {
                unexpected(format!(
                    "expected `:` after the key \"{key}\" of a JSON object (written {{\"key\": value}})"
                ))
            }
            _ => unexpected("expected `:`".to_owned()),
        };
    }

    // `name: type` without `= EXPR` in STATE.
    if expected.contains(&"=") && cx.section == Some(Kw::State) {
        return unexpected(
            "expected `=` and the initial value: a STATE variable is written name: type = EXPR"
                .to_owned(),
        );
    }

    // On the line of a header, after its kind: words where a description in
    // quotes may stand, or the condition or iterator written inline.
    if let Some((said, _)) = header_rest(f, cx) {
        return said;
    }

    // After `S2: IF`: a description string, fields, or the next step.
    if let (Some(Tok::Kw(k)), Some(Tok::Colon), Some(Tok::StepId(id))) = (b0, b1, b2) {
        if k.is_step_kind() {
            match f.found.map(|t| t.1) {
                Some(Tok::Colon) => {
                    return (
                        Code::UnexpectedToken,
                        format!("a step header with an ID has no `:` after its kind: write `{id}: {}`, not `{id}: {}:`", k.as_str(), k.as_str()),
                        Some(format!("remove the `:` after {}", k.as_str())),
                    )
                }
                Some(Tok::Ident(_)) => {
                    return (
                        Code::UnexpectedToken,
                        format!("a step's description is a JSON string: write `{id}: {} \"what it does\"`", k.as_str()),
                        Some("put the description in double quotes".to_owned()),
                    )
                }
                _ => {}
            }
        }
    }

    // Inside `map<K,V>`.
    let has = |t: &str| expected.contains(&t);
    if has("[") && !has("]") && (has(",") || has(">")) && expected.len() == 2 {
        let msg = if has(",") {
            "expected `,` and the value type in the map type map<K,V>"
        } else {
            "expected `>` to close the map type map<K,V>"
        };
        return unexpected(msg.to_owned());
    }

    // Inside the brackets of an expression or a JSON value.
    if let Some(top) = cx.stack.last().filter(|t| !t.block) {
        let inside = format!("inside {} opened at line {}", top.describe(), top.pos.line);
        let what = match top.delim {
            Delim::Paren => "an operand or `)`".to_owned(),
            Delim::Bracket if expected.contains(&",") && expected.contains(&"]") => {
                "`,` or `]`".to_owned()
            }
            Delim::Bracket if expected.contains(&":") => "`:`".to_owned(),
            Delim::Brace if expected.contains(&",") && expected.contains(&"}") => {
                "`,` or `}`".to_owned()
            }
            _ => words(expected),
        };
        return unexpected(format!("expected {what} {inside}"));
    }

    // At the statement level of a step.
    if let Some(level) = cx.level() {
        if let Some(step) = level.step {
            if let Some(kind) = step.kind.filter(|&k| k != Kw::Seq) {
                let order = kind.field_order();
                let next = order.iter().find(|k| !level.fields.contains(**k));
                let name = step.name();
                let found_is_field =
                    matches!(f.found.map(|t| t.1), Some(Tok::Kw(k)) if k.is_field());
                if let (Some(&want), false) = (next, found_is_field) {
                    let last = level.last_field;
                    let after = match last {
                        None => "the header".to_owned(),
                        Some(p) if p.is_block_field() => format!("the {} block", p.as_str()),
                        Some(p) => format!("the {}", p.as_str()),
                    };
                    let why = super::assemble::needs(kind, want);
                    return (
                        Code::MissingField,
                        format!(
                            "expected {}: after {after} of {name} ({why})",
                            want.as_str()
                        ),
                        None,
                    );
                }
                return unexpected(format!(
                    "expected a field of {name}, the next step, or the end of its block"
                ));
            }
        }
        if let Some(block) = cx.stack.last() {
            return unexpected(format!(
                "expected a step or {} to close {} opened at line {}",
                block.delim.close_text(),
                block.describe(),
                block.pos.line
            ));
        }
    }

    // The top level.
    match goal {
        Goal::Patch => patch_level(f, cx),
        Goal::File => file_level(f, cx, expected),
    }
}

/// The rest of a header line that is not Isu: a description without quotes
/// (`LOOP: walk the list`), a condition or iterator written inline
/// (`IF (gt (var x) (const 0)):`), with the rewrite and its fix.
fn header_rest(f: &Failure<'_>, cx: &Scanner<'_>) -> Option<(Said, Option<Fix>)> {
    let step = cx.innermost_step()?;
    let kind = step.kind?;
    let (pos, tok, _) = f.found?;
    if step.pos.line != pos.line || tok == Tok::Colon {
        return None;
    }
    let (rest, rest_end) = f.rest_of_line()?;
    let header = match step.id {
        Some(id) => format!("{id}: {}", kind.as_str()),
        None => kind.as_str().to_owned(),
    };
    let field = match kind {
        Kw::If => Some(Kw::Cond),
        Kw::Loop => Some(Kw::Iter),
        Kw::Return => Some(Kw::Expr),
        _ => None,
    };
    match (tok, field) {
        (Tok::LParen, Some(field)) => {
            let written = if step.id.is_some() {
                header.clone()
            } else {
                format!("{header}:")
            };
            Some((
                (
                    Code::UnexpectedToken,
                    format!(
                        "the {} of {} goes in its {}: field, on the line after the header",
                        match field {
                            Kw::Cond => "condition",
                            Kw::Iter => "iterator",
                            _ => "value",
                        },
                        kind.as_str(),
                        field.as_str()
                    ),
                    Some(format!(
                        "write `{written}` and on the next line `{}: {rest}`",
                        field.as_str()
                    )),
                ),
                None,
            ))
        }
        (Tok::Ident(_) | Tok::Int(_) | Tok::Float(_) | Tok::Kw(_), _) => {
            let mut quoted = String::new();
            let _ = isu_plugin_api::literal::write_json_string(&mut quoted, rest);
            let span = pos.to(Pos {
                off: rest_end,
                ..pos
            });
            Some((
                (
                    Code::UnexpectedToken,
                    format!("a step's description is a JSON string: write `{header} {quoted}`"),
                    Some(format!("write {header} {quoted}")),
                ),
                Some(Fix::replace(span, quoted)),
            ))
        }
        _ => None,
    }
}

/// What `KW:` takes, said for the keyword.
fn after_colon(k: Kw, b2: Option<Tok<'_>>, of_owner: &str) -> Option<Said> {
    let msg = match k {
        Kw::Cond => format!("expected a condition after COND:{of_owner}, such as (lt (var i) (var n))"),
        Kw::Expr => format!("expected an expression after EXPR:{of_owner}, such as (var x) or (const 1)"),
        Kw::Target => format!("expected a variable name, (index PLACE EXPR) or (field PLACE name) after TARGET:{of_owner}"),
        Kw::Iter => format!(
            "expected (range i A B), (each x EXPR) or (while COND) after ITER:{of_owner}"
        ),
        Kw::Then | Kw::Else | Kw::Body => {
            format!("expected BEGIN or `{{` to open the {} block{of_owner}", k.as_str())
        }
        Kw::Name => "expected the function's name after NAME:".to_owned(),
        Kw::Args => {
            "expected the argument list after ARGS:, such as [xs: int[], k: int] ([] for none)".to_owned()
        }
        Kw::Returns => {
            "expected a type after RETURNS: (int, float, bool, string, T[] or map<K,V>)".to_owned()
        }
        Kw::AutoId => "expected true or false after AUTO_ID:".to_owned(),
        Kw::Input => "expected a JSON array of argument objects after INPUT:, such as [{\"xs\": [1, 2]}]".to_owned(),
        Kw::Output => "expected a JSON array of results after OUTPUT:, such as [3]".to_owned(),
        Kw::State => "expected the list of STATE variables after STATE:, such as [total: int = (const 0)] ([] for none)".to_owned(),
        Kw::Types => "expected the list of structs after TYPES:, such as [point = {x: int, y: int}] ([] for none)".to_owned(),
        Kw::Local => "expected the list of LOCAL variables after LOCAL:, such as [i: int, x: string] ([] for none)".to_owned(),
        Kw::Steps => "expected `SEQ: BEGIN` after STEPS: (the steps are one root SEQ block)".to_owned(),
        Kw::Seq if b2 == Some(Tok::Kw(Kw::Steps)) => {
            "expected BEGIN after `STEPS: SEQ:` (the root SEQ is SEQ: BEGIN ... END)".to_owned()
        }
        Kw::Seq => "expected BEGIN after `SEQ:` (a nested SEQ is SEQ: BEGIN ... END)".to_owned(),
        Kw::Meta | Kw::Func | Kw::Io => format!("expected the fields of {}", k.as_str()),
        Kw::Patch => format!("expected {ENTRIES} after PATCH:"),
        _ => return None,
    };
    let code = if k == Kw::Patch {
        Code::InvalidPatch
    } else {
        Code::UnexpectedToken
    };
    Some((code, msg, None))
}

fn file_level(f: &Failure<'_>, cx: &Scanner<'_>, expected: &[&str]) -> Said {
    let found = f.found.map(|t| t.1);
    let step_like = match found {
        Some(Tok::StepId(_)) => true,
        Some(Tok::Kw(k)) => k.is_step_kind(),
        _ => false,
    };
    if step_like && cx.section != Some(Kw::Steps) {
        return (
            Code::MissingSection,
            "steps stand only under STEPS: as STEPS: SEQ: BEGIN ... END".to_owned(),
            Some("write `STEPS:` and `SEQ: BEGIN` before the first step".to_owned()),
        );
    }
    let fields_of = |s: Kw| match s {
        Kw::Meta => Some("AUTO_ID"),
        Kw::Func => Some("NAME, ARGS, RETURNS"),
        Kw::Io => Some("INPUT, OUTPUT"),
        _ => None,
    };
    let message = match cx.section {
        None => "expected a section (META, FUNC, TYPES, IO, STATE, LOCAL or STEPS)".to_owned(),
        Some(s) => match fields_of(s) {
            Some(fields) if expected.contains(&"NAME") => format!(
                "expected a field of {} ({fields}) or the next section",
                s.as_str()
            ),
            _ if expected
                .iter()
                .any(|e| keywords(Kw::is_section).contains(e)) =>
            {
                format!(
                    "expected the next section or the end of the file after {}",
                    s.as_str()
                )
            }
            _ => format!("expected {}", words(expected)),
        },
    };
    (Code::UnexpectedToken, message, None)
}

/// The entries a patch may hold, for messages.
const ENTRIES: &str = "REPLACE S2:, INSERT_AFTER S2:, INSERT_BEFORE S2:, INSERT_INTO S2 THEN:, DELETE S2, or the same on STATE, LOCAL or TYPES entries (REPLACE STATE total:)";

fn patch_level(f: &Failure<'_>, cx: &Scanner<'_>) -> Said {
    let [b0, b1, _] = f.before;
    let found = f.found.map(|t| t.1);
    let message = match (b0, b1) {
        (None, _) => "a patch starts with `PATCH:`".to_owned(),
        (Some(Tok::Kw(k)), _)
            if k.is_patch_entry()
                && matches!(found, Some(Tok::Kw(Kw::Io | Kw::Func | Kw::Meta))) =>
        {
            let hint = "the IO examples and FUNC are the task's, not the program's to change: make the steps and declarations give the expected outputs";
            return (
                Code::InvalidPatch,
                format!(
                    "{}: a patch edits steps and STATE, LOCAL and TYPES entries only",
                    k.as_str()
                ),
                Some(hint.to_owned()),
            );
        }
        (Some(Tok::Kw(k)), _) if k.is_patch_entry() => {
            format!(
                "expected the step ID (or STATE, LOCAL, TYPES and a name) after {}",
                k.as_str()
            )
        }
        (Some(Tok::StepId(id)), Some(Tok::Kw(k))) if k.is_patch_entry() => {
            format!("expected `:` after {} {id}", k.as_str())
        }
        _ if cx.section.is_some_and(Kw::is_patch_entry) => {
            format!("expected a step, or the next entry: {ENTRIES}")
        }
        _ => format!("expected {ENTRIES}"),
    };
    (Code::InvalidPatch, message, None)
}

/// The expected terminals in words: `a field, a step or END`.
pub fn words(expected: &[&str]) -> String {
    let mut rest: Vec<&str> = expected.to_vec();
    let mut out: Vec<String> = Vec::new();
    let mut group = |rest: &mut Vec<&str>, members: &[&str], name: &str| {
        if members.iter().all(|m| rest.contains(m)) {
            rest.retain(|e| !members.contains(e));
            out.push(name.to_owned());
        }
    };
    group(&mut rest, EXPR_STARTS, "an expression");
    group(&mut rest, JSON_STARTS, "a JSON value");
    group(&mut rest, &keywords(Kw::is_section), "a section");
    group(&mut rest, &keywords(Kw::is_field), "a field");
    group(&mut rest, &step_starts(), "a step");
    for e in rest {
        out.push(match e {
            "name" => "a name".to_owned(),
            "step ID" => "a step ID".to_owned(),
            "number" => "a number".to_owned(),
            "string" => "a string".to_owned(),
            "true" | "false" | "null" => format!("`{e}`"),
            e if e.chars().all(|c| c.is_ascii_uppercase() || c == '_') => e.to_owned(),
            e => format!("`{e}`"),
        });
    }
    match out.as_slice() {
        [] => "nothing more".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_terminals_in_words() {
        assert_eq!(words(&["\"BEGIN\"".trim_matches('"'), "{"]), "BEGIN or `{`");
        let mut all: Vec<&str> = keywords(Kw::is_field);
        all.extend(step_starts());
        all.push("END");
        assert_eq!(words(&all), "a field, a step or END");
        assert_eq!(words(EXPR_STARTS), "an expression");
        assert_eq!(words(&[]), "nothing more");
    }
}
