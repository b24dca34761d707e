//! What a model is told, generated from the code so that it cannot drift
//! from the toolchain: the language reference (sections, statements, ITER
//! forms, operators, the standard functions and the loaded packs' functions
//! with their signatures, a canonical program, the patch form), the reply
//! contract, and the messages of each round. `isu prompt` prints the
//! reference.

use super::envelope::{Decision, Envelope, ReplyFormat, CLOSE, DECISION_TAG, OPEN, REASON_TAG};
use super::provider::{Message, Role};
use crate::diag::Diagnostic;
use crate::functions::Functions;
use crate::source::Source;
use crate::stdlib::STDLIB;
use crate::syntax::Kw;
use crate::{canon, pipeline};
use isu_plugin_api::{BinaryOp, UnaryOp};
use serde_json::Value;
use std::fmt::Write;

/// The example program of the reference, before canonical printing.
pub(crate) const EXAMPLE: &str = "\
META:
  AUTO_ID: true
FUNC:
  NAME: count_positive
  ARGS: [xs: int[]]
  RETURNS: int
IO:
  INPUT: [{\"xs\": [1, -2, 3]}, {\"xs\": []}]
  OUTPUT: [2, 0]
STATE: [n: int = (const 0)]
LOCAL: [x: int]
STEPS:
  SEQ: BEGIN
    LOOP:
      ITER: (each x (var xs))
      BODY: BEGIN
        IF:
          COND: (gt (var x) (const 0))
          THEN: BEGIN
            ASSIGN:
              TARGET: n
              EXPR: (add (var n) (const 1))
          END
      END
    RETURN:
      EXPR: (var n)
  END
";

/// Example patches of [`EXAMPLE`]'s canonical text: each applies to it and
/// leaves a valid program; the second changes a STATE initial value.
const EXAMPLE_PATCHES: [&str; 2] = [
    "\
PATCH:
  REPLACE S1_1:
    IF:
      COND: (ge (var x) (const 0))
      THEN: BEGIN
        ASSIGN:
          TARGET: n
          EXPR: (add (var n) (const 1))
      END
",
    "\
PATCH:
  REPLACE STATE n: [n: int = (const 1)]
  INSERT_INTO S1_1 ELSE:
    ASSIGN:
      TARGET: n
      EXPR: (sub (var n) (const 1))
  INSERT_BEFORE S2:
    ASSIGN:
      TARGET: n
      EXPR: (mul (var n) (const 2))
",
];

/// The canonical text of the example program (with its step IDs).
pub fn template() -> String {
    let fe = pipeline::parse_canonical(&Source::new("<template>", EXAMPLE));
    fe.program.as_ref().map(canon::print).unwrap_or_default()
}

/// The example patches.
pub fn template_patches() -> &'static [&'static str] {
    &EXAMPLE_PATCHES
}

/// The example program as a model writes it (under AUTO_ID, without IDs).
pub fn template_source() -> &'static str {
    EXAMPLE
}

fn kw(k: Kw) -> &'static str {
    k.as_str()
}

