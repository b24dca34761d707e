//! The generated code of a few conformance cases chosen for what they make
//! the generator do, reviewed as diffs: each case `NAME` of [`CASES`] has
//! `tests/golden/NAME.py.snap`, the module after its runtime (the function
//! and its tables; the runtime itself is `src/runtime.py`). `ISU_BLESS=1
//! cargo test -p isu_backend_python --test golden` rewrites them after a
//! change has been reviewed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use isu_backend_python::PythonBackend;
use isu_plugin_api::{Backend, CompileOptions};
use std::path::Path;

/// The cases whose generated code is kept: checked arithmetic, elements,
/// errors, long ranges, the copy of a loop that knows its variable small,
/// loops, maps, strings, structs, unbound updates, values.
const CASES: &[&str] = &[
    "arith_div_mod_overflow",
    "elements_checked_where_needed",
    "errors_name_their_step",
    "loops_bounds_steps_while",
    "maps_word_count_and_functions",
    "range_longer_than_steps",
    "range_variable_small_copy",
    "strings_unicode_ascii",
    "struct_array_field_assign",
    "struct_field_assign",
    "struct_json_nested",
    "struct_value_semantics",
    "unbound_update",
    "values_not_aliased",
];

/// The part of a module after the runtime: from the `# FUNC` banner on.
fn generated_part(module: &str) -> &str {
    let start = module.find("\n# FUNC ").map_or(0, |i| i + 1);
    &module[start..]
}

#[test]
fn generated_code_matches_its_snapshot() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = std::env::var("ISU_BLESS").as_deref() == Ok("1");
    let mut stale = Vec::new();
    let mut seen = 0;
    for case in common::cases() {
        let name = case.name.as_str();
        if !CASES.contains(&name) {
            continue;
        }
        seen += 1;
        let a = PythonBackend
            .compile(&case.program, &CompileOptions::default())
            .expect("compiles");
        let module = String::from_utf8(a[0].bytes.clone()).unwrap();
        let got = generated_part(&module);
        let path = dir.join(format!("{name}.py.snap"));
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if got != want {
            if bless {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, got).unwrap();
            } else {
                stale.push(path.display().to_string());
            }
        }
    }
    assert_eq!(seen, CASES.len(), "a case of CASES is missing");
    assert!(
        stale.is_empty(),
        "generated code differs from its snapshot (review, then ISU_BLESS=1 rewrites): {stale:#?}"
    );
}
