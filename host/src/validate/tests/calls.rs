//! Calls of standard functions: names, arity, argument and result types.

use super::build::{Checked, Prog};
use crate::functions::Functions;

fn returning(p: Prog, value: &str) -> Checked {
    let r = p.ret(value);
    p.check(vec![r])
}

fn hint(c: &Checked) -> String {
    c.one().hint.clone().unwrap_or_default()
}

#[test]
fn every_standard_function_accepts_its_signature() {
    let p = Prog::new("bool")
        .arg("xs", "int[]")
        .arg("m", "map<string,int>")
        .arg("s", "string")
        .local("n", "int")
        .local("t", "string")
        .local("ws", "string[]")
        .local("ys", "int[]")
        .local("ks", "string[]")
        .local("b", "bool");
    let steps = vec![
        p.assign("n", "(call ABS (call MIN (call MAX (const 1) (const 2)) (call LEN (var xs))))"),
        p.assign("n", "(add (call LEN (var m)) (call LEN (var s)))"),
        p.assign("ws", "(call CHARS (call LOWER (var s)))"),
        p.assign("t", "(call JOIN (call SPLIT_WHITESPACE (var s)) (const \" \"))"),
        p.assign("t", "(call CONCAT (call TO_STRING (call PARSE_INT (var s))) (var s))"),
        p.assign("ys", "(call CONCAT (call POP (call PUSH (var xs) (const 1))) (call SLICE (var xs) (const 0) (const 1)))"),
        p.assign("t", "(call SLICE (var s) (const 0) (const 1))"),
        p.assign("ks", "(call MAP_KEYS (call MAP_SET (var m) (const \"a\") (const 1)))"),
        p.assign("n", "(add (call MAP_GET (var m) (const \"a\")) (call MAP_GET_OR (var m) (const \"b\") (const 0)))"),
        p.assign("ys", "(call REPEAT (const 0) (var n))"),
        p.assign("b", "(call MAP_HAS (var m) (var t))"),
        p.ret("(var b)"),
    ];
    let c = p.check(steps);
    c.assert_clean();
}

#[test]
fn an_unknown_function_suggests_a_standard_one() {
    let c = returning(
        Prog::new("int").arg("xs", "int[]"),
        "(call LENGTH (var xs))",
    );
    let d = c.one();
    assert_eq!(d.code.as_str(), "unknown_function");
    assert_eq!(d.message, "LENGTH is not a standard function");
    assert_eq!(c.at(d), "(call LENGTH (var xs))");
    assert!(
        hint(&c).starts_with(
            "did you mean LEN? LEN(T[]) -> int; LEN(map<K,V>) -> int; LEN(string) -> int"
        ),
        "{}",
        hint(&c)
    );
    let c = returning(Prog::new("int").arg("xs", "int[]"), "(call len (var xs))");
    assert!(hint(&c).starts_with("did you mean LEN?"));
    let c = returning(
        Prog::new("bool").arg("m", "map<string,int>"),
        "(call MAP_HSA (var m) (const \"a\"))",
    );
    assert!(
        hint(&c).starts_with("did you mean MAP_HAS?"),
        "{}",
        hint(&c)
    );
}

#[test]
fn suggestions_are_ranked_by_how_the_call_fits_the_signature() {
    // MAP_PUT is three edits from MAP_SET: the map, key and value fit MAP_SET,
    // and MAP_SET's name is nearer than MAP_GET_OR's, which they fit too.
    let p = Prog::new("int")
        .arg("m", "map<string,int>")
        .local("n", "map<string,int>");
    let steps = vec![
        p.assign("n", "(call MAP_PUT (var m) (const \"a\") (const 1))"),
        p.ret("(const 0)"),
    ];
    let c = p.check(steps);
    let d = c.one();
    assert!(
        hint(&c).starts_with("did you mean MAP_SET?"),
        "{}",
        hint(&c)
    );
    let edit = &d.fix.as_ref().expect("a fix").edits[0];
    assert_eq!(
        edit.replacement,
        "(call MAP_SET (var m) (const \"a\") (const 1))"
    );
    // JOIN_STR: a string array and a separator fit JOIN.
    let c = returning(
        Prog::new("string").arg("ws", "string[]"),
        "(call JOIN_STR (var ws) (const \",\"))",
    );
    assert!(hint(&c).starts_with("did you mean JOIN?"), "{}", hint(&c));
    // A synonym whose signature the arguments do not fit: no fix, and the
    // hint says why.
    let c = returning(Prog::new("int"), "(call LENGTH (const 1) (const 2))");
    let d = c.one();
    assert!(d.fix.is_none());
    assert!(
        hint(&c)
            .starts_with("LEN is spelt alike, but these arguments do not fit it: LEN(T[]) -> int"),
        "{}",
        hint(&c)
    );
}

