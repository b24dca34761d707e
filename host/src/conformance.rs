//! The conformance runner: every case of `conformance/cases/*.isu` on the
//! reference interpreter (checked against the case's `; run:` lines) and on
//! backends (checked against the interpreter). `isu conformance`, the host's
//! tests and every backend's tests run the suite through this module.
//!
//! A case runs through the front end and the interpreter once ([`prepare`]);
//! the interpreter's outcomes are then the oracle every backend is compared
//! with ([`backend_report`]), each through the one executor interface
//! ([`crate::executor`]). A case needing a feature a backend does not declare
//! (the features its program uses and those of `; needs:`), or that the
//! backend refuses as unsupported when compiling or running it, is reported
//! as unsupported, never as passed. The unit of the summary is the case: it
//! passes when every one of its runs gives what it should; each run that
//! does not is listed with what was expected and what came.
//!
//! A backend's expectation file ([`expect`]) lists the cases it does not
//! support and those it is known to fail, so that coverage cannot shrink
//! silently; [`junit`] writes the reports as JUnit XML for CI.

pub mod expect;
pub mod junit;
mod suite;

pub use suite::{check_backend, repository_cases};

use crate::cases::{self, Expect, Run};
use crate::diag::{self, Code, Diagnostic};
use crate::executor::{Executed, Executor, Interpreter};
use crate::pipeline;
use crate::plugins::target::{BackendFailure, BuildError};
use crate::plugins::PackFunctions;
use crate::source::Source;
use isu_plugin_api::{features, ExecLimits, FeatureSet, Program};
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

pub use crate::executor::INTERPRETER;

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
    Value(isu_plugin_api::Literal),
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

    fn is_error(&self, code: Code) -> bool {
        matches!(self, Outcome::Error { code: c, .. } if c == code.as_str())
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
    /// The limits every run has (`; limits:`, else the defaults).
    pub limits: ExecLimits,
    /// The features the case needs: those its program uses and those of
    /// `; needs:`, sorted.
    pub needs: Vec<String>,
    /// The interpreter's outcome of each run.
    pub oracle: Vec<Outcome>,
}

/// The limits runs have unless a case says otherwise: the interpreter's defaults.
pub fn default_limits() -> ExecLimits {
    let opts = crate::interp::RunOptions::default();
    ExecLimits {
        max_steps: opts.max_steps,
        max_size: opts.max_size as u64,
    }
}

/// How the runner works: how many cases run at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Cases run at once, on as many threads (at least 1).
    pub jobs: usize,
}

