//! The command line of `isu`: argument parsing and dispatch. Each command's
//! work lives in a submodule; [`output`] is how every command reports.
//!
//! Exit codes (also in the README and `spec/errors.md`): 0 success, 1 an I/O
//! or internal failure, 2 bad usage, 3 ParseError, 4 StaticError,
//! 5 RuntimeError, 6 TestFail, 7 `fmt --check` found text not in canonical form,
//! 8 a plugin was refused or a backend failed, 9 `test` found no examples to
//! run, 10 an InputError (a memory record, query or store refused, a path
//! outside the project root, an MCP request), 11 `gen`/`repair` ended without
//! a program (`explain` without a description), 12 `replay` differs from the
//! log, 13 the log was changed.

pub(crate) mod build;
mod conformance;
mod eval;
mod explain;
mod fix;
mod front;
mod fuzz;
mod gen;
mod grammar;
mod lsp;
mod mcp;
mod memory;
pub(crate) mod output;
mod patch;
pub mod plugins;
mod replay;
mod run;
pub(crate) mod write;

use crate::diag::{Code, Diagnostic};
use crate::source::Source;
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Exit code of an I/O or internal failure.
pub const EXIT_FAILURE: i32 = 1;
/// Exit code of bad usage (clap's own).
pub const EXIT_USAGE: i32 = 2;
/// Exit code of `fmt --check` on text that is not canonical.
pub const EXIT_NOT_CANONICAL: i32 = 7;
/// Exit code of `test` on a program whose IO gives no examples.
pub const EXIT_NO_EXAMPLES: i32 = 9;

#[derive(Debug, Parser)]
#[command(
    name = "isu",
    version,
    about = "The Isu toolchain: parse, check, format, run and patch Isu programs",
    disable_help_subcommand = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// A plugin manifest read last, over the system's (beside isu), yours and
    /// the project's (isu-plugins.toml here or above); stands in for ISU_PLUGINS.
    #[arg(long, global = true, value_name = "FILE")]
    pub plugins: Option<PathBuf>,
    /// How to report, for every command: for people on stderr, or one JSON
    /// document on stdout (every failure included). Also accepted after the
    /// command, where that command's own flag wins.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,
}

/// How a command reports: for people (stderr, with source snippets) or as one
/// JSON document on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    #[default]
    Human,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Common {
    /// The Isu file to read (`-` for standard input).
    pub file: PathBuf,
    #[command(flatten)]
    pub format_flag: FormatFlag,
    /// How the command reports: its `--format`, else `isu --format`, else human.
    #[arg(skip)]
    pub format: Format,
}

/// `--format human|json` after the command. (`isu grammar` has a `--format`
/// of its own, the grammar's; before the command, `isu --format json` holds
/// for every command.)
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct FormatFlag {
    /// How to report: for people on stderr, or one JSON document on stdout
    /// (every failure included).
    #[arg(long = "format", value_enum, value_name = "FORMAT")]
    pub given: Option<Format>,
}

/// `--force`, for the commands that rewrite files.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Force {
    /// Rewrite a read-only file too (the rules of writing are in spec/cli.md).
    #[arg(long)]
    pub force: bool,
}

impl Force {
    fn options(self) -> write::Options {
        write::Options {
            force: self.force,
            ..write::Options::default()
        }
    }
}

/// A failure of a command that is reported as a diagnostic: a file it could
/// not read or write, a command line it cannot use, a file that is not
/// text. It travels to [`run`] inside the command's `anyhow::Error`, and is
/// reported there in the format asked for. (Any other error that reaches
/// [`run`] is reported as an `io_error`.)
#[derive(Debug)]
pub struct Failure {
    pub diag: Diagnostic,
    /// The text the diagnostic's span points into, if any.
    pub source: Option<Source>,
}

impl Failure {
    /// An I/O failure (`io_error`, `write_refused`) with a hint.
    pub fn io(code: Code, message: impl Into<String>, hint: &str) -> Failure {
        Failure {
            diag: Diagnostic::error(code, message).with_hint(hint),
            source: None,
        }
    }

