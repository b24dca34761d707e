//! What a backend is, in plain Rust: the small trait every backend implements,
//! and the data that crosses it. The abi_stable root module that carries a
//! [`Backend`] across a dynamic-library boundary wraps this trait, so a
//! backend's own tests call it directly, in-process.

use crate::iir::Program;
use crate::literal::Literal;
use serde::{Deserialize, Serialize};

/// Who a backend is and what it can do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackendInfo {
    /// A short name, e.g. `python`.
    pub name: String,
    /// The backend's own version (semver).
    pub version: String,
    /// The targets it serves, as named on `isu build --target`.
    pub targets: Vec<String>,
    /// The artifact kinds `compile` can emit, first the default (e.g. `wasm`, `js`).
    pub emits: Vec<String>,
    /// Language features it does NOT support; conformance cases that need one
    /// are reported as unsupported, never as passed. Names are those of
    /// [`crate::features`].
    pub lacks: Vec<String>,
}

/// One output file of a compilation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    /// What it is: `python`, `wasm`, `js`, `llvm-ir`, ...
    pub kind: String,
    /// A suggested file name, e.g. `sum_evens.py`.
    pub file_name: String,
    /// The contents.
    pub bytes: Vec<u8>,
}

/// Options of one compilation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompileOptions {
    /// The target asked for (one of [`BackendInfo::targets`]).
    pub target: String,
    /// The artifact kinds asked for; empty means the backend's default.
    pub emit: Vec<String>,
    /// The definitions, for this target, of the pack functions the program
    /// calls (`math.GCD`), one per function; the backend includes each in
    /// what it emits. Empty when the program calls no pack function.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lowerings: Vec<crate::pack::Lowering>,
}

/// Limits of one execution, as the interpreter has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecLimits {
    /// Loop rounds (BODY runs of any LOOP) before `step_limit` at that LOOP.
    pub max_steps: u64,
    /// Elements of a collection or characters of a string before `size_limit`.
    pub max_size: u64,
}

impl ExecLimits {
    /// The limits of a run that sets none, the same on every executor: the
    /// interpreter, `isu run` and `isu test`, the conformance suite, and what
    /// backends build into their artifacts (a generated Python module's
    /// `MAX_STEPS`, a Wasm module's globals, the JavaScript loader), which take
    /// these values from here when they are generated (`spec/semantics.md`,
    /// "Limits").
    pub const DEFAULT: ExecLimits = ExecLimits {
        max_steps: 10_000_000,
        max_size: 10_000_000,
    };
}

impl Default for ExecLimits {
    fn default() -> ExecLimits {
        ExecLimits::DEFAULT
    }
}

/// A diagnostic as a plugin reports it: a plain mirror of the host's
/// diagnostic, which the host renders. `kind` is one of `ParseError`,
/// `StaticError`, `RuntimeError`, `TestFail`, or `BackendError` for a failure
/// of the backend itself (a missing tool, a feature it lacks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginDiagnostic {
    /// `RuntimeError` (or another of the four kinds) for an error of the
    /// program; `BackendError` for a failure of the backend itself.
    pub kind: String,
    /// A stable code: the host's codes (`spec/errors.md`) for runtime errors.
    pub code: String,
    /// The step ID the reference interpreter names (`S2_1`), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// One sentence.
    pub message: String,
    /// What to do about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl PluginDiagnostic {
    /// A runtime error of the program, with its code and step.
    pub fn runtime(code: &str, step: Option<&str>, message: impl Into<String>) -> Self {
        PluginDiagnostic {
            kind: "RuntimeError".into(),
            code: code.into(),
            step: step.map(str::to_owned),
            message: message.into(),
            hint: None,
        }
    }

    /// A failure of the backend itself (code e.g. `backend_failed`, `unsupported_feature`).
    pub fn backend(code: &str, message: impl Into<String>) -> Self {
        PluginDiagnostic {
            kind: "BackendError".into(),
            code: code.into(),
            step: None,
            message: message.into(),
            hint: None,
        }
    }

    /// The same diagnostic with a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

/// A backend: compiles canonical, validated (typed) IIR and runs what it made.
pub trait Backend {
    /// Who the backend is: name, version, targets, artifact kinds, the
    /// features it lacks. Called once, when the host loads the plugin.
    fn info(&self) -> BackendInfo;

    /// Compiles a program. `program` is canonical and validated: every step has
    /// its ID and every expression its type.
    fn compile(
        &self,
        program: &Program,
        options: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>>;

    /// Runs compiled artifacts with `args` (a JSON object: argument name to value).
    /// `Ok` is the function's result as JSON; `Err` is the runtime error (with its
    /// code and step ID) or a failure of the backend itself.
    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        limits: &ExecLimits,
    ) -> Result<Literal, PluginDiagnostic>;
}
