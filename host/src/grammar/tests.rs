//! The grammar's invariants, which every printer relies on, and the two
//! regular constructions, checked against the `regex` crate.

use super::model::{Expr, Grammar};
use super::words::{decimal_up_to, unreserved, Reserved};
use super::*;
use std::collections::BTreeSet;

fn grammars() -> Vec<Grammar> {
    let mut v = Vocabulary::standard();
    v.add("math.GCD", 2);
    v.add("m.ZERO", 0);
    [Start::Program, Start::Patch, Start::Any]
        .into_iter()
        .map(|s| grammar(&v, s))
        .collect()
}

fn tokens(g: &Grammar) -> BTreeSet<&str> {
    g.rules
        .iter()
        .filter(|r| r.token)
        .map(|r| r.name.as_str())
        .collect()
}

/// Whether `e` holds a character class or a description outside an exception's `minus`.
fn has(e: &Expr, class: bool) -> bool {
    match e {
        Expr::Class(_) => class,
        Expr::Described(_) => !class,
        Expr::Lit(_) | Expr::Ref(_) => false,
        Expr::Seq(items) | Expr::Alt(items) => items.iter().any(|i| has(i, class)),
        Expr::Repeat { item, .. } => has(item, class),
        Expr::Except { base, expanded, .. } => has(base, class) || has(expanded, class),
    }
}

#[test]
fn every_rule_is_defined_once_and_used() {
    for g in grammars() {
        assert_eq!(g.undefined(), BTreeSet::new());
        let names: Vec<&str> = g.rules.iter().map(|r| r.name.as_str()).collect();
        let unique: BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(names.len(), unique.len(), "a rule defined twice");
        let used: BTreeSet<String> = g.edges().into_values().flatten().collect();
        for r in &g.rules[1..] {
            assert!(used.contains(&r.name), "{} is never used", r.name);
        }
    }
}

#[test]
fn no_rule_matches_the_empty_text_or_is_left_recursive() {
    // llama.cpp refuses left recursion; Lark refuses empty terminals, and an
    // empty rule would become one in llguidance's GBNF conversion.
    for g in grammars() {
        assert_eq!(g.nullable_rules(), BTreeSet::new());
        assert_eq!(g.left_recursive(), BTreeSet::new());
    }
}

#[test]
fn tokens_are_regular_and_hold_the_classes() {
    for g in grammars() {
        let toks = tokens(&g);
        let recursive: BTreeSet<String> = g.recursive_groups().into_iter().flatten().collect();
        for r in &g.rules {
            let mut refs = Vec::new();
            r.body.each_ref(&mut |n| refs.push(n.to_owned()));
            if r.token {
                assert!(
                    !recursive.contains(&r.name),
                    "token {} is recursive",
                    r.name
                );
                for n in &refs {
                    assert!(toks.contains(n.as_str()), "token {} uses rule {n}", r.name);
                }
            } else {
                assert!(
                    !has(&r.body, true),
                    "rule {} holds a character class",
                    r.name
                );
            }
            assert!(
                !has(&r.body, false),
                "{}: a description outside an exception",
                r.name
            );
        }
    }
}

#[test]
fn calls_take_the_functions_arities() {
    let g = grammar(&Vocabulary::standard(), Start::Program);
    let lark = print(&g, Format::Lark);
    assert!(lark.contains("function_3: \"MAP_GET_OR\""));
    let one = g
        .get("function_1")
        .map(|r| format!("{:?}", r.body))
        .unwrap_or_default();
    assert!(one.contains("\"LEN\"") && !one.contains("\"PUSH\""));
    assert!(g.get("function_0").is_none());
}

fn whole(e: &Expr) -> ::regex::Regex {
    let g = Grammar {
        rules: vec![model::Rule {
            name: "x".into(),
            token: true,
            doc: String::new(),
            body: e.clone(),
        }],
    };
    let rx = print(&g, Format::RegexLite);
    ::regex::Regex::new(&format!("^(?:{})$", rx.trim_end())).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn decimals_up_to_a_bound() {
    let d = whole(&decimal_up_to("9223372036854775807"));
    for ok in [
        "0",
        "7",
        "10",
        "999999999999999999",
        "9223372036854775807",
        "9223372036854775799",
        "1000000000000000000",
    ] {
        assert!(d.is_match(ok), "{ok}");
    }
    for bad in [
        "",
        "01",
        "9223372036854775808",
        "9223372036854775810",
        "9300000000000000000",
        "10000000000000000000",
        "-1",
    ] {
        assert!(!d.is_match(bad), "{bad}");
    }
    let small = whole(&decimal_up_to("305"));
    let accepted: Vec<u32> = (0..1000)
        .filter(|n| small.is_match(&n.to_string()))
        .collect();
    assert_eq!(accepted, (0..=305).collect::<Vec<_>>());
    let digit = whole(&decimal_up_to("5"));
    assert!(digit.is_match("5") && digit.is_match("0") && !digit.is_match("6"));
}

#[test]
fn words_that_are_not_reserved() {
    let reserved = Reserved {
        words: vec!["SEQ".into(), "STATE".into(), "IF".into(), "true".into()],
        shapes: vec![("S".into(), model::Class::of(&[('0', '9'), ('_', '_')]))],
    };
    let letter = model::Class::of(&[('A', 'Z'), ('a', 'z'), ('_', '_')]);
    let word = model::Class::of(&[('A', 'Z'), ('a', 'z'), ('_', '_'), ('0', '9')]);
    let e = unreserved(&letter, &word, &reserved).unwrap_or_else(|| panic!("no expansion"));
    let re = whole(&e);
    for ok in [
        "S", "SE", "SEQS", "S1x", "S_a", "Sx", "STAT", "STATES", "I", "IFF", "tru", "truex", "x",
        "_", "if", "seq",
    ] {
        assert!(re.is_match(ok), "{ok} is a name");
    }
    for bad in [
        "SEQ", "STATE", "IF", "true", "S1", "S1_2", "S_", "S__", "1x", "",
    ] {
        assert!(!re.is_match(bad), "{bad} is reserved");
    }
}

#[test]
fn regex_lite_is_a_superset_that_still_sees_tokens() {
    let g = grammar(&Vocabulary::standard(), Start::Program);
    let rx = print(&g, Format::RegexLite);
    let re = ::regex::RegexBuilder::new(&format!("^(?:{})$", rx.trim_end()))
        .size_limit(1 << 26)
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let program = "FUNC:\n  NAME: f\n  ARGS: [xs: int[]]\n  RETURNS: int\nIO:\n  INPUT: []\n  OUTPUT: []\nSTATE: []\nLOCAL: []\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (call LEN (var xs))\n  END\n";
    assert!(re.is_match(program));
    // Nesting is not counted...
    assert!(re.is_match(&program.replace("(var xs))", "(var xs)")));
    // ...but tokens and lines are.
    assert!(!re.is_match(&program.replace("(call LEN (var xs))", "(+ (var xs) (const 1))")));
    assert!(!re.is_match(&program.replace("(call LEN (var xs))", "xs[0]")));
    assert!(!re.is_match(&program.replace("RETURN\n", "return\n")));
}
