//! One program to one LLVM module, ready to write out: the core runtime's
//! bitcode parsed, the lowerings of the pack functions the program calls
//! checked and linked in ([`crate::pack`]), the program lowered beside them, the table the driver reads
//! (`isu_program`), the two linked, everything but `isu_run` and
//! `isu_program` internalized, the module verified, and LLVM's `-O2`
//! pipeline (the new pass manager's `default<O2>`) run on it. The driver
//! (`main`, JSON, error reports) is a native object compiled with the plugin
//! ([`DRIVER_O`]), linked beside the module's object.

use crate::abi::{RuntimeCode, PROGRAM, RUN};
use crate::debug::Debug;
use crate::lower::{self, LowerError, Site};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine,
};
use inkwell::values::{BasicValueEnum, PointerValue};
use inkwell::{AddressSpace, OptimizationLevel};
use isu_plugin_api::{ExecLimits, Lowering, PluginDiagnostic, Program, StructDef, Type};
use std::collections::BTreeMap;

/// The core runtime (`runtime/core`) as bitcode, compiled by clang 19 when
/// the plugin was built (`build.rs`).
pub const CORE_BC: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/core.bc"));
/// The driver (`runtime/driver`, with its own copy of the core) as an object
/// file for this host.
pub const DRIVER_O: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/driver.o"));

/// How to build: the source file named in debug info and error messages,
/// the default limits of the executable, whether to optimize, and the
/// lowerings of the pack functions the program calls.
#[derive(Debug, Clone)]
pub struct Options {
    pub source: String,
    pub limits: ExecLimits,
    pub optimize: bool,
    pub lowerings: Vec<Lowering>,
}

/// Why a module could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// A failure of this backend (never of the program): LLVM refused
    /// something.
    Llvm(String),
    /// A pack function's lowering is missing or malformed
    /// ([`crate::pack::link`]).
    Pack(PluginDiagnostic),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Llvm(m) => f.write_str(m),
            BuildError::Pack(d) => f.write_str(&d.message),
        }
    }
}

impl From<LowerError> for BuildError {
    fn from(e: LowerError) -> BuildError {
        BuildError::Llvm(e.message)
    }
}

/// The target machine for this host: x86-64 in its generic form (as `gcc -O2`
/// compiles), position-independent code so that `cc` links it into a PIE.
pub fn target_machine() -> Result<TargetMachine, BuildError> {
    Target::initialize_x86(&InitializationConfig::default());
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| BuildError::Llvm(e.to_string()))?;
    target
        .create_target_machine(
            &triple,
            "x86-64",
            "",
            OptimizationLevel::Default,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| BuildError::Llvm(format!("LLVM has no target machine for {triple}")))
}

/// Builds the module of `program` in `cx`.
pub fn build<'ctx>(
    cx: &'ctx Context,
    program: &Program,
    opts: &Options,
    tm: &TargetMachine,
) -> Result<Module<'ctx>, BuildError> {
    build_seeing_checks(cx, program, opts, tm, None)
}

/// The checks the lowering emits for `program` (before LLVM's optimizer,
/// which may drop more): each runtime error with the ID of its step (`-`
/// outside the steps), and how many. What tests read to see which checks
/// the value bounds left out.
pub fn checks(program: &Program) -> Result<BTreeMap<(RuntimeCode, String), usize>, BuildError> {
    let tm = target_machine()?;
    let cx = Context::create();
    let opts = Options {
        source: format!("{}.isu", program.func.name.name),
        limits: ExecLimits::DEFAULT,
        optimize: false,
        lowerings: Vec::new(),
    };
    let mut checks = Vec::new();
    build_seeing_checks(&cx, program, &opts, &tm, Some(&mut checks))?;
    let steps = program.steps();
    let mut out = BTreeMap::new();
    for (code, step) in checks {
        let id = usize::try_from(step)
            .ok()
            .and_then(|i| steps.get(i))
            .and_then(|s| s.id.as_ref())
            .map_or("-".to_owned(), ToString::to_string);
        *out.entry((code, id)).or_default() += 1;
    }
    Ok(out)
}

