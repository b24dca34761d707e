//! Plugins: finding the manifest ([`manifest`]), loading every plugin it
//! lists with all the checks ([`Registry::load`]), and handing the loaded
//! backends and pack functions to the rest of the host.
//!
//! A plugin that cannot be used is refused with a [`PluginError`] naming it
//! and the fix; the host goes on with the others. Loading runs abi_stable's
//! checks and the plugin-API version check (in `isu_plugin_api::abi`), then
//! the host's own ([`checks`]): the info is sane, the manifest and the plugin
//! agree, no target or namespace is claimed twice.

pub mod checks;
pub mod isolated;
pub mod manifest;
pub mod packs;
pub mod target;

pub use manifest::{Entry, Manifest, ManifestError, Origin, PluginKind};
pub use packs::{PackFn, PackFunctions};

use isu_plugin_api::abi::{self, ApiVersion, ForeignPack, LoadError};
use isu_plugin_api::{Backend, BackendInfo, Pack, PackInfo};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why one plugin is refused: what is wrong and what to do, for people; a
/// stable `code` for JSON; the long form behind `--verbose`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginError {
    /// The plugin's name in the manifest.
    pub plugin: String,
    /// `missing_file`, `abi_stable_version`, `layout_mismatch`,
    /// `plugin_api_version`, `duplicate_target`, `bad_info`, ...
    pub code: &'static str,
    pub message: String,
    pub fix: String,
    /// The full text, where the message is a summary of it.
    pub details: Option<String>,
}

impl PluginError {
    fn from_load(plugin: &str, e: &LoadError) -> PluginError {
        PluginError {
            plugin: plugin.to_owned(),
            code: e.code(),
            message: e.to_string(),
            fix: e.fix(),
            details: e.details().map(str::to_owned),
        }
    }

    /// A refusal a plugin host reported (its code one of the loader's).
    fn from_refused(plugin: &str, r: &isolated::Refused) -> PluginError {
        let code = LoadError::CODES
            .iter()
            .find(|c| **c == r.code)
            .copied()
            .unwrap_or("init_failed");
        PluginError {
            plugin: plugin.to_owned(),
            code,
            message: r.message.clone(),
            fix: r.fix.clone(),
            details: None,
        }
    }
}

/// Where backends run: loaded into this process (what `isu build` and
/// `isu plugins` do), or each in plugin host processes of its own (what
/// `isu conformance` does), so that a crash of one takes only its process
/// down.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Loading {
    #[default]
    InProcess,
    Isolated(isolated::HostCommand),
}

impl fmt::Display for PluginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "plugin `{}` refused: {}\n  fix: {}",
            self.plugin, self.message, self.fix
        )
    }
}

impl std::error::Error for PluginError {}

/// A backend as the host holds it: loaded in this process, or run in a
/// plugin host process of its own.
pub type SharedBackend = Arc<dyn Backend + Send + Sync>;

/// A loaded, checked plugin.
#[derive(Clone)]
pub enum Loaded {
    Backend {
        backend: SharedBackend,
        info: BackendInfo,
        api_version: ApiVersion,
    },
    Pack {
        pack: Arc<ForeignPack>,
        info: PackInfo,
    },
}

impl fmt::Debug for Loaded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loaded::Backend {
                info, api_version, ..
            } => f
                .debug_struct("Backend")
                .field("info", info)
                .field("api_version", api_version)
                .finish_non_exhaustive(),
            Loaded::Pack { pack, info } => f
                .debug_struct("Pack")
                .field("pack", pack)
                .field("info", info)
                .finish(),
        }
    }
}

impl Loaded {
    pub fn api_version(&self) -> ApiVersion {
        match self {
            Loaded::Backend { api_version, .. } => *api_version,
            Loaded::Pack { pack, .. } => pack.api_version(),
        }
    }

    /// The plugin's own version.
    pub fn version(&self) -> &str {
        match self {
            Loaded::Backend { info, .. } => &info.version,
            Loaded::Pack { info, .. } => &info.version,
        }
    }
}

