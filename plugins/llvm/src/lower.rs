//! IIR to the module's entry function `void isu_run(const uint64_t *args,
//! uint64_t *result)`: one LLVM function whose variables are stack slots
//! (promoted to registers by LLVM), with every check the semantics asks for
//! branching to a cold call of the runtime's `isu_fail`. Statements
//! ([`stmt`]), expressions ([`expr`]), element stores ([`place`]), standard
//! functions ([`call`]), pack functions ([`pack`]) and constants ([`konst`])
//! each have a file.
//!
//! The lowering knows nothing of the heap's layout: it calls the runtime
//! (`runtime/*.c`), which is linked into the module before the optimizer
//! runs, so that those calls inline into loads, stores and compares.

mod call;
mod expr;
mod float;
mod hoist;
mod konst;
mod memory;
mod pack;
mod place;
mod stmt;
mod work;

use crate::abi::{RuntimeCode, What};
use crate::debug::Debug;
use inkwell::basic_block::BasicBlock;
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{
    BasicMetadataValueEnum, BasicValueEnum, FunctionValue, IntValue, PointerValue,
};
use inkwell::AddressSpace;
use isu_plugin_api::analysis::bounds::{Bounds, Env};
use isu_plugin_api::analysis::proof::checked;
use isu_plugin_api::analysis::Decls;
use isu_plugin_api::{Program, Span, StructDef, Type};
use std::collections::{BTreeMap, BTreeSet};

/// Why a program could not be lowered: it was not canonical and validated,
/// or LLVM refused what the lowering built (a bug of this backend, never of
/// the program's author).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LowerError {
    pub message: String,
}

impl From<BuilderError> for LowerError {
    fn from(e: BuilderError) -> LowerError {
        LowerError {
            message: format!("LLVM's builder refused an instruction: {e}"),
        }
    }
}

pub type Res<T> = Result<T, LowerError>;

pub fn bug<T>(message: impl Into<String>) -> Res<T> {
    Err(LowerError {
        message: message.into(),
    })
}

/// Whether a value is a reference of its own (to be dropped or handed on) or
/// borrowed from a variable, a constant or a container that outlives its use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Own {
    Owned,
    Borrowed,
}

/// A value and whether it is owned.
#[derive(Debug, Clone, Copy)]
pub struct Val<'ctx> {
    pub v: BasicValueEnum<'ctx>,
    pub own: Own,
}

impl<'ctx> Val<'ctx> {
    pub fn borrowed(v: impl Into<BasicValueEnum<'ctx>>) -> Val<'ctx> {
        Val {
            v: v.into(),
            own: Own::Borrowed,
        }
    }

    pub fn owned(v: impl Into<BasicValueEnum<'ctx>>) -> Val<'ctx> {
        Val {
            v: v.into(),
            own: Own::Owned,
        }
    }

    pub fn int(&self) -> IntValue<'ctx> {
        self.v.into_int_value()
    }

    pub fn float(&self) -> inkwell::values::FloatValue<'ctx> {
        self.v.into_float_value()
    }
}

/// A variable: its stack slot and type; a LOCAL int or bool has a flag that
/// says whether it has a value (a LOCAL string or collection has none while
/// its slot holds null).
#[derive(Debug, Clone)]
pub struct Var<'ctx> {
    pub slot: PointerValue<'ctx>,
    pub ty: Type,
    pub flag: Option<PointerValue<'ctx>>,
    pub is_local: bool,
    /// The size its value holds (`memory`), for a type that has one.
    pub size: Option<PointerValue<'ctx>>,
}

/// One place where a runtime error can happen (`IsuSite` in the runtime).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub step: i32,
    pub what: What,
    pub span: Span,
    pub name: Option<String>,
}

