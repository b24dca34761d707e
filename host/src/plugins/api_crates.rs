//! The sources of the crates a plugin builds against, `isu_plugin_api` and
//! `isu_lang`, at the version this `isu` speaks: `isu plugins new` points a
//! new crate at them, so it builds on a machine with no Isu repository and
//! before (or without) the crates being published.
//!
//! - An install made by `scripts/dist.sh` carries them as they would be
//!   published (`cargo package`), in `BIN/../share/isu/crates/`:
//!   `isu_plugin_api-VERSION/` and `isu_lang-VERSION/` ([`SHARE_CRATES`]).
//! - A build in cargo's folder of Isu's repository uses the repository's
//!   `plugin-api` (which finds `lang` by its path).
//! - `isu plugins new --plugin-api DIR` names a `plugin-api` folder; an
//!   `isu_lang` it does not find by a path is looked for beside it.

use super::manifest::Env;
use super::Place;
use isu_plugin_api::abi::PLUGIN_API_VERSION;
use isu_plugin_api::pack::version_matches;
use std::path::{Path, PathBuf};

/// The folder of the crates' sources, relative to the folder above the
/// binary's (the sysroot, as `SYSROOT_PLUGINS` is).
pub const SHARE_CRATES: &str = "share/isu/crates";

/// The name of the plugin API's crate.
pub const PLUGIN_API: &str = "isu_plugin_api";
/// The name of the language's crate, which the plugin API re-exports.
pub const LANG: &str = "isu_lang";

/// Where the crates were found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Beside this `isu`, as `scripts/dist.sh` installs them.
    Install,
    /// The repository this `isu` was built in.
    Checkout,
    /// The folder given with `--plugin-api`.
    Given,
}

/// The sources a new crate builds against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiCrates {
    /// The folder of `isu_plugin_api`.
    pub plugin_api: PathBuf,
    /// The folder of `isu_lang`, when `isu_plugin_api` does not find it by
    /// a path of its own (a packaged crate depends on it by version only).
    pub lang: Option<PathBuf>,
    /// `isu_plugin_api` needs `isu_lang` by version, and none was found
    /// beside it: it comes from crates.io.
    pub lang_from_registry: bool,
    pub origin: Origin,
}

impl ApiCrates {
    /// The crates of the `isu_plugin_api` folder `dir`: it must hold that
    /// crate at a version compatible with this `isu`'s plugin API.
    pub fn at(dir: &Path, origin: Origin) -> Result<ApiCrates, String> {
        let manifest = read_manifest(dir)
            .ok_or_else(|| format!("{} holds no Cargo.toml of {PLUGIN_API}", dir.display()))?;
        if package(&manifest, "name") != Some(PLUGIN_API) {
            return Err(format!(
                "{} is not the folder of {PLUGIN_API} (its Cargo.toml names another crate)",
                dir.display()
            ));
        }
        let api = format!("{}.{}", PLUGIN_API_VERSION.major, PLUGIN_API_VERSION.minor);
        let version = package(&manifest, "version").unwrap_or("");
        if !version_matches(&api, version) {
            return Err(format!(
                "{} holds {PLUGIN_API} {version}, but this isu speaks plugin API {api}",
                dir.display()
            ));
        }
        let lang_dep = manifest
            .get("dependencies")
            .and_then(|d| d.get(LANG))
            .and_then(toml::Value::as_table);
        let by_path = lang_dep.is_some_and(|d| d.contains_key("path"));
        let lang = if by_path {
            None
        } else {
            dir.parent()
                .and_then(|parent| sibling(parent, LANG, version))
        };
        Ok(ApiCrates {
            lang_from_registry: !by_path && lang.is_none(),
            plugin_api: dir.to_owned(),
            lang,
            origin,
        })
    }

    /// The crates of this `isu`: beside an install, else those of the
    /// repository it was built in; `Err` lists where it looked.
    pub fn of_this_isu(env: &Env) -> Result<ApiCrates, Vec<PathBuf>> {
        let mut looked = Vec::new();
        if let Some(sysroot) = env
            .exe
            .as_deref()
            .and_then(Path::parent)
            .and_then(Path::parent)
        {
            let dir = sysroot
                .join(SHARE_CRATES)
                .join(format!("{PLUGIN_API}-{}", isu_plugin_api::lang::VERSION));
            if let Ok(c) = ApiCrates::at(&dir, Origin::Install) {
                return Ok(c);
            }
            looked.push(dir);
        }
        if let Ok(Place::BuiltIn { dir, .. }) = env.system_manifest() {
            // REPO/target/PROFILE/isu
            if let Some(repo) = dir.parent().and_then(Path::parent) {
                let dir = repo.join("plugin-api");
                if let Ok(c) = ApiCrates::at(&dir, Origin::Checkout) {
                    return Ok(c);
                }
                looked.push(dir);
            }
        }
        Err(looked)
    }