/// One manifest entry and what loading it gave.
#[derive(Debug, Clone)]
pub struct Plugin {
    pub entry: Entry,
    pub result: Result<Loaded, PluginError>,
}

/// Every plugin of one manifest, loaded (or refused).
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// The manifest's path and origin; `None` when no manifest was found.
    pub manifest: Option<(PathBuf, Origin)>,
    pub plugins: Vec<Plugin>,
    /// The functions of the loaded packs.
    pub functions: PackFunctions,
}

/// Where the CLI looks for the manifest: the `--plugins` flag, the
/// `ISU_PLUGINS` variable, the current folder and the `isu` binary's folder.
pub fn discover_from_environment(
    flag: Option<&Path>,
) -> Result<Option<(PathBuf, Origin)>, ManifestError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let exe = std::env::current_exe().ok();
    let exe_dir = exe.as_deref().and_then(Path::parent);
    manifest::discover(
        flag,
        std::env::var_os(manifest::MANIFEST_ENV),
        &cwd,
        exe_dir,
    )
}

impl Registry {
    /// Finds the manifest the CLI's way and loads every plugin of it. A
    /// manifest that cannot be read or parsed is an error; a plugin that
    /// cannot be loaded is not (it is recorded as refused).
    pub fn from_environment(flag: Option<&Path>) -> Result<Registry, ManifestError> {
        Registry::from_environment_of(flag, &[PluginKind::Backend, PluginKind::Pack])
    }

    /// [`Registry::from_environment`], loading only the plugins of `kinds`
    /// (a command that runs in the interpreter needs the packs only).
    pub fn from_environment_of(
        flag: Option<&Path>,
        kinds: &[PluginKind],
    ) -> Result<Registry, ManifestError> {
        Registry::from_environment_with(flag, kinds, &Loading::InProcess)
    }

    /// [`Registry::from_environment_of`], the backends loaded as `loading` says.
    pub fn from_environment_with(
        flag: Option<&Path>,
        kinds: &[PluginKind],
        loading: &Loading,
    ) -> Result<Registry, ManifestError> {
        match discover_from_environment(flag)? {
            Some((path, origin)) => Ok(Registry::load_with(
                &manifest::read(&path, origin)?,
                kinds,
                loading,
            )),
            None => Ok(Registry::default()),
        }
    }

    /// Loads every plugin of `manifest`, in its order. A later plugin claiming
    /// a target or namespace an earlier one holds is refused.
    pub fn load(manifest: &Manifest) -> Registry {
        Registry::load_of(manifest, &[PluginKind::Backend, PluginKind::Pack])
    }

    /// [`Registry::load`] of the plugins of `kinds` only.
    pub fn load_of(manifest: &Manifest, kinds: &[PluginKind]) -> Registry {
        Registry::load_with(manifest, kinds, &Loading::InProcess)
    }

    /// [`Registry::load_of`], the backends loaded as `loading` says.
    pub fn load_with(manifest: &Manifest, kinds: &[PluginKind], loading: &Loading) -> Registry {
        let mut reg = Registry {
            manifest: Some((manifest.path.clone(), manifest.origin)),
            plugins: Vec::new(),
            functions: PackFunctions::default(),
        };
        for entry in manifest.entries.iter().filter(|e| kinds.contains(&e.kind)) {
            let result = load_entry(entry, loading).and_then(|loaded| {
                checks::check_against_others(entry, &loaded, &reg.plugins)?;
                Ok(loaded)
            });
            if let Ok(Loaded::Pack { pack, info }) = &result {
                reg.functions.add_pack(pack.clone(), info);
            }
            reg.plugins.push(Plugin {
                entry: entry.clone(),
                result,
            });
        }
        reg
    }

