//! Where the host finds each layer's manifest, and reading them all.
//!
//! The layers, lowest first: the system's (the sysroot beside the binary,
//! `BIN/../lib/isu/plugins/plugins.toml`; for a binary in cargo's build
//! folder, the built-in [`DEFAULT_MANIFEST`](super::DEFAULT_MANIFEST) naming
//! the libraries beside it), the user's, the project's, then the file named by
//! `--plugins` or else `ISU_PLUGINS`. A layer that fails to read or parse is
//! reported with its path, line and column; the others are read all the same.

use super::{absolute, parse, read, Layer, Manifest, ManifestError, Place};
use super::{DEFAULT_MANIFEST, MANIFEST_ENV, MANIFEST_NAME};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The sysroot's plugin folder, relative to the folder above the binary's.
pub const SYSROOT_PLUGINS: &str = "lib/isu/plugins";
/// The sysroot's manifest, in [`SYSROOT_PLUGINS`].
pub const SYSTEM_MANIFEST_NAME: &str = "plugins.toml";
/// The user's manifest, relative to the user's configuration folder.
pub const USER_MANIFEST: &str = "isu/plugins.toml";

/// What the host reads to find the layers: the process's environment, as
/// values (so tests can give their own).
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// `--plugins FILE`.
    pub flag: Option<PathBuf>,
    /// The value of `ISU_PLUGINS`.
    pub isu_plugins: Option<OsString>,
    /// The current folder (absolute).
    pub cwd: PathBuf,
    /// The `isu` binary, links resolved.
    pub exe: Option<PathBuf>,
    /// The value of `XDG_CONFIG_HOME`.
    pub xdg_config_home: Option<OsString>,
    /// The value of `HOME`.
    pub home: Option<OsString>,
}

impl Env {
    /// The environment of this process, with the `--plugins` flag.
    pub fn of_process(flag: Option<&Path>) -> Env {
        let exe = std::env::current_exe().ok();
        Env {
            flag: flag.map(Path::to_path_buf),
            isu_plugins: std::env::var_os(MANIFEST_ENV),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
            exe: exe.map(|e| std::fs::canonicalize(&e).unwrap_or(e)),
            xdg_config_home: std::env::var_os("XDG_CONFIG_HOME"),
            home: std::env::var_os("HOME"),
        }
    }

    /// The user's manifest: `$XDG_CONFIG_HOME/isu/plugins.toml` (when that is
    /// an absolute path), else `$HOME/.config/isu/plugins.toml`; `None`
    /// without either.
    pub fn user_manifest(&self) -> Option<PathBuf> {
        let set = |v: &Option<OsString>| v.as_ref().filter(|v| !v.is_empty()).map(PathBuf::from);
        if let Some(xdg) = set(&self.xdg_config_home).filter(|p| p.is_absolute()) {
            return Some(xdg.join(USER_MANIFEST));
        }
        set(&self.home).map(|h| h.join(".config").join(USER_MANIFEST))
    }

    /// The project's manifest: `isu-plugins.toml` in the current folder or
    /// the nearest folder above that has one.
    pub fn project_manifest(&self) -> Option<PathBuf> {
        self.cwd
            .ancestors()
            .map(|d| d.join(MANIFEST_NAME))
            .find(|p| p.is_file())
    }

    /// Where `isu plugins add --project` writes: the project's manifest, or a
    /// new one in the current folder.
    pub fn project_manifest_or_new(&self) -> PathBuf {
        self.project_manifest()
            .unwrap_or_else(|| self.cwd.join(MANIFEST_NAME))
    }

