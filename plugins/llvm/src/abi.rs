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
/// The runtime's global holding the memory limit of the run.
pub const MAX_MEMORY: &str = "isu_max_memory";

/// The runtime errors go to the runtime by their numbers
/// ([`RuntimeCode::number`], the language's), which `isu_rt.h` defines as
/// `ISU_E_*` and the driver prints by their texts.
pub use isu_plugin_api::RuntimeCode;

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
    /// A call of a pack function: the site's name is the function's full
    /// name (`math.GCD`), which the message shows.
    Pack = 11,
    /// A division of floats (its operands' bits are the values shown).
    FloatDiv = 12,
    /// The index of a character of a string.
    Char = 13,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_names_are_the_runtimes_and_the_hosts() {
        let header = include_str!("../runtime/isu_rt.h");
        let main = include_str!("../runtime/driver/main.c");
        for c in RuntimeCode::program_errors() {
            let number = c.number().unwrap_or(0);
            let define = format!("ISU_E_{} = {number},", c.as_str().to_ascii_uppercase());
            assert!(header.contains(&define), "isu_rt.h lacks {define}");
            assert!(main.contains(&format!("\"{c}\"")), "{c}");
        }
        let spec = include_str!("../../../spec/llvm-abi.md");
        for c in RuntimeCode::program_errors() {
            let row = format!("| {} | `{c}` |", c.number().unwrap_or(0));
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
            (What::Pack, "PACK"),
            (What::FloatDiv, "FDIV"),
            (What::Char, "CHAR"),
        ] {
            assert!(header.contains(&format!("ISU_W_{name} = {},", w as i32)));
        }
    }
}