/// The language reference, with the functions of `packs`.
pub fn reference(packs: &Functions) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Isu\n");
    let _ = writeln!(
        out,
        "An Isu program is one function, written in sections in this order: {}: with {}: true (step IDs are then numbered for you), {} ({}, {}, {}), {} (optional: structs, such as [point = {{x: int, y: int}}]), {} ({}: one JSON object of arguments per example, {}: the expected results), {} (variables with an initial value), {} (variables without one), {} (one {}: {} ... {} block).",
        kw(Kw::Meta), kw(Kw::AutoId), kw(Kw::Func), kw(Kw::Name), kw(Kw::Args), kw(Kw::Returns),
        kw(Kw::Types), kw(Kw::Io), kw(Kw::Input), kw(Kw::Output), kw(Kw::State), kw(Kw::Local), kw(Kw::Steps),
        kw(Kw::Seq), kw(Kw::Begin), kw(Kw::End)
    );
    let _ = writeln!(
        out,
        "Keywords start lines; indentation is for reading only; blocks are {} ... {}. Every section but {} and {} is always written: `{}: []` and `{}: []` when there are none.",
        kw(Kw::Begin),
        kw(Kw::End),
        kw(Kw::Meta),
        kw(Kw::Types),
        kw(Kw::State),
        kw(Kw::Local)
    );
    let _ = writeln!(
        out,
        "Every name used must be declared in {}, {} or {}; loop variables are declared in {}. A name is letters, digits and _, not a keyword; type and pack names (string, text) are names like any other. A {} initializer may read {} and earlier {} variables.",
        kw(Kw::Args),
        kw(Kw::State),
        kw(Kw::Local),
        kw(Kw::Local),
        kw(Kw::State),
        kw(Kw::Args),
        kw(Kw::State)
    );
    let _ = writeln!(
        out,
        "Types: int (64-bit), float (64-bit IEEE, finite), bool, string, T[] (arrays), map<K,V> with K int or string, and the structs of {} by name (a struct's JSON is an object with exactly its fields).",
        kw(Kw::Types)
    );
    let _ = writeln!(
        out,
        "Arrays, maps and structs are values: assigning one copies it.\n"
    );
    let _ = writeln!(out, "## Statements\n");
    let _ = writeln!(out, "A step is `ID: KIND` (S1, S2_1, ...) or, under {}, just `KIND:`. Its fields follow, one per line, in this order:", kw(Kw::AutoId));
    for (k, fields) in [
        (
            Kw::Assign,
            format!(
                "{}: the place written: a name, or (index PLACE KEY) or (field PLACE name) with PLACE a name or another such place (`{}: (index (index grid (var i)) (var j))` writes grid[i][j]); {}: the value",
                kw(Kw::Target),
                kw(Kw::Target),
                kw(Kw::Expr)
            ),
        ),
        (
            Kw::If,
            format!(
                "{}: a bool; {}: {} ... {}; {}: {} ... {} (left out when nothing)",
                kw(Kw::Cond),
                kw(Kw::Then),
                kw(Kw::Begin),
                kw(Kw::End),
                kw(Kw::Else),
                kw(Kw::Begin),
                kw(Kw::End)
            ),
        ),
        (
            Kw::Loop,
            format!(
                "{}: the iteration; {}: {} ... {}",
                kw(Kw::Iter),
                kw(Kw::Body),
                kw(Kw::Begin),
                kw(Kw::End)
            ),
        ),
        (Kw::Return, format!("{}: the result", kw(Kw::Expr))),
        (
            Kw::Break,
            format!("no fields; leaves the innermost {}", kw(Kw::Loop)),
        ),
        (
            Kw::Continue,
            format!(
                "no fields; starts the next round of the innermost {}",
                kw(Kw::Loop)
            ),
        ),
        (
            Kw::Seq,
            format!(
                "its block right after the header: {}: {} ... {}",
                kw(Kw::Seq),
                kw(Kw::Begin),
                kw(Kw::End)
            ),
        ),
    ] {
        let _ = writeln!(out, "- {}: {fields}", kw(k));
    }
    let _ = writeln!(
        out,
        "\n{} is one of: (range i START END) for i from START up to END, not included; (range i START END STEP) with a non-zero STEP (negative counts down); a range whose START is at or past its END has no round; (each x ARRAY) for the elements in order (over a map: (each k (call MAP_KEYS (var m)))); (while COND). {} and {} stand only inside a {}'s {}.\n",
        kw(Kw::Iter),
        kw(Kw::Break),
        kw(Kw::Continue),
        kw(Kw::Loop),
        kw(Kw::Body)
    );
    let _ = writeln!(out, "## Expressions\n");
    let _ = writeln!(
        out,
        "Prefix S-expressions only: never infix (a + b), never xs[i], never a bare name or number."
    );
    let _ = writeln!(out, "- (const JSON): (const 1), (const -1), (const 1.5), (const 2.0) (a float: with a fraction or exponent), (const \"a\"), (const true), (const [1, 2]), (const {{}})");
    let _ = writeln!(out, "- (var name)");
    let nary = |o: &BinaryOp| {
        matches!(
            o,
            BinaryOp::Add | BinaryOp::Mul | BinaryOp::And | BinaryOp::Or
        )
    };
    let binary: Vec<&str> = BinaryOp::ALL
        .iter()
        .filter(|o| !nary(o))
        .map(|o| o.name())
        .collect();
    let chains: Vec<&str> = BinaryOp::ALL
        .iter()
        .filter(|o| nary(o))
        .map(|o| o.name())
        .collect();
    let unary: Vec<&str> = UnaryOp::ALL.iter().map(|o| o.name()).collect();
    let _ = writeln!(
        out,
        "- (OP a b), OP one of: {} (exactly two operands)",
        binary.join(" ")
    );
    let _ = writeln!(
        out,
        "- (OP a b c ...), OP one of: {} (two or more operands, left to right; and/or short-circuit)",
        chains.join(" ")
    );
    let _ = writeln!(out, "  eq and ne take two values of one type (any type, compared whole); lt le gt ge two ints, two floats or two strings; on ints div truncates toward zero and mod has the sign of its first operand: (div (const -7) (const 2)) is -3, (mod (const -7) (const 2)) is -1; on floats div is true division, and mod takes ints only");
    let _ = writeln!(out, "  ints and floats never mix: (add (var x) (call FLOAT (var n))); back to int with TRUNC, FLOOR, CEIL or ROUND");
    let _ = writeln!(out, "- (OP a), OP one of: {}", unary.join(" "));
    let _ = writeln!(out, "- (index a i): an element of an array (from 0), a map's value (the key must be there), or the one-character string at i of a string");
    let _ = writeln!(out, "- (list a b ...): an array of one or more values of one type; the empty array is (const [])");
    let _ = writeln!(
        out,
        "- (if c a b): a when c is true, else b; only the chosen one is evaluated"
    );
    let _ = writeln!(out, "- (struct point (x EXPR) (y EXPR)): a struct value, every field once; (field s x): a field of a struct; never (const {{...}}) for a struct");
    let _ = writeln!(
        out,
        "- (call FN args...): one of the functions below, collection first; a pack's function is named with its pack: (call text.STARTS_WITH (var s) (const \"a\"))"
    );
    let _ = writeln!(out, "Integer overflow, division by zero (0.0 too), a float result beyond the float range, an index out of range and a missing map key are runtime errors.\n");
    let _ = writeln!(out, "## Standard functions\n");
    for f in STDLIB {
        let sigs: Vec<String> = f.overloads.iter().map(|o| o.text()).collect();
        let _ = writeln!(out, "- {} {}: {}", f.name, sigs.join(" | "), f.doc);
    }
    if !packs.is_empty() {
        let _ = writeln!(out, "\n## Functions of the loaded packs\n");
        for f in packs.iter() {
            let _ = write!(out, "- {} {}: {}", f.name, f.signature, f.doc);
            if !f.errors.is_empty() {
                let _ = write!(out, " Fails with {}.", f.errors.join("; "));
            }
            out.push('\n');
        }
    }
    let _ = writeln!(out, "\n## A whole program\n");
    let _ = writeln!(
        out,
        "As you write it, under {}: true, steps without IDs:\n",
        kw(Kw::AutoId)
    );
    out.push_str(EXAMPLE);
    let _ = writeln!(
        out,
        "\nAs the toolchain prints it, with the step IDs that errors and patches name:\n"
    );
    out.push_str(&template());
    let _ = writeln!(out, "\n## Patches\n");
    let _ = writeln!(out, "A patch edits steps by ID and declarations by section and name, entries in order, each naming the IDs of the program it was written against:");
    let _ = writeln!(out, "- `REPLACE ID:` then one step; `INSERT_AFTER ID:` or `INSERT_BEFORE ID:` then steps; `INSERT_INTO ID THEN:` (or ELSE; `INSERT_INTO ID:` for a LOOP or SEQ, `INSERT_INTO STEPS:` for the root) then steps, first in that block, which may be empty; `DELETE ID`.");
    let _ = writeln!(out, "- `REPLACE STATE name: [name: int = (const 1)]`, `INSERT_AFTER LOCAL name: [i: int]` (or INSERT_BEFORE), `INSERT_INTO TYPES: [p = {{x: int}}]` (first in the section), `DELETE STATE name`, on STATE, LOCAL and TYPES. FUNC and IO are the task's and stay as they are.");
    let _ = writeln!(out, "- Write inserted steps without IDs: they take the IDs of the place they land in, and the steps after them are renumbered.");
    let _ = writeln!(out, "- When the program does not parse, REPLACE and DELETE still work on every step whose header line is intact (its errors name it); inserts and declaration entries need a program that parses.");
    let _ = writeln!(out, "For example, on the program above:\n");
    for (i, p) in EXAMPLE_PATCHES.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(p);
    }
    out
}