    /// Bad usage (`invalid_usage`, exit 2) with a hint.
    pub fn usage(message: impl Into<String>, hint: &str) -> Failure {
        Failure::io(Code::InvalidUsage, message, hint)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl std::error::Error for Failure {}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the canonical text of a program.
    Fmt {
        #[command(flatten)]
        common: Common,
        /// Print nothing; exit 7 if the file is not in canonical form.
        #[arg(long, conflicts_with = "write")]
        check: bool,
        /// Rewrite the file in place with its canonical text.
        #[arg(long)]
        write: bool,
        #[command(flatten)]
        force: Force,
    },
    /// Print the canonical IIR (JSON) of a program.
    Parse {
        #[command(flatten)]
        common: Common,
    },
    /// Parse, canonicalize and validate; report every error.
    Check {
        #[command(flatten)]
        common: Common,
    },
    /// Run a program in the reference interpreter; print the result as JSON.
    Run {
        #[command(flatten)]
        common: Common,
        /// The arguments: a JSON object (`{"xs": [1, 2]}`), or `@FILE` holding one.
        #[arg(long, default_value = "{}")]
        args: String,
        /// Write one JSON event per executed step to this file (JSONL), as
        /// the run goes.
        #[arg(long, value_name = "OUT.jsonl", conflicts_with = "target")]
        trace: Option<PathBuf>,
        #[command(flatten)]
        force: Force,
        #[command(flatten)]
        limits: run::Limits,
        /// Run through the backend plugin of this target instead of the interpreter.
        #[arg(long, short)]
        target: Option<String>,
        #[command(flatten)]
        settings: run::SetArgs,
        /// Seconds a backend that runs native code (in a plugin host of its
        /// own) may take for the compile or the run before it is stopped.
        #[arg(long, value_name = "SECS", requires = "target")]
        timeout: Option<u64>,
    },
    /// Run the IO examples; report each one that does not hold as a TestFail.
    Test {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        limits: run::Limits,
        /// Run through the backend plugin of this target instead of the interpreter.
        #[arg(long, short)]
        target: Option<String>,
        #[command(flatten)]
        settings: run::SetArgs,
        /// Seconds a backend that runs native code (in a plugin host of its
        /// own) may take for the compile or each run before it is stopped.
        #[arg(long, value_name = "SECS", requires = "target")]
        timeout: Option<u64>,
    },
    /// Apply a patch (REPLACE, INSERT_AFTER, INSERT_BEFORE, INSERT_INTO, DELETE on steps and declarations), re-validate, print the text and what is left.
    Patch {
        #[command(flatten)]
        common: Common,
        /// The patch file (`PATCH:` then entries).
        patch: PathBuf,
        /// Rewrite FILE with the patched text instead of printing it (only when it validates).
        #[arg(long)]
        write: bool,
        /// With --write, write the patched text even when it does not validate.
        #[arg(long, requires = "write")]
        allow_invalid: bool,
        #[command(flatten)]
        force: Force,
    },
    /// Apply every machine-applicable fix, to a fixed point; print the text and what is left.
    Fix {
        #[command(flatten)]
        common: Common,
        /// Rewrite FILE with the fixed text instead of printing it.
        #[arg(long)]
        write: bool,
        #[command(flatten)]
        force: Force,
    },
    /// Compile a program through the backend plugin of a target.
    Build(build::Args),
    /// List the plugins of the manifest, loaded and checked.
    Plugins(plugins::Args),
    /// Run the conformance suite on the interpreter and on backend plugins.
    Conformance(conformance::Args),
    /// Run random valid programs on the interpreter and on backend plugins,
    /// and write each difference, shrunk, as a conformance case.
    Fuzz(fuzz::Args),
    /// Print the grammar of canonical Isu (with the loaded packs' functions)
    /// for constrained decoding: GBNF, Lark, EBNF or one regular expression.
    Grammar(grammar::GrammarArgs),
    /// Print a JSON Schema (2020-12): IIR, the reply envelope, a diagnostic,
    /// or the report of `isu patch --format json`.
    Schema(grammar::SchemaArgs),
    /// Serve one backend plugin to the isu that started this process, as
    /// JSON lines on standard input and output (internal: isolated execution).
    #[command(name = "plugin-host", hide = true)]
    PluginHost {
        /// The backend's dynamic library.
        library: PathBuf,
    },
    /// Write a program from words with a language model, repairing it by
    /// step-level patches until it passes its examples.
    Gen(gen::GenArgs),
    /// Repair a program with a language model until it passes its IO examples.
    Repair(gen::RepairArgs),
    /// Run a recorded `gen`/`repair`/`explain` again from its event log, without the model.
    Replay(replay::Args),
    /// Run a task file through the model and report pass@1 and repair figures.
    Eval(eval::Args),
    /// Describe what a program does, in plain words, with a language model.
    Explain(explain::Args),
    /// Print the language reference a model is given (generated from the code).
    Prompt,
    /// Keep what repairs taught and find it again: add records, query them.
    Memory(memory::Args),
    /// Serve tree, inspect and invoke to agents over MCP on stdio.
    Mcp(mcp::Args),
    /// Serve editors over the Language Server Protocol on stdio:
    /// diagnostics, fixes, formatting, hover, symbols, completion, the examples.
    Lsp(lsp::Args),
}

fn on(
    target: Option<String>,
    settings: &run::SetArgs,
    timeout: Option<u64>,
    manifest: Option<PathBuf>,
) -> run::On {
    run::On {
        target,
        settings: settings.settings(),
        timeout: timeout.map(std::time::Duration::from_secs),
        manifest,
    }
}

/// Runs the CLI with the process's arguments and returns the exit code.
pub fn main() -> i32 {
    init_logging();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    run(cli)
}

/// Reports a command line clap refused (or `--help`, `--version`, exit 0).
/// With `--format json` among the arguments, bad usage is a JSON report too.
fn usage_error(e: &clap::Error) -> i32 {
    if !e.use_stderr() {
        let _ = e.print();
        return 0;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args
        .windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json")
        || args.iter().any(|a| a == "--format=json");
    if !json {
        let _ = e.print();
        return EXIT_USAGE;
    }
    let text = e.render().to_string();
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let message = lines
        .next()
        .map_or("bad usage", |l| l.trim_start_matches("error: "))
        .to_owned();
    let rest: Vec<&str> = lines.map(str::trim).collect();
    let mut d = Diagnostic::error(Code::InvalidUsage, message);
    if !rest.is_empty() {
        d = d.with_hint(rest.join("; "));
    }
    let _ = output::report(Format::Json, &[d], None, Vec::new());
    EXIT_USAGE
}

impl Command {
    /// Settles how the command reports: its own `--format`, else the one
    /// before it (`top`), else human; returns it.
    fn settle_format(&mut self, top: Option<Format>) -> Format {
        let pick = |given: Option<Format>| given.or(top).unwrap_or_default();
        match self {
            Command::Fmt { common, .. }
            | Command::Parse { common }
            | Command::Check { common }
            | Command::Run { common, .. }
            | Command::Test { common, .. }
            | Command::Patch { common, .. }
            | Command::Fix { common, .. } => {
                common.format = pick(common.format_flag.given);
                common.format
            }
            Command::Build(args) => {
                args.common.format = pick(args.common.format_flag.given);
                args.common.format
            }
            Command::Plugins(args) => {
                args.format = pick(args.format_flag);
                args.format
            }
            Command::Memory(args) => {
                let at = args.at_mut();
                at.format = pick(at.format_flag.given);
                at.format
            }
            Command::Conformance(args) => {
                args.format = pick(args.format_flag.given);
                args.format
            }
            Command::Fuzz(args) => {
                args.format = pick(args.format_flag.given);
                args.format
            }
            Command::Gen(gen::GenArgs { run, .. })
            | Command::Repair(gen::RepairArgs { run, .. }) => {
                run.format = pick(run.format_flag.given);
                run.format
            }
            Command::Eval(args) => {
                args.format = pick(args.format_flag.given);
                args.format
            }
            Command::Explain(args) => {
                args.format = pick(args.format_flag.given);
                args.format
            }
            Command::Replay(args) => {
                args.format = pick(args.format_flag.given);
                args.format
            }
            Command::Grammar(_)
            | Command::Schema(_)
            | Command::Mcp(_)
            | Command::Lsp(_)
            | Command::Prompt
            | Command::PluginHost { .. } => pick(None),
        }
    }
}

/// Runs one parsed command line.
pub fn run(mut cli: Cli) -> i32 {
    let format = cli.command.settle_format(cli.format);
    let result = match cli.command {
        Command::Fmt {
            common,
            check,
            write,
            force,
        } => front::fmt(&common, check, write, force.options()),
        Command::Parse { common } => front::parse(&common),
        Command::Check { common } => front::check(&common),
        Command::Run {
            common,
            args,
            trace,
            force,
            limits,
            target,
            settings,
            timeout,
        } => run::run(
            &common,
            &args,
            trace.as_deref().map(|t| (t, force.options())),
            &limits,
            &on(target, &settings, timeout, cli.plugins),
        ),
        Command::Test {
            common,
            limits,
            target,
            settings,
            timeout,
        } => run::test(
            &common,
            &limits,
            &on(target, &settings, timeout, cli.plugins),
        ),
        Command::Patch {
            common,
            patch,
            write,
            allow_invalid,
            force,
        } => patch::patch(&common, &patch, write, allow_invalid, force.options()),
        Command::Fix {
            common,
            write,
            force,
        } => fix::fix(&common, write, force.options()),
        Command::Build(args) => build::build(&args, cli.plugins.as_deref()),
        Command::Plugins(args) => plugins::plugins(&args, cli.plugins.as_deref()),
        Command::Conformance(args) => conformance::conformance(&args, cli.plugins.as_deref()),
        Command::Fuzz(args) => fuzz::fuzz(&args, cli.plugins.as_deref()),
        Command::Grammar(args) => grammar::grammar(&args, cli.plugins.as_deref()),
        Command::Schema(args) => grammar::schema(&args),
        Command::PluginHost { library } => plugin_host(&library),
        Command::Gen(args) => gen::gen(&args, cli.plugins.as_deref()),
        Command::Repair(args) => gen::repair(&args, cli.plugins.as_deref()),
        Command::Replay(args) => replay::replay(&args, cli.plugins.as_deref()),
        Command::Eval(args) => eval::eval(&args, cli.plugins.as_deref()),
        Command::Explain(args) => explain::explain(&args, cli.plugins.as_deref()),
        Command::Prompt => gen::prompt(cli.plugins.as_deref()),
        Command::Memory(args) => memory::memory(&args),
        Command::Mcp(args) => mcp::mcp(&args, cli.plugins.as_deref()),
        Command::Lsp(args) => lsp::lsp(&args, cli.plugins.as_deref()),
    };
    match result {
        Ok(code) => code,
        Err(e) => failed(e, format),
    }
}

/// `isu plugin-host LIBRARY`: serves the backend until its input ends.
fn plugin_host(library: &std::path::Path) -> anyhow::Result<i32> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    crate::plugins::isolated::serve(library, stdin, stdout)?;
    Ok(0)
}

/// Reports the error a command failed with, as a diagnostic in `format`;
/// its exit code.
fn failed(e: anyhow::Error, format: Format) -> i32 {
    tracing::debug!("command failed: {e:?}");
    let (diag, source) = match e.downcast::<Failure>() {
        Ok(f) => (f.diag, f.source),
        Err(e) => (Diagnostic::error(Code::IoError, format!("{e:#}")), None),
    };
    let diags = [diag];
    if output::report(format, &diags, source.as_ref(), Vec::new()).is_err() {
        // The report itself could not be written (stdout closed): say it
        // where it can still be seen.
        eprintln!("error: {}", diags[0].message);
    }
    crate::diag::exit_code(&diags)
}

/// Logs go to stderr only, filtered by `ISU_LOG` (default: warnings), in
/// colour only on a terminal and without `NO_COLOR`.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("ISU_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(output::stderr_in_colour())
        .with_target(false)
        .try_init();
}
