//! The project root: the folder that every path a command reads or writes on a
//! user's behalf (a memory store, later the objects an MCP client names) must
//! stay inside.
//!
//! The root is the nearest folder, from the current one upwards, that holds
//! `isu-plugins.toml` or `.git`; with neither anywhere above, the current
//! folder. A `--root DIR` flag names it outright.

// A refusal ends the operation: the diagnostic by value keeps the API plain.
#![allow(clippy::result_large_err)]

use crate::diag::{Code, Diagnostic};
use std::path::{Component, Path, PathBuf};

/// The files or folders whose presence marks a project root.
pub const MARKERS: &[&str] = &["isu-plugins.toml", ".git"];

/// A project root: an existing folder, held as its canonical path (symlinks
/// resolved), so that the paths confined to it can be compared by prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectRoot {
    dir: PathBuf,
}

impl ProjectRoot {
    /// The root for a command started in `start`: the nearest folder at or
    /// above it holding one of [`MARKERS`], else `start` itself.
    pub fn discover(start: &Path) -> Result<ProjectRoot, Diagnostic> {
        let start = ProjectRoot::at(start)?;
        let found = start
            .dir
            .ancestors()
            .find(|d| MARKERS.iter().any(|m| d.join(m).exists()));
        Ok(match found {
            Some(dir) => ProjectRoot {
                dir: dir.to_path_buf(),
            },
            None => start,
        })
    }

    /// The root at `dir`, which must be an existing folder.
    pub fn at(dir: &Path) -> Result<ProjectRoot, Diagnostic> {
        match std::fs::canonicalize(dir) {
            Ok(dir) if dir.is_dir() => Ok(ProjectRoot { dir }),
            Ok(_) => Err(root_error(dir, "is not a folder")),
            Err(e) => Err(root_error(dir, &e.to_string())),
        }
    }

    /// The root's canonical path.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Resolves `path` (relative to the root, or absolute) to a path inside the
    /// root, or refuses it. `..` is resolved by name first (so `a/../b` is
    /// `b`); then the deepest part of the path that exists is resolved on disk,
    /// so that a symlink leading out of the root is refused too. The parts that
    /// do not exist yet are plain names below a folder inside the root.
    pub fn confine(&self, path: &Path) -> Result<PathBuf, Diagnostic> {
        let joined = self.dir.join(path);
        let mut normal = PathBuf::new();
        for c in joined.components() {
            match c {
                Component::CurDir => {}
                Component::ParentDir => {
                    normal.pop();
                }
                other => normal.push(other),
            }
        }
        if !normal.starts_with(&self.dir) {
            return Err(self.outside(path));
        }
        // The deepest existing ancestor, resolved on disk, then the rest by name.
        let mut rest = Vec::new();
        let mut existing = normal.as_path();
        let resolved = loop {
            match std::fs::canonicalize(existing) {
                Ok(p) => break p,
                Err(_) => match (existing.parent(), existing.file_name()) {
                    (Some(parent), Some(name)) => {
                        rest.push(name.to_owned());
                        existing = parent;
                    }
                    _ => return Err(self.outside(path)),
                },
            }
        };
        if !resolved.starts_with(&self.dir) {
            return Err(self.outside(path));
        }
        Ok(rest.iter().rev().fold(resolved, |p, name| p.join(name)))
    }

    fn outside(&self, path: &Path) -> Diagnostic {
        Diagnostic::error(
            Code::PathOutsideRoot,
            format!(
                "`{}` leads outside the project root {}",
                path.display(),
                self.dir.display()
            ),
        )
        .with_hint(
            "name a path inside the project root (the nearest folder above holding isu-plugins.toml or .git), or choose another root with --root",
        )
    }
}

fn root_error(dir: &Path, why: &str) -> Diagnostic {
    Diagnostic::error(
        Code::PathOutsideRoot,
        format!("the project root {} cannot be used: {why}", dir.display()),
    )
    .with_hint("pass --root with an existing folder")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../target/tmp/root-tests")
            .join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        std::fs::canonicalize(&dir).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn discover_finds_the_nearest_marked_folder() {
        let dir = scratch("discover");
        let inner = dir.join("a/b");
        std::fs::create_dir_all(&inner).unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(dir.join("a/.git")).unwrap_or_else(|e| panic!("{e}"));
        let root = ProjectRoot::discover(&inner).unwrap_or_else(|d| panic!("{d:?}"));
        assert_eq!(root.dir(), dir.join("a"));
        std::fs::write(dir.join("a/b/isu-plugins.toml"), "").unwrap_or_else(|e| panic!("{e}"));
        let root = ProjectRoot::discover(&inner).unwrap_or_else(|d| panic!("{d:?}"));
        assert_eq!(root.dir(), inner);
    }

    #[test]
    fn confine_keeps_paths_inside_and_refuses_escapes() {
        let dir = scratch("confine");
        let root = ProjectRoot::at(&dir).unwrap_or_else(|d| panic!("{d:?}"));
        let ok = |p: &str| {
            root.confine(Path::new(p))
                .unwrap_or_else(|d| panic!("{p}: {d:?}"))
        };
        assert_eq!(ok(".isu/memory.jsonl"), dir.join(".isu/memory.jsonl"));
        assert_eq!(ok("./a/../b.jsonl"), dir.join("b.jsonl"));
        assert_eq!(ok(&dir.join("x/y").display().to_string()), dir.join("x/y"));
        for bad in ["../x.jsonl", "a/../../x", "/etc/passwd", "/"] {
            let d = root.confine(Path::new(bad)).err();
            assert_eq!(d.map(|d| d.code), Some(Code::PathOutsideRoot), "{bad}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn confine_refuses_a_symlink_out_of_the_root() {
        let dir = scratch("symlink");
        let outside = scratch("symlink-outside");
        std::os::unix::fs::symlink(&outside, dir.join("out")).unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(dir.join("in-target"), dir.join("in"))
            .unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(dir.join("in-target")).unwrap_or_else(|e| panic!("{e}"));
        let root = ProjectRoot::at(&dir).unwrap_or_else(|d| panic!("{d:?}"));
        for bad in ["out/m.jsonl", "out/new/m.jsonl", "out"] {
            let d = root.confine(Path::new(bad)).err();
            assert_eq!(d.map(|d| d.code), Some(Code::PathOutsideRoot), "{bad}");
        }
        let inside = root.confine(Path::new("in/m.jsonl"));
        assert_eq!(inside.ok(), Some(dir.join("in-target/m.jsonl")));
    }
}
