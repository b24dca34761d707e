//! Differential fuzzing of every backend (`isu fuzz`, and each backend's
//! differential test): random valid programs ([`isu_lang::build::RandomPrograms`],
//! with the loaded packs' functions by their signatures) through the front
//! end, run by the reference interpreter and by each target's backend on
//! random arguments under random limits, the outcomes (value, or error code
//! and step) compared by the conformance runner's own comparison
//! ([`conformance::backend_verdict`]). Each difference is shrunk to a small
//! program that still shows it ([`shrink`]) and written as a ready
//! conformance case ([`case`]).
//!
//! Program `k` of a run seeded `s` is made from `(s, k)` alone, so the same
//! seed gives the same programs byte for byte, and the shards of a run
//! ([`Shard`]) together run exactly its programs. Nothing here reads or
//! writes files; `cli/fuzz.rs` does.

pub mod case;
pub mod merge;
pub mod shrink;

use crate::cases::{Expect, Run};
use crate::conformance::{self, Outcome, PreparedRuns, Verdict};
use crate::diag::has_errors;
use crate::executor::{Executed, Executor, Interpreter, ViaBackend};
use crate::functions::Functions;
use crate::{canon, validate};
use isu_lang::build::{Function, RandomPrograms};
use isu_plugin_api::{features, Backend, ExecLimits, FeatureSet, Literal, Program};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How many runs (argument sets) each program has.
pub const RUNS: usize = 3;

/// The pack functions of `table` that every one of `targets` lowers (the
/// pack or the target's backend, [`crate::functions::PackFn::lowering_for`]),
/// by their signatures, as the generator calls them. A program calling one
/// that a target cannot build would be no test of that target, only
/// unsupported.
pub fn pack_functions(table: &Functions, targets: &[Target]) -> Vec<Function> {
    let infos: Vec<_> = targets.iter().map(|t| (t, t.backend.info())).collect();
    table
        .iter()
        .filter(|f| {
            infos
                .iter()
                .all(|(t, info)| matches!(f.lowering_for(&t.name, info), Ok(Some(_))))
        })
        .map(|f| Function {
            name: f.name.clone(),
            params: f.signature.params.clone(),
            ret: f.signature.ret.clone(),
        })
        .collect()
}

/// One part of a run split over machines: the programs whose number is
/// `index` modulo `of`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Shard {
    pub index: u64,
    pub of: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, of: 1 };

    /// `I/N` with `0 <= I < N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is no shard: write I/N with 0 <= I < N, as 0/2 and 1/2");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let of: u64 = n.trim().parse().map_err(|_| bad())?;
        if of == 0 || index >= of {
            return Err(bad());
        }
        Ok(Shard { index, of })
    }

    /// The numbers of this shard's programs among the first `count`.
    pub fn programs(&self, count: u64) -> impl Iterator<Item = u64> + '_ {
        (self.index..count).step_by(usize::try_from(self.of).unwrap_or(usize::MAX))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

/// A backend serving one target, with the features it declares.
#[derive(Clone)]
pub struct Target {
    pub name: String,
    pub backend: Arc<dyn Backend + Send + Sync>,
    pub features: FeatureSet,
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Target")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Target {
    pub fn new(name: &str, backend: Arc<dyn Backend + Send + Sync>) -> Target {
        let features = backend.info().features;
        Target {
            name: name.to_owned(),
            backend,
            features,
        }
    }

    /// An executor for one program: a fresh one each time, so that the
    /// artifacts of a long run are not all kept.
    fn executor(&self, table: &Functions) -> ViaBackend {
        ViaBackend::new(self.backend.clone(), &self.name, table.clone())
    }
}

/// A generated program checked by the front end, with its runs and the
/// interpreter's outcome of each.
#[derive(Debug, Clone)]
pub struct Generated {
    /// Its number in the run.
    pub index: u64,
    pub body: PreparedRuns,
}

/// Program `index` of the run seeded `seed`, calling the pack functions
/// `offered` (of `table`), with the interpreter's outcomes, or `None` when the
/// front end refuses it.
pub fn generate(
    seed: u64,
    index: u64,
    table: &Functions,
    offered: &[Function],
) -> Option<Generated> {
    let mut gen = RandomPrograms::nth(seed, index).with_functions(offered.to_vec());
    let program = checked(gen.program(), table)?;
    let limits = gen.limits();
    let args: Vec<Literal> = (0..RUNS).map(|_| gen.args(&program)).collect();
    let body = prepare(program, limits, &args, table)?;
    Some(Generated { index, body })
}

