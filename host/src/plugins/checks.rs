//! The host's own checks of a loaded plugin, after abi_stable's and the
//! plugin-API version check: its info makes sense, it agrees with its
//! manifest entry, and it claims no target or namespace another plugin holds.

use super::{Entry, Loaded, Plugin, PluginError};
use isu_plugin_api::features::TYPE_FEATURES;
use isu_plugin_api::Signature;

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

fn is_feature(s: &str) -> bool {
    TYPE_FEATURES.contains(&s) || s.strip_prefix("call:").is_some_and(|f| !f.is_empty())
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
            if let Some(f) = info.lacks.iter().find(|f| !is_feature(f)) {
                return Err(refuse(
                    entry,
                    "bad_info",
                    format!(
                        "it says it lacks {f:?}, which is no feature (known: {}, call:NAME)",
                        TYPE_FEATURES.join(", ")
                    ),
                    BUG.into(),
                ));
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

    #[test]
    fn names() {
        assert!(is_word("python3") && is_word("llvm-ir") && !is_word("") && !is_word("3d"));
        assert!(is_function_name("IS_PRIME") && !is_function_name("gcd"));
        assert!(is_namespace("math") && !is_namespace("Math") && !is_namespace("a.b"));
        assert!(is_feature("nested_array") && is_feature("call:LEN"));
        assert!(!is_feature("call:") && !is_feature("floats"));
    }
}
