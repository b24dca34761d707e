use super::*;
use crate::analysis::bounds::mutation::{Kind, Mutation};
use crate::analysis::bounds::tests::insertion_sort;
use crate::build::*;
use crate::iir::{BinaryOp as B, Expr};
use crate::types::Type;

fn int_t() -> Type {
    Type::Int
}

fn ints() -> Type {
    Type::array(Type::Int)
}

fn len(name: &str) -> Expr {
    call("LEN", vec![var(name, ints())], int_t())
}

/// Sums the elements below a limit, skipping negatives (CONTINUE) and
/// stopping at the first 0 (BREAK), from a STATE total, then counts down.
fn breaks_and_continues() -> Program {
    let xs = || var("xs", ints());
    let i = || var("i", int_t());
    let s = || var("s", int_t());
    let n = || var("n", int_t());
    program(
        "f",
        &[("xs", ints()), ("c", Type::Bool)],
        int_t(),
        vec![("s", int_t(), int(0))],
        &[
            ("i", int_t()),
            ("n", int_t()),
            ("v", int_t()),
            ("ys", ints()),
        ],
        vec![
            set(
                "S1",
                "ys",
                lit(crate::literal::Literal::Array(vec![]), ints()),
            ),
            range(
                "S2",
                "i",
                int(0),
                len("xs"),
                None,
                vec![
                    set("S2_1", "v", idx(xs(), i())),
                    if_(
                        "S2_2",
                        bin(B::Lt, var("v", int_t()), int(0)),
                        vec![cont("S2_2_1")],
                        vec![],
                    ),
                    if_(
                        "S2_3",
                        bin(B::Eq, var("v", int_t()), int(0)),
                        vec![brk("S2_3_1")],
                        vec![],
                    ),
                    set(
                        "S2_4",
                        "s",
                        call("MIN", vec![bin(B::Add, s(), int(1)), int(100)], int_t()),
                    ),
                    set(
                        "S2_5",
                        "ys",
                        call("PUSH", vec![var("ys", ints()), i()], ints()),
                    ),
                ],
            ),
            set("S3", "n", bin(B::Mul, s(), int(2))),
            while_(
                "S4",
                bin(B::Gt, n(), int(0)),
                vec![
                    set("S4_1", "n", bin(B::Sub, n(), int(1))),
                    if_("S4_2", var("c", Type::Bool), vec![brk("S4_2_1")], vec![]),
                ],
            ),
            ret("S5", bin(B::Add, n(), s())),
        ],
    )
}

/// Nested loops over a matrix's rows and a counter that only grows.
fn nested() -> Program {
    let k = || var("k", int_t());
    program(
        "g",
        &[("rows", Type::array(ints()))],
        int_t(),
        vec![],
        &[
            ("row", ints()),
            ("x", int_t()),
            ("k", int_t()),
            ("j", int_t()),
        ],
        vec![
            set("S1", "k", int(0)),
            each(
                "S2",
                "row",
                var("rows", Type::array(ints())),
                vec![
                    range(
                        "S2_1",
                        "j",
                        int(0),
                        bin(B::Sub, len("row"), int(1)),
                        None,
                        vec![
                            set("S2_1_1", "x", idx(var("row", ints()), var("j", int_t()))),
                            set("S2_1_2", "k", bin(B::Add, k(), int(1))),
                        ],
                    ),
                    set("S2_2", "k", bin(B::Add, k(), int(2))),
                ],
            ),
            ret("S3", k()),
        ],
    )
}

fn corpus() -> Vec<Program> {
    vec![insertion_sort(), breaks_and_continues(), nested()]
}

#[test]
fn the_checker_accepts_the_analysis() {
    for p in corpus() {
        let b = Bounds::of(&p);
        assert_eq!(check(&p, &b), Ok(()), "{}", p.func.name.name);
        assert!(checked(&p).is_ok());
    }
}

/// Every mutation of every fact of every point: dropped, widened, each
/// bound shifted by one either way. The checker must refuse each one; this
/// test fails on the first it accepts.
#[test]
fn the_checker_refuses_every_mutation() {
    let kinds = [
        Kind::Drop,
        Kind::Widen,
        Kind::Shift(false, -1),
        Kind::Shift(false, 1),
        Kind::Shift(true, -1),
        Kind::Shift(true, 1),
    ];
    let mut tried = 0;
    let mut accepted = Vec::new();
    for p in corpus() {
        let b = Bounds::of(&p);
        for (point, env) in b.points() {
            for fact in env.facts() {
                for kind in kinds {
                    let m = Mutation {
                        point: point.clone(),
                        fact: fact.clone(),
                        kind,
                    };
                    let Some(wrong) = b.mutated(&m) else {
                        continue;
                    };
                    tried += 1;
                    if check(&p, &wrong).is_ok() {
                        accepted.push((p.func.name.name.clone(), m));
                    }
                }
            }
        }
    }
    assert!(tried > 100, "only {tried} mutations");
    assert!(
        accepted.is_empty(),
        "{} of {tried} mutations accepted: {accepted:#?}",
        accepted.len()
    );
}

/// The historical hole: a loop's head that ignores what the body gives
/// (the facts before the loop taken for the head) is refused where the
/// body's end does not hold there.
#[test]
fn a_head_without_the_body_is_refused() {
    let p = breaks_and_continues();
    let b = Bounds::of(&p);
    let head = b.head(&StepId::parse("S4").unwrap_or_else(|| StepId::from_path(&[4])));
    assert!(head.var_interval("n").lo <= 0, "{head:?}");
    let d = check(&p, &Bounds::of_first_round_only(&p)).unwrap_err();
    assert!(
        d.message.contains("does not hold at the loop's head"),
        "{d}"
    );
}
