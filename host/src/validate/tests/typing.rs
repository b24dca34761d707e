//! Types of operators, conditions, index, places, RETURN and literals.

use super::build::{ty, Checked, Prog};
use isu_plugin_api::{ExprNode, Node, Type};

/// A function returning `returns` with the declarations given, whose one step
/// returns `value`.
fn returning(p: Prog, value: &str) -> Checked {
    let r = p.ret(value);
    p.check(vec![r])
}

/// The diagnostic's message, for one diagnostic of `code`.
fn only(c: &Checked, code: &str) -> String {
    let d = c.one();
    assert_eq!(d.code.as_str(), code, "{d:#?}");
    d.message.clone()
}

#[test]
fn arithmetic_takes_ints() {
    let c = returning(
        Prog::new("int").arg("s", "string"),
        "(add (const 1) (var s))",
    );
    assert_eq!(
        only(&c, "type_mismatch"),
        "the right operand of add must be int, but (var s) is string"
    );
    assert_eq!(c.at(c.one()), "(var s)");
    assert!(c.one().hint.as_deref().unwrap_or("").contains("CONCAT"));
    assert_eq!(c.one().expected, Some("int".into()));
    assert_eq!(c.one().actual, Some("string".into()));
    let c = returning(
        Prog::new("int").arg("xs", "int[]"),
        "(mul (var xs) (const 2))",
    );
    assert!(c.one().hint.as_deref().unwrap_or("").contains("PUSH"));
    let c = returning(Prog::new("int"), "(neg (const true))");
    assert_eq!(
        only(&c, "type_mismatch"),
        "the operand of neg must be int, but (const true) is bool"
    );
    for op in ["sub", "div", "mod"] {
        let c = returning(Prog::new("int"), &format!("({op} (const 7) (const \"2\"))"));
        assert_eq!(c.codes(), ["type_mismatch"], "{op}");
    }
}

#[test]
fn logic_takes_bools() {
    let c = returning(Prog::new("bool"), "(and (const true) (const 1))");
    assert_eq!(
        only(&c, "type_mismatch"),
        "the right operand of and must be bool, but (const 1) is int"
    );
    let c = returning(Prog::new("bool"), "(not (const 0))");
    assert_eq!(c.codes(), ["type_mismatch"]);
    let c = returning(Prog::new("bool"), "(or (const false) (not (const true)))");
    c.assert_clean();
}

#[test]
fn an_operator_result_must_fit_its_context() {
    let c = returning(Prog::new("string"), "(add (const 1) (const 2))");
    assert_eq!(
        only(&c, "return_type_mismatch"),
        "the RETURN value must be string (FUNC RETURNS), but (add (const 1) (const 2)) is int"
    );
}

#[test]
fn conditions_are_bools() {
    let p = Prog::new("int").arg("n", "int");
    let steps = vec![
        p.if_("(var n)", vec![], vec![]),
        p.while_("(const 1)", vec![]),
        p.ret("(var n)"),
    ];
    let c = p.check(steps);
    assert_eq!(c.codes(), ["type_mismatch", "type_mismatch"]);
    assert_eq!(
        c.diags[0].message,
        "the COND of an IF must be bool, but (var n) is int"
    );
    assert!(c.diags[0]
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("(ne X (const 0))"));
    assert_eq!(
        c.diags[1].message,
        "the condition of (while ...) must be bool, but (const 1) is int"
    );
    assert_eq!(c.diags[1].step.as_ref().map(|s| s.as_str()), Some("S2"));
}

#[test]
fn eq_compares_two_values_of_one_type() {
    let p = || {
        Prog::new("bool")
            .arg("xs", "int[]")
            .arg("m", "map<string,int>")
            .arg("n", "int")
    };
    returning(p(), "(eq (var xs) (const [1, 2]))").assert_clean();
    returning(p(), "(ne (const {}) (var m))").assert_clean();
    returning(p(), "(eq (const true) (eq (const 1) (const 2)))").assert_clean();
    let c = returning(p(), "(eq (var xs) (const \"a\"))");
    assert_eq!(
        only(&c, "type_mismatch"),
        "eq compares two values of one type, but (var xs) is int[] and (const \"a\") is string"
    );
    assert_eq!(c.at(c.one()), "(eq (var xs) (const \"a\"))");
    let c = returning(p(), "(eq (var n) (const \"1\"))");
    assert!(c.one().hint.as_deref().unwrap_or("").contains("TO_STRING"));
}

