//! The objects an MCP client sees, by path: the root; `programs` and the
//! folders and Isu programs under the project root, with their steps by step
//! ID; `stdlib` and its functions; `packs`, each loaded pack and its
//! functions; `backends` and each loaded backend.

use super::ops::{self, Interface};
use super::Context;
use crate::diag::{Code, Diagnostic};
use crate::plugins::Loaded;
use crate::source::Source;
use crate::stdlib::{self, StdFn};
use crate::{canon, pipeline};
use isu_plugin_api::{BackendInfo, Program, Step, StepId};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The longest object path a request may name, in bytes.
pub const MAX_PATH_BYTES: usize = 1024;

/// The folders never listed under `programs` (build output, dependencies);
/// hidden folders (`.git`, `.isu`) are never listed either.
const SKIPPED: &[&str] = &["target", "node_modules"];

/// A resolved object.
#[derive(Debug, Clone)]
pub enum Object {
    Root,
    Programs,
    /// A folder under the root holding programs: its path relative to the root.
    Folder(String),
    Program(ProgramFile),
    Step(ProgramFile, StepId),
    Stdlib,
    StdFn(&'static StdFn),
    Packs,
    Pack(String),
    /// A pack function, by its full name (`math.GCD`).
    PackFn(String),
    Backends,
    Backend(String),
}

/// A program file: its object path and its place on disk (inside the root).
#[derive(Debug, Clone)]
pub struct ProgramFile {
    pub path: String,
    pub file: PathBuf,
}

impl ProgramFile {
    /// Reads the file.
    pub fn source(&self) -> Result<Source, Diagnostic> {
        let text = std::fs::read_to_string(&self.file).map_err(|e| {
            Diagnostic::error(
                Code::UnknownObject,
                format!("{} cannot be read: {e}", self.path),
            )
        })?;
        Ok(Source::new(self.path.clone(), text))
    }

    /// The parsed, canonical program (steps, no validation), or its errors.
    pub fn parsed(&self) -> Result<Program, Vec<Diagnostic>> {
        let src = self.source().map_err(|d| vec![d])?;
        let fe = pipeline::parse_canonical(&src);
        match fe.program {
            Some(p) if !crate::diag::has_errors(&fe.diags) => Ok(p),
            _ => Err(fe.diags),
        }
    }
}

impl Object {
    /// The object's kind, as the views name it.
    pub fn kind(&self) -> &'static str {
        match self {
            Object::Root => "root",
            Object::Programs | Object::Folder(_) => "folder",
            Object::Program(_) => "program",
            Object::Step(..) => "step",
            Object::Stdlib => "stdlib",
            Object::StdFn(_) | Object::PackFn(_) => "function",
            Object::Packs => "packs",
            Object::Pack(_) => "pack",
            Object::Backends => "backends",
            Object::Backend(_) => "backend",
        }
    }

    /// The interfaces the object offers, in order.
    pub fn interfaces(&self) -> &'static [Interface] {
        match self {
            Object::Program(_) => &[ops::PROGRAM],
            Object::Step(..) => &[ops::STEP],
            Object::Backend(_) => &[ops::BACKEND],
            Object::StdFn(_) | Object::PackFn(_) => &[ops::FUNCTION],
            _ => &[],
        }
    }
}

