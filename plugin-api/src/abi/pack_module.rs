//! A loaded pack's root module, of whichever minor plugin-API version the
//! pack was built against: the current layout, or one of the frozen older
//! ones ([`super::older`]), which abi_stable's layout check would refuse as
//! the current one. Each call is made by the newest way the module has.

use super::modules::PackModRef;
use super::older::{v2_0, v2_1, v2_2};
use super::stable::{AbiValue, Scalar};
use super::ApiVersion;
use abi_stable::std_types::{ROption, RResult, RSlice, RStr, RString};

/// The signature of `call_scalar` (plugin API 2.3).
pub(crate) type CallScalar =
    extern "C" fn(u32, RSlice<'_, Scalar>, u64) -> RResult<Scalar, RString>;
/// The signature of `call_at` (plugin API 2.2).
pub(crate) type CallAt =
    extern "C" fn(u32, RSlice<'_, AbiValue>, u64) -> RResult<AbiValue, RString>;
/// The signature of `call_within` (plugin API 2.1).
pub(crate) type CallWithin = extern "C" fn(RStr<'_>, RStr<'_>, u64) -> RResult<RString, RString>;
type Call = extern "C" fn(RStr<'_>, RStr<'_>) -> RResult<RString, RString>;
type Info = extern "C" fn() -> RResult<RString, RString>;
type Lower = extern "C" fn(RStr<'_>, RStr<'_>) -> RResult<ROption<RString>, RString>;

/// A pack root module of plugin API 2.3, 2.2, 2.1 or 2.0.
#[derive(Clone, Copy)]
pub(crate) enum PackModule {
    /// The layout of this crate.
    Current(PackModRef),
    /// The layout of plugin API 2.2.
    V2_2(v2_2::PackModRef),
    /// The layout of plugin API 2.1.
    V2_1(v2_1::PackModRef),
    /// The layout of plugin API 2.0.
    V2_0(v2_0::PackModRef),
}

impl PackModule {
    pub(crate) fn api_version(self) -> ApiVersion {
        match self {
            PackModule::Current(m) => m.api_version(),
            PackModule::V2_2(m) => m.api_version(),
            PackModule::V2_1(m) => m.api_version(),
            PackModule::V2_0(m) => m.api_version(),
        }
    }

    pub(crate) fn info(self) -> Info {
        match self {
            PackModule::Current(m) => m.info(),
            PackModule::V2_2(m) => m.info(),
            PackModule::V2_1(m) => m.info(),
            PackModule::V2_0(m) => m.info(),
        }
    }

    pub(crate) fn call(self) -> Call {
        match self {
            PackModule::Current(m) => m.call(),
            PackModule::V2_2(m) => m.call(),
            PackModule::V2_1(m) => m.call(),
            PackModule::V2_0(m) => m.call(),
        }
    }

    pub(crate) fn lower(self) -> Lower {
        match self {
            PackModule::Current(m) => m.lower(),
            PackModule::V2_2(m) => m.lower(),
            PackModule::V2_1(m) => m.lower(),
            PackModule::V2_0(m) => m.lower(),
        }
    }

    /// `None` for a pack of plugin API 2.0.
    pub(crate) fn call_within(self) -> Option<CallWithin> {
        match self {
            PackModule::Current(m) => m.call_within(),
            PackModule::V2_2(m) => m.call_within(),
            PackModule::V2_1(m) => m.call_within(),
            PackModule::V2_0(_) => None,
        }
    }

    /// `None` for a pack of plugin API 2.1 or 2.0.
    pub(crate) fn call_at(self) -> Option<CallAt> {
        match self {
            PackModule::Current(m) => m.call_at(),
            PackModule::V2_2(m) => m.call_at(),
            PackModule::V2_1(_) | PackModule::V2_0(_) => None,
        }
    }

    /// `None` for a pack of plugin API 2.2 or older.
    pub(crate) fn call_scalar(self) -> Option<CallScalar> {
        match self {
            PackModule::Current(m) => m.call_scalar(),
            PackModule::V2_2(_) | PackModule::V2_1(_) | PackModule::V2_0(_) => None,
        }
    }
}
