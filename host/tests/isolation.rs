//! Isolated execution: a backend that aborts, one that segfaults and one
//! that loops forever (the fixture `plugins/testing/crashy`, one target
//! each) take only their plugin host process down. Each crash is one failed
//! case, the cases around it pass, and `isu` itself carries on and reports.

mod common;

use common::built;
use isu_host::conformance::{self, Case, Options, Verdict};
use isu_host::executor::ViaBackend;
use isu_host::functions::Functions;
use isu_host::plugins::isolated::{HostCommand, IsolatedBackend};
use isu_plugin_api::{Backend, CompileOptions, Program};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

/// `NAME(a: int) -> int`: `a + 1`, run on 1. The fixture crashes on the
/// function names `crash` (in execute) and `crash_compile` (in compile).
fn inc(name: &str) -> String {
    format!(
        "; run: {{\"a\": 1}} => 2\nFUNC:\n  NAME: {name}\n  ARGS: [a: int]\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (add (var a) (const 1))\n  END\n"
    )
}

/// The cases, a crash between working ones: `a_before`, `b_crash`,
/// `c_crash_compile`, `d_after`.
fn cases() -> Vec<Case> {
    [
        ("a_before", "before"),
        ("b_crash", "crash"),
        ("c_crash_compile", "crash_compile"),
        ("d_after", "after"),
    ]
    .into_iter()
    .map(|(case, func)| Case {
        name: case.into(),
        path: PathBuf::from(format!("{case}.isu")),
        text: inc(func),
    })
    .collect()
}

const TIMEOUT: Duration = Duration::from_secs(3);

fn command() -> HostCommand {
    HostCommand {
        isu: PathBuf::from(env!("CARGO_BIN_EXE_isu")),
        timeout: Some(TIMEOUT),
        cpu_limit: Some(TIMEOUT),
    }
}

/// The suite on the fixture's `target`, through the library: the verdicts.
fn verdicts(target: &str) -> Vec<(String, Verdict)> {
    let library = built::library("isu_test_crashy");
    let backend = IsolatedBackend::start(&command(), &library);
    let backend = backend.unwrap_or_else(|r| panic!("{r:?}"));
    let features = backend.info().features;
    let executor = ViaBackend::new(Arc::new(backend), target, Functions::default());
    let options = Options { jobs: 1 };
    let prepared = conformance::prepare(&cases(), &Functions::default(), &options);
    conformance::backend_report(&prepared, &executor, &features, &options).verdicts
}

/// The one failure of a failed case.
fn failure(v: &Verdict) -> String {
    match v {
        Verdict::Failed(fs) if fs.len() == 1 => fs[0].to_string(),
        other => panic!("not one failure: {other:?}"),
    }
}

fn check(target: &str, execute_says: &str, compile_says: &str) {
    let v = verdicts(target);
    let names: Vec<&str> = v.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a_before", "b_crash", "c_crash_compile", "d_after"]);
    assert_eq!(v[0].1, Verdict::Passed, "{target}");
    assert_eq!(v[3].1, Verdict::Passed, "{target}: the suite goes on");
    let crash = failure(&v[1].1);
    assert!(crash.contains(execute_says), "{target}: {crash}");
    let compile = failure(&v[2].1);
    assert!(compile.contains("compile failed"), "{target}: {compile}");
    assert!(compile.contains(compile_says), "{target}: {compile}");
}

#[test]
fn an_abort_fails_its_case_and_the_suite_goes_on() {
    check(
        "abort",
        "the plugin host of the `crashy` backend died of signal 6 (SIGABRT) in execute [plugin_crashed]",
        "died of signal 6 (SIGABRT) in compile",
    );
}

#[test]
fn a_segfault_fails_its_case_and_the_suite_goes_on() {
    check(
        "segfault",
        "the plugin host of the `crashy` backend died of signal 11 (SIGSEGV) in execute [plugin_crashed]",
        "died of signal 11 (SIGSEGV) in compile",
    );
}

#[test]
fn a_plugin_that_never_answers_is_stopped_and_the_suite_goes_on() {
    check(
        "hang",
        "the `crashy` backend did not answer execute within 3 s; its plugin host was stopped [plugin_timeout]",
        "did not answer compile within 3 s",
    );
}

