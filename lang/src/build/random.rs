//! Random well-typed programs, for differential tests of executors: heavy on
//! int arithmetic at the edges of 64 bits, array indexes and loops (where
//! executors leave out the checks the value bounds prove cannot fire), and
//! random arguments for them. A seed fixes the programs, so a failure is
//! reproducible.

use crate::iir::*;
use crate::literal::Literal;
use crate::types::Type;

/// xorshift64*: a small deterministic generator.
#[derive(Debug)]
struct Rng(u64);

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

/// A source of random well-typed programs and of arguments for them.
#[derive(Debug)]
pub struct RandomPrograms {
    rng: Rng,
}

impl RandomPrograms {
    /// The programs of one seed: the same seed gives the same programs.
    pub fn new(seed: u64) -> RandomPrograms {
        // xorshift needs a state other than 0.
        RandomPrograms { rng: Rng(seed | 1) }
    }

    /// A number below `n` from the same stream, for a caller's own choices
    /// (a run's step budget).
    pub fn below(&mut self, n: usize) -> usize {
        self.rng.below(n)
    }

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
            8 => {
                let arr = var(self.rng.name(&["xs", "ys"]));
                match self.rng.below(4) {
                    0 => call("INDEX_OF", vec![arr, self.int_expr(d)]),
                    1 => call("INDEX_OF", vec![call("SORT", vec![arr]), self.int_expr(d)]),
                    _ => call("LEN", vec![arr]),
                }
            }
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
        if depth > 0 && self.rng.chance(5) {
            let arr = var(self.rng.name(&["xs", "ys"]));
            return call("CONTAINS", vec![arr, self.int_expr(depth - 1)]);
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
        match self.rng.below(if depth == 0 { 4 } else { 8 }) {
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
            6 => self.shift_down(depth),
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

    /// The inner loop of insertion sort: `j` from an index down while the
    /// element at `j` is above a bound, each element moved one up.
    fn shift_down(&mut self, depth: usize) -> Node {
        let arr = self.rng.name(&["xs", "ys"]);
        let start = if self.rng.chance(50) {
            bin(BinaryOp::Sub, var("i"), int(1))
        } else {
            bin(BinaryOp::Sub, call("LEN", vec![var(arr)]), int(1))
        };
        let set_j = Node::Assign {
            target: Place::Var {
                name: "j".into(),
                span: sp(),
            },
            expr: start,
        };
        let cond = bin(
            BinaryOp::And,
            bin(BinaryOp::Ge, var("j"), int(0)),
            bin(
                BinaryOp::Gt,
                expr(ExprNode::Index {
                    base: Box::new(var(arr)),
                    index: Box::new(var("j")),
                }),
                self.int_expr(1),
            ),
        );
        let place = |index: Expr| Place::Index {
            base: Box::new(Place::Var {
                name: arr.into(),
                span: sp(),
            }),
            index,
            span: sp(),
        };
        let shift = Node::Assign {
            target: place(bin(BinaryOp::Add, var("j"), int(1))),
            expr: expr(ExprNode::Index {
                base: Box::new(var(arr)),
                index: Box::new(var("j")),
            }),
        };
        let down = Node::Assign {
            target: Place::Var {
                name: "j".into(),
                span: sp(),
            },
            expr: bin(BinaryOp::Sub, var("j"), int(1)),
        };
        let mut body = vec![shift, down];
        if self.rng.chance(30) {
            body.insert(1, self.step(depth - 1));
        }
        let step = |node| Step {
            id: None,
            desc: None,
            span: sp(),
            node,
        };
        let looped = Node::Loop {
            iter: Iter::While { cond, span: sp() },
            body: Block {
                steps: body.into_iter().map(step).collect(),
                span: sp(),
            },
        };
        Node::Seq {
            block: Block {
                steps: vec![step(set_j), step(looped)],
                span: sp(),
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

    /// A program: ARGS `a`, `b` (ints) and `xs` (an int array), STATE `c`,
    /// `t`, `u` (ints) and `ys` (an int array), LOCAL `i`, `j`; it returns
    /// `ys` with two more ints. Its steps have no IDs (canonicalize it first)
    /// and its expressions no types (validate it); most such programs
    /// validate.
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
            locals: vec![decl("i", Type::Int), decl("j", Type::Int)],
            body,
        };
        p
    }

    /// Arguments for a program: small ints and edge values.
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
