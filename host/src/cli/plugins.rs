//! `isu plugins [list|verify]`: what the manifest lists, loaded and checked.

use super::output::print_json;
use super::Format;
use crate::plugins::{Loaded, ManifestError, Plugin, Registry};
use anyhow::Result;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;

/// Exit code of `isu plugins verify` when a plugin was refused, and of a
/// command whose backend plugin failed (panicked, answered garbage).
pub const EXIT_PLUGIN: i32 = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::Subcommand)]
pub enum Action {
    /// List the plugins of the manifest and whether each loaded (the default).
    #[default]
    List,
    /// Like list, but exit 8 when any plugin is refused.
    Verify,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Option<Action>,
    /// How to report.
    #[arg(long, value_enum, default_value_t = Format::Human, global = true)]
    pub format: Format,
    /// Show the full text of each refusal (a layout mismatch runs long).
    #[arg(long, short, global = true)]
    pub verbose: bool,
}

/// Runs `isu plugins`; `manifest` is the `--plugins FILE` flag.
pub fn plugins(args: &Args, manifest: Option<&Path>) -> Result<i32> {
    let reg = match Registry::from_environment(manifest) {
        Ok(reg) => reg,
        Err(e) => return manifest_failure(&e, args.format),
    };
    match args.format {
        Format::Json => print_json(&report(&reg, args.verbose))?,
        Format::Human => print!("{}", human(&reg, args.verbose)),
    }
    let action = args.action.unwrap_or_default();
    Ok(if action == Action::Verify && !reg.errors().is_empty() {
        EXIT_PLUGIN
    } else {
        0
    })
}

/// Reports a manifest that cannot be used, in the chosen format; exit 8.
pub fn manifest_failure(e: &ManifestError, format: Format) -> Result<i32> {
    match format {
        Format::Json => print_json(&json!({
            "ok": false,
            "manifest_error": {
                "path": e.path.display().to_string(),
                "line": e.line,
                "column": e.column,
                "message": e.message,
            }
        }))?,
        Format::Human => eprintln!("error: bad plugin manifest: {e}"),
    }
    Ok(EXIT_PLUGIN)
}

/// The JSON report of a registry.
pub fn report(reg: &Registry, verbose: bool) -> Value {
    let manifest = reg.manifest.as_ref().map(
        |(path, origin)| json!({"path": path.display().to_string(), "origin": origin.as_str()}),
    );
    json!({
        "ok": reg.errors().is_empty(),
        "manifest": manifest,
        "plugins": reg.plugins.iter().map(|p| plugin_json(p, verbose)).collect::<Vec<_>>(),
    })
}

fn plugin_json(p: &Plugin, verbose: bool) -> Value {
    let mut obj = json!({
        "name": p.entry.name,
        "kind": p.entry.kind.as_str(),
        "file": p.entry.file.display().to_string(),
        "line": p.entry.line,
        "loaded": p.result.is_ok(),
    });
    let fields = match &p.result {
        Ok(loaded @ Loaded::Backend { info, .. }) => json!({
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
            "version": info.version,
            "api_version": loaded.api_version().to_string(),
            "namespace": info.namespace,
            "functions": info.functions.iter().map(|f| json!({
                "name": format!("{}.{}", info.namespace, f.name),
                "signature": f.signature,
                "doc": f.doc,
            })).collect::<Vec<_>>(),
        }),
        Err(e) => {
            let mut err = json!({"code": e.code, "message": e.message, "fix": e.fix});
            if let (true, Some(d), Some(o)) = (verbose, &e.details, err.as_object_mut()) {
                o.insert("details".into(), Value::String(d.clone()));
            }
            json!({ "error": err })
        }
    };
    if let (Some(o), Value::Object(extra)) = (obj.as_object_mut(), fields) {
        o.extend(extra);
    }
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
    let mut out = String::new();
    let Some((path, origin)) = &reg.manifest else {
        return "no plugin manifest found (looked for --plugins FILE, ISU_PLUGINS, \
                isu-plugins.toml here and in every folder above, and beside isu)\n"
            .into();
    };
    let _ = writeln!(out, "manifest: {} ({})", path.display(), origin.as_str());
    if reg.plugins.is_empty() {
        out.push_str("  (no plugins listed)\n");
    }
    for p in &reg.plugins {
        let head = format!(
            "  {} ({}, line {})",
            p.entry.name,
            p.entry.kind.as_str(),
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
                match loaded {
                    Loaded::Backend { info, .. } => {
                        backend_lines(&mut out, info);
                    }
                    Loaded::Pack { info, .. } => {
                        for f in &info.functions {
                            let _ = writeln!(
                                out,
                                "      {}.{} {}",
                                info.namespace, f.name, f.signature
                            );
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
    out
}
