//! The runtime error codes: every way a run of an Isu program can stop
//! with a `RuntimeError`, on any executor.
//!
//! The host's diagnostics (`spec/errors.md`), the Wasm module's error
//! numbers (`spec/wasm-abi.md`) and the Python runtime's exception codes
//! all come from this one enum, so a new code is added once and every
//! executor that matches on it exhaustively is told by the compiler.

use std::fmt;

macro_rules! runtime_codes {
    ($($variant:ident = $text:literal, $number:expr, $summary:literal;)*) => {
        /// A stable runtime error code. The text (`"int_overflow"`) never
        /// changes once published; new codes are only ever added.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RuntimeCode {
            $(#[doc = $summary] $variant,)*
        }

        impl RuntimeCode {
            /// Every code, in the order `spec/errors.md` lists them.
            pub const ALL: &'static [RuntimeCode] = &[$(RuntimeCode::$variant,)*];

            /// The stable text of the code.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(RuntimeCode::$variant => $text,)*
                }
            }

            /// One line saying what the code means.
            pub fn summary(self) -> &'static str {
                match self {
                    $(RuntimeCode::$variant => $summary,)*
                }
            }

            /// The stable number compiled code reports this error by (the
            /// Wasm and LLVM backends' error numbers, `spec/wasm-abi.md`,
            /// `spec/llvm-abi.md`), for the codes a run of a valid program
            /// can stop with on any executor; `None` for the codes of the
            /// host's own machinery (the trace sink, packs, a program the
            /// validator did not check), which no compiled code raises. A
            /// code keeps its number; new codes take new numbers.
            pub fn number(self) -> Option<i32> {
                match self {
                    $(RuntimeCode::$variant => $number,)*
                }
            }
        }
    };
}

runtime_codes! {
    IntOverflow = "int_overflow", Some(1), "an int result outside the 64-bit signed range";
    DivisionByZero = "division_by_zero", Some(2), "div or mod by zero";
    IndexOutOfRange = "index_out_of_range", Some(3), "an array or string index outside 0..LEN";
    MissingKey = "missing_key", Some(4), "a map read (index or MAP_GET) of a key the map does not hold";
    ZeroStep = "zero_step", Some(5), "a range ITER whose STEP is 0";
    ParseIntFailed = "parse_int_failed", Some(6), "PARSE_INT of text that is not a decimal int";
    EmptyCollection = "empty_collection", Some(7), "POP of an empty array, or math.MIN or math.MAX of one";
    NegativeCount = "negative_count", Some(8), "REPEAT with a negative count";
    UninitializedRead = "uninitialized_read", Some(9), "a LOCAL read before any assignment to it";
    NoReturn = "no_return", Some(10), "the steps ended without a RETURN";
    StepLimit = "step_limit", Some(11), "the run used up its step budget (--max-steps)";
    SizeLimit = "size_limit", Some(12), "a string or collection grew past the size limit";
    InvalidArgument = "invalid_argument", Some(13), "a run's argument missing, unknown, or not of its ARGS type";
    MemoryLimit = "memory_limit", Some(15), "the variables of a run would hold more than the memory limit (--max-memory)";
    EmptySeparator = "empty_separator", Some(16), "SPLIT with the empty string as its separator";
    OutOfDomain = "out_of_domain", Some(17), "a function's argument outside the values it is defined for (SQRT of a negative float, math.POW with a negative exponent, text.CHR of no Unicode scalar value)";
    FloatNotFinite = "float_not_finite", Some(18), "a float operation whose result is not finite (beyond the float range, or not a number)";
    InvalidNumber = "invalid_number", Some(19), "PARSE_FLOAT of text that is not a decimal number";
    TraceWriteFailed = "trace_write_failed", None, "the trace sink (--trace) refused a write";
    PackFailed = "pack_failed", None, "a pack function failed (it panicked or answered garbage) instead of returning a value or a runtime error";
    InternalError = "internal_error", None, "the interpreter met a program the validator should have refused (a bug: please report it)";
}

/// The number compiled code reports running out of its own memory by: a
/// failure of the executor (the backend code `out_of_memory`), not of the
/// program, so no runtime code takes this number.
pub const OUT_OF_MEMORY_NUMBER: i32 = 14;

impl RuntimeCode {
    /// The code of this text, if it is one.
    pub fn from_text(text: &str) -> Option<RuntimeCode> {
        RuntimeCode::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == text)
    }

    /// The code compiled code reports by `number`.
    pub fn from_number(number: i32) -> Option<RuntimeCode> {
        RuntimeCode::ALL
            .iter()
            .copied()
            .find(|c| c.number() == Some(number))
    }

    /// Whether a run of a valid program can stop with this code on any
    /// executor (a backend's compiled code reports it).
    pub fn is_program_error(self) -> bool {
        self.number().is_some()
    }

    /// The codes a valid program's run can stop with on any executor.
    pub fn program_errors() -> impl Iterator<Item = RuntimeCode> {
        RuntimeCode::ALL
            .iter()
            .copied()
            .filter(|c| c.is_program_error())
    }
}

impl fmt::Display for RuntimeCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_unique_snake_case_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for &c in RuntimeCode::ALL {
            assert!(seen.insert(c.as_str()), "{c} twice");
            assert!(c
                .as_str()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_'));
            assert_eq!(RuntimeCode::from_text(c.as_str()), Some(c));
        }
        assert_eq!(RuntimeCode::from_text("type_mismatch"), None);
        assert!(!RuntimeCode::InternalError.is_program_error());
        for c in RuntimeCode::program_errors() {
            let n = c.number().unwrap_or(0);
            assert!(n > 0, "{c}");
            assert_eq!(RuntimeCode::from_number(n), Some(c));
        }
        assert_eq!(RuntimeCode::from_number(0), None);
        assert_eq!(RuntimeCode::from_number(OUT_OF_MEMORY_NUMBER), None);
        assert!(RuntimeCode::program_errors().any(|c| c == RuntimeCode::StepLimit));
    }
}
