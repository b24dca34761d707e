//! The directives of a conformance case file (`conformance/cases/*.isu`).
//!
//! A case is an ordinary Isu program whose leading comment lines (the `;`
//! lines before the first other non-blank line) say what to run, one run a
//! line, and optionally with what limits and what it needs:
//!
//! ```text
//! ; run: {"xs": [1, 2]} => 3
//! ; run: {"xs": []} => error index_out_of_range at S2_1
//! ; run: {} => error int_overflow at -
//! ; limits: max_steps=1000 max_size=50 max_memory=200
//! ; needs: limit_steps
//! ; checks: index_out_of_range S1_3_1=1 S1_4=1
//! ```
//!
//! In a run, the left side is the arguments, a JSON object; the right side
//! is the expected result as JSON, or `error CODE at STEP` for a runtime
//! error (`at -` when it has no step, as in a STATE initializer).
//! `limits:` sets the limits every run of the case has on every executor
//! (`max_steps`, `max_size`, `max_memory`; the defaults of
//! `spec/semantics.md` otherwise).
//! `needs:` names features of the feature vocabulary
//! (`isu_plugin_api::feature_set`) the case needs beyond those its program
//! shows (which the runner finds itself): a backend that does not declare
//! them reports the case unsupported. `checks:` is for the backends that
//! leave out the checks the value bounds prove cannot fire
//! (`isu_lang::analysis::bounds`): the checks of one runtime error such a
//! backend emits, by step, every step not named having none (a line with a
//! code alone: no check of it anywhere); the runs do not read it. Other
//! leading comment lines are free text. Every harness reads cases through
//! [`parse`].

use crate::diag::{Code, Kind};
use isu_plugin_api::{feature_set, json, ExecLimits, Literal, RuntimeCode, StepId};
use std::collections::BTreeMap;
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

/// What the leading comments of a case file say.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseFile {
    /// The runs, in order; at least one.
    pub runs: Vec<Run>,
    /// The limits of `; limits:`, when it is given.
    pub limits: Option<ExecLimits>,
    /// The features of `; needs:`, sorted.
    pub needs: Vec<String>,
    /// The checks of `; checks:` lines: for each runtime error named, how
    /// many checks of it each step has (steps not named have none).
    pub checks: BTreeMap<RuntimeCode, BTreeMap<String, usize>>,
}

impl CaseFile {
    /// The limits every run has: those of `; limits:`, else `defaults`.
    pub fn limits_or(&self, defaults: ExecLimits) -> ExecLimits {
        self.limits.unwrap_or(defaults)
    }

    /// How `got`, a backend's checks by runtime error and step ID, differs
    /// from the `; checks:` lines: one line per difference, none when they
    /// agree (errors the lines do not name are not compared).
    pub fn checks_differ(&self, got: &BTreeMap<(RuntimeCode, String), usize>) -> Vec<String> {
        let mut out = Vec::new();
        for (code, want) in &self.checks {
            let have: BTreeMap<&str, usize> = got
                .iter()
                .filter(|((c, _), n)| c == code && **n > 0)
                .map(|((_, step), n)| (step.as_str(), *n))
                .collect();
            let steps: std::collections::BTreeSet<&str> = want
                .keys()
                .map(String::as_str)
                .chain(have.keys().copied())
                .collect();
            for step in steps {
                let (w, h) = (
                    want.get(step).copied().unwrap_or(0),
                    have.get(step).copied().unwrap_or(0),
                );
                if w != h {
                    out.push(format!("{code} at {step}: {h} checks, the case says {w}"));
                }
            }
        }
        out
    }
}

/// The text of a case file: the comment `comment` (one line), a `; run:`
/// line for each of `runs` (the arguments' JSON and what the interpreter
/// gives), the `; limits:` of the runs, the `; needs:` of the limits the
/// runs reach, and `program` in canonical text. What `isu fuzz` and `isu
/// eval --roundtrip` write, and [`parse`] reads.
pub fn text(
    comment: &str,
    program: &isu_plugin_api::Program,
    runs: &[(String, crate::conformance::Outcome)],
    limits: ExecLimits,
) -> String {
    let mut out = format!("; {comment}\n");
    for (args, outcome) in runs {
        out.push_str(&format!("; run: {args} => {outcome}\n"));
    }
    out.push_str(&format!(
        "; limits: max_steps={} max_size={} max_memory={}\n",
        limits.max_steps, limits.max_size, limits.max_memory
    ));
    let oracle: Vec<_> = runs.iter().map(|(_, o)| o.clone()).collect();
    let needs = crate::conformance::limit_needs(program, &oracle);
    if !needs.is_empty() {
        out.push_str(&format!("; needs: {}\n", needs.join(" ")));
    }
    out.push_str(&crate::canon::print(program));
    out
}

