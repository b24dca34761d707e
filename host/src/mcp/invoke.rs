//! Running an operation: each calls the host library functions the matching
//! CLI command calls (the pipeline, the executors, the patcher, the backend
//! plugins), and writes only inside the root through the CLI's write helpers.

use super::objects::{self, Object, ProgramFile};
use super::ops::Operation;
use super::Context;
use crate::canon;
use crate::cli::build::write_artifacts;
use crate::cli::write::{write_file, Options as WriteOptions};
use crate::diag::{has_errors, Code, Diagnostic};
use crate::executor::{self, Executed, Loaded};
use crate::plugins::target::{self as backend, BuildError};
use crate::service::{self, editor};
use crate::source::Source;
use isu_plugin_api::{CompileOptions, ExecLimits, Program, Settings};
use serde_json::{json, Map, Value};
use std::path::Path;

/// What an operation gave: whether it succeeded, its diagnostics (errors and
/// warnings), its own result members, and the references it could not fetch
/// after succeeding (which never make it fail).
#[derive(Debug, Default)]
pub struct Outcome {
    pub ok: bool,
    pub diagnostics: Vec<Diagnostic>,
    pub fields: Map<String, Value>,
    pub reference_errors: Vec<String>,
}

impl Outcome {
    fn new(diagnostics: Vec<Diagnostic>) -> Outcome {
        Outcome {
            ok: !has_errors(&diagnostics),
            diagnostics,
            ..Outcome::default()
        }
    }

    fn with(mut self, key: &str, value: impl Into<Value>) -> Outcome {
        self.fields.insert(key.to_owned(), value.into());
        self
    }

    fn failed(d: Diagnostic) -> Outcome {
        Outcome::new(vec![d])
    }
}

/// Runs `op` on `object` with arguments already checked against its parameters.
pub fn invoke(
    ctx: &Context,
    object: &Object,
    op: &Operation,
    args: &Map<String, Value>,
) -> Outcome {
    let flag = |name: &str| args.get(name).and_then(Value::as_bool).unwrap_or(false);
    let text = |name: &str| args.get(name).and_then(Value::as_str).unwrap_or_default();
    match (object, op.name) {
        (Object::Program(p), "check") => with_source(p, |src| {
            Outcome::new(service::check(&src, &ctx.registry.functions).diags)
        }),
        (Object::Program(p), "fmt") => with_source(p, |src| fmt(p, &src, flag("write"))),
        (Object::Program(p), "run") => {
            with_valid(ctx, p, |program, diags| run(ctx, program, diags, args))
        }
        (Object::Program(p), "test") => {
            with_valid(ctx, p, |program, diags| test(ctx, program, diags, args))
        }
        (Object::Program(p), "fix") => with_source(p, |src| fix(ctx, p, &src, flag("write"))),
        (Object::Program(p), "patch") => apply_patch(ctx, p, text("patch"), flag("write")),
        (Object::Program(p), "build") => build(ctx, p, text("target"), args),
        (Object::Step(p, id), "show") => match p.parsed() {
            Ok(program) => match program.find_step(id) {
                Some(step) => Outcome::new(Vec::new())
                    .with("text", canon::print_step(step, 0))
                    .with("kind", step.node.keyword()),
                None => Outcome::failed(no_step(p, id)),
            },
            Err(diags) => Outcome::new(diags),
        },
        (Object::Step(p, id), "replace") => {
            let body: String = text("text").lines().map(|l| format!("    {l}\n")).collect();
            let patch_text = format!("PATCH:\n  REPLACE {id}:\n{body}");
            apply_patch(ctx, p, &patch_text, flag("write"))
        }
        (Object::Backend(name), "build") => {
            let targets = objects::backend_targets(ctx, name);
            let target = args
                .get("target")
                .and_then(Value::as_str)
                .or(targets.first().map(String::as_str))
                .unwrap_or_default()
                .to_owned();
            if !targets.contains(&target) {
                return Outcome::failed(Diagnostic::error(
                    Code::InvalidArguments,
                    format!(
                        "the backend {name} has no target `{target}`; it has {}",
                        targets.join(", ")
                    ),
                ));
            }
            match objects::resolve(ctx, text("program")) {
                Ok(Object::Program(p)) => build(ctx, &p, &target, args),
                Ok(other) => Outcome::failed(Diagnostic::error(
                    Code::InvalidArguments,
                    format!("`{}` is a {}, not a program", text("program"), other.kind()),
                )),
                Err(d) => Outcome::failed(d),
            }
        }
        (Object::StdFn(f), "describe") => describe(ctx, f.name),
        (Object::PackFn(name), "describe") => describe(ctx, name),
        _ => Outcome::failed(Diagnostic::error(
            Code::UnknownOperation,
            format!("a {} has no operation {}", object.kind(), op.name),
        )),
    }
}

