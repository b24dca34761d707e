//! The host side: loading a plugin library, with every check, into something
//! that implements the plain [`Backend`] or [`Pack`] trait again.
//!
//! Each file is loaded on its own (`lib_header_from_path` then
//! `init_root_module`), not through `RootModule::load_from_file`, which keeps
//! one module per root-module type and process: the host loads several
//! backends. A library, once opened, stays loaded for the life of the process
//! (abi_stable never unloads one).

use super::modules::{BackendModRef, PackModRef};
use super::older::{v2_0, v2_1, v2_2};
use super::pack_module::{CallAt, CallScalar, PackModule};
use super::stable::{from_json, to_json, AbiArtifact, AbiValue, Scalar};
use super::{ApiVersion, VersionMismatch, PLUGIN_API_VERSION};
use crate::backend::{
    Artifact, Backend, BackendInfo, CompileOptions, ExecOptions, PluginDiagnostic,
};
use crate::backend_codes::BackendCode;
use crate::iir::Program;
use crate::iir_format::IirFormat;
use crate::literal::Literal;
use crate::pack::{Pack, PackInfo};
use abi_stable::library::{lib_header_from_path, AbiHeader, LibHeader, LibraryError, RootModule};
use abi_stable::std_types::{RResult, RSlice, RString};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a plugin library was refused. `Display` says what is wrong in one or
/// two lines; [`LoadError::fix`] says what to do; [`LoadError::details`] has
/// the full text of a layout mismatch for `--verbose`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// No file at the path.
    Missing {
        /// The path looked at.
        path: PathBuf,
    },
    /// The file is there but the system cannot load it as a dynamic library.
    Open {
        /// The file.
        path: PathBuf,
        /// Why not, in the system's words.
        reason: String,
    },
    /// A library whose crate left its plugin out of the build, saying why
    /// (`export_left_out!`): the plugin's file is as good as missing.
    LeftOut {
        /// The file.
        path: PathBuf,
        /// Why the plugin is not in it.
        reason: String,
        /// What to install or set before building it again.
        fix: String,
    },
    /// A dynamic library without an abi_stable root module: not an Isu plugin.
    NotAPlugin {
        /// The file.
        path: PathBuf,
    },
    /// Built with an abi_stable whose ABI differs from the host's.
    AbiStable {
        /// The plugin's abi_stable (`abi_stable 0.9`).
        found: String,
        /// The host's abi_stable ABI version (`0.11`).
        expected: String,
    },
    /// The root module's layout differs from what the host expects: built
    /// against another `isu_plugin_api`, or a plugin of the other kind.
    Layout {
        /// `backend` or `pack`: what the host tried to load.
        expected_kind: &'static str,
        /// The differences in one line.
        summary: String,
        /// abi_stable's full report.
        details: String,
    },
    /// Built for another major plugin-API version.
    Version(VersionMismatch),
    /// The library's root module failed to initialize (it panicked or
    /// returned an error).
    Init {
        /// What went wrong.
        reason: String,
    },
    /// The plugin's `info` failed.
    Info(PluginDiagnostic),
    /// The backend reads no IIR format this host writes.
    IirFormat {
        /// The formats the backend says it reads.
        reads: Vec<String>,
        /// The format this host writes.
        writes: String,
    },
}

