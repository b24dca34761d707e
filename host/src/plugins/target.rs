//! Building and running a program through the backend of a target: what
//! `isu build` and the backend executor ([`crate::executor::ViaBackend`])
//! share. A backend's answers are turned into host terms: the
//! program's own errors become [`Diagnostic`]s (same codes and steps as the
//! interpreter's), failures of the backend itself stay [`BackendFailure`]s.

use super::Registry;
use crate::diag::{Code, Diagnostic, Kind};
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

impl BackendFailure {
    /// Whether the backend did not fail but cannot do what was asked (a
    /// feature, a pack function it cannot lower): a code that makes a
    /// conformance case unsupported.
    pub fn is_unsupported(&self) -> bool {
        self.diagnostic
            .backend_code()
            .is_some_and(|c| c.is_unsupported())
    }
}

impl fmt::Display for BackendFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.diagnostic;
        if self.is_unsupported() {
            write!(
                f,
                "unsupported on target `{}`: {} [{}]",
                self.target, d.message, d.code
            )?;
        } else {
            write!(
                f,
                "the `{}` backend failed: {} [{}]",
                self.target, d.message, d.code
            )?;
        }
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
    let code = Kind::ALL
        .iter()
        .find(|k| k.as_str() == d.kind.as_str())
        .and_then(|k| Code::of_kind(*k, &d.code));
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
    /// The backend found errors in the program.
    Program(Vec<Diagnostic>),
    /// The backend itself failed, or does not support the program (every
    /// failure [`BackendFailure::is_unsupported`]: a feature it does not
    /// declare, a pack function without a lowering for the target).
    Backend(Vec<BackendFailure>),
}

