use super::*;
use crate::analysis::interval::{Interval, MAX, MAX_LEN, MIN};
use crate::build::*;
use crate::iir::{BinaryOp as B, Expr};
use crate::types::Type;

fn id(s: &str) -> StepId {
    StepId::parse(s).unwrap_or_else(|| StepId::from_path(&[99]))
}

fn int_t() -> Type {
    Type::Int
}

fn ints() -> Type {
    Type::array(Type::Int)
}

fn len(name: &str) -> Expr {
    call("LEN", vec![var(name, ints())], int_t())
}

#[test]
fn conditions_bound_their_variables() {
    let j = || var("j", int_t());
    let xs = || var("xs", ints());
    // (and (ge j 0) (gt (index xs j) key)) holds: 0 <= j < MAX_LEN, j < LEN(xs).
    let cond = bin(
        B::And,
        bin(B::Ge, j(), int(0)),
        bin(B::Gt, idx(xs(), j()), var("key", int_t())),
    );
    let env = Env::default().learned(&cond, true);
    assert_eq!(env.var_interval("j"), Interval::new(0, MAX_LEN - 1));
    assert!(env.is_below("j", "xs"));
    // It failed: nothing is known about j (either part may be false).
    let env = Env::default().learned(&cond, false);
    assert_eq!(env.var_interval("j"), Interval::FULL);
    assert!(!env.is_below("j", "xs"));
    // (not (lt 10 i)): i <= 10.
    let env = Env::default().learned(&not(bin(B::Lt, int(10), var("i", int_t()))), true);
    assert_eq!(env.var_interval("i"), Interval::new(MIN, 10));
    // (lt i n) with n unknown says nothing of i's lower bound.
    let env = Env::default().learned(&bin(B::Lt, var("i", int_t()), var("n", int_t())), true);
    assert_eq!(env.var_interval("i").lo, MIN);
    // (gt (LEN xs) i) and (le i (sub (LEN xs) 1)): i is below LEN(xs).
    let env = Env::default().learned(&bin(B::Gt, len("xs"), var("i", int_t())), true);
    assert!(env.is_below("i", "xs"));
    let le = bin(B::Le, var("i", int_t()), bin(B::Sub, len("xs"), int(1)));
    assert!(Env::default().learned(&le, true).is_below("i", "xs"));
    let le0 = bin(B::Le, var("i", int_t()), len("xs"));
    assert!(!Env::default().learned(&le0, true).is_below("i", "xs"));
}

#[test]
fn branches_meet_in_what_both_know() {
    let mut a = Env::default();
    a.assign("x", Some(Interval::new(0, 5)));
    a.assign("y", Some(Interval::new(1, 1)));
    a.set_index_facts("x", vec!["xs".into()]);
    let mut b = Env::default();
    b.assign("x", Some(Interval::new(3, 9)));
    let j = a.join(&b);
    assert_eq!(j.var_interval("x"), Interval::new(0, 9));
    assert_eq!(j.var_interval("y"), Interval::FULL);
    assert!(!j.is_below("x", "xs"));
    assert_eq!(a.join(&a), a);
}

/// Insertion sort, as models write it.
pub(crate) fn insertion_sort() -> Program {
    let a = || var("a", ints());
    let i = || var("i", int_t());
    let j = || var("j", int_t());
    program(
        "sort",
        &[("a", ints())],
        ints(),
        vec![],
        &[("i", int_t()), ("j", int_t()), ("key", int_t())],
        vec![
            range(
                "S1",
                "i",
                int(1),
                len("a"),
                None,
                vec![
                    set("S1_1", "key", idx(a(), i())),
                    set("S1_2", "j", bin(B::Sub, i(), int(1))),
                    while_(
                        "S1_3",
                        bin(
                            B::And,
                            bin(B::Ge, j(), int(0)),
                            bin(B::Gt, idx(a(), j()), var("key", int_t())),
                        ),
                        vec![
                            assign(
                                "S1_3_1",
                                pidx(pvar("a"), bin(B::Add, j(), int(1))),
                                idx(a(), j()),
                            ),
                            set("S1_3_2", "j", bin(B::Sub, j(), int(1))),
                        ],
                    ),
                    assign(
                        "S1_4",
                        pidx(pvar("a"), bin(B::Add, j(), int(1))),
                        var("key", int_t()),
                    ),
                ],
            ),
            ret("S2", a()),
        ],
    )
}

