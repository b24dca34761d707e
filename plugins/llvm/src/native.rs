//! The executable: the module's object file linked with the system C
//! compiler (`cc`, or `$CC`) against libc, in a scratch folder of its own.

use crate::module::BuildError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// A folder under the system's temporary folder, removed when dropped.
#[derive(Debug)]
pub struct Scratch {
    pub dir: PathBuf,
}

impl Scratch {
    pub fn new(what: &str) -> Result<Scratch, String> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "isu-llvm-{what}-{}-{n}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| format!("making {}: {e}", dir.display()))?;
        Ok(Scratch { dir })
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The C compiler that links: `$CC`, else `cc`.
fn cc() -> PathBuf {
    std::env::var_os("CC")
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from("cc"), PathBuf::from)
}

/// Links `object` into an executable named `name`; its bytes.
pub fn link(object: &[u8], name: &str) -> Result<Vec<u8>, BuildError> {
    let scratch = Scratch::new("link").map_err(BuildError)?;
    let obj = scratch.path(&format!("{name}.o"));
    let exe = scratch.path(name);
    std::fs::write(&obj, object).map_err(|e| BuildError(format!("writing {}: {e}", obj.display())))?;
    let cc = cc();
    let out = Command::new(&cc)
        .arg("-o")
        .arg(&exe)
        .arg(&obj)
        .output()
        .map_err(|e| {
            BuildError(format!(
                "running the C compiler `{}` to link: {e} (install gcc or clang, or set CC)",
                cc.display()
            ))
        })?;
    if !out.status.success() {
        return Err(BuildError(format!(
            "`{}` could not link the executable: {}",
            cc.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    read(&exe)
}

fn read(path: &Path) -> Result<Vec<u8>, BuildError> {
    std::fs::read(path).map_err(|e| BuildError(format!("reading {}: {e}", path.display())))
}
