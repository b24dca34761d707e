//! `isu conformance [--target T] [--cases DIR]...`: the conformance suite
//! (built into isu, plus the cases of each DIR) on the interpreter and on the
//! backend of T (or on every backend of the manifests), with a summary per
//! executor and every failure's difference.

use super::output::print_json;
use super::plugins::EXIT_PLUGIN;
use super::Format;
use crate::conformance::{self, Report};
use crate::diag::Kind;
use crate::plugins::PluginKind;
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
    /// List every unsupported case with the features it needs.
    #[arg(long, short)]
    pub verbose: bool,
}

/// Runs `isu conformance`; `manifest` is the `--plugins FILE` flag. Exits 0
/// when nothing failed, 6 (as a TestFail) when a case failed anywhere, 8
/// when the target has no working backend.
pub fn conformance(args: &Args, manifest: Option<&Path>) -> Result<i32> {
    let reg = super::plugins::registry(manifest, &[PluginKind::Backend, PluginKind::Pack]);
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
    let backends = match &args.target {
        Some(t) => match reg.backend(t) {
            Ok((_, b)) => vec![(t.clone(), b)],
            Err(message) => {
                match args.format {
                    Format::Json => print_json(&json!({"ok": false, "error": message}))?,
                    Format::Human => eprintln!("error: {message}"),
                }
                return Ok(EXIT_PLUGIN);
            }
        },
        None => reg
            .backends()
            .into_iter()
            .flat_map(|(_, b, targets)| targets.into_iter().map(move |t| (t, b.clone())))
            .collect(),
    };
    let prepared = conformance::prepare(&cases, &reg.functions);
    let mut reports = vec![conformance::interpreter_report(&prepared)];
    for (target, backend) in &backends {
        reports.push(conformance::backend_report(
            &prepared,
            target,
            backend.as_ref(),
            &reg.functions,
        ));
    }
    let ok = reports.iter().all(|r| r.failed == 0);
    match args.format {
        Format::Json => print_json(&json!({
            "ok": ok,
            "cases": cases.len(),
            "builtin_cases": builtin,
            "folders": args.cases.iter().map(|d| d.display().to_string()).collect::<Vec<_>>(),
            "reports": reports,
        }))?,
        Format::Human => print!("{}", human(&reports, cases.len(), args.verbose)),
    }
    for e in reg.errors() {
        if args.format == Format::Human {
            eprintln!("warning: {e}");
        }
    }
    Ok(if ok { 0 } else { Kind::TestFail.exit_code() })
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
                let _ = writeln!(
                    out,
                    "unsupported [{}] {}: needs {}",
                    r.executor,
                    u.case,
                    u.features.join(", ")
                );
            }
        }
    }
    let _ = writeln!(out, "{cases} cases");
    for r in reports {
        let _ = writeln!(out, "{}", r.summary());
    }
    out
}
