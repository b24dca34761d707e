//! `isu plugins add FILE [--name N] [--project]` and
//! `isu plugins remove NAME [--project]`: editing the user's manifest (or the
//! project's) after checking what the edit does to the plugins in use.
//! Nothing is written unless the library loads, passes every check, and
//! leaves every other plugin loading as before.

use super::super::output::print_json;
use super::super::write::{write_file, Options as WriteOptions};
use super::super::{Format, EXIT_USAGE};
use super::{plugin_json, EXIT_PLUGIN};
use crate::plugins::manifest::edit::{self, NewEntry};
use crate::plugins::manifest::layers::read_layers;
use crate::plugins::manifest::{self, is_plugin_name, merge, normalised, Env};
use crate::plugins::{probe, Layer, LayerStatus, Loaded, Place, PluginKind, Registry, State};
use anyhow::{anyhow, Context, Result};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct AddArgs {
    /// The plugin library (`.so`, `.dylib` or `.dll`).
    pub file: PathBuf,
    /// The name to register it under; default: the plugin's own name (a pack's namespace).
    #[arg(long)]
    pub name: Option<String>,
    /// Register it in the project's manifest (`isu-plugins.toml` here or above, else a new one here) instead of yours.
    #[arg(long)]
    pub project: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct RemoveArgs {
    /// The plugin's name.
    pub name: String,
    /// Edit the project's manifest instead of yours.
    #[arg(long)]
    pub project: bool,
}

/// The manifest an edit goes to, with its layer.
fn target(env: &Env, project: bool) -> Result<(Layer, PathBuf)> {
    if project {
        return Ok((Layer::Project, env.project_manifest_or_new()));
    }
    let path = env.user_manifest().ok_or_else(|| {
        anyhow!(
            "there is no user configuration folder (set XDG_CONFIG_HOME or HOME), or use --project"
        )
    })?;
    Ok((Layer::User, path))
}

/// The target manifest's text (empty when there is none yet); it must parse.
fn current_text(layer: Layer, path: &Path) -> Result<std::result::Result<String, String>> {
    if !path.exists() {
        return Ok(Ok(String::new()));
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(
        match manifest::parse(&Place::File(path.to_owned()), layer, &text) {
            Ok(_) => Ok(text),
            Err(e) => Err(format!(
                "the manifest cannot be edited until it is fixed: {e}"
            )),
        },
    )
}

/// The layers with the target layer's manifest replaced by `text`.
fn layers_with(env: &Env, layer: Layer, path: &Path, text: &str) -> Result<Vec<LayerStatus>> {
    let place = Place::File(path.to_owned());
    let m = manifest::parse(&place, layer, text)
        .map_err(|e| anyhow!("the edited manifest does not parse (a bug of isu): {e}"))?;
    let mut layers = read_layers(env);
    if let Some(l) = layers.iter_mut().find(|l| l.layer == layer) {
        *l = LayerStatus {
            layer,
            place,
            state: State::Read(m),
        };
    }
    Ok(layers)
}

/// Writes the manifest, making its folder.
fn write_manifest(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
    }
    write_file(path, text.as_bytes(), WriteOptions::default())
}

/// Reports a refusal: nothing was written.
fn refuse(format: Format, code: &str, message: &str, fix: &str, exit: i32) -> Result<i32> {
    match format {
        Format::Json => print_json(&json!({
            "ok": false,
            "error": {"code": code, "message": message, "fix": fix},
        }))?,
        Format::Human => {
            eprintln!("error: {message}");
            if !fix.is_empty() {
                eprintln!("  fix: {fix}");
            }
            eprintln!("  (no manifest was changed)");
        }
    }
    Ok(exit)
}

/// How the manifest at `manifest` spells `file`: relative to its folder
/// for a project's manifest when the library is inside it (the project can
/// move), else absolute.
fn spelled(file: &Path, layer: Layer, manifest: &Path) -> String {
    let folder = manifest.parent().unwrap_or(Path::new("/"));
    match file.strip_prefix(folder) {
        Ok(rel) if layer == Layer::Project => rel.display().to_string(),
        _ => file.display().to_string(),
    }
}

/// Runs `isu plugins add`.
pub fn add(args: &AddArgs, flag: Option<&Path>, format: Format) -> Result<i32> {
    let env = Env::of_process(flag);
    let file = normalised(&args.file);
    let loaded = match probe(&file) {
        Ok(l) => l,
        Err(e) => return refuse(format, e.code(), &e.to_string(), &e.fix(), EXIT_PLUGIN),
    };
    let (kind, own, namespace) = match &loaded {
        Loaded::Backend { info, .. } => (PluginKind::Backend, info.name.clone(), None),
        Loaded::Pack { info, .. } => (
            PluginKind::Pack,
            info.namespace.clone(),
            Some(info.namespace.clone()),
        ),
    };
    let name = args.name.clone().unwrap_or_else(|| own.clone());
    if !is_plugin_name(&name) {
        let message = format!(
            "{name:?} is not a plugin name (lower-case letters, digits, `_` or `-`, starting with a letter)"
        );
        return refuse(
            format,
            "bad_name",
            &message,
            "give one with --name NAME",
            EXIT_USAGE,
        );
    }
    let (layer, path) = target(&env, args.project)?;
    let text = match current_text(layer, &path)? {
        Ok(t) => t,
        Err(m) => return refuse(format, "bad_manifest", &m, "", EXIT_PLUGIN),
    };
    let entry = NewEntry {
        name: name.clone(),
        kind,
        file: spelled(&file, layer, &path),
        namespace,
    };
    let (new_text, replaced) = edit::with_plugin(&text, &entry)
        .map_err(|e| anyhow!("cannot edit {}: {e}", path.display()))?;
    let before = Registry::load_layers(read_layers(&env), &[PluginKind::Backend, PluginKind::Pack]);
    let after = Registry::load_layers(
        layers_with(&env, layer, &path, &new_text)?,
        &[PluginKind::Backend, PluginKind::Pack],
    );
    let added = after.plugins.iter().find(|p| p.entry.name == name);
    if let Some(Err(e)) = added.map(|p| &p.result) {
        return refuse(format, e.code, &e.message, &e.fix, EXIT_PLUGIN);
    }
    let broken: Vec<String> = after
        .plugins
        .iter()
        .filter(|p| p.entry.name != name && p.result.is_err())
        .filter(|p| {
            before
                .plugins
                .iter()
                .any(|b| b.entry.name == p.entry.name && b.result.is_ok())
        })
        .filter_map(|p| {
            p.result
                .as_ref()
                .err()
                .map(|e| format!("`{}`: {}", p.entry.name, e.message))
        })
        .collect();
    if !broken.is_empty() {
        let message = format!(
            "adding `{name}` would refuse plugins that load now: {}",
            broken.join("; ")
        );
        let fix = "give the plugins different targets or namespaces, or disable one (`isu plugins remove NAME`)";
        return refuse(format, "conflict", &message, fix, EXIT_PLUGIN);
    }
    write_manifest(&path, &new_text)?;
    let replaced_other = before
        .plugins
        .iter()
        .find(|p| p.entry.name == name && p.entry.layer < layer);
    let shadowed_by = after
        .shadowed
        .iter()
        .find(|s| s.entry.name == name && s.entry.layer == layer);
    match format {
        Format::Json => print_json(&json!({
            "ok": true,
            "manifest": path.display().to_string(),
            "layer": layer.as_str(),
            "replaced": replaced,
            "overrides": replaced_other.map(|p| p.entry.origin()),
            "shadowed_by": shadowed_by.map(|s| s.by.describe()),
            "plugin": added.map(|p| plugin_json(p, false)),
        }))?,
        Format::Human => {
            eprintln!(
                "{} plugin `{name}` ({}, {}) in {} ({layer})",
                if replaced { "replaced" } else { "added" },
                kind.as_str(),
                file.display(),
                path.display()
            );
            if let Some(p) = replaced_other {
                eprintln!("  it overrides `{name}` of {}", p.entry.origin());
            }
            if let Some(s) = shadowed_by {
                eprintln!("  note: it is not in use: {}", s.by.describe());
            }
        }
    }
    Ok(0)
}

/// Runs `isu plugins remove`.
pub fn remove(args: &RemoveArgs, flag: Option<&Path>, format: Format) -> Result<i32> {
    let env = Env::of_process(flag);
    let name = &args.name;
    let (layer, path) = target(&env, args.project)?;
    let text = match current_text(layer, &path)? {
        Ok(t) => t,
        Err(m) => return refuse(format, "bad_manifest", &m, "", EXIT_PLUGIN),
    };
    let edit_error = |e: String| anyhow!("cannot edit {}: {e}", path.display());
    let (new_text, what) = if let Some(t) = edit::without_plugin(&text, name).map_err(edit_error)? {
        (t, "removed")
    } else {
        let layers = read_layers(&env);
        let listed = |keep: &dyn Fn(Layer) -> bool| {
            layers.iter().rev().find_map(|l| match &l.state {
                State::Read(m) if keep(l.layer) => {
                    m.entries.iter().find(|e| &e.name == name).cloned()
                }
                _ => None,
            })
        };
        if listed(&|l| l < layer).is_none() {
            let (message, fix) = match listed(&|l| l > layer) {
                Some(e) => (
                    format!(
                        "`{name}` is not in {} but in {}",
                        path.display(),
                        e.origin()
                    ),
                    match e.layer {
                        Layer::Project => format!("isu plugins remove {name} --project"),
                        _ => format!("edit {}", e.place),
                    },
                ),
                None => {
                    let known: Vec<String> =
                        merge(&layers).active.into_iter().map(|e| e.name).collect();
                    (
                        format!("no manifest lists a plugin `{name}`"),
                        format!("name one of: {}", known.join(", ")),
                    )
                }
            };
            return refuse(format, "unknown_plugin", &message, &fix, EXIT_USAGE);
        }
        match edit::with_disabled(&text, name).map_err(edit_error)? {
            Some(t) => (t, "disabled"),
            None => {
                match format {
                    Format::Json => print_json(
                        &json!({"ok": true, "manifest": path.display().to_string(), "layer": layer.as_str(), "action": "none"}),
                    )?,
                    Format::Human => eprintln!(
                        "`{name}` is already disabled in {} ({layer})",
                        path.display()
                    ),
                }
                return Ok(0);
            }
        }
    };
    let after = merge(&layers_with(&env, layer, &path, &new_text)?);
    write_manifest(&path, &new_text)?;
    let back = after.active.iter().find(|e| &e.name == name);
    match format {
        Format::Json => print_json(&json!({
            "ok": true,
            "manifest": path.display().to_string(),
            "layer": layer.as_str(),
            "action": what,
            "in_use_again": back.map(|e| e.origin()),
        }))?,
        Format::Human => {
            eprintln!("{what} `{name}` in {} ({layer})", path.display());
            if let Some(e) = back {
                eprintln!(
                    "  note: `{name}` of {} is in use again; `isu plugins remove {name}{}` once more disables it",
                    e.origin(),
                    if args.project { " --project" } else { "" }
                );
            }
        }
    }
    Ok(0)
}
