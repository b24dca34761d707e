//! A test fixture: a backend root module that says it was built for plugin
//! API 3.0, a newer major version than the host's. Its layout is the host's,
//! so abi_stable's checks pass; the host's plugin-API check must refuse it
//! before calling anything.

use isu_plugin_api::abi::__private::abi_stable::prefix_type::PrefixTypeTrait;
use isu_plugin_api::abi::__private::abi_stable::std_types::{RResult, RSlice, RStr};
use isu_plugin_api::abi::__private::{self as isu, CompileResult, JsonResult};
use isu_plugin_api::abi::{AbiArtifact, ApiVersion, BackendMod, BackendModRef};

const REFUSED: &str = r#"{"kind": "BackendError", "code": "backend_failed",
    "message": "the host called a plugin it should have refused"}"#;

extern "C" fn info() -> JsonResult {
    RResult::RErr(REFUSED.into())
}

extern "C" fn compile(_: RStr<'_>, _: RStr<'_>) -> CompileResult {
    RResult::RErr(format!("[{REFUSED}]").into())
}

extern "C" fn execute(_: RSlice<'_, AbiArtifact>, _: RStr<'_>, _: RStr<'_>) -> JsonResult {
    RResult::RErr(REFUSED.into())
}

fn module() -> BackendModRef {
    BackendMod {
        api_version: ApiVersion { major: 3, minor: 0 },
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
