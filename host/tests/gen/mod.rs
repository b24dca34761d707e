//! Random IIR for property tests: proptest strategies for canonical programs.
//!
//! The programs are syntactically complete and canonical (every step has its
//! canonical ID, spans are synthetic, no expression is typed), but they are not
//! meant to validate: names, types and values are drawn freely so that every
//! form the text can express appears, in every combination. Calls name real
//! functions with one of their numbers of arguments, and map keys are int or
//! string, so every program is in the exported grammar's language too. What a
//! program built here must survive is printing and parsing,
//! `parse(print(p)) == p`, and the exported grammars.
//!
//! Use it from a test crate with `mod gen;`. [`program`] is the entry point;
//! the smaller strategies are public so that other tests (fuzzing, the
//! interpreter's property tests) can build their own programs from them.
#![allow(dead_code)]

use isu_plugin_api::{
    BinaryOp, Block, Decl, Example, Expr, ExprNode, Func, Ident, Io, Iter, Literal, Node, Place,
    Program, Span, StateVar, Step, StepId, Type, UnaryOp, IIR_FORMAT,
};
use proptest::prelude::*;
use proptest::sample::select;
use std::collections::BTreeMap;

/// Names that look like parts of the language (operator heads, ITER forms,
/// type names) but are ordinary lower-case identifiers; the printer and parser
/// must not confuse them with what they spell.
const TRICKY_NAMES: &[&str] = &[
    "var", "const", "index", "call", "range", "each", "while", "add", "neg", "not", "and", "or",
    "eq", "int", "bool", "string", "map", "s1", "begin", "end", "x_1", "_", "_tmp",
];

/// Pack functions a call may name besides the standard ones, with their
/// numbers of arguments (the exported grammar's tests declare the same).
pub const PACK_FUNCTIONS: &[(&str, usize)] = &[
    ("geo.DIST", 2),
    ("geo.IS_ORIGIN", 1),
    ("text.pad_left", 3),
    ("m2.F_1", 0),
];

/// Functions a call may name, each with one of its numbers of arguments:
/// the standard ones and some of packs (`ns.NAME`).
fn functions() -> Vec<(&'static str, usize)> {
    let mut out: Vec<(&'static str, usize)> = Vec::new();
    for f in isu_host::stdlib::STDLIB {
        for o in f.overloads {
            if !out.contains(&(f.name, o.params.len())) {
                out.push((f.name, o.params.len()));
            }
        }
    }
    out.extend(PACK_FUNCTIONS);
    out
}

/// A variable or function name: lower-case ASCII words, some of them tricky.
pub fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z][a-z0-9_]{0,6}"
            .prop_filter("true, false and null are literals", |s| {
                !matches!(s.as_str(), "true" | "false" | "null")
            }),
        1 => select(TRICKY_NAMES).prop_map(str::to_owned),
    ]
}

fn ident() -> impl Strategy<Value = Ident> {
    name().prop_map(|name| Ident {
        name,
        span: Span::default(),
    })
}

/// Characters a string may hold: anything, with the ones that need escaping
/// or that some tool might take for a line break drawn often.
fn string_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => any::<char>(),
        2 => select(&[
            '"', '\\', '/', '\n', '\r', '\t', '\u{0}', '\u{8}', '\u{c}', '\u{1f}', '\u{7f}',
            '\u{85}', '\u{a0}', '\u{2028}', '\u{2029}', '\u{feff}', 'é', '語', '😀', ';', '(', ')',
            '{', '}', 'S', ' ',
        ][..]),
        3 => proptest::char::range('a', 'z'),
    ]
}

pub fn string() -> impl Strategy<Value = String> {
    prop::collection::vec(string_char(), 0..10).prop_map(|cs| cs.into_iter().collect())
}

fn int() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => -20i64..20,
        1 => any::<i64>(),
        1 => select(&[i64::MIN, i64::MAX, i64::MIN + 1, -1, 0][..]),
    ]
}

/// Any literal: scalars, and arrays and objects nested up to three deep.
pub fn literal() -> impl Strategy<Value = Literal> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Literal::Bool),
        int().prop_map(Literal::Int),
        string().prop_map(Literal::Str),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Literal::Array),
            prop::collection::btree_map(string(), inner, 0..4).prop_map(Literal::Object),
        ]
    })
}

/// Any type, nested up to three deep, with map keys int or string (as the
/// exported grammar requires; the parser would take any key type and leave
/// it to the validator).
pub fn ty() -> impl Strategy<Value = Type> {
    let leaf = select(&[Type::Int, Type::Bool, Type::String][..]);
    leaf.prop_recursive(3, 8, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(Type::array),
            (select(&[Type::Int, Type::String][..]), inner).prop_map(|(k, v)| Type::map(k, v)),
        ]
    })
}

fn expr_of(node: ExprNode) -> Expr {
    Expr::new(node, Span::default())
}

/// Any expression, nested up to three deep.
pub fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        literal().prop_map(|value| expr_of(ExprNode::Const { value })),
        name().prop_map(|name| expr_of(ExprNode::Var { name })),
    ];
    let funcs = functions();
    leaf.prop_recursive(3, 12, 3, move |inner| {
        prop_oneof![
            (select(&UnaryOp::ALL[..]), inner.clone()).prop_map(|(op, arg)| {
                expr_of(ExprNode::Unary {
                    op,
                    arg: Box::new(arg),
                })
            }),
            (select(&BinaryOp::ALL[..]), inner.clone(), inner.clone()).prop_map(|(op, l, r)| {
                expr_of(ExprNode::Binary {
                    op,
                    lhs: Box::new(l),
                    rhs: Box::new(r),
                })
            }),
            (inner.clone(), inner.clone()).prop_map(|(b, i)| {
                expr_of(ExprNode::Index {
                    base: Box::new(b),
                    index: Box::new(i),
                })
            }),
            (select(funcs.clone()), prop::collection::vec(inner, 0..4)).prop_map(
                |((f, arity), mut args)| {
                    args.resize_with(arity, || expr_of(ExprNode::Var { name: "x".into() }));
                    expr_of(ExprNode::Call {
                        func: f.to_owned(),
                        args,
                    })
                }
            ),
        ]
    })
}

