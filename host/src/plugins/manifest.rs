//! Plugin manifests: their TOML form ([`parse`]), the layers the host reads
//! them from ([`layers`]), how the layers combine ([`merge`]) and how
//! `isu plugins add|remove` edit one ([`edit`]).
//!
//! ```toml
//! disable = ["toy"]          # plugins of earlier layers not to load
//!
//! [[plugin]]
//! name = "python"
//! kind = "backend"
//! file = "isu_backend_python"   # relative to this file's folder
//! targets = ["python"]
//!
//! [[plugin]]
//! name = "math"
//! kind = "pack"
//! file = "/opt/isu-math/libisu_pack_math.so"
//! namespace = "math"
//! ```
//!
//! Every `file` is made absolute against the manifest's folder when the
//! manifest is read, so the dynamic loader never searches for it. A `file`
//! naming no existing file and without an extension names the library the
//! platform's way: `libNAME.so` (Linux), `libNAME.dylib` (macOS), `NAME.dll`
//! (Windows), in the same folder.

pub mod edit;
pub mod layers;
mod merge;

pub use layers::{Env, LayerStatus, State};
pub use merge::{merge, Merged, Shadowed, ShadowedBy, UnusedDisable};

use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// The project manifest's file name.
pub const MANIFEST_NAME: &str = "isu-plugins.toml";
/// The environment variable naming a manifest.
pub const MANIFEST_ENV: &str = "ISU_PLUGINS";

/// What a plugin is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PluginKind {
    Backend,
    Pack,
}

impl PluginKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PluginKind::Backend => "backend",
            PluginKind::Pack => "pack",
        }
    }
}

/// A layer of manifests, lowest first. A later layer adds plugins, replaces
/// an earlier layer's plugin of the same name, and can disable one by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    /// The sysroot's manifest, beside the binary (`BIN/../lib/isu/plugins/plugins.toml`),
    /// or the built-in one for a binary in cargo's build folder.
    System,
    /// `$XDG_CONFIG_HOME/isu/plugins.toml`, else `~/.config/isu/plugins.toml`.
    User,
    /// `isu-plugins.toml` in the current folder or the nearest one above.
    Project,
    /// The file named by `ISU_PLUGINS`.
    Env,
    /// The file named by `--plugins FILE` (which stands in for `ISU_PLUGINS`).
    Flag,
}

impl Layer {
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::System => "system",
            Layer::User => "user",
            Layer::Project => "project",
            Layer::Env => MANIFEST_ENV,
            Layer::Flag => "--plugins",
        }
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a manifest's text is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A manifest file (an absolute path).
    File(PathBuf),
    /// The manifest built into `isu` ([`DEFAULT_MANIFEST`]), used for a binary
    /// in cargo's build folder `dir`, where the plugin libraries are built
    /// beside it; `build` is the cargo command that builds them.
    BuiltIn { dir: PathBuf, build: String },
}

/// The plugins that ship with `isu`: the sysroot's `plugins.toml` as
/// `scripts/dist.sh` installs it, and the built-in manifest of a binary in
/// cargo's build folder.
pub const DEFAULT_MANIFEST: &str = include_str!("default-plugins.toml");

impl Place {
    /// The folder relative `file`s are read from.
    pub fn folder(&self) -> &Path {
        match self {
            Place::File(path) => path.parent().unwrap_or(Path::new("/")),
            Place::BuiltIn { dir, .. } => dir,
        }
    }

    /// The manifest file, when there is one.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Place::File(path) => Some(path),
            Place::BuiltIn { .. } => None,
        }
    }
}

/// The file's path, or `built-in (for the plugins beside isu in DIR)`.
impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::File(path) => write!(f, "{}", path.display()),
            Place::BuiltIn { dir, .. } => {
                write!(
                    f,
                    "built-in (for the plugins beside isu in {})",
                    dir.display()
                )
            }
        }
    }
}

/// One `[[plugin]]` of a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub kind: PluginKind,
    /// The library: an absolute path, resolved against the manifest's folder
    /// (and the platform's naming, for a `file` without extension).
    pub file: PathBuf,
    /// For a backend: the targets it is listed for (empty: all it serves).
    pub targets: Vec<String>,
    /// For a pack: its namespace.
    pub namespace: Option<String>,
    /// The line of its `[[plugin]]` header in the manifest.
    pub line: usize,
    /// The layer of its manifest.
    pub layer: Layer,
    /// Its manifest.
    pub place: Place,
}

impl Entry {
    /// Where the entry is written: `line 3 of /p/isu-plugins.toml (project)`.
    pub fn origin(&self) -> String {
        origin(self.layer, &self.place, self.line)
    }
}

/// `line N of PLACE (LAYER)`.
pub fn origin(layer: Layer, place: &Place, line: usize) -> String {
    format!("line {line} of {place} ({layer})")
}

/// `disable = ["NAME", ...]`: one name, and the line it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disable {
    pub name: String,
    pub line: usize,
}

/// A parsed manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    pub layer: Layer,
    pub place: Place,
    pub entries: Vec<Entry>,
    /// The plugins of earlier layers it disables.
    pub disable: Vec<Disable>,
}

/// A manifest that cannot be used: unreadable, not TOML, or not of the
/// manifest's shape. `line` and `column` are 1-based, when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestError {
    pub layer: Layer,
    pub path: PathBuf,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, ":{l}:{c}")?;
        }
        write!(f, ": {} ({} manifest)", self.message, self.layer)
    }
}