#[test]
fn ordering_takes_two_ints_or_two_strings() {
    let p = || Prog::new("bool").arg("s", "string").arg("xs", "int[]");
    returning(p(), "(lt (var s) (const \"b\"))").assert_clean();
    returning(p(), "(ge (const 1) (const 2))").assert_clean();
    let c = returning(p(), "(le (var xs) (var xs))");
    assert_eq!(
        only(&c, "type_mismatch"),
        "le orders two ints, two floats or two strings, but its operands are int[]"
    );
    let c = returning(p(), "(gt (const true) (const false))");
    assert_eq!(c.codes(), ["type_mismatch"]);
    let c = returning(p(), "(lt (var s) (const 1))");
    assert!(only(&c, "type_mismatch").starts_with("lt compares two values of one type"));
}

#[test]
fn index_reads_arrays_by_int_and_maps_by_key() {
    let p = || {
        Prog::new("int")
            .arg("xs", "int[]")
            .arg("m", "map<string,int>")
            .arg("s", "string")
    };
    returning(
        p(),
        "(add (index (var xs) (const 0)) (index (var m) (const \"a\")))",
    )
    .assert_clean();
    let c = returning(p(), "(index (var xs) (const \"0\"))");
    assert_eq!(
        only(&c, "type_mismatch"),
        "an array index must be int, but (const \"0\") is string"
    );
    let c = returning(p(), "(index (var m) (const 0))");
    assert_eq!(
        only(&c, "type_mismatch"),
        "a key of map<string,int> must be string, but (const 0) is int"
    );
    // A string's character is a string.
    let c = returning(p(), "(index (var s) (const 0))");
    assert_eq!(
        only(&c, "return_type_mismatch"),
        "the RETURN value must be int (FUNC RETURNS), but (index (var s) (const 0)) is string"
    );
    returning(
        Prog::new("string").arg("s", "string"),
        "(index (var s) (const 0))",
    )
    .assert_clean();
    let c = returning(
        Prog::new("string").arg("s", "string"),
        "(index (var s) (const \"0\"))",
    );
    assert_eq!(
        only(&c, "type_mismatch"),
        "an array index must be int, but (const \"0\") is string"
    );
    let c = returning(p(), "(index (const true) (const 0))");
    assert_eq!(
        only(&c, "type_mismatch"),
        "(index (const true) (const 0)) indexes (const true), which is bool, not an array, a map or a string"
    );
    let c = returning(
        Prog::new("string").arg("xs", "int[]"),
        "(index (var xs) (const 0))",
    );
    assert_eq!(
        only(&c, "return_type_mismatch"),
        "the RETURN value must be string (FUNC RETURNS), but (index (var xs) (const 0)) is int"
    );
}

#[test]
fn index_types_an_open_literal_from_its_context() {
    let c = returning(Prog::new("int[]"), "(index (const [[]]) (const 0))");
    c.assert_clean();
    let Node::Return { expr } = &c.program.body.steps[0].node else {
        unreachable!()
    };
    let ExprNode::Index { base, .. } = &expr.node else {
        unreachable!()
    };
    assert_eq!(base.ty, Some(ty("int[][]")));
    let c = returning(
        Prog::new("int").arg("i", "int"),
        "(index (const {\"1\": 5}) (var i))",
    );
    c.assert_clean();
}

#[test]
fn index_of_an_overloaded_call_takes_the_type_the_call_decides() {
    // SORT of an open literal fits both of its overloads, so nothing outside
    // fixes the base: typing the call decides (its first overload), and the
    // index then has the element's type, as every backend needs.
    let c = returning(Prog::new("int"), "(index (call SORT (const [])) (const 0))");
    c.assert_clean();
    let Node::Return { expr } = &c.program.body.steps[0].node else {
        unreachable!()
    };
    assert_eq!(expr.ty, Some(ty("int")));
    let c = returning(
        Prog::new("string"),
        "(index (call SORT (call MAP_KEYS (const {\"1\": \"\"}))) (const 0))",
    );
    let m = only(&c, "return_type_mismatch");
    assert!(
        m.starts_with("the RETURN value must be string (FUNC RETURNS), but (index (call SORT")
            && m.ends_with(" is int"),
        "{m}"
    );
}

#[test]
fn assign_needs_the_type_of_its_place() {
    let p = Prog::new("int").local("total", "int");
    let steps = vec![p.assign("total", "(const \"a\")"), p.ret("(const 0)")];
    let c = p.check(steps);
    assert_eq!(
        only(&c, "type_mismatch"),
        "the value assigned to total must be int, but (const \"a\") is string"
    );
    assert_eq!(c.one().step.as_ref().map(|s| s.as_str()), Some("S1"));
}