impl LoadError {
    /// What the user can do about it.
    pub fn fix(&self) -> String {
        match self {
            LoadError::Missing { .. } => {
                "build the plugin (`cargo build` in its crate) or correct `file` in the manifest; \
                 a relative `file` is read from the manifest's folder"
                    .into()
            }
            LoadError::LeftOut { fix, .. } => format!("{fix}, then build the plugin again"),
            LoadError::Open { .. } => {
                "point `file` at the plugin's dynamic library (.so, .dylib or .dll) built for this machine"
                    .into()
            }
            LoadError::NotAPlugin { .. } => {
                "this library exports no Isu root module; build the plugin with \
                 `isu_plugin_api::export_backend!` or `export_pack!`"
                    .into()
            }
            LoadError::AbiStable { expected, .. } => format!(
                "rebuild the plugin against the isu_plugin_api of this isu (it uses abi_stable {expected})"
            ),
            LoadError::Layout { expected_kind, .. } => format!(
                "check that the manifest's `kind` is right (this file is not a {expected_kind} of this \
                 plugin API) and rebuild the plugin against the isu_plugin_api of this isu \
                 (plugin API {PLUGIN_API_VERSION})"
            ),
            LoadError::Version(VersionMismatch::Older { .. }) => format!(
                "rebuild the plugin against isu_plugin_api {}.x",
                PLUGIN_API_VERSION.major
            ),
            LoadError::Version(VersionMismatch::Newer { plugin, .. }) => format!(
                "use an isu that speaks plugin API {}.x, or a build of the plugin for {}.x",
                plugin.major, PLUGIN_API_VERSION.major
            ),
            LoadError::Init { .. } | LoadError::Info(_) => {
                "this is a bug in the plugin; report it to its authors".into()
            }
            LoadError::IirFormat { writes, .. } => format!(
                "use a build of the plugin that reads {writes}, or an isu that writes a format the plugin reads"
            ),
        }
    }

    /// The full text of the error, where it is longer than its `Display`
    /// (a layout mismatch lists every difference abi_stable found).
    pub fn details(&self) -> Option<&str> {
        match self {
            LoadError::Layout { details, .. } => Some(details),
            _ => None,
        }
    }

    /// Every code [`LoadError::code`] gives.
    pub const CODES: &'static [&'static str] = &[
        "missing_file",
        "not_a_library",
        "not_a_plugin",
        "abi_stable_version",
        "layout_mismatch",
        "plugin_api_version",
        "init_failed",
        "info_failed",
        "iir_format",
    ];

    /// A short stable name of the failure, for JSON reports.
    pub fn code(&self) -> &'static str {
        match self {
            LoadError::Missing { .. } | LoadError::LeftOut { .. } => "missing_file",
            LoadError::Open { .. } => "not_a_library",
            LoadError::NotAPlugin { .. } => "not_a_plugin",
            LoadError::AbiStable { .. } => "abi_stable_version",
            LoadError::Layout { .. } => "layout_mismatch",
            LoadError::Version(_) => "plugin_api_version",
            LoadError::Init { .. } => "init_failed",
            LoadError::Info(_) => "info_failed",
            LoadError::IirFormat { .. } => "iir_format",
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Missing { path } => write!(f, "there is no file {}", path.display()),
            LoadError::LeftOut { path, reason, .. } => {
                write!(f, "{} holds no plugin: {reason}", path.display())
            }
            LoadError::Open { path, reason } => {
                write!(
                    f,
                    "{} is not a shared library this system can load ({reason})",
                    path.display()
                )
            }
            LoadError::NotAPlugin { path } => {
                write!(
                    f,
                    "{} is a dynamic library but not an Isu plugin",
                    path.display()
                )
            }
            LoadError::AbiStable { found, expected } => write!(
                f,
                "it was built with {found}, whose ABI differs from this isu's abi_stable {expected}"
            ),
            LoadError::Layout {
                expected_kind,
                summary,
                ..
            } => write!(
                f,
                "its root module does not have the layout of a {expected_kind}: {summary}"
            ),
            LoadError::Version(v) => v.fmt(f),
            LoadError::Init { reason } => {
                write!(f, "its root module failed to initialize: {reason}")
            }
            LoadError::Info(d) => write!(f, "its info call failed: {}", d.message),
            LoadError::IirFormat { reads, writes } => write!(
                f,
                "it reads IIR {}, and this isu writes {writes}",
                if reads.is_empty() {
                    "in no format it names".to_owned()
                } else {
                    reads.join(", ")
                }
            ),
        }
    }
}

