//! Plugins: finding the manifest ([`manifest`]), loading every plugin it
//! lists with all the checks ([`Registry::load`]), and handing the loaded
//! backends to the rest of the host and the loaded packs' functions to the
//! table of callable functions ([`crate::functions`]).
//!
//! A plugin that cannot be used is refused with a [`PluginError`] naming it
//! and the fix; the host goes on with the others. Loading runs abi_stable's
//! checks and the plugin-API version check (in `isu_plugin_api::abi`), then
//! the host's own ([`checks`]): the info is sane, the manifest and the plugin
//! agree, no target or namespace is claimed twice.

pub mod api_crates;
pub mod checks;
pub mod isolated;
pub mod manifest;
pub mod packs;
pub mod target;
pub mod template;

pub use manifest::{
    Entry, Env, Layer, LayerStatus, Manifest, ManifestError, Place, PluginKind, Shadowed,
    ShadowedBy, State, UnusedDisable,
};

use crate::functions::Functions;
use isu_plugin_api::abi::{self, ApiVersion, ForeignPack, LoadError};
use isu_plugin_api::{Backend, BackendInfo, Pack, PackInfo};
use std::fmt;
use std::path::Path;
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

/// The plugins of every manifest layer: each loaded (or refused), the ones a
/// later layer replaced or disabled (never loaded), and each layer's manifest.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// Every layer, lowest first: its manifest, or where the host looked.
    pub layers: Vec<LayerStatus>,
    /// The plugins in use, in layer order.
    pub plugins: Vec<Plugin>,
    /// Plugins a later layer overrode or disabled.
    pub shadowed: Vec<Shadowed>,
    /// `disable` names that matched no plugin.
    pub unused_disables: Vec<UnusedDisable>,
    /// The functions programs may call, with those of the loaded packs.
    pub functions: Functions,
}

const ALL_KINDS: &[PluginKind] = &[PluginKind::Backend, PluginKind::Pack];

impl Registry {
    /// Reads every manifest layer the CLI's way (`flag` is `--plugins FILE`)
    /// and loads every plugin they list. A layer that cannot be read is
    /// recorded ([`Registry::manifest_errors`]), and so is a plugin that
    /// cannot be loaded; the others are loaded all the same.
    pub fn from_environment(flag: Option<&Path>) -> Registry {
        Registry::from_environment_of(flag, ALL_KINDS)
    }

    /// [`Registry::from_environment`], loading only the plugins of `kinds`
    /// (a command that runs in the interpreter needs the packs only).
    pub fn from_environment_of(flag: Option<&Path>, kinds: &[PluginKind]) -> Registry {
        Registry::from_environment_with(flag, kinds, &Loading::InProcess)
    }

    /// [`Registry::from_environment_of`], the backends loaded as `loading` says.
    pub fn from_environment_with(
        flag: Option<&Path>,
        kinds: &[PluginKind],
        loading: &Loading,
    ) -> Registry {
        let layers = manifest::layers::read_layers(&Env::of_process(flag));
        Registry::load_layers_with(layers, kinds, loading)
    }

    /// Loads every plugin of one manifest, in its order.
    pub fn load(manifest: &Manifest) -> Registry {
        Registry::load_with(manifest, ALL_KINDS, &Loading::InProcess)
    }

    /// The plugins of `kinds` of one manifest, the backends loaded as
    /// `loading` says.
    pub fn load_with(manifest: &Manifest, kinds: &[PluginKind], loading: &Loading) -> Registry {
        let layer = LayerStatus {
            layer: manifest.layer,
            place: manifest.place.clone(),
            state: State::Read(manifest.clone()),
        };
        Registry::load_layers_with(vec![layer], kinds, loading)
    }

    /// Combines the layers and loads the plugins of `kinds` in use, in order.
    /// A later plugin claiming a target or namespace an earlier one holds is
    /// refused.
    pub fn load_layers(layers: Vec<LayerStatus>, kinds: &[PluginKind]) -> Registry {
        Registry::load_layers_with(layers, kinds, &Loading::InProcess)
    }

    /// [`Registry::load_layers`], the backends loaded as `loading` says.
    pub fn load_layers_with(
        layers: Vec<LayerStatus>,
        kinds: &[PluginKind],
        loading: &Loading,
    ) -> Registry {
        let merged = manifest::merge(&layers);
        let mut reg = Registry {
            layers,
            plugins: Vec::new(),
            shadowed: merged.shadowed,
            unused_disables: merged.unused_disables,
            functions: Functions::default(),
        };
        for entry in merged
            .active
            .into_iter()
            .filter(|e| kinds.contains(&e.kind))
        {
            let result = load_entry(&entry, loading).and_then(|loaded| {
                checks::check_against_others(&entry, &loaded, &reg.plugins)?;
                Ok(loaded)
            });
            match (&result, &entry.namespace) {
                (Ok(Loaded::Pack { pack, info }), _) => reg.functions.add_pack(info, pack.clone()),
                (Err(e), Some(ns)) => reg.functions.add_unavailable(
                    ns,
                    format!(
                        "the pack `{ns}` ({}) cannot be loaded: {e}; `isu plugins` shows every plugin and why",
                        entry.origin()
                    ),
                ),
                _ => {}
            }
            reg.plugins.push(Plugin { entry, result });
        }
        for s in &reg.shadowed {
            if let (Some(ns), ShadowedBy::Disable { .. }) = (&s.entry.namespace, &s.by) {
                reg.functions.add_unavailable(
                    ns,
                    format!(
                        "the pack `{ns}` is {}: take `{}` out of that `disable` list to enable it",
                        s.by.describe(),
                        s.entry.name
                    ),
                );
            }
        }
        reg
    }