/// An ASSIGN target: a name, or element places nested up to two deep.
pub fn place() -> impl Strategy<Value = Place> {
    let leaf = name().prop_map(|name| Place::Var {
        name,
        span: Span::default(),
    });
    leaf.prop_recursive(2, 2, 1, |inner| {
        (inner, expr()).prop_map(|(base, index)| Place::Index {
            base: Box::new(base),
            index,
            span: Span::default(),
        })
    })
}

/// Every ITER form: range with and without a step, each, while.
pub fn iter() -> impl Strategy<Value = Iter> {
    prop_oneof![
        (ident(), expr(), expr(), prop::option::of(expr())).prop_map(|(var, start, end, step)| {
            Iter::Range {
                var,
                start,
                end,
                step,
                span: Span::default(),
            }
        }),
        (ident(), expr()).prop_map(|(var, seq)| Iter::Each {
            var,
            seq,
            span: Span::default(),
        }),
        expr().prop_map(|cond| Iter::While {
            cond,
            span: Span::default(),
        }),
    ]
}

fn block_of(steps: Vec<Step>) -> Block {
    Block {
        steps,
        span: Span::default(),
    }
}

fn step_of(node: Node, desc: Option<String>) -> Step {
    Step {
        id: None,
        desc,
        span: Span::default(),
        node,
    }
}

fn desc() -> impl Strategy<Value = Option<String>> {
    prop_oneof![3 => Just(None), 1 => string().prop_map(Some)]
}

/// A step without its ID (see [`number`]): all five statements, blocks (empty
/// ones included) nested up to three deep.
pub fn step() -> impl Strategy<Value = Step> {
    let leaf = prop_oneof![
        (place(), expr(), desc())
            .prop_map(|(target, expr, d)| step_of(Node::Assign { target, expr }, d)),
        (expr(), desc()).prop_map(|(expr, d)| step_of(Node::Return { expr }, d)),
    ];
    leaf.prop_recursive(3, 10, 3, |inner| {
        let block = prop::collection::vec(inner, 0..3).prop_map(block_of);
        prop_oneof![
            (block.clone(), desc()).prop_map(|(block, d)| step_of(Node::Seq { block }, d)),
            (expr(), block.clone(), block.clone(), desc()).prop_map(|(cond, t, e, d)| {
                step_of(
                    Node::If {
                        cond,
                        then_block: t,
                        else_block: e,
                    },
                    d,
                )
            }),
            (iter(), block, desc())
                .prop_map(|(iter, body, d)| step_of(Node::Loop { iter, body }, d)),
        ]
    })
}

/// Gives every step of the block (and below) its canonical ID, counting the
/// children of a step across all its blocks. Written here, apart from
/// `canon`, so that the round trip checks canon's numbering too.
pub fn number(block: &mut Block, parent: &[u32]) {
    let mut n = 0;
    number_blocks(vec![block], parent, &mut n);
}

fn number_blocks(blocks: Vec<&mut Block>, parent: &[u32], n: &mut u32) {
    for block in blocks {
        for step in &mut block.steps {
            *n += 1;
            let mut path = parent.to_vec();
            path.push(*n);
            step.id = Some(StepId::from_path(&path));
            let mut m = 0;
            number_blocks(step.node.blocks_mut(), &path, &mut m);
        }
    }
}

fn decl() -> impl Strategy<Value = Decl> {
    (ident(), ty()).prop_map(|(name, ty)| Decl {
        name,
        ty,
        span: Span::default(),
    })
}

fn example(value: impl Strategy<Value = Literal>) -> impl Strategy<Value = Example> {
    value.prop_map(|value| Example {
        value,
        span: Span::default(),
    })
}

/// An IO INPUT example: an object from argument names to values.
fn input_example() -> impl Strategy<Value = Example> {
    example(
        prop::collection::btree_map(name(), literal(), 0..3)
            .prop_map(|m: BTreeMap<_, _>| Literal::Object(m)),
    )
}

/// A whole canonical program, with or without `AUTO_ID`.
pub fn program() -> impl Strategy<Value = Program> {
    let head = (
        any::<bool>(),
        ident(),
        prop::collection::vec(decl(), 0..3),
        ty(),
        prop::collection::vec(input_example(), 0..3),
        prop::collection::vec(example(literal()), 0..3),
    );
    let state = prop::collection::vec(
        (ident(), ty(), expr()).prop_map(|(name, ty, init)| StateVar {
            name,
            ty,
            init,
            span: Span::default(),
        }),
        0..3,
    );
    let locals = prop::collection::vec(decl(), 0..3);
    let steps = prop::collection::vec(step(), 0..4);
    (head, state, locals, steps).prop_map(
        |((auto_id, fname, args, returns, input, output), state, locals, steps)| {
            let mut body = block_of(steps);
            number(&mut body, &[]);
            Program {
                types: Vec::new(),
                format: IIR_FORMAT.to_owned(),
                auto_id,
                func: Func {
                    name: fname,
                    args,
                    returns,
                    span: Span::default(),
                },
                io: Io {
                    input,
                    output,
                    span: Span::default(),
                },
                state,
                locals,
                body,
            }
        },
    )
}