#[test]
fn insertion_sort_reads_in_bounds_and_cannot_overflow() {
    let p = insertion_sort();
    let b = Bounds::of(&p);
    let i = var("i", int_t());
    let j = var("j", int_t());
    // a[i] in the range loop over LEN(a).
    let s1_1 = b.before(&id("S1_1"));
    assert_eq!(s1_1.var_interval("i"), Interval::new(1, MAX_LEN - 1));
    assert!(s1_1.index_in_bounds(&i, "a"));
    // j = i - 1 cannot overflow, and j stays below LEN(a).
    let s1_2 = b.before(&id("S1_2"));
    assert!((s1_2.interval(&i) - Interval::exact(1)).fits());
    let s1_3 = b.before(&id("S1_3"));
    assert!(s1_3.is_below("j", "a"));
    // In the COND, on the right of (ge j 0): a[j] is in bounds.
    let head = b.head(&id("S1_3"));
    assert!(!head.index_in_bounds(&j, "a"), "j may be -1 at the head");
    let right = head.learned(&bin(B::Ge, j.clone(), int(0)), true);
    assert!(right.index_in_bounds(&j, "a"));
    // In the body: a[j] is in bounds, j + 1 and j - 1 cannot overflow, but
    // nothing says j + 1 is below LEN(a).
    let body = b.before(&id("S1_3_1"));
    assert!(body.index_in_bounds(&j, "a"));
    assert!(!body.index_in_bounds(&bin(B::Add, j.clone(), int(1)), "a"));
    assert!((body.interval(&j) + Interval::exact(1)).fits());
    assert!((b.before(&id("S1_3_2")).interval(&j) - Interval::exact(1)).fits());
    // After the loop, j + 1 is not known to be in bounds.
    let s1_4 = b.before(&id("S1_4"));
    assert!(s1_4.var_interval("j").hi < MAX);
    assert!(!s1_4.index_in_bounds(&bin(B::Add, j, int(1)), "a"));
}

#[test]
fn a_loop_that_changes_a_length_keeps_no_index_facts() {
    let xs = || var("xs", ints());
    let i = || var("i", int_t());
    let p = program(
        "f",
        &[("xs", ints())],
        int_t(),
        vec![],
        &[("i", int_t()), ("t", int_t())],
        vec![
            range(
                "S1",
                "i",
                int(0),
                len("xs"),
                None,
                vec![
                    set("S1_1", "t", idx(xs(), i())),
                    set("S1_2", "xs", call("POP", vec![xs()], ints())),
                ],
            ),
            ret("S2", int(0)),
        ],
    );
    let b = Bounds::of(&p);
    assert!(!b.before(&id("S1_1")).index_in_bounds(&i(), "xs"));
    // After the read, i is known to be in bounds until xs shrinks.
    assert!(b.before(&id("S1_2")).index_in_bounds(&i(), "xs"));
}

#[test]
fn state_and_unreachable_steps() {
    let p = program(
        "f",
        &[("n", int_t())],
        int_t(),
        vec![
            ("k", int_t(), int(7)),
            ("m", int_t(), bin(B::Mul, var("k", int_t()), int(3))),
        ],
        &[],
        vec![ret("S1", var("m", int_t())), ret("S2", int(0))],
    );
    let b = Bounds::of(&p);
    assert_eq!(b.state(1).var_interval("k"), Interval::exact(7));
    assert_eq!(b.before(&id("S1")).var_interval("m"), Interval::exact(21));
    assert_eq!(
        b.before(&id("S2")),
        Env::default(),
        "unreachable: nothing known"
    );
}