impl BuildError {
    /// Whether the program is only unsupported on the target.
    pub fn is_unsupported(&self) -> bool {
        matches!(self, BuildError::Backend(fs) if !fs.is_empty() && fs.iter().all(BackendFailure::is_unsupported))
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::NoBackend(m) => f.write_str(m),
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
/// A program the backend cannot take never reaches it, and is reported
/// `unsupported_feature`: one using a feature the backend does not declare
/// (a backend written before the feature existed cannot read its IIR nodes,
/// `isu_lang::feature_set`), or calling a pack function that neither the
/// pack nor the backend lowers for the target (`Functions::lowerings`).
pub fn compile_with(
    packs: &Functions,
    backend: &dyn Backend,
    program: &Program,
    mut options: CompileOptions,
) -> Result<Vec<Artifact>, BuildError> {
    let target = options.target.clone();
    let target = target.as_str();
    let refused = |diagnostics: Vec<PluginDiagnostic>| {
        BuildError::Backend(
            diagnostics
                .into_iter()
                .map(|diagnostic| BackendFailure {
                    target: target.to_owned(),
                    diagnostic,
                })
                .collect(),
        )
    };
    let info = backend.info();
    info.check_settings(&options.settings)
        .map_err(|d| refused(vec![d]))?;
    info.check_features(program).map_err(|d| refused(vec![d]))?;
    options.lowerings = packs.lowerings(program, target, &info).map_err(refused)?;
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
    use isu_plugin_api::{BackendInfo, FeatureSet, PackLowerings, FEATURE_SET_VERSION};
    use std::sync::Mutex;

    /// A backend of the target `js` that carries `lowerings`, and keeps
    /// the lowerings each compile gets.
    struct Carrying {
        lowerings: Vec<PackLowerings>,
        got: Mutex<Vec<(String, String)>>,
    }

    impl Backend for Carrying {
        fn info(&self) -> BackendInfo {
            let mut info = BackendInfo::new(
                "js",
                "1.0.0",
                &["js", "python"],
                FeatureSet::all_of(FEATURE_SET_VERSION),
            );
            for l in &self.lowerings {
                info = info.with_lowerings(l.clone());
            }
            info
        }

        fn compile(
            &self,
            _: &Program,
            options: &CompileOptions,
        ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
            if let Ok(mut got) = self.got.lock() {
                got.extend(
                    options
                        .lowerings
                        .iter()
                        .map(|l| (l.function.clone(), l.source.clone())),
                );
            }
            Ok(vec![Artifact::new("js", "f.js", Vec::new())])
        }

        fn execute(
            &self,
            _: &[Artifact],
            _: &Literal,
            _: &ExecOptions,
        ) -> Result<Literal, PluginDiagnostic> {
            Ok(Literal::Int(0))
        }
    }

    fn gcd_lcm() -> (Program, Functions) {
        let packs = Functions::linked([isu_packs::math::MATH]);
        let src = crate::source::Source::new(
            "g.isu",
            "FUNC:\n  NAME: g\n  ARGS: [a: int, b: int]\n  RETURNS: int\nIO:\n  INPUT: []\n  OUTPUT: []\nSTATE: []\nLOCAL: []\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (add (call math.GCD (var a) (var b)) (call math.LCM (var a) (var b)))\n  END\n",
        );
        let fe = crate::pipeline::check_with(&src, &packs);
        let program = fe.valid_program().cloned();
        (program.unwrap_or_else(|| panic!("{:?}", fe.diags)), packs)
    }

    fn compile(backend: &Carrying, target: &str) -> Result<Vec<(String, String)>, BuildError> {
        let (program, packs) = gcd_lcm();
        let options = CompileOptions {
            target: target.to_owned(),
            ..CompileOptions::default()
        };
        compile_with(&packs, backend, &program, options)?;
        Ok(backend.got.lock().map(|g| g.clone()).unwrap_or_default())
    }

    #[test]
    fn a_backend_gets_its_own_lowerings_of_a_pack_at_a_compatible_version() {
        let math = isu_packs::math::MATH.version;
        let carried = |version: &str| Carrying {
            lowerings: vec![PackLowerings::new("math", version, "js")
                .with("GCD", "function math__GCD(a, b) {}")
                .with("LCM", "function math__LCM(a, b) {}")],
            got: Mutex::default(),
        };
        let major_minor: Vec<&str> = math.split('.').take(2).collect();
        let same = carried(&major_minor.join("."));
        assert_eq!(
            compile(&same, "js").ok(),
            Some(vec![
                ("math.GCD".into(), "function math__GCD(a, b) {}".into()),
                ("math.LCM".into(), "function math__LCM(a, b) {}".into()),
            ])
        );
        // Another version of the pack: the lowerings are not for it, the
        // pack has none for `js`, so the program is unsupported there.
        let other = carried("99.0");
        let refused = compile(&other, "js");
        assert!(
            refused.as_ref().is_err_and(BuildError::is_unsupported),
            "{refused:?}"
        );
        let messages: Vec<String> = match refused {
            Err(BuildError::Backend(fs)) => fs.into_iter().map(|f| f.diagnostic.message).collect(),
            _ => Vec::new(),
        };
        assert_eq!(
            messages,
            [
                "the pack function math.GCD has no lowering for target `js`",
                "the pack function math.LCM has no lowering for target `js`"
            ]
        );
        // For a target the pack lowers, the pack's lowering, unless the
        // backend carries its own (which wins: it is written for it).
        let pack_python = compile(&other, "python").unwrap_or_default();
        assert!(
            pack_python[0].1.starts_with("def math__GCD("),
            "{pack_python:?}"
        );
        let own_python = Carrying {
            lowerings: vec![PackLowerings::new("math", "0", "python")
                .with("GCD", "def math__GCD(a, b): return 1")],
            got: Mutex::default(),
        };
        let got = compile(&own_python, "python").unwrap_or_default();
        assert_eq!(got[0].1, "def math__GCD(a, b): return 1");
        assert!(got[1].1.starts_with("def math__LCM("), "{got:?}");
    }

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
