//! Finding LLVM 19 and clang 19 for the LLVM backend's build (`build.rs`),
//! by the rules of llvm-sys, whose own search fails the whole build where
//! LLVM is missing (the backend asks llvm-sys not to search: its features
//! `no-llvm-linking` and `disable-alltargets-init`).
//!
//! `llvm-config` is looked for in `$LLVM_SYS_191_PREFIX/bin` alone when that
//! is set (as llvm-sys does); else as `llvm-config-19` on the PATH (Debian's
//! and Ubuntu's name), in Debian's `/usr/lib/llvm-19/bin`, as `llvm-config`
//! on the PATH, and in Homebrew's `llvm@19`. The first of version 19 wins.
//! Its `--bindir` holds clang and llvm-link (else `clang-19` and
//! `llvm-link-19` on the PATH); `ISU_CLANG` and `ISU_LLVM_LINK` name them
//! outright. A missing piece is a [`Missing`], never a failed build.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The LLVM major version the backend builds against (inkwell's and
/// llvm-sys's `191`).
pub const MAJOR: &str = "19";

/// What to do where LLVM 19 or clang 19 is missing.
pub const FIX: &str = "install LLVM 19 and clang 19 (Debian and Ubuntu: `apt-get install llvm-19-dev clang-19`), or set LLVM_SYS_191_PREFIX to the folder of an LLVM 19";

/// What the search reads of the environment, as values (tests give their own).
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// `LLVM_SYS_191_PREFIX`.
    pub prefix: Option<OsString>,
    /// `PATH`.
    pub path: Option<OsString>,
    /// `ISU_CLANG`.
    pub clang: Option<OsString>,
    /// `ISU_LLVM_LINK`.
    pub llvm_link: Option<OsString>,
    /// Folders searched after the PATH's `llvm-config-19` (Debian's).
    pub after_versioned: Vec<PathBuf>,
    /// Folders searched after the PATH's `llvm-config` (Homebrew's).
    pub after_plain: Vec<PathBuf>,
}

impl Env {
    /// This process's environment.
    pub fn of_process() -> Env {
        Env {
            prefix: std::env::var_os("LLVM_SYS_191_PREFIX").filter(|p| !p.is_empty()),
            path: std::env::var_os("PATH"),
            clang: std::env::var_os("ISU_CLANG").filter(|p| !p.is_empty()),
            llvm_link: std::env::var_os("ISU_LLVM_LINK").filter(|p| !p.is_empty()),
            after_versioned: vec![PathBuf::from("/usr/lib/llvm-19/bin")],
            after_plain: vec![
                PathBuf::from("/opt/homebrew/opt/llvm@19/bin"),
                PathBuf::from("/usr/local/opt/llvm@19/bin"),
            ],
        }
    }

    fn on_path(&self, name: &str) -> Vec<PathBuf> {
        self.path
            .as_ref()
            .map(|p| std::env::split_paths(p).map(|d| d.join(name)).collect())
            .unwrap_or_default()
    }

    /// Every `llvm-config` to try, in order.
    fn candidates(&self) -> Vec<PathBuf> {
        if let Some(prefix) = &self.prefix {
            return vec![Path::new(prefix).join("bin").join("llvm-config")];
        }
        let mut all = self.on_path(&format!("llvm-config-{MAJOR}"));
        all.extend(self.after_versioned.iter().map(|d| d.join("llvm-config")));
        all.extend(self.on_path("llvm-config"));
        all.extend(self.after_plain.iter().map(|d| d.join("llvm-config")));
        all
    }
}

/// How LLVM's libraries are linked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Linking {
    /// `libLLVM-19.so`, mapped once by the plugin (what Debian ships).
    Shared,
    /// The component archives, where there is no shared library.
    Static,
}

/// LLVM 19, found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Llvm {
    pub config: PathBuf,
    /// `19.1.7`.
    pub version: String,
    pub bindir: PathBuf,
    pub libdir: PathBuf,
    pub linking: Linking,
    /// The libraries to link, by name (`LLVM-19`).
    pub libs: Vec<String>,
    /// The system libraries LLVM needs besides (for static linking).
    pub system_libs: Vec<String>,
    pub clang: PathBuf,
    pub llvm_link: PathBuf,
}

