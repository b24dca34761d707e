//! `run_isu FILE ARGS_JSON [MAX_STEPS]`: parse, validate and run one program
//! in the reference interpreter and print its result as JSON, the way
//! `isu run FILE --args JSON` does. `bench/run.py` uses it where the `isu`
//! binary has no `run` command.

use isu_host::interp::{self, RunOptions};
use isu_host::{diag, pipeline, Source};
use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    let (Some(file), Some(args)) = (argv.get(1), argv.get(2)) else {
        eprintln!("usage: run_isu FILE ARGS_JSON [MAX_STEPS]");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(1);
        }
    };
    let args: serde_json::Value = match serde_json::from_str(args) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("ARGS_JSON is not JSON: {e}");
            return ExitCode::from(2);
        }
    };
    let mut opts = RunOptions::default();
    if let Some(n) = argv.get(3).and_then(|s| s.parse().ok()) {
        opts.max_steps = n;
    }
    let src = Source::new(file.as_str(), text);
    let fe = pipeline::check(&src);
    let Some(program) = fe.valid_program() else {
        eprint!("{}", diag::render(&fe.diags, Some(&src), false));
        return ExitCode::from(4);
    };
    match interp::run(program, &args, &opts, None) {
        Ok(v) => {
            println!("{v}");
            ExitCode::SUCCESS
        }
        Err(d) => {
            eprint!("{}", diag::render(&[d], Some(&src), false));
            ExitCode::from(5)
        }
    }
}