/// A call that spins on the CPU is stopped by the limit of its CPU time,
/// long before its wall-clock timeout, with the error that names that limit;
/// the next call gets a fresh plugin host.
#[cfg(target_os = "linux")]
#[test]
fn a_cpu_bound_call_is_stopped_by_the_cpu_limit() {
    let command = HostCommand {
        cpu_limit: Some(Duration::from_millis(500)),
        timeout: Some(Duration::from_secs(600)),
        ..command()
    };
    let library = built::library("isu_test_crashy");
    let backend = IsolatedBackend::start(&command, &library);
    let backend = backend.unwrap_or_else(|r| panic!("{r:?}"));
    let run = |name: &str| {
        let text = inc(name);
        let fe = isu_host::pipeline::check(&isu_host::Source::new("burn_cpu.isu", text.as_str()));
        let program = fe
            .valid_program()
            .unwrap_or_else(|| panic!("{:?}", fe.diags));
        let options = CompileOptions {
            target: "hang".into(),
            ..CompileOptions::default()
        };
        let artifacts = backend.compile(program, &options);
        let artifacts = artifacts.unwrap_or_else(|d| panic!("{d:?}"));
        let args = isu_plugin_api::Literal::Object(
            [("a".to_owned(), isu_plugin_api::Literal::Int(1))].into(),
        );
        let limits = isu_plugin_api::ExecOptions::new(isu_plugin_api::ExecLimits::DEFAULT);
        backend.execute(&artifacts, &args, &limits)
    };
    let spun = run("burn_cpu").map_err(|d| (d.code, d.message));
    assert_eq!(
        spun,
        Err((
            "plugin_cpu_limit".into(),
            "the `crashy` backend spent more than 0.5 s of CPU time in execute, the limit of a call's CPU time; its plugin host was stopped".into()
        ))
    );
    assert_eq!(run("fine"), Ok(isu_plugin_api::Literal::Int(2)));
}

/// A scratch folder with the cases and a manifest of the fixture.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("isolation-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let cases_dir = dir.join("cases");
    std::fs::create_dir_all(&cases_dir).unwrap_or_else(|e| panic!("{e}"));
    for c in cases() {
        std::fs::write(cases_dir.join(&c.path), &c.text).unwrap_or_else(|e| panic!("{e}"));
    }
    // The system layer's backends are left out: the suite runs on crashy only.
    let manifest = format!(
        "disable = [\"python\", \"wasm\", \"math\", \"llvm\"]\n\n[[plugin]]\nname = \"crashy\"\nkind = \"backend\"\nfile = {:?}\n",
        built::library("isu_test_crashy").display().to_string()
    );
    std::fs::write(dir.join("isu-plugins.toml"), manifest).unwrap_or_else(|e| panic!("{e}"));
    dir
}