impl std::error::Error for ManifestError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    #[serde(default)]
    disable: Vec<toml::Spanned<String>>,
    #[serde(default)]
    plugin: Vec<toml::Spanned<RawEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    name: toml::Spanned<String>,
    kind: PluginKind,
    file: String,
    #[serde(default)]
    targets: Option<Vec<String>>,
    #[serde(default)]
    namespace: Option<String>,
}

/// Reads and checks the manifest file at `path` (made absolute against the
/// current folder) as a manifest of `layer`.
pub fn read(path: &Path, layer: Layer) -> Result<Manifest, ManifestError> {
    let path = absolute(path);
    let text = std::fs::read_to_string(&path).map_err(|e| ManifestError {
        layer,
        path: path.clone(),
        line: None,
        column: None,
        message: format!("cannot read it: {e}"),
    })?;
    parse(&Place::File(path), layer, &text)
}

/// `path` made absolute against the current folder, without resolving links.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

/// `path` made absolute, with its `.` and `..` folded away
/// (`/p/sub/../target/x` is `/p/target/x`): how a manifest stores it.
pub fn normalised(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in absolute(path).components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The names of the plugins that ship with `isu` ([`DEFAULT_MANIFEST`]).
pub fn shipped_names() -> Vec<String> {
    let place = Place::BuiltIn {
        dir: PathBuf::from("/"),
        build: String::new(),
    };
    parse(&place, Layer::System, DEFAULT_MANIFEST)
        .map(|m| m.entries.into_iter().map(|e| e.name).collect())
        .unwrap_or_default()
}

/// Parses manifest text of `layer` found at `place`, which locates relative
/// `file`s and names errors.
pub fn parse(place: &Place, layer: Layer, text: &str) -> Result<Manifest, ManifestError> {
    let path = match place {
        Place::File(path) => path.clone(),
        Place::BuiltIn { dir, .. } => dir.join("(built-in plugins.toml)"),
    };
    let at = |offset: usize, message: String| {
        let (line, column) = line_col(text, offset);
        ManifestError {
            layer,
            path: path.clone(),
            line: Some(line),
            column: Some(column),
            message,
        }
    };
    let raw: RawManifest = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        at(offset, e.message().trim().to_owned())
    })?;
    let base = absolute(place.folder());
    let mut disable: Vec<Disable> = Vec::new();
    for spanned in raw.disable {
        let offset = spanned.span().start;
        let name = spanned.into_inner();
        check_name(&name).map_err(|m| at(offset, m))?;
        if let Some(first) = disable.iter().find(|d| d.name == name) {
            let m = format!("`{name}` is disabled twice (first on line {})", first.line);
            return Err(at(offset, m));
        }
        disable.push(Disable {
            name,
            line: line_col(text, offset).0,
        });
    }
    let mut entries: Vec<Entry> = Vec::new();
    for spanned in raw.plugin {
        let start = spanned.span().start;
        let raw = spanned.into_inner();
        let name_at = raw.name.span().start;
        let name = raw.name.into_inner();
        check_name(&name).map_err(|m| at(name_at, m))?;
        if let Some(first) = entries.iter().find(|e| e.name == name) {
            return Err(at(
                name_at,
                format!(
                    "a second plugin named `{name}` (the first is on line {})",
                    first.line
                ),
            ));
        }
        if let Some(d) = disable.iter().find(|d| d.name == name) {
            return Err(at(
                name_at,
                format!(
                    "plugin `{name}` is both listed and disabled (line {}); a manifest disables plugins of earlier layers only",
                    d.line
                ),
            ));
        }
        match raw.kind {
            PluginKind::Backend if raw.namespace.is_some() => {
                return Err(at(
                    start,
                    format!("backend `{name}` has a `namespace`; only packs have one"),
                ))
            }
            PluginKind::Pack if raw.targets.is_some() => {
                return Err(at(
                    start,
                    format!("pack `{name}` has `targets`; only backends have them"),
                ))
            }
            PluginKind::Pack if raw.namespace.is_none() => {
                return Err(at(start, format!("pack `{name}` needs a `namespace`")))
            }
            _ => {}
        }
        entries.push(Entry {
            file: resolve_file(&base, &raw.file),
            name,
            kind: raw.kind,
            targets: raw.targets.unwrap_or_default(),
            namespace: raw.namespace,
            line: line_col(text, start).0,
            layer,
            place: place.clone(),
        });
    }
    Ok(Manifest {
        layer,
        place: place.clone(),
        entries,
        disable,
    })
}

/// Whether `s` may name a plugin: lower-case letters, digits, `_` or `-`,
/// starting with a letter.
pub fn is_plugin_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

fn check_name(name: &str) -> Result<(), String> {
    if is_plugin_name(name) {
        Ok(())
    } else {
        Err(format!(
            "plugin name {name:?} must be lower-case letters, digits, `_` or `-`, starting with a letter"
        ))
    }
}

/// The 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// `file` against the (absolute) manifest folder: the file itself when it
/// exists or has an extension, else the platform's library name in the same
/// folder.
fn resolve_file(base: &Path, file: &str) -> PathBuf {
    let path = absolute(&base.join(file));
    if path.extension().is_some() || path.exists() {
        return path;
    }
    let stem = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(library_file_name(&stem))
}

/// The platform's file name of the library of crate `stem`:
/// `libisu_backend_wasm.so` for `isu_backend_wasm` on Linux.
pub fn library_file_name(stem: &str) -> String {
    format!(
        "{}{stem}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    )
}

#[cfg(test)]
mod tests;