    /// The backend serving `target`, or why there is none.
    pub fn backend(&self, target: &str) -> Result<(&Entry, SharedBackend), String> {
        for p in &self.plugins {
            if let Ok(Loaded::Backend { backend, info, .. }) = &p.result {
                if serves(&p.entry, target) && info.targets.iter().any(|t| t == target) {
                    return Ok((&p.entry, backend.clone()));
                }
            }
        }
        // A refused backend meant for this target: listed for it, or named so.
        let meant = self.plugins.iter().find(|p| {
            p.entry.kind == PluginKind::Backend
                && (p.entry.targets.iter().any(|t| t == target) || p.entry.name == target)
        });
        if let Some(Plugin { result: Err(e), .. }) = meant {
            return Err(e.to_string());
        }
        let known = self.targets();
        let manifest = match &self.manifest {
            Some((path, _)) => format!("the manifest {}", path.display()),
            None => format!(
                "no plugin manifest (looked for --plugins, {}, {} here and above, and beside isu)",
                manifest::MANIFEST_ENV,
                manifest::MANIFEST_NAME
            ),
        };
        let refused: Vec<&str> = self
            .plugins
            .iter()
            .filter(|p| p.entry.kind == PluginKind::Backend && p.result.is_err())
            .map(|p| p.entry.name.as_str())
            .collect();
        let refused = if refused.is_empty() {
            String::new()
        } else {
            format!(" (refused, see `isu plugins`: {})", refused.join(", "))
        };
        Err(if known.is_empty() {
            format!(
                "no backend serves target `{target}`: {manifest} lists no working backend{refused}"
            )
        } else {
            format!(
                "no backend serves target `{target}`; {manifest} has: {}{refused}",
                known.join(", ")
            )
        })
    }

    /// The targets of the loaded backends, in manifest order.
    pub fn targets(&self) -> Vec<String> {
        let mut out = Vec::new();
        for p in &self.plugins {
            if let Ok(Loaded::Backend { info, .. }) = &p.result {
                for t in &info.targets {
                    if serves(&p.entry, t) && !out.contains(t) {
                        out.push(t.clone());
                    }
                }
            }
        }
        out
    }

    /// Every loaded backend with the targets it is used for, in manifest order.
    pub fn backends(&self) -> Vec<(&Entry, SharedBackend, Vec<String>)> {
        let mut out = Vec::new();
        for p in &self.plugins {
            if let Ok(Loaded::Backend { backend, info, .. }) = &p.result {
                let targets: Vec<String> = info
                    .targets
                    .iter()
                    .filter(|t| serves(&p.entry, t))
                    .cloned()
                    .collect();
                out.push((&p.entry, backend.clone(), targets));
            }
        }
        out
    }

    /// The plugins that were refused.
    pub fn errors(&self) -> Vec<&PluginError> {
        self.plugins
            .iter()
            .filter_map(|p| p.result.as_ref().err())
            .collect()
    }
}

/// Whether the manifest lists `entry` for `target` (an entry without
/// `targets` is listed for every target its plugin serves).
fn serves(entry: &Entry, target: &str) -> bool {
    entry.targets.is_empty() || entry.targets.iter().any(|t| t == target)
}

fn load_entry(entry: &Entry, loading: &Loading) -> Result<Loaded, PluginError> {
    let loaded = match (entry.kind, loading) {
        (PluginKind::Backend, Loading::Isolated(command)) => {
            let backend = isolated::IsolatedBackend::start(command, &entry.file)
                .map_err(|r| PluginError::from_refused(&entry.name, &r))?;
            Loaded::Backend {
                info: backend.info(),
                api_version: backend.api_version(),
                backend: Arc::new(backend),
            }
        }
        (PluginKind::Backend, Loading::InProcess) => {
            let backend = abi::load_backend(&entry.file)
                .map_err(|e| PluginError::from_load(&entry.name, &e))?;
            let info = backend.info();
            Loaded::Backend {
                api_version: backend.api_version(),
                backend: Arc::new(backend),
                info,
            }
        }
        (PluginKind::Pack, _) => {
            let pack =
                abi::load_pack(&entry.file).map_err(|e| PluginError::from_load(&entry.name, &e))?;
            let info = pack.info();
            Loaded::Pack {
                pack: Arc::new(pack),
                info,
            }
        }
    };
    checks::check_info(entry, &loaded)?;
    Ok(loaded)
}
