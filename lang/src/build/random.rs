//! Random valid, terminating programs for differential testing of executors
//! (`isu fuzz`, `isu_host::differential`, each backend's differential
//! test), and random arguments and limits for them. One seed fixes
//! everything: the same seed gives the same programs, byte for byte.
//!
//! A program declares ARGS, STATE and LOCAL variables of types drawn from
//! every type of the language (ints, floats, bools, strings, structs of `TYPES`,
//! arrays and maps of them, nested), and its steps use every statement kind and ITER form
//! ([`steps`]) with `BREAK` and `CONTINUE` ([`exits`]), the expression forms
//! of language 2.1 ([`forms`]), and every standard function, chosen from the table by
//! signature, and the extra functions given ([`Function`]: a pack's), so a
//! new function is covered without a change here ([`exprs`]). Runtime
//! errors come on purpose: ints at the edges of 64 bits overflow and divide
//! by zero, indexes and keys miss, `POP` empties, `REPEAT` counts go
//! negative, strings fail `PARSE_INT` and `PARSE_FLOAT`, floats leave
//! their range and meet a zero divisor ([`floats`]), and [`RandomPrograms::limits`] makes
//! the step, size and memory limits tight now and then. Loops end by
//! themselves or at the step limit, so every run ends.
//!
//! Most programs validate; the caller checks each with the front end and
//! skips the others.

mod edges;
mod exits;
mod exprs;
mod floats;
mod forms;
mod rng;
mod steps;
mod values;

use crate::iir::*;
use crate::limits::ExecLimits;
use crate::literal::Literal;
use crate::types::Type;
use exprs::{constant, sp, Gen, Var};
use rng::Rng;
use steps::{block, place, step, Steps};

/// A function a program may call besides the standard ones: a pack's, by its
/// full name (`math.GCD`) and signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The full name: `math.GCD`.
    pub name: String,
    /// The parameters' types.
    pub params: Vec<Type>,
    /// The result's type.
    pub ret: Type,
}

/// The roomy limits of most runs: small enough that a loop which goes on
/// ends soon.
pub const LIMITS: ExecLimits = ExecLimits {
    max_steps: 10_000,
    max_size: 1000,
    max_memory: 4000,
};

/// A source of random programs, arguments and limits.
#[derive(Debug)]
pub struct RandomPrograms {
    rng: Rng,
    functions: Vec<Function>,
}

impl RandomPrograms {
    /// The programs of one seed: the same seed gives the same programs.
    pub fn new(seed: u64) -> RandomPrograms {
        RandomPrograms {
            rng: Rng::new(seed),
            functions: Vec::new(),
        }
    }

    /// The generator of program number `index` of a run seeded `seed`:
    /// independent of every other index, so that a run can be split into
    /// shards that together make exactly the programs of the whole run.
    pub fn nth(seed: u64, index: u64) -> RandomPrograms {
        RandomPrograms::new(rng::mix(rng::mix(seed) ^ index))
    }

    /// The same, with calls of `functions` besides the standard ones.
    pub fn with_functions(mut self, functions: Vec<Function>) -> RandomPrograms {
        self.functions = functions;
        self
    }

    /// A number below `n` from the same stream, for a caller's own choices.
    pub fn below(&mut self, n: usize) -> usize {
        self.rng.below(n)
    }

    /// A random type, nested at most `depth` deep, with int or string keys;
    /// its innermost types are scalars or the structs of `structs`.
    fn ty(&mut self, depth: usize, structs: &[StructDef]) -> Type {
        let mut leaves = vec![Type::Int, Type::Float, Type::Bool, Type::String];
        leaves.extend(structs.iter().map(|d| Type::Struct(d.name.name.clone())));
        if depth == 0 || self.rng.chance(40) {
            return self.rng.pick(&leaves).clone();
        }
        if self.rng.chance(60) {
            Type::array(self.ty(depth - 1, structs))
        } else {
            let key = if self.rng.chance(50) {
                Type::Int
            } else {
                Type::String
            };
            Type::map(key, self.ty(depth - 1, structs))
        }
    }

    /// The structs of a program, a third of the time: one or two (`t0`,
    /// `t1`), each of one to three fields (`f0`, ...) of scalars, arrays of
    /// them and the structs declared before it (so none holds itself).
    fn structs(&mut self) -> Vec<StructDef> {
        let mut out: Vec<StructDef> = Vec::new();
        if !self.rng.chance(33) {
            return out;
        }
        for n in 0..1 + self.rng.below(2) {
            let fields = (0..1 + self.rng.below(3))
                .map(|f| Decl {
                    name: ident(&format!("f{f}")),
                    ty: self.ty(1, &out),
                    span: sp(),
                })
                .collect();
            out.push(StructDef {
                name: ident(&format!("t{n}")),
                fields,
                span: sp(),
            });
        }
        out
    }

