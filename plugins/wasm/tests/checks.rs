//! The checks the emitted code makes are those the conformance cases'
//! `; checks:` lines name: overflow and index checks are left out where the
//! language's value bounds (`isu_lang::analysis::bounds`) prove they cannot
//! fire, and kept everywhere else. Every check raises through the runtime's
//! `raise(code, step)` with both as constants, followed by `unreachable`,
//! except the overflow check of a product of operands past 32 bits, a call
//! of the runtime's `isu_rt.MulChecked` with the step as a constant; so the
//! checks of each step can be counted in the code. The runs of those cases
//! are the suite's.

use isu_backend_wasm::abi::ErrorCode;
use isu_backend_wasm::compile_module;
use isu_backend_wasm::meta::Meta;
use isu_backend_wasm::srcmap::SourceMap;
use isu_host::conformance::checks::{verify, Checks};
use isu_plugin_api::{Program, RuntimeCode};
use wasmparser::{KnownCustom, Name, Operator, Parser, Payload};

/// The index of the function named `name` in the module's name section.
fn function_named(wasm: &[u8], name: &str) -> Option<u32> {
    for payload in Parser::new(0).parse_all(wasm) {
        let Ok(Payload::CustomSection(c)) = payload else {
            continue;
        };
        let KnownCustom::Name(reader) = c.as_known() else {
            continue;
        };
        for n in reader {
            let Ok(Name::Function(map)) = n else {
                continue;
            };
            for naming in map.into_iter().flatten() {
                if naming.name == name {
                    return Some(naming.index);
                }
            }
        }
    }
    None
}

/// The runtime error and step ID of every check in the entry function.
fn checks(p: &Program) -> Result<Checks, String> {
    let c = compile_module(p).map_err(|e| format!("{e:?}"))?;
    let meta = Meta::read(&c.wasm).ok_or("the module has no isu.meta")?;
    let run = SourceMap::read(&c.wasm)
        .ok_or("the module has no isu.srcmap")?
        .func;
    let mul_checked = function_named(&c.wasm, "isu_rt.MulChecked");
    let step_id = |step: i32| {
        usize::try_from(step)
            .ok()
            .and_then(|s| meta.steps.get(s))
            .map_or("-".to_owned(), |s| s.id.clone())
    };
    let mut out = Checks::new();
    let bodies = Parser::new(0)
        .parse_all(&c.wasm)
        .filter_map(|payload| match payload {
            Ok(Payload::CodeSectionEntry(body)) => Some(body),
            _ => None,
        });
    let Some(body) = bodies.into_iter().nth(run as usize) else {
        return Err(format!("the module has no function {run}"));
    };
    let ops = body
        .get_operators_reader()
        .and_then(|r| r.into_iter().collect::<Result<Vec<Operator>, _>>())
        .map_err(|e| e.to_string())?;
    for w in ops.windows(4) {
        match w {
            [Operator::I32Const { value: code }, Operator::I32Const { value: step }, Operator::Call { .. }, Operator::Unreachable] =>
            {
                if let Some(ErrorCode::Runtime(code)) = ErrorCode::from_number(*code) {
                    // Step -1: no step (the final no_return).
                    *out.entry((code, step_id(*step))).or_default() += 1;
                }
            }
            [_, _, Operator::I32Const { value: step }, Operator::Call { function_index }]
                if Some(*function_index) == mul_checked =>
            {
                *out.entry((RuntimeCode::IntOverflow, step_id(*step)))
                    .or_default() += 1;
            }
            _ => {}
        }
    }
    Ok(out)
}

#[test]
fn the_checks_are_those_the_cases_name() {
    let (differences, compared) = verify(checks);
    assert!(
        compared >= 3,
        "only {compared} cases have `; checks:` lines"
    );
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
