//! The program the front-end benches check: rounds of ASSIGN, IF and LOOP
//! steps with nested expressions, maps, strings and calls, as many as asked.

use std::fmt::Write;

/// A valid program of rounds added until `enough` holds of its text.
pub fn program(enough: impl Fn(&str) -> bool) -> String {
    let mut s = String::from(
        "FUNC:\n  NAME: generated\n  ARGS: [n: int, xs: int[]]\n  RETURNS: int\n\
         IO:\n  INPUT: [{\"n\": 2, \"xs\": [1, 2, 3]}]\n  OUTPUT: [0]\n\
         STATE: [acc: int = (const 0), s: string = (const \"\"), m: map<string,int> = (const {})]\n\
         LOCAL: [i: int, x: int]\nSTEPS:\n  SEQ: BEGIN\n",
    );
    let mut k = 0;
    while !enough(&s) {
        k += 1;
        let (a, b, c) = (3 * k - 2, 3 * k - 1, 3 * k);
        let _ = write!(
            s,
            "    S{a}: ASSIGN \"round {k}\"\n      TARGET: acc\n      EXPR: (add (var acc) (mul (var n) (const {k})))\n\
             \x20   S{b}: IF\n      COND: (lt (var acc) (const 1000))\n      THEN: BEGIN\n\
             \x20       S{b}_1: ASSIGN\n          TARGET: (index m (call TO_STRING (var acc)))\n          EXPR: (call LEN (var xs))\n\
             \x20     END\n      ELSE: BEGIN\n\
             \x20       S{b}_2: ASSIGN\n          TARGET: s\n          EXPR: (call CONCAT (var s) (const \"x\\\"y\"))\n\
             \x20     END\n\
             \x20   S{c}: LOOP\n      ITER: (range i (const 0) (call LEN (var xs)) (const 2))\n      BODY: BEGIN\n\
             \x20       S{c}_1: ASSIGN\n          TARGET: x\n          EXPR: (index (var xs) (var i))\n      END\n"
        );
    }
    let _ = write!(
        s,
        "    S{}: RETURN\n      EXPR: (var acc)\n  END\n",
        3 * k + 1
    );
    s
}