#[test]
fn an_operator_called_as_a_function_is_pointed_out() {
    let c = returning(Prog::new("int"), "(call ADD (const 1) (const 2))");
    assert_eq!(c.codes(), ["unknown_function"]);
    assert!(hint(&c).starts_with("add is an operator, not a function: write (add a b)"));
}

#[test]
fn an_unknown_function_without_a_close_name_lists_the_standard_ones() {
    let c = returning(Prog::new("int"), "(call FROBNICATE (const 1))");
    assert!(
        hint(&c).starts_with("the standard functions are ABS, CEIL, CHARS, CONCAT"),
        "{}",
        hint(&c)
    );
    let c = returning(Prog::new("int"), "(call math.GCD (const 4) (const 6))");
    assert_eq!(
        c.one().message,
        "math.GCD is not a known function: no loaded pack has the namespace `math`"
    );
    assert!(hint(&c).contains("isu plugins add FILE"), "{}", hint(&c));
}

/// Functions with the `math` pack loaded and the `text` pack known but not.
fn math_loaded_text_disabled() -> Functions {
    let mut f = Functions::default();
    f.add_local(std::sync::Arc::new(isu_packs::math::MATH));
    f.add_unavailable(
        "text",
        "the pack `text` is disabled by line 1 of x.toml (user)".into(),
    );
    f
}

#[test]
fn a_misspelt_function_of_a_loaded_pack_is_corrected() {
    let p = Prog::new("int");
    let r = p.ret("(call math.GDC (const 4) (const 6))");
    let c = p.check_with(vec![r], &math_loaded_text_disabled());
    assert_eq!(
        c.one().message,
        "math.GDC is not a function of the pack `math`"
    );
    assert!(
        hint(&c).starts_with("did you mean math.GCD? the pack `math` has CLAMP, GCD, ISQRT, LCM"),
        "{}",
        hint(&c)
    );
    let fix = c
        .one()
        .fix
        .as_ref()
        .and_then(|f| f.edits.first())
        .map(|e| e.replacement.clone());
    assert_eq!(fix.as_deref(), Some("(call math.GCD (const 4) (const 6))"));
}

#[test]
fn a_function_of_a_pack_not_enabled_says_how_to_enable_it() {
    let p = Prog::new("string");
    let r = p.ret("(call text.CHR (const 97))");
    let c = p.check_with(vec![r], &math_loaded_text_disabled());
    assert_eq!(
        c.one().message,
        "text.CHR is not a known function: the pack `text` is not enabled"
    );
    assert_eq!(
        hint(&c),
        "the pack `text` is disabled by line 1 of x.toml (user)"
    );
}

/// The replacements of the one diagnostic's fix, if it has one.
fn fix_edits(c: &Checked) -> Vec<String> {
    c.one()
        .fix
        .iter()
        .flat_map(|f| f.edits.iter())
        .map(|e| e.replacement.clone())
        .collect()
}

fn text_loaded() -> Functions {
    let mut f = Functions::default();
    f.add_local(std::sync::Arc::new(isu_packs::text::TEXT));
    f
}

/// `text.REVERSE`, which the `text` pack had before `REVERSE` was
/// standard, and any standard function written under a namespace: the fix
/// calls the standard function, certain enough for `isu fix` to apply, with
/// the pack loaded or not.
#[test]
fn a_standard_function_under_a_namespace_is_called_without_it() {
    for (functions, message) in [
        (
            text_loaded(),
            "text.REVERSE is not a function of the pack `text`",
        ),
        (
            math_loaded_text_disabled(),
            "text.REVERSE is not a known function: the pack `text` is not enabled",
        ),
    ] {
        let p = Prog::new("string").arg("s", "string");
        let r = p.ret("(call text.REVERSE (var s))");
        let c = p.check_with(vec![r], &functions);
        let d = c.one();
        assert_eq!(d.code.as_str(), "unknown_function");
        assert_eq!(d.message, message);
        assert_eq!(
            hint(&c),
            "REVERSE is a standard function, called without a namespace: REVERSE(T[]) -> T[]; REVERSE(string) -> string (T is any type, the same at each place it appears in one signature)"
        );
        let fix = d.fix.as_ref().expect("a fix");
        assert!(fix.is_certain(), "{fix:?}");
        let edits: Vec<&str> = fix.edits.iter().map(|e| e.replacement.as_str()).collect();
        assert_eq!(edits, ["(call REVERSE (var s))"]);
    }
    let p = Prog::new("int").arg("xs", "int[]");
    let r = p.ret("(call math.len (var xs))");
    let c = p.check_with(vec![r], &math_loaded_text_disabled());
    let edits = fix_edits(&c);
    assert_eq!(edits, ["(call LEN (var xs))"]);
}

