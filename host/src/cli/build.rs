//! `isu build FILE --target T [-o OUT] [--emit KIND]`: the front end, then
//! the compile of the target's backend plugin; writes the artifacts.

use super::output::{print_json, read_source, report};
use super::plugins::EXIT_PLUGIN;
use super::run::SetArgs;
use super::{Common, Format};
use crate::diag::exit_code;
use crate::plugins::target::{self, BuildError};
use crate::plugins::PluginKind;
use anyhow::{bail, Context, Result};
use isu_plugin_api::{Artifact, CompileOptions};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// The target to compile for (`isu plugins` lists them).
    #[arg(long, short)]
    pub target: String,
    /// Where to write: a file when the build makes one artifact, else (or when
    /// it ends with `/`) a folder, made if missing. Default: the current folder, each artifact under
    /// the name its backend suggests.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// The artifact kinds to emit (repeatable); default: the backend's first.
    #[arg(long)]
    pub emit: Vec<String>,
    #[command(flatten)]
    pub settings: SetArgs,
    #[command(flatten)]
    pub force: super::Force,
}

/// Runs `isu build`; `manifest` is the `--plugins FILE` flag.
pub fn build(args: &Args, manifest: Option<&Path>) -> Result<i32> {
    let format = args.common.format;
    let src = read_source(&args.common.file)?;
    let reg = super::plugins::registry(manifest, &[PluginKind::Backend, PluginKind::Pack]);
    let (program, warnings) = match crate::service::valid(&src, &reg.functions) {
        Ok(v) => (v.program, v.diags),
        Err(diags) => {
            report(format, &diags, Some(&src), Vec::new())?;
            return Ok(exit_code(&diags));
        }
    };
    let options = CompileOptions {
        target: args.target.clone(),
        emit: args.emit.clone(),
        settings: args.settings.settings(),
        ..CompileOptions::default()
    };
    match target::build(&reg, &program, options) {
        Ok(artifacts) => {
            let written = write_artifacts(&artifacts, args.out.as_deref(), args.force.options())?;
            let list: Vec<Value> = artifacts
                .iter()
                .zip(&written)
                .map(|(a, p)| {
                    json!({
                        "kind": a.kind,
                        "path": p.display().to_string(),
                        "bytes": a.bytes.len(),
                        "executable": a.executable,
                    })
                })
                .collect();
            report(
                format,
                &warnings,
                Some(&src),
                vec![
                    ("target", Value::String(args.target.clone())),
                    ("artifacts", Value::Array(list)),
                ],
            )?;
            if format == Format::Human {
                for (a, p) in artifacts.iter().zip(&written) {
                    eprintln!(
                        "wrote {} ({}, {} bytes)",
                        p.display(),
                        a.kind,
                        a.bytes.len()
                    );
                }
            }
            Ok(0)
        }
        Err(BuildError::Program(mut diags)) => {
            let mut all = warnings.clone();
            all.append(&mut diags);
            report(format, &all, Some(&src), Vec::new())?;
            Ok(exit_code(&all))
        }
        Err(e) => {
            match format {
                Format::Json => print_json(&json!({
                    "ok": false,
                    "diagnostics": warnings.iter().map(|d| d.to_json()).collect::<Vec<_>>(),
                    "build_error": build_error_json(&e),
                }))?,
                Format::Human => {
                    report(format, &warnings, Some(&src), Vec::new())?;
                    eprintln!("error: {e}");
                }
            }
            Ok(EXIT_PLUGIN)
        }
    }
}

fn build_error_json(e: &BuildError) -> Value {
    match e {
        BuildError::NoBackend(m) => json!({"code": "no_backend", "message": m}),
        BuildError::Program(_) => json!({"code": "program", "message": e.to_string()}),
        BuildError::Backend(fs) => json!({
            "code": if e.is_unsupported() { "unsupported" } else { "backend_failed" },
            "message": e.to_string(),
            "failures": fs.iter().map(|f| f.to_json()).collect::<Vec<_>>(),
        }),
    }
}

