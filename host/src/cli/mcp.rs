//! `isu mcp [--root DIR]`: the MCP server on stdio (`spec/mcp.md`).

use crate::mcp::{server, Context};
use crate::plugins::Registry;
use crate::root::ProjectRoot;
use anyhow::{anyhow, Result};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The project root every path stays inside (default: the nearest folder at
    /// or above the current one holding isu-plugins.toml or .git, else the current folder).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Seconds an invoke may take before its outcome is reported as unknown.
    #[arg(long, value_name = "SECONDS", default_value_t = server::DEFAULT_TIMEOUT.as_secs())]
    pub timeout: u64,
}

/// Runs the server until the client closes stdin. `manifest` is the
/// `--plugins FILE` flag; without it, the root's `isu-plugins.toml` is used
/// when there is one, else the usual search.
pub fn mcp(args: &Args, manifest: Option<&Path>) -> Result<i32> {
    let root = match &args.root {
        Some(dir) => ProjectRoot::at(dir),
        None => ProjectRoot::discover(Path::new(".")),
    }
    .map_err(|d| anyhow!("{}", d.message))?;
    let local = root.dir().join(crate::plugins::manifest::MANIFEST_NAME);
    let manifest = manifest
        .map(Path::to_path_buf)
        .or_else(|| local.is_file().then_some(local));
    let registry = Registry::from_environment(manifest.as_deref());
    let ctx = Context { root, registry };
    server::serve_stdio(ctx, Duration::from_secs(args.timeout.max(1))).map_err(|e| anyhow!(e))?;
    Ok(0)
}