#[test]
fn a_standard_name_under_a_namespace_the_arguments_do_not_fit_gets_no_such_fix() {
    let p = Prog::new("string");
    let r = p.ret("(call text.REVERSE (const 5))");
    let c = p.check_with(vec![r], &text_loaded());
    assert!(
        hint(&c).starts_with("the pack `text` has CHR, ENDS_WITH"),
        "{}",
        hint(&c)
    );
    let edits = fix_edits(&c);
    assert!(
        edits.iter().all(|e| !e.starts_with("(call REVERSE")),
        "{edits:?}"
    );
}

#[test]
fn the_arguments_of_an_unknown_function_are_still_checked() {
    let c = returning(Prog::new("int"), "(call FOO (var nope) (const []))");
    assert_eq!(c.codes(), ["unknown_function", "undeclared_variable"]);
}

#[test]
fn wrong_arity_shows_the_signature() {
    let c = returning(
        Prog::new("int").arg("xs", "int[]"),
        "(call LEN (var xs) (var xs))",
    );
    let d = c.one();
    assert_eq!(d.code.as_str(), "wrong_arity");
    assert_eq!(d.message, "LEN takes 1 argument, but 2 are given");
    assert!(hint(&c).contains("LEN(T[]) -> int"));
    assert_eq!(d.expected, Some(1.into()));
    assert_eq!(d.actual, Some(2.into()));
    let c = returning(
        Prog::new("int[]").arg("xs", "int[]"),
        "(call PUSH (var xs))",
    );
    assert_eq!(c.one().message, "PUSH takes 2 arguments, but 1 is given");
}

#[test]
fn a_wrong_argument_of_a_one_signature_function_is_pinpointed() {
    let p = || Prog::new("int[]").arg("xs", "int[]").arg("n", "int");
    let c = returning(p(), "(call PUSH (var xs) (const \"a\"))");
    let d = c.one();
    assert_eq!(d.code.as_str(), "type_mismatch");
    assert_eq!(
        d.message,
        "argument 2 of PUSH must be int, but (const \"a\") is string"
    );
    assert_eq!(c.at(d), "(const \"a\")");
    assert!(hint(&c).starts_with("PUSH(T[], T) -> T[]"));
    let c = returning(p(), "(call PUSH (var n) (const 1))");
    assert_eq!(
        c.one().message,
        "argument 1 of PUSH must be T[], but (var n) is int"
    );
    let c = returning(
        Prog::new("string").arg("m", "map<int,string>"),
        "(call MAP_GET (var m) (const \"k\"))",
    );
    assert_eq!(
        c.one().message,
        "argument 2 of MAP_GET must be int, but (const \"k\") is string"
    );
}

#[test]
fn a_wrong_argument_of_an_overloaded_function_lists_the_signatures() {
    let c = returning(Prog::new("int").arg("n", "int"), "(call LEN (var n))");
    let d = c.one();
    assert_eq!(d.code.as_str(), "type_mismatch");
    assert_eq!(d.message, "no signature of LEN takes (int)");
    assert!(hint(&c).contains("LEN(T[]) -> int; LEN(map<K,V>) -> int; LEN(string) -> int"));
    let c = returning(
        Prog::new("string").arg("s", "string").arg("xs", "string[]"),
        "(call CONCAT (var s) (var xs))",
    );
    assert_eq!(
        c.one().message,
        "no signature of CONCAT takes (string, string[])"
    );
}

#[test]
fn bool_is_no_map_key_for_a_function_either() {
    let c = returning(Prog::new("int"), "(call MAP_GET (const {}) (const true))");
    assert_eq!(
        c.one().message,
        "argument 2 of MAP_GET must be int or string, but (const true) is bool"
    );
}

#[test]
fn a_call_result_must_fit_its_context() {
    let c = returning(
        Prog::new("string").arg("xs", "int[]"),
        "(call LEN (var xs))",
    );
    assert_eq!(c.codes(), ["return_type_mismatch"]);
    assert_eq!(
        c.one().message,
        "the RETURN value must be string (FUNC RETURNS), but (call LEN (var xs)) is int"
    );
    let c = returning(
        Prog::new("string[]").arg("xs", "int[]"),
        "(call PUSH (var xs) (const 1))",
    );
    assert_eq!(c.one().message, "the RETURN value must be string[] (FUNC RETURNS), but (call PUSH (var xs) (const 1)) is int[]");
}

#[test]
fn an_argument_error_inside_a_call_is_reported_once() {
    let c = returning(
        Prog::new("int").arg("xs", "int[]"),
        "(call LEN (call PUSH (var xs) (var y)))",
    );
    assert_eq!(c.codes(), ["undeclared_variable"]);
    assert!(c
        .one()
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("LOCAL: [y: int]"));
}
