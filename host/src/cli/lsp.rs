//! `isu lsp`: the language server on stdio (`spec/lsp.md`).

use super::run::registry;
use crate::lsp::{serve, Exit};
use anyhow::{Context, Result};
use std::path::Path;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Serve on standard input and output (the only transport, and the
    /// default; editors' clients pass it).
    #[arg(long)]
    pub stdio: bool,
}

/// Serves until the client sends `exit` or closes stdin; exit 0 after
/// `shutdown` and `exit`, 1 otherwise (as the protocol says). `manifest` is
/// the `--plugins FILE` flag: the packs it finds are callable in the
/// documents served.
pub fn lsp(_args: &Args, manifest: Option<&Path>) -> Result<i32> {
    let reg = registry(manifest, false);
    let stdin = std::io::BufReader::new(std::io::stdin());
    let exit = serve(stdin, std::io::stdout(), reg.functions).context("serving LSP on stdio")?;
    Ok(match exit {
        Exit::Clean => 0,
        Exit::Unclean => 1,
    })
}
