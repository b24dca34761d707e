//! Building and running a program through the backend of a target: what
//! `isu build` and the backend executor ([`crate::executor::ViaBackend`])
//! share. A backend's answers are turned into host terms: the
//! program's own errors become [`Diagnostic`]s (same codes and steps as the
//! interpreter's), failures of the backend itself stay [`BackendFailure`]s.

use super::Registry;
use crate::diag::{Code, Diagnostic};
use crate::executor::Executed;
use crate::functions::Functions;
use isu_plugin_api::{
    Artifact, Backend, BackendCode, CompileOptions, ExecOptions, Literal, PluginDiagnostic,
    Program, StepId,
};
use std::fmt;

/// A failure of a backend plugin itself, not of the program: it panicked,
/// answered garbage, lacks a tool, or reported a code the host does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendFailure {
    /// The target whose backend failed.
    pub target: String,
    pub diagnostic: PluginDiagnostic,
}

impl fmt::Display for BackendFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.diagnostic;
        write!(
            f,
            "the `{}` backend failed: {} [{}]",
            self.target, d.message, d.code
        )?;
        if let Some(step) = &d.step {
            write!(f, " in step {step}")?;
        }
        for note in &d.notes {
            write!(f, "\n  note: {note}")?;
        }
        if let Some(hint) = &d.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

impl BackendFailure {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "target": self.target,
            "kind": self.diagnostic.kind,
            "code": self.diagnostic.code,
            "step": self.diagnostic.step,
            "message": self.diagnostic.message,
            "hint": self.diagnostic.hint,
            "notes": self.diagnostic.notes,
        })
    }
}

/// A plugin's diagnostic in host terms.
#[derive(Debug, Clone, PartialEq)]
pub enum Reported {
    /// An error of the program: its kind is one of the four and its code is
    /// the host's code of that kind.
    Program(Diagnostic),
    /// Anything else: a failure of the backend.
    Failure(BackendFailure),
}

/// Sorts a plugin's diagnostic into an error of the program or a failure of
/// the backend.
pub fn to_host(d: &PluginDiagnostic, target: &str) -> Reported {
    let code = Code::from_text(&d.code).filter(|c| c.kind().as_str() == d.kind.as_str());
    let step = d.step.as_deref().map(StepId::parse);
    match (code, step) {
        (Some(code), step @ (None | Some(Some(_)))) => {
            let mut diag = Diagnostic::error(code, d.message.clone())
                .in_step(step.flatten().as_ref())
                .with_notes(d.notes.clone());
            if let Some(span) = d.span {
                diag = diag.at(span);
            }
            if let Some(h) = &d.hint {
                diag = diag.with_hint(h.clone());
            }
            Reported::Program(diag)
        }
        _ => Reported::Failure(BackendFailure {
            target: target.to_owned(),
            diagnostic: d.clone(),
        }),
    }
}

/// Why a build failed.
#[derive(Debug, Clone)]
pub enum BuildError {
    /// No loaded backend serves the target (the message says which do).
    NoBackend(String),
    /// Pack functions the program calls have no lowering for the target.
    NoLowering(Vec<String>),
    /// The backend found errors in the program.
    Program(Vec<Diagnostic>),
    /// The backend itself failed.
    Backend(Vec<BackendFailure>),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::NoBackend(m) => f.write_str(m),
            BuildError::NoLowering(ms) => {
                write!(f, "cannot build for this target: {}", ms.join("; "))
            }
            BuildError::Program(ds) => {
                let msgs: Vec<&str> = ds.iter().map(|d| d.message.as_str()).collect();
                write!(f, "the backend refused the program: {}", msgs.join("; "))
            }
            BuildError::Backend(fs) => {
                let msgs: Vec<String> = fs.iter().map(ToString::to_string).collect();
                f.write_str(&msgs.join("\n"))
            }
        }
    }
}