#[test]
fn index_places_take_an_int_index_or_a_key() {
    let p = Prog::new("int")
        .arg("xs", "int[]")
        .arg("m", "map<string,int[]>")
        .arg("s", "string");
    let steps = vec![
        p.assign("(index xs (const 0))", "(const 1)"),
        p.assign("(index (index m (const \"k\")) (const 2))", "(const 3)"),
        p.assign("(index xs (const \"0\"))", "(const 1)"),
        p.assign("(index m (const 1))", "(const [])"),
        p.assign("(index s (const 0))", "(const \"x\")"),
        p.assign("(index m (const \"k\"))", "(const [\"x\"])"),
        p.ret("(const 0)"),
    ];
    let c = p.check(steps);
    assert_eq!(c.codes(), ["type_mismatch"; 4]);
    assert_eq!(
        c.diags[0].message,
        "an array index must be int, but (const \"0\") is string"
    );
    assert_eq!(c.diags[0].step.as_ref().map(|s| s.as_str()), Some("S3"));
    assert_eq!(
        c.diags[1].message,
        "a key of map<string,int[]> must be string, but (const 1) is int"
    );
    assert_eq!(
        c.diags[2].message,
        "TARGET (index s (const 0)) assigns into s, which is string, not an array or a map"
    );
    assert_eq!(
        c.diags[3].message,
        "the value assigned to (index m (const \"k\")) must be int[], but (const [\"x\"]) is string[]"
    );
}

#[test]
fn return_must_have_the_returns_type() {
    let c = returning(Prog::new("int"), "(const \"x\")");
    assert_eq!(
        only(&c, "return_type_mismatch"),
        "the RETURN value must be int (FUNC RETURNS), but (const \"x\") is string"
    );
    assert!(c
        .one()
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("change RETURNS"));
    let c = returning(Prog::new("int[]"), "(const [1, \"a\"])");
    assert_eq!(
        only(&c, "return_type_mismatch"),
        "the RETURN value must be int[] (FUNC RETURNS), but (const [1, \"a\"]) is not: its value[1] is a string (\"a\"), expected int"
    );
    returning(Prog::new("map<int,bool>"), "(const {\"-1\": true})").assert_clean();
}

#[test]
fn object_literals_are_maps_with_string_or_decimal_int_keys() {
    let p = || {
        Prog::new("int")
            .local("m", "map<int,int>")
            .local("n", "map<string,int>")
    };
    let check = |value: &str, target: &str| {
        let p = p();
        let steps = vec![p.assign(target, value), p.ret("(const 0)")];
        p.check(steps)
    };
    check("(const {})", "m").assert_clean();
    check("(const {\"1\": 2, \"-3\": 4})", "m").assert_clean();
    check("(const {\"1\": 2})", "n").assert_clean();
    let c = check("(const {\"a\": 1})", "m");
    assert_eq!(
        only(&c, "type_mismatch"),
        "the value assigned to m must be map<int,int>, but (const {\"a\": 1}) is map<string,int>"
    );
    let c = check("(const {\"01\": 1})", "m");
    assert_eq!(c.codes(), ["type_mismatch"]);
    // Nothing fixing the key type, an object's keys are strings.
    let c = returning(Prog::new("int"), "(call LEN (const {\"1\": 1}))");
    c.assert_clean();
    let Node::Return { expr } = &c.program.body.steps[0].node else {
        unreachable!()
    };
    let ExprNode::Call { args, .. } = &expr.node else {
        unreachable!()
    };
    assert_eq!(args[0].ty, Some(ty("map<string,int>")));
}

#[test]
fn arrays_are_homogeneous() {
    let c = returning(Prog::new("int"), "(call LEN (const [1, \"a\"]))");
    assert_eq!(
        only(&c, "type_mismatch"),
        "(const [1, \"a\"]) mixes types: its element [1] is string, but the elements before it are int"
    );
    let c = returning(Prog::new("int"), "(call LEN (const [[1], [true]]))");
    assert_eq!(
        only(&c, "type_mismatch"),
        "(const [[1], [true]]) mixes types: its element [1] is bool[], but the elements before it are int[]"
    );
    let c = returning(Prog::new("int"), "(call LEN (const [[1], [2, \"a\"]]))");
    assert!(only(&c, "type_mismatch")
        .starts_with("the part [1] of (const [[1], [2, \"a\"]]) mixes types"));
    let c = returning(
        Prog::new("int"),
        "(call LEN (const {\"a\": 1, \"b\": \"x\"}))",
    );
    assert!(only(&c, "type_mismatch").contains("its value at key \"b\" is string"));
}

#[test]
fn an_open_literal_that_nothing_fixes_is_ambiguous() {
    let c = returning(Prog::new("int"), "(call LEN (const []))");
    assert_eq!(
        only(&c, "ambiguous_literal"),
        "(const []) has the type ?[], and nothing around it fixes what ? is"
    );
    assert_eq!(c.at(c.one()), "(const [])");
    let c = returning(Prog::new("bool"), "(eq (const []) (const []))");
    assert_eq!(only(&c, "ambiguous_literal"), "neither operand of (eq (const []) (const [])) fixes its type: both have the type ?[], and nothing fixes what ? is");
    let c = returning(Prog::new("bool"), "(call MAP_HAS (const {}) (const \"a\"))");
    assert_eq!(c.codes(), ["ambiguous_literal"]);
    assert!(c.one().hint.is_some());
}

