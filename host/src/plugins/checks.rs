//! The host's own checks of a loaded plugin, after abi_stable's and the
//! plugin-API version check: its info makes sense, it agrees with its
//! manifest entry, and it claims no target or namespace another plugin holds.

use super::{Entry, Loaded, Plugin, PluginError};
use isu_plugin_api::pack::is_version_requirement;
use isu_plugin_api::{BackendInfo, Signature};

fn refuse(entry: &Entry, code: &'static str, message: String, fix: String) -> PluginError {
    PluginError {
        plugin: entry.name.clone(),
        code,
        message,
        fix,
        details: None,
    }
}

/// A target, namespace or function name: letters, digits, `_`, `-`, starting
/// with a letter.
fn is_word(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A pack function name: upper-case like the standard functions (`GCD`).
fn is_function_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// A pack namespace: lower-case (`math`), so `math.GCD` never looks like a
/// standard function.
fn is_namespace(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// A setting name: lower-case like `opt_level`.
fn is_setting_name(s: &str) -> bool {
    is_namespace(s)
}

const BUG: &str = "this is a bug in the plugin; report it to its authors";

/// Checks a plugin's info and its agreement with the manifest entry.
pub fn check_info(entry: &Entry, loaded: &Loaded) -> Result<(), PluginError> {
    match loaded {
        Loaded::Backend { info, .. } => {
            if info.name.is_empty() || info.targets.is_empty() {
                return Err(refuse(
                    entry,
                    "bad_info",
                    "its info has an empty name or no targets".into(),
                    BUG.into(),
                ));
            }
            if let Some(t) = info.targets.iter().find(|t| !is_word(t)) {
                return Err(refuse(
                    entry,
                    "bad_info",
                    format!("its info names the target {t:?}, which is not a word"),
                    BUG.into(),
                ));
            }
            if let Some(problem) = backend_problem(info) {
                return Err(refuse(entry, "bad_info", problem, BUG.into()));
            }
            if let Some(t) = entry.targets.iter().find(|t| !info.targets.contains(t)) {
                return Err(refuse(
                    entry,
                    "manifest_mismatch",
                    format!(
                        "the manifest lists it for target `{t}`, but it serves only {}",
                        info.targets.join(", ")
                    ),
                    format!(
                        "set `targets` of `{}` ({}) to targets it serves, or leave it out",
                        entry.name,
                        entry.origin()
                    ),
                ));
            }
        }
        Loaded::Pack { info, .. } => {
            if !is_namespace(&info.namespace) {
                return Err(refuse(
                    entry,
                    "bad_info",
                    format!(
                        "its namespace {:?} is not lower-case letters, digits and `_`",
                        info.namespace
                    ),
                    BUG.into(),
                ));
            }
            if entry.namespace.as_deref() != Some(info.namespace.as_str()) {
                return Err(refuse(
                    entry,
                    "manifest_mismatch",
                    format!(
                        "the manifest gives namespace `{}`, but the pack's is `{}`",
                        entry.namespace.as_deref().unwrap_or(""),
                        info.namespace
                    ),
                    format!(
                        "set `namespace = \"{}\"` for `{}` ({})",
                        info.namespace,
                        entry.name,
                        entry.origin()
                    ),
                ));
            }
            let mut seen = Vec::new();
            for f in &info.functions {
                if !is_function_name(&f.name) || seen.contains(&f.name.as_str()) {
                    return Err(refuse(
                        entry,
                        "bad_info",
                        format!(
                            "its function name {:?} is repeated or not upper-case letters, digits and `_`",
                            f.name
                        ),
                        BUG.into(),
                    ));
                }
                seen.push(&f.name);
                if let Err(e) = Signature::parse(&f.signature) {
                    return Err(refuse(
                        entry,
                        "bad_info",
                        format!(
                            "the signature of {}.{} ({:?}) is not valid: {e}",
                            info.namespace, f.name, f.signature
                        ),
                        BUG.into(),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// What is wrong with a backend's info beyond its name and targets: the
/// features it declares, what it executes, its settings.
fn backend_problem(info: &BackendInfo) -> Option<String> {
    let unknown = info.features.unknown();
    if !unknown.is_empty() {
        return Some(format!(
            "it declares {}, which {} no feature of vocabulary {} (see `isu_plugin_api::feature_set`)",
            unknown.join(", "),
            if unknown.len() == 1 { "is" } else { "are" },
            info.features.version
        ));
    }
    if let Some(e) = info
        .execute
        .as_ref()
        .filter(|e| !info.emits.contains(&e.artifact))
    {
        return Some(format!(
            "it executes `{}` artifacts but emits only {}",
            e.artifact,
            info.emits.join(", ")
        ));
    }
    let mut seen = Vec::new();
    for s in &info.settings {
        if !is_setting_name(&s.name) || seen.contains(&s.name.as_str()) {
            return Some(format!(
                "its setting name {:?} is repeated or not lower-case letters, digits and `_`",
                s.name
            ));
        }
        seen.push(&s.name);
        if !s.values.is_empty() && !s.values.contains(&s.default) {
            return Some(format!(
                "the default `{}` of its setting `{}` is none of its values ({})",
                s.default,
                s.name,
                s.values.join(", ")
            ));
        }
    }
    for l in &info.lowerings {
        let what = format!("the lowerings it carries for `{}` {}", l.pack, l.version);
        if !is_namespace(&l.pack) {
            return Some(format!("{what} name no pack namespace"));
        }
        if !is_version_requirement(&l.version) {
            return Some(format!(
                "{what} give no version requirement (MAJOR[.MINOR[.PATCH]])"
            ));
        }
        if !info.targets.contains(&l.target) {
            return Some(format!(
                "{what} are for the target `{}`, which it does not serve",
                l.target
            ));
        }
        if let Some(f) = l.functions.keys().find(|f| !is_function_name(f)) {
            return Some(format!(
                "{what} name the function {f:?}, which is no function name"
            ));
        }
    }
    None
}

/// Checks that `loaded` claims no target or namespace an earlier plugin holds.
pub fn check_against_others(
    entry: &Entry,
    loaded: &Loaded,
    earlier: &[Plugin],
) -> Result<(), PluginError> {
    for other in earlier {
        let Ok(theirs) = &other.result else {
            continue;
        };
        match (loaded, theirs) {
            (Loaded::Backend { info, .. }, Loaded::Backend { info: their, .. }) => {
                let claimed = |e: &Entry, targets: &[String]| -> Vec<String> {
                    targets
                        .iter()
                        .filter(|t| e.targets.is_empty() || e.targets.contains(t))
                        .cloned()
                        .collect()
                };
                let mine = claimed(entry, &info.targets);
                let held = claimed(&other.entry, &their.targets);
                if let Some(t) = mine.iter().find(|t| held.contains(t)) {
                    return Err(refuse(
                        entry,
                        "duplicate_target",
                        format!(
                            "target `{t}` is already served by plugin `{}` ({})",
                            other.entry.name,
                            other.entry.origin()
                        ),
                        format!(
                            "use one backend for `{t}`: disable `{}` (`disable = [\"{}\"]` in the manifest of `{}`), or give `{}` ({}) `targets` without `{t}`",
                            other.entry.name,
                            other.entry.name,
                            entry.name,
                            entry.name,
                            entry.origin()
                        ),
                    ));
                }
            }
            (Loaded::Pack { info, .. }, Loaded::Pack { info: their, .. })
                if info.namespace == their.namespace =>
            {
                return Err(refuse(
                    entry,
                    "duplicate_namespace",
                    format!(
                        "namespace `{}` is already taken by plugin `{}` ({})",
                        info.namespace,
                        other.entry.name,
                        other.entry.origin()
                    ),
                    format!(
                        "use one pack for `{}`: disable `{}` (`disable = [\"{}\"]` in the manifest of `{}`) or remove `{}`",
                        info.namespace,
                        other.entry.name,
                        other.entry.name,
                        entry.name,
                        entry.name
                    ),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use isu_plugin_api::{FeatureSet, PackLowerings, SettingInfo};

    #[test]
    fn backend_infos_are_checked() {
        let good = BackendInfo::new("b", "1.0.0", &["b"], FeatureSet::all_of(1))
            .emitting(&["x"])
            .executing("x", false)
            .with_setting(SettingInfo::new("level", "l", &["0", "1"], "1"));
        assert_eq!(backend_problem(&good), None);
        let mut odd = good.clone();
        odd.features.supported.push("floats".into());
        assert_eq!(
            backend_problem(&odd),
            Some("it declares floats, which is no feature of vocabulary 1 (see `isu_plugin_api::feature_set`)".into())
        );
        let runs_other = good.clone().executing("y", true);
        assert_eq!(
            backend_problem(&runs_other),
            Some("it executes `y` artifacts but emits only x".into())
        );
        let bad_default = good
            .clone()
            .with_setting(SettingInfo::new("mode", "m", &["a"], "b"));
        assert!(backend_problem(&bad_default).is_some_and(|m| m.contains("default `b`")));
        let twice = good
            .clone()
            .with_setting(SettingInfo::new("level", "l", &[], "1"));
        assert!(backend_problem(&twice).is_some_and(|m| m.contains("repeated")));
        let carrying = |pack: &str, version: &str, target: &str, function: &str| {
            good.clone()
                .with_lowerings(PackLowerings::new(pack, version, target).with(function, "x"))
        };
        assert_eq!(
            backend_problem(&carrying("text", "0.1", "b", "REPLACE")),
            None
        );
        for (bad, problem) in [
            (carrying("Text", "0.1", "b", "REPLACE"), "the lowerings it carries for `Text` 0.1 name no pack namespace"),
            (carrying("text", "0.x", "b", "REPLACE"), "the lowerings it carries for `text` 0.x give no version requirement (MAJOR[.MINOR[.PATCH]])"),
            (carrying("text", "0.1", "c", "REPLACE"), "the lowerings it carries for `text` 0.1 are for the target `c`, which it does not serve"),
            (carrying("text", "0.1", "b", "replace"), "the lowerings it carries for `text` 0.1 name the function \"replace\", which is no function name"),
        ] {
            assert_eq!(backend_problem(&bad).as_deref(), Some(problem));
        }
    }

    #[test]
    fn names() {
        assert!(is_word("python3") && is_word("llvm-ir") && !is_word("") && !is_word("3d"));
        assert!(is_function_name("IS_PRIME") && !is_function_name("gcd"));
        assert!(is_namespace("math") && !is_namespace("Math") && !is_namespace("a.b"));
        assert!(is_setting_name("opt_level") && !is_setting_name("Opt"));
    }
}
