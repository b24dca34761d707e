//! Pack functions in the module: each called pack function's lowering for
//! `wasm` (`CompileOptions::lowerings`) is WebAssembly text defining a
//! module that exports the function as `NAMESPACE__NAME` and imports what it
//! needs from the module `isu` ([`IMPORTS`]). It is parsed (`wat`),
//! validated, checked against the convention, and its functions are copied
//! into the module being built with their function and type indices
//! remapped (wasmparser in, wasm-encoder's re-encoder out); each import
//! becomes a call of the runtime function that implements it.
//! `spec/plugin-abi.md`, "Lowerings for Wasm", is the convention.
//!
//! What the calls of a pack function around it do (arguments evaluated left
//! to right, the size checks, the work charge, the calling step of
//! `isu.fail`) is in `lower/expr.rs`.

use crate::layout::val_type;
use crate::module::{ModuleBuilder, PackImport, Rt};
use isu_plugin_api::pack::Lowering;
use isu_plugin_api::visit::{self, Visit};
use isu_plugin_api::{BackendCode, Expr, ExprNode, PluginDiagnostic, Program, Type};
use std::collections::BTreeMap;
use wasm_encoder::reencode::Reencode;
use wasm_encoder::ValType;
use wasmparser::{ExternalKind, Parser, Payload, TypeRef};

/// The module lowerings import from.
pub const IMPORT_MODULE: &str = "isu";

/// The name of the memory a lowering may import from `isu`.
pub const IMPORT_MEMORY: &str = "memory";

/// The functions a lowering may import from `isu`, by name, with the runtime
/// function behind each. Their signatures are the runtime functions'.
pub const IMPORTS: &[(&str, Rt)] = &[
    ("fail", Rt::Pack(PackImport::Fail)),
    ("max_size", Rt::Pack(PackImport::MaxSize)),
    ("str_bytes", Rt::Pack(PackImport::StrBytes)),
    ("str_chars", Rt::Pack(PackImport::StrChars)),
    ("str_data", Rt::Pack(PackImport::StrData)),
    ("str_new", Rt::StrNew),
    ("str_find", Rt::Pack(PackImport::StrFind)),
    ("arr_len", Rt::Pack(PackImport::ArrLen)),
    ("arr_int", Rt::Pack(PackImport::ArrInt)),
    ("arr_bool", Rt::Pack(PackImport::ArrBool)),
    ("arr_ref", Rt::Pack(PackImport::ArrRef)),
    ("retain", Rt::Inc),
    ("alloc", Rt::Alloc),
    ("free", Rt::Free),
];

/// The name a lowering exports its function under: the full name with `.`
/// replaced by `__` (`math__GCD`), as for Python.
pub fn export_name(function: &str) -> String {
    function.replace('.', "__")
}

/// The Wasm signature of a pack function called with arguments of types
/// `params` returning `ret`: an int is an `i64`, anything else an `i32` (a
/// bool 0 or 1, a string, array or map a handle).
pub fn wasm_signature(params: &[&Type], ret: &Type) -> (Vec<ValType>, Vec<ValType>) {
    (
        params.iter().map(|t| val_type(t)).collect(),
        vec![val_type(ret)],
    )
}

/// A called pack function: its argument types and result type, as the
/// validator typed the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Called {
    pub params: Vec<Type>,
    pub ret: Type,
}

/// The pack functions `program` calls, by full name.
pub fn called(program: &Program) -> BTreeMap<String, Called> {
    struct Finder(BTreeMap<String, Called>);
    impl<'a> Visit<'a> for Finder {
        fn visit_expr(&mut self, e: &'a Expr) {
            if let ExprNode::Call { func, args } = &e.node {
                if func.contains('.') {
                    let params = args.iter().filter_map(|a| a.ty.clone()).collect();
                    if let Some(ret) = e.ty.clone() {
                        self.0.entry(func.clone()).or_insert(Called { params, ret });
                    }
                }
            }
            visit::walk_expr(self, e);
        }
    }
    let mut f = Finder(BTreeMap::new());
    visit::walk_program(&mut f, program);
    f.0
}

