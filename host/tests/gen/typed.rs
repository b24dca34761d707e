//! Random well-typed programs for differential testing, heavy on int
//! arithmetic at the edges of 64 bits, array indexes and loops (where
//! backends leave out checks they prove cannot fire), and the run that
//! compares a backend with the reference interpreter on them.
//!
//! Shared by the backends' differential tests (`#[path]` to this file):
//! the programs come from a fixed seed, so a failure is reproducible; set
//! `ISU_DIFF_PROGRAMS` for more of them.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use isu_host::diag::has_errors;
use isu_host::interp::{self, RunOptions};
use isu_host::{canon, validate};
use isu_plugin_api::{
    Backend, BinaryOp, Block, CompileOptions, Decl, ExecLimits, ExecOptions, Expr, ExprNode, Func,
    Ident, Io, Iter, Literal, Node, Place, Program, Span, StateVar, Step, Type, UnaryOp,
    IIR_FORMAT,
};

/// xorshift64*: a small deterministic generator.
pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn name(&mut self, from: &[&'static str]) -> &'static str {
        from[self.below(from.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const INTS: &[&str] = &["a", "b", "c", "t", "u"];
const EDGES: &[i64] = &[
    0,
    1,
    -1,
    2,
    3,
    7,
    -7,
    16,
    201,
    1 << 31,
    3_037_000_499,
    3_037_000_500,
    i64::MAX,
    i64::MIN,
    i64::MAX - 1,
    i64::MIN + 1,
];

fn sp() -> Span {
    Span::default()
}

fn expr(node: ExprNode) -> Expr {
    Expr::new(node, sp())
}

fn int(v: i64) -> Expr {
    expr(ExprNode::Const {
        value: Literal::Int(v),
    })
}

fn var(n: &str) -> Expr {
    expr(ExprNode::Var { name: n.into() })
}

fn bin(op: BinaryOp, l: Expr, r: Expr) -> Expr {
    expr(ExprNode::Binary {
        op,
        lhs: Box::new(l),
        rhs: Box::new(r),
    })
}

fn call(f: &str, args: Vec<Expr>) -> Expr {
    expr(ExprNode::Call {
        func: f.into(),
        args,
    })
}

pub struct Gen {
    pub rng: Rng,
}

impl Gen {
    fn int_expr(&mut self, depth: usize) -> Expr {
        if depth == 0 || self.rng.chance(25) {
            return if self.rng.chance(55) {
                var(self.rng.name(INTS))
            } else {
                int(*self.rng.pick(EDGES))
            };
        }
        let d = depth - 1;
        match self.rng.below(12) {
            0..=4 => {
                let op = *self.rng.pick(&[
                    BinaryOp::Add,
                    BinaryOp::Sub,
                    BinaryOp::Mul,
                    BinaryOp::Div,
                    BinaryOp::Mod,
                ]);
                let l = self.int_expr(d);
                let r = if self.rng.chance(40) {
                    int(*self.rng.pick(EDGES))
                } else {
                    self.int_expr(d)
                };
                bin(op, l, r)
            }
            5 => expr(ExprNode::Unary {
                op: UnaryOp::Neg,
                arg: Box::new(self.int_expr(d)),
            }),
            6 => call(self.rng.name(&["ABS"]), vec![self.int_expr(d)]),
            7 => {
                let f = self.rng.name(&["MIN", "MAX"]);
                call(f, vec![self.int_expr(d), self.int_expr(d)])
            }
            8 => call("LEN", vec![var(self.rng.name(&["xs", "ys"]))]),
            9 | 10 => expr(ExprNode::Index {
                base: Box::new(var(self.rng.name(&["xs", "ys"]))),
                index: Box::new(match self.rng.below(4) {
                    0 | 1 => var("i"),
                    2 => int(self.rng.below(3) as i64),
                    _ => self.int_expr(d),
                }),
            }),
            _ => {
                let x = self.int_expr(d);
                bin(BinaryOp::Mul, x.clone(), x)
            }
        }
    }

    fn cond(&mut self, depth: usize) -> Expr {
        if depth > 0 && self.rng.chance(25) {
            let op = *self.rng.pick(&[BinaryOp::And, BinaryOp::Or]);
            return bin(op, self.cond(depth - 1), self.cond(depth - 1));
        }
        if depth > 0 && self.rng.chance(10) {
            return expr(ExprNode::Unary {
                op: UnaryOp::Not,
                arg: Box::new(self.cond(depth - 1)),
            });
        }
        let op = *self.rng.pick(&[
            BinaryOp::Lt,
            BinaryOp::Le,
            BinaryOp::Gt,
            BinaryOp::Ge,
            BinaryOp::Eq,
            BinaryOp::Ne,
        ]);
        bin(op, self.int_expr(2), self.int_expr(2))
    }

    fn step(&mut self, depth: usize) -> Node {
        match self.rng.below(if depth == 0 { 4 } else { 7 }) {
            0 | 1 => Node::Assign {
                target: Place::Var {
                    name: (self.rng.name(&["t", "u", "c"])).into(),
                    span: sp(),
                },
                expr: self.int_expr(3),
            },
            2 => Node::Assign {
                target: Place::Var {
                    name: "ys".into(),
                    span: sp(),
                },
                expr: call("PUSH", vec![var("ys"), self.int_expr(2)]),
            },
            3 => Node::Assign {
                target: Place::Index {
                    base: Box::new(Place::Var {
                        name: (self.rng.name(&["xs", "ys"])).into(),
                        span: sp(),
                    }),
                    index: self.int_expr(2),
                    span: sp(),
                },
                expr: self.int_expr(2),
            },
            4 => Node::If {
                cond: self.cond(2),
                then_block: self.block(depth - 1, 3),
                else_block: self.block(depth - 1, 2),
            },
            5 => Node::Loop {
                iter: Iter::Range {
                    var: Ident {
                        name: "i".into(),
                        span: sp(),
                    },
                    start: int(self.rng.below(3) as i64),
                    end: if self.rng.chance(50) {
                        call("LEN", vec![var("xs")])
                    } else {
                        int(self.rng.below(6) as i64)
                    },
                    step: None,
                    span: sp(),
                },
                body: self.block(depth - 1, 3),
            },
            _ => Node::Loop {
                iter: Iter::Each {
                    var: Ident {
                        name: "t".into(),
                        span: sp(),
                    },
                    seq: var("xs"),
                    span: sp(),
                },
                body: self.block(depth - 1, 3),
            },
        }
    }

    fn block(&mut self, depth: usize, most: usize) -> Block {
        let n = self.rng.below(most + 1);
        Block {
            steps: (0..n)
                .map(|_| Step {
                    id: None,
                    desc: None,
                    span: sp(),
                    node: self.step(depth),
                })
                .collect(),
            span: sp(),
        }
    }

    pub fn program(&mut self) -> Program {
        let decl = |n: &str, ty: Type| Decl {
            name: Ident {
                name: n.into(),
                span: sp(),
            },
            ty,
            span: sp(),
        };
        let ints = Type::array(Type::Int);
        let mut body = self.block(3, 6);
        body.steps.push(Step {
            id: None,
            desc: None,
            span: sp(),
            node: Node::Return {
                expr: call(
                    "PUSH",
                    vec![call("PUSH", vec![var("ys"), self.int_expr(2)]), var("t")],
                ),
            },
        });
        let p = Program {
            format: IIR_FORMAT.into(),
            auto_id: true,
            func: Func {
                name: Ident {
                    name: "random".into(),
                    span: sp(),
                },
                args: vec![
                    decl("a", Type::Int),
                    decl("b", Type::Int),
                    decl("xs", ints.clone()),
                ],
                returns: ints.clone(),
                span: sp(),
            },
            io: Io {
                input: vec![],
                output: vec![],
                span: sp(),
            },
            state: ["c", "t", "u"]
                .iter()
                .map(|n| StateVar {
                    name: Ident {
                        name: (*n).into(),
                        span: sp(),
                    },
                    ty: Type::Int,
                    init: int(*self.rng.pick(&[0, 1, -1, 5])),
                    span: sp(),
                })
                .chain(std::iter::once(StateVar {
                    name: Ident {
                        name: "ys".into(),
                        span: sp(),
                    },
                    ty: ints.clone(),
                    init: expr(ExprNode::Const {
                        value: Literal::Array(vec![]),
                    }),
                    span: sp(),
                }))
                .collect(),
            locals: vec![decl("i", Type::Int)],
            body,
        };
        p
    }

    pub fn args(&mut self) -> Literal {
        let mut m = std::collections::BTreeMap::new();
        let small = |rng: &mut Rng| {
            if rng.chance(70) {
                Literal::Int(rng.below(9) as i64 - 4)
            } else {
                Literal::Int(*rng.pick(EDGES))
            }
        };
        m.insert("a".into(), small(&mut self.rng));
        m.insert("b".into(), small(&mut self.rng));
        let n = self.rng.below(5);
        let xs = (0..n)
            .map(|_| {
                if self.rng.chance(75) {
                    Literal::Int(self.rng.below(11) as i64 - 5)
                } else {
                    Literal::Int(*self.rng.pick(EDGES))
                }
            })
            .collect();
        m.insert("xs".into(), Literal::Array(xs));
        Literal::Object(m)
    }
}

pub fn outcome_interp(p: &Program, args: &Literal, opts: &RunOptions) -> String {
    let json = serde_json::to_value(args).unwrap();
    match interp::run(p, &json, opts, None) {
        Ok(v) => v.to_string(),
        Err(d) => format!(
            "error {} at {}",
            d.code.as_str(),
            d.step.map_or("-".to_owned(), |s| s.to_string())
        ),
    }
}

/// Runs `count` random programs (from `seed`), each on three random
/// argument sets, through the interpreter and `backend`; the differences,
/// each with the program, and a summary line.
pub fn differential(
    backend: &dyn Backend,
    name: &str,
    count: usize,
    seed: u64,
) -> (Vec<String>, String) {
    let mut gen = Gen { rng: Rng(seed) };
    let (mut checked, mut runs, mut failures) = (0, 0, Vec::new());
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    let mut attempts = 0;
    while checked < count && attempts < count * 20 {
        attempts += 1;
        let mut p = gen.program();
        let mut diags = canon::canonicalize(&mut p);
        diags.extend(validate::validate(&mut p));
        if has_errors(&diags) {
            continue;
        }
        checked += 1;
        let artifacts = match backend.compile(&p, &CompileOptions::default()) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!(
                    "{name} could not compile: {e:?}\n{}",
                    serde_json::to_string_pretty(&p).unwrap()
                ));
                continue;
            }
        };
        for run in 0..3 {
            let args = gen.args();
            // The last run of each program has a small step budget, which
            // loops often spend: every executor stops at the same LOOP.
            let opts = RunOptions {
                max_steps: if run == 2 {
                    gen.rng.below(12) as u64
                } else {
                    10_000
                },
                max_size: 1000,
            };
            let limits = ExecLimits {
                max_steps: opts.max_steps,
                max_size: opts.max_size as u64,
            };
            runs += 1;
            let want = outcome_interp(&p, &args, &opts);
            let got = match backend.execute(&artifacts, &args, &ExecOptions::new(limits)) {
                Ok(v) => v.to_string(),
                Err(d) => format!("error {} at {}", d.code, d.step.as_deref().unwrap_or("-")),
            };
            let kind = want.split(" at ").next().unwrap_or("").to_owned();
            let kind = if kind.starts_with("error") {
                kind
            } else {
                "value".to_owned()
            };
            *kinds.entry(kind).or_default() += 1;
            if got != want {
                failures.push(format!(
                    "args {args}: interpreter {want}, {name} {got}\n{}",
                    serde_json::to_string_pretty(&p).unwrap()
                ));
            }
        }
    }
    assert!(
        checked * 2 >= count,
        "only {checked} of {attempts} random programs validated"
    );
    let summary = format!(
        "differential: {checked} programs, {runs} runs (the interpreter gives {kinds:?}), {} differ",
        failures.len()
    );
    (failures, summary)
}

/// The number of programs: `ISU_DIFF_PROGRAMS`, else `default`.
pub fn program_count(default: usize) -> usize {
    std::env::var("ISU_DIFF_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}
