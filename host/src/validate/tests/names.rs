//! Declarations and names: duplicates, undeclared variables and loop
//! variables, STATE initializer order, map key types.

use super::build::Prog;
use crate::diag::Severity;

#[test]
fn a_name_declared_in_two_sections_is_reported_at_the_second() {
    let c = Prog::new("int")
        .arg("x", "int")
        .local("y", "int")
        .local("x", "string")
        .check(vec![]);
    let d = c
        .diags
        .iter()
        .find(|d| d.code.as_str() == "duplicate_declaration")
        .unwrap();
    assert_eq!(c.at(d), "x");
    assert_eq!(c.labels(d), ["x"]);
    assert!(c.labels(d).len() == 1 && d.labels[0].span.start < d.span.map_or(0, |s| s.start));
    assert!(
        d.message
            .contains("declared again in LOCAL; it is already declared in ARGS"),
        "{}",
        d.message
    );
    assert!(d.hint.as_deref().unwrap_or("").contains("share one scope"));
    assert_eq!(d.step, None);
}

#[test]
fn a_name_declared_twice_in_one_section_is_reported() {
    let p = Prog::new("int")
        .state("n", "int", "(const 0)")
        .state("n", "int", "(const 1)");
    let r = p.ret("(var n)");
    let c = p.check(vec![r]);
    let d = c.one();
    assert_eq!(d.code.as_str(), "duplicate_declaration");
    assert!(d.message.contains("earlier in STATE"), "{}", d.message);
}

#[test]
fn distinct_names_are_fine_and_a_variable_may_share_the_function_name() {
    let p = Prog::new("int").name("count").arg("count", "int");
    let r = p.ret("(var count)");
    p.check(vec![r]).assert_clean();
}

#[test]
fn an_undeclared_read_suggests_the_closest_name() {
    let p = Prog::new("int").state("total", "int", "(const 0)");
    let r = p.ret("(add (var totl) (const 1))");
    let c = p.check(vec![r]);
    let d = c.one();
    assert_eq!(d.code.as_str(), "undeclared_variable");
    assert_eq!(c.at(d), "(var totl)");
    assert_eq!(d.step.as_ref().map(|s| s.as_str()), Some("S1"));
    assert_eq!(d.message, "totl is not declared in ARGS, STATE or LOCAL");
    let hint = d.hint.as_deref().unwrap_or("");
    assert!(
        hint.starts_with("did you mean total (declared in STATE)?"),
        "{hint}"
    );
    assert!(
        hint.contains("LOCAL: [totl: int]"),
        "the context fixes the type: {hint}"
    );
    assert_eq!(c.labels(d), ["total"]);
}

#[test]
fn an_undeclared_read_without_a_close_name_says_where_to_declare_it() {
    let p = Prog::new("bool").arg("xs", "int[]");
    let r = p.ret("(var flag)");
    let c = p.check(vec![r]);
    let d = c.one();
    let hint = d.hint.as_deref().unwrap_or("");
    assert!(!hint.contains("did you mean"), "{hint}");
    assert!(hint.contains("LOCAL: [flag: bool]"), "{hint}");
    assert!(hint.contains("STATE: [flag: bool = (const ...)]"), "{hint}");
    assert!(hint.contains("ARGS: [flag: bool]"), "{hint}");
}

#[test]
fn an_undeclared_target_is_reported_with_the_type_of_its_value() {
    let p = Prog::new("int");
    let steps = vec![p.assign("count", "(const 0)"), p.ret("(const 1)")];
    let c = p.check(steps);
    let d = c.one();
    assert_eq!(d.code.as_str(), "undeclared_variable");
    assert_eq!(c.at(d), "count");
    assert!(d
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("LOCAL: [count: int]"));
}

#[test]
fn every_use_of_an_undeclared_name_is_reported_in_its_step() {
    let p = Prog::new("int");
    let steps = vec![p.assign("n", "(var m)"), p.ret("(var n)")];
    let c = p.check(steps);
    assert_eq!(
        c.codes(),
        [
            "undeclared_variable",
            "undeclared_variable",
            "undeclared_variable"
        ]
    );
    let steps: Vec<_> = c
        .diags
        .iter()
        .map(|d| d.step.as_ref().map(|s| s.to_string()))
        .collect();
    assert_eq!(
        steps,
        [Some("S1".into()), Some("S1".into()), Some("S2".into())]
    );
}

#[test]
fn an_undeclared_loop_variable_is_reported_with_its_type() {
    let p = Prog::new("int").arg("words", "string[]");
    let steps = vec![
        p.range("i", "(const 0)", "(const 3)", None, vec![]),
        p.each("w", "(var words)", vec![]),
        p.ret("(const 0)"),
    ];
    let c = p.check(steps);
    assert_eq!(
        c.codes(),
        ["undeclared_loop_variable", "undeclared_loop_variable"]
    );
    assert_eq!(c.at(&c.diags[0]), "i");
    assert!(c.diags[0]
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("LOCAL: [i: int]"));
    assert!(c.diags[1]
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("LOCAL: [w: string]"));
    assert_eq!(c.diags[1].step.as_ref().map(|s| s.as_str()), Some("S2"));
}