#[test]
fn index_of_is_a_position_or_minus_one() {
    let at = call("INDEX_OF", vec![var("xs", ints()), int(3)], int_t());
    assert_eq!(
        Env::default().interval(&at),
        Interval::new(-1, Interval::LEN.hi)
    );
}

/// A body that assigns its own range variable: what it reads afterwards
/// holds what the body gave, not one of the range's values (fuzz program
/// 80705 of seed 20261203 lost an overflow check this way).
#[test]
fn a_loop_variable_the_body_assigns_holds_what_it_was_given() {
    let i = || var("i", int_t());
    let x = || var("x", int_t());
    let p = program(
        "f",
        &[],
        int_t(),
        vec![],
        &[("i", int_t()), ("x", int_t()), ("t", int_t())],
        vec![
            set("S1", "x", int(0)),
            range(
                "S2",
                "i",
                int(1),
                int(3),
                None,
                vec![
                    set("S2_1", "t", bin(B::Add, x(), int(MIN as i64 + 4))),
                    set("S2_2", "i", int(-5)),
                    set("S2_3", "x", i()),
                ],
            ),
            ret("S3", x()),
        ],
    );
    let b = Bounds::of(&p);
    // x is 0, then -5: x + (MIN + 4) may overflow in the second round.
    let s2_1 = b.before(&id("S2_1"));
    assert_eq!(s2_1.var_interval("x"), Interval::new(-5, 0));
    assert!(!(s2_1.interval(&x()) + Interval::exact(MIN as i64 + 4)).fits());
    // A round still starts with one of the range's values.
    assert_eq!(s2_1.var_interval("i"), Interval::new(1, 2));
}

#[test]
fn a_break_leaves_with_the_facts_where_it_stands() {
    let x = || var("x", int_t());
    // x = 0; while x < 10 { x = x + 1; if c { BREAK } }; RETURN x
    let p = program(
        "f",
        &[("c", Type::Bool)],
        int_t(),
        vec![],
        &[("x", int_t())],
        vec![
            set("S1", "x", int(0)),
            while_(
                "S2",
                bin(B::Lt, x(), int(10)),
                vec![
                    set("S2_1", "x", bin(B::Add, x(), int(1))),
                    if_("S2_2", var("c", Type::Bool), vec![brk("S2_2_1")], vec![]),
                ],
            ),
            ret("S3", x()),
        ],
    );
    let b = Bounds::of(&p);
    // Not only x >= 10 (COND false): a BREAK may leave with x from 1 up.
    let after = b.before(&id("S3")).var_interval("x");
    assert!(after.lo <= 1 && after.hi >= 10, "{after:?}");
}

/// A CONTINUE starts the next round with the facts where it stands: they
/// join the loop's head, as the body's end does.
#[test]
fn a_continue_joins_the_head() {
    let x = || var("x", int_t());
    // x = 0; while x < 10 { x = x + 1; if c { x = 100; CONTINUE }; t = x + MAX - 10 }
    let p = program(
        "f",
        &[("c", Type::Bool)],
        int_t(),
        vec![],
        &[("x", int_t()), ("t", int_t())],
        vec![
            set("S1", "x", int(0)),
            while_(
                "S2",
                bin(B::Lt, x(), int(10)),
                vec![
                    set("S2_1", "x", bin(B::Add, x(), int(1))),
                    if_(
                        "S2_2",
                        var("c", Type::Bool),
                        vec![set("S2_2_1", "x", int(100)), cont("S2_2_2")],
                        vec![],
                    ),
                    set("S2_3", "t", bin(B::Add, x(), int(MAX as i64 - 10))),
                ],
            ),
            ret("S3", x()),
        ],
    );
    let b = Bounds::of(&p);
    assert_eq!(b.head(&id("S2")).var_interval("x"), Interval::new(0, 100));
    // In the body, x < 10 held at the head: x + 1 <= 10, so S2_3 fits.
    let s2_3 = b.before(&id("S2_3"));
    assert_eq!(s2_3.var_interval("x"), Interval::new(1, 10));
    assert!((s2_3.interval(&x()) + Interval::exact(MAX as i64 - 10)).fits());
    // After the loop: x >= 10, up to the 100 a CONTINUE left.
    assert_eq!(
        b.before(&id("S3")).var_interval("x"),
        Interval::new(10, 100)
    );
}