fn build_seeing_checks<'ctx>(
    cx: &'ctx Context,
    program: &Program,
    opts: &Options,
    tm: &TargetMachine,
    checks: Option<&mut Vec<(RuntimeCode, i32)>>,
) -> Result<Module<'ctx>, BuildError> {
    let buf = MemoryBuffer::create_from_memory_range_copy(CORE_BC, "isu_runtime");
    let rt = Module::parse_bitcode_from_buffer(&buf, cx)
        .map_err(|e| BuildError::Llvm(format!("the runtime's bitcode does not load: {e}")))?;
    let m = cx.create_module(&program.func.name.name);
    m.set_triple(&tm.get_triple());
    m.set_data_layout(&tm.get_target_data().get_data_layout());
    m.set_source_file_name(&opts.source);
    let ptr = cx.ptr_type(AddressSpace::default());
    let run_ty = cx.void_type().fn_type(&[ptr.into(), ptr.into()], false);
    let run = m.add_function(RUN, run_ty, None);
    crate::pack::link(cx, &m, &rt, program, &opts.lowerings).map_err(BuildError::Pack)?;
    let dbg = Debug::new(cx, &m, run, &opts.source, program.func.span.line);
    let lowered = lower::lower_program(cx, &m, &rt, run, program, &dbg)?;
    if let Some(checks) = checks {
        *checks = lowered.checks.clone();
    }
    emit_program_table(cx, &m, program, opts, &lowered.sites)?;
    dbg.finish();
    m.link_in_module(rt)
        .map_err(|e| BuildError::Llvm(format!("linking the runtime: {e}")))?;
    internalize(&m);
    m.verify()
        .map_err(|e| BuildError::Llvm(format!("the module does not verify: {e}")))?;
    if opts.optimize {
        // Without loop unrolling, as `gcc -O2`: an inner loop unrolled by
        // its runtime trip count keeps a pointer for each copy, which the
        // loop around then steps in every round, taken or not (the sieve's
        // marking loop: 9.6 ms unrolled, 8.3 ms not, C 6.5 ms).
        let po = PassBuilderOptions::create();
        po.set_loop_unrolling(false);
        m.run_passes("default<O2>", tm, po)
            .map_err(|e| BuildError::Llvm(format!("LLVM's optimizer: {e}")))?;
    }
    Ok(m)
}

/// Every definition but what the driver calls becomes internal, so that the
/// optimizer may inline the runtime into the program and drop what it does
/// not use (the driver has its own copy of the core).
fn internalize(m: &Module<'_>) {
    for f in m.get_functions() {
        if f.count_basic_blocks() > 0 && f.get_name().to_bytes() != RUN.as_bytes() {
            f.set_linkage(Linkage::Internal);
        }
    }
    for g in m.get_globals() {
        if g.get_initializer().is_some() && g.get_name().to_bytes() != PROGRAM.as_bytes() {
            g.set_linkage(Linkage::Internal);
        }
    }
}

/// The object file of a built module.
pub fn object(m: &Module<'_>, tm: &TargetMachine) -> Result<Vec<u8>, BuildError> {
    tm.write_to_memory_buffer(m, FileType::Object)
        .map(|b| b.as_slice().to_vec())
        .map_err(|e| BuildError::Llvm(format!("writing the object file: {e}")))
}

fn cstr<'ctx>(cx: &'ctx Context, m: &Module<'ctx>, s: &str) -> PointerValue<'ctx> {
    let bytes = cx.const_string(s.as_bytes(), true);
    let g = m.add_global(bytes.get_type(), None, "isu_str");
    g.set_initializer(&bytes);
    g.set_constant(true);
    g.set_linkage(Linkage::Private);
    g.set_unnamed_addr(true);
    g.as_pointer_value()
}

fn array_global<'ctx>(
    cx: &'ctx Context,
    m: &Module<'ctx>,
    items: Vec<PointerValue<'ctx>>,
) -> PointerValue<'ctx> {
    let ptr = cx.ptr_type(AddressSpace::default());
    let arr = ptr.const_array(&items);
    let g = m.add_global(arr.get_type(), None, "isu_table");
    g.set_initializer(&arr);
    g.set_constant(true);
    g.set_linkage(Linkage::Private);
    g.as_pointer_value()
}

