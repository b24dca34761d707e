//! The plugin side: turning a [`Backend`] or a [`Pack`] into a root module.
//!
//! [`export_backend!`](crate::export_backend) and
//! [`export_pack!`](crate::export_pack) expand, in the plugin crate, to a few
//! `extern "C"` functions that call the generic `serve_*` functions below, and
//! to the library's exported abi_stable header. Every `serve_*` function runs
//! the plugin's code under `catch_unwind` and turns a panic into an
//! [`AbiDiagnostic`] with code `plugin_panicked`: a panic never unwinds into
//! the host.

use super::modules::{BackendMod, BackendModRef, PackMod, PackModRef};
use super::stable::{
    diagnostic_json, diagnostics_json, from_json, to_json, AbiArtifact, AbiValue, Scalar,
};
use super::PLUGIN_API_VERSION;
use crate::backend::{Artifact, Backend, CompileOptions, ExecOptions, PluginDiagnostic};
use crate::backend_codes::BackendCode;
use crate::iir::Program;
use crate::iir_format::IirFormat;
use crate::literal::Literal;
use crate::pack::Pack;
use abi_stable::library::RootModuleResult;
use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::std_types::{ROption, RResult, RSlice, RStr, RString, RVec};
use std::any::Any;
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};

pub use abi_stable::library::{CheckTypeLayout, LibHeader};

/// The abi_stable symbol every plugin library exports (its root module
/// loader); [`export_backend!`](crate::export_backend) spells it literally,
/// a test checks it against abi_stable's.
pub const ROOT_MODULE_LOADER_SYMBOL: &str = "_1as_0lib_1header_0root_bmodule_bloader";

/// The result type of an exported `info`, `execute`, or pack `call`: JSON
/// text, or a diagnostic as JSON.
pub type JsonResult = RResult<RString, RString>;
/// The result type of an exported `compile`: the artifacts, or a JSON array
/// of diagnostics.
pub type CompileResult = RResult<RVec<AbiArtifact>, RString>;
/// The result type of an exported `lower`.
pub type LowerResult = RResult<ROption<RString>, RString>;
/// The result type of an exported `call_at`: the value, or a diagnostic as
/// JSON.
pub type ValueResult = RResult<AbiValue, RString>;
/// The result type of an exported `call_scalar`: the scalar, or a
/// diagnostic as JSON.
pub type ScalarResult = RResult<Scalar, RString>;

thread_local! {
    /// Where the last panic on this thread happened, recorded by the quiet
    /// panic hook of [`quiet_panics`].
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the plugin library's panic hook with one that prints nothing and
/// records where the panic happened, so a panic reaches the host as one error
/// value instead of text on stderr. Called once, when the host loads the
/// library (a `cdylib` has its own copy of std, hence its own hook); plugins
/// linked in-process keep the process's hook.
pub fn quiet_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        panic::set_hook(Box::new(|info| {
            let location = info
                .location()
                .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            PANIC_LOCATION.with(|p| *p.borrow_mut() = location);
        }));
    });
}

fn panic_diagnostic(what: &str, payload: &(dyn Any + Send)) -> PluginDiagnostic {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned());
    let location = PANIC_LOCATION.with(|p| p.borrow_mut().take());
    let at = location.map(|l| format!(" at {l}")).unwrap_or_default();
    PluginDiagnostic::backend(
        BackendCode::PluginPanicked,
        format!("the plugin panicked in {what}{at}: {message}"),
    )
    .with_hint("this is a bug in the plugin; report it to its authors")
}

/// Runs `f`, turning a panic into a `plugin_panicked` diagnostic.
fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, PluginDiagnostic> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|p| panic_diagnostic(what, p.as_ref()))
}

fn bad_input(message: String) -> PluginDiagnostic {
    PluginDiagnostic::backend(BackendCode::PluginBadInput, message).with_hint(
        "a plugin built against another isu_plugin_api reads the host wrongly: rebuild it \
             against this isu's; if it was, this is a bug of the host",
    )
}

