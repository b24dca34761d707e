//! A test fixture: a backend root module that says it was built for plugin
//! API 2.0, a newer major version than the host's. Its layout is the host's,
//! so abi_stable's checks pass; the host's plugin-API check must refuse it
//! before calling anything.

use isu_plugin_api::abi::__private::abi_stable::prefix_type::PrefixTypeTrait;
use isu_plugin_api::abi::__private::abi_stable::std_types::{RResult, RSlice, RStr, RVec};
use isu_plugin_api::abi::__private::{self as isu, CompileResult, JsonResult};
use isu_plugin_api::abi::{
    AbiArtifact, AbiBackendInfo, AbiDiagnostic, AbiLimits, ApiVersion, BackendMod, BackendModRef,
};

fn refused() -> AbiDiagnostic {
    AbiDiagnostic {
        kind: "BackendError".into(),
        code: "backend_failed".into(),
        step: None.into(),
        message: "the host called a plugin it should have refused".into(),
        hint: None.into(),
    }
}

extern "C" fn info() -> RResult<AbiBackendInfo, AbiDiagnostic> {
    RResult::RErr(refused())
}

extern "C" fn compile(_: RStr<'_>, _: RStr<'_>) -> CompileResult {
    RResult::RErr(RVec::from(vec![refused()]))
}

extern "C" fn execute(_: RSlice<'_, AbiArtifact>, _: RStr<'_>, _: AbiLimits) -> JsonResult {
    RResult::RErr(refused())
}

fn module() -> BackendModRef {
    BackendMod {
        api_version: ApiVersion { major: 2, minor: 0 },
        info,
        compile,
        execute,
    }
    .leak_into_prefix()
}

extern "C" fn loader() -> isu::abi_stable::library::RootModuleResult {
    isu::root_module(module)
}

#[allow(unsafe_code, non_upper_case_globals)]
#[no_mangle]
pub static _1as_0lib_1header_0root_bmodule_bloader: isu::LibHeader =
    unsafe { isu::LibHeader::from_constructor::<BackendModRef>(loader, isu::CheckTypeLayout::Yes) };
