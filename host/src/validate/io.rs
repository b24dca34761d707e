//! The `IO` examples: as many `OUTPUT` values as `INPUT` objects, each `INPUT`
//! naming exactly the arguments, and every value of its declared type.

use super::literal::{self, short_literal};
use super::scope::{self, Scope};
use super::suggest;
use crate::diag::{Code, Diagnostic};
use isu_plugin_api::{Literal, Program};

/// Runs the `IO` checks, adding to `diags`.
pub(super) fn check(program: &Program, scope: &Scope, diags: &mut Vec<Diagnostic>) {
    let io = &program.io;
    // INPUT and OUTPUT pair up by position.
    if io.input.len() != io.output.len() {
        diags.push(
            Diagnostic::error(
                Code::IoLengthMismatch,
                format!(
                    "IO has {} INPUT example{} but {} OUTPUT value{}; they pair up by position",
                    io.input.len(),
                    plural(io.input.len()),
                    io.output.len(),
                    plural(io.output.len())
                ),
            )
            .at(io.span)
            .with_expected(io.input.len())
            .with_actual(io.output.len())
            .with_hint("give exactly one OUTPUT value for each INPUT object, in the same order"),
        );
    }
    // The arguments, each once (a repeated one is reported with the declarations).
    let mut args: Vec<(&str, &isu_plugin_api::Type)> = Vec::new();
    for a in &program.func.args {
        if !args.iter().any(|(n, _)| *n == a.name.name) {
            args.push((&a.name.name, &a.ty));
        }
    }
    let names: Vec<&str> = args.iter().map(|(n, _)| *n).collect();
    for (i, ex) in io.input.iter().enumerate() {
        // Each INPUT is an object whose keys are exactly the ARGS names.
        let Literal::Object(given) = &ex.value else {
            diags.push(
                Diagnostic::error(
                    Code::IoArgumentMismatch,
                    format!(
                        "INPUT[{i}] is {} ({}), but each INPUT example is an object from argument name to value",
                        ex.value.kind_name(),
                        short_literal(&ex.value)
                    ),
                )
                .at(ex.span)
                .with_expected(format!("an object with the keys {}", list(&names)))
                .with_hint(example_hint(&args)),
            );
            continue;
        };
        let missing: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !given.contains_key(*n))
            .collect();
        let extra: Vec<&str> = given
            .keys()
            .map(String::as_str)
            .filter(|k| !names.contains(k))
            .collect();
        if !missing.is_empty() || !extra.is_empty() {
            let mut problems = Vec::new();
            if !missing.is_empty() {
                problems.push(format!("lacks {}", list(&missing)));
            }
            if !extra.is_empty() {
                problems.push(format!("has {} that ARGS does not declare", list(&extra)));
            }
            let mut hint = format!(
                "an INPUT object has one key per argument: {}",
                if names.is_empty() {
                    "none, so it is {}".to_owned()
                } else {
                    list(&names)
                }
            );
            for e in &extra {
                if let Some(close) = suggest::closest(e, missing.iter().copied()) {
                    hint.push_str(&format!("; did you mean {close} for {e}?"));
                }
            }
            diags.push(
                Diagnostic::error(
                    Code::IoArgumentMismatch,
                    format!("INPUT[{i}] {}", problems.join(" and ")),
                )
                .at(ex.span)
                .with_expected(names.clone())
                .with_actual(given.keys().collect::<Vec<_>>())
                .with_hint(hint),
            );
        }
        // Each argument value has the argument's type.
        for (name, ty) in &args {
            let Some(value) = given.get(*name) else {
                continue;
            };
            if !scope::is_valid(ty) {
                continue;
            }
            if let Err(m) = literal::conform_json(value, ty, &program.types) {
                diags.push(
                    Diagnostic::error(
                        Code::IoTypeMismatch,
                        format!("INPUT[{i}] does not fit ARGS: {}", m.message(name)),
                    )
                    .at(ex.span)
                    .with_expected(ty.to_string())
                    .with_actual(short_literal(value))
                    .with_hint(format!(
                        "the argument {name} is declared {ty}: change the example, or the declaration if the example is right"
                    )),
                );
            }
        }
    }
    // Each OUTPUT value has the RETURNS type.
    if let Some(returns) = &scope.returns {
        for (i, ex) in io.output.iter().enumerate() {
            if let Err(m) = literal::conform_json(&ex.value, returns, &program.types) {
                diags.push(
                    Diagnostic::error(
                        Code::IoTypeMismatch,
                        format!("OUTPUT[{i}] does not fit RETURNS: {}", m.message(&format!("OUTPUT[{i}]"))),
                    )
                    .at(ex.span)
                    .with_expected(returns.to_string())
                    .with_actual(short_literal(&ex.value))
                    .with_hint(format!(
                        "FUNC RETURNS is {returns}: change the example, or RETURNS if the example is right"
                    )),
                );
            }
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `xs`, `xs and n`, `a, b and c`.
fn list(names: &[&str]) -> String {
    match names {
        [] => "nothing".to_owned(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `{"xs": <int[]>, "n": <int>}`.
fn example_hint(args: &[(&str, &isu_plugin_api::Type)]) -> String {
    let fields: Vec<String> = args
        .iter()
        .map(|(n, t)| format!("{}: <{t}>", Literal::Str((*n).to_owned())))
        .collect();
    format!("write it as {{{}}}", fields.join(", "))
}
