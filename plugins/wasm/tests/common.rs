//! Helpers shared by the backend's tests: Isu text to a validated program,
//! compiled and run in-process.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use isu_backend_wasm::WasmBackend;
use isu_host::pipeline::check;
use isu_host::Source;
use isu_plugin_api::{
    Artifact, Backend, CompileOptions, ExecLimits, ExecOptions, Literal, PluginDiagnostic, Program,
};

pub fn program(text: &str) -> Program {
    let fe = check(&Source::new("test.isu", text));
    match fe.valid_program() {
        Some(p) => p.clone(),
        None => panic!(
            "the test program is not valid:\n{}",
            fe.diags
                .iter()
                .map(|d| format!("{d:?}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

pub fn compile(b: &WasmBackend, p: &Program) -> Vec<Artifact> {
    b.compile(p, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("compile failed: {e:?}"))
}

pub fn lit(json: &str) -> Literal {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("bad JSON {json}: {e}"))
}

pub const LIMITS: ExecLimits = ExecLimits::DEFAULT;

/// Runs `text` on the JSON `args`: the result as JSON text, or `error CODE at STEP`.
pub fn run_with(text: &str, args: &str, limits: ExecLimits) -> String {
    let b = WasmBackend::new();
    let p = program(text);
    let arts = compile(&b, &p);
    show(b.execute(&arts, &lit(args), &ExecOptions::new(limits)))
}

/// The options of [`LIMITS`] without settings.
pub fn options() -> ExecOptions {
    ExecOptions::new(LIMITS)
}

pub fn run(text: &str, args: &str) -> String {
    run_with(text, args, LIMITS)
}

pub fn show(r: Result<Literal, PluginDiagnostic>) -> String {
    match r {
        Ok(v) => v.to_string(),
        Err(d) => format!("error {} at {}", d.code, d.step.as_deref().unwrap_or("-")),
    }
}

/// A program of one function from its parts: ARGS, RETURNS, LOCAL and the
/// steps (indented by four).
pub fn func(args: &str, returns: &str, locals: &str, steps: &str) -> String {
    format!(
        "META:\n  AUTO_ID: true\nFUNC:\n  NAME: f\n  ARGS: [{args}]\n  RETURNS: {returns}\nLOCAL: [{locals}]\nSTEPS:\n  SEQ: BEGIN\n{steps}  END\n"
    )
}

/// Runs `text` on `args` in wasmtime and in the interpreter (with these
/// steps, or the default); both must agree; the result, or `error CODE at
/// STEP`.
pub fn both(text: &str, args: &str, max_steps: Option<u64>) -> String {
    let limits = ExecLimits {
        max_steps: max_steps.unwrap_or(LIMITS.max_steps),
        ..LIMITS
    };
    let wasm = run_with(text, args, limits);
    let opts = isu_host::interp::RunOptions {
        max_steps: limits.max_steps,
        max_size: limits.max_size as usize,
        max_memory: limits.max_memory,
    };
    let given: serde_json::Value = serde_json::from_str(args).unwrap();
    let oracle = match isu_host::interp::run(&program(text), &given, &opts, None) {
        Ok(v) => v.to_string(),
        Err(d) => format!(
            "error {} at {}",
            d.code,
            d.step.map_or("-".to_owned(), |s| s.to_string())
        ),
    };
    assert_eq!(wasm, oracle, "{args}");
    wasm
}