/// Resolves an object path. `""` and `"/"` are the root; a path is names
/// joined by `/`, with no empty, `.` or `..` name.
pub fn resolve(ctx: &Context, path: &str) -> Result<Object, Diagnostic> {
    if path.len() > MAX_PATH_BYTES {
        return Err(Diagnostic::error(
            Code::ArgumentTooLarge,
            format!("the path is {} bytes; at most {MAX_PATH_BYTES}", path.len()),
        ));
    }
    let trimmed = path.trim_matches('/');
    if trimmed.is_empty() {
        return Ok(Object::Root);
    }
    let names: Vec<&str> = trimmed.split('/').collect();
    if names.contains(&"..") {
        return Err(Diagnostic::error(
            Code::PathOutsideRoot,
            format!("`{path}` names `..`: object paths never leave the project root"),
        )
        .with_hint("use tree to see the objects under the root"));
    }
    if names
        .iter()
        .any(|n| n.is_empty() || *n == "." || n.contains(['\\', '\0']))
    {
        return Err(unknown(path).with_hint(
            "write a path as names joined by `/`, e.g. programs/examples/sum_evens.isu/S1",
        ));
    }
    let found = match names.as_slice() {
        ["programs"] => Some(Object::Programs),
        ["programs", rest @ ..] => return program_object(ctx, path, rest),
        ["stdlib"] => Some(Object::Stdlib),
        ["stdlib", name] => stdlib::lookup(name).map(Object::StdFn),
        ["packs"] => Some(Object::Packs),
        ["packs", ns] => packs(ctx)
            .contains(&(*ns).to_owned())
            .then(|| Object::Pack((*ns).to_owned())),
        ["packs", ns, name] => {
            let full = format!("{ns}.{name}");
            ctx.registry
                .functions
                .get(&full)
                .map(|_| Object::PackFn(full))
        }
        ["backends"] => Some(Object::Backends),
        ["backends", name] => backend(ctx, name).map(|_| Object::Backend((*name).to_owned())),
        _ => None,
    };
    found.ok_or_else(|| unknown(path))
}

/// `programs/REL...`: a folder, a program file, or a step of one.
fn program_object(ctx: &Context, path: &str, names: &[&str]) -> Result<Object, Diagnostic> {
    let mut rel = PathBuf::new();
    for (i, name) in names.iter().enumerate() {
        rel.push(name);
        let file = ctx.root.confine(&rel)?;
        let hidden = name.starts_with('.') || SKIPPED.contains(name);
        if hidden || !file.exists() {
            return Err(unknown(path));
        }
        if file.is_file() {
            if !name.ends_with(".isu") {
                return Err(unknown(path).with_hint("programs are the files ending in .isu"));
            }
            let program = ProgramFile {
                path: format!("programs/{}", names[..=i].join("/")),
                file,
            };
            return match &names[i + 1..] {
                [] => Ok(Object::Program(program)),
                [id] => match (StepId::parse(id), program.parsed()) {
                    (Some(id), Ok(parsed)) if parsed.find_step(&id).is_some() => {
                        Ok(Object::Step(program, id))
                    }
                    (Some(_), Err(_)) => Err(unknown(path).with_hint(
                        "the program does not parse, so its steps are unknown: check it",
                    )),
                    _ => Err(unknown(path)),
                },
                _ => Err(unknown(path)),
            };
        }
    }
    Ok(Object::Folder(rel.to_string_lossy().into_owned()))
}

fn unknown(path: &str) -> Diagnostic {
    Diagnostic::error(
        Code::UnknownObject,
        format!("there is no object at `{path}`"),
    )
    .with_hint("use tree to see the objects, starting from the root path \"\"")
}

/// The namespaces of the loaded packs, in manifest order.
fn packs(ctx: &Context) -> Vec<String> {
    ctx.registry
        .plugins
        .iter()
        .filter_map(|p| match &p.result {
            Ok(Loaded::Pack { info, .. }) => Some(info.namespace.clone()),
            _ => None,
        })
        .collect()
}

fn backend<'c>(ctx: &'c Context, name: &str) -> Option<&'c BackendInfo> {
    ctx.registry.plugins.iter().find_map(|p| match &p.result {
        Ok(Loaded::Backend { info, .. }) if p.entry.name == name => Some(info),
        _ => None,
    })
}

/// A child in the tree: its name, path and object.
#[derive(Debug)]
pub struct Child {
    pub name: String,
    pub path: String,
    pub object: Object,
}