/// A JSON result of a call that may fail with one diagnostic.
fn json_result(result: Result<Result<String, PluginDiagnostic>, PluginDiagnostic>) -> JsonResult {
    match result.and_then(|r| r) {
        Ok(json) => RResult::ROk(json.into()),
        Err(d) => RResult::RErr(diagnostic_json(&d)),
    }
}

/// The body of an exported backend `info`: the info as JSON.
pub fn serve_backend_info<B: Backend>(backend: fn() -> &'static B) -> JsonResult {
    json_result(guarded("info", || to_json(&backend().info(), "the info")))
}

/// The program of `iir_json`, if its format is one the backend reads.
fn read_program<B: Backend>(backend: &B, iir_json: &str) -> Result<Program, PluginDiagnostic> {
    let program: Program = from_json(iir_json, "the program", bad_input)?;
    let reads: Vec<IirFormat> = backend
        .info()
        .iir
        .iter()
        .filter_map(|f| IirFormat::parse(f))
        .collect();
    match IirFormat::parse(&program.format) {
        Some(written) if reads.iter().any(|r| r.reads(written)) => Ok(program),
        _ => {
            let reads: Vec<String> = reads.iter().map(ToString::to_string).collect();
            Err(bad_input(format!(
                "the program is IIR `{}`; this plugin reads {}",
                program.format,
                reads.join(", ")
            )))
        }
    }
}

/// The body of an exported `compile`: reads the IIR and options JSON, calls
/// [`Backend::compile`].
pub fn serve_compile<B: Backend>(
    backend: fn() -> &'static B,
    iir_json: RStr<'_>,
    options_json: RStr<'_>,
) -> CompileResult {
    let result = guarded(
        "compile",
        || -> Result<Vec<AbiArtifact>, Vec<PluginDiagnostic>> {
            let b = backend();
            let program = read_program(b, iir_json.as_str()).map_err(|d| vec![d])?;
            let options: CompileOptions =
                from_json(options_json.as_str(), "the compile options", bad_input)
                    .map_err(|d| vec![d])?;
            b.info()
                .check_settings(&options.settings)
                .map_err(|d| vec![d])?;
            let artifacts = b.compile(&program, &options)?;
            artifacts
                .iter()
                .map(AbiArtifact::from_artifact)
                .collect::<Result<_, _>>()
                .map_err(|d| vec![d])
        },
    );
    match result {
        Ok(Ok(artifacts)) => RResult::ROk(artifacts.into()),
        Ok(Err(diags)) => RResult::RErr(diagnostics_json(&diags)),
        Err(d) => RResult::RErr(diagnostics_json(&[d])),
    }
}

/// The body of an exported `execute`: reads the arguments JSON, calls
/// [`Backend::execute`].
pub fn serve_execute<B: Backend>(
    backend: fn() -> &'static B,
    artifacts: RSlice<'_, AbiArtifact>,
    args_json: RStr<'_>,
    options_json: RStr<'_>,
) -> JsonResult {
    json_result(guarded(
        "execute",
        || -> Result<String, PluginDiagnostic> {
            let b = backend();
            let args: Literal = from_json(args_json.as_str(), "the arguments", bad_input)?;
            let options: ExecOptions =
                from_json(options_json.as_str(), "the execute options", bad_input)?;
            b.info().check_settings(&options.settings)?;
            let artifacts = artifacts
                .iter()
                .map(|a| a.to_artifact(bad_input))
                .collect::<Result<Vec<Artifact>, _>>()?;
            let value = b.execute(&artifacts, &args, &options)?;
            Ok(value.to_string())
        },
    ))
}

