//! The conformance runner: every case of `conformance/cases/*.isu` on the
//! reference interpreter (checked against the case's `; run:` lines) and on
//! backends (checked against the interpreter).
//!
//! A case runs through the front end and the interpreter once
//! ([`prepare`]); the interpreter's outcomes are then the oracle every
//! backend is compared with ([`backend_report`]). A case that needs a
//! feature a backend declares it lacks (`features::used_by` against
//! `BackendInfo::lacks`) is reported as unsupported, never as passed. The
//! unit of the summary is the case: it passes when every one of its runs
//! gives what it should; each run that does not is listed with what was
//! expected and what came.

use crate::cases::{self, Expect, Run};
use crate::diag::{self, Diagnostic};
use crate::functions::Functions;
use crate::interp::{self, RunOptions};
use crate::pipeline;
use crate::plugins::target::{self, Executed};
use crate::source::Source;
use isu_plugin_api::{features, Backend, ExecLimits, Literal, Program};
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// The name of the interpreter in reports.
pub const INTERPRETER: &str = "interpreter";

/// A case file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The file name without `.isu`.
    pub name: String,
    pub path: PathBuf,
    pub text: String,
}

/// Reads every `*.isu` file of `dir`, sorted by name.
pub fn load_cases(dir: &Path) -> std::io::Result<Vec<Case>> {
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "isu") {
            let text = std::fs::read_to_string(&path)?;
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            cases.push(Case { name, path, text });
        }
    }
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(cases)
}

/// The folder `conformance/cases` in `start` or its nearest ancestor having one.
pub fn find_cases_dir(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|d| d.join("conformance").join("cases"))
        .find(|d| d.is_dir())
}

/// What a run gave: a value, or a runtime error's code and step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Value(Literal),
    Error { code: String, step: Option<String> },
}

impl Outcome {
    fn of_diagnostic(d: &Diagnostic) -> Outcome {
        Outcome::Error {
            code: d.code.as_str().to_owned(),
            step: d.step.as_ref().map(ToString::to_string),
        }
    }

    fn of_expect(e: &Expect) -> Outcome {
        match e {
            Expect::Value(v) => Outcome::Value(v.clone()),
            Expect::Error { code, step } => Outcome::Error {
                code: code.as_str().to_owned(),
                step: step.as_ref().map(ToString::to_string),
            },
        }
    }
}

/// The case-file notation: the value's JSON, or `error CODE at STEP` (`at -`).
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Value(v) => write!(f, "{v}"),
            Outcome::Error { code, step } => {
                write!(f, "error {code} at {}", step.as_deref().unwrap_or("-"))
            }
        }
    }
}

/// A case after the front end and the interpreter.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub name: String,
    /// The runs, or why the case file is malformed or not a valid program.
    pub body: Result<PreparedRuns, String>,
}

#[derive(Debug, Clone)]
pub struct PreparedRuns {
    pub program: Program,
    pub runs: Vec<Run>,
    /// The interpreter's outcome of each run.
    pub oracle: Vec<Outcome>,
}

/// Parses, checks and interprets each case once.
pub fn prepare(cases: &[Case], packs: &Functions) -> Vec<Prepared> {
    cases
        .iter()
        .map(|c| Prepared {
            name: c.name.clone(),
            body: prepare_one(c, packs),
        })
        .collect()
}

fn prepare_one(case: &Case, packs: &Functions) -> Result<PreparedRuns, String> {
    let runs = cases::parse_runs(&case.text).map_err(|e| format!("bad run line: {e}"))?;
    let src = Source::new(case.path.display().to_string(), case.text.as_str());
    let fe = pipeline::check_with(&src, packs);
    let Some(program) = fe.valid_program() else {
        let errors: Vec<Diagnostic> = fe.diags.into_iter().filter(Diagnostic::is_error).collect();
        return Err(format!(
            "the case is not a valid program:\n{}",
            diag::render(&errors, Some(&src), false)
        ));
    };
    let opts = RunOptions::default();
    let oracle = runs
        .iter()
        .map(
            |r| match interp::run_with(program, &r.args, &opts, None, packs) {
                Ok(v) => Outcome::Value(v),
                Err(d) => Outcome::of_diagnostic(&d),
            },
        )
        .collect();
    Ok(PreparedRuns {
        program: program.clone(),
        runs,
        oracle,
    })
}

