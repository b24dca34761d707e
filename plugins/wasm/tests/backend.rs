//! The backend's face: what it says it is, what it refuses, what it emits.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use isu_backend_wasm::WasmBackend;
use isu_plugin_api::{Artifact, Backend, CompileOptions};

fn sum_evens() -> isu_plugin_api::Program {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/sum_evens.isu"
    ))
    .unwrap();
    program(&text)
}

#[test]
fn info_names_the_target_and_emits() {
    let info = WasmBackend::new().info();
    assert_eq!(info.name, "wasm");
    assert_eq!(info.targets, ["wasm"]);
    assert_eq!(info.emits, ["wasm", "js"]);
    assert!(info.features.lacks().is_empty());
    let execute = info
        .execute
        .as_ref()
        .map(|e| (e.artifact.as_str(), e.native));
    assert_eq!(execute, Some(("wasm", true)));
}

#[test]
fn unknown_targets_and_emits_are_refused() {
    let b = WasmBackend::new();
    let p = sum_evens();
    let opts = CompileOptions {
        target: "llvm".into(),
        ..Default::default()
    };
    assert_eq!(
        b.compile(&p, &opts).unwrap_err()[0].code,
        "unsupported_target"
    );
    let opts = CompileOptions {
        emit: vec!["wat".into()],
        ..Default::default()
    };
    assert_eq!(
        b.compile(&p, &opts).unwrap_err()[0].code,
        "unsupported_emit"
    );
}

#[test]
fn the_default_emit_is_one_wasm_file_named_for_the_function() {
    let b = WasmBackend::new();
    let arts = b.compile(&sum_evens(), &CompileOptions::default()).unwrap();
    assert_eq!(arts.len(), 1);
    assert_eq!(
        (arts[0].kind.as_str(), arts[0].file_name.as_str()),
        ("wasm", "sum_evens.wasm")
    );
    assert!(arts[0].bytes.starts_with(b"\0asm"));
    // Compiling is deterministic.
    let again = b.compile(&sum_evens(), &CompileOptions::default()).unwrap();
    assert_eq!(arts, again);
}

#[test]
fn execute_needs_a_wasm_artifact_and_an_args_object() {
    let b = WasmBackend::new();
    let js_only = [Artifact::new("js", "x.mjs", Vec::new())];
    let e = b.execute(&js_only, &lit("{}"), &options()).unwrap_err();
    assert_eq!(e.code, "cannot_execute");
    let arts = compile(&b, &sum_evens());
    for (args, want) in [
        ("[]", "error invalid_argument at -"),
        ("{}", "error invalid_argument at -"),
        (r#"{"xs": [1], "ys": 2}"#, "error invalid_argument at -"),
        (r#"{"xs": [true]}"#, "error invalid_argument at -"),
        (r#"{"xs": [2, 4]}"#, "6"),
    ] {
        assert_eq!(
            show(b.execute(&arts, &lit(args), &options())),
            want,
            "{args}"
        );
    }
}

#[test]
fn the_opt_level_setting_chooses_how_wasmtime_compiles() {
    let b = WasmBackend::new();
    let arts = compile(&b, &sum_evens());
    let at = |level: &str| {
        let mut options = options();
        options
            .settings
            .insert(isu_backend_wasm::SETTING_OPT_LEVEL.into(), level.into());
        show(b.execute(&arts, &lit(r#"{"xs": [2, 3, 4]}"#), &options))
    };
    for level in ["none", "speed", "speed_and_size"] {
        assert_eq!(at(level), "6", "{level}");
    }
    let setting = b.info().settings;
    let values: Vec<&str> = setting[0].values.iter().map(String::as_str).collect();
    assert_eq!(values, ["none", "speed", "speed_and_size"]);
    let e = b
        .execute(&arts, &lit("{}"), &{
            let mut o = options();
            o.settings.insert("opt_level".into(), "fast".into());
            o
        })
        .unwrap_err();
    assert_eq!(e.code, "invalid_setting");
}