/// The backend root module of three exported functions.
pub fn backend_module(
    info: extern "C" fn() -> JsonResult,
    compile: extern "C" fn(RStr<'_>, RStr<'_>) -> CompileResult,
    execute: extern "C" fn(RSlice<'_, AbiArtifact>, RStr<'_>, RStr<'_>) -> JsonResult,
) -> BackendModRef {
    quiet_panics();
    BackendMod {
        api_version: PLUGIN_API_VERSION,
        info,
        compile,
        execute,
    }
    .leak_into_prefix()
}

/// The body of an exported pack `info`: the info as JSON.
pub fn serve_pack_info<P: Pack>(pack: fn() -> &'static P) -> JsonResult {
    json_result(guarded("info", || to_json(&pack().info(), "the info")))
}

/// The body of an exported `call`: reads the arguments JSON, calls [`Pack::call`].
pub fn serve_call<P: Pack>(
    pack: fn() -> &'static P,
    function: RStr<'_>,
    args_json: RStr<'_>,
) -> JsonResult {
    serve(function, args_json, |f, args| pack().call(f, args))
}

/// The body of an exported `call_within`: reads the arguments JSON, calls
/// [`Pack::call_within`].
pub fn serve_call_within<P: Pack>(
    pack: fn() -> &'static P,
    function: RStr<'_>,
    args_json: RStr<'_>,
    max_size: u64,
) -> JsonResult {
    serve(function, args_json, |f, args| {
        pack().call_within(f, args, max_size)
    })
}

fn serve(
    function: RStr<'_>,
    args_json: RStr<'_>,
    call: impl FnOnce(&str, &[Literal]) -> Result<Literal, PluginDiagnostic>,
) -> JsonResult {
    let what = format!("call of {}", function.as_str());
    json_result(guarded(&what, || -> Result<String, PluginDiagnostic> {
        let args: Vec<Literal> = from_json(args_json.as_str(), "the arguments", bad_input)?;
        let value = call(function.as_str(), &args)?;
        Ok(value.to_string())
    }))
}

/// The names of the pack's functions, in the order of its info: what an
/// exported `call_at` finds a function's name by, made once per library.
pub fn function_names<P: Pack>(pack: &P) -> Vec<String> {
    pack.info().functions.into_iter().map(|f| f.name).collect()
}

/// The body of an exported `call_at`: converts the arguments to literals
/// (on the stack, for a call of few), calls [`Pack::call_index`] with the
/// function's name from `names`, and gives the result back as a value. It
/// formats nothing unless the call fails.
pub fn serve_call_at<P: Pack>(
    pack: fn() -> &'static P,
    names: fn() -> &'static [String],
    index: u32,
    args: RSlice<'_, AbiValue>,
    max_size: u64,
) -> ValueResult {
    serve_at(names, index, |position, function| {
        let value = with_literals(args.as_slice(), |args| {
            pack().call_index(position, function, args, max_size)
        })??;
        Ok(AbiValue::from_literal(value))
    })
}

/// The body of an exported `call_scalar`: calls [`Pack::call_scalars`]
/// with the function's name from `names` on the scalars as they came.
pub fn serve_call_scalar<P: Pack>(
    pack: fn() -> &'static P,
    names: fn() -> &'static [String],
    index: u32,
    args: RSlice<'_, Scalar>,
    max_size: u64,
) -> ScalarResult {
    serve_at(names, index, |position, function| {
        pack().call_scalars(position, function, args.as_slice(), max_size)
    })
}

/// A call of the function at `index`, given its position and its name from
/// `names`: an index past the last function is `unknown_function`, a panic
/// `plugin_panicked` naming the function.
#[inline]
fn serve_at<T>(
    names: fn() -> &'static [String],
    index: u32,
    call: impl FnOnce(usize, &str) -> Result<T, PluginDiagnostic>,
) -> RResult<T, RString> {
    let run = || -> Result<T, PluginDiagnostic> {
        let position = index as usize;
        let function = names().get(position).ok_or_else(|| {
            PluginDiagnostic::backend(
                BackendCode::UnknownFunction,
                format!("the pack has no function at position {index}"),
            )
        })?;
        call(position, function)
    };
    match panic::catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(value)) => RResult::ROk(value),
        Ok(Err(d)) => RResult::RErr(diagnostic_json(&d)),
        Err(payload) => RResult::RErr(call_panicked(names, index, payload.as_ref())),
    }
}