/// The decisions of the repair loop (`isu gen`, `isu repair`).
pub const WRITING: [Decision; 3] = [Decision::Submit, Decision::Patch, Decision::GiveUp];

/// The decisions of `isu explain`.
pub const EXPLAINING: [Decision; 2] = [Decision::Explain, Decision::GiveUp];

/// The system message: the reference and the reply contract in `format`,
/// with the `decisions` of the job, each as the table of decisions says it.
pub fn system(packs: &Functions, decisions: &[Decision], format: ReplyFormat) -> String {
    let mut out = reference(packs);
    let _ = writeln!(out, "\n## How to reply\n");
    let _ = writeln!(out, "{}", reply_shape(format));
    for d in decisions {
        let _ = writeln!(
            out,
            "- \"{}\": the artifact is {}.",
            d.as_str(),
            d.info().says
        );
    }
    let _ = writeln!(
        out,
        "The reason is one short sentence. Each request says which decisions it accepts."
    );
    if decisions.contains(&Decision::Submit) {
        let example = Envelope {
            decision: Decision::Submit,
            artifact: EXAMPLE.to_owned(),
            reason: "counts the positive elements in one loop".to_owned(),
        };
        let _ = writeln!(out, "For example:\n{}", example.write(format).trim_end());
    }
    out
}

