//! `isu conformance [--target T] [--cases DIR]... [--expect FILE] [--junit FILE]`:
//! the conformance suite (built into isu, plus the cases of each DIR) on the
//! interpreter and on the backend of T (or on every backend of the
//! manifests), with a summary per executor and every failure's difference;
//! for people or as JSON (the global `--format`), and as JUnit XML.
//!
//! With `--expect FILE --bless`, the file is written (made, or updated)
//! from T's results instead of held against them.
//!
//! Exit codes: 0 when no case failed anywhere (with `--expect`, when T's
//! results are exactly what the file expects; with `--bless`, when the file
//! was written and the interpreter passed every case), 6 when a case failed
//! (or the results differ from the file), 8 when the target has no working
//! backend, 1 when the cases or a file cannot be read or written.

use super::output::print_json;
use super::plugins::EXIT_PLUGIN;
use super::Format;
use crate::conformance::expect::Expectations;
use crate::conformance::{self, junit, Options, Report};
use crate::diag::Kind;
use crate::executor::ViaBackend;
use anyhow::{Context, Result};
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Run the suite on this target's backend only (besides the interpreter).
    #[arg(long, short)]
    pub target: Option<String>,
    /// A folder of more case files (`*.isu` with `; run:` lines, as in
    /// conformance/README.md), run besides the suite built into isu and named
    /// `DIR/NAME` in reports; repeatable.
    #[arg(long, value_name = "DIR")]
    pub cases: Vec<PathBuf>,
    #[command(flatten)]
    pub format_flag: super::FormatFlag,
    /// How the command reports (see `super::Common::format`).
    #[arg(skip)]
    pub format: Format,
    /// Also write the results as JUnit XML to this file.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// The target's expectation file (its unsupported and known-failing
    /// cases): exit 0 only when the results are exactly those.
    #[arg(long, value_name = "FILE", requires = "target")]
    pub expect: Option<PathBuf>,
    /// Write the expectation file (`--expect FILE`, made when missing) from
    /// the target's results instead of holding them against it.
    #[arg(long, requires = "expect")]
    pub bless: bool,
    /// Cases run at once (default: the number of cores).
    #[arg(long, short, value_name = "N")]
    pub jobs: Option<usize>,
    /// Seconds a backend may take for one compile or one run before its
    /// plugin host is stopped and the case fails.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub timeout: u64,
    /// List every unsupported case with the features it needs.
    #[arg(long, short)]
    pub verbose: bool,
}

/// Prints why the command cannot go on and returns exit 8.
fn no_backend(message: &str, format: Format) -> Result<i32> {
    match format {
        Format::Json => print_json(&json!({"ok": false, "error": message}))?,
        Format::Human => eprintln!("error: {message}"),
    }
    Ok(EXIT_PLUGIN)
}

