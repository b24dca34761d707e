//! The run lines of a conformance case file (`conformance/cases/*.isu`).
//!
//! A case is an ordinary Isu program whose leading comment lines (the `;`
//! lines before the first other non-blank line) say what to run, one run a
//! line:
//!
//! ```text
//! ; run: {"xs": [1, 2]} => 3
//! ; run: {"xs": []} => error index_out_of_range at S2_1
//! ; run: {} => error int_overflow at -
//! ```
//!
//! The left side is the arguments, a JSON object; the right side is the
//! expected result as JSON, or `error CODE at STEP` for a runtime error
//! (`at -` when it has no step, as in a STATE initializer). Other leading
//! comment lines are free text. The interpreter's harness and every backend's
//! read cases through [`parse_runs`].

use crate::diag::Code;
use isu_plugin_api::{json, Literal, StepId};
use std::fmt;

/// One `; run:` line.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The 1-based line of the file it is on.
    pub line: usize,
    /// The arguments: a JSON object.
    pub args: serde_json::Value,
    pub expect: Expect,
}

/// What a run must give.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    Value(Literal),
    /// A runtime error with this code, in this step (`None`: no step).
    Error {
        code: Code,
        step: Option<StepId>,
    },
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expect::Value(v) => write!(f, "{v}"),
            Expect::Error { code, step } => match step {
                Some(s) => write!(f, "error {code} at {s}"),
                None => write!(f, "error {code} at -"),
            },
        }
    }
}

/// A malformed run line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for CaseError {}

const RUN: &str = "run:";

/// The runs of a case file, in order. A file without any is an error, as is
/// any malformed run line.
pub fn parse_runs(text: &str) -> Result<Vec<Run>, CaseError> {
    let mut runs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        let Some(comment) = trimmed.strip_prefix(';') else {
            break;
        };
        if let Some(rest) = comment.trim_start().strip_prefix(RUN) {
            let err = |message: String| CaseError {
                line: i + 1,
                message,
            };
            runs.push(parse_run(rest, i + 1).map_err(err)?);
        }
    }
    if runs.is_empty() {
        return Err(CaseError {
            line: 1,
            message: "no `; run: ARGS => EXPECTED` line before the program".into(),
        });
    }
    Ok(runs)
}

fn parse_run(text: &str, line: usize) -> Result<Run, String> {
    if text.trim().is_empty() {
        return Err("a run needs `ARGS => EXPECTED`".into());
    }
    let (args, end) = match json::parse_prefix(text) {
        Ok((v @ serde_json::Value::Object(_), end)) => (v, end),
        Ok((v, _)) => return Err(format!("the arguments must be a JSON object, not {v}")),
        Err(e) => return Err(format!("the arguments are not Isu JSON: {e}")),
    };
    let rest = text[end..].trim_start();
    let Some(expected) = rest.strip_prefix("=>") else {
        return Err(format!("expected `=>` after the arguments, found {rest:?}"));
    };
    let expected = expected.trim();
    let expect = match expected.strip_prefix("error ") {
        Some(err) => parse_error(err.trim())?,
        None => Expect::Value(
            json::from_str(expected)
                .map_err(|e| format!("the expected value is not an Isu JSON value: {e}"))?,
        ),
    };
    Ok(Run { line, args, expect })
}

fn parse_error(text: &str) -> Result<Expect, String> {
    let mut words = text.split_whitespace();
    let (Some(code), Some("at"), Some(step), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(format!(
            "expected `error CODE at STEP` (or `at -`), found `error {text}`"
        ));
    };
    let code = Code::ALL
        .iter()
        .copied()
        .find(|c| c.as_str() == code)
        .ok_or_else(|| format!("`{code}` is not an error code"))?;
    let step = match step {
        "-" => None,
        s => Some(StepId::parse(s).ok_or_else(|| format!("`{s}` is not a step ID"))?),
    };
    Ok(Expect::Error { code, step })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Literal {
        serde_json::from_str(s).unwrap_or(Literal::Bool(false))
    }

    #[test]
    fn reads_values_and_errors_from_the_leading_comments() {
        let text = "; what this case checks\n\
                    ; run: {\"xs\": [1, 2]} => 3\n\
                    \n\
                    ;run: {\"s\": \"a => b\"}=>{\"k\": [true]}\n\
                    ; run: {} => error int_overflow at -\n\
                    ;   run: {\"xs\": []} => error index_out_of_range at S2_1\n\
                    FUNC:\n\
                    ; run: {} => 99\n";
        let runs = parse_runs(text);
        let expected = vec![
            Run {
                line: 2,
                args: serde_json::json!({"xs": [1, 2]}),
                expect: Expect::Value(Literal::Int(3)),
            },
            Run {
                line: 4,
                args: serde_json::json!({"s": "a => b"}),
                expect: Expect::Value(lit(r#"{"k": [true]}"#)),
            },
            Run {
                line: 5,
                args: serde_json::json!({}),
                expect: Expect::Error {
                    code: Code::IntOverflow,
                    step: None,
                },
            },
            Run {
                line: 6,
                args: serde_json::json!({"xs": []}),
                expect: Expect::Error {
                    code: Code::IndexOutOfRange,
                    step: StepId::parse("S2_1"),
                },
            },
        ];
        assert_eq!(runs, Ok(expected));
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        let cases = [
            ("; run: [1] => 2\n", "must be a JSON object"),
            ("; run: {\"a\": 1 => 2\n", "not Isu JSON"),
            ("; run: {} 2\n", "expected `=>`"),
            ("; run: {} => 1.5\n", "not an Isu JSON value"),
            ("; run: {\"a\": 1, \"a\": 2} => 3\n", "appears twice"),
            ("; run: {} => {\"k\": 1, \"k\": 1}\n", "appears twice"),
            (
                "; run: {\"a\": 9223372036854775808} => 3\n",
                "outside the 64-bit signed integer range",
            ),
            (
                "; run: {} => error nope at S1\n",
                "`nope` is not an error code",
            ),
            (
                "; run: {} => error int_overflow at S0\n",
                "`S0` is not a step ID",
            ),
            (
                "; run: {} => error int_overflow\n",
                "expected `error CODE at STEP`",
            ),
            ("; nothing to run\nFUNC:\n", "no `; run:"),
        ];
        for (text, msg) in cases {
            let err = parse_runs(text).map(|_| ()).err().map(|e| e.message);
            assert!(
                err.as_deref().is_some_and(|m| m.contains(msg)),
                "{text:?}: {err:?}"
            );
        }
    }

    #[test]
    fn expectations_print_as_written() {
        let e = Expect::Error {
            code: Code::ZeroStep,
            step: StepId::parse("S1"),
        };
        assert_eq!(e.to_string(), "error zero_step at S1");
        assert_eq!(Expect::Value(lit("[1, 2]")).to_string(), "[1, 2]");
    }
}