    /// The system layer's manifest: the sysroot's file, else the built-in
    /// one for a binary in cargo's build folder; `Err` with the path looked at
    /// when there is neither.
    pub fn system_manifest(&self) -> Result<Place, PathBuf> {
        let bin = self.exe.as_deref().and_then(Path::parent);
        let Some(bin) = bin else {
            return Err(PathBuf::from(SYSROOT_PLUGINS).join(SYSTEM_MANIFEST_NAME));
        };
        let file = bin
            .parent()
            .unwrap_or(bin)
            .join(SYSROOT_PLUGINS)
            .join(SYSTEM_MANIFEST_NAME);
        if file.is_file() {
            return Ok(Place::File(file));
        }
        match cargo_build_command(bin) {
            Some(build) => Ok(Place::BuiltIn {
                dir: bin.to_owned(),
                build,
            }),
            None => Err(file),
        }
    }

    /// The file named by `--plugins`, else by `ISU_PLUGINS`, made absolute.
    fn explicit(&self) -> Option<(Layer, PathBuf)> {
        let (layer, path) = match (&self.flag, &self.isu_plugins) {
            (Some(flag), _) => (Layer::Flag, flag.clone()),
            (None, Some(v)) if !v.is_empty() => (Layer::Env, PathBuf::from(v)),
            _ => return None,
        };
        Some((layer, absolute(&self.cwd.join(path))))
    }
}

/// The cargo command that builds the plugins into `bin`, when `bin` is one
/// of cargo's profile folders (`target/debug`, `target/release`): it has
/// cargo's `.fingerprint` and `deps` folders.
fn cargo_build_command(bin: &Path) -> Option<String> {
    if !(bin.join(".fingerprint").is_dir() && bin.join("deps").is_dir()) {
        return None;
    }
    let profile = bin.file_name()?.to_string_lossy().into_owned();
    Some(match profile.as_str() {
        "debug" => "cargo build".to_owned(),
        "release" => "cargo build --release".to_owned(),
        other => format!("cargo build --profile {other}"),
    })
}

/// One layer: where the host looked and what it found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayerStatus {
    pub layer: Layer,
    /// The manifest, or the file the host looked for.
    pub place: Place,
    pub state: State,
}

/// What a layer holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// Its manifest, read.
    Read(Manifest),
    /// There is no manifest for this layer (not an error).
    Absent,
    /// Its manifest cannot be used.
    Failed(ManifestError),
}

/// Finds and reads every layer, lowest first. The `--plugins`/`ISU_PLUGINS`
/// layer is left out when neither is given.
pub fn read_layers(env: &Env) -> Vec<LayerStatus> {
    let mut out = Vec::new();
    out.push(match env.system_manifest() {
        Ok(place) => read_place(Layer::System, place),
        Err(looked) => absent(Layer::System, looked),
    });
    out.push(match env.user_manifest() {
        Some(path) if path.is_file() => read_place(Layer::User, Place::File(path)),
        Some(path) => absent(Layer::User, path),
        None => absent(Layer::User, PathBuf::from("~/.config").join(USER_MANIFEST)),
    });
    out.push(match env.project_manifest() {
        Some(path) => read_place(Layer::Project, Place::File(path)),
        None => absent(Layer::Project, env.cwd.join(MANIFEST_NAME)),
    });
    if let Some((layer, path)) = env.explicit() {
        out.push(if path.is_file() {
            read_place(layer, Place::File(path))
        } else {
            LayerStatus {
                layer,
                place: Place::File(path.clone()),
                state: State::Failed(ManifestError {
                    layer,
                    path,
                    line: None,
                    column: None,
                    message: format!("there is no plugin manifest there (named by {layer})"),
                }),
            }
        });
    }
    out
}

fn absent(layer: Layer, looked: PathBuf) -> LayerStatus {
    LayerStatus {
        layer,
        place: Place::File(looked),
        state: State::Absent,
    }
}

/// Reads the manifest of one layer.
pub fn read_place(layer: Layer, place: Place) -> LayerStatus {
    let result = match &place {
        Place::File(path) => read(path, layer),
        Place::BuiltIn { .. } => parse(&place, layer, DEFAULT_MANIFEST),
    };
    LayerStatus {
        layer,
        place,
        state: match result {
            Ok(m) => State::Read(m),
            Err(e) => State::Failed(e),
        },
    }
}
