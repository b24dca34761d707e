use super::*;
use crate::build::*;
use crate::iir::{BinaryOp as B, Node, Step};
use crate::types::Type;

fn ints() -> Type {
    Type::array(Type::Int)
}

fn names(set: &BTreeSet<String>) -> Vec<&str> {
    set.iter().map(String::as_str).collect()
}

/// What the loop `S1` of a program with these collections and body keeps.
fn kept_by(body: Step) -> Kept {
    let grid = Type::array(ints());
    let counts = Type::map(Type::String, Type::Int);
    let p = program(
        "f",
        &[("n", Type::Int)],
        Type::Int,
        vec![],
        &[
            ("xs", ints()),
            ("ys", ints()),
            ("g", grid),
            ("m", counts),
            ("i", Type::Int),
            ("j", Type::Int),
            ("row", ints()),
            ("w", Type::String),
        ],
        vec![body, ret("S2", int(0))],
    );
    let Node::Loop { iter, body } = &p.body.steps[0].node else {
        return Kept::default();
    };
    kept(iter, body, &Decls::of(&p))
}

/// What a loop of three rounds over `body` keeps.
fn rounds(body: Vec<Step>) -> Kept {
    kept_by(range("S1", "i", int(0), int(3), None, body))
}

fn xs() -> Expr {
    var("xs", ints())
}

#[test]
fn element_stores_and_reads_through_keep_an_array() {
    // The inner loop of an insertion sort: reads, an element store, LEN.
    let j = || var("j", Type::Int);
    let cond = bin(
        B::And,
        bin(B::Ge, j(), int(0)),
        bin(B::Gt, idx(xs(), j()), call("LEN", vec![xs()], Type::Int)),
    );
    let k = kept_by(while_(
        "S1",
        cond,
        vec![
            assign(
                "S1_1",
                pidx(pvar("xs"), bin(B::Add, j(), int(1))),
                idx(xs(), j()),
            ),
            set("S1_2", "j", bin(B::Sub, j(), int(1))),
        ],
    ));
    assert!(k.keeps_length("xs") && k.keeps_own("xs"));
    assert_eq!(names(&k.unresized), ["g", "row", "xs", "ys"], "arrays only");
    assert_eq!(names(&k.unshared), ["g", "m", "row", "xs", "ys"]);
}

#[test]
fn a_copy_an_each_or_a_replacement_shares() {
    let i = || var("i", Type::Int);
    // ys = xs: both hold one value.
    let k = rounds(vec![set("S1_1", "ys", xs())]);
    assert!(!k.keeps_own("xs") && !k.keeps_own("ys"));
    assert!(k.keeps_length("xs") && !k.keeps_length("ys"));
    // An each over xs holds it while it runs.
    let k = kept_by(each(
        "S1",
        "i",
        xs(),
        vec![assign("S1_1", pidx(pvar("xs"), int(0)), i())],
    ));
    assert!(!k.keeps_own("xs") && k.keeps_length("xs"));
    // xs as an element of g, and in a list: handed on.
    let g = Type::array(ints());
    let k = rounds(vec![assign("S1_1", pidx(pvar("g"), i()), xs())]);
    assert!(!k.keeps_own("xs") && k.keeps_own("g") && k.keeps_length("g"));
    let list = Expr::new(
        crate::iir::ExprNode::List { items: vec![xs()] },
        crate::iir::Span::default(),
    );
    let list = Expr {
        ty: Some(g.clone()),
        ..list
    };
    let k = rounds(vec![set("S1_1", "g", list)]);
    assert!(!k.keeps_own("xs") && !k.keeps_own("g"));
    // A row read out of g is a part of g: g stays its own, row does not.
    let k = rounds(vec![set("S1_1", "row", idx(var("g", g.clone()), i()))]);
    assert!(k.keeps_own("g") && !k.keeps_own("row"));
    // PUSH of xs onto ys shares xs (an element of the result) and resizes ys.
    let pushed = call("PUSH", vec![var("g", g.clone()), xs()], g);
    let k = rounds(vec![set("S1_1", "g", pushed)]);
    assert!(!k.keeps_own("xs") && !k.keeps_length("g") && k.keeps_own("g"));
}

#[test]
fn in_place_updates_resize_but_keep_their_own() {
    let push = call("PUSH", vec![xs(), int(1)], ints());
    let k = rounds(vec![set("S1_1", "xs", push)]);
    assert!(!k.keeps_length("xs") && k.keeps_own("xs"));
    // A plain PUSH into another variable replaces that one.
    let push = call("PUSH", vec![xs(), int(1)], ints());
    let k = rounds(vec![set("S1_1", "ys", push)]);
    assert!(
        !k.keeps_own("ys") && !k.keeps_own("xs"),
        "PUSH(xs, 1) is an array"
    );
    // An update of an element is no resize of its variable.
    let row = idx(var("g", Type::array(ints())), int(0));
    let push = call("PUSH", vec![row, int(1)], ints());
    let k = rounds(vec![assign("S1_1", pidx(pvar("g"), int(0)), push)]);
    assert!(k.keeps_length("g") && k.keeps_own("g"));
}

#[test]
fn scalar_results_read_through_and_loop_variables_are_replaced() {
    let m = || var("m", Type::map(Type::String, Type::Int));
    let w = || var("w", Type::String);
    // The word count's update: MAP_GET_OR makes an int of m.
    let got = call("MAP_GET_OR", vec![m(), w(), int(0)], Type::Int);
    let k = rounds(vec![assign(
        "S1_1",
        pidx(pvar("m"), w()),
        bin(B::Add, got, int(1)),
    )]);
    assert!(k.keeps_own("m"));
    // A nested each over g gives row its elements: row is replaced.
    let g = Type::array(ints());
    let k = rounds(vec![each("S1_1", "row", var("g", g), vec![])]);
    assert!(!k.keeps_own("row") && !k.keeps_length("row") && !k.keeps_own("g"));
}
