//! The plugin manifest, `isu-plugins.toml`, and where the host looks for it.
//!
//! ```toml
//! [[plugin]]
//! name = "python"
//! kind = "backend"
//! file = "target/debug/isu_backend_python"   # relative to this file
//! targets = ["python"]
//!
//! [[plugin]]
//! name = "math"
//! kind = "pack"
//! file = "target/debug/isu_pack_math"
//! namespace = "math"
//! ```
//!
//! A `file` without an extension names the library the platform's way:
//! `libNAME.so` (Linux), `libNAME.dylib` (macOS), `NAME.dll` (Windows), in
//! the same folder.

use serde::Deserialize;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// The manifest's file name.
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

/// One `[[plugin]]` of the manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub kind: PluginKind,
    /// The library, resolved against the manifest's folder (and the
    /// platform's naming, for a `file` without extension).
    pub file: PathBuf,
    /// For a backend: the targets it is listed for (empty: all it serves).
    pub targets: Vec<String>,
    /// For a pack: its namespace.
    pub namespace: Option<String>,
    /// The line of its `[[plugin]]` header in the manifest.
    pub line: usize,
}

/// Where the manifest came from, in the order the host looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// `--plugins FILE`.
    Flag,
    /// The `ISU_PLUGINS` environment variable.
    Env,
    /// `isu-plugins.toml` in the current folder or one of its ancestors.
    Project,
    /// `isu-plugins.toml` beside the `isu` binary.
    BesideBinary,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Flag => "--plugins",
            Origin::Env => MANIFEST_ENV,
            Origin::Project => "project",
            Origin::BesideBinary => "beside the isu binary",
        }
    }
}

/// A parsed manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    pub path: PathBuf,
    pub origin: Origin,
    pub entries: Vec<Entry>,
}

/// A manifest that cannot be used: unreadable, not TOML, or not of the
/// manifest's shape. `line` and `column` are 1-based, when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestError {
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
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ManifestError {}