    /// The manifests that could not be read.
    pub fn manifest_errors(&self) -> Vec<&ManifestError> {
        self.layers
            .iter()
            .filter_map(|l| match &l.state {
                State::Failed(e) => Some(e),
                _ => None,
            })
            .collect()
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
        let refused: Vec<&str> = self
            .plugins
            .iter()
            .filter(|p| p.entry.kind == PluginKind::Backend && p.result.is_err())
            .map(|p| p.entry.name.as_str())
            .collect();
        let see = if refused.is_empty() {
            "`isu plugins` lists them".to_owned()
        } else {
            format!("refused, see `isu plugins`: {}", refused.join(", "))
        };
        let mut why = match self.targets().as_slice() {
            [] if self.plugins.is_empty() => format!(
                "no backend serves target `{target}`: isu finds no plugins ({})",
                self.where_looked()
            ),
            [] => format!(
                "no backend serves target `{target}`: no plugin is a working backend ({see})"
            ),
            known => format!(
                "no backend serves target `{target}`; the plugins serve {} ({see})",
                known.join(", ")
            ),
        };
        if let Some(s) = self.shadowed.iter().find(|s| {
            s.entry.kind == PluginKind::Backend
                && (s.entry.targets.iter().any(|t| t == target) || s.entry.name == target)
        }) {
            why.push_str(&format!(
                "\n  note: plugin `{}` ({}) is {}",
                s.entry.name,
                s.entry.origin(),
                s.by.describe()
            ));
        }
        for e in self.manifest_errors() {
            why.push_str(&format!("\n  note: a manifest was skipped: {e}"));
        }
        if self.plugins.is_empty() && self.shadowed.is_empty() {
            why.push_str(&format!("\n  fix: {}", NO_PLUGINS_FIX));
        }
        Err(why)
    }

    /// Where the host looked for manifests, for a message.
    fn where_looked(&self) -> String {
        let looked: Vec<String> = self
            .layers
            .iter()
            .map(|l| format!("{}: {}", l.layer, l.place))
            .collect();
        format!("no manifest lists any; looked for {}", looked.join(", "))
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

/// What to do when isu has no plugins at all.
pub const NO_PLUGINS_FIX: &str = "use an isu with its plugins beside it (`cargo build --release` in the \
     repository, then target/release/isu; or a folder made by scripts/dist.sh), or register a backend \
     with `isu plugins add FILE`";

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
        (kind, _) => load_library(kind, &entry.file).map_err(|e| {
            let mut refusal = PluginError::from_load(&entry.name, &e);
            match (&e, &entry.place) {
                (LoadError::Missing { .. }, Place::BuiltIn { build, .. }) => {
                    refusal.fix = format!(
                        "build the plugins: `{build}` in the repository (`cargo build -p isu_host` builds isu alone)"
                    );
                }
                (LoadError::LeftOut { fix, .. }, Place::BuiltIn { build, .. }) => {
                    refusal.fix = format!("{fix}, then `{build}` in the repository");
                }
                _ => {}
            }
            refusal
        })?,
    };
    checks::check_info(entry, &loaded)?;
    Ok(loaded)
}

/// Loads the library at `file` as a plugin of `kind`, in this process.
fn load_library(kind: PluginKind, file: &Path) -> Result<Loaded, LoadError> {
    Ok(match kind {
        PluginKind::Backend => {
            let backend = abi::load_backend(file)?;
            let info = backend.info();
            Loaded::Backend {
                api_version: backend.api_version(),
                backend: Arc::new(backend),
                info,
            }
        }
        PluginKind::Pack => {
            let pack = abi::load_pack(file)?;
            let info = pack.info();
            Loaded::Pack {
                pack: Arc::new(pack),
                info,
            }
        }
    })
}

/// Loads the library at `file` as a backend, or else as a pack: what
/// `isu plugins add` registers, of whichever kind it is.
pub fn probe(file: &Path) -> Result<Loaded, LoadError> {
    match load_library(PluginKind::Backend, file) {
        Err(LoadError::Layout {
            summary, details, ..
        }) => match load_library(PluginKind::Pack, file) {
            Err(LoadError::Layout { .. }) => Err(LoadError::Layout {
                expected_kind: "backend or a pack",
                summary,
                details,
            }),
            other => other,
        },
        other => other,
    }
}