/// The length a range's values are below holds in a round only while no
/// step on the way to it changed that length: a step that changes it on
/// the path of a BREAK alone leaves the other rounds their index facts.
#[test]
fn a_length_changed_only_where_the_loop_breaks_keeps_the_index_facts() {
    let xs = || var("xs", ints());
    let i = || var("i", int_t());
    let p = program(
        "f",
        &[("xs", ints())],
        int_t(),
        vec![],
        &[("i", int_t()), ("t", int_t())],
        vec![
            range(
                "S1",
                "i",
                int(0),
                len("xs"),
                None,
                vec![
                    set("S1_1", "t", idx(xs(), i())),
                    if_(
                        "S1_2",
                        bin(B::Eq, var("t", int_t()), int(0)),
                        vec![
                            set("S1_2_1", "xs", call("PUSH", vec![xs(), int(1)], ints())),
                            brk("S1_2_2"),
                        ],
                        vec![],
                    ),
                ],
            ),
            ret("S2", int(0)),
        ],
    );
    let b = Bounds::of(&p);
    assert!(b.before(&id("S1_1")).index_in_bounds(&i(), "xs"));
    // A CONTINUE in its place would take the fact from every round.
    let mut p = p;
    if let Node::Loop { body, .. } = &mut p.body.steps[0].node {
        if let Node::If { then_block, .. } = &mut body.steps[1].node {
            then_block.steps[1] = cont("S1_2_2");
        }
    }
    let b = Bounds::of(&p);
    assert!(!b.before(&id("S1_1")).index_in_bounds(&i(), "xs"));
}

/// A range that ends at the greatest int: its variable plus one fits, plus
/// two does not, in the last round.
#[test]
fn a_range_at_the_end_of_64_bits() {
    let i = || var("i", int_t());
    let p = program(
        "f",
        &[],
        int_t(),
        vec![],
        &[("i", int_t()), ("t", int_t())],
        vec![
            range(
                "S1",
                "i",
                int(i64::MAX - 2),
                int(i64::MAX),
                None,
                vec![set("S1_1", "t", bin(B::Add, i(), int(1)))],
            ),
            ret("S2", int(0)),
        ],
    );
    let s1_1 = Bounds::of(&p).before(&id("S1_1"));
    assert_eq!(s1_1.var_interval("i"), Interval::new(MAX - 2, MAX - 1));
    assert!((s1_1.interval(&i()) + Interval::exact(1)).fits());
    assert!(!(s1_1.interval(&i()) + Interval::exact(2)).fits());
}

/// A variable that grows every round up to a cap: the head widens it to the
/// end of 64 bits, and one round of narrowing brings it back to the cap.
#[test]
fn a_capped_counter_is_widened_then_narrowed() {
    let s = || var("s", int_t());
    let p = program(
        "f",
        &[("n", int_t())],
        int_t(),
        vec![],
        &[("i", int_t()), ("s", int_t())],
        vec![
            set("S1", "s", int(0)),
            range(
                "S2",
                "i",
                int(0),
                var("n", int_t()),
                None,
                vec![set(
                    "S2_1",
                    "s",
                    call("MIN", vec![bin(B::Add, s(), int(1)), int(100)], int_t()),
                )],
            ),
            ret("S3", s()),
        ],
    );
    let b = Bounds::of(&p);
    assert_eq!(b.head(&id("S2")).var_interval("s"), Interval::new(0, 100));
    assert_eq!(b.before(&id("S3")).var_interval("s"), Interval::new(0, 100));
    assert_eq!(crate::analysis::proof::check(&p, &b), Ok(()));
}
