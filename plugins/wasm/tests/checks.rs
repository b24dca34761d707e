//! The checks the emitted code makes: overflow and index checks are left out
//! where the language's value bounds (`isu_lang::analysis::bounds`) prove
//! they cannot fire, and kept everywhere else. Every check raises through
//! the runtime's `raise(code, step)` with both as constants, followed by
//! `unreachable`, so the checks of each step can be counted in the code.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;
use isu_backend_wasm::abi::ErrorCode;
use isu_backend_wasm::compile_module;
use isu_backend_wasm::meta::Meta;
use isu_plugin_api::RuntimeCode;
use std::collections::BTreeMap;
use wasmparser::{Operator, Parser, Payload};

/// `(code, step ID)` of every check in the entry function, with how many.
fn checks(text: &str) -> BTreeMap<(&'static str, String), usize> {
    let p = program(text);
    let c = compile_module(&p).unwrap();
    let meta = Meta::read(&c.wasm).unwrap();
    let run = isu_backend_wasm::srcmap::SourceMap::read(&c.wasm)
        .unwrap()
        .func;
    let mut out = BTreeMap::new();
    let mut index = 0;
    for payload in Parser::new(0).parse_all(&c.wasm) {
        let Ok(Payload::CodeSectionEntry(body)) = payload else {
            continue;
        };
        index += 1;
        if index - 1 != run {
            continue;
        }
        let ops: Vec<Operator> = body
            .get_operators_reader()
            .unwrap()
            .into_iter()
            .map(Result::unwrap)
            .collect();
        for w in ops.windows(4) {
            if let [Operator::I32Const { value: code }, Operator::I32Const { value: step }, Operator::Call { .. }, Operator::Unreachable] =
                w
            {
                let name = ErrorCode::from_number(*code).unwrap().name();
                // Step -1: no step (the final no_return).
                let id =
                    usize::try_from(*step).map_or("-".to_owned(), |s| meta.steps[s].id.clone());
                *out.entry((name, id)).or_default() += 1;
            }
        }
    }
    out
}

fn count(c: &BTreeMap<(&'static str, String), usize>, code: RuntimeCode, step: &str) -> usize {
    c.get(&(code.as_str(), step.to_owned()))
        .copied()
        .unwrap_or(0)
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
        .filter(|((code, _), _)| [index.as_str(), overflow.as_str()].contains(code))
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
    assert_eq!(run(text, r#"{"xs": [1], "k": 0, "x": 3}"#), "2");
}

#[test]
fn bounded_arithmetic_drops_its_checks() {
    // i in 0..100 and (mod x 201) in -200..200: no sum, difference or
    // product below can overflow, and the divisor is never 0.
    let text = include_str!("../../../conformance/checks/bounded.isu");
    let c = checks(text);
    for code in [RuntimeCode::IntOverflow, RuntimeCode::DivisionByZero] {
        assert_eq!(count(&c, code, "S2_1"), 0, "{code}: {c:?}");
    }
    assert_eq!(run(text, r#"{"x": 205}"#), "16");
}
