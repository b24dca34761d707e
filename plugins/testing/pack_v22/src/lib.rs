//! A test fixture: a pack built against plugin API 2.2, whose root module
//! has `call_at` but no `call_scalar` (`isu_plugin_api`'s frozen
//! `__private::v2_2::PackMod`). The host must load it and call it by
//! position with values, its scalar calls included.

#[path = "../../old_pack.rs"]
mod old;

use isu_plugin_api::abi::__private::abi_stable::prefix_type::PrefixTypeTrait;
use isu_plugin_api::abi::__private::abi_stable::std_types::{RSlice, RStr};
use isu_plugin_api::abi::__private::v2_2::{PackMod, PackModRef};
use isu_plugin_api::abi::__private::{self as isu, JsonResult, ValueResult};
use isu_plugin_api::abi::{AbiValue, ApiVersion};
use std::sync::OnceLock;

/// The version of the pack, after the plugin API it was built against.
const VERSION: &str = "2.2.0";

extern "C" fn call_within(function: RStr<'_>, args: RStr<'_>, max_size: u64) -> JsonResult {
    isu::serve_call_within(old::pack, function, args, max_size)
}

fn names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| isu::function_names(old::pack()))
}

extern "C" fn call_at(index: u32, args: RSlice<'_, AbiValue>, max_size: u64) -> ValueResult {
    isu::serve_call_at(old::pack, names, index, args, max_size)
}

fn module() -> PackModRef {
    isu::quiet_panics();
    PackMod {
        api_version: ApiVersion { major: 2, minor: 2 },
        info: old::info,
        call: old::call,
        lower: old::lower,
        call_within,
        call_at,
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