impl std::error::Error for LoadError {}

fn abi_stable_version(h: &AbiHeader) -> String {
    format!("abi_stable {}.{}", h.abi_major, h.abi_minor)
}

fn from_library_error(path: &Path, expected_kind: &'static str, e: LibraryError) -> LoadError {
    match e {
        LibraryError::OpenError { err, .. } => LoadError::Open {
            path: path.to_owned(),
            reason: err.to_string(),
        },
        LibraryError::GetSymbolError { .. } => match super::left_out::read(path) {
            Some((reason, fix)) => LoadError::LeftOut {
                path: path.to_owned(),
                reason,
                fix,
            },
            None => LoadError::NotAPlugin {
                path: path.to_owned(),
            },
        },
        LibraryError::InvalidAbiHeader(found) => {
            let expected = AbiHeader::VALUE;
            let found = if found.magic_string == expected.magic_string {
                abi_stable_version(&found)
            } else {
                "something that is not abi_stable".to_owned()
            };
            LoadError::AbiStable {
                found,
                expected: format!("{}.{}", expected.abi_major, expected.abi_minor),
            }
        }
        LibraryError::IncompatibleVersionNumber {
            expected_version,
            actual_version,
            ..
        } => {
            let plugin = ApiVersion {
                major: actual_version.major,
                minor: 0,
            };
            let host = ApiVersion {
                major: expected_version.major,
                minor: PLUGIN_API_VERSION.minor,
            };
            match plugin.check(host) {
                Err(mismatch) => LoadError::Version(mismatch),
                Ok(()) => LoadError::Init {
                    reason: format!(
                        "abi_stable refused version {actual_version} of the root module"
                    ),
                },
            }
        }
        LibraryError::AbiInstability(err) => {
            let details = err.to_string();
            LoadError::Layout {
                expected_kind,
                summary: layout_summary(&details),
                details,
            }
        }
        LibraryError::RootModule { err, .. } => LoadError::Init {
            reason: err.to_string(),
        },
        other => LoadError::Init {
            reason: other.to_string(),
        },
    }
}

/// What a user needs of abi_stable's layout report (which runs to a hundred
/// lines and more): each error with what was expected and found, and the
/// root module's fields on both sides.
fn layout_summary(details: &str) -> String {
    let lines: Vec<&str> = details.lines().collect();
    let value_after = |i: usize| lines.get(i + 1).map_or("", |l| l.trim());
    let mut errors = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(what) = line.trim().strip_prefix("Error:") {
            let mut e = what.trim().to_owned();
            if lines.get(i + 1).is_some_and(|l| l.trim() == "Expected:")
                && lines.get(i + 3).is_some_and(|l| l.trim() == "Found:")
            {
                e = format!(
                    "{e} (expected `{}`, found `{}`)",
                    value_after(i + 1),
                    value_after(i + 3)
                );
            }
            if !errors.contains(&e) {
                errors.push(e);
            }
        }
    }
    let fields = |heading: &str| -> Vec<&str> {
        let Some(start) = lines.iter().position(|l| l.trim() == heading) else {
            return Vec::new();
        };
        let section = lines[start + 1..]
            .iter()
            .take_while(|l| !l.trim().starts_with("Layout of ") && !l.trim().starts_with("Error:"));
        let named: Vec<(usize, &str)> = section
            .filter_map(|l| {
                let indent = l.len() - l.trim_start().len();
                l.trim().strip_prefix("field_name:").map(|n| (indent, n))
            })
            .collect();
        let top = named.iter().map(|(i, _)| *i).min().unwrap_or(0);
        named
            .into_iter()
            .filter(|(i, _)| *i == top)
            .map(|(_, n)| n)
            .collect()
    };
    let expected = fields("Layout of expected type:");
    let found = fields("Layout of found type:");
    let mut out = if errors.is_empty() {
        "the layouts differ".to_owned()
    } else {
        errors.join("; ")
    };
    if !expected.is_empty() && expected != found {
        out.push_str(&format!(
            "; fields expected: {}; found: {}",
            expected.join(", "),
            found.join(", ")
        ));
    }
    if out.chars().count() > 300 {
        out = out.chars().take(297).collect::<String>() + "...";
    }
    out
}

