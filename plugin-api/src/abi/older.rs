//! The pack root modules of the older minor plugin-API versions, frozen as
//! they were published: a pack built against one of them holds its layout.
//!
//! abi_stable compares the layout of the whole root module when it loads a
//! library, and refuses a pack whose `PackMod` lacks fields the host's has,
//! prefix type or not; so the host tries the current layout, then these, in
//! turn ([`super::load_pack`]). The fixtures `plugins/testing/pack_v22`,
//! `pack_v21` and `pack_v20` build packs against them. Never change one: add
//! a module for the version a change leaves behind.

/// Plugin API 2.2: `call_at` after `call_within`.
pub mod v2_2 {
    use crate::abi::{AbiValue, ApiVersion, ROOT_MODULE_VERSION};
    use abi_stable::library::RootModule;
    use abi_stable::sabi_types::VersionStrings;
    use abi_stable::std_types::{ROption, RResult, RSlice, RStr, RString};
    use abi_stable::{declare_root_module_statics, StableAbi};

    /// The pack root module of plugin API 2.2.
    #[repr(C)]
    #[derive(StableAbi, Debug)]
    #[sabi(kind(Prefix(prefix_ref = PackModRef)))]
    #[sabi(missing_field(option))]
    pub struct PackMod {
        /// The plugin-API version the plugin was built against.
        pub api_version: ApiVersion,
        /// `PackInfo` as JSON.
        pub info: extern "C" fn() -> RResult<RString, RString>,
        /// Calls a function by name, the arguments as a JSON array.
        pub call:
            extern "C" fn(function: RStr<'_>, args_json: RStr<'_>) -> RResult<RString, RString>,
        /// The definition of a function for a target, or none.
        #[sabi(last_prefix_field)]
        pub lower: extern "C" fn(
            function: RStr<'_>,
            target: RStr<'_>,
        ) -> RResult<ROption<RString>, RString>,
        /// `call` with the run's size limit.
        pub call_within: extern "C" fn(
            function: RStr<'_>,
            args_json: RStr<'_>,
            max_size: u64,
        ) -> RResult<RString, RString>,
        /// `call_within` of the function at a position, with values.
        pub call_at: extern "C" fn(
            index: u32,
            args: RSlice<'_, AbiValue>,
            max_size: u64,
        ) -> RResult<AbiValue, RString>,
    }

    impl RootModule for PackModRef {
        declare_root_module_statics! {PackModRef}
        const BASE_NAME: &'static str = "isu_pack";
        const NAME: &'static str = "isu pack";
        const VERSION_STRINGS: VersionStrings = VersionStrings::new(ROOT_MODULE_VERSION);
    }
}

/// Plugin API 2.1: `call_within` after the last prefix field.
pub mod v2_1 {
    use crate::abi::{ApiVersion, ROOT_MODULE_VERSION};
    use abi_stable::library::RootModule;
    use abi_stable::sabi_types::VersionStrings;
    use abi_stable::std_types::{ROption, RResult, RStr, RString};
    use abi_stable::{declare_root_module_statics, StableAbi};

    /// The pack root module of plugin API 2.1.
    #[repr(C)]
    #[derive(StableAbi, Debug)]
    #[sabi(kind(Prefix(prefix_ref = PackModRef)))]
    #[sabi(missing_field(option))]
    pub struct PackMod {
        /// The plugin-API version the plugin was built against.
        pub api_version: ApiVersion,
        /// `PackInfo` as JSON.
        pub info: extern "C" fn() -> RResult<RString, RString>,
        /// Calls a function by name, the arguments as a JSON array.
        pub call:
            extern "C" fn(function: RStr<'_>, args_json: RStr<'_>) -> RResult<RString, RString>,
        /// The definition of a function for a target, or none.
        #[sabi(last_prefix_field)]
        pub lower: extern "C" fn(
            function: RStr<'_>,
            target: RStr<'_>,
        ) -> RResult<ROption<RString>, RString>,
        /// `call` with the run's size limit.
        pub call_within: extern "C" fn(
            function: RStr<'_>,
            args_json: RStr<'_>,
            max_size: u64,
        ) -> RResult<RString, RString>,
    }

    impl RootModule for PackModRef {
        declare_root_module_statics! {PackModRef}
        const BASE_NAME: &'static str = "isu_pack";
        const NAME: &'static str = "isu pack";
        const VERSION_STRINGS: VersionStrings = VersionStrings::new(ROOT_MODULE_VERSION);
    }
}

/// Plugin API 2.0: no field after the last prefix field.
pub mod v2_0 {
    use crate::abi::{ApiVersion, ROOT_MODULE_VERSION};
    use abi_stable::library::RootModule;
    use abi_stable::sabi_types::VersionStrings;
    use abi_stable::std_types::{ROption, RResult, RStr, RString};
    use abi_stable::{declare_root_module_statics, StableAbi};

    /// The pack root module of plugin API 2.0.
    #[repr(C)]
    #[derive(StableAbi, Debug)]
    #[sabi(kind(Prefix(prefix_ref = PackModRef)))]
    #[sabi(missing_field(option))]
    pub struct PackMod {
        /// The plugin-API version the plugin was built against.
        pub api_version: ApiVersion,
        /// `PackInfo` as JSON.
        pub info: extern "C" fn() -> RResult<RString, RString>,
        /// Calls a function by name, the arguments as a JSON array.
        pub call:
            extern "C" fn(function: RStr<'_>, args_json: RStr<'_>) -> RResult<RString, RString>,
        /// The definition of a function for a target, or none.
        #[sabi(last_prefix_field)]
        pub lower: extern "C" fn(
            function: RStr<'_>,
            target: RStr<'_>,
        ) -> RResult<ROption<RString>, RString>,
    }

    impl RootModule for PackModRef {
        declare_root_module_statics! {PackModRef}
        const BASE_NAME: &'static str = "isu_pack";
        const NAME: &'static str = "isu pack";
        const VERSION_STRINGS: VersionStrings = VersionStrings::new(ROOT_MODULE_VERSION);
    }
}