    /// The `[patch.crates-io]` entries that build against these sources:
    /// `(crate, folder)`.
    pub fn patch(&self) -> Vec<(&'static str, &Path)> {
        let mut out = vec![(PLUGIN_API, self.plugin_api.as_path())];
        if let Some(lang) = &self.lang {
            out.push((LANG, lang.as_path()));
        }
        out
    }
}

fn read_manifest(dir: &Path) -> Option<toml::Table> {
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
    toml::from_str(&text).ok()
}

fn package<'t>(manifest: &'t toml::Table, key: &str) -> Option<&'t str> {
    manifest.get("package")?.get(key)?.as_str()
}

/// The folder in `parent` holding the crate `name` at `version`: the one
/// `cargo package` names `NAME-VERSION`, else any whose Cargo.toml says so.
fn sibling(parent: &Path, name: &str, version: &str) -> Option<PathBuf> {
    let holds = |dir: &Path| {
        read_manifest(dir).is_some_and(|m| {
            package(&m, "name") == Some(name) && package(&m, "version") == Some(version)
        })
    };
    let packaged = parent.join(format!("{name}-{version}"));
    if holds(&packaged) {
        return Some(packaged);
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(parent)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.into_iter().find(|d| holds(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap_or_default();
        }
        std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
    }

    fn krate(dir: &Path, name: &str, version: &str, lang: &str) {
        write(
            &dir.join("Cargo.toml"),
            &format!(
                "[package]\nname = \"{name}\"\nversion = \"{version}\"\n\n[dependencies]\n{lang}"
            ),
        );
    }

    #[test]
    fn an_install_has_both_crates_and_a_checkout_finds_lang_by_path() {
        let root = std::env::temp_dir().join(format!("isu-api-crates-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let v = isu_plugin_api::lang::VERSION;
        let crates = root.join("opt").join(SHARE_CRATES);
        let api = crates.join(format!("{PLUGIN_API}-{v}"));
        krate(
            &api,
            PLUGIN_API,
            v,
            &format!("[dependencies.isu_lang]\nversion = \"{v}\"\n"),
        );
        krate(&crates.join(format!("{LANG}-{v}")), LANG, v, "");
        let env = Env {
            exe: Some(root.join("opt/bin/isu")),
            ..Env::default()
        };
        let found = ApiCrates::of_this_isu(&env);
        let found = found.unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(found.origin, Origin::Install);
        assert_eq!(
            found.patch(),
            [
                (PLUGIN_API, api.as_path()),
                (LANG, crates.join(format!("{LANG}-{v}")).as_path())
            ]
        );
        assert!(!found.lang_from_registry);

        let checkout = root.join("repo/plugin-api");
        krate(
            &checkout,
            PLUGIN_API,
            v,
            &format!("isu_lang = {{ version = \"{v}\", path = \"../lang\" }}\n"),
        );
        let c = ApiCrates::at(&checkout, Origin::Given).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.patch(), [(PLUGIN_API, checkout.as_path())]);

        let alone = root.join("alone/plugin-api");
        krate(&alone, PLUGIN_API, v, &format!("isu_lang = \"{v}\"\n"));
        let a = ApiCrates::at(&alone, Origin::Given).unwrap_or_else(|e| panic!("{e}"));
        assert!(a.lang_from_registry && a.lang.is_none());

        let old = root.join("old/plugin-api");
        krate(&old, PLUGIN_API, "1.0.0", "");
        let refused = ApiCrates::at(&old, Origin::Given);
        assert!(refused.is_err_and(
            |e| e.contains("holds isu_plugin_api 1.0.0, but this isu speaks plugin API")
        ));
        let other = root.join("other");
        krate(&other, "serde", v, "");
        assert!(
            ApiCrates::at(&other, Origin::Given).is_err_and(|e| e.contains("names another crate"))
        );
        assert!(ApiCrates::at(&root.join("none"), Origin::Given)
            .is_err_and(|e| e.contains("holds no Cargo.toml")));

        let nowhere = Env {
            exe: Some(root.join("bare/bin/isu")),
            ..Env::default()
        };
        let looked = ApiCrates::of_this_isu(&nowhere).err().unwrap_or_default();
        assert_eq!(
            looked,
            [root
                .join("bare")
                .join(SHARE_CRATES)
                .join(format!("{PLUGIN_API}-{v}"))]
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