/// Why the file at `path` cannot be a shared library, judged by its first
/// bytes before the dynamic loader sees it: ELF, Mach-O and PE files are
/// handed on (the loader says more), anything else is refused here.
fn not_a_library(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 4];
    let read = std::fs::File::open(path).and_then(|mut f| f.read(&mut head));
    match read {
        Err(e) => Some(format!("it cannot be read: {e}")),
        Ok(n) if n < 4 => Some("it is too short to be a library".into()),
        Ok(_) => {
            let elf = head == *b"\x7fELF";
            let pe = head.starts_with(b"MZ");
            let macho = [0xfeed_face_u32, 0xfeed_facf, 0xcafe_babe]
                .iter()
                .any(|m| head == m.to_be_bytes() || head == m.to_le_bytes());
            (!(elf || pe || macho)).then(|| "it is not an ELF, Mach-O or PE file".to_owned())
        }
    }
}

fn load_module<M: RootModule>(path: &Path, kind: &'static str) -> Result<M, LoadError> {
    if !path.is_file() {
        if path.is_dir() {
            return Err(LoadError::Open {
                path: path.to_owned(),
                reason: "it is a folder".into(),
            });
        }
        return Err(LoadError::Missing {
            path: path.to_owned(),
        });
    }
    if let Some(reason) = not_a_library(path) {
        return Err(LoadError::Open {
            path: path.to_owned(),
            reason,
        });
    }
    let header = lib_header_from_path(path).map_err(|e| from_library_error(path, kind, e))?;
    check_major(header)?;
    header
        .init_root_module::<M>()
        .map_err(|e| from_library_error(path, kind, e))
}

/// Refuses a root module of another plugin-API major version by its version
/// strings (`MAJOR.MINOR.0`), before abi_stable compares layouts: a plugin
/// of plugin API 1.x is told it is one, whatever its layout.
fn check_major(header: &LibHeader) -> Result<(), LoadError> {
    let text = header.version_strings().version;
    let mut parts = text.as_str().split('.').map(|p| p.parse::<u32>());
    let (Some(Ok(major)), Some(Ok(minor))) = (parts.next(), parts.next()) else {
        return Ok(());
    };
    ApiVersion { major, minor }
        .check(PLUGIN_API_VERSION)
        .map_err(LoadError::Version)
}

/// A backend in a loaded plugin library: the plain [`Backend`] again.
#[derive(Clone)]
pub struct ForeignBackend {
    module: BackendModRef,
    info: BackendInfo,
    api_version: ApiVersion,
    /// The IIR format the programs are sent in.
    format: IirFormat,
}

impl fmt::Debug for ForeignBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ForeignBackend")
            .field("info", &self.info)
            .field("api_version", &self.api_version)
            .field("format", &self.format)
            .finish_non_exhaustive()
    }
}

/// Loads the backend plugin library at `path`: abi_stable's version and
/// layout checks, the plugin-API version check, its `info`, then the IIR
/// format check: the backend must read one this crate writes.
pub fn load_backend(path: &Path) -> Result<ForeignBackend, LoadError> {
    let module: BackendModRef = load_module(path, "backend")?;
    let api_version = module.api_version();
    api_version
        .check(PLUGIN_API_VERSION)
        .map_err(LoadError::Version)?;
    let info: BackendInfo = from_json_result((module.info())(), "info").map_err(LoadError::Info)?;
    let reads: Vec<IirFormat> = info
        .iir
        .iter()
        .filter_map(|f| IirFormat::parse(f))
        .collect();
    let format = IirFormat::newest_common(&[IirFormat::current()], &reads).ok_or_else(|| {
        LoadError::IirFormat {
            reads: info.iir.clone(),
            writes: IirFormat::current().to_string(),
        }
    })?;
    Ok(ForeignBackend {
        module,
        info,
        api_version,
        format,
    })
}

