//! Lowerings a backend carries for the functions of packs it does not own
//! (plugin API 2.3): a new target supports `math` and `text` without
//! replacing those packs. The host gives a backend its own lowering of a
//! pack function when its [`PackLowerings`] name that pack at a compatible
//! version, else the pack's lowering for the target, else the program is
//! unsupported on the target (`spec/plugin-abi.md`, "Lowerings for a new
//! target").

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The definitions, for one target, of functions of one pack, written by a
/// backend for versions of that pack ([`crate::BackendInfo::lowerings`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackLowerings {
    /// The pack's namespace: `text`.
    pub pack: String,
    /// The pack versions they are written for, as a caret requirement in the
    /// manner of cargo: `0.1` is every `0.1.x`, `1.2` every `1.x` from `1.2.0`
    /// on, `0.0.3` only `0.0.3` (see [`PackLowerings::applies_to`]).
    pub version: String,
    /// The target they are for, one the backend serves: `js`.
    pub target: String,
    /// Each function's name within the pack (`REPLACE`) and its definition
    /// in the target's language, by the backend's own convention.
    pub functions: BTreeMap<String, String>,
}

impl PackLowerings {
    /// No lowerings yet of the pack `pack` at versions `version`, for `target`.
    pub fn new(pack: &str, version: &str, target: &str) -> PackLowerings {
        PackLowerings {
            pack: pack.to_owned(),
            version: version.to_owned(),
            target: target.to_owned(),
            functions: BTreeMap::new(),
        }
    }

    /// One more function (its name within the pack) with its definition.
    pub fn with(mut self, function: &str, source: impl Into<String>) -> PackLowerings {
        self.functions.insert(function.to_owned(), source.into());
        self
    }

    /// Whether these lowerings are for the pack `namespace` at `version`
    /// (its info's version): the same namespace, and a version the
    /// requirement [`PackLowerings::version`] accepts.
    pub fn applies_to(&self, namespace: &str, version: &str) -> bool {
        self.pack == namespace && version_matches(&self.version, version)
    }
}

/// The numbers of a version or requirement, `MAJOR[.MINOR[.PATCH]]`; a
/// pre-release or build suffix (`-dev`, `+abc`) of a version is ignored.
fn numbers(text: &str) -> Option<Vec<u64>> {
    let core = text.split(['-', '+']).next().unwrap_or(text);
    let parts: Option<Vec<u64>> = core.split('.').map(|p| p.parse().ok()).collect();
    parts.filter(|p| (1..=3).contains(&p.len()))
}

/// Whether the requirement `req` (`MAJOR[.MINOR[.PATCH]]`) is well formed.
pub fn is_version_requirement(req: &str) -> bool {
    !req.contains(['-', '+']) && numbers(req).is_some()
}

/// Whether `version` meets the caret requirement `req`, as cargo reads
/// `^req`: at least `req`, and below the next version that changes its
/// leftmost non-zero number (`1.2` up to `2.0.0`, `0.2` up to `0.3.0`,
/// `0.0.3` up to `0.0.4`, `0` up to `1.0.0`).
pub fn version_matches(req: &str, version: &str) -> bool {
    if !is_version_requirement(req) {
        return false;
    }
    let (Some(req), Some(have)) = (numbers(req), numbers(version)) else {
        return false;
    };
    let at = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
    let have = [at(&have, 0), at(&have, 1), at(&have, 2)];
    let low = [at(&req, 0), at(&req, 1), at(&req, 2)];
    if have < low {
        return false;
    }
    // The numbers that must stay as they are: up to the leftmost non-zero
    // one the requirement gives, or all it gives when they are all zero.
    let fixed = req
        .iter()
        .position(|&n| n != 0)
        .map_or(req.len(), |i| i + 1);
    have[..fixed] == low[..fixed]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_requirements_as_cargo_reads_them() {
        let yes = [
            ("0.1", "0.1.0"),
            ("0.1", "0.1.7"),
            ("0.1.2", "0.1.9"),
            ("1.2", "1.2.0"),
            ("1.2", "1.9.3"),
            ("1", "1.0.0"),
            ("0", "0.9.9"),
            ("0.0.3", "0.0.3"),
            ("0.1", "0.1.0-dev"),
        ];
        for (req, v) in yes {
            assert!(version_matches(req, v), "{req} should accept {v}");
        }
        let no = [
            ("0.1", "0.2.0"),
            ("0.1.2", "0.1.1"),
            ("1.2", "1.1.9"),
            ("1.2", "2.0.0"),
            ("0.0.3", "0.0.4"),
            ("0", "1.0.0"),
            ("x", "0.1.0"),
            ("0.1", "zero"),
            ("0.1-beta", "0.1.0"),
            ("1.2.3.4", "1.2.3"),
        ];
        for (req, v) in no {
            assert!(!version_matches(req, v), "{req} should refuse {v}");
        }
        assert!(is_version_requirement("0.1"));
        assert!(!is_version_requirement("0.1.x"));
        assert!(!is_version_requirement(""));
    }

    #[test]
    fn lowerings_apply_to_their_pack_at_a_compatible_version() {
        let l = PackLowerings::new("text", "0.1", "js")
            .with("REPLACE", "function text__REPLACE(s, a, b) {}");
        assert!(l.applies_to("text", "0.1.0"));
        assert!(!l.applies_to("text", "0.2.0"));
        assert!(!l.applies_to("math", "0.1.0"));
        let json = serde_json::to_string(&l).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"pack":"text","version":"0.1","target":"js","functions":{"REPLACE":"function text__REPLACE(s, a, b) {}"}}"#
        );
    }
}
