//! `isu plugins new NAME [--path DIR] [--plugin-api DIR | --crates-io]`: a new
//! backend crate, made from the toy backend (`crate::plugins::template`).

use super::super::output::print_json;
use super::super::write::{write_file, Options as WriteOptions};
use super::super::{Format, EXIT_USAGE};
use crate::plugins::manifest::{absolute, Env};
use crate::plugins::{template, Place};
use anyhow::{bail, Context, Result};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct NewArgs {
    /// The backend's name: its plugin name and its target (lower-case letters, digits, `_`, `-`).
    pub name: String,
    /// The folder to write the crate in (made if missing, must be empty); default: NAME here.
    #[arg(long, value_name = "DIR")]
    pub path: Option<PathBuf>,
    /// Build against this local `plugin-api` folder (a `[patch.crates-io]`
    /// section) instead of the published crate. Default: the plugin API this
    /// isu was built from, when it runs from cargo's build folder of Isu's repository.
    #[arg(long, value_name = "DIR", conflicts_with = "crates_io")]
    pub plugin_api: Option<PathBuf>,
    /// Depend on the published isu_plugin_api only.
    #[arg(long)]
    pub crates_io: bool,
}

/// The `plugin-api` folder of the repository this isu was built in, when it
/// runs from cargo's build folder there (`REPO/target/PROFILE/isu`).
fn own_plugin_api() -> Option<PathBuf> {
    let Ok(Place::BuiltIn { dir, .. }) = Env::of_process(None).system_manifest() else {
        return None;
    };
    let repo = dir.parent()?.parent()?;
    let candidate = repo.join("plugin-api");
    is_plugin_api(&candidate).then_some(candidate)
}

/// Whether `dir` holds the `isu_plugin_api` crate.
fn is_plugin_api(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("Cargo.toml"))
        .is_ok_and(|t| t.contains("name = \"isu_plugin_api\""))
}

/// Runs `isu plugins new`.
pub fn new(args: &NewArgs, format: Format) -> Result<i32> {
    let plugin_api = match (&args.plugin_api, args.crates_io) {
        (Some(dir), _) => {
            let dir = absolute(dir);
            if !is_plugin_api(&dir) {
                bail!(
                    "{} is not the plugin-api folder of Isu (no Cargo.toml of isu_plugin_api there)",
                    dir.display()
                );
            }
            Some(dir)
        }
        (None, true) => None,
        (None, false) => own_plugin_api(),
    };
    let krate = match template::backend_crate(&args.name, plugin_api.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let dir = absolute(
        &args
            .path
            .clone()
            .unwrap_or_else(|| PathBuf::from(&args.name)),
    );
    if std::fs::read_dir(&dir).is_ok_and(|mut d| d.next().is_some()) {
        bail!(
            "{} is not empty; name a new folder with --path DIR",
            dir.display()
        );
    }
    for (rel, text) in &krate.files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("making {}", parent.display()))?;
        }
        write_file(&path, text.as_bytes(), WriteOptions::default())?;
    }
    let library = Path::new("target/debug").join(&krate.library);
    match format {
        Format::Json => print_json(&json!({
            "ok": true,
            "name": args.name,
            "crate": krate.crate_name,
            "path": dir.display().to_string(),
            "files": krate.files.iter().map(|(p, _)| p.display().to_string()).collect::<Vec<_>>(),
            "library": library.display().to_string(),
            "plugin_api": plugin_api.as_ref().map(|p| p.display().to_string()),
        }))?,
        Format::Human => {
            let against = match &plugin_api {
                Some(p) => format!("the plugin API in {}", p.display()),
                None => "isu_plugin_api from crates.io".to_owned(),
            };
            eprintln!(
                "created the backend `{}` (crate {}) in {}, built against {against}\nnext:\n  cd {} && cargo build\n  isu plugins add {}\n  isu conformance --target {}",
                args.name,
                krate.crate_name,
                dir.display(),
                dir.display(),
                library.display(),
                args.name
            );
        }
    }
    Ok(0)
}