/// The directives of a case file. A file without a run is an error, as is a
/// malformed directive or a second `limits:`.
pub fn parse(text: &str) -> Result<CaseFile, CaseError> {
    let mut runs = Vec::new();
    let mut limits = None;
    let mut needs = Vec::new();
    let mut checks = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        let Some(comment) = trimmed.strip_prefix(';') else {
            break;
        };
        let err = |message: String| CaseError {
            line: i + 1,
            message,
        };
        let comment = comment.trim_start();
        if let Some(rest) = comment.strip_prefix("run:") {
            runs.push(parse_run(rest, i + 1).map_err(err)?);
        } else if let Some(rest) = comment.strip_prefix("limits:") {
            if limits.is_some() {
                return Err(err("a second `; limits:` line".into()));
            }
            limits = Some(parse_limits(rest).map_err(err)?);
        } else if let Some(rest) = comment.strip_prefix("needs:") {
            needs.extend(parse_needs(rest).map_err(err)?);
        } else if let Some(rest) = comment.strip_prefix("checks:") {
            let (code, steps) = parse_checks(rest).map_err(err)?;
            if checks.insert(code, steps).is_some() {
                return Err(err(format!("a second `; checks:` line for {code}")));
            }
        }
    }
    if runs.is_empty() {
        return Err(CaseError {
            line: 1,
            message: "no `; run: ARGS => EXPECTED` line before the program".into(),
        });
    }
    needs.sort();
    needs.dedup();
    Ok(CaseFile {
        runs,
        limits,
        needs,
        checks,
    })
}

/// `max_steps=N max_size=N max_memory=N` (any may be left out: its default
/// stays).
fn parse_limits(text: &str) -> Result<ExecLimits, String> {
    let mut limits = ExecLimits::DEFAULT;
    let items: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    if items.is_empty() {
        return Err("`limits:` needs `max_steps=N`, `max_size=N` or `max_memory=N`".into());
    }
    for item in items {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("expected NAME=N, found `{item}`"))?;
        let value: u64 = value
            .parse()
            .map_err(|_| format!("`{value}` is not a count (in `{item}`)"))?;
        match name {
            "max_steps" => limits.max_steps = value,
            "max_size" => limits.max_size = value,
            "max_memory" => limits.max_memory = value,
            _ => {
                return Err(format!(
                    "`{name}` is no limit (max_steps, max_size, max_memory)"
                ))
            }
        }
    }
    Ok(limits)
}

/// Feature names, separated by commas or spaces.
fn parse_needs(text: &str) -> Result<Vec<String>, String> {
    let names: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    if names.is_empty() {
        return Err("`needs:` names no feature".into());
    }
    for name in &names {
        if !feature_set::is_feature(name) {
            return Err(format!(
                "`{name}` is no feature (see isu_plugin_api::feature_set)"
            ));
        }
    }
    Ok(names.into_iter().map(str::to_owned).collect())
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
    // A run stops with a runtime error; `invalid_number` is also a parse
    // error's code.
    let code = Code::of_kind(Kind::RuntimeError, code)
        .or_else(|| Code::from_text(code))
        .ok_or_else(|| format!("`{code}` is not an error code"))?;
    let step = match step {
        "-" => None,
        s => Some(StepId::parse(s).ok_or_else(|| format!("`{s}` is not a step ID"))?),
    };
    Ok(Expect::Error { code, step })
}

