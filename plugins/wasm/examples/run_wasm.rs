//! Runs a module that `isu build --target wasm` wrote, the way the
//! backend's executor does (wasmtime at the default optimization level, one
//! instance, the arguments written, the function called, the result read),
//! as a command with the benchmark interface of the LLVM backend's
//! executables (`spec/llvm-abi.md`): `run_wasm FILE.wasm ARGS.json
//! [--max-steps N] [--max-size N] [--max-memory N] [--repeat N]` prints the result as JSON;
//! with `--repeat N` it calls the function N times on the one instance
//! (the heap reset before each call, as `execute` does) and prints the
//! least time a call took, in nanoseconds, on standard error. With
//! `--perfmap`, wasmtime writes `/tmp/perf-PID.map` so that `perf report`
//! names the module's functions (`bench/README.md`, "Profiles").
//! `bench/run.sh` uses it as its Wasm runner.

use isu_backend_wasm::exec::{encode_args, Loaded};
use isu_backend_wasm::meta::Meta;
use isu_backend_wasm::WasmBackend;
use isu_plugin_api::{ExecLimits, Literal};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str =
    "usage: run_wasm FILE.wasm ARGS.json [--max-steps N] [--max-size N] [--max-memory N] [--repeat N] [--perfmap]";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("run_wasm: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut files = Vec::new();
    let mut repeat: u64 = 0;
    let mut perfmap = false;
    let mut limits = ExecLimits {
        max_steps: 1_000_000_000_000,
        max_size: 100_000_000,
        max_memory: 1 << 40,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut count = |flag: &str| -> Result<u64, String> {
            args.next()
                .and_then(|n| n.parse().ok())
                .ok_or(format!("{flag} takes a count"))
        };
        match a.as_str() {
            "--repeat" => repeat = count("--repeat")?,
            "--max-steps" => limits.max_steps = count("--max-steps")?,
            "--max-size" => limits.max_size = count("--max-size")?,
            "--max-memory" => limits.max_memory = count("--max-memory")?,
            "--perfmap" => perfmap = true,
            _ if a.starts_with("--") => return Err(format!("unknown flag {a}\n{USAGE}")),
            _ => files.push(a),
        }
    }
    let [wasm_file, args_file] = files.as_slice() else {
        return Err(USAGE.into());
    };
    let wasm = std::fs::read(wasm_file).map_err(|e| format!("{wasm_file}: {e}"))?;
    let json = std::fs::read_to_string(args_file).map_err(|e| format!("{args_file}: {e}"))?;
    let lit: Literal = serde_json::from_str(&json).map_err(|e| format!("{args_file}: {e}"))?;
    let meta = Meta::read(&wasm).ok_or("the module has no readable isu.meta section")?;
    let engine = if perfmap {
        let mut config = wasmtime::Config::new();
        config.profiler(wasmtime::ProfilingStrategy::PerfMap);
        wasmtime::Engine::new(&config).map_err(|e| format!("wasmtime: {e}"))?
    } else {
        WasmBackend::new()
            .runner()
            .map_err(|d| d.message)?
            .engine()
            .clone()
    };
    let module = wasmtime::Module::new(&engine, &wasm).map_err(|e| format!("wasmtime: {e}"))?;
    let mut inst = Loaded::new(&engine, &module, meta.clone()).map_err(|d| d.message)?;
    let mut best = u128::MAX;
    let mut result = None;
    for _ in 0..repeat.max(1) {
        // Encoded afresh each round, as the LLVM executable reads its
        // arguments afresh; not timed.
        let encoded = encode_args(&meta, &lit).map_err(|d| d.message)?;
        let t = Instant::now();
        let r = inst.call(&encoded, &limits);
        best = best.min(t.elapsed().as_nanos());
        result = Some(r.map_err(|d| d.message)?);
    }
    if repeat > 0 {
        eprintln!("{best}");
    }
    if let Some(r) = result {
        println!("{r}");
    }
    Ok(())
}
