//! What a backend is, in plain Rust: the small trait every backend implements,
//! and the data that crosses it. The abi_stable root module that carries a
//! [`Backend`] across a dynamic-library boundary wraps this trait, so a
//! backend's own tests call it directly, in-process.
//!
//! Everything here crosses the boundary as JSON (the bytes of artifacts
//! aside): a later minor version of the plugin API adds optional fields,
//! which a reader of an older one ignores.

use crate::backend_codes::BackendCode;
use crate::feature_set::FeatureSet;
use crate::iir::{Program, Span, IIR_FORMAT};
use crate::literal::Literal;
use crate::pack::PackLowerings;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

/// Named settings of a backend (`isu build --set opt_level=2`): name to value.
pub type Settings = BTreeMap<String, String>;

/// Who a backend is and what it can do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackendInfo {
    /// A short name, e.g. `python`.
    pub name: String,
    /// The backend's own version (semver).
    pub version: String,
    /// The targets it serves, as named on `isu build --target`.
    pub targets: Vec<String>,
    /// The IIR formats it reads (`isu-iir/0.1`), one per major version; it
    /// reads every minor of a major it lists ([`crate::iir_format`]).
    pub iir: Vec<String>,
    /// The language features it supports; cases needing others are
    /// unsupported, never passed.
    pub features: FeatureSet,
    /// The artifact kinds `compile` can emit, first the default (e.g. `wasm`, `js`).
    #[serde(default)]
    pub emits: Vec<String>,
    /// How `execute` runs what `compile` made; `None` when the backend only builds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execute: Option<ExecuteInfo>,
    /// The settings `--set NAME=VALUE` may give it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<SettingInfo>,
    /// Lowerings it carries for functions of packs it does not own, by pack
    /// name and version (plugin API 2.3): the host gives it one of these
    /// before the pack's own lowering for its target.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lowerings: Vec<PackLowerings>,
}

impl BackendInfo {
    /// A backend of `name` serving `targets`, reading the IIR format of this
    /// crate, supporting `features`; it emits and executes nothing and has no
    /// settings until the builder methods say otherwise.
    pub fn new(name: &str, version: &str, targets: &[&str], features: FeatureSet) -> BackendInfo {
        BackendInfo {
            name: name.to_owned(),
            version: version.to_owned(),
            targets: targets.iter().map(|t| (*t).to_owned()).collect(),
            iir: vec![IIR_FORMAT.to_owned()],
            features,
            emits: Vec::new(),
            execute: None,
            settings: Vec::new(),
            lowerings: Vec::new(),
        }
    }

    /// The artifact kinds `compile` can emit, the default first.
    pub fn emitting(mut self, kinds: &[&str]) -> BackendInfo {
        self.emits = kinds.iter().map(|k| (*k).to_owned()).collect();
        self
    }

    /// `execute` runs artifacts of `artifact` kind; `native` says it runs
    /// native code (machine code it generated or JIT-compiled) in its
    /// process, which the host then isolates in a process of its own.
    pub fn executing(mut self, artifact: &str, native: bool) -> BackendInfo {
        self.execute = Some(ExecuteInfo {
            artifact: artifact.to_owned(),
            native,
        });
        self
    }

    /// One more setting.
    pub fn with_setting(mut self, setting: SettingInfo) -> BackendInfo {
        self.settings.push(setting);
        self
    }

    /// Lowerings it carries for the functions of a pack it does not own.
    pub fn with_lowerings(mut self, lowerings: PackLowerings) -> BackendInfo {
        self.lowerings.push(lowerings);
        self
    }

    /// Its own definition, for `target`, of the function `function` (its
    /// name within the pack) of the pack `namespace` at `version`, if it
    /// carries one.
    pub fn lowering_of(
        &self,
        namespace: &str,
        version: &str,
        function: &str,
        target: &str,
    ) -> Option<&str> {
        self.lowerings
            .iter()
            .filter(|l| l.target == target && l.applies_to(namespace, version))
            .find_map(|l| l.functions.get(function))
            .map(String::as_str)
    }

