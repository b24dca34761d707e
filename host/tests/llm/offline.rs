//! `isu` run for the repair loop's tests, away from any configured server
//! and with the packs disabled, in a fresh folder of the test's own.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const ISU: &str = env!("CARGO_BIN_EXE_isu");

/// A fresh folder for one test (`TEST-NAME` in cargo's temporary folder),
/// with `no-plugins.toml`, a manifest that disables the system layer's math
/// and text packs (beside a cargo-built isu), so that the reference and the
/// programs are those of the stdlib.
pub fn dir(name: &str) -> PathBuf {
    let d =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", env!("CARGO_CRATE_NAME")));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        d.join("no-plugins.toml"),
        "disable = [\"math\", \"text\"]\n",
    )
    .unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

/// `isu ARGS` in `cwd`, with its `no-plugins.toml` and no `ISU_LLM_*`.
pub fn isu(args: &[&str], cwd: &Path) -> Output {
    Command::new(ISU)
        .args(args)
        .current_dir(cwd)
        .env_remove("ISU_LLM_URL")
        .env_remove("ISU_LLM_MODEL")
        .env_remove("ISU_LLM_KEY")
        .env("ISU_PLUGINS", cwd.join("no-plugins.toml"))
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The sum of an int array: the task of most tests.
pub const TOTAL: [&str; 11] = [
    "gen",
    "add up the numbers",
    "--name",
    "total",
    "--args",
    "xs: int[]",
    "--returns",
    "int",
    "--example",
    "{\"xs\": [1, 2]}=>3",
    "--example={\"xs\": []}=>0",
];

/// The program `total` with `expr` as the loop body's EXPR.
pub fn total_with(expr: &str) -> String {
    format!(
        "META:\n  AUTO_ID: true\nFUNC:\n  NAME: total\n  ARGS: [xs: int[]]\n  RETURNS: int\nIO:\n  INPUT: []\n  OUTPUT: []\nSTATE: [t: int = (const 0)]\nLOCAL: [x: int]\nSTEPS:\n  SEQ: BEGIN\n    LOOP:\n      ITER: (each x (var xs))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: t\n          EXPR: {expr}\n      END\n    RETURN:\n      EXPR: (var t)\n  END\n"
    )
}