/// Why the backend cannot be built here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// What is missing and where the search looked, one line.
    pub reason: String,
    /// The files looked for that were not there (the build watches them, so
    /// that installing LLVM is noticed by the next build).
    pub absent: Vec<PathBuf>,
}

/// Runs `llvm-config ARGS`; its output, trimmed, when it succeeds.
fn llvm_config(config: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new(config).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The names of the `-lNAME` words of `flags`.
fn lib_names(flags: &str) -> Vec<String> {
    flags
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("-l"))
        .map(str::to_owned)
        .collect()
}

/// A tool: named by `var`, else `NAME` in LLVM's bindir, else `NAME-19` on
/// the PATH.
fn tool(env: &Env, var: Option<&OsString>, bindir: &Path, name: &str) -> Option<PathBuf> {
    if let Some(p) = var {
        return Some(PathBuf::from(p));
    }
    std::iter::once(bindir.join(name))
        .chain(env.on_path(&format!("{name}-{MAJOR}")))
        .find(|p| p.is_file())
}

/// Finds LLVM 19 and its clang and llvm-link.
pub fn find(env: &Env) -> Result<Llvm, Missing> {
    let mut absent = Vec::new();
    let mut other_versions = Vec::new();
    let mut found = None;
    for config in env.candidates() {
        if !config.is_file() {
            absent.push(config);
            continue;
        }
        match llvm_config(&config, &["--version"]) {
            Some(v) if v.split('.').next() == Some(MAJOR) => {
                found = Some((config, v));
                break;
            }
            Some(v) => other_versions.push(format!("{} is LLVM {v}", config.display())),
            None => other_versions.push(format!("{} does not run", config.display())),
        }
    }
    let Some((config, version)) = found else {
        let looked = match &env.prefix {
            Some(prefix) => format!(
                "LLVM_SYS_191_PREFIX is {}, which has no bin/llvm-config of LLVM {MAJOR}",
                Path::new(prefix).display()
            ),
            None => format!(
                "no llvm-config-{MAJOR} on the PATH, in /usr/lib/llvm-{MAJOR}/bin or Homebrew's llvm@{MAJOR}"
            ),
        };
        let mut reason = format!(
            "the LLVM backend was left out of this build: LLVM {MAJOR} was not found ({looked}"
        );
        for v in &other_versions {
            reason.push_str("; ");
            reason.push_str(v);
        }
        reason.push(')');
        return Err(Missing { reason, absent });
    };
    let ask = |args: &[&str]| {
        llvm_config(&config, args).ok_or_else(|| Missing {
            reason: format!(
                "the LLVM backend was left out of this build: `{} {}` failed",
                config.display(),
                args.join(" ")
            ),
            absent: Vec::new(),
        })
    };
    let bindir = PathBuf::from(ask(&["--bindir"])?);
    let libdir = PathBuf::from(ask(&["--libdir"])?);
    let (linking, libs, system_libs) = match llvm_config(&config, &["--link-shared", "--libs"]) {
        Some(libs) => (Linking::Shared, lib_names(&libs), Vec::new()),
        None => (
            Linking::Static,
            lib_names(&ask(&["--link-static", "--libs"])?),
            lib_names(&ask(&["--link-static", "--system-libs"])?),
        ),
    };
    let missing_tool = |name: &str, package: &str| {
        Missing {
        reason: format!(
            "the LLVM backend was left out of this build: LLVM {version} is at {}, but not {name} {MAJOR} (looked in {} and for {name}-{MAJOR} on the PATH; Debian's package is {package})",
            config.display(),
            bindir.display()
        ),
        absent: vec![bindir.join(name)],
    }
    };
    let clang = tool(env, env.clang.as_ref(), &bindir, "clang")
        .ok_or_else(|| missing_tool("clang", "clang-19"))?;
    let llvm_link = tool(env, env.llvm_link.as_ref(), &bindir, "llvm-link")
        .ok_or_else(|| missing_tool("llvm-link", "llvm-19"))?;
    Ok(Llvm {
        config,
        version,
        bindir,
        libdir,
        linking,
        libs,
        system_libs,
        clang,
        llvm_link,
    })
}