/// `const IsuProgram isu_program`: the name, the source, the arguments and
/// their types, the result type, the step IDs, the error sites, the limits.
fn emit_program_table<'ctx>(
    cx: &'ctx Context,
    m: &Module<'ctx>,
    program: &Program,
    opts: &Options,
    sites: &[Site],
) -> Result<(), BuildError> {
    let i64t = cx.i64_type();
    let i32t = cx.i32_type();
    let ptr = cx.ptr_type(AddressSpace::default());
    let names: Vec<_> = program
        .func
        .args
        .iter()
        .map(|a| cstr(cx, m, &a.name.name))
        .collect();
    let types = program
        .func
        .args
        .iter()
        .map(|a| type_descriptor(cx, m, &program.types, &a.ty))
        .collect();
    let steps: Vec<_> = program
        .steps()
        .iter()
        .map(|s| {
            cstr(
                cx,
                m,
                &s.id.as_ref().map(|i| i.to_string()).unwrap_or_default(),
            )
        })
        .collect();
    let site_ty = cx.struct_type(
        &[
            i32t.into(),
            i32t.into(),
            i32t.into(),
            i32t.into(),
            i32t.into(),
            i32t.into(),
            ptr.into(),
        ],
        false,
    );
    let site_vals: Vec<_> = sites
        .iter()
        .map(|s| {
            let name = match &s.name {
                Some(n) => cstr(cx, m, n),
                None => ptr.const_null(),
            };
            site_ty.const_named_struct(&[
                i32t.const_int(s.step as u64, true).into(),
                i32t.const_int(s.what as u64, false).into(),
                i32t.const_int(u64::from(s.span.line), false).into(),
                i32t.const_int(u64::from(s.span.col), false).into(),
                i32t.const_int(u64::from(s.span.lo), false).into(),
                i32t.const_int(u64::from(s.span.hi), false).into(),
                name.into(),
            ])
        })
        .collect();
    let site_arr = site_ty.const_array(&site_vals);
    let sites_g = m.add_global(site_arr.get_type(), None, "isu_sites");
    sites_g.set_initializer(&site_arr);
    sites_g.set_constant(true);
    sites_g.set_linkage(Linkage::Private);
    let fields: Vec<BasicValueEnum<'ctx>> = vec![
        cstr(cx, m, &program.func.name.name).into(),
        cstr(cx, m, &opts.source).into(),
        i64t.const_int(names.len() as u64, false).into(),
        array_global(cx, m, names).into(),
        array_global(cx, m, types).into(),
        type_descriptor(cx, m, &program.types, &program.func.returns).into(),
        i64t.const_int(steps.len() as u64, false).into(),
        array_global(cx, m, steps).into(),
        i64t.const_int(sites.len() as u64, false).into(),
        sites_g.as_pointer_value().into(),
        i64t.const_int(opts.limits.max_steps, false).into(),
        i64t.const_int(opts.limits.max_size, false).into(),
        i64t.const_int(opts.limits.max_memory, false).into(),
    ];
    let table = cx.const_struct(&fields, false);
    let g = m.add_global(table.get_type(), None, PROGRAM);
    g.set_initializer(&table);
    g.set_constant(true);
    Ok(())
}

/// The type descriptor (`IsuType`) of `t`, emitted once per module; `types`
/// declares the program's structs.
pub fn type_descriptor<'ctx>(
    cx: &'ctx Context,
    m: &Module<'ctx>,
    types: &[StructDef],
    t: &Type,
) -> PointerValue<'ctx> {
    let name = format!("isu_type.{t}");
    if let Some(g) = m.get_global(&name) {
        return g.as_pointer_value();
    }
    let ptr = cx.ptr_type(AddressSpace::default());
    let i64t = cx.i64_type();
    let null = ptr.const_null();
    let none = (i64t.const_zero(), null, null);
    let (kind, a, b, (nfields, fields, names)) = match t {
        Type::Int => (0, null, null, none),
        Type::Bool => (1, null, null, none),
        Type::Float => (2, null, null, none),
        Type::String => (3, null, null, none),
        Type::Array(e) => (4, type_descriptor(cx, m, types, e), null, none),
        Type::Map(k, v) => (
            5,
            type_descriptor(cx, m, types, k),
            type_descriptor(cx, m, types, v),
            none,
        ),
        // A validated program declares every struct it names, and none holds
        // itself, so the descriptors end; an undeclared one has no fields.
        Type::Struct(s) => {
            let fields = types
                .iter()
                .find(|d| d.name.name == *s)
                .map_or(&[][..], |d| &d.fields[..]);
            let tys = fields
                .iter()
                .map(|f| type_descriptor(cx, m, types, &f.ty))
                .collect();
            let names = fields.iter().map(|f| cstr(cx, m, &f.name.name)).collect();
            (
                6,
                null,
                null,
                (
                    i64t.const_int(fields.len() as u64, false),
                    array_global(cx, m, tys),
                    array_global(cx, m, names),
                ),
            )
        }
    };
    let st = cx.struct_type(
        &[
            cx.i32_type().into(),
            ptr.into(),
            ptr.into(),
            i64t.into(),
            ptr.into(),
            ptr.into(),
        ],
        false,
    );
    let init = st.const_named_struct(&[
        cx.i32_type().const_int(kind, false).into(),
        a.into(),
        b.into(),
        nfields.into(),
        fields.into(),
        names.into(),
    ]);
    let g = m.add_global(st, None, &name);
    g.set_initializer(&init);
    g.set_constant(true);
    g.set_linkage(Linkage::Private);
    g.as_pointer_value()
}