    /// `unsupported_feature` when `program` uses features of the vocabulary
    /// this backend does not declare (naming them): a backend written
    /// before a feature existed cannot read its IIR nodes. The host checks
    /// this before every compile; a backend may check it again at its entry.
    pub fn check_features(&self, program: &Program) -> Result<(), PluginDiagnostic> {
        let used = crate::features::used_by(program);
        let missing = self.features.missing(used.iter().map(String::as_str));
        if missing.is_empty() {
            return Ok(());
        }
        Err(PluginDiagnostic::backend(
            BackendCode::UnsupportedFeature,
            format!(
                "the {} backend does not support {}, which the program uses",
                self.name,
                missing.join(", ")
            ),
        ))
    }

    /// The settings `given`, checked against the declared ones: every name
    /// declared and every value allowed. The defaults are not filled in.
    pub fn check_settings(&self, given: &Settings) -> Result<(), PluginDiagnostic> {
        for (name, value) in given {
            let Some(setting) = self.settings.iter().find(|s| &s.name == name) else {
                let known: Vec<&str> = self.settings.iter().map(|s| s.name.as_str()).collect();
                let hint = if known.is_empty() {
                    format!("the `{}` backend has no settings", self.name)
                } else {
                    format!("its settings are {}", known.join(", "))
                };
                return Err(PluginDiagnostic::backend(
                    BackendCode::UnknownSetting,
                    format!("the `{}` backend has no setting `{name}`", self.name),
                )
                .with_hint(hint));
            };
            if !setting.values.is_empty() && !setting.values.contains(value) {
                return Err(PluginDiagnostic::backend(
                    BackendCode::InvalidSetting,
                    format!("`{value}` is not a value of the setting `{name}`"),
                )
                .with_hint(format!("use one of {}", setting.values.join(", "))));
            }
        }
        Ok(())
    }
}

/// How a backend runs what it built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecuteInfo {
    /// The kind of artifact `execute` runs (`wasm`, `python`, `executable`).
    pub artifact: String,
    /// Whether `execute` runs native code inside the plugin's process.
    #[serde(default)]
    pub native: bool,
}

/// A setting a backend declares (in the manner of Cranelift's settings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingInfo {
    /// `opt_level`, `triple`, ...: lower-case letters, digits and `_`.
    pub name: String,
    /// What it does, one sentence.
    pub doc: String,
    /// The values it allows; empty means any text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// The value it has when not set.
    pub default: String,
}

impl SettingInfo {
    /// A setting `name` of the allowed `values` (empty: any text), with its
    /// one-sentence `doc` and its `default`.
    pub fn new(name: &str, doc: &str, values: &[&str], default: &str) -> SettingInfo {
        SettingInfo {
            name: name.to_owned(),
            doc: doc.to_owned(),
            values: values.iter().map(|v| (*v).to_owned()).collect(),
            default: default.to_owned(),
        }
    }
}

/// The value of setting `name` in `given`, else its default in `info`.
pub fn setting<'a>(info: &'a BackendInfo, given: &'a Settings, name: &str) -> Option<&'a str> {
    given.get(name).map(String::as_str).or_else(|| {
        info.settings
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.default.as_str())
    })
}

/// One output file of a compilation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// What it is: `python`, `wasm`, `js`, `executable`, ...
    pub kind: String,
    /// A suggested file name, e.g. `sum_evens.py`: no folder, not `.` or `..`.
    pub file_name: String,
    /// Whether the file is a program to run (the host writes it executable).
    pub executable: bool,
    /// The contents.
    pub bytes: Vec<u8>,
}

/// What an artifact is, apart from its bytes: its JSON form across the
/// boundary (the bytes cross as bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArtifactMeta {
    /// [`Artifact::kind`].
    pub kind: String,
    /// [`Artifact::file_name`].
    pub file_name: String,
    /// [`Artifact::executable`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub executable: bool,
}

impl Artifact {
    /// A file that is not executable.
    pub fn new(kind: &str, file_name: impl Into<String>, bytes: Vec<u8>) -> Artifact {
        Artifact {
            kind: kind.to_owned(),
            file_name: file_name.into(),
            executable: false,
            bytes,
        }
    }

    /// The same artifact, marked executable.
    pub fn as_executable(mut self) -> Artifact {
        self.executable = true;
        self
    }

