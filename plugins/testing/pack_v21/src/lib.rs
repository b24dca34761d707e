//! A test fixture: a pack built against plugin API 2.1, whose root module
//! has `call_within` but no `call_at` (`isu_plugin_api`'s frozen
//! `__private::v2_1::PackMod`). The host must load it and call it by name,
//! passing the size limit.

use isu_plugin_api::abi::__private::abi_stable::prefix_type::PrefixTypeTrait;
use isu_plugin_api::abi::__private::abi_stable::std_types::RStr;
use isu_plugin_api::abi::__private::v2_1::{PackMod, PackModRef};
use isu_plugin_api::abi::__private::{self as isu, JsonResult, LowerResult};
use isu_plugin_api::abi::ApiVersion;
use isu_plugin_api::pack::{Args, FunctionDef, TablePack};
use isu_plugin_api::{Literal, PluginDiagnostic, RuntimeCode};

fn add(args: Args<'_>, _: u64) -> Result<Literal, PluginDiagnostic> {
    let (a, b) = (args.int(0)?, args.int(1)?);
    a.checked_add(b)
        .map(Literal::Int)
        .ok_or_else(|| args.fail(RuntimeCode::IntOverflow, "the sum is outside the int range"))
}

/// `n` copies of a string, refused past the size limit before it is built.
fn repeat(args: Args<'_>, max_size: u64) -> Result<Literal, PluginDiagnostic> {
    let (s, n) = (args.str(0)?, args.int(1)?);
    let n = u64::try_from(n).map_err(|_| args.fail(RuntimeCode::OutOfDomain, "n < 0"))?;
    let chars = (s.chars().count() as u64).saturating_mul(n);
    if chars > max_size {
        return Err(args.fail(RuntimeCode::SizeLimit, "the result is too long"));
    }
    Ok(Literal::Str(s.repeat(n as usize)))
}

static PACK: TablePack = TablePack {
    namespace: "old",
    version: "2.1.0",
    functions: &[
        FunctionDef {
            name: "ADD",
            signature: "(int, int) -> int",
            doc: "The sum.",
            errors: &["int_overflow: the sum is outside the int range"],
            call: add,
        },
        FunctionDef {
            name: "REPEAT",
            signature: "(string, int) -> string",
            doc: "n copies of the string.",
            errors: &["size_limit: the result is longer than the size limit"],
            call: repeat,
        },
    ],
    lowerings: &[],
};

fn pack() -> &'static TablePack {
    &PACK
}

extern "C" fn info() -> JsonResult {
    isu::serve_pack_info(pack)
}

extern "C" fn call(function: RStr<'_>, args: RStr<'_>) -> JsonResult {
    isu::serve_call(pack, function, args)
}

extern "C" fn lower(function: RStr<'_>, target: RStr<'_>) -> LowerResult {
    isu::serve_lower(pack, function, target)
}

extern "C" fn call_within(function: RStr<'_>, args: RStr<'_>, max_size: u64) -> JsonResult {
    isu::serve_call_within(pack, function, args, max_size)
}

fn module() -> PackModRef {
    isu::quiet_panics();
    PackMod {
        api_version: ApiVersion { major: 2, minor: 1 },
        info,
        call,
        lower,
        call_within,
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
