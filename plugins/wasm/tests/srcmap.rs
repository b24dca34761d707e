//! The source map: code offsets from a trap's backtrace (what a profiler
//! samples too) lead back to the step that was running, and every module
//! validates.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use isu_backend_wasm::meta::Meta;
use isu_backend_wasm::srcmap::SourceMap;
use isu_backend_wasm::{compile_module, validate, WasmBackend};
use wasmtime::{Instance, Store, WasmBacktrace};

#[test]
fn a_trap_points_at_its_step_through_the_source_map() {
    let text = func(
        "n: int",
        "int",
        "i: int, s: int",
        "    ASSIGN:\n      TARGET: s\n      EXPR: (const 1)\n    LOOP:\n      ITER: (range i (const 0) (var n))\n      BODY: BEGIN\n        IF:\n          COND: (gt (var i) (const 100))\n          THEN: BEGIN\n            ASSIGN:\n              TARGET: s\n              EXPR: (mul (var s) (const 1000000000))\n          END\n          ELSE: BEGIN\n          END\n      END\n    RETURN:\n      EXPR: (var s)\n",
    );
    let p = program(&text);
    let c = compile_module(&p).unwrap();
    let map = SourceMap::read(&c.wasm).unwrap();
    let meta = Meta::read(&c.wasm).unwrap();
    assert_eq!(
        meta.steps.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        ["S1", "S2", "S2_1", "S2_1_1", "S3"]
    );
    // Every step has a range, and ranges nest.
    let mut steps: Vec<u32> = map.ranges.iter().map(|r| r[2]).collect();
    steps.sort();
    assert_eq!(steps, [0, 1, 2, 3, 4]);

    let backend = WasmBackend::new();
    let runner = backend.runner().unwrap();
    let module = runner.module(&c.wasm).unwrap();
    let mut store = Store::new(runner.engine(), ());
    let instance = Instance::new(&mut store, &module, &[]).unwrap();
    let alloc = instance
        .get_typed_func::<i32, i32>(&mut store, "isu_alloc")
        .unwrap();
    let run = instance
        .get_typed_func::<i32, i32>(&mut store, "isu_run")
        .unwrap();
    let memory = instance.get_memory(&mut store, "memory").unwrap();
    let at = alloc.call(&mut store, 8).unwrap();
    memory
        .write(&mut store, at as usize, &200i64.to_le_bytes())
        .unwrap();
    let err = run.call(&mut store, at).unwrap_err();
    let trace = err.downcast_ref::<WasmBacktrace>().expect("a backtrace");
    let frame = trace
        .frames()
        .iter()
        .find(|f| f.func_index() == map.func)
        .expect("a frame in isu_run");
    let offset = frame.module_offset().expect("an offset") as u32;
    let step = map.step_at(offset).expect("a step at the offset");
    assert_eq!(meta.steps[step as usize].id, "S2_1_1");
    let code = instance
        .get_typed_func::<(), i32>(&mut store, "isu_error_code")
        .unwrap();
    assert_eq!(
        meta.errors[&code.call(&mut store, ()).unwrap().to_string()],
        "int_overflow"
    );
}

#[test]
fn every_conformance_module_validates() {
    // The cases that call pack functions are compiled with the shipped
    // packs' lowerings, as `isu build` compiles them; cases using features
    // the backend does not declare never reach it.
    let declared = isu_plugin_api::Backend::info(&WasmBackend::new()).features;
    let packs = isu_host::functions::Functions::linked(isu_packs::SHIPPED);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../conformance/cases");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "isu") {
            let text = std::fs::read_to_string(&path).unwrap();
            let fe =
                isu_host::pipeline::check_with(&isu_host::Source::new("case.isu", &text), &packs);
            let p = fe.valid_program().unwrap();
            let used = isu_plugin_api::features::used_by(p);
            if !declared.missing(used.iter().map(String::as_str)).is_empty() {
                continue;
            }
            let lowerings = packs
                .lowerings(
                    p,
                    "wasm",
                    &isu_plugin_api::Backend::info(&WasmBackend::new()),
                )
                .unwrap();
            let c = isu_backend_wasm::compile_with_packs(p, &lowerings).unwrap();
            validate(&c.wasm).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            n += 1;
        }
    }
    assert!(n > 0);
}
