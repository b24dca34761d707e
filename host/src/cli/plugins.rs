//! `isu plugins [list|verify|add|remove|new]`: the plugins of every manifest
//! layer, loaded and checked; registering and unregistering a library; a new
//! backend crate.

mod edit;
mod new;

use super::output::print_json;
use super::Format;
use crate::plugins::isolated::HostCommand;
use crate::plugins::manifest::ShadowedBy;
use crate::plugins::{Loaded, Loading, Place, Plugin, PluginKind, Registry, State, NO_PLUGINS_FIX};
use anyhow::{Context, Result};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// Exit code of `isu plugins verify` when a plugin or a manifest was refused,
/// and of a command whose backend plugin failed (panicked, answered garbage).
pub const EXIT_PLUGIN: i32 = 8;

#[derive(Debug, Clone, PartialEq, Eq, Default, clap::Subcommand)]
pub enum Action {
    /// List every manifest layer and every plugin: loaded, refused, overridden or disabled (the default).
    #[default]
    List,
    /// Like list, but exit 8 when a plugin or a manifest is refused.
    Verify,
    /// Load and check a plugin library, then register it in your manifest
    /// (or, with --project, the project's).
    Add(edit::AddArgs),
    /// Unregister a plugin from your manifest (or the project's); a plugin of
    /// an earlier layer is disabled there instead.
    Remove(edit::RemoveArgs),
    /// Write a new backend crate, ready to build and to run the conformance suite on.
    New(new::NewArgs),
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Option<Action>,
    /// How to report: for people on stderr, or one JSON document on stdout
    /// (every failure included).
    #[arg(long = "format", value_enum, value_name = "FORMAT", global = true)]
    pub format_flag: Option<Format>,
    /// How the command reports (see `super::Common::format`).
    #[arg(skip)]
    pub format: Format,
    /// Show the full text of each refusal (a layout mismatch runs long).
    #[arg(long, short, global = true)]
    pub verbose: bool,
}

/// Runs `isu plugins`; `manifest` is the `--plugins FILE` flag.
pub fn plugins(args: &Args, manifest: Option<&Path>) -> Result<i32> {
    let action = args.action.clone().unwrap_or_default();
    match &action {
        Action::Add(a) => return edit::add(a, manifest, args.format),
        Action::Remove(r) => return edit::remove(r, manifest, args.format),
        Action::New(n) => return new::new(n, args.format),
        Action::List | Action::Verify => {}
    }
    let reg = Registry::from_environment(manifest);
    match args.format {
        Format::Json => print_json(&report(&reg, args.verbose))?,
        Format::Human => print!("{}", human(&reg, args.verbose)),
    }
    let refused = !reg.errors().is_empty() || !reg.manifest_errors().is_empty();
    Ok(if action == Action::Verify && refused {
        EXIT_PLUGIN
    } else {
        0
    })
}

/// The registry of the plugins of `kinds` for a command; each manifest that
/// was skipped is a warning on stderr.
pub fn registry(manifest: Option<&Path>, kinds: &[PluginKind]) -> Registry {
    registry_with(manifest, kinds, &Loading::InProcess)
}

/// [`registry`], the backends loaded as `loading` says.
pub fn registry_with(manifest: Option<&Path>, kinds: &[PluginKind], loading: &Loading) -> Registry {
    let reg = Registry::from_environment_with(manifest, kinds, loading);
    for e in reg.manifest_errors() {
        eprintln!("warning: plugin manifest skipped: {e}");
    }
    reg
}

/// Every backend and pack of the manifest layers, each backend in plugin
/// host processes of its own (a crash or a hang of one fails what it was
/// running, and the rest goes on) that are stopped after `timeout_secs` of
/// one compile or run: what `isu conformance` and `isu fuzz` run on.
pub fn isolated_registry(manifest: Option<&Path>, timeout_secs: u64) -> Result<Registry> {
    let timeout = Some(Duration::from_secs(timeout_secs));
    let command = HostCommand::this_isu(timeout).context("finding this isu")?;
    Ok(registry_with(
        manifest,
        &[PluginKind::Backend, PluginKind::Pack],
        &Loading::Isolated(command),
    ))
}