    /// A program: one to three ARGS (`a0`, ...), one to three STATE
    /// variables (`s0`, ...), up to two LOCALs set first (`l0`, ...) and the
    /// loop variables its loops make (`i`, `e`, `w`, `j` with a number);
    /// steps nested three deep, ending with a RETURN. Its steps have no IDs
    /// (canonicalize it first) and its expressions no types (validate it).
    pub fn program(&mut self) -> Program {
        let structs = self.structs();
        let mut types = vec![Type::Int, Type::Bool, Type::String, Type::array(Type::Int)];
        types.extend(structs.iter().map(|d| Type::Struct(d.name.name.clone())));
        for _ in 0..1 + self.rng.below(3) {
            let t = self.ty(2, &structs);
            if !types.contains(&t) {
                types.push(t);
            }
        }
        let returns = self.rng.pick(&types).clone();
        let decls = |rng: &mut Rng, prefix: &str, most: usize| -> Vec<Var> {
            (0..1 + rng.below(most))
                .map(|n| Var {
                    name: format!("{prefix}{n}"),
                    ty: rng.pick(&types).clone(),
                })
                .collect()
        };
        let args = decls(&mut self.rng, "a", 3);
        let state_vars = decls(&mut self.rng, "s", 3);
        let locals = if self.rng.chance(70) {
            decls(&mut self.rng, "l", 2)
        } else {
            Vec::new()
        };
        let functions = std::mem::take(&mut self.functions);
        let mut gen = Gen {
            rng: &mut self.rng,
            vars: args.clone(),
            types: types.clone(),
            functions: &functions,
            safe: Vec::new(),
            structs: &structs,
        };
        // Each STATE initializer reads the ARGS and the STATE before it.
        let mut state = Vec::new();
        for v in &state_vars {
            let init = if gen.rng.chance(60) && !values::holds_struct(&v.ty) {
                constant(values::value(gen.rng, &v.ty, 3, &[]))
            } else {
                gen.expr(&v.ty, 2)
            };
            state.push(StateVar {
                name: ident(&v.name),
                ty: v.ty.clone(),
                init,
                span: sp(),
            });
            gen.vars.push(v.clone());
        }
        let mut first = Vec::new();
        let mut unset = Vec::new();
        for l in &locals {
            // Now and then a LOCAL is left for a later step to set (or not).
            if gen.rng.chance(80) {
                let e = gen.expr(&l.ty, 2);
                first.push(step(Node::Assign {
                    target: place(&l.name),
                    expr: e,
                }));
                gen.vars.push(l.clone());
            } else {
                unset.push(l.clone());
            }
        }
        let mut s = Steps {
            gen,
            returns: returns.clone(),
            locals: locals.clone(),
            unset,
            loops: Vec::new(),
        };
        let mut steps = first;
        steps.extend(s.block(3, 6).steps);
        if !matches!(steps.last().map(|s| &s.node), Some(Node::Return { .. })) {
            let e = s.gen.expr(&returns, 3);
            steps.push(step(Node::Return { expr: e }));
        }
        let locals = s.locals;
        self.functions = functions;
        Program {
            types: structs,
            format: IIR_FORMAT.into(),
            auto_id: true,
            func: Func {
                name: ident("random"),
                args: args.iter().map(decl).collect(),
                returns,
                span: sp(),
            },
            io: Io {
                input: vec![],
                output: vec![],
                span: sp(),
            },
            state,
            locals: locals.iter().map(decl).collect(),
            body: block(steps),
        }
    }

    /// Arguments for `program`: a value of each of its ARGS' types.
    pub fn args(&mut self, program: &Program) -> Literal {
        let m = program
            .func
            .args
            .iter()
            .map(|d| {
                let v = values::value(&mut self.rng, &d.ty, 4, &program.types);
                (d.name.name.clone(), v)
            })
            .collect();
        Literal::Object(m)
    }

    /// The limits of a program's runs: [`LIMITS`] most of the time, else
    /// some of them tight, so that runs stop at each limit.
    pub fn limits(&mut self) -> ExecLimits {
        let mut l = LIMITS;
        if self.rng.chance(70) {
            return l;
        }
        if self.rng.chance(60) {
            l.max_steps = self.rng.below(40) as u64;
        }
        if self.rng.chance(40) {
            l.max_size = self.rng.below(12) as u64;
        }
        if self.rng.chance(40) {
            l.max_memory = self.rng.below(60) as u64;
        }
        l
    }
}

fn ident(name: &str) -> Ident {
    Ident {
        name: name.into(),
        span: sp(),
    }
}

fn decl(v: &Var) -> Decl {
    Decl {
        name: ident(&v.name),
        ty: v.ty.clone(),
        span: sp(),
    }
}
