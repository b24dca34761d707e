//! A test fixture: a backend that works as the toy backend does, except on
//! a program whose function is named `crash` (in `execute`) or
//! `crash_compile` (in `compile`), where it does what its target says:
//!
//! - `abort`: aborts the process (`std::process::abort`);
//! - `segfault`: writes through a null pointer;
//! - `hang`: loops forever, asleep.
//!
//! None of these is a panic, so no `catch_unwind` saves the process that runs
//! the plugin: only isolation (`isu plugin-host`, with a wall-clock timeout)
//! keeps the host alive and the conformance suite going.
//!
//! On a program whose function is named `burn_cpu`, `execute` loops forever on
//! every target, awake: what only the limit of a call's CPU time stops
//! before its wall-clock timeout.
//!
//! It runs programs with the toy backend's evaluator, compiled in from the
//! toy's source file: linking the toy crate would put a second root module
//! into this library.

#[path = "../../toy/src/eval.rs"]
pub mod eval;
use eval::SUPPORTS;
use isu_plugin_api::{
    Artifact, Backend, BackendCode, BackendInfo, CompileOptions, ExecOptions, FeatureSet, Literal,
    PluginDiagnostic, Program, FEATURE_SET_VERSION,
};
use serde::{Deserialize, Serialize};

/// What the crashing program does, by target.
pub const TARGETS: &[&str] = &["abort", "segfault", "hang"];

#[derive(Debug, Default)]
pub struct Crashy;

/// The artifact: the program and the target it was built for.
#[derive(Serialize, Deserialize)]
struct Built {
    target: String,
    program: Program,
}

/// Ends the process (or never returns) the way `target` names.
fn crash(target: &str) {
    match target {
        "abort" => std::process::abort(),
        "segfault" => null_write(),
        "hang" => loop {
            std::thread::sleep(std::time::Duration::from_millis(50));
        },
        _ => {}
    }
}

/// Spins on the CPU forever.
fn burn_cpu() {
    let mut n = 0u64;
    loop {
        n = std::hint::black_box(n.wrapping_add(1));
    }
}

/// A write through a null pointer: a segmentation fault, deliberately.
// The workspace denies unsafe code; this fixture exists to fault, and this
// is the one place it does.
#[allow(unsafe_code)]
fn null_write() {
    let null = std::ptr::null_mut::<u8>();
    // SAFETY: none; the fault is the point. A volatile write is not elided.
    unsafe { null.write_volatile(1) };
}

fn failed(message: String) -> PluginDiagnostic {
    PluginDiagnostic::backend(BackendCode::BackendFailed, message)
}

impl Backend for Crashy {
    fn info(&self) -> BackendInfo {
        BackendInfo::new(
            "crashy",
            env!("CARGO_PKG_VERSION"),
            TARGETS,
            FeatureSet::only(FEATURE_SET_VERSION, SUPPORTS),
        )
        .emitting(&["crashy"])
        .executing("crashy", true)
    }

    fn compile(
        &self,
        program: &Program,
        options: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        if program.func.name.name == "crash_compile" {
            crash(&options.target);
        }
        let built = Built {
            target: options.target.clone(),
            program: program.clone(),
        };
        let bytes = serde_json::to_vec(&built).map_err(|e| vec![failed(e.to_string())])?;
        Ok(vec![Artifact::new("crashy", "program.json", bytes)])
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        options: &ExecOptions,
    ) -> Result<Literal, PluginDiagnostic> {
        let artifact = artifacts
            .iter()
            .find(|a| a.kind == "crashy")
            .ok_or_else(|| {
                PluginDiagnostic::backend(BackendCode::CannotExecute, "no crashy artifact")
            })?;
        let text = std::str::from_utf8(&artifact.bytes).map_err(|e| failed(e.to_string()))?;
        let built: Built =
            isu_plugin_api::json::from_str(text).map_err(|e| failed(e.to_string()))?;
        match built.program.func.name.name.as_str() {
            "crash" => crash(&built.target),
            "burn_cpu" => burn_cpu(),
            _ => {}
        }
        eval::run(&built.program, args, &options.limits)
    }
}

isu_plugin_api::export_backend!(Crashy);
