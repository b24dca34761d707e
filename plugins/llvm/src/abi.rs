//! What the program module and the runtime (`runtime/isu_rt.h`) agree on:
//! the runtime error numbers, what an error site shows in its message, and
//! the exported names. `spec/llvm-abi.md` documents it for people.

/// The function the program module defines: `void isu_run(const uint64_t
/// *args, uint64_t *result)`.
pub const RUN: &str = "isu_run";
/// The global describing the program (`IsuProgram`).
pub const PROGRAM: &str = "isu_program";
/// The runtime's global holding the step budget of the run.
pub const MAX_STEPS: &str = "isu_max_steps";

/// A runtime error, by the number the module hands the runtime; the names are
/// the host's error codes (`spec/errors.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 13] = [
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
    ];

    pub fn number(self) -> i32 {
        self as i32
    }

    /// The host's code name, as the runtime prints it.
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
        }
    }
}

/// What failed at an error site, for its message (`ISU_W_*` in the runtime).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum What {
    Plain = 0,
    Add = 1,
    Sub = 2,
    Mul = 3,
    Div = 4,
    Mod = 5,
    Neg = 6,
    Abs = 7,
    Index = 8,
    Slice = 9,
    Var = 10,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_names_are_the_runtimes_and_the_hosts() {
        let header = include_str!("../runtime/isu_rt.h");
        let main = include_str!("../runtime/driver/main.c");
        for c in ErrorCode::ALL {
            let define = format!("ISU_E_{} = {},", c.name().to_ascii_uppercase(), c.number());
            assert!(header.contains(&define), "isu_rt.h lacks {define}");
            assert!(main.contains(&format!("\"{}\"", c.name())), "{}", c.name());
            assert!(
                isu_host::Code::ALL.iter().any(|h| h.as_str() == c.name()),
                "{} is not a host code",
                c.name()
            );
        }
        let spec = include_str!("../../../spec/llvm-abi.md");
        for c in ErrorCode::ALL {
            let row = format!("| {} | `{}` |", c.number(), c.name());
            assert!(spec.contains(&row), "spec/llvm-abi.md lacks the row {row}");
        }
        for kind in crate::EMITS {
            assert!(
                spec.contains(&format!("| `{kind}` |")),
                "spec/llvm-abi.md does not document --emit {kind}"
            );
        }
        for (w, name) in [
            (What::Add, "ADD"),
            (What::Neg, "NEG"),
            (What::Slice, "SLICE"),
            (What::Var, "VAR"),
        ] {
            assert!(header.contains(&format!("ISU_W_{name} = {},", w as i32)));
        }
    }
}