/// The object's children, in order (for a program that does not parse: the
/// error, since its steps cannot be known).
pub fn children(ctx: &Context, path: &str, object: &Object) -> Result<Vec<Child>, Vec<Diagnostic>> {
    let join = |name: &str| {
        if path.is_empty() {
            name.to_owned()
        } else {
            format!("{path}/{name}")
        }
    };
    let child = |name: String, object: Object| Child {
        path: join(&name),
        name,
        object,
    };
    Ok(match object {
        Object::Root => ["programs", "stdlib", "packs", "backends"]
            .iter()
            .map(|n| child((*n).to_owned(), resolve(ctx, n).unwrap_or(Object::Root)))
            .collect(),
        Object::Programs => folder_children(ctx, "", &child),
        Object::Folder(rel) => folder_children(ctx, rel, &child),
        Object::Program(p) => {
            let program = p.parsed()?;
            step_children(&program.body.steps, p)
        }
        Object::Step(p, id) => {
            let program = p.parsed()?;
            let step = program.find_step(id).ok_or_else(|| vec![unknown(path)])?;
            let blocks = step.node.blocks();
            let steps: Vec<Step> = blocks
                .iter()
                .flat_map(|b| b.steps.iter().cloned())
                .collect();
            step_children(&steps, p)
        }
        Object::Stdlib => stdlib::STDLIB
            .iter()
            .map(|f| child(f.name.to_owned(), Object::StdFn(f)))
            .collect(),
        Object::Packs => packs(ctx)
            .into_iter()
            .map(|ns| child(ns.clone(), Object::Pack(ns)))
            .collect(),
        Object::Pack(ns) => {
            let prefix = format!("{ns}.");
            ctx.registry
                .functions
                .iter()
                .filter_map(|f| {
                    f.name
                        .strip_prefix(&prefix)
                        .map(|local| (local.to_owned(), f.name.clone()))
                })
                .map(|(local, full)| child(local, Object::PackFn(full)))
                .collect()
        }
        Object::Backends => ctx
            .registry
            .plugins
            .iter()
            .filter(|p| matches!(p.result, Ok(Loaded::Backend { .. })))
            .map(|p| child(p.entry.name.clone(), Object::Backend(p.entry.name.clone())))
            .collect(),
        Object::StdFn(_) | Object::PackFn(_) | Object::Backend(_) => Vec::new(),
    })
}

/// Steps as children: a step's path is its program's path and its step ID,
/// however deep it is nested.
fn step_children(steps: &[Step], p: &ProgramFile) -> Vec<Child> {
    steps
        .iter()
        .filter_map(|s| s.id.clone())
        .map(|id| Child {
            name: id.to_string(),
            path: format!("{}/{id}", p.path),
            object: Object::Step(p.clone(), id),
        })
        .collect()
}

