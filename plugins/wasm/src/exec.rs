//! Running a compiled module inside the plugin with wasmtime: instantiate,
//! write the arguments, call, read the result or the error. A runtime error
//! comes back as the interpreter reports it: its code and step ID.

use crate::abi::{self, ErrorCode};
use crate::meta::Meta;
use crate::values;
use isu_plugin_api::{BackendCode, ExecLimits, Literal, PluginDiagnostic};
use std::collections::BTreeMap;
use std::sync::Mutex;
use wasmtime::{Engine, Instance, Memory, Module, Store, TypedFunc};

/// Compiled modules kept for reuse, at most this many.
const CACHE_SIZE: usize = 32;

/// A wasmtime engine and the modules it compiled, by content.
pub struct Runner {
    engine: Engine,
    cache: Mutex<BTreeMap<Vec<u8>, Module>>,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner").finish_non_exhaustive()
    }
}

fn backend(message: impl Into<String>) -> PluginDiagnostic {
    PluginDiagnostic::backend(BackendCode::BackendFailed, message)
}

/// How hard wasmtime's Cranelift optimizes a module (the `opt_level`
/// setting), by Cranelift's names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum OptLevel {
    None,
    #[default]
    Speed,
    SpeedAndSize,
}

impl OptLevel {
    pub const ALL: [OptLevel; 3] = [OptLevel::None, OptLevel::Speed, OptLevel::SpeedAndSize];

    pub fn name(self) -> &'static str {
        match self {
            OptLevel::None => "none",
            OptLevel::Speed => "speed",
            OptLevel::SpeedAndSize => "speed_and_size",
        }
    }

    pub fn parse(name: &str) -> Option<OptLevel> {
        OptLevel::ALL.into_iter().find(|l| l.name() == name)
    }

    fn wasmtime(self) -> wasmtime::OptLevel {
        match self {
            OptLevel::None => wasmtime::OptLevel::None,
            OptLevel::Speed => wasmtime::OptLevel::Speed,
            OptLevel::SpeedAndSize => wasmtime::OptLevel::SpeedAndSize,
        }
    }
}

impl Runner {
    /// A runner whose engine optimizes at `level`.
    pub fn new(level: OptLevel) -> Result<Runner, PluginDiagnostic> {
        let mut config = wasmtime::Config::new();
        config.cranelift_opt_level(level.wasmtime());
        let engine = Engine::new(&config).map_err(|e| backend(format!("wasmtime: {e}")))?;
        Ok(Runner {
            engine,
            cache: Mutex::new(BTreeMap::new()),
        })
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The compiled module of these bytes (from the cache when it has it).
    pub fn module(&self, wasm: &[u8]) -> Result<Module, PluginDiagnostic> {
        if let Ok(cache) = self.cache.lock() {
            if let Some(m) = cache.get(wasm) {
                return Ok(m.clone());
            }
        }
        let m = Module::new(&self.engine, wasm)
            .map_err(|e| backend(format!("wasmtime could not compile the module: {e}")))?;
        if let Ok(mut cache) = self.cache.lock() {
            if cache.len() >= CACHE_SIZE {
                cache.clear();
            }
            cache.insert(wasm.to_vec(), m.clone());
        }
        Ok(m)
    }

    /// Instantiates `wasm` and calls it once.
    pub fn execute(
        &self,
        wasm: &[u8],
        args: &Literal,
        limits: &ExecLimits,
    ) -> Result<Literal, PluginDiagnostic> {
        let meta = Meta::read(wasm)
            .ok_or_else(|| backend("the module has no readable isu.meta section"))?;
        let encoded = encode_args(&meta, args)?;
        let module = self.module(wasm)?;
        let mut inst = Loaded::new(&self.engine, &module, meta)?;
        inst.call(&encoded, limits)
    }
}

/// The arguments (a JSON object) in ARGS order, encoded.
pub fn encode_args(meta: &Meta, args: &Literal) -> Result<Vec<u8>, PluginDiagnostic> {
    let invalid = |m: String| PluginDiagnostic::runtime("invalid_argument", None, m);
    let Literal::Object(given) = args else {
        return Err(invalid(format!(
            "the arguments must be a JSON object mapping each ARGS name to its value, not {}",
            args.kind_name()
        )));
    };
    let mut out = Vec::new();
    for a in &meta.args {
        let Some(v) = given.get(&a.name) else {
            return Err(invalid(format!(
                "the argument `{}` ({}) is missing",
                a.name, a.ty
            )));
        };
        values::encode(v, &a.ty, &meta.types, &mut out, &mut String::new()).map_err(|m| {
            invalid(format!(
                "the argument `{}` is not a {}: {}",
                a.name, a.ty, m.0
            ))
        })?;
    }
    if let Some(name) = given
        .keys()
        .find(|k| !meta.args.iter().any(|a| &a.name == *k))
    {
        return Err(invalid(format!("`{name}` is not an argument")));
    }
    Ok(out)
}

/// An instance of a module with its exports at hand.
pub struct Loaded {
    pub store: Store<()>,
    pub meta: Meta,
    memory: Memory,
    run: TypedFunc<i32, i32>,
    reset: TypedFunc<(), ()>,
    alloc: TypedFunc<i32, i32>,
    set_limits: TypedFunc<(i64, i64, i64), ()>,
    result_len: TypedFunc<(), i32>,
    error_code: TypedFunc<(), i32>,
    error_step: TypedFunc<(), i32>,
}

impl std::fmt::Debug for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loaded")
            .field("meta", &self.meta.name)
            .finish_non_exhaustive()
    }
}

