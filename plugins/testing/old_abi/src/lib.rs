//! A test fixture: a library that exports abi_stable's root-module symbol with
//! the header of another abi_stable ABI (0.9), as a plugin built with an old
//! abi_stable would. The host must refuse it, naming both versions. It needs
//! no abi_stable of its own: the header is a plain `repr(C)` struct.

/// The layout of abi_stable's `AbiHeader`.
#[repr(C)]
#[derive(Debug)]
pub struct Header {
    pub magic_string: [u8; 32],
    pub abi_major: u32,
    pub abi_minor: u32,
}

/// abi_stable's loader reads the header at this symbol first.
#[allow(unsafe_code, non_upper_case_globals)]
#[no_mangle]
pub static _1as_0lib_1header_0root_bmodule_bloader: Header = Header {
    magic_string: *b"abi stable library for Rust     ",
    abi_major: 0,
    abi_minor: 9,
};
