//! `cargo run -p isu_backend_python --example isu_to_python -- FILE.isu [OUT.py]`:
//! checks an Isu program with the host's front end and prints (or writes) the
//! Python module the backend makes of it. A stand-in for `isu build
//! --target python` for the backend's tests and benchmarks.

use isu_backend_python::PythonBackend;
use isu_host::{pipeline, Source};
use isu_plugin_api::{Backend, CompileOptions};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: isu_to_python FILE.isu [OUT.py]");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let fe = pipeline::check(&Source::new(path.clone(), text));
    let Some(program) = fe.valid_program() else {
        for d in &fe.diags {
            eprintln!("{path}: {} {}", d.code, d.message);
        }
        return ExitCode::FAILURE;
    };
    let module = match PythonBackend.compile(program, &CompileOptions::default()) {
        Ok(mut a) if !a.is_empty() => a.remove(0),
        Ok(_) => return ExitCode::FAILURE,
        Err(ds) => {
            for d in ds {
                eprintln!("{path}: {} {}", d.code, d.message);
            }
            return ExitCode::FAILURE;
        }
    };
    match args.get(1) {
        Some(out) => {
            if let Err(e) = std::fs::write(out, &module.bytes) {
                eprintln!("{out}: {e}");
                return ExitCode::FAILURE;
            }
        }
        None => print!("{}", String::from_utf8_lossy(&module.bytes)),
    }
    ExitCode::SUCCESS
}