impl ForeignBackend {
    /// The plugin-API version the plugin was built against.
    pub fn api_version(&self) -> ApiVersion {
        self.api_version
    }

    /// The IIR format programs are sent in: the newest this crate writes
    /// that the backend reads.
    pub fn iir_format(&self) -> IirFormat {
        self.format
    }

    /// Compiles a program given as IIR JSON text, as it crosses the
    /// boundary: what [`Backend::compile`] does after writing the program.
    pub fn compile_json(
        &self,
        iir_json: &str,
        options: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        let opts = to_json(options, "the compile options").map_err(|e| vec![e])?;
        match (self.module.compile())(iir_json.into(), opts.as_str().into()) {
            RResult::ROk(artifacts) => artifacts
                .iter()
                .map(|a| a.to_artifact(bad_output))
                .collect::<Result<_, _>>()
                .map_err(|d| vec![d]),
            RResult::RErr(json) => {
                let diags: Vec<PluginDiagnostic> =
                    from_json(json.as_str(), "the diagnostics of compile", bad_output)
                        .map_err(|d| vec![d])?;
                if diags.is_empty() {
                    Err(vec![no_reason("compile")])
                } else {
                    Err(diags)
                }
            }
        }
    }
}

fn bad_output(message: String) -> PluginDiagnostic {
    PluginDiagnostic::backend(BackendCode::PluginBadOutput, message)
        .with_hint("this is a bug in the plugin; report it to its authors")
}

fn no_reason(what: &str) -> PluginDiagnostic {
    bad_output(format!("the plugin's {what} failed without saying why"))
}

impl Backend for ForeignBackend {
    fn info(&self) -> BackendInfo {
        self.info.clone()
    }

    fn compile(
        &self,
        program: &Program,
        options: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        let mut iir = serde_json::to_value(program).map_err(|e| {
            vec![PluginDiagnostic::backend(
                BackendCode::HostBug,
                format!("the program could not be written as JSON: {e}"),
            )]
        })?;
        if let Some(format) = iir.get_mut("format") {
            *format = self.format.to_string().into();
        }
        self.compile_json(&iir.to_string(), options)
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        options: &ExecOptions,
    ) -> Result<Literal, PluginDiagnostic> {
        let artifacts: Vec<AbiArtifact> = artifacts
            .iter()
            .map(AbiArtifact::from_artifact)
            .collect::<Result<_, _>>()?;
        let args = args.to_string();
        let options = to_json(options, "the execute options")?;
        let result = (self.module.execute())(
            RSlice::from_slice(&artifacts),
            args.as_str().into(),
            options.as_str().into(),
        );
        from_json_result(result, "execute")
    }
}

/// The answer of a call that gives JSON or one diagnostic.
fn from_json_result<T: serde::de::DeserializeOwned>(
    result: RResult<RString, RString>,
    what: &str,
) -> Result<T, PluginDiagnostic> {
    match result {
        RResult::ROk(json) => {
            from_json(json.as_str(), &format!("the answer of {what}"), bad_output)
        }
        RResult::RErr(json) => {
            Err(
                from_json(json.as_str(), &format!("the error of {what}"), bad_output)
                    .unwrap_or_else(|d| d),
            )
        }
    }
}

/// The diagnostic of a pack call that failed, from its JSON.
#[cold]
fn call_error(json: &RString) -> PluginDiagnostic {
    from_json(json.as_str(), "the error of call", bad_output).unwrap_or_else(|d| d)
}