/// What a reply in `format` is, in one paragraph.
fn reply_shape(format: ReplyFormat) -> String {
    match format {
        ReplyFormat::Json => "Reply with exactly one JSON object and nothing else: {\"decision\": \"...\", \"artifact\": \"...\", \"reason\": \"...\"}.".to_owned(),
        ReplyFormat::Tagged => format!(
            "Reply with exactly these lines and nothing else: `{DECISION_TAG} <decision>`, then `{REASON_TAG} <reason>`, then a line `{OPEN}`, the artifact as it is (no quotes, no escaping), and a line `{CLOSE}`."
        ),
    }
}

/// The request of `isu explain`: the program (without its examples) and
/// what the description must say.
pub fn explain(text: &str, allow: &[Decision]) -> String {
    format!(
        "Describe what this Isu function does, in plain words that a person who never sees it could write the same function from: what it takes, what it returns for every input (the edge cases too: empty collections, zero, negative numbers, missing keys), and on which inputs it stops with a runtime error. Say what it computes, not how the steps go; do not write Isu or any other code.\n\n{text}\n{}",
        accepted(allow)
    )
}

/// Which decisions a request accepts, as the request says them.
fn accepted(allow: &[Decision]) -> String {
    let names: Vec<String> = allow
        .iter()
        .map(|d| format!("\"{}\"", d.as_str()))
        .collect();
    format!("Accepted decisions: {}.", names.join(", "))
}

