//! A valid program, run or tested: the interpreter or a backend behind one
//! interface ([`crate::executor`]), and the verdict on the IO examples.

use crate::diag::Diagnostic;
use crate::executor::{self, Loaded};
use crate::functions::Functions;
use crate::pipeline;
use crate::plugins::target::BackendFailure;
use crate::source::Source;
use isu_plugin_api::{ExecLimits, Program};

/// A program the front end found valid, with its warnings.
#[derive(Debug, Clone)]
pub struct Valid {
    /// The canonical, typed program.
    pub program: Program,
    /// The warnings the check left.
    pub diags: Vec<Diagnostic>,
}

/// `src` checked, going on only when it is valid (as `isu run`, `isu test`
/// and `isu build` do); `Err` holds the check's diagnostics.
pub fn valid(src: &Source, packs: &Functions) -> Result<Valid, Vec<Diagnostic>> {
    let fe = pipeline::check_with(src, packs);
    match fe.valid_program() {
        Some(program) => Ok(Valid {
            program: program.clone(),
            diags: fe.diags,
        }),
        None => Err(fe.diags),
    }
}

/// The verdict on a program's IO examples.
#[derive(Debug, Clone, PartialEq)]
pub struct Tested {
    /// One TestFail per example that does not hold, in example order.
    pub fails: Vec<Diagnostic>,
    /// How many examples there are.
    pub examples: usize,
}

impl Tested {
    /// How many examples failed.
    pub fn failed(&self) -> usize {
        self.fails
            .iter()
            .filter(|d| d.is_error())
            .count()
            .min(self.examples)
    }

    /// How many examples held.
    pub fn passed(&self) -> usize {
        self.examples - self.failed()
    }

    /// `passed`, `failed`, or `no_examples` for a program whose IO has none.
    pub fn outcome(&self) -> &'static str {
        match (self.examples, self.failed()) {
            (0, _) => "no_examples",
            (_, 0) => "passed",
            _ => "failed",
        }
    }
}

/// Runs the IO examples of `program` on `loaded` (what `executor` loaded):
/// `isu test` and the `test` operation. A failure of a backend itself is no
/// verdict and comes back as such.
pub fn test(
    loaded: &dyn Loaded,
    executor: &str,
    program: &Program,
    limits: &ExecLimits,
) -> Result<Tested, Box<BackendFailure>> {
    let fails = executor::test_examples(loaded, executor, program, limits)?;
    Ok(Tested {
        fails,
        examples: program.io.input.len(),
    })
}

/// `src`'s IO examples on the interpreter within the default limits, when it
/// is valid (an editor's "run the examples"); `Err` holds the check's
/// diagnostics otherwise.
pub fn examples(src: &Source, packs: &Functions) -> Result<Tested, Vec<Diagnostic>> {
    let valid = valid(src, packs)?;
    let fails = executor::test_on_interpreter(&valid.program, &ExecLimits::DEFAULT, packs);
    Ok(Tested {
        fails,
        examples: valid.program.io.input.len(),
    })
}