impl Loaded {
    pub fn new(engine: &Engine, module: &Module, meta: Meta) -> Result<Loaded, PluginDiagnostic> {
        let mut store = Store::new(engine, ());
        let instance = Instance::new(&mut store, module, &[])
            .map_err(|e| backend(format!("could not instantiate the module: {e}")))?;
        let memory = instance
            .get_memory(&mut store, "memory")
            .ok_or_else(|| backend("the module exports no memory"))?;
        macro_rules! func {
            ($name:expr) => {
                instance
                    .get_typed_func(&mut store, $name)
                    .map_err(|e| backend(format!("the export {}: {e}", $name)))?
            };
        }
        Ok(Loaded {
            run: func!(abi::EXPORT_RUN),
            reset: func!(abi::EXPORT_RESET),
            alloc: func!(abi::EXPORT_ALLOC),
            set_limits: func!(abi::EXPORT_SET_LIMITS),
            result_len: func!(abi::EXPORT_RESULT_LEN),
            error_code: func!(abi::EXPORT_ERROR_CODE),
            error_step: func!(abi::EXPORT_ERROR_STEP),
            store,
            meta,
            memory,
        })
    }

    /// The pages of linear memory now.
    pub fn pages(&self) -> u64 {
        self.memory.size(&self.store)
    }

    /// One call: resets the heap, writes the encoded arguments, runs, and
    /// reads the result (or the error).
    pub fn call(
        &mut self,
        encoded: &[u8],
        limits: &ExecLimits,
    ) -> Result<Literal, PluginDiagnostic> {
        let fail = |what: &str, e: wasmtime::Error| backend(format!("{what}: {e}"));
        let steps = i64::try_from(limits.max_steps).unwrap_or(i64::MAX);
        let size = i64::try_from(limits.max_size).unwrap_or(i64::MAX);
        let memory = i64::try_from(limits.max_memory).unwrap_or(i64::MAX);
        self.set_limits
            .call(&mut self.store, (steps, size, memory))
            .map_err(|e| fail("isu_set_limits", e))?;
        self.reset
            .call(&mut self.store, ())
            .map_err(|e| fail("isu_reset", e))?;
        let len =
            i32::try_from(encoded.len()).map_err(|_| backend("the arguments are too large"))?;
        let at = self
            .alloc
            .call(&mut self.store, len)
            .map_err(|e| fail("isu_alloc", e))?;
        self.memory
            .write(&mut self.store, at as u32 as usize, encoded)
            .map_err(|e| backend(format!("writing the arguments: {e}")))?;
        match self.run.call(&mut self.store, at) {
            Ok(ptr) => {
                let n = self
                    .result_len
                    .call(&mut self.store, ())
                    .map_err(|e| fail("isu_result_len", e))?;
                let start = ptr as u32 as usize;
                let bytes = self
                    .memory
                    .data(&self.store)
                    .get(start..start + n as u32 as usize)
                    .ok_or_else(|| backend("the result lies outside linear memory"))?;
                let mut pos = 0;
                values::decode(bytes, &mut pos, &self.meta.returns, &self.meta.types)
                    .ok_or_else(|| backend("the result's encoding is malformed"))
            }
            Err(trap) => Err(self.error(trap)),
        }
    }

    /// The diagnostic of a call that trapped.
    pub fn error(&mut self, trap: wasmtime::Error) -> PluginDiagnostic {
        let code = self.error_code.call(&mut self.store, ()).unwrap_or(0);
        let step = self.error_step.call(&mut self.store, ()).unwrap_or(-1);
        let Some(code) = ErrorCode::from_number(code) else {
            return backend(format!("the module trapped: {trap}"));
        };
        let step_id = usize::try_from(step)
            .ok()
            .and_then(|s| self.meta.steps.get(s))
            .map(|s| s.id.clone());
        if code == ErrorCode::OutOfMemory {
            return PluginDiagnostic::backend(BackendCode::OutOfMemory, code.summary());
        }
        let message = match &step_id {
            Some(s) => format!("{} (at {s})", code.summary()),
            None => code.summary().to_owned(),
        };
        PluginDiagnostic::runtime(code.name(), step_id.as_deref(), message)
    }
}
