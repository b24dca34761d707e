//! IIR to the module's entry function: one Wasm function `isu_run` whose
//! locals are the program's variables. Statements ([`stmt`]) and expressions
//! ([`expr`]) are lowered in one walk that reads the language's shared
//! facts where each step starts: only the reads of a LOCAL that may not hold
//! a value yet are checked at run time (definite assignment), and overflow
//! and index checks that the value bounds prove cannot fire are left out.

mod counted;
mod expr;
mod float;
mod hoist;
mod konst;
mod memory;
mod place;
mod stmt;
mod work;

use crate::abi::ErrorCode;
use crate::asm::{Asm, Label, Local};
use crate::layout::{is_heap, val_type};
use crate::module::{g, ModuleBuilder, Rt};
use crate::runtime::{self, StepArg};
use isu_plugin_api::analysis::assigned::Assigned;
use isu_plugin_api::analysis::bounds::{Bounds, Env};
use isu_plugin_api::analysis::proof::checked;
use isu_plugin_api::analysis::Decls;
use isu_plugin_api::RuntimeCode;
use isu_plugin_api::{Program, StepId, Type};
use std::collections::BTreeMap;
use wasm_encoder::ValType;

/// Why a program could not be lowered: it was not canonical and validated
/// (a bug of the caller, never of the program's author).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LowerError {
    pub message: String,
}

pub type Res<T> = Result<T, LowerError>;

pub fn bug<T>(message: impl Into<String>) -> Res<T> {
    Err(LowerError {
        message: message.into(),
    })
}

/// Whether a value on the Wasm stack is a reference of its own (to be
/// dropped or handed on) or borrowed from a variable, a constant or a
/// container that outlives its use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Own {
    Owned,
    Borrowed,
}

#[derive(Debug, Clone)]
pub struct Var {
    pub local: Local,
    pub ty: Type,
    /// For an int or bool LOCAL: 1 once assigned.
    pub flag: Option<Local>,
    /// A LOCAL (only those can be read unassigned).
    pub is_local: bool,
    /// For a string, array, map or struct: the size of its value (`i64`), its share
    /// of the live size ([`memory`]).
    pub size: Option<Local>,
}

/// One step's code range in the entry function, for the source map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepRange {
    pub start: usize,
    pub end: usize,
    pub step: u32,
}

/// The lowered program: the entry function's body, and what the ABI and
/// the source map need to know.
#[derive(Debug)]
pub struct Lowered {
    pub ranges: Vec<StepRange>,
}

/// How fuel is counted: one unit per LOOP round, and (when `per_step`) one
/// per step started as well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FuelModel {
    pub per_step: bool,
}

pub struct Lowering<'m> {
    pub mb: &'m mut ModuleBuilder,
    pub a: Asm,
    pub vars: BTreeMap<String, Var>,
    pub decls: Decls,
    /// The LOCALs that surely hold a value where each step starts.
    pub must: Assigned,
    /// What is known of values where each step starts.
    pub bounds: Bounds,
    /// The step being lowered (`None` in STATE).
    pub here: Option<StepId>,
    /// What is known of values where the code being lowered runs.
    pub env: Env,
    /// The next step's index (steps are numbered in structural pre-order).
    pub next_step: u32,
    pub fuel: Local,
    /// The live size of the variables (`i64`, [`memory`]).
    pub live: Local,
    pub fuel_model: FuelModel,
    pub ranges: Vec<StepRange>,
    pub ret_ty: Type,
    /// Static constants already placed, by (literal, type) text.
    pub consts: BTreeMap<(String, String), u32>,
    /// The function index of each pack function's lowering, by full name
    /// ([`crate::pack`]).
    pub packs: BTreeMap<String, u32>,
    /// For each loop around the code being lowered (innermost last): the
    /// block a `BREAK` leaves and the one a `CONTINUE` leaves (the round's
    /// body, before the step to the next round).
    pub loops: Vec<(Label, Label)>,
    /// The collection variables whose value is surely their own (not
    /// shared) where the code being lowered runs: made so before a loop
    /// that stores into them and never shares them
    /// (`analysis::stable`), so that its element stores skip the test.
    pub owned: Vec<String>,
    /// In the version of a `range` loop without its hoisted index checks:
    /// what the test before its first round proved ([`hoist`]).
    pub hoisted: Option<hoist::Hoisted>,
}

impl std::fmt::Debug for Lowering<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lowering")
            .field("next_step", &self.next_step)
            .finish_non_exhaustive()
    }
}