#[test]
fn isu_conformance_survives_every_crash_and_reports_it() {
    let dir = scratch("cli");
    let out = Command::new(env!("CARGO_BIN_EXE_isu"))
        .current_dir(&dir)
        .args(["conformance", "--cases", "cases", "--timeout", "3"])
        .args(["--format", "json", "--junit", "results.xml"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(6),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    // The built-in cases and the four of `cases/`: each crash fails its one
    // case, and every other case still runs.
    let cases = json["cases"].as_u64().unwrap_or_default();
    assert_eq!(
        cases,
        json["builtin_cases"].as_u64().unwrap_or_default() + 4
    );
    // Only the cases of packs the manifest leaves out are unsupported.
    let interpreter = &json["reports"][0];
    let ran = interpreter["passed"].as_u64().unwrap_or_default()
        + interpreter["unsupported"].as_u64().unwrap_or_default();
    assert_eq!(ran, cases, "{text}");
    assert_eq!(interpreter["failed"].as_u64(), Some(0), "{text}");
    let summary: Vec<(String, u64, bool)> = json["reports"]
        .as_array()
        .map(|rs| {
            rs.iter()
                .map(|r| {
                    let n = |k: &str| r[k].as_u64().unwrap_or(0);
                    let all_ran = n("passed") + n("failed") + n("unsupported") == cases;
                    (
                        r["executor"].as_str().unwrap_or("").to_owned(),
                        n("failed"),
                        all_ran,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let expected: Vec<(String, u64, bool)> = ["interpreter", "abort", "segfault", "hang"]
        .iter()
        .map(|e| (e.to_string(), if *e == "interpreter" { 0 } else { 2 }, true))
        .collect();
    assert_eq!(summary, expected, "{text}");
    let xml = std::fs::read_to_string(dir.join("results.xml")).unwrap_or_default();
    assert!(
        xml.contains(&format!(
            "<testsuite name=\"segfault\" tests=\"{cases}\" failures=\"2\" "
        )),
        "{xml}"
    );
    assert!(xml.contains("SIGSEGV"), "{xml}");
}

#[test]
fn a_native_backend_runs_isolated_for_isu_run() {
    let dir = scratch("run");
    std::fs::write(dir.join("crash.isu"), inc("crash")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("fine.isu"), inc("fine")).unwrap_or_else(|e| panic!("{e}"));
    let isu = |file: &str| {
        Command::new(env!("CARGO_BIN_EXE_isu"))
            .current_dir(&dir)
            .args(["run", file, "--target", "segfault", "--args", "{\"a\": 41}"])
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let fine = isu("fine.isu");
    assert_eq!(fine.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&fine.stdout).trim(), "42");
    let crash = isu("crash.isu");
    let err = String::from_utf8_lossy(&crash.stderr);
    assert_eq!(crash.status.code(), Some(8), "{err}");
    assert!(
        err.contains("died of signal 11 (SIGSEGV) in execute"),
        "{err}"
    );
}

#[test]
fn a_plugin_host_refuses_what_the_loader_refuses_with_the_same_code() {
    use isu_host::plugins::{manifest, Layer, Loading, Place, PluginKind, Registry};
    let entry = |name: &str, krate: &str| {
        format!(
            "[[plugin]]\nname = \"{name}\"\nkind = \"backend\"\nfile = {:?}\n\n",
            built::library(krate).display().to_string()
        )
    };
    let text = entry("skewed", "isu_test_layout")
        + &entry("old", "isu_test_api_v1")
        + &entry("toy", "isu_backend_toy");
    let place = Place::File("/nowhere/isu-plugins.toml".into());
    let m = manifest::parse(&place, Layer::Flag, &text);
    let m = m.unwrap_or_else(|e| panic!("{e}"));
    let kinds = [PluginKind::Backend];
    let isolated = Registry::load_with(&m, &kinds, &Loading::Isolated(command()));
    let in_process = Registry::load_with(&m, &kinds, &Loading::InProcess);
    let refusals = |reg: &Registry| -> Vec<(&'static str, String)> {
        reg.errors()
            .iter()
            .map(|e| (e.code, e.message.clone()))
            .collect()
    };
    assert_eq!(refusals(&isolated), refusals(&in_process));
    let codes: Vec<&str> = refusals(&isolated).iter().map(|(c, _)| *c).collect();
    assert_eq!(codes, ["layout_mismatch", "plugin_api_version"]);
    assert_eq!(isolated.targets(), ["toy"]);
}

/// The program of `NAME: deep`'s function `ARGS: [a: int]` returning `expr`,
/// the toy backend in a plugin host, and options to compile for it.
fn deep_on_toy(expr: &str) -> (Program, IsolatedBackend, CompileOptions) {
    let text = format!(
        "FUNC:\n  NAME: deep\n  ARGS: [a: int]\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: {expr}\n  END\n"
    );
    let fe = isu_host::pipeline::check(&isu_host::Source::new("deep.isu", text.as_str()));
    let program = fe
        .valid_program()
        .unwrap_or_else(|| panic!("{:?}", fe.diags))
        .clone();
    let library = built::library("isu_backend_toy");
    let backend = IsolatedBackend::start(&command(), &library);
    let backend = backend.unwrap_or_else(|r| panic!("{r:?}"));
    let options = CompileOptions {
        target: "toy".into(),
        ..CompileOptions::default()
    };
    (program, backend, options)
}

#[test]
fn a_program_at_the_parsers_nesting_limit_crosses_to_a_plugin_host() {
    // An expression 90 deep (the parser allows 100 open brackets and
    // blocks): its IIR nests past serde_json's limit of 128 levels, which
    // the plugin host's reader once had.
    let mut e = "(var a)".to_owned();
    for _ in 0..90 {
        e = format!("(add (const 1) {e})");
    }
    let (program, backend, options) = deep_on_toy(&e);
    let artifacts = backend.compile(&program, &options);
    let artifacts = artifacts.unwrap_or_else(|d| panic!("{d:?}"));
    let args =
        isu_plugin_api::Literal::Object([("a".to_owned(), isu_plugin_api::Literal::Int(1))].into());
    let limits = isu_plugin_api::ExecOptions::new(isu_plugin_api::ExecLimits::DEFAULT);
    assert_eq!(
        backend.execute(&artifacts, &args, &limits),
        Ok(isu_plugin_api::Literal::Int(91))
    );
}

#[test]
fn a_request_the_plugin_host_cannot_read_is_answered_with_why() {
    // IIR nested past Isu's JSON reader (1024 levels), which no parsed
    // program reaches: built here by wrapping a RETURN's expression.
    let (program, backend, options) = deep_on_toy("(var a)");
    let mut deep = program.clone();
    let Some(isu_lang::iir::Node::Return { expr }) =
        deep.body.steps.first_mut().map(|s| &mut s.node)
    else {
        panic!("no RETURN: {deep:?}");
    };
    for _ in 0..600 {
        let inner = std::mem::replace(expr, isu_lang::build::int(0));
        *expr = isu_lang::build::bin(isu_lang::iir::BinaryOp::Add, isu_lang::build::int(1), inner);
    }
    let diags = backend.compile(&deep, &options).err().unwrap_or_default();
    let [d] = diags.as_slice() else {
        panic!("not one diagnostic: {diags:?}");
    };
    assert_eq!(d.code, "host_bug", "{d:?}");
    assert!(
        d.message
            .starts_with("the plugin host could not read a request: ")
            && d.message.contains("1024"),
        "{d:?}"
    );
    // The plugin host goes on answering.
    assert!(backend.compile(&program, &options).is_ok());
}

#[test]
fn an_answer_nested_past_serde_jsons_limit_is_read() {
    // A plugin host that answers every request with a value 600 arrays
    // deep: past serde_json's limit of 128 levels, within Isu's reader's
    // 1024, which reads the answers as it reads the requests. It is a
    // script that says the toy backend's hello (as the real plugin host
    // says it) and then that answer.
    let library = built::library("isu_backend_toy");
    let hello = Command::new(env!("CARGO_BIN_EXE_isu"))
        .arg("plugin-host")
        .arg(&library)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let hello = String::from_utf8_lossy(&hello.stdout);
    let hello = hello.lines().next().unwrap_or_default().to_owned();
    assert!(hello.contains("\"ready\""), "{hello}");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("isolation-deep-answer");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let depth = 600;
    let deep = format!("{}7{}", "[".repeat(depth), "]".repeat(depth));
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{e}"));
    };
    write("hello.json", &format!("{hello}\n"));
    write("answer.json", &format!("{{\"id\": 1, \"ok\": {deep}}}\n"));
    write(
        "host.sh",
        "#!/bin/sh\nd=$(dirname \"$0\")\ncat \"$d/hello.json\"\nwhile read -r line; do cat \"$d/answer.json\"; done\n",
    );
    let script = dir.join("host.sh");
    let mut perms = std::fs::metadata(&script)
        .unwrap_or_else(|e| panic!("{e}"))
        .permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&script, perms).unwrap_or_else(|e| panic!("{e}"));
    let command = HostCommand {
        isu: script,
        timeout: Some(TIMEOUT),
        cpu_limit: Some(TIMEOUT),
    };
    let backend = IsolatedBackend::start(&command, &library).unwrap_or_else(|r| panic!("{r:?}"));
    let args = isu_plugin_api::Literal::Object(Default::default());
    let limits = isu_plugin_api::ExecOptions::new(isu_plugin_api::ExecLimits::DEFAULT);
    let value = backend.execute(&[], &args, &limits);
    let mut want = isu_plugin_api::Literal::Int(7);
    for _ in 0..depth {
        want = isu_plugin_api::Literal::Array(vec![want]);
    }
    assert_eq!(value, Ok(want));
}