/// The diagnostic of a call at `index` that panicked.
#[cold]
fn call_panicked(
    names: fn() -> &'static [String],
    index: u32,
    payload: &(dyn Any + Send),
) -> RString {
    // The name again, guarded: `info` may be what panicked.
    let name = panic::catch_unwind(|| names().get(index as usize).cloned());
    let what = match name {
        Ok(Some(name)) => format!("call of {name}"),
        _ => format!("call of the function at position {index}"),
    };
    diagnostic_json(&panic_diagnostic(&what, payload))
}

/// Runs `f` on the literals of `args`: in an array on the stack of their
/// number when they are few, so a call of scalars allocates nothing.
fn with_literals<T>(
    args: &[AbiValue],
    f: impl FnOnce(&[Literal]) -> T,
) -> Result<T, PluginDiagnostic> {
    let literal = |a: &AbiValue| {
        a.to_literal()
            .ok_or_else(|| bad_input("an argument is an object that repeats a key".to_owned()))
    };
    Ok(match args {
        [] => f(&[]),
        [a] => f(&[literal(a)?]),
        [a, b] => f(&[literal(a)?, literal(b)?]),
        [a, b, c] => f(&[literal(a)?, literal(b)?, literal(c)?]),
        [a, b, c, d] => f(&[literal(a)?, literal(b)?, literal(c)?, literal(d)?]),
        _ => f(&args.iter().map(literal).collect::<Result<Vec<_>, _>>()?),
    })
}

/// The body of an exported `lower`: calls [`Pack::lower`].
pub fn serve_lower<P: Pack>(
    pack: fn() -> &'static P,
    function: RStr<'_>,
    target: RStr<'_>,
) -> LowerResult {
    let what = format!("lowering of {}", function.as_str());
    match guarded(&what, || pack().lower(function.as_str(), target.as_str())) {
        Ok(lowering) => RResult::ROk(lowering.map(RString::from).into()),
        Err(d) => RResult::RErr(diagnostic_json(&d)),
    }
}

