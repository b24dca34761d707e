// The float text tests of the backends that write and read floats'
// text themselves (Wasm, LLVM), against Python's own on the table of
// `float_table.py`. Included by each backend's `tests/floats.rs` after its
// `common` helpers (`run_with`, `func`, `lit`), so both run the same checks.

/// Python's table: its JSON object.
fn table() -> serde_json::Map<String, serde_json::Value> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../testing/float_table.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Limits that let a loop over the whole table run.
const BIG: ExecLimits = ExecLimits {
    max_steps: 1 << 40,
    ..ExecLimits::DEFAULT
};

/// `f` applied to every element of `xs: T[]`, as an array.
fn mapped(arg: &str, ret: &str, call: &str) -> String {
    func(
        &format!("xs: {arg}[]"),
        &format!("{ret}[]"),
        &format!("out: {ret}[], x: {arg}"),
        &format!(
            "    ASSIGN:\n      TARGET: out\n      EXPR: (const [])\n    LOOP:\n      ITER: (each x (var xs))\n      BODY: BEGIN\n        ASSIGN:\n          TARGET: out\n          EXPR: (call PUSH (var out) (call {call} (var x)))\n      END\n    RETURN:\n      EXPR: (var out)\n"
        ),
    )
}

fn args(values: &serde_json::Value) -> String {
    serde_json::json!({ "xs": values }).to_string()
}

#[test]
fn to_string_is_pythons_repr() {
    let t = table();
    let got = run_with(
        &mapped("float", "string", "TO_STRING"),
        &args(&t["floats"]),
        BIG,
    );
    let got: Vec<String> = serde_json::from_str(&got).unwrap_or_else(|_| panic!("{got}"));
    let want: Vec<String> = serde_json::from_value(t["reprs"].clone()).unwrap();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w);
    }
}

#[test]
fn parse_float_is_pythons_float() {
    let t = table();
    let got = run_with(
        &mapped("string", "float", "PARSE_FLOAT"),
        &args(&t["texts"]),
        BIG,
    );
    let got = lit(&got);
    let want = lit(&t["parsed"].to_string());
    let (Literal::Array(got), Literal::Array(want)) = (got, want) else {
        panic!("not arrays");
    };
    assert_eq!(got.len(), want.len());
    let texts = t["texts"].as_array().unwrap();
    for ((g, w), text) in got.iter().zip(&want).zip(texts) {
        // Literals compare floats by their bits.
        assert_eq!(g, w, "PARSE_FLOAT({text})");
    }
}