/// Finds the manifest: `flag` (`--plugins FILE`), else `env` (the value of
/// `ISU_PLUGINS`), else `isu-plugins.toml` in `cwd` or its nearest ancestor
/// having one, else `isu-plugins.toml` in `exe_dir` (the folder of the `isu`
/// binary). A flag or variable naming a missing file is an error; no manifest
/// at all is `Ok(None)` (no plugins).
pub fn discover(
    flag: Option<&Path>,
    env: Option<OsString>,
    cwd: &Path,
    exe_dir: Option<&Path>,
) -> Result<Option<(PathBuf, Origin)>, ManifestError> {
    let named = |path: PathBuf, origin: Origin, how: &str| {
        if path.is_file() {
            Ok(Some((path, origin)))
        } else {
            Err(ManifestError {
                message: format!("no plugin manifest there (named by {how})"),
                path,
                line: None,
                column: None,
            })
        }
    };
    if let Some(path) = flag {
        return named(path.to_owned(), Origin::Flag, "--plugins");
    }
    if let Some(value) = env.filter(|v| !v.is_empty()) {
        return named(PathBuf::from(value), Origin::Env, MANIFEST_ENV);
    }
    for dir in cwd.ancestors() {
        let candidate = dir.join(MANIFEST_NAME);
        if candidate.is_file() {
            return Ok(Some((candidate, Origin::Project)));
        }
    }
    if let Some(dir) = exe_dir {
        let candidate = dir.join(MANIFEST_NAME);
        if candidate.is_file() {
            return Ok(Some((candidate, Origin::BesideBinary)));
        }
    }
    Ok(None)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
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

/// Reads and checks the manifest at `path`.
pub fn read(path: &Path, origin: Origin) -> Result<Manifest, ManifestError> {
    let text = std::fs::read_to_string(path).map_err(|e| ManifestError {
        path: path.to_owned(),
        line: None,
        column: None,
        message: format!("cannot read it: {e}"),
    })?;
    parse(path, origin, &text)
}

/// Parses manifest text; `path` locates relative `file`s and names errors.
pub fn parse(path: &Path, origin: Origin, text: &str) -> Result<Manifest, ManifestError> {
    let at = |offset: usize, message: String| {
        let (line, column) = line_col(text, offset);
        ManifestError {
            path: path.to_owned(),
            line: Some(line),
            column: Some(column),
            message,
        }
    };
    let raw: RawManifest = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        at(offset, e.message().trim().to_owned())
    })?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut entries: Vec<Entry> = Vec::new();
    for spanned in raw.plugin {
        let start = spanned.span().start;
        let raw = spanned.into_inner();
        let name_at = raw.name.span().start;
        let name = raw.name.into_inner();
        if !is_plugin_name(&name) {
            return Err(at(
                name_at,
                format!("plugin name {name:?} must be lower-case letters, digits, `_` or `-`, starting with a letter"),
            ));
        }
        if let Some(first) = entries.iter().find(|e| e.name == name) {
            return Err(at(
                name_at,
                format!(
                    "a second plugin named `{name}` (the first is on line {})",
                    first.line
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
            file: resolve_file(base, &raw.file),
            name,
            kind: raw.kind,
            targets: raw.targets.unwrap_or_default(),
            namespace: raw.namespace,
            line: line_col(text, start).0,
        });
    }
    Ok(Manifest {
        path: path.to_owned(),
        origin,
        entries,
    })
}

fn is_plugin_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
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

/// `file` against the manifest's folder; without an extension, the platform's
/// library name in the same folder.
fn resolve_file(base: &Path, file: &str) -> PathBuf {
    let path = base.join(file);
    if path.extension().is_some() {
        return path;
    }
    let stem = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = format!(
        "{}{stem}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<Manifest, ManifestError> {
        parse(Path::new("/p/isu-plugins.toml"), Origin::Flag, text)
    }

    #[test]
    fn entries_resolve_files_against_the_manifest() {
        let m = parse_text(
            "[[plugin]]\nname = \"python\"\nkind = \"backend\"\nfile = \"lib/py\"\ntargets = [\"python\"]\n\n\
             [[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = \"/abs/m.so\"\nnamespace = \"math\"\n",
        );
        let Ok(m) = m else {
            panic!("{m:?}");
        };
        assert_eq!(m.entries.len(), 2);
        let py = &m.entries[0];
        let want = format!(
            "/p/lib/{}py{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        );
        assert_eq!(py.file, PathBuf::from(want));
        assert_eq!((py.kind, py.line), (PluginKind::Backend, 1));
        assert_eq!(py.targets, ["python"]);
        let math = &m.entries[1];
        assert_eq!(math.file, PathBuf::from("/abs/m.so"));
        assert_eq!((math.namespace.as_deref(), math.line), (Some("math"), 7));
    }

    #[test]
    fn bad_manifests_say_line_and_column() {
        let cases = [
            ("[[plugin]]\nname = \"a\"\nkind = \"frontend\"\nfile = \"x\"\n", 3, "unknown variant `frontend`"),
            ("[[plugin]]\nname = \"a\"\nkind = \"backend\"\n", 1, "missing field `file`"),
            ("[[plugin]]\nname = \"a\"\nkind = \"backend\"\nfile = \"x\"\ncolour = 1\n", 5, "unknown field `colour`"),
            ("[[plugin]\n", 1, ""),
            ("[[plugin]]\nname = \"A b\"\nkind = \"backend\"\nfile = \"x\"\n", 2, "must be lower-case"),
            (
                "[[plugin]]\nname = \"a\"\nkind = \"backend\"\nfile = \"x\"\n[[plugin]]\nname = \"a\"\nkind = \"backend\"\nfile = \"y\"\n",
                6,
                "a second plugin named `a` (the first is on line 1)",
            ),
            ("[[plugin]]\nname = \"m\"\nkind = \"pack\"\nfile = \"x\"\n", 1, "needs a `namespace`"),
            ("[[plugin]]\nname = \"m\"\nkind = \"backend\"\nfile = \"x\"\nnamespace = \"m\"\n", 1, "only packs"),
        ];
        for (text, line, want) in cases {
            match parse_text(text) {
                Ok(m) => panic!("{text:?} parsed: {m:?}"),
                Err(e) => {
                    assert_eq!(e.line, Some(line), "{text:?}: {e}");
                    assert!(e.column.is_some(), "{e}");
                    assert!(e.message.contains(want), "{text:?}: {e}");
                    assert!(e
                        .to_string()
                        .starts_with(&format!("/p/isu-plugins.toml:{line}:")));
                }
            }
        }
    }

    #[test]
    fn discovery_order_is_flag_env_project_binary() {
        let root = std::env::temp_dir().join(format!("isu-discover-{}", std::process::id()));
        let project = root.join("project");
        let nested = project.join("a/b");
        let bin = root.join("bin");
        for d in [&nested, &bin] {
            std::fs::create_dir_all(d).unwrap_or_default();
        }
        let flag = root.join("flag.toml");
        let env = root.join("env.toml");
        for f in [
            &flag,
            &env,
            &project.join(MANIFEST_NAME),
            &bin.join(MANIFEST_NAME),
        ] {
            std::fs::write(f, "").unwrap_or_default();
        }
        let d = |flag: Option<&Path>, env: Option<&Path>, cwd: &Path| {
            discover(flag, env.map(|p| p.as_os_str().to_owned()), cwd, Some(&bin))
        };
        assert_eq!(
            d(Some(&flag), Some(&env), &nested),
            Ok(Some((flag.clone(), Origin::Flag)))
        );
        assert_eq!(
            d(None, Some(&env), &nested),
            Ok(Some((env.clone(), Origin::Env)))
        );
        assert_eq!(
            d(None, None, &nested),
            Ok(Some((project.join(MANIFEST_NAME), Origin::Project)))
        );
        assert_eq!(
            d(None, None, &root),
            Ok(Some((bin.join(MANIFEST_NAME), Origin::BesideBinary)))
        );
        assert_eq!(discover(None, None, &root, None), Ok(None));
        let missing = root.join("missing.toml");
        let err = d(Some(&missing), None, &root).map_err(|e| e.to_string());
        assert!(
            err.as_ref().is_err_and(|e| e.contains("--plugins")),
            "{err:?}"
        );
        let err = d(None, Some(&missing), &root).map_err(|e| e.to_string());
        assert!(
            err.as_ref().is_err_and(|e| e.contains(MANIFEST_ENV)),
            "{err:?}"
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("ab\ncdé f", 9), (2, 6));
        assert_eq!(line_col("", 5), (1, 1));
    }
}