impl Default for Options {
    /// As many cases at once as the machine has cores.
    fn default() -> Options {
        Options {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// `f` of every item, in order, on up to `jobs` threads.
fn par_map<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let jobs = jobs.clamp(1, items.len().max(1));
    if jobs == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return out;
                        };
                        out.push((i, f(item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Parses, checks and interprets each case once.
pub fn prepare(cases: &[Case], packs: &PackFunctions, options: &Options) -> Vec<Prepared> {
    let interpreter = Interpreter::new(packs.clone());
    par_map(cases, options.jobs, |c| Prepared {
        name: c.name.clone(),
        body: prepare_one(c, &interpreter),
    })
}

fn prepare_one(case: &Case, interpreter: &Interpreter) -> Result<PreparedRuns, String> {
    let file = cases::parse(&case.text).map_err(|e| format!("bad case directive: {e}"))?;
    let src = Source::new(case.path.display().to_string(), case.text.as_str());
    let fe = pipeline::check_with(&src, &interpreter.packs);
    let Some(program) = fe.valid_program() else {
        let errors: Vec<Diagnostic> = fe.diags.into_iter().filter(Diagnostic::is_error).collect();
        return Err(format!(
            "the case is not a valid program:\n{}",
            diag::render(&errors, Some(&src), false)
        ));
    };
    let limits = file.limits_or(default_limits());
    let loaded = interpreter
        .load(program)
        .map_err(|e| format!("the interpreter cannot run it: {e}"))?;
    let oracle = file
        .runs
        .iter()
        .map(|r| match loaded.run(&r.args, &limits, None) {
            Executed::Value { value, .. } => Ok(Outcome::Value(value)),
            Executed::Error(d) => Ok(Outcome::of_diagnostic(&d)),
            // Only a backend fails this way; the interpreter is no backend.
            Executed::Failed(f) => Err(format!("line {}: {f}", r.line)),
        })
        .collect::<Result<Vec<Outcome>, String>>()?;
    let mut needs: Vec<String> = features::used_by(program).into_iter().collect();
    needs.extend(file.needs.iter().cloned());
    needs.sort();
    needs.dedup();
    for (code, feature) in [
        (Code::StepLimit, "limit_steps"),
        (Code::SizeLimit, "limit_size"),
    ] {
        if oracle.iter().any(|o| o.is_error(code)) && !needs.iter().any(|n| n == feature) {
            return Err(format!(
                "a run ends in {code}, which only a backend enforcing the limit gives: add `; needs: {feature}`"
            ));
        }
    }
    Ok(PreparedRuns {
        program: program.clone(),
        runs: file.runs,
        limits,
        needs,
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

/// A case a backend cannot run: the features it lacks, or what the
/// backend said when it refused the case as unsupported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unsupported {
    pub case: String,
    /// The features the case needs and the backend does not declare.
    pub features: Vec<String>,
    /// Why, in a sentence.
    pub reason: String,
}

/// What came of one case on one executor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Passed,
    Failed(Vec<Failure>),
    Unsupported(Unsupported),
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
    /// Every case's verdict, in case order.
    #[serde(skip)]
    pub verdicts: Vec<(String, Verdict)>,
}

impl Report {
    fn new(executor: &str, verdicts: Vec<(String, Verdict)>) -> Report {
        let mut report = Report {
            executor: executor.to_owned(),
            ..Report::default()
        };
        for (_, v) in &verdicts {
            match v {
                Verdict::Passed => report.passed += 1,
                Verdict::Failed(fs) => {
                    report.failed += 1;
                    report.failures.extend(fs.iter().cloned());
                }
                Verdict::Unsupported(u) => {
                    report.unsupported += 1;
                    report.unsupported_cases.push(u.clone());
                }
            }
        }
        report.verdicts = verdicts;
        report
    }

    /// `python: 80 passed, 1 failed, 3 unsupported`.
    pub fn summary(&self) -> String {
        format!(
            "{}: {} passed, {} failed, {} unsupported",
            self.executor, self.passed, self.failed, self.unsupported
        )
    }

    /// The names of the cases of one verdict kind.
    pub fn cases_where(&self, pick: impl Fn(&Verdict) -> bool) -> Vec<&str> {
        self.verdicts
            .iter()
            .filter(|(_, v)| pick(v))
            .map(|(n, _)| n.as_str())
            .collect()
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

fn whole_case_failed(case: &str, why: String) -> Verdict {
    Verdict::Failed(vec![Failure {
        case: case.to_owned(),
        line: 0,
        args: String::new(),
        expected: String::new(),
        got: why,
    }])
}

/// The interpreter against the cases' expectations.
pub fn interpreter_report(prepared: &[Prepared]) -> Report {
    let verdicts = prepared
        .iter()
        .map(|case| {
            let verdict = match &case.body {
                Err(why) => whole_case_failed(&case.name, why.clone()),
                Ok(body) => {
                    let failures: Vec<Failure> = body
                        .runs
                        .iter()
                        .zip(&body.oracle)
                        .filter_map(|(run, got)| {
                            let want = Outcome::of_expect(&run.expect);
                            (*got != want).then(|| {
                                failure(&case.name, run, want.to_string(), got.to_string())
                            })
                        })
                        .collect();
                    if failures.is_empty() {
                        Verdict::Passed
                    } else {
                        Verdict::Failed(failures)
                    }
                }
            };
            (case.name.clone(), verdict)
        })
        .collect();
    Report::new(INTERPRETER, verdicts)
}

/// Whether a backend's failure says it cannot do what the case asks.
fn unsupported_failure(f: &BackendFailure) -> bool {
    f.diagnostic
        .backend_code()
        .is_some_and(|c| c.is_unsupported())
}

/// A backend (as an executor with the features it declares) against the
/// interpreter.
pub fn backend_report(
    prepared: &[Prepared],
    executor: &dyn Executor,
    features: &FeatureSet,
    options: &Options,
) -> Report {
    let verdicts = par_map(prepared, options.jobs, |case| {
        let verdict = match &case.body {
            Err(why) => whole_case_failed(&case.name, why.clone()),
            Ok(body) => backend_verdict(&case.name, body, executor, features),
        };
        (case.name.clone(), verdict)
    });
    Report::new(executor.name(), verdicts)
}

fn backend_verdict(
    name: &str,
    body: &PreparedRuns,
    executor: &dyn Executor,
    features: &FeatureSet,
) -> Verdict {
    let unsupported = |features: Vec<String>, reason: String| {
        Verdict::Unsupported(Unsupported {
            case: name.to_owned(),
            features,
            reason,
        })
    };
    let missing = features.missing(body.needs.iter().map(String::as_str));
    if !missing.is_empty() {
        let reason = format!("needs {}", missing.join(", "));
        return unsupported(missing, reason);
    }
    let loaded = match executor.load(&body.program) {
        Ok(l) => l,
        Err(BuildError::Backend(fs)) if fs.iter().all(unsupported_failure) => {
            let reasons: Vec<&str> = fs.iter().map(|f| f.diagnostic.message.as_str()).collect();
            return unsupported(Vec::new(), reasons.join("; "));
        }
        Err(e) => return whole_case_failed(name, format!("compile failed: {e}")),
    };
    let mut failures = Vec::new();
    for (run, want) in body.runs.iter().zip(&body.oracle) {
        let got = match loaded.run(&run.args, &body.limits, None) {
            Executed::Value { value, .. } => Outcome::Value(value),
            Executed::Error(d) => Outcome::of_diagnostic(&d),
            Executed::Failed(f) if unsupported_failure(&f) => {
                return unsupported(Vec::new(), f.diagnostic.message);
            }
            Executed::Failed(f) => {
                failures.push(failure(name, run, want.to_string(), f.to_string()));
                continue;
            }
        };
        if got != *want {
            failures.push(failure(name, run, want.to_string(), got.to_string()));
        }
    }
    if failures.is_empty() {
        Verdict::Passed
    } else {
        Verdict::Failed(failures)
    }
}

#[cfg(test)]
mod tests;