/// The exported functions of a pack root module.
#[derive(Debug, Clone, Copy)]
pub struct PackFunctions {
    /// `info`.
    pub info: extern "C" fn() -> JsonResult,
    /// `call`.
    pub call: extern "C" fn(RStr<'_>, RStr<'_>) -> JsonResult,
    /// `lower`.
    pub lower: extern "C" fn(RStr<'_>, RStr<'_>) -> LowerResult,
    /// `call_within`.
    pub call_within: extern "C" fn(RStr<'_>, RStr<'_>, u64) -> JsonResult,
    /// `call_at`.
    pub call_at: extern "C" fn(u32, RSlice<'_, AbiValue>, u64) -> ValueResult,
    /// `call_scalar`.
    pub call_scalar: extern "C" fn(u32, RSlice<'_, Scalar>, u64) -> ScalarResult,
}

/// The pack root module of the exported functions.
pub fn pack_module(f: PackFunctions) -> PackModRef {
    quiet_panics();
    PackMod {
        api_version: PLUGIN_API_VERSION,
        info: f.info,
        call: f.call,
        lower: f.lower,
        call_within: f.call_within,
        call_at: f.call_at,
        call_scalar: f.call_scalar,
    }
    .leak_into_prefix()
}

/// Runs a root module constructor for abi_stable's loader (catching a panic).
pub fn root_module<M>(make: fn() -> M) -> RootModuleResult
where
    M: abi_stable::library::IntoRootModuleResult,
{
    abi_stable::library::__call_root_module_loader(make)
}

/// Exports a [`Backend`](crate::Backend) as the root module of this plugin
/// library. The type must implement `Default + Send + Sync + 'static` (or
/// give a constructor expression as the second argument); one instance is
/// made on first use and lives as long as the process. Use it once, at the
/// top level of a `cdylib` crate:
///
/// ```text
/// isu_plugin_api::export_backend!(PythonBackend);
/// ```
///
/// Every call into the backend catches panics and returns them as errors.
///
/// The export is left out of the crate's own unit tests (`cfg(test)`), so
/// that they may link another plugin crate (a pack, say) as a library: two
/// exports in one binary would clash. Test the trait directly there.
#[macro_export]
macro_rules! export_backend {
    ($backend:ty) => {
        $crate::export_backend!($backend, <$backend as ::std::default::Default>::default());
    };
    ($backend:ty, $make:expr) => {
        // Not in the crate's own unit tests: a test binary that also links
        // another plugin crate would hold the symbol twice.
        #[cfg(not(test))]
        const _: () = {
            use $crate::abi::__private as __isu;
            fn __isu_backend() -> &'static $backend {
                static INSTANCE: ::std::sync::OnceLock<$backend> = ::std::sync::OnceLock::new();
                INSTANCE.get_or_init(|| $make)
            }
            extern "C" fn __isu_info() -> __isu::JsonResult {
                __isu::serve_backend_info(__isu_backend)
            }
            extern "C" fn __isu_compile(
                iir: __isu::abi_stable::std_types::RStr<'_>,
                options: __isu::abi_stable::std_types::RStr<'_>,
            ) -> __isu::CompileResult {
                __isu::serve_compile(__isu_backend, iir, options)
            }
            extern "C" fn __isu_execute(
                artifacts: __isu::abi_stable::std_types::RSlice<'_, $crate::abi::AbiArtifact>,
                args: __isu::abi_stable::std_types::RStr<'_>,
                options: __isu::abi_stable::std_types::RStr<'_>,
            ) -> __isu::JsonResult {
                __isu::serve_execute(__isu_backend, artifacts, args, options)
            }
            fn __isu_module() -> $crate::abi::BackendModRef {
                __isu::backend_module(__isu_info, __isu_compile, __isu_execute)
            }
            extern "C" fn __isu_loader() -> __isu::abi_stable::library::RootModuleResult {
                __isu::root_module(__isu_module)
            }
            // The symbol abi_stable's loader looks up; the header checks the
            // abi_stable version and the root module's layout before use.
            #[allow(unsafe_code, non_upper_case_globals)]
            #[no_mangle]
            pub static _1as_0lib_1header_0root_bmodule_bloader: __isu::LibHeader = unsafe {
                __isu::LibHeader::from_constructor::<$crate::abi::BackendModRef>(
                    __isu_loader,
                    __isu::CheckTypeLayout::Yes,
                )
            };
        };
    };
}

/// Exports a [`Pack`](crate::pack::Pack) as the root module of this plugin
/// library, as [`export_backend!`](crate::export_backend) does for a backend.
#[macro_export]
macro_rules! export_pack {
    ($pack:ty) => {
        $crate::export_pack!($pack, <$pack as ::std::default::Default>::default());
    };
    ($pack:ty, $make:expr) => {
        #[cfg(not(test))]
        const _: () = {
            use $crate::abi::__private as __isu;
            fn __isu_pack() -> &'static $pack {
                static INSTANCE: ::std::sync::OnceLock<$pack> = ::std::sync::OnceLock::new();
                INSTANCE.get_or_init(|| $make)
            }
            extern "C" fn __isu_info() -> __isu::JsonResult {
                __isu::serve_pack_info(__isu_pack)
            }
            extern "C" fn __isu_call(
                function: __isu::abi_stable::std_types::RStr<'_>,
                args: __isu::abi_stable::std_types::RStr<'_>,
            ) -> __isu::JsonResult {
                __isu::serve_call(__isu_pack, function, args)
            }
            extern "C" fn __isu_lower(
                function: __isu::abi_stable::std_types::RStr<'_>,
                target: __isu::abi_stable::std_types::RStr<'_>,
            ) -> __isu::LowerResult {
                __isu::serve_lower(__isu_pack, function, target)
            }
            extern "C" fn __isu_call_within(
                function: __isu::abi_stable::std_types::RStr<'_>,
                args: __isu::abi_stable::std_types::RStr<'_>,
                max_size: u64,
            ) -> __isu::JsonResult {
                __isu::serve_call_within(__isu_pack, function, args, max_size)
            }
            fn __isu_names() -> &'static [::std::string::String] {
                static NAMES: ::std::sync::OnceLock<::std::vec::Vec<::std::string::String>> =
                    ::std::sync::OnceLock::new();
                NAMES.get_or_init(|| __isu::function_names(__isu_pack()))
            }
            extern "C" fn __isu_call_at(
                index: u32,
                args: __isu::abi_stable::std_types::RSlice<'_, $crate::abi::AbiValue>,
                max_size: u64,
            ) -> __isu::ValueResult {
                __isu::serve_call_at(__isu_pack, __isu_names, index, args, max_size)
            }
            extern "C" fn __isu_call_scalar(
                index: u32,
                args: __isu::abi_stable::std_types::RSlice<'_, $crate::abi::Scalar>,
                max_size: u64,
            ) -> __isu::ScalarResult {
                __isu::serve_call_scalar(__isu_pack, __isu_names, index, args, max_size)
            }
            fn __isu_module() -> $crate::abi::PackModRef {
                __isu::pack_module(__isu::PackFunctions {
                    info: __isu_info,
                    call: __isu_call,
                    lower: __isu_lower,
                    call_within: __isu_call_within,
                    call_at: __isu_call_at,
                    call_scalar: __isu_call_scalar,
                })
            }
            extern "C" fn __isu_loader() -> __isu::abi_stable::library::RootModuleResult {
                __isu::root_module(__isu_module)
            }
            #[allow(unsafe_code, non_upper_case_globals)]
            #[no_mangle]
            pub static _1as_0lib_1header_0root_bmodule_bloader: __isu::LibHeader = unsafe {
                __isu::LibHeader::from_constructor::<$crate::abi::PackModRef>(
                    __isu_loader,
                    __isu::CheckTypeLayout::Yes,
                )
            };
        };
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{BackendInfo, ExecLimits, SettingInfo};
    use crate::feature_set::FeatureSet;

