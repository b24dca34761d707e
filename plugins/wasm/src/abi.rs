//! The module's interface to its host, as `spec/wasm-abi.md` documents it:
//! export names, runtime error numbers, and the custom sections.

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
pub const ABI_VERSION: u32 = 1;

/// A runtime error, by the number the module reports (`isu_error_code`).
/// Numbers are stable; names are the host's error codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum ErrorCode {
    IntOverflow = 1,
    DivisionByZero = 2,
    IndexOutOfRange = 3,
    MissingKey = 4,
    ZeroStep = 5,
    ParseIntFailed = 6,
    EmptyCollection = 7,
    NegativeCount = 8,
    UninitializedRead = 9,
    NoReturn = 10,
    StepLimit = 11,
    SizeLimit = 12,
    InvalidArgument = 13,
    OutOfMemory = 14,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 14] = [
        ErrorCode::IntOverflow,
        ErrorCode::DivisionByZero,
        ErrorCode::IndexOutOfRange,
        ErrorCode::MissingKey,
        ErrorCode::ZeroStep,
        ErrorCode::ParseIntFailed,
        ErrorCode::EmptyCollection,
        ErrorCode::NegativeCount,
        ErrorCode::UninitializedRead,
        ErrorCode::NoReturn,
        ErrorCode::StepLimit,
        ErrorCode::SizeLimit,
        ErrorCode::InvalidArgument,
        ErrorCode::OutOfMemory,
    ];

    pub fn number(self) -> i32 {
        self as i32
    }

    pub fn from_number(n: i32) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.number() == n)
    }

    /// The host's code name (`spec/errors.md`).
    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::IntOverflow => "int_overflow",
            ErrorCode::DivisionByZero => "division_by_zero",
            ErrorCode::IndexOutOfRange => "index_out_of_range",
            ErrorCode::MissingKey => "missing_key",
            ErrorCode::ZeroStep => "zero_step",
            ErrorCode::ParseIntFailed => "parse_int_failed",
            ErrorCode::EmptyCollection => "empty_collection",
            ErrorCode::NegativeCount => "negative_count",
            ErrorCode::UninitializedRead => "uninitialized_read",
            ErrorCode::NoReturn => "no_return",
            ErrorCode::StepLimit => "step_limit",
            ErrorCode::SizeLimit => "size_limit",
            ErrorCode::InvalidArgument => "invalid_argument",
            ErrorCode::OutOfMemory => "out_of_memory",
        }
    }

    /// What it means, for a message.
    pub fn summary(self) -> &'static str {
        match self {
            ErrorCode::IntOverflow => "an int result outside the 64-bit signed range",
            ErrorCode::DivisionByZero => "div or mod by zero",
            ErrorCode::IndexOutOfRange => "an array or string index outside 0..LEN",
            ErrorCode::MissingKey => "a map read of a key the map does not hold",
            ErrorCode::ZeroStep => "a range ITER whose STEP is 0",
            ErrorCode::ParseIntFailed => "PARSE_INT of text that is not a decimal int",
            ErrorCode::EmptyCollection => "POP of an empty array",
            ErrorCode::NegativeCount => "REPEAT with a negative count",
            ErrorCode::UninitializedRead => "a LOCAL read before any assignment to it",
            ErrorCode::NoReturn => "the steps ended without a RETURN",
            ErrorCode::StepLimit => "the run used up its step budget",
            ErrorCode::SizeLimit => "a string or collection grew past the size limit",
            ErrorCode::InvalidArgument => "an argument is not of its ARGS type",
            ErrorCode::OutOfMemory => "the module ran out of linear memory",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_and_names_are_host_codes() {
        for c in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_number(c.number()), Some(c));
            if c != ErrorCode::OutOfMemory {
                let host = isu_host::Code::ALL.iter().find(|h| h.as_str() == c.name());
                assert!(host.is_some(), "{} is not a host code", c.name());
            }
        }
        assert_eq!(ErrorCode::from_number(0), None);
    }

    #[test]
    fn the_spec_lists_every_error_number() {
        let spec = include_str!("../../../spec/wasm-abi.md");
        for c in ErrorCode::ALL {
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