/// One run that did not give what it should.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Failure {
    pub case: String,
    /// The line of the `; run:` (0 when the whole case failed).
    pub line: usize,
    /// The arguments, as JSON text.
    pub args: String,
    pub expected: String,
    pub got: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return write!(f, "{}: {}", self.case, self.got);
        }
        write!(
            f,
            "{} line {}: {}\n  expected: {}\n  got:      {}",
            self.case, self.line, self.args, self.expected, self.got
        )
    }
}

/// A case a backend cannot run, with the features it lacks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unsupported {
    pub case: String,
    pub features: Vec<String>,
}

/// The summary of one executor over every case.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// `interpreter`, or the backend's target.
    pub executor: String,
    pub passed: usize,
    pub failed: usize,
    pub unsupported: usize,
    pub failures: Vec<Failure>,
    pub unsupported_cases: Vec<Unsupported>,
}

impl Report {
    fn new(executor: &str) -> Report {
        Report {
            executor: executor.to_owned(),
            ..Report::default()
        }
    }

    /// Records one case's failures (none: it passed).
    fn case(&mut self, failures: Vec<Failure>) {
        if failures.is_empty() {
            self.passed += 1;
        } else {
            self.failed += 1;
            self.failures.extend(failures);
        }
    }

    fn whole_case_failed(&mut self, case: &str, why: String) {
        self.case(vec![Failure {
            case: case.to_owned(),
            line: 0,
            args: String::new(),
            expected: String::new(),
            got: why,
        }]);
    }

    /// `python: 80 passed, 1 failed, 3 unsupported`.
    pub fn summary(&self) -> String {
        format!(
            "{}: {} passed, {} failed, {} unsupported",
            self.executor, self.passed, self.failed, self.unsupported
        )
    }
}

fn failure(case: &str, run: &Run, expected: String, got: String) -> Failure {
    Failure {
        case: case.to_owned(),
        line: run.line,
        args: run.args.to_string(),
        expected,
        got,
    }
}

/// The interpreter against the cases' expectations.
pub fn interpreter_report(prepared: &[Prepared]) -> Report {
    let mut report = Report::new(INTERPRETER);
    for case in prepared {
        let body = match &case.body {
            Ok(b) => b,
            Err(why) => {
                report.whole_case_failed(&case.name, why.clone());
                continue;
            }
        };
        let mut failures = Vec::new();
        for (run, got) in body.runs.iter().zip(&body.oracle) {
            let want = Outcome::of_expect(&run.expect);
            if *got != want {
                failures.push(failure(&case.name, run, want.to_string(), got.to_string()));
            }
        }
        report.case(failures);
    }
    report
}

/// A backend (serving `target`) against the interpreter.
pub fn backend_report(
    prepared: &[Prepared],
    target: &str,
    backend: &dyn Backend,
    packs: &Functions,
) -> Report {
    let mut report = Report::new(target);
    let lacks = backend.info().lacks;
    let limits = ExecLimits::DEFAULT;
    for case in prepared {
        let body = match &case.body {
            Ok(b) => b,
            Err(why) => {
                report.whole_case_failed(&case.name, why.clone());
                continue;
            }
        };
        let missing: Vec<String> = features::used_by(&body.program)
            .into_iter()
            .filter(|f| lacks.contains(f))
            .collect();
        if !missing.is_empty() {
            report.unsupported += 1;
            report.unsupported_cases.push(Unsupported {
                case: case.name.clone(),
                features: missing,
            });
            continue;
        }
        let artifacts = match target::compile_with(packs, backend, &body.program, target, &[]) {
            Ok(a) => a,
            Err(e) => {
                report.whole_case_failed(&case.name, format!("compile failed: {e}"));
                continue;
            }
        };
        let mut failures = Vec::new();
        for (run, want) in body.runs.iter().zip(&body.oracle) {
            let args = match serde_json::from_value::<Literal>(run.args.clone()) {
                Ok(a) => a,
                Err(e) => {
                    let got = format!("the arguments are not an Isu value: {e}");
                    failures.push(failure(&case.name, run, want.to_string(), got));
                    continue;
                }
            };
            let got = match target::execute(backend, target, &artifacts, &args, &limits) {
                Executed::Value(v) => Outcome::Value(v),
                Executed::Error(d) => Outcome::of_diagnostic(&d),
                Executed::Failed(f) => {
                    failures.push(failure(&case.name, run, want.to_string(), f.to_string()));
                    continue;
                }
            };
            if got != *want {
                failures.push(failure(&case.name, run, want.to_string(), got.to_string()));
            }
        }
        report.case(failures);
    }
    report
}

#[cfg(test)]
mod tests;