    /// What the artifact is, without its bytes.
    pub fn meta(&self) -> ArtifactMeta {
        ArtifactMeta {
            kind: self.kind.clone(),
            file_name: self.file_name.clone(),
            executable: self.executable,
        }
    }

    /// The artifact of `meta` with `bytes`.
    pub fn from_meta(meta: ArtifactMeta, bytes: Vec<u8>) -> Artifact {
        Artifact {
            kind: meta.kind,
            file_name: meta.file_name,
            executable: meta.executable,
            bytes,
        }
    }
}

/// Options of one compilation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompileOptions {
    /// The target asked for (one of [`BackendInfo::targets`]).
    pub target: String,
    /// The artifact kinds asked for; empty means the backend's default.
    #[serde(default)]
    pub emit: Vec<String>,
    /// The definitions, for this target, of the pack functions the program
    /// calls (`math.GCD`), one per function; the backend includes each in
    /// what it emits. Empty when the program calls no pack function.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lowerings: Vec<crate::pack::Lowering>,
    /// The settings given (`--set`), checked against the declared ones.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: Settings,
}

/// Limits of one execution: the language's own ([`isu_lang::limits`]).
pub use isu_lang::limits::ExecLimits;

/// Options of one execution: the limits, the settings, and how long the
/// host waits for the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecOptions {
    /// The limits of the run.
    pub limits: ExecLimits,
    /// The settings given (`--set`), as for the compilation.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: Settings,
    /// How long, in milliseconds, the host waits for this call's answer
    /// before it stops the plugin (plugin API 2.3); absent when it waits as
    /// long as it takes. See [`ExecOptions::worker_timeout`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
}

impl ExecOptions {
    /// Options with these limits, no settings and no timeout.
    pub fn new(limits: ExecLimits) -> ExecOptions {
        ExecOptions {
            limits,
            settings: Settings::new(),
            timeout_ms: None,
        }
    }

    /// How long a backend that runs the program in another process waits
    /// for it: nine tenths of [`ExecOptions::timeout_ms`], so that it stops
    /// that process and cleans up after it (temporary files) before the
    /// host stops the backend; `None` without a timeout.
    /// [`crate::worker::WorkerPool`] takes it as it is.
    pub fn worker_timeout(&self) -> Option<Duration> {
        self.timeout_ms
            .map(|ms| Duration::from_millis(ms.saturating_mul(9) / 10))
    }
}

/// The kind of a plugin's diagnostic: one of the four kinds of errors of a
/// program, or a failure of the plugin itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DiagnosticKind {
    /// The text does not parse.
    ParseError,
    /// The program does not validate.
    StaticError,
    /// A run of the program stopped with an error.
    RuntimeError,
    /// An IO example of the program does not hold.
    TestFail,
    /// The backend itself failed or cannot do what was asked.
    BackendError,
}

impl DiagnosticKind {
    /// The kind's name, as diagnostics spell it (`RuntimeError`).
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosticKind::ParseError => "ParseError",
            DiagnosticKind::StaticError => "StaticError",
            DiagnosticKind::RuntimeError => "RuntimeError",
            DiagnosticKind::TestFail => "TestFail",
            DiagnosticKind::BackendError => "BackendError",
        }
    }
}

