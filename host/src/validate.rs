//! Static checks: names, types, returns, IO examples. Fills every expression's `ty`.
//!
//! The checks run in passes over a canonical program, each reporting every
//! error it finds:
//! - [`structs`]: the structs of `TYPES` (`duplicate_struct`, `empty_struct`,
//!   `duplicate_field`, `unknown_struct`, `recursive_struct`);
//! - [`scope`]: the declarations (`duplicate_declaration`, `invalid_map_key_type`);
//! - [`expr`] and [`stmt`]: the types of every expression, place and `ITER`
//!   (`undeclared_variable`, `undeclared_loop_variable`, `type_mismatch`,
//!   `ambiguous_literal`, `unknown_function`, `wrong_arity`,
//!   `return_type_mismatch`), filling in `ty`;
//! - [`flow`]: paths through the steps (`missing_return`, `unreachable_step`,
//!   `unassigned_variable`);
//! - [`io`]: the `IO` examples against `ARGS` and `RETURNS`.
//!
//! Every diagnostic names the step it belongs to (none for declarations,
//! `STATE` initializers and `IO`), and they come out in source order.

mod expr;
mod fields;
mod flow;
mod io;
mod literal;
mod report;
mod scope;
mod stmt;
mod structs;
pub(crate) mod suggest;
mod text;
mod types;

#[cfg(test)]
mod tests;

use crate::diag::Diagnostic;
use crate::functions::Functions;
use isu_plugin_api::{Program, StepId};
use scope::Scope;

pub use literal::{literal_conforms, literal_conforms_named};

/// Validates a canonical program; reports every error found, not just the first.
/// When no error (warnings aside) is reported, every expression's `ty` is set.
pub fn validate(program: &mut Program) -> Vec<Diagnostic> {
    validate_with(program, &Functions::default())
}

/// [`validate`], where calls may also name the functions of loaded packs
/// (`math.GCD`), typed by their declared signatures.
pub fn validate_with(program: &mut Program, functions: &Functions) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let scope = Scope::build(program, &mut diags);
    let mut checker = Checker {
        scope,
        step: None,
        in_state: false,
        loops: 0,
        diags,
        functions: functions.clone(),
    };
    checker.program(program);
    let Checker {
        scope, mut diags, ..
    } = checker;
    flow::check(program, &scope, &mut diags);
    io::check(program, &scope, &mut diags);
    // Source order; diagnostics without a place keep their pass order, last.
    diags.sort_by_key(|d| d.span.map_or(u32::MAX, |s| s.start));
    diags
}

/// The typing pass: the scope, the step being checked and what was found.
#[derive(Debug)]
struct Checker {
    scope: Scope,
    /// The step whose fields are being checked; `None` in `STATE`.
    step: Option<StepId>,
    /// Whether a `STATE` initializer is being checked.
    in_state: bool,
    /// How many LOOP bodies are around the step being checked.
    loops: usize,
    diags: Vec<Diagnostic>,
    /// The functions calls may name.
    functions: Functions,
}