/// Whether a pack function may take or return a value of `ty` on Wasm: an
/// int, a bool, a string, or an array or map whose elements (values) are
/// none of these collections. (The host checks that each argument, written
/// out as JSON, has at most the size limit's number of values; for these
/// types that count is known from the length.) No struct crosses: the
/// lowering convention has no layout for one.
fn flat(ty: &Type) -> bool {
    match ty {
        Type::Array(e) | Type::Map(_, e) => {
            !matches!(**e, Type::Array(_) | Type::Map(..) | Type::Struct(_))
        }
        Type::Struct(_) => false,
        _ => true,
    }
}

/// A malformed lowering: the pack's fault, named.
fn bad(function: &str, message: impl std::fmt::Display) -> PluginDiagnostic {
    PluginDiagnostic::backend(
        BackendCode::PluginBadOutput,
        format!("the wasm lowering of the pack function {function} {message}"),
    )
    .with_hint("a pack's wasm lowering follows spec/plugin-abi.md, \"Lowerings for Wasm\"")
}

/// Merges the lowering of every pack function `program` calls into `mb`;
/// the function index of each, by full name. Every function without a
/// lowering, and every lowering that breaks the convention, is a diagnostic.
pub fn merge(
    mb: &mut ModuleBuilder,
    program: &Program,
    lowerings: &[Lowering],
) -> Result<BTreeMap<String, u32>, Vec<PluginDiagnostic>> {
    let mut out = BTreeMap::new();
    let mut diags = Vec::new();
    for (name, call) in called(program) {
        if let Some(t) = call.params.iter().chain([&call.ret]).find(|t| !flat(t)) {
            diags.push(PluginDiagnostic::backend(
                BackendCode::UnsupportedFeature,
                format!(
                    "the wasm backend cannot pass a value of type {t} to or from a pack function ({name})"
                ),
            ));
            continue;
        }
        let Some(l) = lowerings.iter().find(|l| l.function == name) else {
            diags.push(
                PluginDiagnostic::backend(
                    BackendCode::UnsupportedFeature,
                    format!("no wasm lowering of the pack function {name} was given"),
                )
                .with_hint("load the pack that defines it (isu-plugins.toml)"),
            );
            continue;
        };
        let params: Vec<&Type> = call.params.iter().collect();
        match merge_one(mb, &name, &l.source, wasm_signature(&params, &call.ret)) {
            Ok(index) => {
                out.insert(name, index);
            }
            Err(d) => diags.push(d),
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

type Sig = (Vec<ValType>, Vec<ValType>);

/// Shows a signature as WebAssembly text does (and wasmparser's
/// `FuncType`): `(func (param i64 i64) (result i64))`.
fn show(sig: &Sig) -> String {
    let list = |ts: &[ValType]| {
        ts.iter()
            .map(|t| match t {
                ValType::I32 => " i32",
                ValType::I64 => " i64",
                ValType::F32 => " f32",
                ValType::F64 => " f64",
                _ => " ?",
            })
            .collect::<String>()
    };
    let mut out = "(func".to_owned();
    if !sig.0.is_empty() {
        out += &format!(" (param{})", list(&sig.0));
    }
    if !sig.1.is_empty() {
        out += &format!(" (result{})", list(&sig.1));
    }
    out + ")"
}

fn number_type(t: wasmparser::ValType) -> Option<ValType> {
    match t {
        wasmparser::ValType::I32 => Some(ValType::I32),
        wasmparser::ValType::I64 => Some(ValType::I64),
        wasmparser::ValType::F32 => Some(ValType::F32),
        wasmparser::ValType::F64 => Some(ValType::F64),
        _ => None,
    }
}

/// What one lowering's module holds, read with wasmparser.
#[derive(Default)]
struct Parts<'a> {
    types: Vec<Sig>,
    /// The runtime function behind each imported function, in order.
    imports: Vec<Rt>,
    /// The type index of each defined function.
    funcs: Vec<u32>,
    /// What it exports, by name.
    exports: BTreeMap<String, (ExternalKind, u32)>,
    bodies: Vec<wasmparser::FunctionBody<'a>>,
}

/// The binary of a lowering's text, parsed and validated.
fn parse(function: &str, source: &str) -> Result<Vec<u8>, PluginDiagnostic> {
    let wasm = wat::parse_str(source)
        .map_err(|e| bad(function, format!("does not parse as WebAssembly text: {e}")))?;
    wasmparser::Validator::new()
        .validate_all(&wasm)
        .map_err(|e| bad(function, format!("is not a valid module: {e}")))?;
    Ok(wasm)
}

/// Checks one lowering and copies its functions into `mb`; the index of
/// the exported one.
fn merge_one(
    mb: &mut ModuleBuilder,
    function: &str,
    source: &str,
    want: Sig,
) -> Result<u32, PluginDiagnostic> {
    let wasm = parse(function, source)?;
    let export = export_name(function);
    let parts = read(function, &wasm)?;
    let exported = match parts.exports.get(&export) {
        Some((ExternalKind::Func, i)) => *i,
        Some(_) => {
            return Err(bad(
                function,
                format!("exports `{export}`, but not as a function"),
            ))
        }
        None => {
            return Err(bad(
                function,
                format!("does not export a function `{export}`"),
            ))
        }
    };
    let n_imports = parts.imports.len() as u32;
    let Some(local) = exported.checked_sub(n_imports) else {
        return Err(bad(
            function,
            format!("exports an import of `isu` as `{export}`, not a function of its own"),
        ));
    };
    let sig_of = |f: u32| -> Option<&Sig> {
        let ty = parts.funcs.get(f as usize)?;
        parts.types.get(*ty as usize)
    };
    match sig_of(local) {
        Some(got) if *got == want => {}
        Some(got) => {
            return Err(bad(
                function,
                format!(
                    "exports `{export}` as {}, but its calls need {} (int: i64; bool, string, array, map: i32)",
                    show(got),
                    show(&want)
                ),
            ))
        }
        None => return Err(bad(function, "has a function without a type")),
    }
    let index = copy(mb, function, parts, &|k| {
        if k == local {
            format!("pack.{function}")
        } else {
            format!("pack.{function}.{k}")
        }
    })?;
    index
        .get(exported as usize)
        .copied()
        .ok_or_else(|| bad(function, "exports a function it does not define"))
}

/// Copies the functions of a module of runtime functions written in
/// WebAssembly text under the lowerings' convention (`runtime/float.wat`)
/// into `mb`, named `isu_rt.` and their export names; the module's index of
/// each exported function, by export name.
pub fn merge_runtime(
    mb: &mut ModuleBuilder,
    label: &str,
    source: &str,
) -> Result<BTreeMap<String, u32>, PluginDiagnostic> {
    let wasm = parse(label, source)?;
    let parts = read(label, &wasm)?;
    let n_imports = parts.imports.len() as u32;
    let names: BTreeMap<u32, String> = parts
        .exports
        .iter()
        .filter(|(_, (kind, _))| *kind == ExternalKind::Func)
        .map(|(name, (_, i))| (*i, name.clone()))
        .collect();
    let funcs: Vec<(String, u32)> = names.iter().map(|(i, n)| (n.clone(), *i)).collect();
    let index = copy(mb, label, parts, &|k| match names.get(&(k + n_imports)) {
        Some(name) => format!("isu_rt.{name}"),
        None => format!("isu_rt.{label}.{k}"),
    })?;
    Ok(funcs
        .into_iter()
        .filter_map(|(name, i)| Some((name, *index.get(i as usize)?)))
        .collect())
}

/// Declares and defines the functions of `parts` in `mb` (the `k`th named
/// `name(k)`), their imports calls of the runtime functions behind them;
/// the module's index of each function of the lowering's index space.
fn copy(
    mb: &mut ModuleBuilder,
    function: &str,
    parts: Parts<'_>,
    name: &dyn Fn(u32) -> String,
) -> Result<Vec<u32>, PluginDiagnostic> {
    let n_imports = parts.imports.len();
    let mut index: Vec<u32> = parts.imports.iter().map(|rt| mb.rt(rt.clone())).collect();
    for (k, ty) in parts.funcs.iter().enumerate() {
        let Some((p, r)) = parts.types.get(*ty as usize) else {
            return Err(bad(function, "has a function without a type"));
        };
        index.push(mb.declare(&name(k as u32), p, r));
    }
    let types: Vec<u32> = parts
        .types
        .iter()
        .map(|(p, r)| mb.type_index(p.clone(), r.clone()))
        .collect();
    let mut re = Remap {
        funcs: &index,
        types: &types,
    };
    for (k, body) in parts.bodies.into_iter().enumerate() {
        let f = reencode(&mut re, body).map_err(|e| {
            bad(
                function,
                format!("has a function the backend cannot copy: {e}"),
            )
        })?;
        if let Some(&at) = index.get(n_imports + k) {
            mb.define(at, f);
        }
    }
    Ok(index)
}

/// Reads the sections of a lowering, refusing what the convention does not
/// allow: imports other than [`IMPORTS`] and `isu.memory`, or of another
/// type; a memory, table, global, tag, data or element segment, or start
/// function of its own; types that are not of numbers.
fn read<'a>(function: &str, wasm: &'a [u8]) -> Result<Parts<'a>, PluginDiagnostic> {
    let mut parts = Parts::default();
    let mut imported_types: Vec<(String, u32)> = Vec::new();
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(|e| bad(function, format!("is not a valid module: {e}")))?;
        let broken =
            |e: wasmparser::BinaryReaderError| bad(function, format!("is not a valid module: {e}"));
        let own = |what: &str| {
            bad(
                function,
                format!(
                    "defines {what}; a lowering defines functions only (and imports the memory as `isu.memory`)"
                ),
            )
        };
        match payload {
            Payload::TypeSection(r) => {
                for ft in r.into_iter_err_on_gc_types() {
                    let ft = ft.map_err(broken)?;
                    let convert = |ts: &[wasmparser::ValType]| -> Option<Vec<ValType>> {
                        ts.iter().map(|t| number_type(*t)).collect()
                    };
                    match (convert(ft.params()), convert(ft.results())) {
                        (Some(p), Some(r)) => parts.types.push((p, r)),
                        _ => {
                            return Err(bad(
                                function,
                                format!("uses the function type {ft}; a lowering's values are i32, i64, f32 and f64"),
                            ))
                        }
                    }
                }
            }
            Payload::ImportSection(r) => {
                for imp in r.into_imports() {
                    let imp = imp.map_err(broken)?;
                    let name = format!("{}.{}", imp.module, imp.name);
                    match imp.ty {
                        TypeRef::Memory(m)
                            if imp.module == IMPORT_MODULE
                                && imp.name == IMPORT_MEMORY
                                && !m.memory64
                                && !m.shared => {}
                        TypeRef::Func(ty) if imp.module == IMPORT_MODULE => {
                            let Some((_, rt)) = IMPORTS.iter().find(|(n, _)| *n == imp.name) else {
                                return Err(bad(
                                    function,
                                    format!(
                                        "imports `{name}`, which the module `isu` does not have (it has {} and `memory`)",
                                        IMPORTS
                                            .iter()
                                            .map(|(n, _)| format!("`{n}`"))
                                            .collect::<Vec<_>>()
                                            .join(", ")
                                    ),
                                ));
                            };
                            parts.imports.push(rt.clone());
                            imported_types.push((name, ty));
                        }
                        _ => {
                            return Err(bad(
                                function,
                                format!(
                                    "imports `{name}`; a lowering imports only functions of `isu` and the memory `isu.memory`"
                                ),
                            ))
                        }
                    }
                }
            }
            Payload::FunctionSection(r) => {
                for ty in r {
                    parts.funcs.push(ty.map_err(broken)?);
                }
            }
            Payload::ExportSection(r) => {
                for e in r {
                    let e = e.map_err(broken)?;
                    parts.exports.insert(e.name.to_owned(), (e.kind, e.index));
                }
            }
            Payload::CodeSectionEntry(body) => parts.bodies.push(body),
            Payload::MemorySection(_) => return Err(own("a memory")),
            Payload::TableSection(_) => return Err(own("a table")),
            Payload::GlobalSection(_) => return Err(own("a global")),
            Payload::TagSection(_) => return Err(own("a tag")),
            Payload::DataSection(_) | Payload::DataCountSection { .. } => {
                return Err(own("data segments"))
            }
            Payload::ElementSection(_) => return Err(own("element segments")),
            Payload::StartSection { .. } => return Err(own("a start function")),
            _ => {}
        }
    }
    // Each import's type, once the types are known.
    for ((name, ty), rt) in imported_types.iter().zip(&parts.imports) {
        let want = rt.signature();
        match parts.types.get(*ty as usize) {
            Some(got) if *got == want => {}
            got => {
                return Err(bad(
                    function,
                    format!(
                        "imports `{name}` as {}, but it is {}",
                        got.map_or_else(|| "an unknown type".to_owned(), show),
                        show(&want)
                    ),
                ))
            }
        }
    }
    Ok(parts)
}