/// The first request: the task and the header the program must start with.
pub fn first(words: &str, header: &str, allow: &[Decision]) -> String {
    format!(
        "Write this function in Isu: {words}\n\nThe program starts with exactly this header (its IO examples are the tests the program must pass):\n\n{header}\nThen write STATE, LOCAL and STEPS.\n{}",
        accepted(allow)
    )
}

/// A later request: the program, its errors, what to reply.
pub fn feedback(
    words: &str,
    text: &str,
    errors: &[Value],
    lessons: &[Value],
    allow: &[Decision],
) -> String {
    let mut out = format!("The function: {words}\n\n");
    if allow.contains(&Decision::Patch) {
        let _ = writeln!(out, "The program, with its step IDs:\n\n{text}");
    } else {
        let _ = writeln!(
            out,
            "The program does not parse, so it cannot be patched:\n\n{text}"
        );
    }
    let _ = writeln!(
        out,
        "Its errors, one JSON object a line (step: the step ID; declaration: the STATE, LOCAL or TYPES entry; expected/actual/vars: values):"
    );
    for e in errors {
        let _ = writeln!(out, "{e}");
    }
    out.push('\n');
    out.push_str(&taught(lessons));
    if allow.contains(&Decision::Patch) {
        let _ = writeln!(
            out,
            "Reply with a patch that fixes them: change only the steps (by ID) and declarations (by section and name) that are wrong."
        );
    } else {
        let _ = writeln!(out, "Reply with the whole program again, corrected.");
    }
    out.push_str(&accepted(allow));
    out
}

/// The lessons of earlier repairs (records of `spec/memory.md`), each as
/// the error it was, the step before, and the patch that fixed it; nothing
/// when there are none.
fn taught(lessons: &[Value]) -> String {
    if lessons.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "Earlier repairs of errors like these (the step before, then the patch that fixed it):\n",
    );
    let field = |l: &Value, k: &str| l.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    for l in lessons {
        let _ = write!(out, "\n- {}: {}", field(l, "code"), field(l, "message"));
        match l.get("step_kind").and_then(Value::as_str) {
            Some(kind) => {
                let _ = writeln!(out, " (a {kind} step)");
            }
            None => out.push('\n'),
        }
        let _ = writeln!(out, "{}", field(l, "text").trim_end());
        let _ = writeln!(out, "{}", field(l, "patch").trim_end());
    }
    out.push('\n');
    out
}

/// What a re-ask says about a reply that broke the contract.
pub fn reask(problems: &[String], allow: &[Decision], format: ReplyFormat) -> String {
    let mut out = String::from("Your reply was rejected before anything in it was used:\n");
    for p in problems {
        let _ = writeln!(out, "- {p}");
    }
    let again = match format {
        ReplyFormat::Json => "Reply again with one JSON object: {\"decision\": ..., \"artifact\": ..., \"reason\": ...}.".to_owned(),
        ReplyFormat::Tagged => format!(
            "Reply again with the lines `{DECISION_TAG} ...`, `{REASON_TAG} ...`, `{OPEN}`, the artifact, `{CLOSE}`."
        ),
    };
    let _ = write!(out, "{again} {}", accepted(allow));
    out
}

/// A diagnostic as the model sees it: its JSON without spans and labels
/// (they point into a text it may not have), with the line instead.
pub fn error_json(d: &Diagnostic) -> Value {
    let mut v = d.to_json();
    if let Value::Object(obj) = &mut v {
        if let Some(line) = d.span.map(|s| s.line) {
            obj.insert("line".into(), Value::from(line));
        }
        for k in ["span", "labels", "severity"] {
            obj.remove(k);
        }
    }
    v
}

/// A conversation: the system message, then `user`.
pub fn messages(system: &str, user: String) -> Vec<Message> {
    vec![
        Message::new(Role::System, system),
        Message::new(Role::User, user),
    ]
}
