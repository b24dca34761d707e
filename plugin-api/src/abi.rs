//! The stable ABI between the host and plugin libraries: the only module of
//! Isu that names abi_stable types.
//!
//! A plugin is a `cdylib` exporting one abi_stable root module: a
//! [`BackendMod`] (made by [`export_backend!`](crate::export_backend) from any
//! [`Backend`](crate::Backend)) or a [`PackMod`] (made by
//! [`export_pack!`](crate::export_pack) from any [`Pack`](crate::pack::Pack)).
//! The host loads one with [`load_backend`] or [`load_pack`], which run
//! the plugin-API version check ([`ApiVersion::check`]) and abi_stable's
//! checks (its own version, the root module's layout) before any call, then
//! read the plugin's info and check the IIR formats a backend reads; what it
//! gets back implements the plain traits again, so the rest of the host
//! never sees this module's types.
//!
//! Everything crosses as JSON text but the bytes of artifacts and the values
//! of a pack call: the info ([`BackendInfo`](crate::BackendInfo),
//! [`PackInfo`](crate::PackInfo)), the program as its versioned IIR JSON
//! ([`crate::iir_format`]), a backend's arguments and results as
//! [`Literal`](crate::Literal) JSON, compile and execute options, artifact
//! metadata, and errors as [`PluginDiagnostic`](crate::PluginDiagnostic)
//! JSON. A pack function, found by its position once at load, is called
//! with [`AbiValue`]s (plugin API 2.2), so the interpreter's calls write and
//! parse no JSON; one whose parameters and result are all scalars is called
//! with [`Scalar`]s (plugin API 2.3), which nothing converts; packs of older
//! minor versions load with their own frozen root-module layouts and are
//! called the newest way theirs has. Every exported
//! function catches panics and returns them as an error value: a panic never
//! crosses the boundary. `spec/plugin-abi.md` is the normative description.

mod export;
mod left_out;
mod load;
mod modules;
mod older;
mod pack_module;
mod stable;

pub use left_out::{read as read_left_out, LeftOut, LEFT_OUT_SYMBOL};
pub use load::{load_backend, load_pack, ForeignBackend, ForeignPack, LoadError};
pub use modules::{BackendMod, BackendModRef, PackMod, PackModRef};
pub use stable::{AbiArtifact, AbiValue, Scalar};

use abi_stable::StableAbi;
use std::fmt;

/// What plugins and the host need from abi_stable, re-exported for the export
/// macros and for hand-written test fixtures; not part of the documented API.
#[doc(hidden)]
pub mod __private {
    pub use super::export::*;
    pub use super::older::{v2_0, v2_1, v2_2};
    pub use abi_stable;
}

/// A plugin-API version, `MAJOR.MINOR`.
///
/// The major version changes when the root modules or the JSON they carry
/// change incompatibly; the minor version when something is added (a field
/// after the last prefix field, an optional JSON field). The host loads a
/// plugin of its own major version, whatever the minor: fields a plugin lacks
/// read as absent, fields the reader does not know are ignored.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ApiVersion {
    /// Changes on an incompatible change.
    pub major: u32,
    /// Changes when something is added.
    pub minor: u32,
}

/// The plugin-API version this crate speaks. A plugin records the version it
/// was built with in its root module; the host compares it with its own.
pub const PLUGIN_API_VERSION: ApiVersion = ApiVersion { major: 2, minor: 3 };

/// The root modules' abi_stable version strings: the plugin-API major
/// version as `MAJOR.0.0`. abi_stable accepts a library whose minor is at
/// least the loader's, so a minor of 0 makes its own version check accept
/// exactly the plugins [`ApiVersion::check`] accepts (the same major, any
/// minor), and the host reads the version of a plugin it refuses from its
/// header.
const ROOT_MODULE_VERSION: &str = "2.0.0";

/// Why a plugin's API version is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionMismatch {
    /// Built against an older major version than the host speaks.
    Older {
        /// The plugin's version.
        plugin: ApiVersion,
        /// The host's version.
        host: ApiVersion,
    },
    /// Built against a newer major version than the host speaks.
    Newer {
        /// The plugin's version.
        plugin: ApiVersion,
        /// The host's version.
        host: ApiVersion,
    },
}

impl ApiVersion {
    /// Whether a plugin built for `self` can be used by a host speaking `host`.
    pub fn check(self, host: ApiVersion) -> Result<(), VersionMismatch> {
        use std::cmp::Ordering;
        match self.major.cmp(&host.major) {
            Ordering::Equal => Ok(()),
            Ordering::Less => Err(VersionMismatch::Older { plugin: self, host }),
            Ordering::Greater => Err(VersionMismatch::Newer { plugin: self, host }),
        }
    }
}

impl fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl fmt::Display for VersionMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (plugin, host, which) = match self {
            VersionMismatch::Older { plugin, host } => (plugin, host, "an older"),
            VersionMismatch::Newer { plugin, host } => (plugin, host, "a newer"),
        };
        write!(
            f,
            "it was built for plugin API {plugin}, {which} version than this isu's {host}"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_major_is_compatible_whatever_the_minor() {
        let host = ApiVersion { major: 2, minor: 3 };
        assert_eq!(ApiVersion { major: 2, minor: 0 }.check(host), Ok(()));
        assert_eq!(ApiVersion { major: 2, minor: 9 }.check(host), Ok(()));
        let old = ApiVersion { major: 1, minor: 0 };
        let err = old.check(host);
        assert_eq!(err, Err(VersionMismatch::Older { plugin: old, host }));
        assert_eq!(
            err.map_err(|e| e.to_string()),
            Err("it was built for plugin API 1.0, an older version than this isu's 2.3".to_owned())
        );
        let new = ApiVersion { major: 3, minor: 0 };
        let err = new.check(host);
        assert_eq!(err, Err(VersionMismatch::Newer { plugin: new, host }));
        assert_eq!(
            err.map_err(|e| e.to_string()),
            Err("it was built for plugin API 3.0, a newer version than this isu's 2.3".to_owned())
        );
    }

    /// The crate is published as the plugin-API version: a plugin author
    /// depends on `isu_plugin_api = "2.0"` to speak plugin API 2.0.
    #[test]
    fn the_crate_version_is_the_plugin_api_version() {
        let crate_version = (
            env!("CARGO_PKG_VERSION_MAJOR"),
            env!("CARGO_PKG_VERSION_MINOR"),
        );
        let api = (
            PLUGIN_API_VERSION.major.to_string(),
            PLUGIN_API_VERSION.minor.to_string(),
        );
        assert_eq!(
            (crate_version.0.to_owned(), crate_version.1.to_owned()),
            api,
            "plugin-api/Cargo.toml's version {} must be MAJOR.MINOR of PLUGIN_API_VERSION {}: bump both",
            env!("CARGO_PKG_VERSION"),
            PLUGIN_API_VERSION
        );
    }

    /// `isu_lang`, which this crate re-exports and plugins build against,
    /// is published under the same version.
    #[test]
    fn the_language_crate_has_the_same_version() {
        assert_eq!(
            isu_lang::VERSION,
            env!("CARGO_PKG_VERSION"),
            "lang/Cargo.toml's version must be plugin-api/Cargo.toml's: bump both"
        );
    }

    #[test]
    fn root_module_version_is_the_api_major_version() {
        assert_eq!(
            ROOT_MODULE_VERSION,
            format!("{}.0.0", PLUGIN_API_VERSION.major)
        );
    }
}