fn with_source(p: &ProgramFile, f: impl FnOnce(Source) -> Outcome) -> Outcome {
    match p.source() {
        Ok(src) => f(src),
        Err(d) => Outcome::failed(d),
    }
}

/// A function's signatures, documentation and errors, as the editor's hover
/// shows them.
fn describe(ctx: &Context, name: &str) -> Outcome {
    match editor::function(name, &ctx.registry.functions) {
        Some(f) => Outcome::new(Vec::new())
            .with("name", f.name)
            .with("signatures", f.signatures)
            .with("doc", f.doc)
            .with("errors", f.errors),
        None => Outcome::failed(Diagnostic::error(
            Code::UnknownObject,
            format!("the function {name} is gone"),
        )),
    }
}

/// Checks the program and goes on only when it is valid (as `isu run`,
/// `isu test`, `isu patch` and `isu build` do).
fn with_valid(
    ctx: &Context,
    p: &ProgramFile,
    f: impl FnOnce(&Program, Vec<Diagnostic>) -> Outcome,
) -> Outcome {
    with_source(p, |src| {
        match service::valid(&src, &ctx.registry.functions) {
            Ok(v) => f(&v.program, v.diags),
            Err(diags) => Outcome::new(diags),
        }
    })
}

/// As `isu fix`: every certain fix, round after round; written only when
/// something changed.
fn fix(ctx: &Context, p: &ProgramFile, src: &Source, write: bool) -> Outcome {
    let fixed = service::fix(src, &ctx.registry.functions);
    let changed = fixed.text != src.text;
    let mut out = Outcome::new(fixed.front.diags.clone())
        .with("changed", changed)
        .with("rounds", fixed.rounds)
        .with("applied", fixed.applied_json())
        .with("written", false);
    if write && changed {
        out = write_program(p, &fixed.text, out);
    }
    out.with("text", fixed.text)
}

fn fmt(p: &ProgramFile, src: &Source, write: bool) -> Outcome {
    let formatted = service::format(src);
    let canonical = formatted.is_canonical(src);
    let Some(text) = formatted.text else {
        return Outcome::new(formatted.front.diags);
    };
    let mut out = Outcome::new(formatted.front.diags)
        .with("canonical", canonical)
        .with("written", false);
    if write && !canonical {
        out = write_program(p, &text, out);
    }
    out.with("text", text)
}

/// The run limits: the arguments', never above the defaults.
fn limits(args: &Map<String, Value>) -> ExecLimits {
    let get = |name: &str, default: u64| {
        args.get(name)
            .and_then(Value::as_u64)
            .map_or(default, |n| n.min(default))
    };
    ExecLimits {
        max_steps: get("max_steps", ExecLimits::DEFAULT.max_steps),
        max_size: get("max_size", ExecLimits::DEFAULT.max_size),
        max_memory: get("max_memory", ExecLimits::DEFAULT.max_memory),
    }
}

/// Loads `program` into what runs it, as `isu run` and `isu test` do: the
/// interpreter, or the backend of the `target` argument; then `go` with it.
fn on_executor(
    ctx: &Context,
    program: &Program,
    args: &Map<String, Value>,
    go: impl FnOnce(&dyn Loaded, &str) -> Outcome,
) -> Outcome {
    let target = args.get("target").and_then(Value::as_str);
    let name = target.unwrap_or(executor::INTERPRETER);
    let executor = match executor::for_target(&ctx.registry, target, &Settings::new(), None) {
        Ok(e) => e,
        Err(e) => return refused(e, name),
    };
    let outcome = match executor.load(program) {
        Ok(loaded) => go(loaded.as_ref(), name),
        Err(e) => refused(e, name),
    };
    outcome
}

fn run(
    ctx: &Context,
    program: &Program,
    diags: Vec<Diagnostic>,
    args: &Map<String, Value>,
) -> Outcome {
    let input = args.get("args").cloned().unwrap_or(json!({}));
    on_executor(ctx, program, args, |loaded, _| {
        match loaded.run(&input, &limits(args), None) {
            Executed::Value { value, .. } => Outcome::new(diags)
                .with("value", serde_json::to_value(&value).unwrap_or(Value::Null)),
            Executed::Error(d) => Outcome::new([diags, vec![d]].concat()),
            Executed::Failed(f) => Outcome::failed(backend_failed(&f.to_string())),
        }
    })
}

fn test(
    ctx: &Context,
    program: &Program,
    diags: Vec<Diagnostic>,
    args: &Map<String, Value>,
) -> Outcome {
    on_executor(ctx, program, args, |loaded, name| {
        match service::test(loaded, name, program, &limits(args)) {
            Ok(tested) => {
                let (total, passed, failed) = (tested.examples, tested.passed(), tested.failed());
                Outcome::new([diags, tested.fails].concat())
                    .with("examples", total)
                    .with("passed", passed)
                    .with("failed", failed)
            }
            Err(f) => Outcome::failed(backend_failed(&f.to_string())),
        }
    })
}