fn place_json(place: &Place) -> Value {
    match place {
        Place::File(path) => json!({"manifest": path.display().to_string(), "built_in": false}),
        Place::BuiltIn { dir, build } => json!({
            "manifest": place.to_string(),
            "built_in": true,
            "dir": dir.display().to_string(),
            "build": build,
        }),
    }
}

fn merge_into(obj: &mut Value, extra: Value) {
    if let (Some(o), Value::Object(extra)) = (obj.as_object_mut(), extra) {
        o.extend(extra);
    }
}

/// The JSON report of a registry.
pub fn report(reg: &Registry, verbose: bool) -> Value {
    let layers: Vec<Value> = reg
        .layers
        .iter()
        .map(|l| {
            let mut obj = json!({"layer": l.layer.as_str()});
            merge_into(&mut obj, place_json(&l.place));
            merge_into(
                &mut obj,
                match &l.state {
                    State::Read(m) => json!({"state": "read", "plugins": m.entries.len(), "disable": m.disable.iter().map(|d| &d.name).collect::<Vec<_>>()}),
                    State::Absent => json!({"state": "absent"}),
                    State::Failed(e) => json!({"state": "failed", "error": {
                        "path": e.path.display().to_string(),
                        "line": e.line,
                        "column": e.column,
                        "message": e.message,
                    }}),
                },
            );
            obj
        })
        .collect();
    let mut plugins: Vec<Value> = reg
        .plugins
        .iter()
        .map(|p| plugin_json(p, verbose))
        .collect();
    plugins.extend(reg.shadowed.iter().map(|s| {
        let mut obj = entry_json(&s.entry);
        let (layer, place, line) = match &s.by {
            ShadowedBy::Override { layer, place, line }
            | ShadowedBy::Disable { layer, place, line } => (layer, place, line),
        };
        let mut by = json!({"layer": layer.as_str(), "line": line});
        merge_into(&mut by, place_json(place));
        merge_into(
            &mut obj,
            json!({"status": s.by.status(), "loaded": false, "by": by}),
        );
        obj
    }));
    json!({
        "ok": reg.errors().is_empty() && reg.manifest_errors().is_empty(),
        "layers": layers,
        "plugins": plugins,
        "unused_disables": reg.unused_disables.iter().map(|d| {
            let mut obj = json!({"name": d.name, "layer": d.layer.as_str(), "line": d.line});
            merge_into(&mut obj, place_json(&d.place));
            obj
        }).collect::<Vec<_>>(),
    })
}

fn entry_json(e: &crate::plugins::Entry) -> Value {
    let mut obj = json!({
        "name": e.name,
        "kind": e.kind.as_str(),
        "layer": e.layer.as_str(),
        "line": e.line,
        "file": e.file.display().to_string(),
    });
    merge_into(&mut obj, place_json(&e.place));
    obj
}

/// One plugin in use, as JSON.
pub fn plugin_json(p: &Plugin, verbose: bool) -> Value {
    let mut obj = entry_json(&p.entry);
    let fields = match &p.result {
        Ok(loaded @ Loaded::Backend { info, .. }) => json!({
            "status": "loaded",
            "loaded": true,
            "version": info.version,
            "api_version": loaded.api_version().to_string(),
            "targets": info.targets,
            "iir": info.iir,
            "emits": info.emits,
            "execute": info.execute,
            "features": info.features,
            "lacks": info.features.lacks(),
            "settings": info.settings,
        }),
        Ok(loaded @ Loaded::Pack { info, .. }) => json!({
            "status": "loaded",
            "loaded": true,
            "version": info.version,
            "api_version": loaded.api_version().to_string(),
            "namespace": info.namespace,
            "functions": info.functions.iter().map(|f| json!({
                "name": format!("{}.{}", info.namespace, f.name),
                "signature": f.signature,
                "doc": f.doc,
                "errors": f.errors,
            })).collect::<Vec<_>>(),
        }),
        Err(e) => {
            let mut err = json!({"code": e.code, "message": e.message, "fix": e.fix});
            if let (true, Some(d), Some(o)) = (verbose, &e.details, err.as_object_mut()) {
                o.insert("details".into(), Value::String(d.clone()));
            }
            json!({"status": "refused", "loaded": false, "error": err})
        }
    };
    merge_into(&mut obj, fields);
    obj
}

