//! The tools in-process, without plugins: objects and paths, tree depth and
//! size, the text view, argument checks, and the operations that write.

use super::*;
use serde_json::json;
use std::path::{Path, PathBuf};

const EXAMPLE: &str = include_str!("../../../examples/sum_evens.isu");

/// A fresh root with `sum_evens.isu`, `lib/inner/gcd.isu` (a copy), a folder
/// without programs, a hidden folder and `target/`.
fn context(name: &str) -> (Context, PathBuf) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/tmp/mcp-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["lib/inner", "empty", ".hidden", "target"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap_or_else(|e| panic!("{e}"));
    }
    for file in [
        "sum_evens.isu",
        "lib/inner/copy.isu",
        ".hidden/x.isu",
        "target/y.isu",
    ] {
        std::fs::write(dir.join(file), EXAMPLE).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(dir.join("notes.txt"), "not a program").unwrap_or_else(|e| panic!("{e}"));
    let root = ProjectRoot::at(&dir).unwrap_or_else(|d| panic!("{d:?}"));
    let dir = root.dir().to_path_buf();
    (
        Context {
            root,
            registry: crate::plugins::Registry::default(),
        },
        dir,
    )
}

fn args(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn code(r: &ToolResult) -> &str {
    r.structured["diagnostics"][0]["code"]
        .as_str()
        .unwrap_or("")
}

fn invoke(
    ctx: &Context,
    target: &str,
    interface: &str,
    operation: &str,
    arguments: Value,
) -> ToolResult {
    let request = args(
        json!({"target": target, "interface": interface, "operation": operation, "arguments": arguments}),
    );
    match prepare(ctx, &request) {
        Ok(call) => run_call(ctx, &call),
        Err(d) => ToolResult::refused(d),
    }
}

#[test]
fn tree_lists_everything_within_depth_and_marks_the_edge() {
    let (ctx, _) = context("tree");
    let r = tree(&ctx, &args(json!({"path": "programs", "depth": 2})));
    assert!(!r.is_error, "{}", r.text);
    let t = &r.structured["tree"];
    let names: Vec<&str> = t["children"]
        .as_array()
        .map(|c| c.iter().filter_map(|n| n["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        names,
        ["lib", "sum_evens.isu"],
        "no hidden, skipped or program-less folders"
    );
    assert_eq!(
        t["children"][0]["children"][0]["path"],
        "programs/lib/inner"
    );
    assert_eq!(
        t["children"][0]["children"][0]["children"],
        Value::Null,
        "edge"
    );
    assert_eq!(
        t["children"][1]["children"][0]["path"],
        "programs/sum_evens.isu/S1"
    );
    assert_eq!(r.structured["objects"], 6);
    assert_eq!(
        r.text,
        "programs  [folder]\n  lib  [folder]\n    inner  [folder] ...\n  sum_evens.isu  [program]\n    S1  [step] ...\n    S2  [step] ...\n"
    );
    // Steps nest as in the program; leaves have no children.
    let r = tree(
        &ctx,
        &args(json!({"path": "programs/sum_evens.isu/S1", "depth": 5})),
    );
    assert_eq!(
        r.structured["tree"]["children"][0]["path"],
        "programs/sum_evens.isu/S1_1"
    );
    assert_eq!(
        r.structured["tree"]["children"][0]["children"][0]["children"],
        json!([])
    );
    // Depth 0: the object alone.
    let r = tree(&ctx, &args(json!({"path": "stdlib/LEN", "depth": 0})));
    assert_eq!(r.structured["tree"]["children"], json!([]));
    assert_eq!(r.structured["objects"], 1);
    // The default depth is 1, from the root.
    let r = tree(&ctx, &args(json!({})));
    assert_eq!(r.structured["objects"], 5);
}

#[test]
fn a_tree_too_large_is_an_error_that_says_how_to_narrow_it() {
    let (ctx, dir) = context("large");
    for i in 0..MAX_TREE_OBJECTS - 10 {
        std::fs::write(dir.join(format!("lib/p{i:04}.isu")), EXAMPLE)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let r = tree(&ctx, &args(json!({"path": "programs", "depth": 3})));
    assert!(r.is_error);
    assert_eq!(code(&r), "tree_too_large");
    assert!(r.text.contains("smaller depth"), "{}", r.text);
    let r = tree(&ctx, &args(json!({"path": "programs/lib", "depth": 1})));
    assert!(!r.is_error, "{}", r.text);
}

#[test]
fn paths_are_checked() {
    let (ctx, _) = context("paths");
    for (path, expected) in [
        ("programs/../x", "path_outside_root"),
        ("..", "path_outside_root"),
        ("programs//sum_evens.isu", "unknown_object"),
        ("programs/./sum_evens.isu", "unknown_object"),
        ("programs/notes.txt", "unknown_object"),
        ("programs/.hidden/x.isu", "unknown_object"),
        ("programs/target/y.isu", "unknown_object"),
        ("programs/sum_evens.isu/S9", "unknown_object"),
        ("programs/sum_evens.isu/S1/S1_1", "unknown_object"),
        ("programs/sum_evens.isu/banana", "unknown_object"),
        ("stdlib/NOPE", "unknown_object"),
        ("elsewhere", "unknown_object"),
    ] {
        let r = inspect(&ctx, &args(json!({ "path": path })));
        assert!(r.is_error, "{path}");
        assert_eq!(code(&r), expected, "{path}");
    }
    let long = "a/".repeat(objects::MAX_PATH_BYTES);
    assert_eq!(
        code(&inspect(&ctx, &args(json!({ "path": long })))),
        "argument_too_large"
    );
    for bad in [
        json!({}),
        json!({"path": 3}),
        json!({"path": "", "extra": 1}),
    ] {
        assert_eq!(
            code(&inspect(&ctx, &args(bad.clone()))),
            "invalid_arguments",
            "{bad}"
        );
    }
    for bad in [
        json!({"depth": -1}),
        json!({"depth": 33}),
        json!({"depth": "2"}),
    ] {
        assert_eq!(
            code(&tree(&ctx, &args(bad.clone()))),
            "invalid_arguments",
            "{bad}"
        );
    }
}

#[test]
fn inspect_gives_the_same_as_data() {
    let (ctx, _) = context("inspect");
    let r = inspect(&ctx, &args(json!({"path": "programs/sum_evens.isu"})));
    let ops = &r.structured["interfaces"][0]["operations"];
    assert_eq!(ops[2]["name"], "run");
    assert_eq!(
        ops[2]["params"][0],
        json!({"name": "args", "type": "object", "required": true, "doc": "the arguments, by ARGS name"})
    );
    assert_eq!(ops[2]["signature"], ops::PROGRAM.operations[2].signature());
    assert!(r.text.contains(&ops::PROGRAM.operations[2].signature()));
    assert_eq!(
        r.structured["data"]["function"],
        "sum_evens(xs: int[]) -> int"
    );
    let r = inspect(
        &ctx,
        &args(json!({"path": "programs/sum_evens.isu/S1_1_1"})),
    );
    assert!(r.text.contains("  | S1_1_1: ASSIGN\n"), "{}", r.text);
    assert_eq!(r.structured["data"]["step_kind"], "ASSIGN");
}

#[test]
fn arguments_are_checked_before_the_call_and_interfaces_never_merge() {
    let (ctx, dir) = context("arguments");
    let p = "programs/sum_evens.isu";
    for (target, interface, operation, arguments, expected) in [
        (p, "isu.program", "run", json!({}), "invalid_arguments"),
        (
            p,
            "isu.program",
            "run",
            json!({"args": [1]}),
            "invalid_arguments",
        ),
        (
            p,
            "isu.program",
            "run",
            json!({"args": {}, "max_steps": -1}),
            "invalid_arguments",
        ),
        (
            p,
            "isu.program",
            "fmt",
            json!({"write": "yes"}),
            "invalid_arguments",
        ),
        (
            p,
            "isu.program",
            "build",
            json!({"target": "python", "emit": [1]}),
            "invalid_arguments",
        ),
        (p, "isu.program", "show", json!({}), "unknown_operation"),
        (p, "isu.step", "show", json!({}), "unknown_operation"),
        (
            "stdlib",
            "isu.function",
            "describe",
            json!({}),
            "unknown_operation",
        ),
    ] {
        let r = invoke(&ctx, target, interface, operation, arguments.clone());
        assert_eq!(code(&r), expected, "{interface}.{operation} {arguments}");
        assert_eq!(r.structured["ok"], false);
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("sum_evens.isu")).unwrap_or_default(),
        EXAMPLE
    );
}

#[test]
fn program_operations_report_like_the_cli() {
    let (ctx, dir) = context("program-ops");
    let p = "programs/sum_evens.isu";
    let r = invoke(&ctx, p, "isu.program", "check", json!({}));
    assert_eq!(
        (r.is_error, r.structured["outcome"].clone()),
        (false, json!("ok")),
        "{}",
        r.text
    );
    let r = invoke(
        &ctx,
        p,
        "isu.program",
        "run",
        json!({"args": {"xs": [2, 3, 8]}}),
    );
    assert_eq!(r.structured["result"]["value"], 10);
    let r = invoke(&ctx, p, "isu.program", "run", json!({"args": {"ys": []}}));
    assert!(r.is_error);
    assert_eq!(code(&r), "invalid_argument");
    let r = invoke(
        &ctx,
        p,
        "isu.program",
        "run",
        json!({"args": {"xs": [1]}, "max_steps": 0}),
    );
    assert_eq!(code(&r), "step_limit", "{}", r.text);
    let r = invoke(&ctx, p, "isu.program", "test", json!({}));
    assert_eq!(
        r.structured["result"],
        json!({"examples": 2, "passed": 2, "failed": 0})
    );
    let r = invoke(&ctx, p, "isu.program", "fmt", json!({}));
    assert_eq!(r.structured["result"]["canonical"], true);
    assert_eq!(r.structured["result"]["written"], false);
    let r = invoke(
        &ctx,
        "programs/sum_evens.isu/S2",
        "isu.step",
        "show",
        json!({}),
    );
    assert_eq!(
        r.structured["result"],
        json!({"text": "S2: RETURN\n  EXPR: (var total)\n", "kind": "RETURN"})
    );
    let r = invoke(&ctx, "stdlib/PUSH", "isu.function", "describe", json!({}));
    assert_eq!(
        r.structured["result"]["signatures"],
        json!(["(T[], T) -> T[]"])
    );
    let r = invoke(&ctx, p, "isu.program", "build", json!({"target": "python"}));
    assert_eq!(code(&r), "backend_failed", "no plugins here: {}", r.text);
    // Nothing was written.
    assert_eq!(
        std::fs::read_to_string(dir.join("sum_evens.isu")).unwrap_or_default(),
        EXAMPLE
    );
}

#[test]
fn writes_go_through_the_patch_and_fmt_paths_and_are_fetched_again() {
    let (ctx, dir) = context("writes");
    let p = "programs/sum_evens.isu";
    let file = dir.join("sum_evens.isu");
    std::fs::write(&file, EXAMPLE.replace("S1_1_1: ASSIGN", "ASSIGN:"))
        .unwrap_or_else(|e| panic!("{e}"));
    let r = invoke(&ctx, p, "isu.program", "fmt", json!({"write": true}));
    assert_eq!(r.structured["result"]["written"], true, "{}", r.text);
    assert_eq!(r.structured["result"]["steps"], 2);
    let canonical = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(canonical.contains("S1_1_1: ASSIGN"), "{canonical}");
    // A failing patch leaves the file as it was.
    let r = invoke(
        &ctx,
        p,
        "isu.program",
        "patch",
        json!({"patch": "PATCH:\n  DELETE S7\n", "write": true}),
    );
    assert_eq!(code(&r), "unknown_step", "{}", r.text);
    let r = invoke(
        &ctx,
        p,
        "isu.program",
        "patch",
        json!({"patch": "not a patch", "write": true}),
    );
    assert!(r.is_error);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        canonical
    );
    // Replacing a step with text that makes a test fail.
    let r = invoke(
        &ctx,
        "programs/sum_evens.isu/S2",
        "isu.step",
        "replace",
        json!({"text": "RETURN:\n  EXPR: (add (var total) (const 1))", "write": true}),
    );
    assert_eq!(r.structured["result"]["written"], true, "{}", r.text);
    let r = invoke(&ctx, p, "isu.program", "test", json!({}));
    assert!(r.is_error);
    assert_eq!(r.structured["outcome"], "failed");
    assert_eq!(code(&r), "test_mismatch");
    assert!(r.text.contains("test_mismatch"), "{}", r.text);
    // A write outside the root is refused before anything runs.
    let r = invoke(
        &ctx,
        p,
        "isu.program",
        "build",
        json!({"target": "python", "out": "../x/"}),
    );
    assert_eq!(code(&r), "path_outside_root");
}

#[test]
fn a_program_that_does_not_parse_is_an_object_with_unknown_steps() {
    let (ctx, dir) = context("broken");
    std::fs::write(dir.join("broken.isu"), "FUNC:\n  NAME: f\n").unwrap_or_else(|e| panic!("{e}"));
    let r = tree(
        &ctx,
        &args(json!({"path": "programs/broken.isu", "depth": 1})),
    );
    assert!(!r.is_error, "{}", r.text);
    assert_eq!(r.structured["tree"]["children"], Value::Null);
    assert_eq!(r.structured["tree"]["error"]["kind"], "ParseError");
    let r = invoke(
        &ctx,
        "programs/broken.isu",
        "isu.program",
        "check",
        json!({}),
    );
    assert!(r.is_error);
    assert_eq!(r.structured["diagnostics"][0]["kind"], "ParseError");
}

#[test]
fn the_output_schemas_accept_every_answer() {
    let (ctx, _) = context("schemas");
    let schema = |v: Value| jsonschema::validator_for(&v).unwrap_or_else(|e| panic!("{e}"));
    let tree_schema = schema(schema::tree_output());
    let inspect_schema = schema(schema::inspect_output());
    let invoke_schema = schema(schema::invoke_output());
    for r in [
        tree(&ctx, &args(json!({"path": "", "depth": 4}))),
        tree(&ctx, &args(json!({"path": "../"}))),
    ] {
        assert!(tree_schema.is_valid(&r.structured), "{}", r.structured);
    }
    for r in [
        inspect(&ctx, &args(json!({"path": "programs/sum_evens.isu"}))),
        inspect(&ctx, &args(json!({"path": "nope"}))),
    ] {
        assert!(inspect_schema.is_valid(&r.structured), "{}", r.structured);
    }
    for r in [
        invoke(
            &ctx,
            "programs/sum_evens.isu",
            "isu.program",
            "test",
            json!({}),
        ),
        invoke(
            &ctx,
            "programs/sum_evens.isu",
            "isu.program",
            "run",
            json!({}),
        ),
        invoke(&ctx, "stdlib/LEN", "isu.function", "describe", json!({})),
    ] {
        assert!(invoke_schema.is_valid(&r.structured), "{}", r.structured);
    }
    for s in [
        schema::tree_input(),
        schema::inspect_input(),
        schema::invoke_input(),
    ] {
        schema(s);
    }
}

#[test]
fn fix_applies_the_certain_fixes_and_writes_only_with_write() {
    let (ctx, dir) = context("fix");
    let p = "programs/sum_evens.isu";
    let file = dir.join("sum_evens.isu");
    // A keyword in lower case: a ParseError whose fix is certain.
    let broken = EXAMPLE.replace("S2: RETURN", "S2: return");
    assert_ne!(broken, EXAMPLE);
    std::fs::write(&file, &broken).unwrap_or_else(|e| panic!("{e}"));
    let r = invoke(&ctx, p, "isu.program", "fix", json!({}));
    let result = &r.structured["result"];
    assert_eq!(result["changed"], true, "{}", r.text);
    assert_eq!(result["written"], false, "{}", r.text);
    assert_eq!(result["rounds"], 1, "{}", r.text);
    assert_eq!(
        result["applied"][0]["code"], "misspelt_keyword",
        "{}",
        r.text
    );
    assert_eq!(result["text"], EXAMPLE, "{}", r.text);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        broken,
        "nothing written without write"
    );
    let r = invoke(&ctx, p, "isu.program", "fix", json!({"write": true}));
    assert_eq!(r.structured["result"]["written"], true, "{}", r.text);
    assert_eq!(std::fs::read_to_string(&file).unwrap_or_default(), EXAMPLE);
    // Nothing left to fix: nothing written.
    let r = invoke(&ctx, p, "isu.program", "fix", json!({"write": true}));
    assert_eq!(r.structured["result"]["changed"], false, "{}", r.text);
    assert_eq!(r.structured["result"]["written"], false, "{}", r.text);
}
