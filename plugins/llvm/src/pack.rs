//! Pack functions on the `llvm` target (`spec/plugin-abi.md`, "Lowerings
//! for LLVM"): a pack's lowering is LLVM IR text defining the function under
//! its full name (`@math.GCD`), with the parameters of its signature and the
//! calling site last (`i32`), calling only the runtime's entry points for
//! packs ([`ENTRY_POINTS`], `runtime/core/pack.c`). Each lowering the
//! program needs is parsed, checked and linked into the program's module
//! before the program is lowered, so that LLVM's optimizer inlines it into
//! `isu_run` like the runtime. Whatever is wrong with a lowering is a
//! diagnostic naming the function, never a panic or an abort of LLVM.

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum, FunctionType};
use inkwell::AddressSpace;
use isu_plugin_api::visit::{self, Visit};
use isu_plugin_api::{BackendCode, Expr, ExprNode, Lowering, PluginDiagnostic, Program, Type};
use std::collections::BTreeMap;

/// The runtime functions a lowering may declare and call, as it declares
/// them (`spec/llvm-abi.md`, "Entry points for packs", lists them with what
/// they do and who owns what). A declaration's type must be exactly the
/// runtime's.
pub const ENTRY_POINTS: &[&str] = &[
    "declare i64 @isu_pack_str_len(ptr)",
    "declare i64 @isu_pack_str_chars(ptr)",
    "declare ptr @isu_pack_str_bytes(ptr)",
    "declare i64 @isu_pack_count_chars(ptr, i64)",
    "declare i64 @isu_pack_str_offset(ptr, i64)",
    "declare i64 @isu_pack_str_find(ptr, ptr, i64)",
    "declare ptr @isu_pack_str_new(ptr, i64)",
    "declare ptr @isu_pack_str_alloc(i64, i64)",
    "declare i64 @isu_pack_array_len(ptr)",
    "declare i64 @isu_pack_array_get(ptr, i64)",
    "declare void @isu_pack_retain(ptr)",
    "declare void @isu_pack_check_size(i64, i32)",
    "declare void @isu_pack_fail(i32, i32)",
];

/// The name of an entry point in its declaration (`isu_pack_str_len`).
pub fn entry_name(declaration: &str) -> &str {
    let after = declaration.split_once('@').map_or("", |(_, r)| r);
    after.split_once('(').map_or(after, |(n, _)| n)
}

/// The pack functions `program` calls, by full name, with their parameter
/// and result types (validation typed every call; a pack function has one
/// signature, so every call of it has the same types).
pub fn called(program: &Program) -> BTreeMap<String, (Vec<Type>, Type)> {
    struct Calls(BTreeMap<String, (Vec<Type>, Type)>);
    impl Visit<'_> for Calls {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprNode::Call { func, args } = &e.node {
                let params: Option<Vec<Type>> = args.iter().map(|a| a.ty.clone()).collect();
                if let (true, Some(params), Some(ret)) = (func.contains('.'), params, &e.ty) {
                    self.0
                        .entry(func.clone())
                        .or_insert_with(|| (params, ret.clone()));
                }
            }
            visit::walk_expr(self, e);
        }
    }
    let mut c = Calls(BTreeMap::new());
    c.visit_program(program);
    c.0
}

/// The LLVM type of a value of `ty` as a lowering takes or returns it: an
/// int `i64`, a bool `i1`, a string, array or map a `ptr` to its object.
pub fn value_type<'ctx>(cx: &'ctx Context, ty: &Type) -> BasicTypeEnum<'ctx> {
    match ty {
        Type::Int => cx.i64_type().into(),
        Type::Bool => cx.bool_type().into(),
        _ => cx.ptr_type(AddressSpace::default()).into(),
    }
}

/// The type of the definition of a pack function of these parameter and
/// result types: the parameters, then the calling site (`i32`).
pub fn function_type<'ctx>(cx: &'ctx Context, params: &[Type], ret: &Type) -> FunctionType<'ctx> {
    let mut ps: Vec<BasicMetadataTypeEnum<'ctx>> =
        params.iter().map(|t| value_type(cx, t).into()).collect();
    ps.push(cx.i32_type().into());
    value_type(cx, ret).fn_type(&ps, false)
}

