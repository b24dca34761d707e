//! `isu plugins new NAME [--path DIR] [--plugin-api DIR | --crates-io]`: a new
//! backend crate, made from the toy backend (`crate::plugins::template`),
//! built against the plugin API's sources this `isu` has
//! (`crate::plugins::api_crates`).

use super::super::output::print_json;
use super::super::write::{write_file, Options as WriteOptions};
use super::super::{Format, EXIT_USAGE};
use crate::plugins::api_crates::{ApiCrates, Origin, LANG, PLUGIN_API};
use crate::plugins::manifest::{normalised, shipped_names, Env};
use crate::plugins::template;
use anyhow::{bail, Context, Result};
use isu_plugin_api::abi::PLUGIN_API_VERSION;
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct NewArgs {
    /// The backend's name: its plugin name and its target (lower-case letters, digits, `_`, `-`).
    pub name: String,
    /// The folder to write the crate in (made if missing, must be empty); default: NAME here.
    #[arg(long, value_name = "DIR")]
    pub path: Option<PathBuf>,
    /// Build against this local `isu_plugin_api` folder (a `[patch.crates-io]`
    /// section) instead of the sources this isu has: those installed beside
    /// it (`share/isu/crates/`), else those of the repository it was built in.
    #[arg(long, value_name = "DIR", conflicts_with = "crates_io")]
    pub plugin_api: Option<PathBuf>,
    /// Depend on the published isu_plugin_api only.
    #[arg(long)]
    pub crates_io: bool,
}

/// Runs `isu plugins new`.
pub fn new(args: &NewArgs, format: Format) -> Result<i32> {
    let env = Env::of_process(None);
    let api_version = format!("{}.{}", PLUGIN_API_VERSION.major, PLUGIN_API_VERSION.minor);
    let mut warnings = Vec::new();
    let api = match (&args.plugin_api, args.crates_io) {
        (Some(dir), _) => match ApiCrates::at(&normalised(dir), Origin::Given) {
            Ok(api) => Some(api),
            Err(e) => bail!("{e}"),
        },
        (None, true) => None,
        (None, false) => match ApiCrates::of_this_isu(&env) {
            Ok(api) => Some(api),
            Err(looked) => {
                let looked: Vec<String> = looked.iter().map(|p| p.display().to_string()).collect();
                warnings.push(format!(
                    "this isu has no sources of {PLUGIN_API} (looked in: {}); the crate depends on the published {PLUGIN_API} {api_version} from crates.io (give --plugin-api DIR to build against a local copy)",
                    if looked.is_empty() { "nowhere".to_owned() } else { looked.join(", ") }
                ));
                None
            }
        },
    };
    if api.as_ref().is_some_and(|a| a.lang_from_registry) {
        warnings.push(format!(
            "no sources of {LANG} were found beside {PLUGIN_API}: cargo fetches {LANG} {api_version} from crates.io"
        ));
    }
    if shipped_names().contains(&args.name) {
        warnings.push(format!(
            "`{name}` is the name of a plugin that ships with isu: registering this backend under it (`isu plugins add`) overrides the shipped one; choose another NAME, or register it with `--name OTHER`",
            name = args.name
        ));
    }
    let krate = match template::backend_crate(&args.name, api.as_ref(), env.exe.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let dir = normalised(
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
            "plugin_api": api.as_ref().map(|a| a.plugin_api.display().to_string()),
            "lang": api.as_ref().and_then(|a| a.lang.as_ref()).map(|p| p.display().to_string()),
            "warnings": warnings,
        }))?,
        Format::Human => {
            for w in &warnings {
                eprintln!("warning: {w}");
            }
            let against = match &api {
                Some(a) => format!(
                    "the plugin API in {} ({})",
                    a.plugin_api.display(),
                    match a.origin {
                        Origin::Install => "installed with this isu",
                        Origin::Checkout => "the repository this isu was built in",
                        Origin::Given => "--plugin-api",
                    }
                ),
                None => format!("{PLUGIN_API} {api_version} from crates.io"),
            };
            eprintln!(
                "created the backend `{}` (crate {}) in {}, built against {against}\nnext:\n  cd {} && cargo build && cargo test\n  isu plugins add {}\n  isu conformance --target {}",
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