/// A pack in a loaded plugin library: the plain [`Pack`] again.
#[derive(Clone)]
pub struct ForeignPack {
    module: PackModule,
    info: PackInfo,
    api_version: ApiVersion,
    /// The module's `call_at` and `call_scalar`, read once at load.
    call_at: Option<CallAt>,
    call_scalar: Option<CallScalar>,
}

impl fmt::Debug for ForeignPack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ForeignPack")
            .field("info", &self.info)
            .field("api_version", &self.api_version)
            .finish_non_exhaustive()
    }
}

/// Loads the pack plugin library at `path`, with the checks of [`load_backend`].
/// A pack of an older minor version, whose root module has fewer fields,
/// is loaded with its own layout.
pub fn load_pack(path: &Path) -> Result<ForeignPack, LoadError> {
    let module = load_pack_module(path)?;
    let api_version = module.api_version();
    api_version
        .check(PLUGIN_API_VERSION)
        .map_err(LoadError::Version)?;
    let info: PackInfo = from_json_result((module.info())(), "info").map_err(LoadError::Info)?;
    Ok(ForeignPack {
        module,
        info,
        api_version,
        call_at: module.call_at(),
        call_scalar: module.call_scalar(),
    })
}

/// The pack root module at `path` as the current layout, else as that of
/// each older minor version in turn; when none fits, the refusal is the
/// current layout's.
fn load_pack_module(path: &Path) -> Result<PackModule, LoadError> {
    let current = match load_module::<PackModRef>(path, "pack") {
        Ok(m) => return Ok(PackModule::Current(m)),
        Err(e @ LoadError::Layout { .. }) => e,
        Err(e) => return Err(e),
    };
    if let Ok(m) = load_module::<v2_2::PackModRef>(path, "pack") {
        return Ok(PackModule::V2_2(m));
    }
    if let Ok(m) = load_module::<v2_1::PackModRef>(path, "pack") {
        return Ok(PackModule::V2_1(m));
    }
    if let Ok(m) = load_module::<v2_0::PackModRef>(path, "pack") {
        return Ok(PackModule::V2_0(m));
    }
    Err(current)
}

impl ForeignPack {
    /// The plugin-API version the plugin was built against.
    pub fn api_version(&self) -> ApiVersion {
        self.api_version
    }

    /// Like [`Pack::lower`], but a failure of the plugin (a panic) is an error
    /// rather than "no lowering".
    pub fn try_lower(
        &self,
        function: &str,
        target: &str,
    ) -> Result<Option<String>, PluginDiagnostic> {
        match (self.module.lower())(function.into(), target.into()) {
            RResult::ROk(source) => Ok(source.into_option().map(|s| s.into_string())),
            RResult::RErr(json) => {
                Err(from_json(json.as_str(), "the error of lower", bad_output)
                    .unwrap_or_else(|d| d))
            }
        }
    }
}

impl Pack for ForeignPack {
    fn info(&self) -> PackInfo {
        self.info.clone()
    }

    fn call(&self, function: &str, args: &[Literal]) -> Result<Literal, PluginDiagnostic> {
        let args = Literal::Array(args.to_vec()).to_string();
        let result = (self.module.call())(function.into(), args.as_str().into());
        from_json_result(result, "call")
    }

    /// By the plugin's `call_within`; a pack built against plugin API 2.0
    /// has none, and is called by `call`.
    fn call_within(
        &self,
        function: &str,
        args: &[Literal],
        max_size: u64,
    ) -> Result<Literal, PluginDiagnostic> {
        let Some(call_within) = self.module.call_within() else {
            return self.call(function, args);
        };
        let args = Literal::Array(args.to_vec()).to_string();
        let result = call_within(function.into(), args.as_str().into(), max_size);
        from_json_result(result, "call")
    }

