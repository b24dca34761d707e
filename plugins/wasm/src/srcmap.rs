//! The source map: the custom section `isu.srcmap` maps byte ranges of the
//! module (offsets from the start of the module, as wasmtime's and V8's
//! backtraces and profilers report code positions) to step indices, which
//! `isu.meta` maps to step IDs. Ranges nest like the steps: the innermost
//! (shortest) range around an offset is the step that was running.

use crate::lower::StepRange;
use serde::{Deserialize, Serialize};
use wasmparser::{Parser, Payload};

/// The section's JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceMap {
    /// The function index of the code the ranges cover (the entry function).
    pub func: u32,
    /// `[start, end, step]`: module byte offsets `start..end` belong to the
    /// step with that index.
    pub ranges: Vec<[u32; 3]>,
}

impl SourceMap {
    /// The step index whose code holds `offset`, if any.
    pub fn step_at(&self, offset: u32) -> Option<u32> {
        self.ranges
            .iter()
            .filter(|r| r[0] <= offset && offset < r[1])
            .min_by_key(|r| r[1] - r[0])
            .map(|r| r[2])
    }

    pub fn read(wasm: &[u8]) -> Option<SourceMap> {
        let data = custom_section(wasm, crate::abi::SECTION_SRCMAP)?;
        serde_json::from_slice(&data).ok()
    }
}

/// The payload of the custom section `name`, if the module has one.
pub fn custom_section(wasm: &[u8], name: &str) -> Option<Vec<u8>> {
    for payload in Parser::new(0).parse_all(wasm) {
        if let Ok(Payload::CustomSection(reader)) = payload {
            if reader.name() == name {
                return Some(reader.data().to_vec());
            }
        }
    }
    None
}

/// The module offset of the first instruction of function `func` (which
/// imports nothing, so function and code indices agree).
fn code_start(wasm: &[u8], func: u32) -> Option<usize> {
    let mut index = 0;
    for payload in Parser::new(0).parse_all(wasm) {
        if let Ok(Payload::CodeSectionEntry(body)) = payload {
            if index == func {
                let ops = body.get_operators_reader().ok()?;
                return Some(ops.original_position());
            }
            index += 1;
        }
    }
    None
}

/// Appends the `isu.srcmap` section for the ranges of function `func`
/// (instruction offsets within its body) to an encoded module.
pub fn append(mut wasm: Vec<u8>, func: u32, ranges: &[StepRange]) -> Vec<u8> {
    let Some(base) = code_start(&wasm, func) else {
        return wasm;
    };
    let map = SourceMap {
        func,
        ranges: ranges
            .iter()
            .map(|r| [(base + r.start) as u32, (base + r.end) as u32, r.step])
            .collect(),
    };
    let data = serde_json::to_vec(&map).unwrap_or_default();
    let mut m = wasm_encoder::Module::new();
    m.section(&wasm_encoder::CustomSection {
        name: crate::abi::SECTION_SRCMAP.into(),
        data: data.into(),
    });
    let section = m.finish();
    // Drop the new module's 8-byte preamble: only the section is appended.
    wasm.extend_from_slice(section.get(8..).unwrap_or_default());
    wasm
}