impl fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A diagnostic as a plugin reports it: a plain mirror of the host's
/// diagnostic, which the host renders.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginDiagnostic {
    /// Which of the four kinds of errors of a program, or `BackendError`.
    pub kind: DiagnosticKind,
    /// A stable code: for an error of the program, a host code of that kind
    /// (`spec/errors.md`); for a `BackendError`, a [`BackendCode`].
    pub code: String,
    /// The step ID the error belongs to, as the interpreter names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// Where in the source, when the plugin knows (the span of an IIR node).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// One sentence.
    pub message: String,
    /// What to do about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// More lines of explanation, each a sentence.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl PluginDiagnostic {
    /// A runtime error of the program, with its code and step.
    pub fn runtime(code: &str, step: Option<&str>, message: impl Into<String>) -> Self {
        PluginDiagnostic {
            kind: DiagnosticKind::RuntimeError,
            code: code.into(),
            step: step.map(str::to_owned),
            span: None,
            message: message.into(),
            hint: None,
            notes: Vec::new(),
        }
    }

    /// A failure of the plugin itself.
    pub fn backend(code: BackendCode, message: impl Into<String>) -> Self {
        PluginDiagnostic {
            kind: DiagnosticKind::BackendError,
            code: code.as_str().to_owned(),
            step: None,
            span: None,
            message: message.into(),
            hint: None,
            notes: Vec::new(),
        }
    }

    /// The same diagnostic with a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Points at `span` (a synthetic span is left out).
    pub fn at(mut self, span: Span) -> Self {
        if !span.is_synthetic() {
            self.span = Some(span);
        }
        self
    }

    /// One more line of explanation.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// The backend code, when this is a `BackendError` with one.
    pub fn backend_code(&self) -> Option<BackendCode> {
        (self.kind == DiagnosticKind::BackendError)
            .then(|| BackendCode::parse(&self.code))
            .flatten()
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
        options: &ExecOptions,
    ) -> Result<Literal, PluginDiagnostic>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feature_set::FEATURE_SET_VERSION;

    fn info() -> BackendInfo {
        BackendInfo::new(
            "x",
            "1.0.0",
            &["x"],
            FeatureSet::all_of(FEATURE_SET_VERSION),
        )
        .emitting(&["wasm", "js"])
        .executing("wasm", true)
        .with_setting(SettingInfo::new("opt_level", "how hard", &["0", "2"], "2"))
        .with_setting(SettingInfo::new("tool", "which tool", &[], "cc"))
    }

    #[test]
    fn settings_are_checked_against_the_declared_ones() {
        let info = info();
        let set = |pairs: &[(&str, &str)]| -> Settings {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect()
        };
        assert_eq!(info.check_settings(&set(&[("opt_level", "0")])), Ok(()));
        assert_eq!(info.check_settings(&set(&[("tool", "anything")])), Ok(()));
        let bad = info.check_settings(&set(&[("opt_level", "9")])).err();
        assert_eq!(
            bad.map(|d| (d.code, d.hint)),
            Some(("invalid_setting".into(), Some("use one of 0, 2".into())))
        );
        let unknown = info.check_settings(&set(&[("triple", "x")])).err();
        assert_eq!(
            unknown.map(|d| (d.code, d.hint)),
            Some((
                "unknown_setting".into(),
                Some("its settings are opt_level, tool".into())
            ))
        );
        assert_eq!(setting(&info, &set(&[]), "opt_level"), Some("2"));
        assert_eq!(
            setting(&info, &set(&[("opt_level", "0")]), "opt_level"),
            Some("0")
        );
        assert_eq!(setting(&info, &set(&[]), "nope"), None);
    }

    #[test]
    fn info_reads_without_the_optional_fields_and_ignores_unknown_ones() {
        let json = r#"{"name": "x", "version": "1", "targets": ["x"], "iir": ["isu-iir/0.1"],
            "features": {"version": 1, "supported": ["int"]}, "from_a_newer_minor": true}"#;
        let read: Result<BackendInfo, _> = serde_json::from_str(json);
        let read = read.map(|i| (i.emits.len(), i.execute, i.settings.len()));
        assert_eq!(read.ok(), Some((0, None, 0)));
        let round: Result<BackendInfo, _> =
            serde_json::to_string(&info()).and_then(|j| serde_json::from_str(&j));
        assert_eq!(round.ok(), Some(info()));
    }

    #[test]
    fn diagnostics_carry_span_and_notes_and_know_their_backend_code() {
        let span = Span {
            lo: 1,
            hi: 4,
            line: 2,
            col: 3,
        };
        let d = PluginDiagnostic::backend(BackendCode::UnsupportedFeature, "no maps")
            .at(span)
            .with_note("maps come later")
            .with_hint("use arrays");
        assert_eq!(d.backend_code(), Some(BackendCode::UnsupportedFeature));
        let json = serde_json::to_string(&d).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"kind":"BackendError","code":"unsupported_feature","span":{"lo":1,"hi":4,"line":2,"col":3},"message":"no maps","hint":"use arrays","notes":["maps come later"]}"#
        );
        let rt = PluginDiagnostic::runtime("int_overflow", Some("S1"), "x").at(Span::default());
        assert_eq!((rt.backend_code(), rt.span), (None, None));
    }
}
