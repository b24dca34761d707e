//! Differential runs: random well-typed programs
//! ([`isu_lang::build::RandomPrograms`]) through the front end's checks, run
//! by the reference interpreter and by a backend on random arguments, the
//! outcomes compared. Each backend's tests call [`compare`]; the random
//! programs are where the checks executors leave out (the value bounds of
//! `isu_lang::analysis::bounds`) meet their edge cases.

use crate::diag::has_errors;
use crate::interp::{self, RunOptions};
use crate::{canon, validate};
use isu_lang::build::RandomPrograms;
use isu_plugin_api::{Backend, CompileOptions, ExecLimits, ExecOptions, Literal, Program};
use std::collections::BTreeMap;

/// What a differential run found.
#[derive(Debug, Default)]
pub struct Differences {
    /// The programs that validated and were compared.
    pub programs: usize,
    /// The runs compared (three per program).
    pub runs: usize,
    /// How often the interpreter gave each kind of outcome (`value`, `error CODE`).
    pub kinds: BTreeMap<String, usize>,
    /// Each run whose outcomes differ: arguments, both outcomes, the program.
    pub failures: Vec<String>,
}

/// The limits of the runs: small, so loops that go on end soon.
pub const LIMITS: ExecLimits = ExecLimits {
    max_steps: 10_000,
    max_size: 1000,
    max_memory: 4000,
};

/// Generates programs from `seed` until `count` of them validate (trying at
/// most twenty times as many), compiles each with `backend` and compares
/// three runs of it with the interpreter's: two under [`LIMITS`], the last
/// under a step budget of 0 to 11 rounds, which loops often spend, so that
/// every executor must stop with `step_limit` at the same LOOP.
pub fn compare(backend: &dyn Backend, count: usize, seed: u64) -> Differences {
    let mut gen = RandomPrograms::new(seed);
    let opts = RunOptions::from(LIMITS);
    let mut out = Differences::default();
    let mut attempts = 0;
    while out.programs < count && attempts < count * 20 {
        attempts += 1;
        let mut p = gen.program();
        let mut diags = canon::canonicalize(&mut p);
        diags.extend(validate::validate(&mut p));
        if has_errors(&diags) {
            continue;
        }
        out.programs += 1;
        let artifacts = match backend.compile(&p, &CompileOptions::default()) {
            Ok(a) => a,
            Err(e) => {
                out.failures
                    .push(format!("compile failed: {e:?}\n{}", shown(&p)));
                continue;
            }
        };
        for run in 0..3 {
            let args = gen.args();
            let limits = if run == 2 {
                ExecLimits {
                    max_steps: gen.below(12) as u64,
                    ..LIMITS
                }
            } else {
                LIMITS
            };
            let opts = RunOptions {
                max_steps: limits.max_steps,
                ..opts
            };
            out.runs += 1;
            let want = interpreted(&p, &args, &opts);
            let got = match backend.execute(&artifacts, &args, &ExecOptions::new(limits)) {
                Ok(v) => v.to_string(),
                Err(d) => format!("error {} at {}", d.code, d.step.as_deref().unwrap_or("-")),
            };
            let kind = match want.split(" at ").next() {
                Some(k) if k.starts_with("error") => k.to_owned(),
                _ => "value".to_owned(),
            };
            *out.kinds.entry(kind).or_default() += 1;
            if got != want {
                out.failures.push(format!(
                    "args {args}: interpreter {want}, backend {got}\n{}",
                    shown(&p)
                ));
            }
        }
    }
    out
}

/// How many random programs a backend's test compares: `ISU_DIFF_PROGRAMS`
/// when set to a number, else `default`.
pub fn program_count(default: usize) -> usize {
    std::env::var("ISU_DIFF_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

impl Differences {
    /// One line saying what was compared.
    pub fn summary(&self) -> String {
        format!(
            "differential: {} programs, {} runs (the interpreter gives {:?}), {} differ",
            self.programs,
            self.runs,
            self.kinds,
            self.failures.len()
        )
    }

    /// Whether a comparison of `count` programs passes: at least half of
    /// them validated, and no run differs; else what went wrong.
    pub fn verdict(&self, count: usize) -> Result<(), String> {
        if self.programs * 2 < count {
            return Err(format!(
                "only {} of {count} random programs validated",
                self.programs
            ));
        }
        if !self.failures.is_empty() {
            return Err(self.failures.join("\n\n"));
        }
        Ok(())
    }
}

fn interpreted(p: &Program, args: &Literal, opts: &RunOptions) -> String {
    let json = serde_json::to_value(args).unwrap_or(serde_json::Value::Null);
    match interp::run(p, &json, opts, None) {
        Ok(v) => v.to_string(),
        Err(d) => format!(
            "error {} at {}",
            d.code.as_str(),
            d.step.map_or("-".to_owned(), |s| s.to_string())
        ),
    }
}

fn shown(p: &Program) -> String {
    canon::print(p)
}