/// Runs `isu conformance`; `manifest` is the `--plugins FILE` flag.
pub fn conformance(args: &Args, manifest: Option<&Path>) -> Result<i32> {
    let reg = super::plugins::isolated_registry(manifest, args.timeout)?;
    let mut cases = conformance::builtin_cases();
    let builtin = cases.len();
    for dir in &args.cases {
        let more = conformance::load_cases(dir)
            .with_context(|| format!("reading the cases in {}", dir.display()))?;
        if more.is_empty() {
            anyhow::bail!("{} holds no case (*.isu file)", dir.display());
        }
        let prefix = dir.display().to_string();
        let prefix = prefix.trim_end_matches('/');
        cases.extend(more.into_iter().map(|c| conformance::Case {
            name: format!("{prefix}/{}", c.name),
            ..c
        }));
    }
    let expectations = match &args.expect {
        Some(path) => read_expectations(path, args)?,
        None => None,
    };
    let backends = match &args.target {
        Some(t) => match reg.backend(t) {
            Ok((_, b)) => vec![(t.clone(), b)],
            Err(message) => return no_backend(&message, args.format),
        },
        None => reg
            .backends()
            .into_iter()
            .flat_map(|(_, b, targets)| targets.into_iter().map(move |t| (t, b.clone())))
            .collect(),
    };
    let options = match args.jobs {
        Some(jobs) => Options { jobs },
        None => Options::default(),
    };
    let prepared = conformance::prepare(&cases, &reg.functions, &options);
    let mut reports = vec![conformance::interpreter_report(&prepared)];
    for (target, backend) in &backends {
        let features = backend.info().features;
        let executor = ViaBackend::new(backend.clone(), target, reg.functions.clone());
        reports.push(conformance::backend_report(
            &prepared, &executor, &features, &options,
        ));
    }
    let interpreter: Vec<String> = reports[0]
        .failures
        .iter()
        .map(|f| format!("[interpreter] {f}"))
        .collect();
    // Without a file (only when blessing: a new one), nothing differs from
    // it.
    let differences = args.expect.as_ref().map(|_| {
        let backend = match (&expectations, reports.last()) {
            (Some(was), Some(r)) => was.differences(r),
            _ => Vec::new(),
        };
        [interpreter.clone(), backend].concat()
    });
    let blessed = match (&args.expect, args.bless, reports.last()) {
        (Some(path), true, Some(report)) if reports.len() > 1 => {
            let new = Expectations::of(report);
            let text = new.to_text(&report.executor);
            super::write::write_file(path, text.as_bytes(), Default::default())?;
            Some(Blessed {
                new,
                made: expectations.is_none(),
            })
        }
        _ => None,
    };
    let ok = match &differences {
        Some(_) if blessed.is_some() => interpreter.is_empty(),
        Some(d) => d.is_empty(),
        None => reports.iter().all(|r| r.failed == 0),
    };
    if let Some(path) = &args.junit {
        super::write::write_file(path, junit::junit(&reports).as_bytes(), Default::default())?;
    }
    match args.format {
        Format::Json => {
            let mut doc = json!({
                "ok": ok,
                "cases": cases.len(),
                "builtin_cases": builtin,
                "folders": args.cases.iter().map(|d| d.display().to_string()).collect::<Vec<_>>(),
                "reports": reports,
            });
            if let (Some(path), Some(d)) = (&args.expect, &differences) {
                doc["expectation"] = json!({
                    "file": path.display().to_string(),
                    "differences": d,
                    "blessed": blessed.is_some(),
                });
            }
            print_json(&doc)?;
        }
        Format::Human => {
            let mut text = human(&reports, cases.len(), args.verbose);
            if let (Some(path), Some(d)) = (&args.expect, &differences) {
                text.push_str(&expectation_text(path, d, blessed.as_ref()));
            }
            print!("{text}");
        }
    }
    for e in reg.errors() {
        if args.format == Format::Human {
            eprintln!("warning: {e}");
        }
    }
    Ok(if ok { 0 } else { Kind::TestFail.exit_code() })
}

/// The expectation file at `path`: `None` when it is missing and is to be
/// blessed; a missing file is otherwise an error that says how to make it.
fn read_expectations(path: &Path, args: &Args) -> Result<Option<Expectations>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && args.bless => return Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => anyhow::bail!(
            "the expectation file {} does not exist; `isu conformance --target {} --expect {} --bless` writes it from the results",
            path.display(),
            args.target.as_deref().unwrap_or("T"),
            path.display()
        ),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    match Expectations::parse(&text) {
        Ok(e) => Ok(Some(e)),
        // Blessing rewrites a file that no longer parses.
        Err(_) if args.bless => Ok(None),
        Err(e) => anyhow::bail!(
            "{} is not an expectation file: {e} (`--bless` rewrites it from the results)",
            path.display()
        ),
    }
}

/// An expectation file written from the results (`--bless`).
struct Blessed {
    new: Expectations,
    /// There was no file (or none that parsed) before.
    made: bool,
}

/// What the comparison with an expectation file found, for people; when
/// the file was blessed, what it now says and how that differs from before.
fn expectation_text(path: &Path, differences: &[String], blessed: Option<&Blessed>) -> String {
    if let Some(b) = blessed {
        let mut out = format!(
            "wrote {}{}: {} unsupported, {} failing\n",
            path.display(),
            if b.made { " (a new file)" } else { "" },
            b.new.unsupported.len(),
            b.new.failing.len()
        );
        let changed: Vec<&String> = differences
            .iter()
            .filter(|d| !d.starts_with("[interpreter]"))
            .collect();
        if !b.made && !changed.is_empty() {
            let _ = writeln!(out, "changed from before:");
            for d in changed {
                let _ = writeln!(out, "  {d}");
            }
        }
        return out;
    }
    if differences.is_empty() {
        return format!("as expected by {}\n", path.display());
    }
    let mut out = format!(
        "{} difference(s) from {}:\n",
        differences.len(),
        path.display()
    );
    for d in differences {
        let _ = writeln!(out, "  {d}");
    }
    out
}

/// The human report: each executor's failures, then the summaries.
pub fn human(reports: &[Report], cases: usize, verbose: bool) -> String {
    let mut out = String::new();
    for r in reports {
        for f in &r.failures {
            let _ = writeln!(out, "FAIL [{}] {f}", r.executor);
        }
        if verbose {
            for u in &r.unsupported_cases {
                let _ = writeln!(out, "unsupported [{}] {}: {}", r.executor, u.case, u.reason);
            }
        }
    }
    let _ = writeln!(out, "{cases} cases");
    for r in reports {
        let _ = writeln!(out, "{}", r.summary());
    }
    out
}