pub struct Lowering<'ctx, 'm> {
    pub cx: &'ctx Context,
    pub m: &'m Module<'ctx>,
    /// The runtime's module: the signatures of the functions the program calls.
    pub rt: &'m Module<'ctx>,
    pub b: Builder<'ctx>,
    /// Builds the stack slots, at the end of the entry block.
    pub slots: Builder<'ctx>,
    pub f: FunctionValue<'ctx>,
    pub vars: BTreeMap<String, Var<'ctx>>,
    /// The index of the step being lowered (-1 outside the steps).
    pub step: i32,
    /// The next step's index (steps are numbered in structural pre-order).
    pub next_step: u32,
    /// The step budget left.
    pub fuel: PointerValue<'ctx>,
    /// The live size of the variables (`memory`).
    pub live: PointerValue<'ctx>,
    pub sites: Vec<Site>,
    pub ret_ty: Type,
    pub result: PointerValue<'ctx>,
    /// Constants already emitted, by (literal, type) text.
    pub consts: BTreeMap<(String, String), PointerValue<'ctx>>,
    pub dbg: &'m Debug<'ctx>,
    /// The program's declarations, for the bounds' questions.
    pub decls: Decls,
    /// The program's structs (`TYPES`).
    pub types: Vec<StructDef>,
    /// The value bounds of the program (`isu_lang::analysis::bounds`).
    pub bounds: Bounds,
    /// What the bounds say where the code being lowered runs: checks they
    /// prove cannot fire are left out.
    pub env: Env,
    /// The checks emitted so far ([`Lowered::checks`]).
    pub checks: Vec<(RuntimeCode, i32)>,
    /// For each loop around the code being lowered (innermost last): the
    /// block a `BREAK` branches to and the one a `CONTINUE` branches to.
    pub loops: Vec<(BasicBlock<'ctx>, BasicBlock<'ctx>)>,
    /// The collection variables a loop around the code being lowered made
    /// its own before its first round and never shares ([`hoist`]): their
    /// element stores need no not-shared test.
    pub owned: BTreeSet<String>,
    /// The lengths of the arrays a loop around the code being lowered never
    /// resizes, read before its first round ([`hoist`]), each in a slot.
    pub lengths: BTreeMap<String, PointerValue<'ctx>>,
    /// (array, index variable): in the copy of a counted loop's body being
    /// lowered, every value of the variable lies in the array
    /// (`stmt::Guard`).
    pub in_range: BTreeSet<(String, String)>,
    /// The arrays the `each` loops around the code being lowered hold while
    /// they walk them (innermost last): a `RETURN` in the body drops them.
    pub walked: Vec<(BasicValueEnum<'ctx>, Type)>,
    /// The variables of the counted loops around the code being lowered
    /// whose copy of the body runs only when they are small
    /// (`stmt::Guard::small`).
    pub small: Vec<String>,
}

impl std::fmt::Debug for Lowering<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lowering")
            .field("step", &self.step)
            .finish_non_exhaustive()
    }
}

/// What lowering a program leaves besides the function: its error sites.
#[derive(Debug)]
pub struct Lowered {
    pub sites: Vec<Site>,
    /// Every check the lowering emitted: its error and the index of its
    /// step (-1 outside the steps), in emission order.
    pub checks: Vec<(RuntimeCode, i32)>,
}