/// `CODE STEP=N ...`: the checks of one runtime error, by step.
fn parse_checks(rest: &str) -> Result<(RuntimeCode, BTreeMap<String, usize>), String> {
    let mut words = rest.split_whitespace();
    let Some(name) = words.next() else {
        return Err("`; checks:` names no runtime error".into());
    };
    let code = RuntimeCode::from_text(name)
        .filter(|c| c.is_program_error())
        .ok_or_else(|| format!("`{name}` is not a runtime error of a program"))?;
    let mut steps = BTreeMap::new();
    for w in words {
        let parsed = w.split_once('=').and_then(|(step, n)| {
            let id = StepId::parse(step)?;
            Some((id.to_string(), n.parse::<usize>().ok()?))
        });
        let Some((step, n)) = parsed else {
            return Err(format!("`{w}` is not STEP=COUNT (as in S1_2=1)"));
        };
        if steps.insert(step, n).is_some() {
            return Err(format!("a second count for the step of `{w}`"));
        }
    }
    Ok((code, steps))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Literal {
        serde_json::from_str(s).unwrap_or(Literal::Bool(false))
    }

    #[test]
    fn checks_lines_name_every_check_of_an_error_and_are_compared_exactly() {
        let text = "; run: {} => 1\n\
                    ; checks: index_out_of_range S1_2=1 S3=2\n\
                    ; checks: int_overflow\n";
        let file = parse(text).unwrap_or_else(|e| panic!("{e}"));
        let got: BTreeMap<(RuntimeCode, String), usize> = [
            ((RuntimeCode::IndexOutOfRange, "S1_2".to_owned()), 1),
            ((RuntimeCode::IndexOutOfRange, "S4".to_owned()), 1),
            ((RuntimeCode::IntOverflow, "S3".to_owned()), 1),
            ((RuntimeCode::DivisionByZero, "S3".to_owned()), 5),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            file.checks_differ(&got),
            [
                "int_overflow at S3: 1 checks, the case says 0",
                "index_out_of_range at S3: 0 checks, the case says 2",
                "index_out_of_range at S4: 1 checks, the case says 0",
            ]
        );
        for (bad, why) in [
            ("; checks: S1=1", "not a runtime error"),
            ("; checks: internal_error", "not a runtime error"),
            ("; checks: int_overflow S1", "is not STEP=COUNT"),
            ("; checks: int_overflow S1=x", "is not STEP=COUNT"),
            ("; checks: int_overflow S1=1 S1=2", "a second count"),
            (
                "; checks: int_overflow\n; checks: int_overflow",
                "a second `; checks:`",
            ),
        ] {
            let e = parse(&format!("; run: {{}} => 1\n{bad}\n")).map(|_| ());
            assert!(
                e.as_ref().is_err_and(|e| e.message.contains(why)),
                "{bad}: {e:?}"
            );
        }
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
        let runs = parse(text).map(|c| c.runs);
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
                    code: RuntimeCode::IntOverflow.into(),
                    step: None,
                },
            },
            Run {
                line: 6,
                args: serde_json::json!({"xs": []}),
                expect: Expect::Error {
                    code: RuntimeCode::IndexOutOfRange.into(),
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
            ("; run: {} => 1e999\n", "not an Isu JSON value"),
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
            (
                "; run: {} => 1\n; limits: max_steps=x\n",
                "`x` is not a count",
            ),
            ("; run: {} => 1\n; limits: fuel=3\n", "`fuel` is no limit"),
            ("; run: {} => 1\n; limits:\n", "needs `max_steps=N`"),
            (
                "; run: {} => 1\n; limits: max_steps=1\n; limits: max_size=1\n",
                "a second `; limits:`",
            ),
            (
                "; run: {} => 1\n; needs: floats\n",
                "`floats` is no feature",
            ),
            ("; run: {} => 1\n; needs:\n", "names no feature"),
        ];
        for (text, msg) in cases {
            let err = parse(text).map(|_| ()).err().map(|e| e.message);
            assert!(
                err.as_deref().is_some_and(|m| m.contains(msg)),
                "{text:?}: {err:?}"
            );
        }
    }

    #[test]
    fn limits_and_needs_are_read() {
        let text = "; run: {} => 1\n; limits: max_steps=1000, max_size=7 max_memory=9\n\
                    ; needs: limit_steps call:LEN\n; needs: limit_steps\nFUNC:\n";
        let case = parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            case.limits,
            Some(ExecLimits {
                max_steps: 1000,
                max_size: 7,
                max_memory: 9
            })
        );
        assert_eq!(case.needs, ["call:LEN", "limit_steps"]);
        let steps_only = parse("; run: {} => 1\n; limits: max_steps=5\n").map(|c| c.limits);
        assert_eq!(
            steps_only.ok().flatten().map(|l| (l.max_steps, l.max_size)),
            Some((5, ExecLimits::DEFAULT.max_size))
        );
        let defaults = ExecLimits {
            max_steps: 1,
            max_size: 2,
            max_memory: 3,
        };
        let plain = parse("; run: {} => 1\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(plain.limits_or(defaults), defaults);
    }

    #[test]
    fn expectations_print_as_written() {
        let e = Expect::Error {
            code: RuntimeCode::ZeroStep.into(),
            step: StepId::parse("S1"),
        };
        assert_eq!(e.to_string(), "error zero_step at S1");
        assert_eq!(Expect::Value(lit("[1, 2]")).to_string(), "[1, 2]");
    }
}
