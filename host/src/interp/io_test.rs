//! `isu test`: the IO examples of a program as its test oracle.

use super::{bind_args, compile_program, execute, history, RunOptions};
use crate::diag::{Code, Diagnostic, VarValue};
use crate::plugins::PackFunctions;
use isu_plugin_api::{Literal, Program};

/// Runs every IO example (`INPUT[i]` against `OUTPUT[i]`) and returns one
/// `TestFail` per example that does not hold, in example order: a
/// `test_mismatch` when the result differs (with `expected`, `actual`, the
/// arguments as `vars`, the step of the RETURN that gave the result, and in
/// `history` the returned variables' values after each step that changed
/// them), a `test_error` when the run stopped with a runtime error (with that
/// error's step, span, variables, loop rounds and hint; its code and message
/// are in the message and its JSON object is `actual`). An empty list means
/// every example held.
pub fn test_examples(program: &Program, opts: &RunOptions) -> Vec<Diagnostic> {
    test_examples_with(program, opts, &PackFunctions::default())
}

/// [`test_examples`] of a program that may call the functions of loaded packs.
pub fn test_examples_with(
    program: &Program,
    opts: &RunOptions,
    packs: &PackFunctions,
) -> Vec<Diagnostic> {
    let compiled = match compile_program(program, packs) {
        Ok(c) => c,
        Err(d) => return vec![*d],
    };
    let mut out = Vec::new();
    for (i, (input, output)) in program.io.input.iter().zip(&program.io.output).enumerate() {
        let name = format!("IO example INPUT[{i}]");
        let arg_vars = example_vars(&input.value);
        let bound = match &input.value {
            Literal::Object(entries) => bind_args(
                &compiled,
                entries.iter().map(|(k, v)| (k.as_str(), Ok(v.clone()))),
            ),
            other => Err(Box::new(Diagnostic::error(
                Code::InvalidArgument,
                format!("an INPUT must be a JSON object, not {}", other.kind_name()),
            ))),
        };
        let result = bound.and_then(|args| execute(&compiled, args, opts, None));
        match result {
            Ok((actual, _)) if actual == output.value => {}
            Ok((actual, step)) => {
                let mut d = Diagnostic::error(
                    Code::TestMismatch,
                    format!(
                        "{name}: expected {}, got {}",
                        short(&output.value),
                        short(&actual)
                    ),
                )
                .at(output.span)
                .in_step(step)
                .with_label(input.span, "with these arguments")
                .with_expected(&output.value)
                .with_actual(&actual)
                .with_vars(arg_vars);
                if let Some(step) = step {
                    history::explain_mismatch(&compiled, &input.value, opts, step, &mut d);
                }
                out.push(d);
            }
            Err(mut e) => {
                history::explain_error(&compiled, &input.value, opts, &mut e);
                let step = e
                    .step
                    .as_ref()
                    .map_or(String::new(), |s| format!(" at {s}"));
                let mut d = Diagnostic::error(
                    Code::TestError,
                    format!("{name} stopped with {}{step}: {}", e.code, e.message),
                )
                .in_step(e.step.as_ref())
                .with_label(input.span, "with these arguments")
                .with_expected(&output.value)
                .with_actual(e.to_json())
                .with_vars(if e.vars.is_empty() {
                    arg_vars
                } else {
                    e.vars.clone()
                });
                d.span = e.span.or(d.span);
                d.hint = e.hint.clone();
                d.rounds = e.rounds.clone();
                out.push(d);
            }
        }
    }
    out
}

/// The arguments of an example, as the variables of a diagnostic.
fn example_vars(input: &Literal) -> Vec<VarValue> {
    match input {
        Literal::Object(entries) => entries
            .iter()
            .map(|(k, v)| VarValue {
                name: k.clone(),
                value: serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A literal's text for a message, cut after 200 characters.
fn short(lit: &Literal) -> String {
    let text = lit.to_string();
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}
