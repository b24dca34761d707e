//! `isu replay LOG`: a recorded run (of the loop or of `isu explain`)
//! again, without the model.

use super::gen::{finish, packs, report_round};
use super::write::{refuse_dash, write_file, Options as WriteOptions};
use super::{Format, FormatFlag};
use crate::llm::replay::{self, Difference, LoadError, Recording};
use crate::report;
use anyhow::{Context, Result};
use std::path::PathBuf;

/// Exit code of a replay whose log differs from the recorded one.
pub const EXIT_REPLAY_DIFFERS: i32 = 12;
/// Exit code of a log that does not hold together (changed, cut, or not a log).
pub const EXIT_BROKEN_LOG: i32 = 13;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The event log of `isu gen`, `isu repair`, `isu explain` or `isu eval --logs`.
    pub log: PathBuf,
    /// Write the final program (or description) here (else it is printed, as the run did).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Write the run as one self-contained HTML page here: the task, every
    /// round (requests, replies, the program with its errors at their
    /// steps, its diff), the machine fixes, the lessons, the outcome.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// How to report (as the recorded run did, for identical output).
    #[command(flatten)]
    pub format_flag: FormatFlag,
    #[arg(skip)]
    pub format: Format,
}

/// Replays the log; prints what the run printed. Exits as the run did when
/// the replay is identical, else [`EXIT_REPLAY_DIFFERS`] naming the first
/// event that differs. With `--html`, writes the page of the replay (with
/// the difference at its top when there is one); a log that does not hold
/// together gives no page.
pub fn replay(args: &Args, manifest: Option<&std::path::Path>) -> Result<i32> {
    if let Some(html) = &args.html {
        refuse_dash(html)?;
    }
    let text = std::fs::read_to_string(&args.log)
        .with_context(|| format!("reading {}", args.log.display()))?;
    let recorded = match replay::load_any(&text) {
        Ok(r) => r,
        Err(e) => {
            let what = match e {
                LoadError::Broken(_) => "was changed or cut",
                LoadError::Malformed { .. } => "is not a log of the repair loop or of isu explain",
            };
            eprintln!("error: {} {what}: {e}", args.log.display());
            return Ok(EXIT_BROKEN_LOG);
        }
    };
    let packs = packs(manifest);
    let format = args.format;
    let (code, difference) = match recorded {
        Recording::Repair(recorded) => {
            let replayed = replay::replay(&recorded, &packs, &mut |r| report_round(r, format));
            let code = finish(&replayed.outcome, args.output.as_deref(), format)?;
            if let Some(html) = &args.html {
                let page = report::run_page(replayed.log.lines(), replayed.difference.as_ref());
                write_file(html, page.as_bytes(), WriteOptions::default())
                    .with_context(|| format!("writing {}", html.display()))?;
            }
            (code, replayed.difference)
        }
        Recording::Explain(_) if args.html.is_some() => {
            eprintln!(
                "error: {} is a log of isu explain: --html draws the rounds of the repair loop (gen, repair, eval --logs)",
                args.log.display()
            );
            return Ok(super::EXIT_USAGE);
        }
        Recording::Explain(recorded) => {
            let replayed = replay::replay_explain(&recorded, &packs);
            let code = super::explain::finish(&replayed.outcome, args.output.as_deref(), format)?;
            (code, replayed.difference)
        }
    };
    differs(args, code, difference)
}

/// The exit code of a replay: the run's `code` when the replay is the
/// recording, else [`EXIT_REPLAY_DIFFERS`], naming where it parted.
fn differs(args: &Args, code: i32, difference: Option<Difference>) -> Result<i32> {
    match difference {
        None => Ok(code),
        Some(d) => {
            eprintln!(
                "error: the replay differs from {} at event {} ({})",
                args.log.display(),
                d.seq,
                d.event
            );
            eprintln!(
                "  recorded: {}",
                d.recorded.as_deref().unwrap_or("(nothing)")
            );
            eprintln!(
                "  replayed: {}",
                d.replayed.as_deref().unwrap_or("(nothing)")
            );
            Ok(EXIT_REPLAY_DIFFERS)
        }
    }
}
