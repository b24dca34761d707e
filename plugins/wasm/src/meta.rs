//! The `isu.meta` custom section: what a host needs to call the module
//! without the Isu source (the function's name, its arguments and result
//! types, the fields of its structs, the step IDs by index and the error
//! names by number), as JSON.

use crate::abi::{ErrorCode, ABI_VERSION};
use crate::layout::Structs;
use isu_plugin_api::{Program, Type};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The ABI version ([`ABI_VERSION`]).
    pub abi: u32,
    /// The function's name.
    pub name: String,
    pub args: Vec<Arg>,
    pub returns: Type,
    /// The fields of each struct of `TYPES`, in declaration order, by the
    /// struct's name (absent when the program has none).
    #[serde(default, skip_serializing_if = "Structs::is_empty")]
    pub types: Structs,
    /// Step IDs by step index, with their line and column (0 when unknown).
    pub steps: Vec<StepInfo>,
    /// Error names by number.
    pub errors: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arg {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: Type,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepInfo {
    pub id: String,
    pub line: u32,
    pub col: u32,
}

impl Meta {
    pub fn of(program: &Program) -> Meta {
        Meta {
            abi: ABI_VERSION,
            name: program.func.name.name.clone(),
            args: program
                .func
                .args
                .iter()
                .map(|d| Arg {
                    name: d.name.name.clone(),
                    ty: d.ty.clone(),
                })
                .collect(),
            returns: program.func.returns.clone(),
            types: Structs::of(&program.types),
            steps: program
                .steps()
                .iter()
                .map(|s| StepInfo {
                    id: s.id.as_ref().map(|i| i.to_string()).unwrap_or_default(),
                    line: s.span.line,
                    col: s.span.col,
                })
                .collect(),
            errors: ErrorCode::all()
                .map(|c| (c.number().to_string(), c.name().to_owned()))
                .collect(),
        }
    }

    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// The meta section of a module, if it has one that parses.
    pub fn read(wasm: &[u8]) -> Option<Meta> {
        let data = crate::srcmap::custom_section(wasm, crate::abi::SECTION_META)?;
        serde_json::from_slice(&data).ok()
    }
}
