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
use super::stable::{AbiArtifact, AbiBackendInfo, AbiDiagnostic, AbiLimits, AbiPackInfo};
use super::PLUGIN_API_VERSION;
use crate::backend::{Artifact, Backend, CompileOptions, PluginDiagnostic};
use crate::iir::{Program, IIR_FORMAT};
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

/// The result type of an exported `info` of a backend.
pub type BackendInfoResult = RResult<AbiBackendInfo, AbiDiagnostic>;
/// The result type of an exported `compile`.
pub type CompileResult = RResult<RVec<AbiArtifact>, RVec<AbiDiagnostic>>;
/// The result type of an exported `execute` or pack `call`.
pub type JsonResult = RResult<RString, AbiDiagnostic>;
/// The result type of an exported `info` of a pack.
pub type PackInfoResult = RResult<AbiPackInfo, AbiDiagnostic>;
/// The result type of an exported `lower`.
pub type LowerResult = RResult<ROption<RString>, AbiDiagnostic>;

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
        "plugin_panicked",
        format!("the plugin panicked in {what}{at}: {message}"),
    )
    .with_hint("this is a bug in the plugin; report it to its authors")
}

/// Runs `f`, turning a panic into a `plugin_panicked` diagnostic.
fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, PluginDiagnostic> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|p| panic_diagnostic(what, p.as_ref()))
}

fn bad_input(message: String) -> PluginDiagnostic {
    PluginDiagnostic::backend("plugin_bad_input", message)
        .with_hint("the host and the plugin disagree on the plugin API; rebuild the plugin")
}

/// The body of an exported backend `info`.
pub fn serve_backend_info<B: Backend>(backend: fn() -> &'static B) -> BackendInfoResult {
    match guarded("info", || backend().info()) {
        Ok(info) => RResult::ROk(AbiBackendInfo::from(&info)),
        Err(d) => RResult::RErr(AbiDiagnostic::from(&d)),
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
        || -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
            let program: Program = crate::json::from_str(iir_json.as_str())
                .map_err(|e| vec![bad_input(format!("the program is not IIR JSON: {e}"))])?;
            if program.format != IIR_FORMAT {
                return Err(vec![bad_input(format!(
                    "the program is IIR `{}`; this plugin reads `{IIR_FORMAT}`",
                    program.format
                ))]);
            }
            let options: CompileOptions = crate::json::from_str(options_json.as_str())
                .map_err(|e| vec![bad_input(format!("the compile options are not valid: {e}"))])?;
            backend().compile(&program, &options)
        },
    );
    match result {
        Ok(Ok(artifacts)) => RResult::ROk(artifacts.iter().map(AbiArtifact::from).collect()),
        Ok(Err(diags)) => RResult::RErr(diags.iter().map(AbiDiagnostic::from).collect()),
        Err(d) => RResult::RErr(RVec::from(vec![AbiDiagnostic::from(&d)])),
    }
}

/// The body of an exported `execute`: reads the arguments JSON, calls
/// [`Backend::execute`].
pub fn serve_execute<B: Backend>(
    backend: fn() -> &'static B,
    artifacts: RSlice<'_, AbiArtifact>,
    args_json: RStr<'_>,
    limits: AbiLimits,
) -> JsonResult {
    let result = guarded("execute", || -> Result<String, PluginDiagnostic> {
        let args: Literal = crate::json::from_str(args_json.as_str())
            .map_err(|e| bad_input(format!("the arguments are not Isu JSON: {e}")))?;
        let artifacts: Vec<Artifact> = artifacts.iter().map(Artifact::from).collect();
        let value = backend().execute(&artifacts, &args, &limits.into())?;
        Ok(value.to_string())
    });
    json_result(result)
}

fn json_result(result: Result<Result<String, PluginDiagnostic>, PluginDiagnostic>) -> JsonResult {
    match result.and_then(|r| r) {
        Ok(json) => RResult::ROk(json.into()),
        Err(d) => RResult::RErr(AbiDiagnostic::from(&d)),
    }
}