/// Compiles a canonical, validated program with `backend` for the target
/// of `options`, with its emit kinds and settings (checked against the
/// backend's), giving it the lowerings of the pack functions it calls.
/// A program using a feature the backend does not declare never reaches
/// it: a backend written before the feature existed cannot read its IIR
/// nodes (`isu_lang::feature_set`), so the host answers `unsupported_feature`.
pub fn compile_with(
    packs: &Functions,
    backend: &dyn Backend,
    program: &Program,
    mut options: CompileOptions,
) -> Result<Vec<Artifact>, BuildError> {
    let target = options.target.clone();
    let target = target.as_str();
    if let Err(d) = backend.info().check_settings(&options.settings) {
        return Err(BuildError::Backend(vec![BackendFailure {
            target: target.to_owned(),
            diagnostic: d,
        }]));
    }
    if let Err(d) = backend.info().check_features(program) {
        return Err(BuildError::Backend(vec![BackendFailure {
            target: target.to_owned(),
            diagnostic: d,
        }]));
    }
    options.lowerings = packs
        .lowerings(program, target)
        .map_err(BuildError::NoLowering)?;
    backend.compile(program, &options).map_err(|diags| {
        let mut program_errors = Vec::new();
        let mut failures = Vec::new();
        for d in &diags {
            match to_host(d, target) {
                Reported::Program(diag) => program_errors.push(diag),
                Reported::Failure(f) => failures.push(f),
            }
        }
        if diags.is_empty() {
            failures.push(BackendFailure {
                target: target.to_owned(),
                diagnostic: PluginDiagnostic::backend(
                    BackendCode::PluginBadOutput,
                    "compile failed without saying why",
                ),
            });
        }
        if failures.is_empty() {
            BuildError::Program(program_errors)
        } else {
            BuildError::Backend(failures)
        }
    })
}

/// Compiles a program with the registry's backend for the target of `options`.
pub fn build(
    reg: &Registry,
    program: &Program,
    options: CompileOptions,
) -> Result<Vec<Artifact>, BuildError> {
    let (_, backend) = reg
        .backend(&options.target)
        .map_err(BuildError::NoBackend)?;
    compile_with(&reg.functions, backend.as_ref(), program, options)
}

/// Runs compiled artifacts on `args` (a JSON object of the ARGS).
pub fn execute(
    backend: &dyn Backend,
    target: &str,
    artifacts: &[Artifact],
    args: &Literal,
    options: &ExecOptions,
) -> Executed {
    match backend.execute(artifacts, args, options) {
        Ok(value) => Executed::Value { value, step: None },
        Err(d) => match to_host(&d, target) {
            Reported::Program(diag) => Executed::Error(diag),
            Reported::Failure(f) => Executed::Failed(f),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use isu_lang::RuntimeCode;

    #[test]
    fn program_errors_become_host_diagnostics_and_the_rest_failures() {
        let rt = PluginDiagnostic::runtime("index_out_of_range", Some("S2_1"), "i = 5");
        let Reported::Program(d) = to_host(&rt, "py") else {
            panic!("not a program error");
        };
        assert_eq!(
            (d.code, d.step.map(|s| s.to_string())),
            (
                Code::from(RuntimeCode::IndexOutOfRange),
                Some("S2_1".into())
            )
        );
        let failure = |d: &PluginDiagnostic| match to_host(d, "py") {
            Reported::Failure(f) => Some(f.to_string()),
            Reported::Program(_) => None,
        };
        let unknown = PluginDiagnostic::runtime("segfault", None, "boom");
        assert!(failure(&unknown).is_some());
        let wrong_kind = PluginDiagnostic {
            kind: isu_plugin_api::DiagnosticKind::StaticError,
            ..rt.clone()
        };
        assert!(failure(&wrong_kind).is_some());
        let bad_step = PluginDiagnostic::runtime("int_overflow", Some("line 3"), "x");
        assert_eq!(
            failure(&bad_step),
            Some("the `py` backend failed: x [int_overflow] in step line 3".into())
        );
        let panicked = PluginDiagnostic::backend(BackendCode::PluginPanicked, "oops")
            .with_note("in compile")
            .with_hint("report it");
        assert_eq!(
            failure(&panicked).as_deref(),
            Some("the `py` backend failed: oops [plugin_panicked]\n  note: in compile\n  hint: report it")
        );
        let located = PluginDiagnostic::runtime("int_overflow", Some("S1"), "x")
            .at(isu_plugin_api::Span {
                lo: 3,
                hi: 5,
                line: 1,
                col: 4,
            })
            .with_note("the sum of a and b");
        let Reported::Program(d) = to_host(&located, "py") else {
            panic!("not a program error");
        };
        assert_eq!(d.span.map(|s| (s.line, s.column)), Some((1, 4)));
        assert_eq!(d.notes, ["the sum of a and b"]);
    }
}
