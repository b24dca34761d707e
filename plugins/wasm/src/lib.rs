//! The WebAssembly backend: canonical, validated IIR to a core Wasm module
//! with no imports (written with wasm-encoder), and a runner for it
//! (wasmtime) behind [`isu_plugin_api::Backend`].
//!
//! One file per concern: [`lower`] turns the program into the entry
//! function (statements, expressions, element stores, constants),
//! [`runtime`] generates the functions it calls (allocator, reference
//! counting, strings, arrays, maps, structs, numbers, the value codec), [`module`]
//! assembles the module, [`abi`] and [`meta`] are its interface,
//! [`srcmap`] maps code back to steps, [`exec`] runs it, [`js`] writes the
//! JavaScript loader, [`pack`] merges the pack functions' lowerings (given
//! as WebAssembly text) into the module. `spec/wasm-abi.md` documents what a host sees.

pub mod abi;
mod asm;
pub mod exec;
pub mod js;
mod layout;
mod lower;
pub mod meta;
mod module;
pub mod pack;
mod runtime;
pub mod srcmap;
pub mod values;

use abi::{EXPORT_ALLOC, EXPORT_ERROR_CODE, EXPORT_ERROR_STEP, EXPORT_RESET, EXPORT_RESULT_LEN};
use abi::{EXPORT_RUN, EXPORT_SET_LIMITS, SECTION_META};
use isu_plugin_api::{
    Artifact, Backend, BackendCode, BackendInfo, CompileOptions, ExecOptions, FeatureSet, Literal,
    PluginDiagnostic, Program, SettingInfo,
};
use module::{g, ModuleBuilder, Rt};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use wasm_encoder::{ExportKind, ValType};

/// How fuel is counted, as the reference interpreter counts it: loop
/// rounds, and the work of calls and copies (`spec/semantics.md`, section
/// 7), but no unit per step.
pub const FUEL: lower::FuelModel = lower::FuelModel { per_step: false };

/// The setting of how hard wasmtime's Cranelift optimizes a module before
/// `execute` runs it.
pub const SETTING_OPT_LEVEL: &str = "opt_level";

/// The backend.
#[derive(Debug, Default)]
pub struct WasmBackend {
    /// The wasmtime runner of each optimization level, made on first use.
    runners: Mutex<BTreeMap<exec::OptLevel, Arc<exec::Runner>>>,
}

impl WasmBackend {
    pub fn new() -> WasmBackend {
        WasmBackend::default()
    }

    /// The wasmtime runner of the default optimization level.
    pub fn runner(&self) -> Result<Arc<exec::Runner>, PluginDiagnostic> {
        self.runner_at(exec::OptLevel::default())
    }

    /// The wasmtime runner of an optimization level, made on first use.
    pub fn runner_at(&self, level: exec::OptLevel) -> Result<Arc<exec::Runner>, PluginDiagnostic> {
        let mut runners = self.runners.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = runners.get(&level) {
            return Ok(r.clone());
        }
        let r = Arc::new(exec::Runner::new(level)?);
        runners.insert(level, r.clone());
        Ok(r)
    }
}

/// A compiled module: its bytes, and what the source map covers.
#[derive(Debug, Clone)]
pub struct Compiled {
    pub wasm: Vec<u8>,
    pub meta: meta::Meta,
}

/// Compiles a canonical, validated program that calls no pack function to
/// a Wasm module.
pub fn compile_module(program: &Program) -> Result<Compiled, PluginDiagnostic> {
    compile_with_packs(program, &[]).map_err(|mut ds| {
        ds.pop().unwrap_or_else(|| {
            PluginDiagnostic::backend(BackendCode::InternalError, "compile failed")
        })
    })
}