/// Where each artifact goes (see [`Args::out`]). A backend's suggested file
/// name must be a plain name: no folder, not `.` or `..`.
pub fn artifact_paths(artifacts: &[Artifact], out: Option<&Path>) -> Result<Vec<PathBuf>> {
    for a in artifacts {
        let plain = Path::new(&a.file_name)
            .file_name()
            .map(|n| n == a.file_name.as_str());
        if a.file_name.is_empty()
            || a.file_name == "."
            || a.file_name == ".."
            || plain != Some(true)
        {
            bail!(
                "the backend suggested the artifact name {:?}, which is not a plain file name",
                a.file_name
            );
        }
    }
    Ok(match out {
        Some(file) if artifacts.len() == 1 && !names_folder(file) => vec![file.to_owned()],
        Some(dir) => artifacts.iter().map(|a| dir.join(&a.file_name)).collect(),
        None => artifacts
            .iter()
            .map(|a| PathBuf::from(&a.file_name))
            .collect(),
    })
}

/// Whether `-o PATH` names a folder: an existing one, or a path written with a
/// trailing `/`.
fn names_folder(path: &Path) -> bool {
    path.is_dir()
        || path
            .as_os_str()
            .to_string_lossy()
            .ends_with(std::path::MAIN_SEPARATOR)
}

pub(crate) fn write_artifacts(
    artifacts: &[Artifact],
    out: Option<&Path>,
    options: super::write::Options,
) -> Result<Vec<PathBuf>> {
    let paths = artifact_paths(artifacts, out)?;
    if let Some(dir) = out.filter(|d| artifacts.len() > 1 || names_folder(d)) {
        std::fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
    }
    for (a, path) in artifacts.iter().zip(&paths) {
        let options = super::write::Options {
            executable: a.executable,
            ..options
        };
        super::write::write_file(path, &a.bytes, options)?;
    }
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn art(name: &str) -> Artifact {
        Artifact::new("text", name, vec![])
    }

    #[cfg(unix)]
    #[test]
    fn executable_artifacts_are_written_executable() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("isu-build-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_default();
        let arts = [
            Artifact::new("executable", "run_me", b"#!/bin/sh\n".to_vec()).as_executable(),
            art("data.txt"),
        ];
        let paths = write_artifacts(&arts, Some(&dir), Default::default()).unwrap_or_default();
        let mode = |p: &Path| {
            std::fs::metadata(p)
                .map(|m| m.permissions().mode())
                .unwrap_or(0)
        };
        assert_eq!(paths.len(), 2);
        assert_ne!(mode(&paths[0]) & 0o100, 0, "{:o}", mode(&paths[0]));
        assert_eq!(mode(&paths[1]) & 0o111, 0, "{:o}", mode(&paths[1]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn artifacts_go_to_the_file_the_folder_or_here() {
        let one = [art("a.py")];
        let two = [art("a.wat"), art("a.wasm")];
        let p = |arts: &[Artifact], out: Option<&str>| {
            artifact_paths(arts, out.map(Path::new)).map_err(|e| e.to_string())
        };
        assert_eq!(p(&one, None), Ok(vec![PathBuf::from("a.py")]));
        assert_eq!(
            p(&one, Some("out/x.py")),
            Ok(vec![PathBuf::from("out/x.py")])
        );
        assert_eq!(
            p(&two, Some("out")),
            Ok(vec![
                PathBuf::from("out/a.wat"),
                PathBuf::from("out/a.wasm")
            ])
        );
        let tmp = std::env::temp_dir();
        let into_dir = artifact_paths(&one, Some(&tmp)).unwrap_or_default();
        assert_eq!(into_dir, [tmp.join("a.py")]);
        for bad in ["../evil.py", "/etc/passwd", "", "..", "a/b"] {
            let err = p(&[art(bad)], None);
            assert!(
                err.as_ref()
                    .is_err_and(|e| e.contains("not a plain file name")),
                "{bad}: {err:?}"
            );
        }
    }
}
