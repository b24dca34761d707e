//! Every conformance case (conformance/cases/*.isu) and every program of the
//! backend's own (tests/programs/*.isu), every run line of each: compiled
//! and executed through the backend, the result must equal the reference
//! interpreter's (the value, or the error's code and step), and both must
//! equal what the run line expects. All of them, every time (the step budget
//! included: every executor counts loop rounds and stops at the LOOP).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use isu_backend_python::PythonBackend;
use isu_host::cases::{parse_runs, Expect};
use isu_host::interp::{self, RunOptions};
use isu_plugin_api::{Backend, CompileOptions, ExecLimits, Literal};

/// The outcome of a run, as a line for messages and comparison.
fn value(v: &Literal) -> String {
    v.to_string()
}

fn error(code: &str, step: Option<&str>) -> String {
    format!("error {code} at {}", step.unwrap_or("-"))
}

/// Runs every run line of one case through the interpreter and the
/// backend; the failures, and how many runs there were.
fn check(case: &common::Case, opts: &RunOptions) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let runs = parse_runs(&case.text).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let artifacts = match PythonBackend.compile(&case.program, &CompileOptions::default()) {
        Ok(a) => a,
        Err(d) => {
            return (
                vec![format!("{}: does not compile: {d:?}", case.name)],
                runs.len(),
            )
        }
    };
    let limits = ExecLimits {
        max_steps: opts.max_steps,
        max_size: opts.max_size as u64,
    };
    for run in &runs {
        let oracle = match interp::run(&case.program, &run.args, opts, None) {
            Ok(v) => value(&v),
            Err(d) => error(d.code.as_str(), d.step.as_ref().map(|s| s.as_str())),
        };
        let expected = match &run.expect {
            Expect::Value(v) => value(v),
            Expect::Error { code, step } => error(code.as_str(), step.as_ref().map(|s| s.as_str())),
        };
        // Arguments a Literal cannot hold (null, fractions) never reach a
        // backend: the host refuses them first.
        let got = match serde_json::from_value::<Literal>(run.args.clone()) {
            Err(_) => error("invalid_argument", None),
            Ok(args) => match PythonBackend.execute(&artifacts, &args, &limits) {
                Ok(v) => value(&v),
                Err(d) if d.kind == "RuntimeError" => error(&d.code, d.step.as_deref()),
                Err(d) => format!("backend failure {}: {}", d.code, d.message),
            },
        };
        if got != oracle {
            failures.push(format!(
                "{} line {}: args {}: interpreter {oracle}, python {got}",
                case.name, run.line, run.args
            ));
        }
        if oracle != expected {
            failures.push(format!(
                "{} line {}: args {}: the run line expects {expected}, the interpreter gives {oracle}",
                case.name, run.line, run.args
            ));
        }
    }
    (failures, runs.len())
}

#[test]
fn every_case_runs_as_in_the_interpreter() {
    let cases = common::cases();
    let opts = RunOptions::default();
    // Each run starts a Python process: two threads keep two cores busy.
    let (left, right) = cases.split_at(cases.len() / 2);
    let (mut failures, mut runs) = (Vec::new(), 0);
    std::thread::scope(|s| {
        let handles: Vec<_> = [left, right]
            .into_iter()
            .map(|part| {
                s.spawn(move || {
                    part.iter().map(|c| check(c, &opts)).fold(
                        (Vec::new(), 0),
                        |(mut f, n), (g, m)| {
                            f.extend(g);
                            (f, n + m)
                        },
                    )
                })
            })
            .collect();
        for h in handles {
            let (f, n) = h.join().unwrap();
            failures.extend(f);
            runs += n;
        }
    });
    eprintln!(
        "python backend: {} of {runs} runs of {} cases as in the interpreter",
        runs - failures.len(),
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
