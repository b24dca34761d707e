//! The JavaScript loader under Node: programs compiled with `emit: js` run
//! through the generated ES module and agree with the in-process runner;
//! `WebAssembly.validate` accepts every module.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use isu_backend_wasm::WasmBackend;
use isu_plugin_api::{Backend, CompileOptions, Literal};
use std::process::Command;

/// A JavaScript expression for a literal, ints as BigInt literals.
fn js_value(l: &Literal) -> String {
    match l {
        Literal::Int(i) => format!("{i}n"),
        Literal::Bool(b) => b.to_string(),
        // A float's text (Python's repr) is a JavaScript Number literal.
        Literal::Float(_) | Literal::Str(_) => l.to_string(),
        Literal::Array(items) => format!(
            "[{}]",
            items.iter().map(js_value).collect::<Vec<_>>().join(", ")
        ),
        // Built from entries: in an object literal, `"__proto__": v` would
        // set the prototype instead of making a key.
        Literal::Object(entries) => format!(
            "Object.fromEntries([{}])",
            entries
                .iter()
                .map(|(k, v)| format!("[{}, {}]", Literal::Str(k.clone()), js_value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

const DRIVER_HEAD: &str = r#"
import { readFileSync } from "node:fs";
import { load, toJson as json } from "./f.mjs";
const valid = WebAssembly.validate(readFileSync(new URL("./f.wasm", import.meta.url)));
console.log(`valid ${valid}`);
const f = await load();
const show = (thunk) => {
  try { return json(thunk()); } catch (e) { return `error ${e.code} at ${e.step ?? "-"}`; }
};
"#;

/// Runs `text` through the loader on each of `args`; the lines Node printed.
fn node_run(text: &str, args: &[&str], tag: &str) -> Vec<String> {
    let mut driver = DRIVER_HEAD.to_owned();
    for a in args {
        driver.push_str(&format!(
            "console.log(show(() => f.run({})));\n",
            js_value(&lit(a))
        ));
    }
    node_script(text, &driver, tag)
}

/// Compiles `text` with its loader and runs the ES module `driver` beside
/// them (`./f.mjs` and `./f.wasm` in it name the two); the lines Node printed.
fn node_script(text: &str, driver: &str, tag: &str) -> Vec<String> {
    node_program(&program(text), Vec::new(), driver, tag)
}

/// [`node_script`] for a validated program, with the lowerings of the pack
/// functions it calls.
fn node_program(
    p: &isu_plugin_api::Program,
    lowerings: Vec<isu_plugin_api::pack::Lowering>,
    driver: &str,
    tag: &str,
) -> Vec<String> {
    node_program_with(p, lowerings, driver, tag, &[])
}

/// [`node_program`] with these flags to Node.
fn node_program_with(
    p: &isu_plugin_api::Program,
    lowerings: Vec<isu_plugin_api::pack::Lowering>,
    driver: &str,
    tag: &str,
    node_flags: &[&str],
) -> Vec<String> {
    let b = WasmBackend::new();
    let opts = CompileOptions {
        target: "wasm".into(),
        emit: vec!["js".into()],
        lowerings,
        ..Default::default()
    };
    let arts = b.compile(p, &opts).unwrap();
    assert_eq!(
        arts.iter().map(|a| a.kind.as_str()).collect::<Vec<_>>(),
        ["wasm", "js"]
    );
    let dir = std::env::temp_dir().join(format!("isu-wasm-node-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for a in &arts {
        std::fs::write(dir.join(&a.file_name), &a.bytes).unwrap();
    }
    let driver = driver
        .replace("./f.mjs", &format!("./{}", arts[1].file_name))
        .replace("./f.wasm", &format!("./{}", arts[0].file_name));
    std::fs::write(dir.join("driver.mjs"), driver).unwrap();
    let out = Command::new("node")
        .args(node_flags)
        .arg(dir.join("driver.mjs"))
        .output()
        .expect("node runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Node's answers equal the in-process runner's for every argument set.
fn agree(text: &str, args: &[&str], tag: &str) {
    let lines = node_run(text, args, tag);
    assert_eq!(lines.first().map(String::as_str), Some("valid true"));
    for (a, got) in args.iter().zip(&lines[1..]) {
        let want = run(text, a);
        let same = match (
            serde_json::from_str::<Literal>(got),
            serde_json::from_str::<Literal>(&want),
        ) {
            (Ok(x), Ok(y)) => x == y,
            _ => got == &want,
        };
        assert!(same, "args {a}: node gave {got}, wasmtime {want}");
    }
    assert_eq!(lines.len(), args.len() + 1);
}

#[test]
fn ints_errors_and_big_values_cross_as_bigint() {
    let text = func(
        "a: int, b: int",
        "int",
        "",
        "    RETURN:\n      EXPR: (div (var a) (var b))\n",
    );
    agree(
        &text,
        &[
            r#"{"a": 7, "b": 2}"#,
            r#"{"a": -9223372036854775808, "b": 1}"#,
            r#"{"a": 1, "b": 0}"#,
        ],
        "ints",
    );
}

#[test]
fn floats_cross_as_numbers() {
    let text = func(
        "xs: float[], d: float, s: string",
        "float[]",
        "",
        "    RETURN:\n      EXPR: (call PUSH (call PUSH (var xs) (div (const 1.0) (var d))) (call PARSE_FLOAT (var s)))\n",
    );
    agree(
        &text,
        &[
            r#"{"xs": [0.1, -0.0, 2, 5e-324, 1.7976931348623157e308], "d": 3, "s": " 1_0.5e1 "}"#,
            r#"{"xs": [], "d": -0.0, "s": "1"}"#,
            r#"{"xs": [], "d": 1e-320, "s": "1"}"#,
            r#"{"xs": [], "d": 1.0, "s": "1e400"}"#,
            r#"{"xs": [], "d": 1.0, "s": "inf"}"#,
        ],
        "floats",
    );
    let shown = func(
        "x: float",
        "string",
        "",
        "    RETURN:\n      EXPR: (call TO_STRING (var x))\n",
    );
    agree(
        &shown,
        &[
            r#"{"x": 1e16}"#,
            r#"{"x": 0.30000000000000004}"#,
            r#"{"x": -1.5e-7}"#,
        ],
        "repr",
    );
}

#[test]
fn strings_arrays_and_maps_cross_as_plain_values() {
    let text = func(
        "words: string[]",
        "map<string,int>",
        "m: map<string,int>, w: string",
        "    ASSIGN:\n      TARGET: m\n      EXPR: (const {})\n    LOOP:\n      ITER: (each w (var words))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: (index m (call LOWER (var w)))\n          EXPR: (add (call MAP_GET_OR (var m) (call LOWER (var w)) (const 0)) (const 1))\n      END\n    RETURN:\n      EXPR: (var m)\n",
    );
    agree(
        &text,
        &[
            r#"{"words": ["Über", "b", "über", "A"]}"#,
            r#"{"words": []}"#,
        ],
        "maps",
    );
    let keys = func(
        "m: map<int,string>",
        "int[]",
        "",
        "    RETURN:\n      EXPR: (call MAP_KEYS (var m))\n",
    );
    agree(
        &keys,
        &[r#"{"m": {"10": "a", "-3": "b", "2": "c"}}"#],
        "keys",
    );
}

#[test]
fn map_keys_named_like_object_properties_are_plain_keys() {
    let text = func(
        "words: string[]",
        "map<string,int>",
        "m: map<string,int>, w: string",
        "    ASSIGN:\n      TARGET: m\n      EXPR: (const {})\n    LOOP:\n      ITER: (each w (var words))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: (index m (var w))\n          EXPR: (add (call MAP_GET_OR (var m) (var w) (const 0)) (const 1))\n      END\n    RETURN:\n      EXPR: (var m)\n",
    );
    let lines = node_run(
        &text,
        &[r#"{"words": ["__proto__", "a", "__proto__", "constructor"]}"#],
        "proto",
    );
    assert_eq!(
        lines[1..],
        [r#"{"__proto__": 2, "a": 1, "constructor": 1}"#]
    );
}

/// A function of `n` that counts to it in `n` rounds of its LOOP (S2).
fn count_to_n() -> String {
    func(
        "n: int",
        "int",
        "i: int, k: int",
        "    ASSIGN:\n      TARGET: k\n      EXPR: (const 0)\n    LOOP:\n      ITER: (range i (const 0) (var n))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: k\n          EXPR: (add (var k) (const 1))\n      END\n    RETURN:\n      EXPR: (var k)\n",
    )
}

#[test]
fn a_call_without_limits_has_every_executors_default() {
    let text = count_to_n();
    let most = isu_plugin_api::ExecLimits::DEFAULT.max_steps;
    let lines = node_run(
        &text,
        &[
            &format!(r#"{{"n": {most}}}"#),
            &format!(r#"{{"n": {}}}"#, most + 1),
        ],
        "default-limits",
    );
    assert_eq!(
        lines[1..],
        [most.to_string(), "error step_limit at S2".into()]
    );
}

#[test]
fn a_module_called_without_limits_has_every_executors_default() {
    // A host that skips `isu_set_limits` gets the module's own defaults.
    let text = count_to_n();
    let most = isu_plugin_api::ExecLimits::DEFAULT.max_steps;
    let driver = format!(
        r#"
import {{ readFileSync }} from "node:fs";
import {{ load }} from "./f.mjs";
const meta = (await load()).meta;
const {{ instance }} = await WebAssembly.instantiate(readFileSync(new URL("./f.wasm", import.meta.url)), {{}});
const x = instance.exports;
for (const n of [{most}n, {}n]) {{
  x.isu_reset();
  const at = x.isu_alloc(8);
  new DataView(x.memory.buffer).setBigInt64(at, n, true);
  try {{
    const p = x.isu_run(at);
    console.log(new DataView(x.memory.buffer).getBigInt64(p, true).toString());
  }} catch (e) {{
    console.log(`error ${{meta.errors[String(x.isu_error_code())]}}`);
  }}
}}
"#,
        most + 1
    );
    let lines = node_script(&text, &driver, "module-defaults");
    assert_eq!(lines, [most.to_string(), "error step_limit".into()]);
}

#[test]
fn bad_arguments_are_invalid_argument_errors() {
    let text = func(
        "xs: int[]",
        "int",
        "",
        "    RETURN:\n      EXPR: (call LEN (var xs))\n",
    );
    let lines = node_run(&text, &[r#"{"xs": [1, "x"]}"#, r#"{"ys": []}"#], "bad");
    assert_eq!(
        lines[1..],
        ["error invalid_argument at -", "error invalid_argument at -"]
    );
}

#[test]
fn conformance_programs_through_the_loader_agree_with_the_interpreter() {
    use isu_host::cases;
    use isu_host::interp::{self, RunOptions};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../conformance/cases");
    for name in [
        "sum_evens",
        "word_count",
        "group_by_key",
        "std_strings",
        "map_result_int_keys",
        "overflow",
        "unicode_strings",
        "insertion_sort",
        "map_string_keys_named_like_js",
        "std_sort",
        "std_sort_strings",
        "std_split",
        "std_search",
        "std_upper_search_words",
        "struct_array_field_assign",
        "struct_equality",
        "struct_field_assign",
        "struct_in_map",
        "struct_json_nested",
        "struct_literal_and_field",
        "struct_runtime_errors",
        "struct_value_semantics",
        "struct_arguments",
        "struct_in_collections",
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{name}.isu")).unwrap();
        let runs = cases::parse(&text).unwrap().runs;
        let p = program(&text);
        let args: Vec<String> = runs.iter().map(|r| r.args.to_string()).collect();
        let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let lines = node_run(&text, &arg_refs, name);
        assert_eq!(lines[0], "valid true", "{name}");
        for (r, got) in runs.iter().zip(&lines[1..]) {
            let want = match interp::run(&p, &r.args, &RunOptions::default(), None) {
                Ok(v) => v.to_string(),
                Err(d) => format!(
                    "error {} at {}",
                    d.code.as_str(),
                    d.step
                        .as_ref()
                        .map(|s| s.to_string())
                        .unwrap_or_else(|| "-".into())
                ),
            };
            // JavaScript orders an object's integer-like keys its own way:
            // compare values, not key order.
            let same = match (
                serde_json::from_str::<Literal>(got),
                serde_json::from_str::<Literal>(&want),
            ) {
                (Ok(a), Ok(b)) => a == b,
                _ => got == &want,
            };
            assert!(
                same,
                "{name} line {}: node gave {got}, the interpreter {want}",
                r.line
            );
        }
    }
}

/// Every conformance case calling a shipped pack function, through the
/// loader under its case's limits: the lowerings compiled into the module
/// run in Node as in the interpreter.
#[test]
fn pack_cases_through_the_loader_agree_with_the_interpreter() {
    use isu_host::cases;
    use isu_host::interp::{self, RunOptions};
    let packs = isu_host::functions::Functions::linked(isu_packs::SHIPPED);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../conformance/cases");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("pack_") && n.ends_with(".isu"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "{names:?}");
    for name in &names {
        let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        let case = cases::parse(&text).unwrap();
        let limits = case.limits.unwrap_or(LIMITS);
        let fe = isu_host::pipeline::check_with(&isu_host::Source::new(name, &text), &packs);
        let p = fe.valid_program().unwrap().clone();
        let lowerings = packs
            .lowerings(&p, "wasm", &WasmBackend::new().info())
            .unwrap();
        let mut driver = DRIVER_HEAD.replace(
            "await load();",
            &format!(
                "await load(undefined, {{ maxSteps: {}, maxSize: {}, maxMemory: {} }});",
                limits.max_steps, limits.max_size, limits.max_memory
            ),
        );
        for r in &case.runs {
            let args = serde_json::from_value::<Literal>(r.args.clone()).unwrap();
            driver.push_str(&format!(
                "console.log(show(() => f.run({})));\n",
                js_value(&args)
            ));
        }
        let lines = node_program(&p, lowerings, &driver, name.trim_end_matches(".isu"));
        assert_eq!(lines[0], "valid true", "{name}");
        assert_eq!(lines.len(), case.runs.len() + 1, "{name}");
        for (r, got) in case.runs.iter().zip(&lines[1..]) {
            let opts = RunOptions::from(limits);
            let want = match interp::run_with(&p, &r.args, &opts, None, &packs) {
                Ok(v) => v.to_string(),
                Err(d) => format!(
                    "error {} at {}",
                    d.code.as_str(),
                    d.step.map_or_else(|| "-".to_owned(), |s| s.to_string())
                ),
            };
            let same = match (
                serde_json::from_str::<Literal>(got),
                serde_json::from_str::<Literal>(&want),
            ) {
                (Ok(a), Ok(b)) => a == b,
                _ => got == &want,
            };
            assert!(
                same,
                "{name} line {}: node gave {got}, the interpreter {want}",
                r.line
            );
        }
    }
}

#[test]
fn the_loaders_budget_counts_work() {
    // CONCAT spends the lengths of both strings (not in place: t is another
    // variable), from the same budget as loop rounds.
    let text = func(
        "s: string",
        "int",
        "t: string",
        "    ASSIGN:\n      TARGET: t\n      EXPR: (call CONCAT (var s) (var s))\n    RETURN:\n      EXPR: (call LEN (var t))\n",
    );
    let driver = DRIVER_HEAD.replace("await load();", "await load(undefined, { maxSteps: 6 });")
        + "console.log(show(() => f.run({ s: \"abé\" })));\nconsole.log(show(() => f.run({ s: \"abcd\" })));\n";
    let lines = node_script(&text, &driver, "work");
    let limits = isu_plugin_api::ExecLimits {
        max_steps: 6,
        ..LIMITS
    };
    let want = [
        run_with(&text, r#"{"s": "abé"}"#, limits),
        run_with(&text, r#"{"s": "abcd"}"#, limits),
    ];
    assert_eq!(want, ["6".to_owned(), "error step_limit at S1".to_owned()]);
    assert_eq!(lines[1..], want);
}

#[test]
fn the_loader_passes_the_memory_limit() {
    // `t` holds twice `s`: 3 + 6 units for "abc", 2 + 4 for "ab".
    let text = func(
        "s: string",
        "int",
        "t: string",
        "    ASSIGN:\n      TARGET: t\n      EXPR: (call CONCAT (var s) (var s))\n    RETURN:\n      EXPR: (call LEN (var t))\n",
    );
    let driver = format!(
        "{DRIVER_HEAD}const g = await load(undefined, {{ maxMemory: 8 }});\n\
         for (const s of [\"ab\", \"abc\"]) {{\n  console.log(show(() => g.run({{ s }})));\n  console.log(show(() => f.run({{ s }})));\n}}\n"
    );
    let lines = node_script(&text, &driver, "memory-limit");
    assert_eq!(
        lines[1..],
        ["4", "4", "error memory_limit at S1", "6"],
        "{lines:?}"
    );
}

/// The driver of the tier tests: whether the loader's `isu_run` is TurboFan
/// code before the first call, and Liftoff code after a call.
const TIERS: &str = r#"
import { load } from "./f.mjs";
const f = await load();
const run = f.instance.exports.isu_run;
console.log(`turbofan ${%IsTurboFanFunction(run)}`);
f(3n);
console.log(`liftoff ${%IsLiftoffFunction(run)}`);
"#;

#[test]
fn the_loader_compiles_with_the_optimizing_tier() {
    let p = program(&count_to_n());
    let lines = node_program_with(&p, Vec::new(), TIERS, "tiers", &["--allow-natives-syntax"]);
    assert_eq!(
        lines,
        ["turbofan true", "liftoff false"],
        "the loader's module must be optimized before its one long call"
    );
}

#[test]
fn a_process_with_tier_flags_of_its_own_keeps_them() {
    let p = program(&count_to_n());
    let lines = node_program_with(
        &p,
        Vec::new(),
        TIERS,
        "own-tiers",
        &["--allow-natives-syntax", "--liftoff"],
    );
    assert_eq!(lines, ["turbofan false", "liftoff true"]);
}
