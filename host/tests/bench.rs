//! Keeps `bench/` from rotting, timing nothing: every kernel `bench/NAME.isu`
//! has its hand-written `bench/NAME.py`, its C `bench/wasm/c/NAME.c` and its
//! arguments in `bench/kernels.json`; it passes the checker; on its `quick`
//! arguments the interpreter, the Python and the C give one answer; and the
//! bench command itself (`bench/all.py --quick`) runs every kernel on every
//! runner with this test's build and writes its JSON.

mod common;

use isu_host::interp::{self, RunOptions};
use isu_host::pipeline::check;
use isu_host::Source;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bench() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench")
}

/// The kernels: the names of `bench/*.isu`, sorted.
fn kernels() -> Vec<String> {
    let names: Vec<String> = common::names(&bench())
        .into_iter()
        .filter_map(|f| f.strip_suffix(".isu").map(str::to_owned))
        .collect();
    assert!(!names.is_empty(), "bench/ has no kernels");
    names
}

fn arguments() -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(bench().join("kernels.json"))
        .unwrap_or_else(|e| panic!("bench/kernels.json: {e}"));
    match serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("bench/kernels.json is not JSON: {e}"))
    {
        Value::Object(m) => m,
        other => panic!("bench/kernels.json is not an object: {other}"),
    }
}

fn output(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_kernel_has_its_python_its_c_and_its_arguments() {
    let names = kernels();
    let args = arguments();
    for name in &names {
        for file in [format!("{name}.py"), format!("wasm/c/{name}.c")] {
            assert!(bench().join(&file).is_file(), "bench/{file} is missing");
        }
        let entry = args
            .get(name)
            .unwrap_or_else(|| panic!("bench/kernels.json has no {name}"));
        for size in ["full", "quick", "empty"] {
            assert!(
                entry.get(size).is_some_and(Value::is_object),
                "bench/kernels.json: {name} has no {size} arguments"
            );
        }
    }
    let mut listed: Vec<&String> = args.keys().collect();
    listed.sort();
    assert_eq!(
        listed,
        names.iter().collect::<Vec<_>>(),
        "bench/kernels.json lists other kernels than bench/*.isu"
    );
    for c in common::names(&bench().join("wasm/c")) {
        if let Some(name) = c.strip_suffix(".c") {
            assert!(
                names.iter().any(|n| n == name),
                "bench/wasm/c/{c} has no bench/{name}.isu"
            );
        }
    }
}

#[test]
fn every_kernel_checks_and_agrees_with_its_python_and_c() {
    let args = arguments();
    let tmp = tempfile::tempdir().unwrap();
    for name in kernels() {
        let text = std::fs::read_to_string(bench().join(format!("{name}.isu"))).unwrap();
        let fe = check(&Source::new(&name, &text));
        let program = fe
            .valid_program()
            .unwrap_or_else(|| panic!("bench/{name}.isu does not check: {:?}", fe.diags));
        for size in ["quick", "empty"] {
            let given = &args[&name][size];
            let opts = RunOptions {
                max_steps: 1_000_000_000,
                max_size: 100_000_000,
                max_memory: 1 << 40,
            };
            let isu: Value = serde_json::from_str(
                &interp::run(program, given, &opts, None)
                    .unwrap_or_else(|d| panic!("bench/{name}.isu on {given}: {}", d.message))
                    .to_string(),
            )
            .unwrap();
            let py = output(
                Command::new("python3")
                    .arg(bench().join(format!("{name}.py")))
                    .arg(given.to_string()),
            );
            let py: Value = serde_json::from_str(py.trim()).unwrap();
            assert_eq!(py, isu, "bench/{name}.py on {given}");
            // The C program takes the repeat count, then the arguments in ARGS order.
            let exe = tmp.path().join(&name);
            output(
                Command::new("cc")
                    .arg("-O2")
                    .arg("-o")
                    .arg(&exe)
                    .arg(bench().join(format!("wasm/c/{name}.c"))),
            );
            let mut cmd = Command::new(&exe);
            cmd.arg("1");
            for a in &program.func.args {
                let v = given
                    .get(&a.name.name)
                    .unwrap_or_else(|| panic!("{name}: {size} lacks {}", a.name.name));
                cmd.arg(v.to_string());
            }
            let c = output(&mut cmd);
            let c: Value = serde_json::from_str(c.lines().next().unwrap_or_default()).unwrap();
            assert_eq!(c, isu, "bench/wasm/c/{name}.c on {given}");
        }
    }
}

/// The bench command on the quick arguments, every runner (the LLVM one
/// unless the build leaves it out), with this test's build of `isu`, its
/// plugins and the `run_wasm` example.
#[test]
fn the_bench_command_runs_quick() {
    let dir = common::built::workspace();
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        // The workspace's examples, as `cargo test --workspace` builds them
        // (the same features, so nothing is built twice).
        .args(["build", "--quiet", "--workspace", "--examples"])
        .env(
            "CARGO_TARGET_DIR",
            dir.parent().expect("the profile folder's parent"),
        );
    match dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => {}
        Some(profile) => {
            cmd.args(["--profile", profile]);
        }
    }
    output(&mut cmd);
    let mut runners = "c,cpython,interp,python,wasm,node".to_owned();
    if !common::built::llvm_left_out() {
        runners.push_str(",llvm");
    }
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("bench.json");
    let table = output(
        Command::new("python3")
            .arg(bench().join("all.py"))
            .args(["--quick", "--runners", &runners, "--bin-dir"])
            .arg(&dir)
            .arg("--json")
            .arg(&json),
    );
    assert!(table.contains("| **geomean** |"), "no table:\n{table}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for name in kernels() {
        assert!(
            doc["kernels"][&name]["cpu_seconds"].is_object(),
            "the JSON lacks {name}"
        );
        for ratio in doc["ratios"].as_object().unwrap().values() {
            assert!(
                ratio["kernels"][&name]["median"].is_number(),
                "the JSON lacks a ratio of {name}"
            );
        }
    }
    let ratios = doc["ratios"].as_object().unwrap();
    assert!(
        ratios.contains_key("wasm/c")
            && ratios.contains_key("node/c")
            && ratios.contains_key("python/cpython"),
        "{ratios:?}"
    );
}