/// Lowers `program` into the function `run` (declared as `(i32) -> i32`),
/// calling the pack functions at the indices of `packs`.
pub fn lower_program(
    mb: &mut ModuleBuilder,
    run: u32,
    program: &Program,
    fuel_model: FuelModel,
    packs: BTreeMap<String, u32>,
) -> Res<Lowered> {
    let mut a = Asm::new(&[ValType::I32]);
    let args_ptr = a.param(0);
    let fuel = a.local(ValType::I64);
    let live = a.local(ValType::I64);
    let mut vars = BTreeMap::new();
    let decls = program
        .func
        .args
        .iter()
        .map(|d| (&d.name.name, &d.ty, false))
        .chain(program.state.iter().map(|s| (&s.name.name, &s.ty, false)))
        .chain(program.locals.iter().map(|d| (&d.name.name, &d.ty, true)));
    for (name, ty, is_local) in decls {
        let local = a.local(val_type(ty));
        let flag = (is_local && !is_heap(ty)).then(|| a.local(ValType::I32));
        let size = isu_plugin_api::work::has_size(ty).then(|| a.local(ValType::I64));
        if vars
            .insert(
                name.clone(),
                Var {
                    local,
                    ty: ty.clone(),
                    flag,
                    is_local,
                    size,
                },
            )
            .is_some()
        {
            return bug(format!("`{name}` is declared twice"));
        }
    }
    let mut l = Lowering {
        mb,
        a,
        vars,
        decls: Decls::of(program),
        must: Assigned::must(program),
        bounds: checked(program)
            .or_else(|d| bug(format!("the bounds of dropped checks do not check out {d}")))?,
        here: None,
        env: Env::default(),
        next_step: 0,
        fuel,
        live,
        fuel_model,
        ranges: Vec::new(),
        ret_ty: program.func.returns.clone(),
        consts: BTreeMap::new(),
        packs,
        loops: Vec::new(),
        owned: Vec::new(),
        hoisted: None,
    };
    l.a.i32(0)
        .i()
        .global_set(g::ERR_CODE)
        .i32_const(-1)
        .global_set(g::ERR_STEP);
    l.a.get(args_ptr).i().global_set(g::CURSOR);
    l.a.i().global_get(g::MAX_STEPS);
    l.a.set(fuel);
    for d in &program.func.args {
        let dec = l.mb.rt(Rt::Decode(d.ty.clone()));
        let local = l.var(&d.name.name)?.local;
        l.a.i().call(dec);
        l.a.set(local);
        l.mem_arg(&d.name.name)?;
    }
    for (i, s) in program.state.iter().enumerate() {
        l.env = l.bounds.state(i);
        let own = l.expr(&s.init, -1)?;
        l.own(own, &s.ty);
        l.mem_hold(&s.name.name, -1)?;
        let local = l.var(&s.name.name)?.local;
        l.a.set(local);
    }
    l.block(&program.body)?;
    runtime::raise(l.mb, &mut l.a, RuntimeCode::NoReturn, StepArg::Const(-1));
    let ranges = std::mem::take(&mut l.ranges);
    let a = std::mem::replace(&mut l.a, Asm::new(&[]));
    l.mb.define(run, a.finish());
    Ok(Lowered { ranges })
}

impl Lowering<'_> {
    pub fn var(&self, name: &str) -> Res<&Var> {
        match self.vars.get(name) {
            Some(v) => Ok(v),
            None => bug(format!("`{name}` is not declared")),
        }
    }

    /// Makes the value of `ty` on the stack owned.
    pub fn own(&mut self, own: Own, ty: &Type) {
        if own == Own::Borrowed {
            runtime::emit_inc(self.mb, &mut self.a, ty);
        }
    }

    /// Keeps an owned heap value on the stack in a scratch local too, so it
    /// can be dropped after its use ([`Lowering::release_held`]).
    pub fn hold(&mut self, own: Own, ty: &Type) -> Option<(Local, Type)> {
        if own == Own::Owned && is_heap(ty) {
            let t = self.a.temp(ValType::I32);
            self.a.tee(t);
            Some((t, ty.clone()))
        } else {
            None
        }
    }

    /// Drops values kept by [`Lowering::hold`].
    pub fn release_held(&mut self, held: Vec<Option<(Local, Type)>>) {
        for (t, ty) in held.into_iter().flatten() {
            self.a.get(t);
            runtime::emit_drop(self.mb, &mut self.a, &ty);
            self.a.release(t);
        }
    }

    /// Spends one unit of fuel at `step`: `step_limit` when none is left.
    pub fn spend(&mut self, step: i32) {
        let fuel = self.fuel;
        self.a.get(fuel).i().i64_eqz();
        runtime::raise_if(
            self.mb,
            &mut self.a,
            RuntimeCode::StepLimit,
            StepArg::Const(step),
        );
        self.a.get(fuel).i64(1).i().i64_sub();
        self.a.set(fuel);
    }

    /// With an array index (`i64`) on the stack: keeps it in `i` and, unless
    /// the value bounds prove it in range (`proven`), raises
    /// `index_out_of_range` when it is not below the length of the array
    /// in `arr` (one unsigned comparison covers negative indexes too).
    pub fn keep_index(&mut self, i: Local, arr: Local, proven: bool, step: i32) {
        if proven {
            self.a.set(i);
            return;
        }
        self.a.tee(i);
        self.a.get(arr);
        crate::runtime::load32(&mut self.a, crate::layout::LEN);
        self.a.i().i64_extend_i32_u().i64_ge_u();
        self.raise_if(RuntimeCode::IndexOutOfRange, step);
    }

    /// Makes the value of the collection in `local` (of type `ty`) its own:
    /// copied when its count says it is shared.
    pub fn make_own(&mut self, local: Local, ty: &Type) {
        let grow = self.mb.rt(crate::module::Rt::Grow(ty.clone()));
        self.a.get(local);
        crate::runtime::load32(&mut self.a, crate::layout::RC);
        self.a.i32(1).i().i32_ne();
        self.a.if_(wasm_encoder::BlockType::Empty);
        self.a.get(local).i32(0).i().call(grow);
        self.a.set(local);
        self.a.end();
    }

    pub fn raise_if(&mut self, code: impl Into<ErrorCode>, step: i32) {
        runtime::raise_if(self.mb, &mut self.a, code, StepArg::Const(step));
    }
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
