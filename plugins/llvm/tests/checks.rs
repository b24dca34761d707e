//! The checks the lowering emits: overflow and index checks are left out
//! where the language's value bounds (`isu_lang::analysis::bounds`) prove
//! they cannot fire, and kept everywhere else. The programs are those of
//! the Wasm backend's check tests (`conformance/checks/`); the counts
//! are of the lowering's checks, before LLVM's optimizer (which may drop
//! more), from `module::checks`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use isu_backend_llvm::module;
use isu_plugin_api::RuntimeCode;
use std::collections::BTreeMap;

type Checks = BTreeMap<(RuntimeCode, String), usize>;

fn checks(text: &str) -> Checks {
    module::checks(&program(text)).unwrap_or_else(|e| panic!("{e:?}"))
}

fn count(c: &Checks, code: RuntimeCode, step: &str) -> usize {
    c.get(&(code, step.to_owned())).copied().unwrap_or(0)
}

const INSERTION_SORT: &str = include_str!("../../../conformance/checks/insertion_sort.isu");

#[test]
fn insertion_sort_keeps_only_the_checks_the_bounds_cannot_drop() {
    let c = checks(INSERTION_SORT);
    let index = RuntimeCode::IndexOutOfRange;
    let overflow = RuntimeCode::IntOverflow;
    // a[i] in the range over LEN(a); j = i - 1 with i >= 1.
    assert_eq!(count(&c, index, "S1_1"), 0, "{c:?}");
    assert_eq!(count(&c, overflow, "S1_2"), 0, "{c:?}");
    // a[j] on the right of (ge j 0), j moving only down from below LEN(a).
    assert_eq!(count(&c, index, "S1_3"), 0, "{c:?}");
    // a[j + 1] = a[j]: the read is in bounds, j + 1 cannot overflow, but
    // nothing says j + 1 is below LEN(a): that check stays.
    assert_eq!(count(&c, index, "S1_3_1"), 1, "{c:?}");
    assert_eq!(count(&c, overflow, "S1_3_1"), 0, "{c:?}");
    assert_eq!(count(&c, overflow, "S1_3_2"), 0, "{c:?}");
    assert_eq!(count(&c, index, "S1_4"), 1, "{c:?}");
    let total: usize = c
        .iter()
        .filter(|((code, _), _)| [index, overflow].contains(code))
        .map(|(_, n)| n)
        .sum();
    assert_eq!(total, 2, "{c:?}");
    assert_eq!(
        run(INSERTION_SORT, r#"{"a": [3, -1, 2, 9, 0]}"#),
        "[-1, 0, 2, 3, 9]"
    );
}

#[test]
fn checks_stay_where_nothing_is_known() {
    let text = include_str!("../../../conformance/checks/unknown.isu");
    let c = checks(text);
    let index = RuntimeCode::IndexOutOfRange;
    let overflow = RuntimeCode::IntOverflow;
    assert_eq!(count(&c, overflow, "S1"), 1, "{c:?}");
    assert_eq!(count(&c, overflow, "S2"), 1, "{c:?}");
    assert_eq!(count(&c, overflow, "S3"), 1, "{c:?}");
    assert_eq!(count(&c, index, "S3"), 1, "{c:?}");
    // After S3 stored at xs[k], k is in bounds: the read needs no check.
    assert_eq!(count(&c, index, "S4"), 0, "{c:?}");
    assert_eq!(count(&c, RuntimeCode::DivisionByZero, "S4"), 1, "{c:?}");
    assert_eq!(
        run(text, r#"{"xs": [1], "k": 1, "x": 2}"#),
        "error index_out_of_range at S3"
    );
    assert_eq!(
        run(text, r#"{"xs": [1], "k": 0, "x": 9223372036854775807}"#),
        "error int_overflow at S1"
    );
    assert_eq!(
        run(text, r#"{"xs": [1], "k": 0, "x": 4294967296}"#),
        "error int_overflow at S2"
    );
    assert_eq!(run(text, r#"{"xs": [1], "k": 0, "x": 3}"#), "2");
}

#[test]
fn bounded_arithmetic_drops_its_checks() {
    let text = include_str!("../../../conformance/checks/bounded.isu");
    let c = checks(text);
    for code in [RuntimeCode::IntOverflow, RuntimeCode::DivisionByZero] {
        assert_eq!(count(&c, code, "S2_1"), 0, "{code}: {c:?}");
    }
    assert_eq!(run(text, r#"{"x": 205}"#), "16");
}