fn apply_patch(ctx: &Context, p: &ProgramFile, patch_text: &str, write: bool) -> Outcome {
    // As `isu patch`: any program that parses, the result re-validated and
    // written only when it validates.
    with_source(p, |src| {
        let patch_src = Source::new("patch", patch_text);
        match service::patch(&src, &patch_src, &ctx.registry.functions) {
            Err(errors) => Outcome::new(errors),
            Ok(patched) => {
                let valid = patched.is_valid();
                let mut out = Outcome::new(patched.diags.clone())
                    .with("renumbered", patched.renumbered_json())
                    .with("written", false);
                if write && valid {
                    out = write_program(p, &patched.text, out);
                }
                out.with("text", patched.text)
            }
        }
    })
}

fn build(ctx: &Context, p: &ProgramFile, target: &str, args: &Map<String, Value>) -> Outcome {
    let emit: Vec<String> = args
        .get("emit")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let out_dir = match args.get("out").and_then(Value::as_str) {
        Some(out) => match ctx.root.confine(Path::new(out)) {
            Ok(path) => Some(path),
            Err(d) => return Outcome::failed(d),
        },
        None => None,
    };
    with_valid(ctx, p, |program, diags| {
        let artifacts = match compile(ctx, program, target, &emit) {
            Ok(a) => a,
            Err(out) => return out,
        };
        let mut list: Vec<Value> = artifacts
            .iter()
            .map(|a| json!({"kind": a.kind, "file_name": a.file_name, "bytes": a.bytes.len()}))
            .collect();
        let mut out = Outcome::new(diags);
        if let Some(dir) = &out_dir {
            match write_artifacts(&artifacts, Some(dir), WriteOptions::default()) {
                Ok(paths) => {
                    for (entry, path) in list.iter_mut().zip(&paths) {
                        let rel = path.strip_prefix(ctx.root.dir()).unwrap_or(path);
                        entry["path"] = Value::from(rel.to_string_lossy().into_owned());
                        // The reference: the written file, fetched again.
                        if let Err(e) = std::fs::metadata(path) {
                            out.reference_errors.push(format!("{}: {e}", rel.display()));
                        }
                    }
                }
                Err(e) => return Outcome::failed(write_failed(&format!("{e:#}"))),
            }
        }
        out.with("artifacts", list)
    })
}

/// Compiles for `target`; a refusal as the outcome to report.
fn compile(
    ctx: &Context,
    program: &Program,
    target: &str,
    emit: &[String],
) -> Result<Vec<isu_plugin_api::Artifact>, Outcome> {
    let options = CompileOptions {
        target: target.to_owned(),
        emit: emit.to_vec(),
        ..CompileOptions::default()
    };
    backend::build(&ctx.registry, program, options).map_err(|e| refused(e, target))
}

/// A program an executor or a backend would not take, as the outcome to report.
fn refused(e: BuildError, target: &str) -> Outcome {
    match e {
        BuildError::Program(diags) => Outcome::new(diags),
        BuildError::NoBackend(m) => Outcome::failed(no_backend(target).with_hint(m)),
        other => Outcome::failed(backend_failed(&other.to_string())),
    }
}

/// Writes a program's new text through the CLI's atomic write; then fetches
/// it again (the reference the caller gets), reporting a failure to do so
/// beside the operation's success.
fn write_program(p: &ProgramFile, text: &str, out: Outcome) -> Outcome {
    if let Err(e) = write_file(&p.file, text.as_bytes(), WriteOptions::default()) {
        return Outcome::failed(write_failed(&format!("{e:#}")));
    }
    let mut out = out.with("written", true);
    match p.parsed() {
        Ok(program) => out = out.with("steps", program.body.steps.len()),
        Err(diags) => out.reference_errors.push(format!(
            "{} was written but reading it again failed: {}",
            p.path,
            diags.first().map_or("", |d| d.message.as_str())
        )),
    }
    out
}

fn no_step(p: &ProgramFile, id: &isu_plugin_api::StepId) -> Diagnostic {
    Diagnostic::error(Code::UnknownStep, format!("{} has no step {id}", p.path))
}

fn no_backend(target: &str) -> Diagnostic {
    Diagnostic::error(
        Code::BackendFailed,
        format!("no backend serves the target `{target}`"),
    )
    .with_hint("inspect backends to see the targets")
}

fn backend_failed(message: &str) -> Diagnostic {
    Diagnostic::error(Code::BackendFailed, message.to_owned())
}

fn write_failed(message: &str) -> Diagnostic {
    Diagnostic::error(Code::WriteFailed, message.to_owned())
}
