//! The README's commands, pasted in order into a fresh copy of the
//! repository: every `sh` block runs, top to bottom, in one shell, and each
//! command must succeed (a line ending in `# prints X` must print X). A block
//! right after `<!-- not run by the README test: WHY -->` is left out (it
//! installs outside the copy, or it is this test).
//!
//! `cargo` is a stand-in that puts this test's build where `cargo build`
//! would (cargo's profile folder, with `isu` and, unless `-p isu_host`, the
//! plugin libraries), so the copy is not built again. The plugin libraries
//! are built first (`common::built`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const SKIP: &str = "<!-- not run by the README test:";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The README as a bash script of the same lines: the commands of the `sh`
/// blocks to run where they are, every other line empty (so `$LINENO` is the
/// README's line number).
fn script(readme: &str) -> (String, usize) {
    let mut out = Vec::new();
    let mut blocks = 0;
    let mut in_block = false;
    let mut skip_next = false;
    let mut skipping = false;
    for line in readme.lines() {
        let command = if in_block {
            if line == "```" {
                in_block = false;
                String::new()
            } else if skipping {
                String::new()
            } else {
                checked(line)
            }
        } else {
            if line.starts_with(SKIP) {
                skip_next = true;
            } else if line == "```sh" {
                in_block = true;
                skipping = skip_next;
                skip_next = false;
                blocks += usize::from(!skipping);
            }
            String::new()
        };
        out.push(command);
    }
    assert!(!in_block, "the README ends inside a code block");
    assert!(
        out.first().is_some_and(String::is_empty),
        "line 1 is a command"
    );
    // The stand-in cargo must be the one found, or `cargo build --release` builds for real.
    out[0] = "set -eo pipefail; trap 'echo \"README.md line $LINENO failed (exit $?): $BASH_COMMAND\" >&2' ERR; \
              [ \"$(command -v cargo)\" = \"$ISU_README_CARGO\" ] || { echo 'the stand-in cargo is not first on PATH' >&2; exit 90; }"
        .into();
    (out.join("\n") + "\n", blocks)
}

/// A command line; one ending in `# prints X` checks that it prints X.
fn checked(line: &str) -> String {
    let Some((command, printed)) = line.split_once("# prints ") else {
        return line.to_owned();
    };
    let want = printed.trim().replace('\'', "'\\''");
    format!(
        "out=$( {} ); [ \"$out\" = '{want}' ] || {{ echo \"README.md line $LINENO printed $out, not {want}\" >&2; false; }}",
        command.trim_end()
    )
}

/// Stands in for `cargo build [--release] [--workspace] [-p isu_host]`: puts
/// the test's build (`$ISU_README_BUILD`) into cargo's profile folder.
const CARGO: &str = r#"#!/usr/bin/env bash
set -euo pipefail
[ "${1:-}" = build ] || { echo "the README test knows only \`cargo build\`, not: cargo $*" >&2; exit 2; }
shift
profile=debug
all=1
while [ $# -gt 0 ]; do
    case "$1" in
        --release) profile=release ;;
        --workspace) ;;
        -p) [ "${2:-}" = isu_host ] || { echo "cargo build -p ${2:-}: unknown here" >&2; exit 2; }; all=0; shift ;;
        *) echo "cargo build $1: unknown here" >&2; exit 2 ;;
    esac
    shift
done
out=target/$profile
mkdir -p "$out/.fingerprint" "$out/deps"
put() { ln -f "$1" "$out/" 2>/dev/null || cp -f "$1" "$out/"; }
put "$ISU_README_BUILD/isu"
if [ "$all" = 1 ]; then
    for lib in "$ISU_README_BUILD"/lib*.so "$ISU_README_BUILD"/lib*.dylib; do
        if [ -e "$lib" ]; then put "$lib"; fi
    done
fi
"#;

/// Copies the files git tracks, as they are in the working tree.
fn copy_tracked(to: &Path) {
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(repo())
        .output()
        .unwrap_or_else(|e| panic!("cannot run git: {e}"));
    assert!(listed.status.success(), "git ls-files failed");
    for name in listed.stdout.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name).into_owned();
        let from = repo().join(&name);
        if !from.is_file() {
            continue; // deleted in the working tree
        }
        let dest = to.join(&name);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::copy(&from, &dest).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn the_readme_commands_work_in_order_on_a_fresh_copy() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme");
    let _ = std::fs::remove_dir_all(&tmp);
    let clone = tmp.join("isu");
    copy_tracked(&clone);
    let bin = tmp.join("bin");
    std::fs::create_dir_all(&bin).unwrap_or_else(|e| panic!("{e}"));
    let cargo = bin.join("cargo");
    std::fs::write(&cargo, CARGO).unwrap_or_else(|e| panic!("{e}"));
    let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&cargo, executable).unwrap_or_else(|e| panic!("{e}"));
    let readme = std::fs::read_to_string(clone.join("README.md")).unwrap_or_else(|e| panic!("{e}"));
    let (text, blocks) = script(&readme);
    assert!(blocks >= 6, "{blocks} blocks to run");
    let script_path = tmp.join("readme.sh");
    std::fs::write(&script_path, text).unwrap_or_else(|e| panic!("{e}"));
    // `isu` and every plugin library, as `cargo build` leaves them.
    let build = common::built::workspace();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin.clone()];
    paths.extend(std::env::split_paths(&path));
    let o = Command::new("bash")
        .arg(&script_path)
        .current_dir(&clone)
        .env("PATH", std::env::join_paths(paths).unwrap_or_default())
        .env("ISU_README_BUILD", &build)
        .env("ISU_README_CARGO", &cargo)
        .env("HOME", tmp.join("home"))
        .env("XDG_CONFIG_HOME", tmp.join("config"))
        .env_remove("ISU_PLUGINS")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap_or_else(|e| panic!("cannot run bash: {e}"));
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stderr),
        String::from_utf8_lossy(&o.stdout)
    );
    // What the commands made, and the example they must leave alone.
    for made in [
        "out/sum_evens.wasm",
        "out/sum_evens.py",
        "out/sum_evens.mjs",
        "args.json",
        "run.jsonl",
    ] {
        assert!(clone.join(made).is_file(), "{made}");
    }
    let example = |root: &Path| {
        std::fs::read_to_string(root.join("examples/sum_evens.isu")).unwrap_or_default()
    };
    assert_eq!(example(&clone), example(&repo()));
    assert_ne!(
        std::fs::read_to_string(clone.join("doubled.isu")).unwrap_or_default(),
        example(&repo())
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn the_script_keeps_line_numbers_and_checks_what_lines_print() {
    let readme = "# T\n\n```sh\necho a   # prints a\n```\n<!-- not run by the README test: no -->\n```sh\nrm -rf /\n```\n```text\nx\n```\n";
    let (text, blocks) = script(readme);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(blocks, 1);
    assert_eq!(lines.len(), readme.lines().count());
    assert!(
        lines[3].starts_with("out=$( echo a ); [ \"$out\" = 'a' ]"),
        "{}",
        lines[3]
    );
    assert!(lines.iter().all(|l| !l.contains("rm -rf") && *l != "x"));
}