/// Compiles a canonical, validated program to a Wasm module, with the
/// `wasm` lowerings of the pack functions it calls ([`pack`]): every
/// function without one, and every lowering that breaks the convention, is
/// a diagnostic.
pub fn compile_with_packs(
    program: &Program,
    lowerings: &[isu_plugin_api::pack::Lowering],
) -> Result<Compiled, Vec<PluginDiagnostic>> {
    // The lowering knows no node of a feature the backend does not declare.
    WasmBackend::new()
        .info()
        .check_features(program)
        .map_err(|d| vec![d])?;
    let mut mb = ModuleBuilder::new(layout::Structs::of(&program.types));
    let run = mb.declare(EXPORT_RUN, &[ValType::I32], &[ValType::I32]);
    let packs = pack::merge(&mut mb, program, lowerings)?;
    let lowered = lower::lower_program(&mut mb, run, program, FUEL, packs).map_err(|e| {
        vec![
            PluginDiagnostic::backend(BackendCode::InternalError, e.message)
                .with_hint("the program must be canonical and validated before compiling"),
        ]
    })?;
    mb.export(EXPORT_RUN, ExportKind::Func, run);
    let reset = mb.rt(Rt::Reset);
    mb.export(EXPORT_RESET, ExportKind::Func, reset);
    let alloc = mb.rt(Rt::Alloc);
    mb.export(EXPORT_ALLOC, ExportKind::Func, alloc);
    let limits = [ValType::I64; 3];
    let set_limits = mb.declare(EXPORT_SET_LIMITS, &limits, &[]);
    let mut a = asm::Asm::new(&limits);
    a.get(a.param(0)).i().global_set(g::MAX_STEPS);
    a.get(a.param(1)).i().global_set(g::MAX_SIZE);
    a.get(a.param(2)).i().global_set(g::MAX_MEMORY);
    mb.define(set_limits, a.finish());
    mb.export(EXPORT_SET_LIMITS, ExportKind::Func, set_limits);
    for (name, global) in [
        (EXPORT_RESULT_LEN, g::RESULT_LEN),
        (EXPORT_ERROR_CODE, g::ERR_CODE),
        (EXPORT_ERROR_STEP, g::ERR_STEP),
    ] {
        let f = mb.declare(name, &[], &[ValType::I32]);
        let mut a = asm::Asm::new(&[]);
        a.i().global_get(global);
        mb.define(f, a.finish());
        mb.export(name, ExportKind::Func, f);
    }
    let meta = meta::Meta::of(program);
    mb.custom(SECTION_META, meta.to_json());
    let wasm = srcmap::append(mb.finish(), run, &lowered.ranges);
    Ok(Compiled { wasm, meta })
}

/// Checks a module the way engines will: wasmparser's validator with the
/// default features.
pub fn validate(wasm: &[u8]) -> Result<(), String> {
    wasmparser::Validator::new()
        .validate_all(wasm)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

impl Backend for WasmBackend {
    fn info(&self) -> BackendInfo {
        let levels: Vec<&str> = exec::OptLevel::ALL.iter().map(|l| l.name()).collect();
        // The whole language as of feature vocabulary 5 (with `limit_work`:
        // the work of standard functions and copies spends fuel;
        // `limit_memory`: the variables' live size is bounded; SORT,
        // SPLIT, UPPER, CONTAINS and INDEX_OF; and `struct`). Wasmtime
        // compiles the module to machine code and runs it in this process:
        // native.
        BackendInfo::new(
            "wasm",
            env!("CARGO_PKG_VERSION"),
            &["wasm"],
            FeatureSet::all_of(7),
        )
        .emitting(&["wasm", "js"])
        .executing("wasm", true)
        .with_setting(SettingInfo::new(
            SETTING_OPT_LEVEL,
            "How hard wasmtime's Cranelift optimizes the module that `execute` runs.",
            &levels,
            exec::OptLevel::default().name(),
        ))
    }

    fn compile(
        &self,
        program: &Program,
        options: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        if !options.target.is_empty() && options.target != "wasm" {
            return Err(vec![PluginDiagnostic::backend(
                BackendCode::UnsupportedTarget,
                format!(
                    "the wasm backend builds the target `wasm`, not `{}`",
                    options.target
                ),
            )]);
        }
        let mut want_js = false;
        for kind in &options.emit {
            match kind.as_str() {
                "wasm" => {}
                "js" => want_js = true,
                other => {
                    return Err(vec![PluginDiagnostic::backend(
                        BackendCode::UnsupportedEmit,
                        format!("the wasm backend emits `wasm` and `js`, not `{other}`"),
                    )])
                }
            }
        }
        let compiled = compile_with_packs(program, &options.lowerings)?;
        if let Err(e) = validate(&compiled.wasm) {
            return Err(vec![PluginDiagnostic::backend(
                BackendCode::InternalError,
                format!("the generated module does not validate: {e}"),
            )]);
        }
        let name = &program.func.name.name;
        let wasm_file = format!("{name}.wasm");
        let mut out = vec![Artifact::new("wasm", wasm_file.clone(), compiled.wasm)];
        if want_js {
            let loader = js::loader(&compiled.meta, &wasm_file).into_bytes();
            out.push(Artifact::new("js", format!("{name}.mjs"), loader));
        }
        Ok(out)
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        options: &ExecOptions,
    ) -> Result<Literal, PluginDiagnostic> {
        let wasm = artifacts.iter().find(|a| a.kind == "wasm").ok_or_else(|| {
            PluginDiagnostic::backend(BackendCode::CannotExecute, "no wasm artifact to run")
        })?;
        let level = match options.settings.get(SETTING_OPT_LEVEL) {
            Some(name) => exec::OptLevel::parse(name).ok_or_else(|| {
                PluginDiagnostic::backend(
                    BackendCode::InvalidSetting,
                    format!("`{name}` is not a value of the setting `{SETTING_OPT_LEVEL}`"),
                )
            })?,
            None => exec::OptLevel::default(),
        };
        self.runner_at(level)?
            .execute(&wasm.bytes, args, &options.limits)
    }
}

// The plugin library's root module (spec/plugin-abi.md): the host loads this
// backend through `isu-plugins.toml`.
isu_plugin_api::export_backend!(WasmBackend);
