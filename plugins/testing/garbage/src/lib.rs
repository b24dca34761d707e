//! A test fixture: a hand-made backend root module (no `export_backend!`)
//! whose `compile` fails without a diagnostic and whose `execute` returns text
//! that is not JSON. The host must turn each into an error and go on.

use isu_plugin_api::abi::__private::abi_stable::prefix_type::PrefixTypeTrait;
use isu_plugin_api::abi::__private::abi_stable::std_types::{RResult, RSlice, RStr};
use isu_plugin_api::abi::__private::{self as isu, CompileResult, JsonResult};
use isu_plugin_api::abi::{AbiArtifact, BackendMod, BackendModRef, PLUGIN_API_VERSION};

extern "C" fn info() -> JsonResult {
    RResult::ROk(
        r#"{"name": "garbage", "version": "0.1.0", "targets": ["garbage"],
            "iir": ["isu-iir/0.1"], "features": {"version": 1, "supported": ["int"]},
            "emits": ["text"], "execute": {"artifact": "text"}}"#
            .into(),
    )
}

extern "C" fn compile(_: RStr<'_>, _: RStr<'_>) -> CompileResult {
    RResult::RErr("[]".into())
}

extern "C" fn execute(_: RSlice<'_, AbiArtifact>, _: RStr<'_>, _: RStr<'_>) -> JsonResult {
    RResult::ROk("{not json".into())
}

fn module() -> BackendModRef {
    BackendMod {
        api_version: PLUGIN_API_VERSION,
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