/// `program` canonicalized (every step numbered afresh) and validated with
/// the functions of `table`, or `None` when the front end refuses it.
pub fn checked(mut program: Program, table: &Functions) -> Option<Program> {
    shrink::clear_ids(&mut program);
    program.auto_id = true;
    let mut diags = canon::canonicalize(&mut program);
    diags.extend(validate::validate_with(&mut program, table));
    (!has_errors(&diags)).then_some(program)
}

/// Runs a checked program on the interpreter on each of `args`, as a case
/// of the conformance runner: the runs, their outcomes and what they need.
pub fn prepare(
    program: Program,
    limits: ExecLimits,
    args: &[Literal],
    table: &Functions,
) -> Option<PreparedRuns> {
    let interpreter = Interpreter::new(table.clone());
    let loaded = interpreter.load(&program).ok()?;
    let mut runs = Vec::new();
    let mut oracle = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let json = serde_json::to_value(a).ok()?;
        let (outcome, expect) = match loaded.run(&json, &limits, None) {
            Executed::Value { value, .. } => (Outcome::Value(value.clone()), Expect::Value(value)),
            Executed::Error(d) => (
                Outcome::Error {
                    code: d.code.as_str().to_owned(),
                    step: d.step.as_ref().map(ToString::to_string),
                },
                Expect::Error {
                    code: d.code,
                    step: d.step,
                },
            ),
            Executed::Failed(_) => return None,
        };
        runs.push(Run {
            line: case::FIRST_RUN_LINE + i,
            args: json,
            expect,
        });
        oracle.push(outcome);
    }
    let mut needs: Vec<String> = features::used_by(&program).into_iter().collect();
    needs.extend(
        conformance::limit_needs(&program, &oracle)
            .into_iter()
            .map(str::to_owned),
    );
    needs.sort();
    needs.dedup();
    drop(loaded);
    Some(PreparedRuns {
        program,
        runs,
        limits,
        needs,
        oracle,
    })
}

/// What to run: the programs `0..count` of `seed` in `shard`, `jobs` at once.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub seed: u64,
    pub count: u64,
    pub shard: Shard,
    pub jobs: usize,
    /// How many edits the shrinking of one difference may try.
    pub shrink_tries: usize,
    /// How many differences are shrunk at most; those after them are
    /// written as they are (a bug that many programs show need not be shrunk
    /// a thousand times).
    pub shrink_most: usize,
}

/// One difference between the interpreter and a target, shrunk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub target: String,
    /// The program's number in the run.
    pub index: u64,
    /// The arguments of the run that differs, as JSON text.
    pub args: String,
    /// What the interpreter gives, in the case-file notation.
    pub expected: String,
    /// What the target gives.
    pub got: String,
    /// The shrunk program as a ready conformance case file.
    pub case: String,
}

/// What one target did over a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TargetReport {
    pub target: String,
    /// Programs run on the target and compared.
    pub compared: u64,
    pub passed: u64,
    pub failed: u64,
    /// Programs the target does not support (features it lacks, pack
    /// functions without its lowering).
    pub unsupported: u64,
    /// Time spent building and running on the target (summed over jobs).
    pub seconds: f64,
}

impl TargetReport {
    /// Programs compared per second of the target's time.
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.compared as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// What a run found: what `--format json` prints (with more fields), and
/// what `--merge` reads back.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub seed: u64,
    pub count: u64,
    pub shard: String,
    /// Programs of the shard made.
    pub programs: u64,
    /// Of them, those the front end refused (skipped).
    pub invalid: u64,
    /// How often the interpreter's runs gave each kind of outcome (`value`,
    /// `error CODE`).
    pub outcomes: BTreeMap<String, u64>,
    pub targets: Vec<TargetReport>,
    pub findings: Vec<Finding>,
    /// Seconds the whole run took.
    pub seconds: f64,
}

/// What one program gave on each target.
struct Done {
    valid: bool,
    outcomes: Vec<String>,
    per_target: Vec<(Verdict, Duration, Option<Finding>)>,
}