/// The text of the definition's first line a lowering of `name` needs:
/// `define i64 @math.GCD(i64, i64, i32)`.
pub fn expected_definition(cx: &Context, name: &str, params: &[Type], ret: &Type) -> String {
    let ty = function_type(cx, params, ret);
    let ret = ty
        .get_return_type()
        .map_or_else(|| "void".to_owned(), |t| t.print_to_string().to_string());
    let ps: Vec<String> = ty
        .get_param_types()
        .iter()
        .map(|t| t.print_to_string().to_string())
        .collect();
    format!("define {ret} @{name}({})", ps.join(", "))
}

fn refused(function: &str, why: impl std::fmt::Display) -> PluginDiagnostic {
    PluginDiagnostic::backend(
        BackendCode::PluginBadOutput,
        format!("the llvm lowering of the pack function {function} {why}"),
    )
    .with_hint(
        "a pack's llvm lowering must follow spec/plugin-abi.md, \"Lowerings for LLVM\": fix the pack, or build for another target",
    )
}

fn reserved(function: &str, name: &str) -> PluginDiagnostic {
    refused(
        function,
        format_args!(
            "defines @{name}: names beginning with `isu_` are the backend's and the runtime's"
        ),
    )
}

/// Parses and checks the lowering of every pack function `program` calls
/// and links it into `m` (whose triple and data layout it takes). `rt` is
/// the runtime's module, whose definitions give the entry points' types.
/// Lowerings of functions the program does not call are left alone.
pub fn link<'ctx>(
    cx: &'ctx Context,
    m: &Module<'ctx>,
    rt: &Module<'ctx>,
    program: &Program,
    lowerings: &[Lowering],
) -> Result<(), PluginDiagnostic> {
    for (name, (params, ret)) in called(program) {
        let Some(l) = lowerings.iter().find(|l| l.function == name) else {
            return Err(PluginDiagnostic::backend(
                BackendCode::UnsupportedFeature,
                format!("the llvm backend was given no lowering of the pack function {name}"),
            )
            .with_hint(
                "load the pack that defines it, with a lowering for llvm (isu-plugins.toml)",
            ));
        };
        let pm = parse(cx, &name, &params, &ret, &l.source, rt)?;
        pm.set_triple(&m.get_triple());
        let layout = m.get_data_layout();
        pm.set_data_layout(&layout);
        m.link_in_module(pm)
            .map_err(|e| refused(&name, format_args!("does not link: {e}")))?;
    }
    Ok(())
}

