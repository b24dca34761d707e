//! The benchmarks of `bench/` compiled by the LLVM backend to native
//! executables, beside the same algorithms in C (`gcc -O2`,
//! `bench/wasm/c/NAME.c`): each times its own computation N times inside
//! its process (the executable with `--repeat N`, the C program with its
//! first argument), best of N, the two taking turns for `--rounds` rounds.
//! Checks that both give the interpreter's answer, then prints the times,
//! the ratios and their geometric mean. Run it with `bench/llvm/run.sh`
//! (or `cargo run --release -p isu_backend_llvm --example bench -- [--repeat
//! N] [--rounds R] [NAME ...]`).

use isu_backend_llvm::native::Scratch;
use isu_backend_llvm::LlvmBackend;
use isu_host::interp::{self, RunOptions};
use isu_host::pipeline::check;
use isu_host::Source;
use isu_plugin_api::{Backend, CompileOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

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

const MAX_STEPS: &str = "1000000000000";
const MAX_SIZE: &str = "100000000";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `cmd`; its standard output and standard error.
fn output(cmd: &mut Command) -> Result<(String, String), String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd:?} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

fn ns(text: &str, what: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .map_err(|_| format!("{what} printed {text:?}, not a time"))
}

fn run() -> Result<(), String> {
    let mut repeat = 5;
    let mut rounds = 3;
    let mut only = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut count = |what: &str| -> Result<u32, String> {
            args.next()
                .and_then(|n| n.parse().ok())
                .ok_or(format!("{what} takes a number"))
        };
        match a.as_str() {
            "--repeat" => repeat = count("--repeat")?,
            "--rounds" => rounds = count("--rounds")?,
            _ => only.push(a),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scratch = Scratch::new("bench")?;
    let backend = LlvmBackend::new();
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
        let arts = backend
            .compile(program, &CompileOptions::default())
            .map_err(|d| format!("{name}: {d:?}"))?;
        let exe = scratch.path(name);
        write_executable(&exe, &arts[0].bytes)?;
        let args_file = scratch.path(&format!("{name}.json"));
        std::fs::write(&args_file, json).map_err(|e| e.to_string())?;
        let c_exe = compile_c(&root, &scratch.dir, name)?;

        let (mut llvm_best, mut c_best) = (f64::INFINITY, f64::INFINITY);
        let (mut llvm_result, mut c_result) = (String::new(), String::new());
        for _ in 0..rounds {
            let (out, err) = output(
                Command::new(&exe)
                    .arg(&args_file)
                    .args(["--max-steps", MAX_STEPS, "--max-size", MAX_SIZE, "--repeat"])
                    .arg(repeat.to_string()),
            )?;
            llvm_best = llvm_best.min(ns(&err, name)?);
            llvm_result = out.trim().replace(' ', "");
            let (out, _) = output(
                Command::new(&c_exe)
                    .arg(repeat.to_string())
                    .args(c_args.iter().map(i64::to_string)),
            )?;
            let mut lines = out.lines();
            c_result = lines.next().unwrap_or_default().replace(' ', "");
            c_best = c_best.min(ns(lines.next().unwrap_or_default(), "C")?);
        }
        let args_json = isu_plugin_api::json::parse(json).map_err(|e| e.to_string())?;
        let opts = RunOptions {
            max_steps: 1_000_000_000_000,
            max_size: 100_000_000,
        };
        let oracle = interp::run(program, &args_json, &opts, None)
            .map_err(|d| d.message)?
            .to_string()
            .replace(' ', "");
        if llvm_result != oracle || c_result != oracle {
            return Err(format!(
                "{name}: results differ: llvm {llvm_result}, C {c_result}, interpreter {oracle}"
            ));
        }
        rows.push((name.to_string(), c_best / 1e6, llvm_best / 1e6));
    }
    println!("| benchmark | C -O2 | llvm | llvm/C |");
    println!("|---|---:|---:|---:|");
    let mut logs = 0.0;
    for (name, c, l) in &rows {
        println!("| {name} | {c:.2} ms | {l:.2} ms | {:.2} |", l / c);
        logs += (l / c).ln();
    }
    if !rows.is_empty() {
        println!("| geomean | | | {:.2} |", (logs / rows.len() as f64).exp());
    }
    Ok(())
}

fn write_executable(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

fn compile_c(root: &Path, out_dir: &Path, name: &str) -> Result<PathBuf, String> {
    let src = root.join("bench/wasm/c").join(format!("{name}.c"));
    let exe = out_dir.join(format!("{name}_c"));
    output(Command::new("gcc").args(["-O2", "-o"]).arg(&exe).arg(&src))?;
    Ok(exe)
}