    #[test]
    fn the_exported_symbol_is_abi_stables() {
        assert_eq!(
            ROOT_MODULE_LOADER_SYMBOL,
            abi_stable::library::ROOT_MODULE_LOADER_NAME
        );
    }

    /// Panics in `info` (when asked to), answers 1 to every execution, and
    /// has one setting.
    struct Panicky {
        info_panics: bool,
    }

    impl Backend for Panicky {
        fn info(&self) -> BackendInfo {
            if self.info_panics {
                panic!("no info today")
            }
            BackendInfo::new("p", "0.1.0", &["p"], FeatureSet::all_of(1))
                .with_setting(SettingInfo::new("level", "l", &["0", "1"], "0"))
        }
        fn compile(
            &self,
            program: &Program,
            _: &CompileOptions,
        ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
            Ok(vec![Artifact::new(
                "n",
                "n",
                program.func.name.name.clone().into_bytes(),
            )])
        }
        fn execute(
            &self,
            _: &[Artifact],
            _: &Literal,
            _: &ExecOptions,
        ) -> Result<Literal, PluginDiagnostic> {
            Ok(Literal::Int(1))
        }
    }

    fn panicky() -> &'static Panicky {
        &Panicky { info_panics: true }
    }

    fn calm() -> &'static Panicky {
        &Panicky { info_panics: false }
    }

    fn diagnostic(json: &RString) -> PluginDiagnostic {
        serde_json::from_str(json.as_str()).unwrap_or_else(|e| panic!("{e}: {json}"))
    }

    fn diagnostics(json: &RString) -> Vec<PluginDiagnostic> {
        serde_json::from_str(json.as_str()).unwrap_or_else(|e| panic!("{e}: {json}"))
    }

    const TARGET: &str = r#"{"target": "p"}"#;
    const OPTIONS: &str = r#"{"limits": {"max_steps": 1, "max_size": 1}}"#;

    /// `ADD`, `BOOM` (which panics) and `SUM` (of any number of ints).
    struct Adder;

    impl Pack for Adder {
        fn info(&self) -> crate::PackInfo {
            let f = |name: &str| crate::PackFunction {
                name: name.into(),
                signature: "(int, int) -> int".into(),
                doc: String::new(),
                errors: Vec::new(),
            };
            crate::PackInfo {
                namespace: "adder".into(),
                version: "1.0.0".into(),
                functions: vec![f("ADD"), f("BOOM"), f("SUM")],
            }
        }
        fn call(&self, function: &str, args: &[Literal]) -> Result<Literal, PluginDiagnostic> {
            let ints = args.iter().map(|a| match a {
                Literal::Int(i) => *i,
                _ => 0,
            });
            match function {
                "ADD" | "SUM" => Ok(Literal::Int(ints.sum())),
                "BOOM" => panic!("boom"),
                _ => Err(PluginDiagnostic::backend(
                    BackendCode::UnknownFunction,
                    "no",
                )),
            }
        }
        fn lower(&self, _: &str, _: &str) -> Option<String> {
            None
        }
    }

    fn adder() -> &'static Adder {
        &Adder
    }

    fn adder_names() -> &'static [String] {
        static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        NAMES.get_or_init(|| function_names(&Adder))
    }

    fn call_at(index: u32, args: &[AbiValue]) -> Result<AbiValue, PluginDiagnostic> {
        match serve_call_at(adder, adder_names, index, RSlice::from_slice(args), 9) {
            RResult::ROk(v) => Ok(v),
            RResult::RErr(e) => Err(diagnostic(&e)),
        }
    }

    #[test]
    fn call_at_calls_the_function_at_the_position_with_values() {
        let ints = |n: i64| (1..=n).map(AbiValue::Int).collect::<Vec<_>>();
        assert_eq!(call_at(0, &ints(2)), Ok(AbiValue::Int(3)));
        // More arguments than fit on the stack.
        assert_eq!(call_at(2, &ints(9)), Ok(AbiValue::Int(45)));
        let past = call_at(3, &ints(2)).map_err(|d| d.code);
        assert_eq!(past, Err("unknown_function".into()));
        let boom = call_at(1, &ints(2)).map_err(|d| (d.code, d.message));
        let Err((code, message)) = boom else {
            panic!("{boom:?}");
        };
        assert_eq!(code, "plugin_panicked");
        assert!(message.contains("in call of BOOM"), "{message}");
        let entry = |v| abi_stable::std_types::Tuple2(RString::from("k"), AbiValue::Int(v));
        let twice = AbiValue::Object(vec![entry(1), entry(2)].into());
        let bad = call_at(0, &[twice, AbiValue::Int(1)]).map_err(|d| d.code);
        assert_eq!(bad, Err("plugin_bad_input".into()));
    }

    fn call_scalar(index: u32, args: &[Scalar]) -> Result<Scalar, PluginDiagnostic> {
        match serve_call_scalar(adder, adder_names, index, RSlice::from_slice(args), 9) {
            RResult::ROk(v) => Ok(v),
            RResult::RErr(e) => Err(diagnostic(&e)),
        }
    }

    #[test]
    fn call_scalar_calls_the_function_at_the_position_with_scalars() {
        let ints = |n: i64| (1..=n).map(Scalar::Int).collect::<Vec<_>>();
        assert_eq!(call_scalar(0, &ints(2)), Ok(Scalar::Int(3)));
        assert_eq!(call_scalar(2, &ints(9)), Ok(Scalar::Int(45)));
        let past = call_scalar(3, &ints(2)).map_err(|d| d.code);
        assert_eq!(past, Err("unknown_function".into()));
        let boom = call_scalar(1, &ints(2)).map_err(|d| (d.code, d.message));
        let Err((code, message)) = boom else {
            panic!("{boom:?}");
        };
        assert_eq!(code, "plugin_panicked");
        assert!(message.contains("in call of BOOM"), "{message}");
    }

    #[test]
    fn panics_become_plugin_panicked_errors() {
        let RResult::RErr(d) = serve_backend_info(panicky) else {
            panic!("info did not fail");
        };
        let d = diagnostic(&d);
        assert_eq!(d.code, "plugin_panicked");
        assert!(d.message.contains("in info"), "{}", d.message);
        assert!(d.message.ends_with("no info today"), "{}", d.message);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let RResult::RErr(ds) = serve_compile(calm, "{".into(), "{}".into()) else {
            panic!("compile of bad JSON did not fail");
        };
        let ds = diagnostics(&ds);
        assert_eq!(ds.len(), 1);
        assert_eq!(ds[0].code, "plugin_bad_input");
        let ok = serve_execute(calm, RSlice::from_slice(&[]), "{}".into(), OPTIONS.into());
        assert_eq!(ok, RResult::ROk(RString::from("1")));
        let bad = serve_execute(
            calm,
            RSlice::from_slice(&[]),
            "[null]".into(),
            OPTIONS.into(),
        );
        assert!(matches!(bad, RResult::RErr(d) if diagnostic(&d).code == "plugin_bad_input"));
        let no_limits = serve_execute(calm, RSlice::from_slice(&[]), "{}".into(), "{}".into());
        assert!(matches!(no_limits, RResult::RErr(d) if diagnostic(&d).code == "plugin_bad_input"));
    }

    #[test]
    fn settings_are_checked_before_the_backend_sees_them() {
        let with = |level: &str| {
            let options = ExecOptions {
                limits: ExecLimits {
                    max_steps: 1,
                    max_size: 1,
                    max_memory: 1,
                },
                settings: [("level".to_owned(), level.to_owned())].into(),
                timeout_ms: None,
            };
            let json = serde_json::to_string(&options).unwrap_or_default();
            serve_execute(
                calm,
                RSlice::from_slice(&[]),
                "{}".into(),
                json.as_str().into(),
            )
        };
        assert_eq!(with("1"), RResult::ROk(RString::from("1")));
        assert!(matches!(with("7"), RResult::RErr(d) if diagnostic(&d).code == "invalid_setting"));
    }

    /// A program as a newer host would write it: a later minor IIR format,
    /// with annotations this crate does not know on the program, a step and
    /// an expression.
    fn from_a_newer_minor(format: &str) -> String {
        let text = "{\"format\": \"FORMAT\", \"auto_id\": false, \"annotations\": {\"hot\": [\"S1\"]},
            \"func\": {\"name\": {\"name\": \"one\", \"span\": {\"lo\": 0, \"hi\": 0, \"line\": 0, \"col\": 0}},
                      \"args\": [], \"returns\": \"int\", \"span\": {\"lo\": 0, \"hi\": 0, \"line\": 0, \"col\": 0}},
            \"io\": {\"input\": [], \"output\": [], \"span\": {\"lo\": 0, \"hi\": 0, \"line\": 0, \"col\": 0}},
            \"state\": [], \"locals\": [],
            \"body\": {\"span\": {\"lo\": 0, \"hi\": 0, \"line\": 0, \"col\": 0}, \"steps\": [
              {\"id\": \"S1\", \"span\": {\"lo\": 0, \"hi\": 0, \"line\": 0, \"col\": 0}, \"cost\": 3,
               \"node\": {\"kind\": \"return\", \"expr\": {\"span\": {\"lo\": 0, \"hi\": 0, \"line\": 0, \"col\": 0},
                  \"ty\": \"int\", \"range\": [1, 1], \"node\": {\"expr\": \"const\", \"value\": 1}}}}]}}";
        text.replace("FORMAT", format)
    }

    #[test]
    fn a_later_minor_format_with_annotations_is_read_and_another_major_refused() {
        let newer = crate::iir_format::IirFormat {
            minor: crate::iir_format::IirFormat::current().minor + 1,
            ..crate::iir_format::IirFormat::current()
        };
        let json = from_a_newer_minor(&newer.to_string());
        let artifacts = match serve_compile(calm, json.as_str().into(), TARGET.into()) {
            RResult::ROk(a) => a,
            RResult::RErr(e) => panic!("a later minor with annotations was refused: {e}"),
        };
        assert_eq!(artifacts[0].bytes.as_slice(), b"one");
        let other_major = from_a_newer_minor("isu-iir/9.0");
        let RResult::RErr(ds) = serve_compile(calm, other_major.as_str().into(), TARGET.into())
        else {
            panic!("another major was read");
        };
        let ds = diagnostics(&ds);
        assert_eq!(ds[0].code, "plugin_bad_input");
        assert!(
            ds[0].message.contains("IIR `isu-iir/9.0`"),
            "{}",
            ds[0].message
        );
    }
}
