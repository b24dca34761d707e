//! `isu fuzz [--targets T,...] [--count N] [--seed S] [--shard I/N] [--out DIR]`:
//! differential fuzzing (`crate::fuzz`): N random valid programs of seed S
//! (those of shard I of N, when split over machines) on the interpreter and
//! on the backend of each target (every backend of the manifests when no
//! target is named), each in plugin host processes of its own as `isu
//! conformance` runs them; every difference shrunk and, with `--out`,
//! written to DIR as a ready conformance case. Reports the programs compared
//! per target and their rate, for people or as JSON (the global `--format`);
//! progress goes to stderr.
//!
//! `isu fuzz --merge REPORT... [--out DIR]`: the JSON reports of a run's
//! shards made into the whole run's report (`crate::fuzz::merge`), printed
//! as a run's, its findings' cases written to DIR.
//!
//! Exit codes: 0 when no target differs from the interpreter, 6 when one
//! does, 8 when a target has no working backend, 2 on bad usage (a
//! malformed `--shard`, reports that are not every shard of one run), 1
//! when a case cannot be written or a report read.

use super::output::{print_json, read_report};
use super::plugins::EXIT_PLUGIN;
use super::{Failure, Format};
use crate::diag::Kind;
use crate::fuzz::{self, Plan, Report, Shard, Target};
use anyhow::{Context, Result};
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The targets whose backends run the programs, comma-separated
    /// (default: every backend of the manifests).
    #[arg(long, value_delimiter = ',', value_name = "T,...")]
    pub targets: Vec<String>,
    /// How many programs to make (those of this shard among them).
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1000)]
    pub count: u64,
    /// The seed: the same seed makes the same programs.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Run only shard I of N (0 <= I < N): the programs whose number is I
    /// modulo N, so that N machines together run those of one run.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Merge the JSON reports of every shard of one run (what `--shard I/N
    /// --format json` printed) into the whole run's report; runs nothing.
    #[arg(long, value_name = "REPORT", num_args = 1..)]
    pub merge: Vec<PathBuf>,
    /// Write each difference, shrunk, as a conformance case file into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Edits the shrinking of one difference may try.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub shrink_tries: usize,
    /// Differences shrunk at most; those after them are written unshrunk.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub shrink_most: usize,
    #[command(flatten)]
    pub format_flag: super::FormatFlag,
    /// How the command reports (see `super::Common::format`).
    #[arg(skip)]
    pub format: Format,
    /// Programs run at once (default: the number of cores).
    #[arg(long, short, value_name = "N")]
    pub jobs: Option<usize>,
    /// Seconds a backend may take for one compile or one run before its
    /// plugin host is stopped and the program fails.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub timeout: u64,
}

/// Runs `isu fuzz`; `manifest` is the `--plugins FILE` flag.
pub fn fuzz(args: &Args, manifest: Option<&Path>) -> Result<i32> {
    if !args.merge.is_empty() {
        let report = merged(&args.merge)?;
        return finish(args, &report);
    }
    let shard = match &args.shard {
        Some(text) => Shard::parse(text).map_err(|m| {
            Failure::usage(m, "--shard 0/2 on one machine and --shard 1/2 on another")
        })?,
        None => Shard::WHOLE,
    };
    let reg = super::plugins::isolated_registry(manifest, args.timeout)?;
    let mut targets = Vec::new();
    if args.targets.is_empty() {
        for (_, backend, names) in reg.backends() {
            for t in names {
                targets.push(Target::new(&t, backend.clone()));
            }
        }
    } else {
        for t in &args.targets {
            match reg.backend(t) {
                Ok((_, b)) => targets.push(Target::new(t, b)),
                Err(message) => return no_backend(&message, args.format),
            }
        }
    }
    if targets.is_empty() {
        return no_backend("no backend plugin is in use", args.format);
    }
    let plan = Plan {
        seed: args.seed,
        count: args.count,
        shard,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        shrink_tries: args.shrink_tries,
        shrink_most: args.shrink_most,
    };
    let report = fuzz::run(&plan, &targets, &reg.functions, &mut |r| {
        eprintln!("{}", progress(r));
    });
    let code = finish(args, &report)?;
    for e in reg.errors() {
        if args.format == Format::Human {
            eprintln!("warning: {e}");
        }
    }
    Ok(code)
}

/// Reads the shards' reports and merges them.
fn merged(files: &[PathBuf]) -> Result<Report> {
    let mut parts = Vec::new();
    for file in files {
        let report: Report = read_report(file, "isu fuzz", "isu fuzz")?;
        parts.push((file.display().to_string(), report));
    }
    fuzz::merge::merge(&parts).map_err(|m| {
        Failure::usage(
            m,
            "merge the reports of every shard I/N of one run, each once, as `isu fuzz --merge shard-*.json`",
        )
        .into()
    })
}

/// Writes the cases, prints the report and gives the exit code.
fn finish(args: &Args, report: &Report) -> Result<i32> {
    let files = match &args.out {
        Some(dir) => write_cases(dir, report)?,
        None => Vec::new(),
    };
    match args.format {
        Format::Json => {
            let mut doc = serde_json::to_value(report)?;
            doc["ok"] = json!(report.ok());
            for (i, t) in report.targets.iter().enumerate() {
                doc["targets"][i]["programs_per_second"] = json!(round(t.rate()));
            }
            doc["files"] = json!(files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>());
            print_json(&doc)?;
        }
        Format::Human => print!("{}", human(report, &files)),
    }
    Ok(if report.ok() {
        0
    } else {
        Kind::TestFail.exit_code()
    })
}

/// Prints why the command cannot go on and returns exit 8.
fn no_backend(message: &str, format: Format) -> Result<i32> {
    match format {
        Format::Json => print_json(&json!({"ok": false, "error": message}))?,
        Format::Human => eprintln!("error: {message}"),
    }
    Ok(EXIT_PLUGIN)
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// One line of progress: programs so far and each target's counts.
fn progress(r: &Report) -> String {
    let mut line = format!("fuzz: {} programs, {:.0}s", r.programs, r.seconds);
    for t in &r.targets {
        let _ = write!(
            line,
            "; {}: {} compared, {} failed ({:.1}/s)",
            t.target,
            t.compared,
            t.failed,
            t.rate()
        );
    }
    line
}

/// Writes each finding's case into `dir` as `TARGET-SEED-INDEX.isu`.
fn write_cases(dir: &Path, report: &Report) -> Result<Vec<PathBuf>> {
    if report.findings.is_empty() {
        return Ok(Vec::new());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
    let mut files = Vec::new();
    for f in &report.findings {
        let path = dir.join(format!("{}-{}-{}.isu", f.target, report.seed, f.index));
        super::write::write_file(&path, f.case.as_bytes(), Default::default())?;
        files.push(path);
    }
    Ok(files)
}

/// The human report: each difference with its case, then the summary.
fn human(report: &Report, files: &[PathBuf]) -> String {
    let mut out = String::new();
    for (i, f) in report.findings.iter().enumerate() {
        let _ = writeln!(
            out,
            "DIFF [{}] program {}: {}\n  interpreter: {}\n  {}: {}",
            f.target, f.index, f.args, f.expected, f.target, f.got
        );
        match files.get(i) {
            Some(path) => {
                let _ = writeln!(out, "  case written to {}", path.display());
            }
            None => {
                let _ = writeln!(out, "{}", f.case);
            }
        }
    }
    out.push_str(&report.summary());
    out
}