/// The folders holding programs and the program files in a folder (relative
/// to the root), sorted by name; hidden and skipped folders and symlinks left out.
fn folder_children(
    ctx: &Context,
    rel: &str,
    child: &dyn Fn(String, Object) -> Child,
) -> Vec<Child> {
    let dir = ctx.root.dir().join(rel);
    let mut entries: Vec<(String, bool)> = std::fs::read_dir(&dir)
        .map(|d| {
            d.flatten()
                .filter_map(|e| {
                    let name = e.file_name().to_str()?.to_owned();
                    let ty = e.file_type().ok()?;
                    let listed = !name.starts_with('.') && !SKIPPED.contains(&name.as_str());
                    if !listed || ty.is_symlink() {
                        return None;
                    }
                    if ty.is_dir() && holds_programs(&e.path(), 0) {
                        Some((name, true))
                    } else if ty.is_file() && name.ends_with(".isu") {
                        Some((name, false))
                    } else {
                        None
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    entries.sort();
    entries
        .into_iter()
        .map(|(name, is_dir)| {
            let sub = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let object = if is_dir {
                Object::Folder(sub)
            } else {
                Object::Program(ProgramFile {
                    path: format!("programs/{sub}"),
                    file: dir.join(&name),
                })
            };
            child(name, object)
        })
        .collect()
}

/// Whether a folder holds an `.isu` file at any depth (looking no deeper than
/// 16 folders, through no hidden or skipped folder and no symlink).
fn holds_programs(dir: &std::path::Path, depth: usize) -> bool {
    if depth > 16 {
        return false;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|e| {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let Ok(ty) = e.file_type() else { return false };
        if name.starts_with('.') || SKIPPED.contains(&name.as_ref()) || ty.is_symlink() {
            return false;
        }
        (ty.is_file() && name.ends_with(".isu"))
            || (ty.is_dir() && holds_programs(&e.path(), depth + 1))
    })
}

/// What `inspect` says about an object besides its interfaces: a one-line
/// description and the object's own data (a program's signature, a step's
/// kind, a backend's targets and capabilities).
pub fn describe(ctx: &Context, object: &Object) -> (String, Value) {
    match object {
        Object::Root => (
            format!("the project root {}", ctx.root.dir().display()),
            json!({"children": ["programs", "stdlib", "packs", "backends"]}),
        ),
        Object::Programs => ("the Isu programs under the project root".into(), json!({})),
        Object::Folder(rel) => (format!("the folder {rel}"), json!({})),
        Object::Program(p) => match p.parsed() {
            Ok(program) => {
                let args: Vec<String> = program
                    .func
                    .args
                    .iter()
                    .map(|a| format!("{}: {}", a.name.name, a.ty))
                    .collect();
                let sig = format!(
                    "{}({}) -> {}",
                    program.func.name.name,
                    args.join(", "),
                    program.func.returns
                );
                (
                    format!("the program {sig}"),
                    json!({"function": sig, "examples": program.io.input.len()}),
                )
            }
            Err(diags) => (
                "a program that does not parse (check reports why)".into(),
                json!({"diagnostics": diags.iter().map(Diagnostic::to_json).collect::<Vec<_>>()}),
            ),
        },
        Object::Step(p, id) => match p.parsed() {
            Ok(program) => match program.find_step(id) {
                Some(step) => (
                    format!(
                        "step {id}: {}{}",
                        step.node.keyword(),
                        step.desc
                            .as_ref()
                            .map_or(String::new(), |d| format!(" {d:?}"))
                    ),
                    json!({"step_kind": step.node.keyword(), "text": canon::print_step(step, 0)}),
                ),
                None => (format!("step {id} (not in the program now)"), json!({})),
            },
            Err(_) => ("a step of a program that does not parse".into(), json!({})),
        },
        Object::Stdlib => ("the standard functions (spec/stdlib.md)".into(), json!({})),
        Object::StdFn(f) => (
            format!("the standard function {}: {}", f.name, f.doc),
            json!({}),
        ),
        Object::Packs => ("the loaded function packs".into(), json!({})),
        Object::Pack(ns) => (format!("the function pack `{ns}`"), json!({})),
        Object::PackFn(name) => {
            let doc = ctx
                .registry
                .functions
                .get(name)
                .map_or(String::new(), |f| f.doc.clone());
            (format!("the pack function {name}: {doc}"), json!({}))
        }
        Object::Backends => ("the loaded backend plugins".into(), json!({})),
        Object::Backend(name) => match backend(ctx, name) {
            Some(info) => (
                format!("the backend {name} {}", info.version),
                json!({
                    "targets": info.targets,
                    "emits": info.emits,
                    "execute": info.execute,
                    "features": info.features,
                    "lacks": info.features.lacks(),
                    "settings": info.settings,
                }),
            ),
            None => (format!("the backend {name}"), json!({})),
        },
    }
}

/// The targets of a backend, by its name (for `isu.backend` build).
pub fn backend_targets(ctx: &Context, name: &str) -> Vec<String> {
    backend(ctx, name).map_or(Vec::new(), |i| i.targets.clone())
}
