//! The pack the old-layout fixtures serve (`pack_v20`, `pack_v21`,
//! `pack_v22`, each including this file as its module `old`, with its
//! `VERSION`): `old.ADD`, and `old.REPEAT`, which refuses a result past the
//! size limit it is given (none by plugin API 2.0's `call`), and the root
//! module's functions every layout has.

use isu_plugin_api::abi::__private::abi_stable::std_types::RStr;
use isu_plugin_api::abi::__private::{self as isu, JsonResult, LowerResult};
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
    version: super::VERSION,
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

pub fn pack() -> &'static TablePack {
    &PACK
}

pub extern "C" fn info() -> JsonResult {
    isu::serve_pack_info(pack)
}

pub extern "C" fn call(function: RStr<'_>, args: RStr<'_>) -> JsonResult {
    isu::serve_call(pack, function, args)
}

pub extern "C" fn lower(function: RStr<'_>, target: RStr<'_>) -> LowerResult {
    isu::serve_lower(pack, function, target)
}