    /// By the plugin's `call_at`, the arguments and result crossing as
    /// values (in an array on the stack when they are few); a pack
    /// built against plugin API 2.1 or 2.0 has none, and is called by name.
    fn call_index(
        &self,
        index: usize,
        function: &str,
        args: &[Literal],
        max_size: u64,
    ) -> Result<Literal, PluginDiagnostic> {
        let (Some(call_at), Ok(position)) = (self.call_at, u32::try_from(index)) else {
            return self.call_within(function, args, max_size);
        };
        let call = |values: &[AbiValue]| call_at(position, RSlice::from_slice(values), max_size);
        let of = AbiValue::of;
        let result = match args {
            [] => call(&[]),
            [a] => call(&[of(a)]),
            [a, b] => call(&[of(a), of(b)]),
            [a, b, c] => call(&[of(a), of(b), of(c)]),
            [a, b, c, d] => call(&[of(a), of(b), of(c), of(d)]),
            _ => call(&args.iter().map(of).collect::<Vec<_>>()),
        };
        match result {
            RResult::ROk(value) => value.to_literal().ok_or_else(|| {
                bad_output(format!(
                    "the answer of a call of {function} is an object that repeats a key"
                ))
            }),
            RResult::RErr(json) => Err(call_error(&json)),
        }
    }

    /// By the plugin's `call_scalar`, the scalars crossing as they are; a
    /// pack built against plugin API 2.2 or older has none, and is called by
    /// `call_at` (or by name) with literals.
    fn call_scalars(
        &self,
        index: usize,
        function: &str,
        args: &[Scalar],
        max_size: u64,
    ) -> Result<Scalar, PluginDiagnostic> {
        let (Some(call_scalar), Ok(position)) = (self.call_scalar, u32::try_from(index)) else {
            return crate::pack::scalars_by_literals(self, index, function, args, max_size);
        };
        match call_scalar(position, RSlice::from_slice(args), max_size) {
            RResult::ROk(value) => Ok(value),
            RResult::RErr(json) => Err(call_error(&json)),
        }
    }

    fn lower(&self, function: &str, target: &str) -> Option<String> {
        self.try_lower(function, target).ok().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_code_is_listed() {
        let d = PluginDiagnostic::backend(BackendCode::BackendFailed, "x");
        let all = [
            LoadError::Missing { path: "x".into() },
            LoadError::Open {
                path: "x".into(),
                reason: "r".into(),
            },
            LoadError::NotAPlugin { path: "x".into() },
            LoadError::AbiStable {
                found: "f".into(),
                expected: "e".into(),
            },
            LoadError::Layout {
                expected_kind: "backend",
                summary: "s".into(),
                details: "d".into(),
            },
            LoadError::Version(VersionMismatch::Older {
                plugin: ApiVersion { major: 1, minor: 0 },
                host: PLUGIN_API_VERSION,
            }),
            LoadError::Init { reason: "r".into() },
            LoadError::Info(d),
            LoadError::IirFormat {
                reads: vec![],
                writes: "isu-iir/0.1".into(),
            },
        ];
        let codes: Vec<&str> = all.iter().map(LoadError::code).collect();
        assert_eq!(codes, LoadError::CODES);
        assert_eq!(
            all[8].to_string(),
            "it reads IIR in no format it names, and this isu writes isu-iir/0.1"
        );
    }

    #[test]
    fn what_a_plugin_answers_is_read_as_strict_json() {
        let read = |json: &str| from_json_result::<Literal>(RResult::ROk(json.into()), "execute");
        assert_eq!(
            read(r#"{"a": [1, -2]}"#).map(|l| l.to_string()),
            Ok(r#"{"a": [1, -2]}"#.to_owned())
        );
        for bad in [
            r#"{"a": 1, "a": 2}"#,
            "1e999",
            "9223372036854775808",
            "[null]",
        ] {
            let e = read(bad).err();
            assert_eq!(
                e.as_ref().map(|d| d.code.as_str()),
                Some(BackendCode::PluginBadOutput.as_str()),
                "{bad}: {e:?}"
            );
        }
    }
}