/// Lowers `program` into `run`, a function of `m` declared as `isu_run`.
pub fn lower_program<'ctx>(
    cx: &'ctx Context,
    m: &Module<'ctx>,
    rt: &Module<'ctx>,
    run: FunctionValue<'ctx>,
    program: &Program,
    dbg: &Debug<'ctx>,
) -> Res<Lowered> {
    let entry = cx.append_basic_block(run, "entry");
    let body = cx.append_basic_block(run, "body");
    let slots = cx.create_builder();
    slots.position_at_end(entry);
    let b = cx.create_builder();
    b.position_at_end(body);
    let (Some(args), Some(result)) = (run.get_nth_param(0), run.get_nth_param(1)) else {
        return bug("isu_run has not two parameters");
    };
    let args = args.into_pointer_value();
    let result = result.into_pointer_value();
    dbg.at_function(cx, &b);
    dbg.at_function(cx, &slots);
    let fuel = slots.build_alloca(cx.i64_type(), "fuel")?;
    let live = slots.build_alloca(cx.i64_type(), "live")?;
    slots.build_store(live, cx.i64_type().const_zero())?;
    let mut l = Lowering {
        cx,
        m,
        rt,
        b,
        slots,
        f: run,
        vars: BTreeMap::new(),
        step: -1,
        next_step: 0,
        fuel,
        live,
        sites: Vec::new(),
        ret_ty: program.func.returns.clone(),
        result,
        consts: BTreeMap::new(),
        dbg,
        decls: Decls::of(program),
        types: program.types.clone(),
        bounds: checked(program)
            .or_else(|d| bug(format!("the bounds of dropped checks do not check out {d}")))?,
        env: Env::default(),
        checks: Vec::new(),
        loops: Vec::new(),
        owned: BTreeSet::new(),
        lengths: BTreeMap::new(),
        in_range: BTreeSet::new(),
        walked: Vec::new(),
        small: Vec::new(),
    };
    let decls = program
        .func
        .args
        .iter()
        .map(|d| (&d.name.name, &d.ty, false))
        .chain(program.state.iter().map(|s| (&s.name.name, &s.ty, false)))
        .chain(program.locals.iter().map(|d| (&d.name.name, &d.ty, true)));
    for (name, ty, is_local) in decls {
        let slot = l.slots.build_alloca(l.llty(ty), name)?;
        let flag = if is_local {
            if is_heap(ty) {
                l.slots.build_store(slot, l.ptr_ty().const_null())?;
                None
            } else {
                let flag = l
                    .slots
                    .build_alloca(cx.bool_type(), &format!("{name}.set"))?;
                l.slots.build_store(flag, cx.bool_type().const_zero())?;
                Some(flag)
            }
        } else {
            None
        };
        let size = if isu_plugin_api::work::has_size(ty) {
            let size = l
                .slots
                .build_alloca(cx.i64_type(), &format!("{name}.size"))?;
            l.slots.build_store(size, cx.i64_type().const_zero())?;
            Some(size)
        } else {
            None
        };
        let var = Var {
            slot,
            ty: ty.clone(),
            flag,
            is_local,
            size,
        };
        if l.vars.insert(name.clone(), var).is_some() {
            return bug(format!("`{name}` is declared twice"));
        }
    }
    let budget = l.runtime_global(crate::abi::MAX_STEPS);
    let steps = l.b.build_load(cx.i64_type(), budget, "budget")?;
    l.b.build_store(fuel, steps)?;
    for (i, d) in program.func.args.iter().enumerate() {
        let slot = l
            .call(
                "isu_arg",
                &[args.into(), cx.i64_type().const_int(i as u64, false).into()],
            )?
            .into_int_value();
        let v = l.of_slot(slot, &d.ty)?;
        let var = l.var(&d.name.name)?.clone();
        l.b.build_store(var.slot, v)?;
        if let Some(size) = var.size {
            // The arguments count from the start, unchecked (memory).
            let n = l.full_size(v, &d.ty)?;
            l.b.build_store(size, n)?;
            let live =
                l.b.build_load(cx.i64_type(), l.live, "live")?
                    .into_int_value();
            let live = l.b.build_int_add(live, n, "")?;
            l.b.build_store(l.live, live)?;
        }
    }
    for (i, s) in program.state.iter().enumerate() {
        l.env = l.bounds.state(i);
        let v = l.expr(&s.init)?;
        let v = l.own(v, &s.ty)?;
        let var = l.var(&s.name.name)?.clone();
        let site = l.site(What::Plain, s.span, None);
        l.hold_var(&var, v, site)?;
        l.b.build_store(var.slot, v)?;
    }
    l.block(&program.body)?;
    if l.reachable() {
        let site = l.site(What::Plain, program.body.span, None);
        l.fail(RuntimeCode::NoReturn, site, None)?;
    }
    l.slots.build_unconditional_branch(body)?;
    Ok(Lowered {
        sites: l.sites,
        checks: l.checks,
    })
}

/// Whether values of `ty` are pointers to counted heap objects.
pub fn is_heap(ty: &Type) -> bool {
    matches!(
        ty,
        Type::String | Type::Array(_) | Type::Map(..) | Type::Struct(_)
    )
}

/// The type of an expression, which validation filled in.
pub fn ty_of(e: &isu_plugin_api::Expr) -> Res<&Type> {
    match &e.ty {
        Some(t) => Ok(t),
        None => bug(format!(
            "an expression at line {} has no type (the program was not validated)",
            e.span.line
        )),
    }
}