#[test]
fn a_loop_variable_declared_outside_local_is_reported() {
    let p = Prog::new("int").arg("i", "int");
    let steps = vec![
        p.range("i", "(const 0)", "(const 3)", None, vec![]),
        p.ret("(var i)"),
    ];
    let c = p.check(steps);
    let d = c.one();
    assert_eq!(d.code.as_str(), "undeclared_loop_variable");
    assert!(
        d.message
            .contains("declared in ARGS, but a loop variable must be declared in LOCAL"),
        "{}",
        d.message
    );
    assert_eq!(c.labels(d), ["i"]);
}

#[test]
fn a_range_variable_must_be_int() {
    let p = Prog::new("int").local("i", "string");
    let steps = vec![
        p.range("i", "(const 0)", "(const 3)", None, vec![]),
        p.ret("(const 0)"),
    ];
    let c = p.check(steps);
    let d = c.one();
    assert_eq!(d.code.as_str(), "type_mismatch");
    assert_eq!(c.at(d), "i");
    assert!(
        d.message.contains("its variable must be int"),
        "{}",
        d.message
    );
    assert_eq!(c.labels(d), ["i"]);
}

#[test]
fn an_each_variable_must_have_the_element_type() {
    let p = Prog::new("int").arg("words", "string[]").local("x", "int");
    let steps = vec![p.each("x", "(var words)", vec![]), p.ret("(const 0)")];
    let c = p.check(steps);
    let d = c.one();
    assert_eq!(d.code.as_str(), "type_mismatch");
    assert_eq!(
        d.message,
        "the elements of (var words) are string, but the loop variable x is declared int"
    );
}

#[test]
fn each_goes_through_arrays_only() {
    let p = Prog::new("int")
        .arg("m", "map<string,int>")
        .arg("s", "string")
        .local("k", "string");
    let steps = vec![
        p.each("k", "(var m)", vec![]),
        p.each("k", "(var s)", vec![]),
        p.ret("(const 0)"),
    ];
    let c = p.check(steps);
    assert_eq!(c.codes(), ["type_mismatch", "type_mismatch"]);
    assert!(c.diags[0]
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("(call MAP_KEYS (var m))"));
    assert!(c.diags[1]
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("(call CHARS (var s))"));
    assert_eq!(c.at(&c.diags[0]), "(var m)");
}

#[test]
fn state_initializers_read_args_and_earlier_state_only() {
    let p = Prog::new("int")
        .arg("n", "int")
        .state("a", "int", "(var n)")
        .state("b", "int", "(add (var a) (var c))")
        .state("c", "int", "(var c)")
        .state("d", "int", "(var x)")
        .local("x", "int");
    let r = p.ret("(var d)");
    let c = p.check(vec![r]);
    assert_eq!(
        c.codes(),
        [
            "unassigned_variable",
            "unassigned_variable",
            "unassigned_variable"
        ]
    );
    let [later, itself, local] = &c.diags[..] else {
        unreachable!()
    };
    assert_eq!(c.at(later), "(var c)");
    assert!(
        later
            .message
            .contains("reads c, which is initialized after b"),
        "{}",
        later.message
    );
    assert_eq!(later.step, None);
    assert!(
        itself.message.contains("reads c itself"),
        "{}",
        itself.message
    );
    assert!(
        local.message.contains("reads the LOCAL variable x"),
        "{}",
        local.message
    );
}

#[test]
fn a_state_initializer_has_the_declared_type() {
    let p = Prog::new("int")
        .state("xs", "int[]", "(const [])")
        .state("n", "int", "(const \"0\")");
    let r = p.ret("(call LEN (var xs))");
    let c = p.check(vec![r]);
    let d = c.one();
    assert_eq!(d.code.as_str(), "type_mismatch");
    assert_eq!(
        d.message,
        "the initial value of STATE variable n must be int, but (const \"0\") is string"
    );
    assert_eq!(d.step, None);
    assert_eq!(c.program.state[0].init.ty, Some(super::build::ty("int[]")));
}

#[test]
fn map_keys_must_be_int_or_string_in_every_declared_type() {
    let p = Prog::new("map<bool,int>")
        .arg("m", "map<bool,int>")
        .local("nested", "map<string,map<int[],int>[]>")
        .local("fine", "map<int,map<string,bool>>");
    // Uses of the badly typed variables say nothing more.
    let steps = vec![
        p.if_("(call MAP_HAS (var m) (const true))", vec![], vec![]),
        p.ret("(var m)"),
    ];
    let c = p.check(steps);
    assert_eq!(
        c.codes(),
        [
            "invalid_map_key_type",
            "invalid_map_key_type",
            "invalid_map_key_type"
        ]
    );
    let (ret, arg, nested) = (&c.diags[2], &c.diags[0], &c.diags[1]);
    assert_eq!(c.at(arg), "m: map<bool,int>");
    assert!(
        arg.message
            .contains("has the type map<bool,int>, whose key type bool is neither int nor string"),
        "{}",
        arg.message
    );
    assert!(
        nested
            .message
            .contains("map<int[],int> has the key type int[]"),
        "{}",
        nested.message
    );
    assert!(ret.message.starts_with("FUNC RETURNS"), "{}", ret.message);
    assert!(c.diags.iter().all(|d| d.severity == Severity::Error));
}

#[test]
fn an_undeclared_name_in_state_is_declared_in_args_or_earlier_state() {
    let p = Prog::new("int").state("a", "int", "(var n)");
    let r = p.ret("(var a)");
    let c = p.check(vec![r]);
    let hint = c.one().hint.as_deref().unwrap_or("");
    assert!(hint.starts_with("a STATE initializer reads ARGS and earlier STATE variables: declare it in ARGS: [n: int]"), "{hint}");
}
