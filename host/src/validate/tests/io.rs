//! The IO examples against ARGS and RETURNS.

use super::build::{ty, Checked, Prog};
use crate::validate::{literal_conforms, literal_conforms_named};
use isu_plugin_api::Literal;

fn with_io(p: Prog, input: &str, output: &str) -> Checked {
    let p = p.io(input, output);
    let r = p.ret("(const 0)");
    p.check(vec![r])
}

fn sums() -> Prog {
    Prog::new("int").arg("xs", "int[]").arg("n", "int")
}

#[test]
fn examples_that_fit_are_fine() {
    with_io(
        sums(),
        r#"[{"xs": [1], "n": 2}, {"xs": [], "n": -1}]"#,
        "[3, 0]",
    )
    .assert_clean();
    with_io(Prog::new("int"), "[{}]", "[1]").assert_clean();
    with_io(sums(), "[]", "[]").assert_clean();
}

#[test]
fn input_and_output_pair_up() {
    let c = with_io(sums(), r#"[{"xs": [], "n": 1}, {"xs": [], "n": 2}]"#, "[0]");
    let d = c.one();
    assert_eq!(d.code.as_str(), "io_length_mismatch");
    assert_eq!(
        d.message,
        "IO has 2 INPUT examples but 1 OUTPUT value; they pair up by position"
    );
    assert!(c.at(d).starts_with("IO:"));
    assert_eq!(d.step, None);
}

#[test]
fn an_input_names_exactly_the_arguments() {
    let c = with_io(sums(), r#"[{"xs": [], "m": 1}]"#, "[0]");
    let d = c.one();
    assert_eq!(d.code.as_str(), "io_argument_mismatch");
    assert_eq!(
        d.message,
        "INPUT[0] lacks n and has m that ARGS does not declare"
    );
    assert_eq!(c.at(d), r#"{"m": 1, "xs": []}"#);
    let hint = d.hint.as_deref().unwrap_or("");
    assert!(hint.contains("one key per argument: xs and n"), "{hint}");
    let c = with_io(
        Prog::new("int").arg("count", "int"),
        r#"[{"cuont": 1}]"#,
        "[0]",
    );
    let hint = c.one().hint.as_deref().unwrap_or("");
    assert!(hint.ends_with("did you mean count for cuont?"), "{hint}");
    let c = with_io(sums(), r#"[{"xs": []}]"#, "[0]");
    assert_eq!(c.one().message, "INPUT[0] lacks n");
}

#[test]
fn an_input_is_an_object() {
    let c = with_io(sums(), "[[1, 2]]", "[0]");
    let d = c.one();
    assert_eq!(d.code.as_str(), "io_argument_mismatch");
    assert_eq!(d.message, "INPUT[0] is an array ([1, 2]), but each INPUT example is an object from argument name to value");
    assert!(d
        .hint
        .as_deref()
        .unwrap_or("")
        .contains(r#"{"xs": <int[]>, "n": <int>}"#));
}

#[test]
fn values_must_have_their_declared_types() {
    let c = with_io(
        sums(),
        r#"[{"xs": [1, "a"], "n": 1}, {"xs": [], "n": 0}]"#,
        r#"[0, "zero"]"#,
    );
    assert_eq!(c.codes(), ["io_type_mismatch", "io_type_mismatch"]);
    assert_eq!(
        c.diags[0].message,
        r#"INPUT[0] does not fit ARGS: xs[1] is a string ("a"), expected int"#
    );
    assert_eq!(c.diags[0].expected, Some("int[]".into()));
    assert_eq!(
        c.diags[1].message,
        r#"OUTPUT[1] does not fit RETURNS: OUTPUT[1] is a string ("zero"), expected int"#
    );
    assert_eq!(c.at(&c.diags[1]), r#""zero""#);
}

#[test]
fn int_keyed_map_values_use_decimal_keys() {
    let p = Prog::new("map<int,string>").arg("m", "map<int,string>");
    let c = with_io(p, r#"[{"m": {"1": "a", "x": "b"}}]"#, r#"[{"2": "c"}]"#);
    assert_eq!(c.codes(), ["io_type_mismatch", "return_type_mismatch"]);
    assert!(
        c.diags[0].message.contains("m has the key \"x\""),
        "{}",
        c.diags[0].message
    );
}

#[test]
fn literal_conforms_is_public_with_a_path() {
    let xs: Literal = serde_json::from_str(r#"[1, 2, "a"]"#).unwrap();
    assert_eq!(
        literal_conforms_named(&xs, &ty("int[]"), &[], "xs"),
        Err(r#"xs[2] is a string ("a"), expected int"#.to_owned())
    );
    assert_eq!(
        literal_conforms(&xs, &ty("int[]"), &[]),
        Err(r#"value[2] is a string ("a"), expected int"#.to_owned())
    );
}
