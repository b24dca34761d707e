//! A test fixture: a backend root module of the host's name and version but
//! another layout (its `execute` takes the limits as one number), as a plugin
//! built against a changed `isu_plugin_api` would be. abi_stable's layout
//! check must refuse it and the host must say so in a few lines.
#![allow(unsafe_code)] // abi_stable's derives and export attribute expand to unsafe code

use abi_stable::library::RootModule;
use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::sabi_types::VersionStrings;
use abi_stable::std_types::{RResult, RStr, RString};
use abi_stable::{declare_root_module_statics, export_root_module, StableAbi};
use isu_plugin_api::abi::{ApiVersion, PLUGIN_API_VERSION};

#[repr(C)]
#[derive(StableAbi, Debug)]
#[sabi(kind(Prefix(prefix_ref = BackendModRef)))]
#[sabi(missing_field(option))]
pub struct BackendMod {
    pub api_version: ApiVersion,
    pub info: extern "C" fn() -> RResult<RString, RString>,
    #[sabi(last_prefix_field)]
    pub execute: extern "C" fn(args_json: RStr<'_>, max_steps: u64) -> RResult<RString, RString>,
}

impl RootModule for BackendModRef {
    declare_root_module_statics! {BackendModRef}
    const BASE_NAME: &'static str = "isu_backend";
    const NAME: &'static str = "isu backend";
    // The host's own version, so that only the layout differs.
    const VERSION_STRINGS: VersionStrings = VersionStrings::new("2.0.0");
}

extern "C" fn info() -> RResult<RString, RString> {
    RResult::RErr(
        r#"{"kind": "BackendError", "code": "backend_failed",
            "message": "the host called a plugin it should have refused"}"#
            .into(),
    )
}

extern "C" fn execute(_: RStr<'_>, _: u64) -> RResult<RString, RString> {
    RResult::ROk("0".into())
}

#[export_root_module]
pub fn root() -> BackendModRef {
    BackendMod {
        api_version: PLUGIN_API_VERSION,
        info,
        execute,
    }
    .leak_into_prefix()
}
