//! Isu's conformance suite on a backend, from the backend's own tests: the
//! suite, the reference interpreter and the plugin host are `isu`'s, so this
//! runs `isu conformance` as a subprocess on the backend's built library,
//! against its expectation file (`conformance.toml`: the cases it does not
//! support and those it is known to fail). A backend crate needs no other
//! dependency than this one for it.
//!
//! ```no_run
//! // tests/conformance.rs of a backend crate `isu_backend_js` serving `js`
//! use isu_plugin_api::conformance::Suite;
//! use std::path::Path;
//!
//! #[test]
//! fn the_suite_runs_as_expected() {
//!     let expect = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance.toml");
//!     let suite = Suite::for_test(env!("CARGO_PKG_NAME"), "js").expecting(expect);
//!     match suite.run() {
//!         Ok(report) => eprintln!("{report}"),
//!         Err(e) => panic!("{e}"),
//!     }
//! }
//! ```
//!
//! `isu` is the program named by the environment variable `ISU`, else `isu`
//! on `PATH` (`isu plugins new` writes `ISU` into the crate's
//! `.cargo/config.toml`). With `ISU_BLESS=1` the expectation file is
//! written from the results instead (`isu conformance --bless`).

use crate::worker::Scratch;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable naming the `isu` to run.
pub const ISU_VARIABLE: &str = "ISU";

/// A run of the conformance suite on one backend library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suite {
    isu: OsString,
    library: PathBuf,
    target: String,
    expect: Option<PathBuf>,
    cases: Vec<PathBuf>,
    bless: bool,
    timeout_secs: Option<u64>,
}

impl Suite {
    /// The suite on the backend library `library` (a path), registered for
    /// the run under the name `target` and run on that target.
    pub fn new(library: impl Into<PathBuf>, target: &str) -> Suite {
        Suite {
            isu: std::env::var_os(ISU_VARIABLE).unwrap_or_else(|| "isu".into()),
            library: library.into(),
            target: target.to_owned(),
            expect: None,
            cases: Vec::new(),
            bless: std::env::var_os("ISU_BLESS").is_some_and(|v| v == "1"),
            timeout_secs: None,
        }
    }

    /// The suite on the library of the crate `crate_name` (a `cdylib`), as
    /// `cargo test` built it for this test: beside the test's executable
    /// (`target/PROFILE/deps/`), else in cargo's profile folder.
    pub fn for_test(crate_name: &str, target: &str) -> Suite {
        let file = format!(
            "{}{}{}",
            std::env::consts::DLL_PREFIX,
            crate_name.replace('-', "_"),
            std::env::consts::DLL_SUFFIX
        );
        let exe = std::env::current_exe().unwrap_or_default();
        let deps = exe.parent().unwrap_or(Path::new("."));
        let beside = deps.join(&file);
        let library = if beside.is_file() {
            beside
        } else {
            deps.parent().unwrap_or(deps).join(&file)
        };
        Suite::new(library, target)
    }

    /// The `isu` to run (instead of `ISU` or `isu` on `PATH`).
    pub fn isu(mut self, isu: impl Into<OsString>) -> Suite {
        self.isu = isu.into();
        self
    }

    /// Holds the results against the expectation file `path`.
    pub fn expecting(mut self, path: impl Into<PathBuf>) -> Suite {
        self.expect = Some(path.into());
        self
    }

    /// Runs the cases of the folder `dir` too (`--cases DIR`).
    pub fn with_cases(mut self, dir: impl Into<PathBuf>) -> Suite {
        self.cases.push(dir.into());
        self
    }

    /// Writes the expectation file from the results instead of holding them
    /// against it (the default: whether `ISU_BLESS` is `1`).
    pub fn blessing(mut self, bless: bool) -> Suite {
        self.bless = bless;
        self
    }

    /// The seconds one compile or run may take (`--timeout`).
    pub fn timeout_secs(mut self, secs: u64) -> Suite {
        self.timeout_secs = Some(secs);
        self
    }

    /// The command line of the run, reading the manifest `manifest`.
    fn command(&self, manifest: &Path) -> Command {
        let mut c = Command::new(&self.isu);
        c.arg("--plugins")
            .arg(manifest)
            .args(["conformance", "--target", &self.target]);
        if let Some(expect) = &self.expect {
            c.arg("--expect").arg(expect);
            if self.bless {
                c.arg("--bless");
            }
        }
        for dir in &self.cases {
            c.arg("--cases").arg(dir);
        }
        if let Some(secs) = self.timeout_secs {
            c.args(["--timeout", &secs.to_string()]);
        }
        c
    }

    /// Runs the suite: `Ok` with `isu`'s report when no case failed (with an
    /// expectation file, when the results are exactly what it says, or it
    /// was written), else `Err` with the report and what went wrong.
    pub fn run(&self) -> Result<String, String> {
        if !self.library.is_file() {
            return Err(format!(
                "the backend library {} is not built (a backend crate is a `cdylib`; `cargo build` or `cargo test` builds it)",
                self.library.display()
            ));
        }
        let library = std::fs::canonicalize(&self.library)
            .map_err(|e| format!("{}: {e}", self.library.display()))?;
        let scratch = Scratch::new("isu-conformance").map_err(|e| e.to_string())?;
        let manifest = scratch.path().join("isu-plugins.toml");
        let text = format!(
            "[[plugin]]\nname = {name}\nkind = \"backend\"\nfile = {file}\ntargets = [{name}]\n",
            name = toml_string(&self.target),
            file = toml_string(&library.display().to_string()),
        );
        std::fs::write(&manifest, text).map_err(|e| format!("{}: {e}", manifest.display()))?;
        let out = self
            .command(&manifest)
            .current_dir(scratch.path())
            .env_remove("ISU_PLUGINS")
            .output()
            .map_err(|e| {
                format!(
                    "cannot run `{}`: {e}; set {ISU_VARIABLE} to the isu program, or put isu on PATH",
                    self.isu.to_string_lossy()
                )
            })?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        match out.status.code() {
            Some(0) => Ok(text),
            Some(6) => Err(format!(
                "{text}the conformance suite found differences on `{}` (`ISU_BLESS=1` rewrites the expectation file from the results, when they are meant)",
                self.target
            )),
            _ => Err(format!(
                "{text}`isu conformance --target {}` could not run the suite ({})",
                self.target, out.status
            )),
        }
    }
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_says_what_the_suite_is() {
        let suite = Suite::new("/b/libx.so", "js")
            .isu("/opt/isu/bin/isu")
            .expecting("/b/conformance.toml")
            .with_cases("/b/cases")
            .blessing(true)
            .timeout_secs(5);
        let c = suite.command(Path::new("/tmp/m.toml"));
        let args: Vec<String> = c
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(c.get_program(), "/opt/isu/bin/isu");
        assert_eq!(
            args.join(" "),
            "--plugins /tmp/m.toml conformance --target js --expect /b/conformance.toml --bless --cases /b/cases --timeout 5"
        );
        let plain = Suite::new("/b/libx.so", "js").blessing(false);
        let args: Vec<String> = plain
            .command(Path::new("m"))
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(args.join(" "), "--plugins m conformance --target js");
    }

    #[test]
    fn manifest_strings_are_toml() {
        assert_eq!(
            toml_string("/a b/\"x\"\\y\u{1}é"),
            "\"/a b/\\\"x\\\"\\\\y\\u0001é\""
        );
    }

    #[test]
    fn a_library_that_is_not_built_is_said_so() {
        let err = Suite::new("/nonexistent/libx.so", "x").run();
        assert!(err.is_err_and(|e| e.contains("is not built")));
    }
}
