//! The runtime's shortcuts no program may observe: equal words of one
//! `SPLIT_WHITESPACE` share one string object (`core/text.c`), and a map of
//! 16 or more entries searches a hash index whose slots carry bits of the
//! key's hash (`core/map.c`). Each result is the interpreter's.
#![cfg(isu_llvm)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::*;

/// Splits `text`, appends "!" in place to the first word (which shares its
/// object with the equal words after it), counts the words by a map, and
/// renders the words and the counts.
fn program_text() -> String {
    func(
        "text: string",
        "string",
        "ws: string[], counts: map<string,int>, w: string, out: string",
        "    ASSIGN\n      TARGET: ws\n      EXPR: (call SPLIT_WHITESPACE (var text))\n\
         \x20   ASSIGN\n      TARGET: counts\n      EXPR: (const {})\n\
         \x20   LOOP\n      ITER: (each w (var ws))\n      BODY: BEGIN\n\
         \x20       ASSIGN\n          TARGET: (index counts (var w))\n\
         \x20         EXPR: (add (call MAP_GET_OR (var counts) (var w) (const 0)) (const 1))\n      END\n\
         \x20   ASSIGN\n      TARGET: (index ws (const 0))\n      EXPR: (call CONCAT (index (var ws) (const 0)) (const \"!\"))\n\
         \x20   ASSIGN\n      TARGET: out\n      EXPR: (call JOIN (var ws) (const \",\"))\n\
         \x20   LOOP\n      ITER: (each w (call MAP_KEYS (var counts)))\n      BODY: BEGIN\n\
         \x20       ASSIGN\n          TARGET: out\n\
         \x20         EXPR: (call CONCAT (var out) (call CONCAT (call CONCAT (const \";\") (var w)) (call TO_STRING (index (var counts) (var w)))))\n      END\n\
         \x20   RETURN\n      EXPR: (var out)\n",
    )
}

fn interpreter(text: &str, args: &str) -> String {
    let p = program(text);
    let v: serde_json::Value = serde_json::from_str(args).unwrap();
    let r = isu_host::interp::run(&p, &v, &isu_host::interp::RunOptions::default(), None);
    serde_json::to_string(&r.expect("the interpreter runs it")).unwrap()
}

#[test]
fn equal_words_of_a_split_stay_apart_when_one_changes() {
    let text = program_text();
    let args = r#"{"text": "b a\nb  a c b"}"#;
    let got = run(&text, args);
    assert_eq!(got, r#""b!,a,b,a,c,b;a2;b3;c1""#);
    assert_eq!(got, interpreter(&text, args));
}

#[test]
fn a_hashed_map_of_many_words_counts_as_the_interpreter() {
    // 40 distinct words, some sharing their first bytes, of lengths 1 to 19
    // (the hash's and the comparison's word and tail paths), repeated.
    let words: Vec<String> = (0..40)
        .map(|i| format!("{}{}", "w".repeat(1 + i % 12), i * 7))
        .collect();
    let mut text = String::new();
    for r in 0..3 {
        for (i, w) in words.iter().enumerate() {
            if (i + r) % 2 == 0 || r == 0 {
                text.push_str(w);
                text.push(' ');
            }
        }
    }
    let args = serde_json::json!({ "text": text }).to_string();
    let program = program_text();
    assert_eq!(run(&program, &args), interpreter(&program, &args));
}
