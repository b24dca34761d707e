//! A test fixture: a pack built against plugin API 2.0, whose root module
//! has neither `call_within` nor `call_at` (`isu_plugin_api`'s frozen
//! `__private::v2_0::PackMod`). The host must load it and call it by name,
//! without the size limit (it checks the result's size itself).

#[path = "../../old_pack.rs"]
mod old;

use isu_plugin_api::abi::__private::abi_stable::prefix_type::PrefixTypeTrait;
use isu_plugin_api::abi::__private::v2_0::{PackMod, PackModRef};
use isu_plugin_api::abi::__private::{self as isu};
use isu_plugin_api::abi::ApiVersion;

/// The version of the pack, after the plugin API it was built against.
const VERSION: &str = "2.0.0";

fn module() -> PackModRef {
    isu::quiet_panics();
    PackMod {
        api_version: ApiVersion { major: 2, minor: 0 },
        info: old::info,
        call: old::call,
        lower: old::lower,
    }
    .leak_into_prefix()
}

extern "C" fn loader() -> isu::abi_stable::library::RootModuleResult {
    isu::root_module(module)
}

#[allow(unsafe_code, non_upper_case_globals)]
#[no_mangle]
pub static _1as_0lib_1header_0root_bmodule_bloader: isu::LibHeader =
    unsafe { isu::LibHeader::from_constructor::<PackModRef>(loader, isu::CheckTypeLayout::Yes) };
