//! The command line of `isu`: argument parsing and dispatch. Each command's
//! work lives in a submodule; [`output`] is how every command reports.
//!
//! Exit codes (also in the README and `spec/errors.md`): 0 success, 1 an I/O
//! or internal failure, 2 bad usage, 3 ParseError, 4 StaticError,
//! 5 RuntimeError, 6 TestFail, 7 `fmt --check` found text not in canonical form,
//! 8 a plugin was refused or a backend failed.

mod build;
mod conformance;
mod front;
mod grammar;
mod output;
mod patch;
pub mod plugins;
mod run;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Exit code of an I/O or internal failure.
pub const EXIT_FAILURE: i32 = 1;
/// Exit code of bad usage (clap's own).
pub const EXIT_USAGE: i32 = 2;
/// Exit code of `fmt --check` on text that is not canonical.
pub const EXIT_NOT_CANONICAL: i32 = 7;

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
    /// The plugin manifest to use, instead of looking for one (ISU_PLUGINS,
    /// then isu-plugins.toml here or above, then beside isu).
    #[arg(long, global = true, value_name = "FILE")]
    pub plugins: Option<PathBuf>,
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
    /// How to report.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

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
        /// Write one JSON event per executed step to this file (JSONL).
        #[arg(long, value_name = "OUT.jsonl", conflicts_with = "target")]
        trace: Option<PathBuf>,
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
    /// Apply a patch (REPLACE, INSERT_AFTER, DELETE), re-validate, print the canonical text.
    Patch {
        #[command(flatten)]
        common: Common,
        /// The patch file (`PATCH:` then entries).
        patch: PathBuf,
        /// Rewrite FILE with the patched text instead of printing it.
        #[arg(long)]
        write: bool,
    },
    /// Compile a program through the backend plugin of a target.
    Build(build::Args),
    /// List the plugins of the manifest, loaded and checked.
    Plugins(plugins::Args),
    /// Run the conformance suite on the interpreter and on backend plugins.
    Conformance(conformance::Args),
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
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    run(cli)
}

/// Runs one parsed command line.
pub fn run(cli: Cli) -> i32 {
    let result = match cli.command {
        Command::Fmt {
            common,
            check,
            write,
        } => front::fmt(&common, check, write),
        Command::Parse { common } => front::parse(&common),
        Command::Check { common } => front::check(&common),
        Command::Run {
            common,
            args,
            trace,
            limits,
            target,
            settings,
            timeout,
        } => run::run(
            &common,
            &args,
            trace.as_ref(),
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
        } => patch::patch(&common, &patch, write),
        Command::Build(args) => build::build(&args, cli.plugins.as_deref()),
        Command::Plugins(args) => plugins::plugins(&args, cli.plugins.as_deref()),
        Command::Conformance(args) => conformance::conformance(&args, cli.plugins.as_deref()),
        Command::Grammar(args) => grammar::grammar(&args, cli.plugins.as_deref()),
        Command::Schema(args) => grammar::schema(&args),
        Command::PluginHost { library } => plugin_host(&library),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            tracing::debug!("command failed: {e:?}");
            eprintln!("error: {e:#}");
            EXIT_FAILURE
        }
    }
}

/// `isu plugin-host LIBRARY`: serves the backend until its input ends.
fn plugin_host(library: &std::path::Path) -> anyhow::Result<i32> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    crate::plugins::isolated::serve(library, stdin, stdout)?;
    Ok(0)
}

/// Logs go to stderr only, filtered by `ISU_LOG` (default: warnings).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("ISU_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}
