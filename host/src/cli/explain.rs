//! `isu explain FILE`: a model describes what a program does, in plain
//! words; the description is printed (or written with `-o`) and the run
//! logged for `isu replay`.

use super::gen::{
    packs, print_report, usage, with_suffix, write_output, ModelArgs, EXIT_NO_PROGRAM,
};
use super::output::read_source;
use super::write::{Options as WriteOptions, Output};
use super::{Format, FormatFlag, EXIT_USAGE};
use crate::llm::events::Log;
use crate::llm::explain::{self, Explained};
use crate::llm::repair::{Status, SystemClock};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The program to describe; it must validate.
    pub file: PathBuf,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Write the description here (else it is printed).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The event log (default: OUTPUT.log.jsonl, else FILE.explain.jsonl).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    #[command(flatten)]
    pub format_flag: FormatFlag,
    /// How the command reports: its `--format`, else `isu --format`, else human.
    #[arg(skip)]
    pub format: Format,
}

/// Checks the program (refusing one that does not validate, with its
/// diagnostics, before anything is asked), then asks for its description.
pub fn explain(args: &Args, manifest: Option<&Path>) -> Result<i32> {
    let src = read_source(&args.file)?;
    let packs = packs(manifest);
    let program = match explain::prepare(&src, &packs) {
        Ok(text) => text,
        Err(diags) => {
            super::output::report(args.format, &diags, Some(&src), Vec::new())?;
            if args.format == Format::Human {
                eprintln!(
                    "{}: only a program that validates is described; `isu check` shows the same errors",
                    src.name
                );
            }
            return Ok(crate::diag::exit_code(&diags));
        }
    };
    if args.model.samples != 1 {
        eprintln!("error: isu explain asks for one description: --samples does not apply");
        return Ok(EXIT_USAGE);
    }
    let mut provider = match args.model.provider()? {
        Ok(p) => p,
        Err(why) => {
            eprintln!("error: {why}");
            return Ok(EXIT_USAGE);
        }
    };
    let log_path = args.log.clone().unwrap_or_else(|| match &args.output {
        Some(o) => with_suffix(o, ".log.jsonl"),
        None => with_suffix(&args.file, ".explain.jsonl"),
    });
    let Some(options) = usage(args.model.options()) else {
        return Ok(EXIT_USAGE);
    };
    let config = explain::Config {
        program,
        options,
        model: args.model.model(),
    };
    let file = Output::create(
        &log_path,
        WriteOptions {
            as_it_goes: true,
            ..WriteOptions::default()
        },
    )
    .with_context(|| format!("creating the log {}", log_path.display()))?;
    let mut log = Log::to(Box::new(file));
    let mut clock = SystemClock::start();
    let outcome = explain::run(&config, provider.as_mut(), &mut clock, &mut log, &packs);
    if let Some(e) = log.write_error() {
        anyhow::bail!("writing the log {}: {e}", log_path.display());
    }
    finish(&outcome, args.output.as_deref(), args.format)
}

/// Reports the outcome (and writes the description with `-o`); the exit
/// code: 0 with a description, 1 when the server failed, else
/// [`EXIT_NO_PROGRAM`].
pub fn finish(outcome: &Explained, output: Option<&Path>, format: Format) -> Result<i32> {
    write_output(
        output,
        outcome.explanation.as_deref().map(described).as_deref(),
    )?;
    match format {
        Format::Json => print_report(outcome, outcome.status == Status::Explained)?,
        Format::Human => {
            let seconds = outcome.ms as f64 / 1000.0;
            let tokens = outcome.tokens.total();
            let off = if outcome.rejected > 0 {
                format!(
                    ", {} of {} replies off the contract",
                    outcome.rejected, outcome.requests
                )
            } else {
                String::new()
            };
            match (&outcome.explanation, outcome.status) {
                (Some(text), _) => {
                    eprintln!("explained{off} ({tokens} tokens, {seconds:.1} s)");
                    if output.is_none() {
                        print!("{}", described(text));
                    }
                }
                (None, s) => {
                    eprintln!(
                        "stopped ({}): no description{off} ({tokens} tokens, {seconds:.1} s)",
                        s.as_str().replace('_', " ")
                    );
                    if let Some(why) = &outcome.failure {
                        eprintln!("the model's server failed: {why}");
                    }
                }
            }
        }
    }
    Ok(match outcome.status {
        Status::Explained => 0,
        Status::ProviderFailed => super::EXIT_FAILURE,
        _ => EXIT_NO_PROGRAM,
    })
}

/// The description as printed and written: ending with one line break.
fn described(text: &str) -> String {
    format!("{}\n", text.trim_end())
}