/// The lowering of `name` as a module, checked: it parses and verifies,
/// defines `@NAME` with the type of its signature and external linkage,
/// keeps every other definition internal and out of the names beginning
/// with `isu_`, and declares nothing but entry
/// points of the runtime (with their types) and LLVM's intrinsics.
pub fn parse<'ctx>(
    cx: &'ctx Context,
    name: &str,
    params: &[Type],
    ret: &Type,
    source: &str,
    rt: &Module<'ctx>,
) -> Result<Module<'ctx>, PluginDiagnostic> {
    let buf = MemoryBuffer::create_from_memory_range_copy(source.as_bytes(), name);
    let pm = cx
        .create_module_from_ir(buf)
        .map_err(|e| refused(name, format_args!("is not LLVM IR that LLVM 19 reads: {e}")))?;
    let want = function_type(cx, params, ret);
    let mut defined = false;
    for f in pm.get_functions() {
        let fname = f.get_name().to_string_lossy().into_owned();
        let is_definition = f.count_basic_blocks() > 0;
        if fname == name {
            if !is_definition {
                return Err(refused(
                    name,
                    format_args!(
                        "declares @{name} but does not define it: it must define `{}`",
                        expected_definition(cx, name, params, ret)
                    ),
                ));
            }
            if f.get_type() != want {
                return Err(refused(
                    name,
                    format_args!(
                        "defines @{name} as `{}`, but the function's signature asks for `{}`",
                        f.get_type().print_to_string().to_string_lossy(),
                        expected_definition(cx, name, params, ret)
                    ),
                ));
            }
            if f.get_linkage() != Linkage::External {
                return Err(refused(
                    name,
                    format_args!("defines @{name} without external linkage"),
                ));
            }
            defined = true;
        } else if is_definition {
            if fname.starts_with("isu_") {
                return Err(reserved(name, &fname));
            }
            if !matches!(f.get_linkage(), Linkage::Internal | Linkage::Private) {
                return Err(refused(
                    name,
                    format_args!(
                        "defines @{fname} with external linkage: only @{name} may be external, a helper must be `internal` or `private`"
                    ),
                ));
            }
        } else if !fname.starts_with("llvm.") {
            let Some(decl) = ENTRY_POINTS.iter().find(|d| entry_name(d) == fname) else {
                return Err(refused(
                    name,
                    format_args!(
                        "declares @{fname}, which is not one of the runtime's entry points for packs (spec/llvm-abi.md, \"Entry points for packs\")"
                    ),
                ));
            };
            let Some(def) = rt.get_function(&fname) else {
                return Err(refused(
                    name,
                    format_args!("declares @{fname}, which this backend's runtime lacks"),
                ));
            };
            if f.get_type() != def.get_type() {
                return Err(refused(
                    name,
                    format_args!(
                        "declares @{fname} as `{}`, but the runtime's is `{decl}`",
                        f.get_type().print_to_string().to_string_lossy()
                    ),
                ));
            }
        }
    }
    if !defined {
        return Err(refused(
            name,
            format_args!(
                "does not define @{name}: it must define `{}`",
                expected_definition(cx, name, params, ret)
            ),
        ));
    }
    for g in pm.get_globals() {
        let gname = g.get_name().to_string_lossy().into_owned();
        if g.get_initializer().is_none() {
            return Err(refused(
                name,
                format_args!("declares the global @{gname}: a lowering may use only the runtime's entry points, which are functions"),
            ));
        }
        if gname.starts_with("isu_") {
            return Err(reserved(name, &gname));
        }
        if !matches!(g.get_linkage(), Linkage::Internal | Linkage::Private) {
            return Err(refused(
                name,
                format_args!("defines the global @{gname} with external linkage: it must be `internal` or `private`"),
            ));
        }
    }
    pm.verify().map_err(|e| {
        refused(
            name,
            format_args!("does not verify: {}", e.to_string().trim()),
        )
    })?;
    Ok(pm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_point_is_the_runtimes_and_the_specs() {
        let cx = Context::create();
        let buf = MemoryBuffer::create_from_memory_range_copy(crate::module::CORE_BC, "rt");
        let rt = Module::parse_bitcode_from_buffer(&buf, &cx);
        let Ok(rt) = rt else {
            panic!("the runtime's bitcode does not load");
        };
        let spec = include_str!("../../../spec/llvm-abi.md");
        let header = include_str!("../runtime/isu_rt.h");
        let all = ENTRY_POINTS.join("\n");
        let Ok(declared) = cx.create_module_from_ir(MemoryBuffer::create_from_memory_range_copy(
            all.as_bytes(),
            "entry points",
        )) else {
            panic!("the entry points do not parse:\n{all}");
        };
        for d in ENTRY_POINTS {
            let name = entry_name(d);
            assert!(name.starts_with("isu_pack_"), "{d}");
            let ours = declared.get_function(name).map(|f| f.get_type());
            let theirs = rt.get_function(name).map(|f| f.get_type());
            assert!(
                ours.is_some() && ours == theirs,
                "{d}: the runtime has {theirs:?}"
            );
            assert!(
                spec.contains(&format!("`{d}`")),
                "spec/llvm-abi.md lacks `{d}`"
            );
            assert!(
                header.contains(&format!("{name}(")),
                "isu_rt.h lacks {name}"
            );
        }
    }

    #[test]
    fn the_expected_definition_is_spelled_out() {
        let cx = Context::create();
        let sig = [Type::String, Type::Int, Type::array(Type::Int)];
        assert_eq!(
            expected_definition(&cx, "text.F", &sig, &Type::Bool),
            "define i1 @text.F(ptr, i64, ptr, i32)"
        );
    }
}