/// The backend root module of three exported functions.
pub fn backend_module(
    info: extern "C" fn() -> BackendInfoResult,
    compile: extern "C" fn(RStr<'_>, RStr<'_>) -> CompileResult,
    execute: extern "C" fn(RSlice<'_, AbiArtifact>, RStr<'_>, AbiLimits) -> JsonResult,
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

/// The body of an exported pack `info`.
pub fn serve_pack_info<P: Pack>(pack: fn() -> &'static P) -> PackInfoResult {
    match guarded("info", || pack().info()) {
        Ok(info) => RResult::ROk(AbiPackInfo::from(&info)),
        Err(d) => RResult::RErr(AbiDiagnostic::from(&d)),
    }
}

/// The body of an exported `call`: reads the arguments JSON, calls [`Pack::call`].
pub fn serve_call<P: Pack>(
    pack: fn() -> &'static P,
    function: RStr<'_>,
    args_json: RStr<'_>,
) -> JsonResult {
    let what = format!("call of {}", function.as_str());
    let result = guarded(&what, || -> Result<String, PluginDiagnostic> {
        let args: Vec<Literal> = crate::json::from_str(args_json.as_str())
            .map_err(|e| bad_input(format!("the arguments are not a JSON array: {e}")))?;
        let value = pack().call(function.as_str(), &args)?;
        Ok(value.to_string())
    });
    json_result(result)
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
        Err(d) => RResult::RErr(AbiDiagnostic::from(&d)),
    }
}

/// The pack root module of three exported functions.
pub fn pack_module(
    info: extern "C" fn() -> PackInfoResult,
    call: extern "C" fn(RStr<'_>, RStr<'_>) -> JsonResult,
    lower: extern "C" fn(RStr<'_>, RStr<'_>) -> LowerResult,
) -> PackModRef {
    quiet_panics();
    PackMod {
        api_version: PLUGIN_API_VERSION,
        info,
        call,
        lower,
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
            extern "C" fn __isu_info() -> __isu::BackendInfoResult {
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
                limits: $crate::abi::AbiLimits,
            ) -> __isu::JsonResult {
                __isu::serve_execute(__isu_backend, artifacts, args, limits)
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
            extern "C" fn __isu_info() -> __isu::PackInfoResult {
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
            fn __isu_module() -> $crate::abi::PackModRef {
                __isu::pack_module(__isu_info, __isu_call, __isu_lower)
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
    use crate::backend::{BackendInfo, ExecLimits};

    #[test]
    fn the_exported_symbol_is_abi_stables() {
        assert_eq!(
            ROOT_MODULE_LOADER_SYMBOL,
            abi_stable::library::ROOT_MODULE_LOADER_NAME
        );
    }

    #[derive(Default)]
    struct Panicky;

    impl Backend for Panicky {
        fn info(&self) -> BackendInfo {
            panic!("no info today")
        }
        fn compile(
            &self,
            _: &Program,
            _: &CompileOptions,
        ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
            Err(vec![])
        }
        fn execute(
            &self,
            _: &[Artifact],
            _: &Literal,
            _: &ExecLimits,
        ) -> Result<Literal, PluginDiagnostic> {
            Ok(Literal::Int(1))
        }
    }

    fn panicky() -> &'static Panicky {
        &Panicky
    }

    #[test]
    fn panics_become_plugin_panicked_errors() {
        let RResult::RErr(d) = serve_backend_info(panicky) else {
            panic!("info did not fail");
        };
        assert_eq!(d.code.as_str(), "plugin_panicked");
        assert!(d.message.as_str().contains("in info"), "{}", d.message);
        assert!(
            d.message.as_str().ends_with("no info today"),
            "{}",
            d.message
        );
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let RResult::RErr(ds) = serve_compile(panicky, "{".into(), "{}".into()) else {
            panic!("compile of bad JSON did not fail");
        };
        assert_eq!(ds.len(), 1);
        assert_eq!(ds[0].code.as_str(), "plugin_bad_input");
        let limits = AbiLimits {
            max_steps: 1,
            max_size: 1,
        };
        let ok = serve_execute(panicky, RSlice::from_slice(&[]), "{}".into(), limits);
        assert_eq!(ok, RResult::ROk(RString::from("1")));
        let bad = serve_execute(panicky, RSlice::from_slice(&[]), "[null]".into(), limits);
        assert!(matches!(bad, RResult::RErr(d) if d.code.as_str() == "plugin_bad_input"));
    }
}
