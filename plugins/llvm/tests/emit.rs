//! What `compile` writes: the artifact kinds, textual IR that LLVM's own
//! verifier accepts, bitcode, an object file whose line table points at the
//! Isu source, an executable; and what it refuses.
#![cfg(isu_llvm)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use isu_backend_llvm::native::Scratch;
use isu_backend_llvm::LlvmBackend;
use isu_plugin_api::{Backend, BackendCode, CompileOptions, ExecOptions};
use std::process::Command;

fn sum_evens() -> isu_plugin_api::Program {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/sum_evens.isu"
    ))
    .unwrap();
    program(&text)
}

fn emit(kinds: &[&str]) -> Vec<isu_plugin_api::Artifact> {
    let opts = CompileOptions {
        target: "llvm".into(),
        emit: kinds.iter().map(|k| (*k).to_owned()).collect(),
        ..CompileOptions::default()
    };
    LlvmBackend::new()
        .compile(&sum_evens(), &opts)
        .unwrap_or_else(|e| panic!("{e:?}"))
}

/// An LLVM 19 tool of the LLVM the build found (build.rs).
fn tool(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("ISU_LLVM_BINDIR")).join(name)
}

#[test]
fn info_names_the_target_and_emits() {
    let info = LlvmBackend::new().info();
    assert_eq!(info.name, "llvm");
    assert_eq!(info.targets, ["llvm"]);
    assert_eq!(info.emits, ["exe", "obj", "ll", "bc"]);
    // All of the language, floats included.
    assert!(
        info.features.lacks().is_empty(),
        "{:?}",
        info.features.lacks()
    );
    assert!(info.features.supports("float"));
    let execute = info
        .execute
        .as_ref()
        .map(|e| (e.artifact.as_str(), e.native));
    assert_eq!(execute, Some(("exe", true)));
}

#[test]
fn every_kind_is_written_under_the_functions_name() {
    let arts = emit(&["ll", "bc", "obj", "exe"]);
    let names: Vec<_> = arts
        .iter()
        .map(|a| (a.kind.as_str(), a.file_name.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("ll", "sum_evens.ll"),
            ("bc", "sum_evens.bc"),
            ("obj", "sum_evens.o"),
            ("exe", "sum_evens")
        ]
    );
    // Only the executable is marked to be written with the execute permission.
    let executable: Vec<bool> = arts.iter().map(|a| a.executable).collect();
    assert_eq!(executable, [false, false, false, true]);
    let default = LlvmBackend::new()
        .compile(&sum_evens(), &CompileOptions::default())
        .unwrap();
    assert_eq!(default.len(), 1);
    assert_eq!(default[0].kind, "exe");
    // An ELF object and an ELF executable for this host.
    assert_eq!(&arts[2].bytes[..4], b"\x7fELF");
    assert_eq!(&arts[3].bytes[..4], b"\x7fELF");
}

#[test]
fn the_ir_passes_llvms_verifier_and_the_bitcode_loads() {
    let arts = emit(&["ll", "bc"]);
    let dir = Scratch::new("test-emit").unwrap();
    let ll = dir.path("sum_evens.ll");
    std::fs::write(&ll, &arts[0].bytes).unwrap();
    let out = Command::new(tool("opt"))
        .args(["-passes=verify", "-disable-output"])
        .arg(&ll)
        .output()
        .expect("opt from LLVM 19 (llvm-19)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(arts[0].bytes.clone()).unwrap();
    assert!(
        text.contains("define void @isu_run(ptr"),
        "isu_run is in the IR"
    );
    assert!(
        text.contains("@isu_program = local_unnamed_addr constant"),
        "the program table is in the IR"
    );
    assert!(
        text.contains("!DIFile(filename: \"sum_evens.isu\""),
        "debug info names the source"
    );
    let cx = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(&arts[1].bytes, "sum_evens.bc");
    let m = Module::parse_bitcode_from_buffer(&buf, &cx).unwrap();
    assert!(m.get_function("isu_run").is_some());
    assert!(m.verify().is_ok());
}

#[test]
fn the_object_maps_code_to_isu_lines() {
    let arts = emit(&["obj"]);
    let dir = Scratch::new("test-dwarf").unwrap();
    let obj = dir.path("sum_evens.o");
    std::fs::write(&obj, &arts[0].bytes).unwrap();
    let out = Command::new(tool("llvm-dwarfdump"))
        .arg("--debug-line")
        .arg(&obj)
        .output()
        .expect("llvm-dwarfdump from LLVM 19 (llvm-19)");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("sum_evens.isu"), "{text}");
    // The rows of the line table name the lines of the steps: S1 (the LOOP,
    // line 14 of examples/sum_evens.isu) its IF and ASSIGN, and S2.
    let lines: std::collections::BTreeSet<u64> = text
        .lines()
        .filter(|l| l.starts_with("0x"))
        .filter_map(|l| l.split_whitespace().nth(1)?.parse().ok())
        .collect();
    for want in [14, 17, 20, 25] {
        assert!(lines.contains(&want), "line {want} is not in {lines:?}");
    }
}

#[test]
fn unknown_targets_and_emits_are_refused() {
    let b = LlvmBackend::new();
    let p = sum_evens();
    let opts = |target: &str, emit: &[&str]| CompileOptions {
        target: target.into(),
        emit: emit.iter().map(|k| (*k).to_owned()).collect(),
        ..CompileOptions::default()
    };
    let e = b.compile(&p, &opts("wasm", &[])).unwrap_err();
    assert_eq!(e[0].code, "unsupported_target");
    let e = b.compile(&p, &opts("llvm", &["asm"])).unwrap_err();
    assert_eq!(e[0].code, "unsupported_emit");
    assert!(
        e[0].message.contains("exe, obj, ll, bc"),
        "{}",
        e[0].message
    );
}

#[test]
fn execute_needs_an_executable() {
    let b = LlvmBackend::new();
    let arts = emit(&["ll"]);
    let e = b
        .execute(&arts, &lit(r#"{"xs": [1]}"#), &ExecOptions::new(LIMITS))
        .unwrap_err();
    assert_eq!(e.backend_code(), Some(BackendCode::CannotExecute));
    assert!(e.message.contains("--emit exe"), "{}", e.message);
    let arts = emit(&["exe"]);
    assert_eq!(
        show(b.execute(
            &arts,
            &lit(r#"{"xs": [1, 2, 3, 4, 10]}"#),
            &ExecOptions::new(LIMITS)
        )),
        "16"
    );
    assert_eq!(
        show(b.execute(
            &arts,
            &lit(r#"{"xs": [1], "ys": []}"#),
            &ExecOptions::new(LIMITS)
        )),
        "error invalid_argument at -"
    );
}
