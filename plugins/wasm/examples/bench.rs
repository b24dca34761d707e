//! The benchmarks of `bench/` three ways: compiled to Wasm and run in
//! wasmtime (the call timed, not the compilation), the same algorithms in C
//! (`gcc -O2`, timed inside the program), and the reference interpreter
//! (in-process). Checks that all three agree, then prints the times and
//! ratios. Run it with `bench/wasm/run.sh` (or `cargo run --release -p
//! isu_backend_wasm --example bench -- [--repeat N] [NAME ...]`).

use isu_backend_wasm::exec::{encode_args, Loaded};
use isu_backend_wasm::meta::Meta;
use isu_backend_wasm::{compile_module, WasmBackend};
use isu_host::interp::{self, RunOptions};
use isu_host::pipeline::check;
use isu_host::Source;
use isu_plugin_api::{ExecLimits, Literal};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// name, arguments (JSON), and the same arguments in order for the C program.
const BENCHES: &[(&str, &str, &[i64])] = &[
    ("int_loop", r#"{"n": 3000000}"#, &[3_000_000]),
    ("sieve", r#"{"n": 2000000}"#, &[2_000_000]),
    ("insertion_sort", r#"{"n": 2500, "seed": 42}"#, &[2500, 42]),
    (
        "word_count",
        r#"{"n": 300000, "vocab": 5000, "seed": 7}"#,
        &[300_000, 5000, 7],
    ),
    ("matrix_product", r#"{"n": 120, "seed": 3}"#, &[120, 3]),
];

const LIMITS: ExecLimits = ExecLimits {
    max_steps: 1_000_000_000_000,
    max_size: 100_000_000,
};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut repeat = 5;
    let mut only = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--repeat" {
            repeat = args
                .next()
                .and_then(|n| n.parse().ok())
                .ok_or("--repeat takes a number")?;
        } else {
            only.push(a);
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out_dir = std::env::temp_dir().join(format!("isu-wasm-bench-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    let backend = WasmBackend::new();
    let runner = backend.runner().map_err(|d| d.message)?;
    let mut rows = Vec::new();
    for (name, json, c_args) in BENCHES {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let text = std::fs::read_to_string(root.join("bench").join(format!("{name}.isu")))
            .map_err(|e| format!("bench/{name}.isu: {e}"))?;
        let fe = check(&Source::new(*name, &text));
        let program = fe
            .valid_program()
            .ok_or(format!("bench/{name}.isu is not valid"))?;
        let lit: Literal = serde_json::from_str(json).map_err(|e| e.to_string())?;

        // Wasm in wasmtime.
        let compiled = compile_module(program).map_err(|d| d.message)?;
        let module = runner.module(&compiled.wasm).map_err(|d| d.message)?;
        let meta = Meta::read(&compiled.wasm).ok_or("no meta")?;
        let mut inst =
            Loaded::new(runner.engine(), &module, meta.clone()).map_err(|d| d.message)?;
        let encoded = encode_args(&meta, &lit).map_err(|d| d.message)?;
        let mut wasm_best = f64::INFINITY;
        let mut wasm_result = String::new();
        for _ in 0..repeat + 1 {
            let t = Instant::now();
            let r = inst
                .call(&encoded, &LIMITS)
                .map_err(|d| format!("{name}: {}", d.message))?;
            wasm_best = wasm_best.min(t.elapsed().as_secs_f64());
            wasm_result = r.to_string();
        }

        // C.
        let exe = compile_c(&root, &out_dir, name)?;
        let out = Command::new(&exe)
            .arg(repeat.to_string())
            .args(c_args.iter().map(i64::to_string))
            .output()
            .map_err(|e| format!("{}: {e}", exe.display()))?;
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let mut lines = stdout.lines();
        let c_result = lines.next().unwrap_or_default().to_owned();
        let c_ns: f64 = lines
            .next()
            .and_then(|l| l.parse().ok())
            .ok_or(format!("{name}: C printed {stdout}"))?;
        let c_best = c_ns / 1e9;

        // The interpreter.
        let args_json: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let opts = RunOptions {
            max_steps: LIMITS.max_steps,
            max_size: LIMITS.max_size as usize,
        };
        let mut interp_best = f64::INFINITY;
        let mut interp_result = String::new();
        for _ in 0..repeat.clamp(1, 2) {
            let t = Instant::now();
            let r = interp::run(program, &args_json, &opts, None).map_err(|d| d.message)?;
            interp_best = interp_best.min(t.elapsed().as_secs_f64());
            interp_result = r.to_string();
        }
        if wasm_result != c_result || wasm_result != interp_result {
            return Err(format!(
                "{name}: results differ: wasm {wasm_result}, C {c_result}, interpreter {interp_result}"
            ));
        }
        rows.push((name.to_string(), c_best, wasm_best, interp_best));
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    println!(
        "{:<16} {:>10} {:>10} {:>12} {:>8} {:>10}",
        "benchmark", "C -O2", "wasm", "interpreter", "wasm/C", "interp/C"
    );
    let mut logs = (0.0, 0.0);
    for (name, c, w, i) in &rows {
        println!(
            "{name:<16} {:>8.2}ms {:>8.2}ms {:>10.2}ms {:>8.2} {:>10.1}",
            c * 1e3,
            w * 1e3,
            i * 1e3,
            w / c,
            i / c
        );
        logs.0 += (w / c).ln();
        logs.1 += (i / c).ln();
    }
    if !rows.is_empty() {
        let n = rows.len() as f64;
        println!(
            "{:<16} {:>10} {:>10} {:>12} {:>8.2} {:>10.1}",
            "geomean",
            "",
            "",
            "",
            (logs.0 / n).exp(),
            (logs.1 / n).exp()
        );
    }
    Ok(())
}

fn compile_c(root: &Path, out_dir: &Path, name: &str) -> Result<PathBuf, String> {
    let src = root.join("bench/wasm/c").join(format!("{name}.c"));
    let exe = out_dir.join(name);
    let status = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .map_err(|e| format!("gcc: {e}"))?;
    if !status.success() {
        return Err(format!("gcc failed on {}", src.display()));
    }
    Ok(exe)
}
