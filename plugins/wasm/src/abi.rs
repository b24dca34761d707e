//! The module's interface to its host, as `spec/wasm-abi.md` documents it:
//! export names, runtime error numbers, and the custom sections.

use isu_plugin_api::codes::{RuntimeCode, OUT_OF_MEMORY_NUMBER};

/// Export names.
pub const EXPORT_RUN: &str = "isu_run";
pub const EXPORT_RESET: &str = "isu_reset";
pub const EXPORT_ALLOC: &str = "isu_alloc";
pub const EXPORT_SET_LIMITS: &str = "isu_set_limits";
pub const EXPORT_RESULT_LEN: &str = "isu_result_len";
pub const EXPORT_ERROR_CODE: &str = "isu_error_code";
pub const EXPORT_ERROR_STEP: &str = "isu_error_step";

/// Custom section names.
pub const SECTION_META: &str = "isu.meta";
pub const SECTION_SRCMAP: &str = "isu.srcmap";

/// The version of this ABI, in `isu.meta`.
/// (2: `isu_set_limits` takes the memory limit too.)
pub const ABI_VERSION: u32 = 2;

/// Why a call stopped, as the module reports it (`isu_error_code`): one of
/// the language's runtime errors, or the module running out of linear
/// memory (a failure of the module, not of the program).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    Runtime(RuntimeCode),
    OutOfMemory,
}

impl From<RuntimeCode> for ErrorCode {
    fn from(c: RuntimeCode) -> ErrorCode {
        ErrorCode::Runtime(c)
    }
}

impl ErrorCode {
    /// Every error a module can report, by number.
    pub fn all() -> impl Iterator<Item = ErrorCode> {
        let runtime = RuntimeCode::program_errors().map(ErrorCode::Runtime);
        runtime.chain(std::iter::once(ErrorCode::OutOfMemory))
    }

    /// Its number; 0 (no error) for a code of the host's own machinery,
    /// which no module raises.
    pub fn number(self) -> i32 {
        match self {
            ErrorCode::OutOfMemory => OUT_OF_MEMORY_NUMBER,
            ErrorCode::Runtime(c) => c.number().unwrap_or(0),
        }
    }

    pub fn from_number(n: i32) -> Option<ErrorCode> {
        ErrorCode::all().find(|c| c.number() == n)
    }

    /// The error code's name (`spec/errors.md`, and `out_of_memory`).
    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::Runtime(c) => c.as_str(),
            ErrorCode::OutOfMemory => "out_of_memory",
        }
    }

    /// What it means, for a message.
    pub fn summary(self) -> &'static str {
        match self {
            ErrorCode::Runtime(c) => c.summary(),
            ErrorCode::OutOfMemory => "the module ran out of linear memory",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_and_every_program_error_has_one() {
        for c in ErrorCode::all() {
            assert!(c.number() > 0);
            assert_eq!(ErrorCode::from_number(c.number()), Some(c));
        }
        for c in RuntimeCode::program_errors() {
            let n = ErrorCode::Runtime(c).number();
            assert!(n > 0, "{c} has no error number");
        }
        assert_eq!(ErrorCode::from_number(0), None);
        assert_eq!(ErrorCode::Runtime(RuntimeCode::InternalError).number(), 0);
    }

    #[test]
    fn the_spec_lists_every_error_number() {
        let spec = include_str!("../../../spec/wasm-abi.md");
        for c in ErrorCode::all() {
            let row = format!("| {} | `{}` |", c.number(), c.name());
            assert!(spec.contains(&row), "spec/wasm-abi.md lacks the row {row}");
        }
        for name in [
            EXPORT_RUN,
            EXPORT_RESET,
            EXPORT_ALLOC,
            EXPORT_SET_LIMITS,
            EXPORT_RESULT_LEN,
            EXPORT_ERROR_CODE,
            EXPORT_ERROR_STEP,
            SECTION_META,
            SECTION_SRCMAP,
        ] {
            assert!(
                spec.contains(&format!("`{name}`")),
                "spec/wasm-abi.md does not name {name}"
            );
        }
    }
}