impl<'ctx> Lowering<'ctx, '_> {
    pub fn ptr_ty(&self) -> inkwell::types::PointerType<'ctx> {
        self.cx.ptr_type(AddressSpace::default())
    }

    /// The LLVM type of a value of `ty`.
    pub fn llty(&self, ty: &Type) -> BasicTypeEnum<'ctx> {
        match ty {
            Type::Int => self.cx.i64_type().into(),
            Type::Float => self.cx.f64_type().into(),
            Type::Bool => self.cx.bool_type().into(),
            _ => self.ptr_ty().into(),
        }
    }

    pub fn i64(&self, v: i64) -> IntValue<'ctx> {
        self.cx.i64_type().const_int(v as u64, true)
    }

    pub fn i32(&self, v: i32) -> IntValue<'ctx> {
        self.cx.i32_type().const_int(v as u64, true)
    }

    pub fn var(&self, name: &str) -> Res<&Var<'ctx>> {
        match self.vars.get(name) {
            Some(v) => Ok(v),
            None => bug(format!("`{name}` is not declared")),
        }
    }

    /// Whether the builder is at a point the code can reach (not after a
    /// RETURN or a failure).
    pub fn reachable(&self) -> bool {
        self.b
            .get_insert_block()
            .is_some_and(|bb| bb.get_terminator().is_none())
    }

    /// A new basic block of the function.
    pub fn block_named(&self, name: &str) -> inkwell::basic_block::BasicBlock<'ctx> {
        self.cx.append_basic_block(self.f, name)
    }

    /// A function of the runtime, declared in the program's module with the
    /// runtime's own signature.
    pub fn runtime_fn(&self, name: &str) -> Res<FunctionValue<'ctx>> {
        if let Some(f) = self.m.get_function(name) {
            return Ok(f);
        }
        let Some(def) = self.rt.get_function(name) else {
            return bug(format!("the runtime has no function {name}"));
        };
        Ok(self.m.add_function(name, def.get_type(), None))
    }

    /// An `int64_t` global of the driver (declared in the program's module).
    pub fn runtime_global(&self, name: &str) -> PointerValue<'ctx> {
        match self.m.get_global(name) {
            Some(g) => g.as_pointer_value(),
            None => self
                .m
                .add_global(self.cx.i64_type(), None, name)
                .as_pointer_value(),
        }
    }

    /// Calls a runtime function; its result, if it has one.
    pub fn call(
        &self,
        name: &str,
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Res<BasicValueEnum<'ctx>> {
        let f = self.runtime_fn(name)?;
        let c = self.b.build_call(f, args, "")?;
        Ok(c.try_as_basic_value()
            .basic()
            .unwrap_or_else(|| self.i64(0).into()))
    }

    /// The 64-bit slot of a value of `ty`.
    pub fn to_slot(&self, v: BasicValueEnum<'ctx>, ty: &Type) -> Res<IntValue<'ctx>> {
        let i64t = self.cx.i64_type();
        Ok(match ty {
            Type::Int => v.into_int_value(),
            // A float's slot holds the bits of its double.
            Type::Float => self.b.build_bit_cast(v, i64t, "")?.into_int_value(),
            Type::Bool => self.b.build_int_z_extend(v.into_int_value(), i64t, "")?,
            _ => self.b.build_ptr_to_int(v.into_pointer_value(), i64t, "")?,
        })
    }

    /// The value of `ty` in a 64-bit slot.
    pub fn of_slot(&self, s: IntValue<'ctx>, ty: &Type) -> Res<BasicValueEnum<'ctx>> {
        Ok(match ty {
            Type::Int => s.into(),
            Type::Float => self.b.build_bit_cast(s, self.cx.f64_type(), "")?,
            Type::Bool => self
                .b
                .build_int_truncate(s, self.cx.bool_type(), "")?
                .into(),
            _ => self.b.build_int_to_ptr(s, self.ptr_ty(), "")?.into(),
        })
    }

    /// An error site at `span` in the current step.
    pub fn site(&mut self, what: What, span: Span, name: Option<&str>) -> i32 {
        self.sites.push(Site {
            step: self.step,
            what,
            span,
            name: name.map(str::to_owned),
        });
        (self.sites.len() - 1) as i32
    }

    /// Stops the run with `code` at `site`, showing the values `ab`.
    pub fn fail(
        &mut self,
        code: RuntimeCode,
        site: i32,
        ab: Option<(IntValue<'ctx>, IntValue<'ctx>)>,
    ) -> Res<()> {
        let Some(number) = code.number() else {
            return bug(format!("{code} is no error of a program's run"));
        };
        let step = self.sites.get(site as usize).map_or(-1, |s| s.step);
        self.checks.push((code, step));
        let (a, b) = ab.unwrap_or((self.i64(0), self.i64(0)));
        self.call(
            "isu_fail",
            &[
                self.i32(number).into(),
                self.i32(site).into(),
                a.into(),
                b.into(),
            ],
        )?;
        self.b.build_unreachable()?;
        Ok(())
    }

    /// `if (cond) fail(...)`: the failure in a block of its own, which the
    /// noreturn, cold `isu_fail` marks unlikely.
    pub fn fail_if(
        &mut self,
        cond: IntValue<'ctx>,
        code: RuntimeCode,
        site: i32,
        ab: Option<(IntValue<'ctx>, IntValue<'ctx>)>,
    ) -> Res<()> {
        let bad = self.block_named("fail");
        let ok = self.block_named("ok");
        self.b.build_conditional_branch(cond, bad, ok)?;
        self.b.position_at_end(bad);
        self.fail(code, site, ab)?;
        self.b.position_at_end(ok);
        Ok(())
    }

    /// The type descriptor (`IsuType`) of `ty`.
    pub fn tdesc(&mut self, ty: &Type) -> PointerValue<'ctx> {
        crate::module::type_descriptor(self.cx, self.m, &self.types, ty)
    }

    /// The slot of the field `field` of the struct type `ty`, and its type.
    pub fn field_slot(&self, ty: &Type, field: &str) -> Res<(usize, Type)> {
        let Type::Struct(name) = ty else {
            return bug(format!("a field `{field}` of a {ty}"));
        };
        let def = self.types.iter().find(|d| d.name.name == *name);
        let found = def.and_then(|d| {
            d.fields
                .iter()
                .enumerate()
                .find(|(_, f)| f.name.name == field)
                .map(|(i, f)| (i, f.ty.clone()))
        });
        match found {
            Some(x) => Ok(x),
            None => bug(format!("the struct {name} has no field `{field}`")),
        }
    }

    /// Makes a value owned (one more reference when it was borrowed).
    pub fn own(&mut self, v: Val<'ctx>, ty: &Type) -> Res<BasicValueEnum<'ctx>> {
        if v.own == Own::Borrowed && is_heap(ty) {
            self.inc(v.v, ty)?;
        }
        Ok(v.v)
    }

    pub fn inc(&mut self, v: BasicValueEnum<'ctx>, ty: &Type) -> Res<()> {
        if is_heap(ty) {
            let s = self.to_slot(v, ty)?;
            let t = self.tdesc(ty);
            self.call("isu_inc", &[s.into(), t.into()])?;
        }
        Ok(())
    }

    pub fn drop_value(&mut self, v: BasicValueEnum<'ctx>, ty: &Type) -> Res<()> {
        if is_heap(ty) {
            let s = self.to_slot(v, ty)?;
            let t = self.tdesc(ty);
            self.call("isu_drop", &[s.into(), t.into()])?;
        }
        Ok(())
    }

    /// Drops a value when it is owned (a temporary); borrowed ones stay.
    pub fn release(&mut self, v: Val<'ctx>, ty: &Type) -> Res<()> {
        if v.own == Own::Owned {
            self.drop_value(v.v, ty)?;
        }
        Ok(())
    }

    /// Spends one unit of the step budget at `site`: `step_limit` when none is left.
    pub fn spend(&mut self, site: i32) -> Res<()> {
        let i64t = self.cx.i64_type();
        let fuel = self.b.build_load(i64t, self.fuel, "fuel")?.into_int_value();
        let empty =
            self.b
                .build_int_compare(inkwell::IntPredicate::EQ, fuel, i64t.const_zero(), "")?;
        self.fail_if(empty, RuntimeCode::StepLimit, site, None)?;
        let left = self.b.build_int_sub(fuel, i64t.const_int(1, false), "")?;
        self.b.build_store(self.fuel, left)?;
        Ok(())
    }
}
