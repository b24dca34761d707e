//! Native files from the module's object: with the driver's object
//! ([`crate::module::DRIVER_O`]) merged into one relocatable object, or
//! linked into an executable against libc, by the system C compiler (`cc`,
//! or `$CC`), in a scratch folder of its own.

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
        let dir = std::env::temp_dir().join(format!("isu-llvm-{what}-{}-{n}", std::process::id()));
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

/// What to make of the program's object and the driver's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// One relocatable object (`cc -r`): `cc NAME.o -o NAME` links it.
    Object,
    /// An executable.
    Executable,
}

/// Links `object` with the driver into `what`, named for `name`; its bytes.
pub fn link(object: &[u8], name: &str, what: Output) -> Result<Vec<u8>, BuildError> {
    let scratch = Scratch::new("link").map_err(BuildError::Llvm)?;
    let obj = scratch.path(&format!("{name}.program.o"));
    let driver = scratch.path("isu_driver.o");
    let out_path = scratch.path(match what {
        Output::Object => "out.o",
        Output::Executable => "out",
    });
    for (path, bytes) in [(&obj, object), (&driver, crate::module::DRIVER_O)] {
        std::fs::write(path, bytes)
            .map_err(|e| BuildError::Llvm(format!("writing {}: {e}", path.display())))?;
    }
    let cc = cc();
    let mut cmd = Command::new(&cc);
    if what == Output::Object {
        cmd.arg("-r");
    }
    let exe = out_path;
    cmd.arg("-o").arg(&exe).arg(&obj).arg(&driver);
    if what == Output::Executable {
        // floor, ceil, trunc and roundeven, which a CPU without SSE4.1
        // leaves to libm (spec/llvm-abi.md).
        cmd.arg("-lm");
    }
    let out = cmd.output().map_err(|e| {
        BuildError::Llvm(format!(
            "running the C compiler `{}` to link: {e} (install gcc or clang, or set CC)",
            cc.display()
        ))
    })?;
    if !out.status.success() {
        return Err(BuildError::Llvm(format!(
            "`{}` could not link the executable: {}",
            cc.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    read(&exe)
}

fn read(path: &Path) -> Result<Vec<u8>, BuildError> {
    std::fs::read(path).map_err(|e| BuildError::Llvm(format!("reading {}: {e}", path.display())))
}
