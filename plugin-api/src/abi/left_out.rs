//! A plugin library built without its plugin.
//!
//! Cargo builds the library of every crate of a workspace, so a crate whose
//! plugin needs what the machine lacks (the LLVM backend without LLVM 19)
//! still makes a library file. Such a crate exports no root module: it
//! exports [`LeftOut`] instead, with [`export_left_out!`](crate::export_left_out),
//! saying why the plugin is not in it and what to install. The loader reads
//! it where a library has no root module, and refuses the plugin as missing
//! ([`LoadError::LeftOut`](super::LoadError::LeftOut), code `missing_file`)
//! with that fix. A left-out library is never loaded as a plugin.

use abi_stable::library::RawLibrary;
use abi_stable::std_types::RStr;
use abi_stable::StableAbi;
use std::path::Path;

/// Why a library holds no plugin, and what to do: what a left-out library
/// exports under [`LEFT_OUT_SYMBOL`].
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy)]
pub struct LeftOut {
    /// Why the plugin is not in the library, in one sentence
    /// (`the LLVM backend was left out of this build: LLVM 19 was not found`).
    pub reason: RStr<'static>,
    /// What to install or set before building the plugin again.
    pub fix: RStr<'static>,
}

impl LeftOut {
    /// The export of a library that left its plugin out.
    pub const fn new(reason: &'static str, fix: &'static str) -> LeftOut {
        LeftOut {
            reason: RStr::from_str(reason),
            fix: RStr::from_str(fix),
        }
    }
}

/// The symbol a left-out library exports its [`LeftOut`] under.
pub const LEFT_OUT_SYMBOL: &str = "isu_plugin_left_out";

/// The reason and the fix a left-out library at `path` exports; `None` for
/// any other library (a plugin, or no library at all).
pub fn read(path: &Path) -> Option<(String, String)> {
    let library = RawLibrary::load_at(path).ok()?;
    let name = format!("{LEFT_OUT_SYMBOL}\0");
    // SAFETY: a library that exports this symbol exports it as a `LeftOut`
    // (`export_left_out!`, the only writer of the name): the symbol's address
    // is that of a `'static` `LeftOut` of `repr(C)`, whose strings are
    // `'static` too. They are copied out before the library is closed.
    let found = unsafe { library.get::<*const LeftOut>(name.as_bytes()) }.ok()?;
    let left_out: &LeftOut = unsafe { (*found).as_ref() }?;
    Some((
        left_out.reason.as_str().to_owned(),
        left_out.fix.as_str().to_owned(),
    ))
}

/// Exports a [`LeftOut`] as what this library holds instead of a plugin:
/// the crate's build left the plugin out (see the module's documentation).
///
/// ```ignore
/// #[cfg(not(has_llvm))]
/// isu_plugin_api::export_left_out!(
///     "the LLVM backend was left out of this build: LLVM 19 was not found",
///     "install LLVM 19",
/// );
/// ```
#[macro_export]
macro_rules! export_left_out {
    ($reason:expr, $fix:expr $(,)?) => {
        // The symbol the loader looks up where a library has no root module.
        #[allow(unsafe_code, non_upper_case_globals)]
        #[no_mangle]
        pub static isu_plugin_left_out: $crate::abi::LeftOut =
            $crate::abi::LeftOut::new($reason, $fix);
    };
}
