use super::*;

/// The slot at the `|` of `marked` (which is taken out), and the word there.
fn check(marked: &str, slot: Slot, word: Option<&str>) {
    let offset = marked
        .find('|')
        .unwrap_or_else(|| panic!("no | in {marked:?}"));
    let text = marked.replacen('|', "", 1);
    let c = cursor(&text, offset as u32);
    assert_eq!(c.slot, slot, "{marked}");
    let got = c
        .word
        .map(|w| &text[w.span.lo as usize..w.span.hi as usize]);
    assert_eq!(got, word, "{marked}");
}

const HEAD: &str = "FUNC:\n  NAME: f\n  ARGS: [xs: int[], m: map<string, int>]\n  RETURNS: int\nSTATE: [total: int = (const 0)]\nLOCAL: [x: int]\nSTEPS:\n  SEQ: BEGIN\n";

#[test]
fn sections_and_their_fields() {
    check(
        "|",
        Slot::Section {
            section: None,
            given: vec![],
        },
        None,
    );
    check(
        "FUNC:\n  NAME: f\n  AR|",
        Slot::Section {
            section: Some(Kw::Func),
            given: vec![Kw::Name],
        },
        Some("AR"),
    );
    check("FUNC:\n  NAME: f\n  RETURNS: |", Slot::Type, None);
}

#[test]
fn statements_and_the_fields_a_step_lacks() {
    check(
        &format!("{HEAD}    S1: IF\n      COND: (var b)\n      |"),
        Slot::Statement {
            step: Some(Kw::If),
            given: vec![Kw::Cond],
        },
        None,
    );
    check(
        &format!("{HEAD}    S1: IF\n      COND: (var b)\n      THEN: BEGIN\n        AS|"),
        Slot::Statement {
            step: None,
            given: vec![],
        },
        Some("AS"),
    );
    check(&format!("{HEAD}    S1: |"), Slot::StepKind, None);
}

#[test]
fn expressions() {
    let assign = format!("{HEAD}    S1: ASSIGN\n      TARGET: x\n      EXPR: ");
    check(
        &format!("{assign}(|"),
        Slot::Operator {
            field: Some(Kw::Expr),
        },
        None,
    );
    check(
        &format!("{assign}(ad|"),
        Slot::Operator {
            field: Some(Kw::Expr),
        },
        Some("ad"),
    );
    check(&format!("{assign}(call |"), Slot::Function, None);
    check(&format!("{assign}(call LE|)"), Slot::Function, Some("LE"));
    check(
        &format!("{assign}(add (var to|) (const 1))"),
        Slot::Variable,
        Some("to"),
    );
    check(&format!("{assign}(add (var total) |"), Slot::Other, None);
    check(&format!("{assign}|"), Slot::Value { field: Kw::Expr }, None);
    check(
        &format!("{HEAD}    S1: LOOP\n      ITER: (|"),
        Slot::Operator {
            field: Some(Kw::Iter),
        },
        None,
    );
    check(
        &format!("{HEAD}    S1: ASSIGN\n      TARGET: (index |"),
        Slot::Variable,
        None,
    );
    check(
        &format!("{assign}(const \"a|b\")"),
        Slot::Other,
        Some("\"ab\""),
    );
}

#[test]
fn types_in_declarations() {
    check("FUNC:\n  NAME: f\n  ARGS: [xs: |", Slot::Type, None);
    check("LOCAL: [x: int, y: st|]", Slot::Type, Some("st"));
    check("LOCAL: [x: int, |]", Slot::Other, None);
}

#[test]
fn declarations_as_written() {
    let text = format!(
        "TYPES: [point = {{x: int, y: int}}]\n{HEAD}    S1: RETURN\n      EXPR: (var total)\n  END\n"
    );
    let got: Vec<(String, DeclKind, String)> = declared(&text)
        .into_iter()
        .map(|d| (d.name, d.kind, d.ty))
        .collect();
    let want = [
        ("point", DeclKind::Struct, "{x: int, y: int}"),
        ("xs", DeclKind::Arg, "int[]"),
        ("m", DeclKind::Arg, "map<string, int>"),
        ("total", DeclKind::State, "int"),
        ("x", DeclKind::Local, "int"),
    ];
    let want: Vec<(String, DeclKind, String)> = want
        .iter()
        .map(|(n, k, t)| ((*n).to_owned(), *k, (*t).to_owned()))
        .collect();
    assert_eq!(got, want);
    // The name's own place.
    let x = declared(&text)
        .into_iter()
        .find(|d| d.name == "x")
        .unwrap_or_else(|| panic!("no x"));
    assert_eq!(&text[x.name_span.lo as usize..x.name_span.hi as usize], "x");
    assert_eq!(&text[x.span.lo as usize..x.span.hi as usize], "x: int");
}

#[test]
fn declarations_of_a_text_that_does_not_parse() {
    let text = "FUNC:\n  NAME: f\n  ARGS: [n: int]\n  RETURNS: int\nLOCAL: [i: int]\nSTEPS:\n  SEQ: BEGIN\n    S1: ASSIGN\n      TARGET: i\n      EXPR: (add (var \n";
    let names: Vec<String> = declared(text).into_iter().map(|d| d.name).collect();
    assert_eq!(names, ["n", "i"]);
}