/// The re-encoder of a lowering's code: its function and type indices
/// become the module's.
struct Remap<'r> {
    funcs: &'r [u32],
    types: &'r [u32],
}

impl Reencode for Remap<'_> {
    type Error = String;

    fn function_index(&mut self, func: u32) -> Result<u32, wasm_encoder::reencode::Error<String>> {
        self.funcs
            .get(func as usize)
            .copied()
            .ok_or_else(|| wasm_encoder::reencode::Error::UserError(format!("no function {func}")))
    }

    fn type_index(&mut self, ty: u32) -> Result<u32, wasm_encoder::reencode::Error<String>> {
        self.types
            .get(ty as usize)
            .copied()
            .ok_or_else(|| wasm_encoder::reencode::Error::UserError(format!("no type {ty}")))
    }
}

/// One function body, re-encoded.
fn reencode(
    re: &mut Remap<'_>,
    body: wasmparser::FunctionBody<'_>,
) -> Result<wasm_encoder::Function, wasm_encoder::reencode::Error<String>> {
    let mut f = re.new_function_with_parsed_locals(&body)?;
    let mut reader = body.get_operators_reader()?;
    while !reader.eof() {
        f.instruction(&re.parse_instruction(&mut reader)?);
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `spec/plugin-abi.md`, "Lowerings for Wasm", has a row for every
    /// import with its exact type.
    #[test]
    fn the_spec_lists_every_import_with_its_type() {
        let spec = include_str!("../../../spec/plugin-abi.md");
        for (name, rt) in IMPORTS {
            let shown = show(&rt.signature());
            let ty = shown
                .strip_prefix("(func ")
                .and_then(|s| s.strip_suffix(')'))
                .unwrap_or(&shown);
            let row = format!("| `{name}` | `{ty}` |");
            assert!(
                spec.contains(&row),
                "spec/plugin-abi.md lacks the row {row}"
            );
        }
        assert!(spec.contains(&format!("| `{IMPORT_MEMORY}` | memory |")));
    }

    #[test]
    fn export_names_replace_the_dot() {
        assert_eq!(export_name("text.PAD_LEFT"), "text__PAD_LEFT");
    }
}