/// Runs `plan` on `targets` with the functions of `table`; `progress` is
/// told the report so far after every batch of programs.
pub fn run(
    plan: &Plan,
    targets: &[Target],
    table: &Functions,
    progress: &mut dyn FnMut(&Report),
) -> Report {
    let start = Instant::now();
    let mut report = Report {
        seed: plan.seed,
        count: plan.count,
        shard: plan.shard.to_string(),
        targets: targets
            .iter()
            .map(|t| TargetReport {
                target: t.name.clone(),
                ..TargetReport::default()
            })
            .collect(),
        ..Report::default()
    };
    let indices: Vec<u64> = plan.shard.programs(plan.count).collect();
    let shrunk = AtomicUsize::new(0);
    let offered = pack_functions(table, targets);
    let batch = (plan.jobs.max(1) * 50).max(1);
    for chunk in indices.chunks(batch) {
        let done = conformance::par_map(chunk, plan.jobs, |&k| {
            one(plan, k, targets, table, &offered, &shrunk)
        });
        for d in done {
            report.programs += 1;
            if !d.valid {
                report.invalid += 1;
                continue;
            }
            for o in d.outcomes {
                *report.outcomes.entry(o).or_default() += 1;
            }
            for (t, (verdict, took, finding)) in report.targets.iter_mut().zip(d.per_target) {
                t.seconds += took.as_secs_f64();
                match verdict {
                    Verdict::Passed => {
                        t.compared += 1;
                        t.passed += 1;
                    }
                    Verdict::Failed(_) => {
                        t.compared += 1;
                        t.failed += 1;
                    }
                    Verdict::Unsupported(_) => t.unsupported += 1,
                }
                report.findings.extend(finding);
            }
        }
        report.seconds = start.elapsed().as_secs_f64();
        progress(&report);
    }
    report.seconds = start.elapsed().as_secs_f64();
    report
}

/// Program `k` on every target.
fn one(
    plan: &Plan,
    k: u64,
    targets: &[Target],
    table: &Functions,
    offered: &[Function],
    shrunk: &AtomicUsize,
) -> Done {
    let Some(g) = generate(plan.seed, k, table, offered) else {
        return Done {
            valid: false,
            outcomes: Vec::new(),
            per_target: Vec::new(),
        };
    };
    let outcomes = g
        .body
        .oracle
        .iter()
        .map(|o| match o {
            Outcome::Value(_) => "value".to_owned(),
            Outcome::Error { code, .. } => format!("error {code}"),
        })
        .collect();
    let per_target = targets
        .iter()
        .map(|t| {
            let started = Instant::now();
            let executor = t.executor(table);
            let name = format!("{}#{k}", plan.seed);
            let verdict = conformance::backend_verdict(&name, &g.body, &executor, &t.features);
            let took = started.elapsed();
            let finding = match &verdict {
                Verdict::Failed(fs) => {
                    let tries = if shrunk.fetch_add(1, Ordering::Relaxed) < plan.shrink_most {
                        plan.shrink_tries
                    } else {
                        0
                    };
                    Some(find(plan, &g, t, table, fs, tries))
                }
                _ => None,
            };
            (verdict, took, finding)
        })
        .collect();
    Done {
        valid: true,
        outcomes,
        per_target,
    }
}

/// The finding of a program that failed on `target`: its first differing
/// run, shrunk.
fn find(
    plan: &Plan,
    g: &Generated,
    target: &Target,
    table: &Functions,
    failures: &[conformance::Failure],
    tries: usize,
) -> Finding {
    let run = failures
        .first()
        .and_then(|f| g.body.runs.iter().position(|r| r.line == f.line))
        .unwrap_or(0);
    let args: Literal = g
        .body
        .runs
        .get(run)
        .and_then(|r| isu_plugin_api::json::from_value(r.args.clone()).ok())
        .unwrap_or(Literal::Object(BTreeMap::new()));
    let origin = case::Origin {
        seed: plan.seed,
        index: g.index,
        target: target.name.clone(),
    };
    let shrunk = shrink::shrink(&g.body.program, &args, g.body.limits, target, table, tries);
    match shrunk {
        Some(s) => Finding {
            target: target.name.clone(),
            index: g.index,
            args: s.args.to_string(),
            expected: s.expected.to_string(),
            got: s.got.clone(),
            case: case::text(&origin, &s),
        },
        // The difference did not come back on its own (a failure of the
        // backend that comes and goes): the program as it was.
        None => {
            let f = failures.first();
            Finding {
                target: target.name.clone(),
                index: g.index,
                args: args.to_string(),
                expected: f.map(|f| f.expected.clone()).unwrap_or_default(),
                got: f.map(|f| f.got.clone()).unwrap_or_default(),
                case: case::text_unshrunk(&origin, &g.body, run),
            }
        }
    }
}

impl Report {
    /// Whether no target differed from the interpreter.
    pub fn ok(&self) -> bool {
        self.findings.is_empty() && self.targets.iter().all(|t| t.failed == 0)
    }

    /// One line per target: programs compared, passed, failed, unsupported,
    /// and programs per second.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "fuzz seed {} shard {}: {} programs ({} refused by the front end) in {:.1}s\n",
            self.seed, self.shard, self.programs, self.invalid, self.seconds
        );
        for t in &self.targets {
            out.push_str(&format!(
                "{}: {} compared, {} passed, {} failed, {} unsupported, {:.1} programs/s\n",
                t.target,
                t.compared,
                t.passed,
                t.failed,
                t.unsupported,
                t.rate()
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests;