/// What a loaded backend says of itself, for people.
fn backend_lines(out: &mut String, info: &isu_plugin_api::BackendInfo) {
    let _ = writeln!(out, "      targets: {}", info.targets.join(", "));
    let _ = writeln!(out, "      reads: {}", info.iir.join(", "));
    let _ = writeln!(out, "      emits: {}", info.emits.join(", "));
    let execute = match &info.execute {
        Some(e) if e.native => {
            format!("{} (native code, run in a plugin host process)", e.artifact)
        }
        Some(e) => e.artifact.clone(),
        None => "nothing (it only builds)".to_owned(),
    };
    let _ = writeln!(out, "      executes: {execute}");
    let lacks = info.features.lacks();
    let lacks = if lacks.is_empty() {
        "nothing".to_owned()
    } else {
        lacks.join(", ")
    };
    let _ = writeln!(
        out,
        "      features (vocabulary {}): all but {lacks}",
        info.features.version
    );
    for s in &info.settings {
        let values = if s.values.is_empty() {
            String::new()
        } else {
            format!(" ({})", s.values.join(", "))
        };
        let _ = writeln!(
            out,
            "      --set {}={}{values}: {}",
            s.name, s.default, s.doc
        );
    }
}

/// The human report of a registry.
pub fn human(reg: &Registry, verbose: bool) -> String {
    let mut out = String::from(
        "manifests, lowest layer first (a later one overrides or disables plugins by name):\n",
    );
    let width = reg
        .layers
        .iter()
        .map(|l| l.layer.as_str().len())
        .max()
        .unwrap_or(0);
    for l in &reg.layers {
        let state = match &l.state {
            State::Read(_) => String::new(),
            State::Absent => " (none)".to_owned(),
            State::Failed(e) => format!("\n      error: {e}"),
        };
        let _ = writeln!(out, "  {:width$}  {}{state}", l.layer.as_str(), l.place);
    }
    if reg.plugins.is_empty() && reg.shadowed.is_empty() {
        let _ = writeln!(out, "no plugins\n  fix: {NO_PLUGINS_FIX}");
        return out;
    }
    out.push_str("plugins:\n");
    for p in &reg.plugins {
        human_plugin(&mut out, p, verbose);
    }
    for s in &reg.shadowed {
        let _ = writeln!(
            out,
            "  {} ({}, {}, line {}): {}",
            s.entry.name,
            s.entry.kind.as_str(),
            s.entry.layer,
            s.entry.line,
            s.by.describe()
        );
    }
    for d in &reg.unused_disables {
        let _ = writeln!(
            out,
            "note: `disable` of `{}` ({}) matches no plugin of an earlier layer",
            d.name,
            crate::plugins::manifest::origin(d.layer, &d.place, d.line)
        );
    }
    out
}

fn human_plugin(out: &mut String, p: &Plugin, verbose: bool) {
    let head = format!(
        "  {} ({}, {}, line {})",
        p.entry.name,
        p.entry.kind.as_str(),
        p.entry.layer,
        p.entry.line
    );
    match &p.result {
        Ok(loaded) => {
            let _ = writeln!(
                out,
                "{head}: ok, version {}, plugin API {}",
                loaded.version(),
                loaded.api_version()
            );
            let _ = writeln!(out, "      file: {}", p.entry.file.display());
            match loaded {
                Loaded::Backend { info, .. } => backend_lines(out, info),
                Loaded::Pack { info, .. } => {
                    for f in &info.functions {
                        let _ =
                            writeln!(out, "      {}.{} {}", info.namespace, f.name, f.signature);
                    }
                }
            }
        }
        Err(e) => {
            let _ = writeln!(out, "{head}: refused ({})", e.code);
            let _ = writeln!(out, "      {}", e.message);
            let _ = writeln!(out, "      fix: {}", e.fix);
            let _ = writeln!(out, "      file: {}", p.entry.file.display());
            match (&e.details, verbose) {
                (Some(d), true) => {
                    for line in d.lines() {
                        let _ = writeln!(out, "      | {line}");
                    }
                }
                (Some(_), false) => {
                    out.push_str("      (--verbose shows abi_stable's full report)\n");
                }
                (None, _) => {}
            }
        }
    }
}