#[test]
fn open_literals_take_their_type_from_context() {
    let p = Prog::new("bool")
        .local("xss", "int[][]")
        .local("m", "map<string,string[]>")
        .local("grid", "bool[][]");
    let steps = vec![
        p.assign("xss", "(const [])"),
        p.assign("xss", "(call PUSH (var xss) (const []))"),
        p.assign("m", "(call MAP_SET (const {}) (const \"a\") (const []))"),
        p.assign("grid", "(call REPEAT (const []) (const 3))"),
        p.ret("(eq (const [[]]) (var xss))"),
    ];
    let c = p.check(steps);
    c.assert_clean();
    let Node::Assign { expr, .. } = &c.program.body.steps[3].node else {
        unreachable!()
    };
    let ExprNode::Call { args, .. } = &expr.node else {
        unreachable!()
    };
    assert_eq!(args[0].ty, Some(Type::array(Type::Bool)));
    let Node::Return { expr } = &c.program.body.steps[4].node else {
        unreachable!()
    };
    let ExprNode::Binary { lhs, .. } = &expr.node else {
        unreachable!()
    };
    assert_eq!(lhs.ty, Some(ty("int[][]")));
}

#[test]
fn range_bounds_and_step_are_ints() {
    let p = Prog::new("int").local("i", "int");
    let steps = vec![
        p.range(
            "i",
            "(const \"0\")",
            "(const 3)",
            Some("(const true)"),
            vec![],
        ),
        p.ret("(const 0)"),
    ];
    let c = p.check(steps);
    assert_eq!(c.codes(), ["type_mismatch", "type_mismatch"]);
    assert_eq!(
        c.diags[0].message,
        "the start of (range ...) must be int, but (const \"0\") is string"
    );
    assert_eq!(
        c.diags[1].message,
        "the step of (range ...) must be int, but (const true) is bool"
    );
}

#[test]
fn each_types_an_open_array_from_its_variable() {
    let p = Prog::new("int").local("x", "string");
    let steps = vec![p.each("x", "(const [])", vec![]), p.ret("(const 0)")];
    let c = p.check(steps);
    c.assert_clean();
    let Node::Loop {
        iter: isu_plugin_api::Iter::Each { seq, .. },
        ..
    } = &c.program.body.steps[0].node
    else {
        unreachable!()
    };
    assert_eq!(seq.ty, Some(ty("string[]")));
}

#[test]
fn an_error_hides_a_type_without_further_reports() {
    // An undeclared name is reported once; the open literal beside it is not.
    let c = returning(Prog::new("bool"), "(eq (var nope) (const []))");
    assert_eq!(c.codes(), ["undeclared_variable"]);
    let c = returning(Prog::new("int"), "(call LEN (index (var nope) (const 0)))");
    assert_eq!(c.codes(), ["undeclared_variable"]);
    let c = returning(Prog::new("int"), "(add (call NOPE) (const \"a\"))");
    assert_eq!(c.codes(), ["unknown_function", "type_mismatch"]);
}

#[test]
fn the_other_operand_tells_an_undeclared_name_its_type() {
    let c = returning(
        Prog::new("bool").arg("xs", "int[]"),
        "(eq (var nope) (var xs))",
    );
    assert!(c
        .one()
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("LOCAL: [nope: int[]]"));
}

#[test]
fn an_open_literal_indexed_where_nothing_fixes_it_is_ambiguous() {
    let p = Prog::new("bool");
    let steps = vec![
        p.if_(
            "(eq (index (const []) (const 0)) (index (const []) (const 1)))",
            vec![],
            vec![],
        ),
        p.ret("(const true)"),
    ];
    let c = p.check(steps);
    assert_eq!(c.codes(), ["ambiguous_literal"]);
}

#[test]
fn an_open_array_is_still_indexed_by_an_int() {
    let c = returning(
        Prog::new("int"),
        "(call LEN (index (const []) (const \"a\")))",
    );
    assert_eq!(c.codes(), ["ambiguous_literal", "type_mismatch"]);
    assert_eq!(
        c.diags[1].message,
        "an array index must be int, but (const \"a\") is string"
    );
}

#[test]
fn an_object_whose_keys_could_be_ints_is_reported_where_it_goes_wrong() {
    let p = Prog::new("int").local("m", "map<int,int>");
    let steps = vec![p.assign("m", "(const {\"1\": \"a\"})"), p.ret("(const 0)")];
    let c = p.check(steps);
    assert_eq!(
        only(&c, "type_mismatch"),
        "the value assigned to m must be map<int,int>, but (const {\"1\": \"a\"}) is not: its value[\"1\"] is a string (\"a\"), expected int"
    );
}
