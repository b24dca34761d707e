//! The standard functions on runtime values, dispatched on [`Builtin`].
//!
//! Each takes its arguments by reference and returns a new value, or the code
//! and message of its runtime error (the caller adds the span and step). The
//! in-place forms ([`update`]) serve `ASSIGN xs (call PUSH (var xs) v)` and
//! its kin: they change the target where it lies, so a loop that grows an
//! array costs amortized O(1) a round instead of a copy.

use super::table::KeyHasher;
use super::value::{Elem, Items, Key, Table, Text, Value};
use crate::stdlib::Builtin;
use isu_lang::float;
use isu_lang::update::Update;
use isu_lang::RuntimeCode;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::rc::Rc;

/// A standard function's runtime error, before it knows where it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub code: RuntimeCode,
    pub message: String,
}

pub type Res<T> = Result<T, Failure>;

fn fail<T>(code: RuntimeCode, message: impl Into<String>) -> Res<T> {
    Err(Failure {
        code,
        message: message.into(),
    })
}

/// A value of the wrong kind reached a function: only a program the
/// validator did not accept can cause it.
fn bad_args<T>(b: Builtin, args: &[&Value]) -> Res<T> {
    let kinds: Vec<&str> = args.iter().map(|v| v.kind_name()).collect();
    fail(
        RuntimeCode::InternalError,
        format!(
            "{b:?} got {} (the program was not validated)",
            kinds.join(", ")
        ),
    )
}

/// The size limit: the most elements, entries or characters a value may hold.
pub fn too_big(what: &str, size: usize, max: usize) -> Failure {
    Failure {
        code: RuntimeCode::SizeLimit,
        message: format!("{what} would hold {size} items, more than the size limit of {max}"),
    }
}

pub(super) fn check_size(what: &str, size: usize, max: usize) -> Res<()> {
    if size > max {
        Err(too_big(what, size, max))
    } else {
        Ok(())
    }
}

/// The text of a value in messages: JSON, truncated.
pub fn show(v: &Value) -> String {
    let mut s = String::new();
    super::value::write_shown(v, &mut s);
    s
}

pub fn call1(b: Builtin, a: &Value, max: usize) -> Res<Value> {
    match (b, a) {
        (Builtin::Len, Value::Array(xs)) => Ok(Value::Int(xs.len() as i64)),
        (Builtin::Len, Value::Map(m)) => Ok(Value::Int(m.len() as i64)),
        (Builtin::Len, Value::Str(s)) => Ok(Value::Int(s.chars() as i64)),
        (Builtin::Pop, Value::Array(xs)) => match xs.len() {
            0 => fail(RuntimeCode::EmptyCollection, "POP of an empty array"),
            n => Ok(Value::Array(Rc::new(xs.slice(0, n - 1)))),
        },
        (Builtin::Lower, Value::Str(s)) => Ok(Value::Str(Rc::new(s.to_ascii_lowercase()))),
        (Builtin::Upper, Value::Str(s)) => Ok(Value::str(&s.as_str().to_ascii_uppercase())),
        (Builtin::Sort, Value::Array(xs)) => Ok(Value::Array(Rc::new(sorted(xs)))),
        (Builtin::Reverse, Value::Array(xs)) => Ok(Value::Array(Rc::new(xs.reversed()))),
        (Builtin::Reverse, Value::Str(s)) => Ok(Value::string(s.as_str().chars().rev().collect())),
        (Builtin::Abs, Value::Int(i)) => match i.checked_abs() {
            Some(r) => Ok(Value::Int(r)),
            None => fail(
                RuntimeCode::IntOverflow,
                format!("ABS({i}) does not fit in 64 bits"),
            ),
        },
        (Builtin::Abs, Value::Float(x)) => Ok(Value::float(x.0.abs())),
        (Builtin::Float, Value::Int(i)) => Ok(Value::float(float::of_int(*i))),
        (Builtin::Trunc | Builtin::Floor | Builtin::Ceil | Builtin::Round, Value::Float(x)) => {
            to_int(b, x.0)
        }
        (Builtin::Sqrt, Value::Float(x)) if x.0 < 0.0 => fail(
            RuntimeCode::OutOfDomain,
            format!("SQRT({}) of a number below zero", float::repr(x.0)),
        ),
        (Builtin::Sqrt, Value::Float(x)) => Ok(Value::float(x.0.sqrt())),
        (Builtin::ToString, Value::Float(x)) => Ok(Value::string(float::repr(x.0))),
        (Builtin::ParseFloat, Value::Str(s)) => match float::parse(s.as_str()) {
            Ok(x) => Ok(Value::float(x)),
            Err(code) => fail(code, parse_float_failure(code, s.as_str())),
        },
        (Builtin::SplitWhitespace, Value::Str(s)) => Ok(pieces(words(s.as_str()))),
        (Builtin::ToString, Value::Int(i)) => Ok(Value::Str(Rc::new(super::text::decimal(*i)))),
        (Builtin::ParseInt, Value::Str(s)) => parse_int(s.as_str()).map(Value::Int),
        (Builtin::MapKeys, Value::Map(m)) => {
            Ok(Value::array(m.keys().map(Key::to_value).collect()))
        }
        (Builtin::Chars, Value::Str(s)) => {
            check_size("CHARS", s.chars(), max)?;
            let text = s.as_str();
            Ok(pieces(text.char_indices().map(|(i, c)| {
                text.get(i..i + c.len_utf8()).unwrap_or_default()
            })))
        }
        _ => bad_args(b, &[a]),
    }
}

pub fn call2(b: Builtin, a: &Value, c: &Value, max: usize) -> Res<Value> {
    match (b, a, c) {
        (Builtin::Push, Value::Array(xs), x) => {
            check_size("PUSH's result", xs.len() + 1, max)?;
            let mut out = xs.with_room(1);
            out.push(x.clone());
            Ok(Value::Array(Rc::new(out)))
        }
        (Builtin::MapHas, Value::Map(m), k) => Ok(Value::Bool(m.contains_key(&key(k)?))),
        (Builtin::MapGet, Value::Map(m), k) => map_get(m, k).cloned(),
        (Builtin::Join, Value::Array(xs), Value::Str(sep)) => join(xs, sep, max),
        (Builtin::Split, Value::Str(s), Value::Str(sep)) => split(s, sep, max),
        (Builtin::Contains, Value::Str(s), Value::Str(t)) => {
            Ok(Value::Bool(s.as_str().contains(t.as_str())))
        }
        (Builtin::Contains, Value::Array(xs), x) => Ok(Value::Bool(xs.iter().any(|e| e == *x))),
        (Builtin::IndexOf, Value::Str(s), Value::Str(t)) => {
            let at = s.as_str().find(t.as_str()).map(|b| {
                let before = s.as_str().get(..b).unwrap_or("");
                before.chars().count()
            });
            Ok(Value::Int(at.map_or(-1, |i| i as i64)))
        }
        (Builtin::IndexOf, Value::Array(xs), x) => {
            let at = xs.iter().position(|e| e == *x);
            Ok(Value::Int(at.map_or(-1, |i| i as i64)))
        }
        (Builtin::Min, Value::Int(x), Value::Int(y)) => Ok(Value::Int(*x.min(y))),
        (Builtin::Max, Value::Int(x), Value::Int(y)) => Ok(Value::Int(*x.max(y))),
        (Builtin::Min, Value::Float(x), Value::Float(y)) => Ok(Value::float(float::min(x.0, y.0))),
        (Builtin::Max, Value::Float(x), Value::Float(y)) => Ok(Value::float(float::max(x.0, y.0))),
        (Builtin::Concat, Value::Str(s), Value::Str(t)) => {
            check_size("CONCAT's result", s.chars() + t.chars(), max)?;
            let mut out = Text::with_capacity(s.as_bytes().len() + t.as_bytes().len());
            out.push_text(s);
            out.push_text(t);
            Ok(Value::Str(Rc::new(out)))
        }
        (Builtin::Concat, Value::Array(xs), Value::Array(ys)) => {
            check_size("CONCAT's result", xs.len() + ys.len(), max)?;
            let mut out = xs.with_room(ys.len());
            out.extend(ys);
            Ok(Value::Array(Rc::new(out)))
        }
        (Builtin::Repeat, x, Value::Int(n)) => {
            let Ok(n) = usize::try_from(*n) else {
                return fail(
                    RuntimeCode::NegativeCount,
                    format!("REPEAT with the count {n}, below 0"),
                );
            };
            check_size("REPEAT's result", n, max)?;
            Ok(Value::Array(Rc::new(Items::repeat(x, n))))
        }
        _ => bad_args(b, &[a, c]),
    }
}

pub fn call3(b: Builtin, a: &Value, c: &Value, d: &Value, max: usize) -> Res<Value> {
    match (b, a, c, d) {
        (Builtin::Slice, Value::Array(xs), Value::Int(lo), Value::Int(hi)) => {
            let (lo, hi) = slice_bounds(*lo, *hi, xs.len())?;
            Ok(Value::Array(Rc::new(xs.slice(lo, hi))))
        }
        (Builtin::Slice, Value::Str(s), Value::Int(lo), Value::Int(hi)) => {
            let (lo, hi) = slice_bounds(*lo, *hi, s.chars())?;
            Ok(Value::Str(Rc::new(s.slice(lo, hi))))
        }
        (Builtin::MapSet, Value::Map(m), k, v) => {
            if !m.contains_key(&key(k)?) {
                check_size("MAP_SET's result", m.len() + 1, max)?;
            }
            let mut out: Table = (**m).clone();
            out.insert(key(k)?, v.clone());
            Ok(Value::Map(Rc::new(out)))
        }
        (Builtin::MapGetOr, Value::Map(m), k, default) => {
            Ok(m.get(&key(k)?).unwrap_or(default).clone())
        }
        _ => bad_args(b, &[a, c, d]),
    }
}

/// `SORT`: the elements in ascending order (equal elements are equal
/// values, so no order among them can show).
fn sorted(xs: &Items) -> Items {
    match xs {
        Items::Ints(v) => {
            let mut v = v.clone();
            v.sort_unstable();
            Items::Ints(v)
        }
        Items::Bools(v) => {
            let mut v = v.clone();
            v.sort_unstable();
            Items::Bools(v)
        }
        Items::Vals(v) => {
            let mut v = v.clone();
            v.sort();
            Items::Vals(v)
        }
    }
}

/// `TRUNC`, `FLOOR`, `CEIL` or `ROUND` of `x`: its integral float in the
/// function's direction, as an int when the int range holds it.
fn to_int(b: Builtin, x: f64) -> Res<Value> {
    let integral = match b {
        Builtin::Trunc => x.trunc(),
        Builtin::Floor => x.floor(),
        Builtin::Ceil => x.ceil(),
        _ => float::round_half_even(x),
    };
    match float::to_int(integral) {
        Ok(i) => Ok(Value::Int(i)),
        Err(code) => fail(
            code,
            format!(
                "{}({}) is {}, outside the 64-bit int range",
                b.name(),
                float::repr(x),
                float::repr(integral)
            ),
        ),
    }
}

/// Why `PARSE_FLOAT` refused `text`.
fn parse_float_failure(code: RuntimeCode, text: &str) -> String {
    let shown = show(&Value::str(text));
    if code == RuntimeCode::FloatNotFinite {
        format!(
            "PARSE_FLOAT({shown}): the number is beyond the float range (about 1.8e+308 in size)"
        )
    } else {
        format!("PARSE_FLOAT({shown}): not a decimal number (digits with an optional sign, fraction and exponent)")
    }
}

/// `SPLIT`: the pieces between the separator's occurrences.
fn split(s: &Text, sep: &Text, max: usize) -> Res<Value> {
    if sep.as_str().is_empty() {
        return fail(
            RuntimeCode::EmptySeparator,
            "SPLIT with the empty separator",
        );
    }
    let count = s.as_str().matches(sep.as_str()).count() + 1;
    check_size("SPLIT's result", count, max)?;
    Ok(pieces(s.as_str().split(sep.as_str())))
}

/// The pieces of a text as an array of strings, equal pieces sharing one
/// value: the words of a text repeat, and a value per distinct word instead
/// of one per word saves the allocations, and lets a map that counts them
/// find its keys by their address.
fn pieces<'a>(parts: impl Iterator<Item = &'a str>) -> Value {
    let mut seen: HashMap<&'a str, Value, BuildHasherDefault<KeyHasher>> = HashMap::default();
    let items = parts
        .map(|p| seen.entry(p).or_insert_with(|| Value::str(p)).clone())
        .collect();
    Value::array(items)
}

/// Applies `op` to the value at `place` with the other arguments `rest`, in
/// place: the result equals `callN(op, place, rest...)`, and on an error the
/// place is unchanged. (The machine runs the two halves apart, spending
/// the work and checking the memory between them.)
#[cfg(test)]
pub fn update(op: Update, place: &mut Value, rest: &[Value], max: usize) -> Res<()> {
    check_update(op, place, rest, max)?;
    apply_update(op, place, rest);
    Ok(())
}

/// The errors of [`update`], found without changing anything: what the call
/// fails with, if it does.
pub fn check_update(op: Update, place: &Value, rest: &[Value], max: usize) -> Res<()> {
    match (op, place, rest) {
        (Update::Push, Value::Array(xs), [_]) => check_size("PUSH's result", xs.len() + 1, max),
        (Update::Pop, Value::Array(xs), []) if xs.is_empty() => {
            fail(RuntimeCode::EmptyCollection, "POP of an empty array")
        }
        (Update::Pop, Value::Array(_), []) => Ok(()),
        (Update::MapSet, Value::Map(m), [k, _]) => {
            if !m.contains_key(&key(k)?) {
                check_size("MAP_SET's result", m.len() + 1, max)?;
            }
            Ok(())
        }
        (Update::Concat, Value::Str(s), [Value::Str(t)]) => {
            check_size("CONCAT's result", s.chars() + t.chars(), max)
        }
        (Update::Concat, Value::Array(xs), [Value::Array(ys)]) => {
            check_size("CONCAT's result", xs.len() + ys.len(), max)
        }
        _ => {
            let mut args = vec![place];
            args.extend(rest);
            bad_args(op.builtin(), &args)
        }
    }
}

/// Applies an update [`check_update`] passed.
pub fn apply_update(op: Update, place: &mut Value, rest: &[Value]) {
    match (op, place, rest) {
        (Update::Push, Value::Array(xs), [x]) => Rc::make_mut(xs).push(x.clone()),
        (Update::Pop, Value::Array(xs), []) => {
            Rc::make_mut(xs).pop();
        }
        (Update::MapSet, Value::Map(m), [k, v]) => {
            if let Ok(k) = key(k) {
                Rc::make_mut(m).insert(k, v.clone());
            }
        }
        (Update::Concat, Value::Str(s), [Value::Str(t)]) => Rc::make_mut(s).push_text(t),
        (Update::Concat, Value::Array(xs), [Value::Array(ys)]) => Rc::make_mut(xs).extend(ys),
        _ => {}
    }
}

/// A map read (`index` or `MAP_GET`): a missing key is an error.
pub fn map_get<'m>(m: &'m Table, k: &Value) -> Res<&'m Value> {
    match m.get(&key(k)?) {
        Some(v) => Ok(v),
        None => fail(
            RuntimeCode::MissingKey,
            format!("the key {} is not in the map ({} keys)", show(k), m.len()),
        ),
    }
}

/// An array read: the index must be in `0..len`.
pub fn array_get<'a>(xs: &'a Items, i: &Value) -> Res<Elem<'a>> {
    let Value::Int(i) = i else {
        return fail(
            RuntimeCode::InternalError,
            format!("an array index is {}", i.kind_name()),
        );
    };
    match usize::try_from(*i).ok().and_then(|u| xs.elem(u)) {
        Some(x) => Ok(x),
        None => fail(
            RuntimeCode::IndexOutOfRange,
            format!(
                "index {i} is out of range for an array of length {}",
                xs.len()
            ),
        ),
    }
}

fn slice_bounds(lo: i64, hi: i64, len: usize) -> Res<(usize, usize)> {
    match (usize::try_from(lo), usize::try_from(hi)) {
        (Ok(l), Ok(h)) if l <= h && h <= len => Ok((l, h)),
        _ => fail(
            RuntimeCode::IndexOutOfRange,
            format!("SLICE from {lo} to {hi} is outside 0 <= start <= end <= {len}"),
        ),
    }
}

fn join(xs: &Items, sep: &Text, max: usize) -> Res<Value> {
    let xs = match xs {
        Items::Vals(xs) => xs,
        _ if xs.is_empty() => return Ok(Value::str("")),
        _ => return bad_args(Builtin::Join, &[&Value::Array(Rc::new(xs.clone()))]),
    };
    let mut chars = sep.chars().saturating_mul(xs.len().saturating_sub(1));
    let mut bytes = sep
        .as_bytes()
        .len()
        .saturating_mul(xs.len().saturating_sub(1));
    for x in xs {
        let Value::Str(s) = x else {
            return bad_args(Builtin::Join, &[x]);
        };
        chars = chars.saturating_add(s.chars());
        bytes = bytes.saturating_add(s.as_bytes().len());
    }
    check_size("JOIN's result", chars, max)?;
    let mut out = Vec::with_capacity(bytes);
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(sep.as_bytes());
        }
        if let Value::Str(s) = x {
            out.extend_from_slice(s.as_bytes());
        }
    }
    // Whole UTF-8 texts joined are UTF-8: this checks it once, in one pass.
    let out = String::from_utf8(out).unwrap_or_default();
    Ok(Value::string(out))
}

/// The whitespace of `SPLIT_WHITESPACE`: space, `\t`, `\n`, `\x0b`, `\x0c`, `\r`.
/// The words of `s`: its longest runs without Isu whitespace. Every
/// whitespace character is ASCII, and no byte of a longer UTF-8 sequence is,
/// so the text is scanned by bytes and cut only at character boundaries.
fn words(s: &str) -> impl Iterator<Item = &str> {
    let bytes = s.as_bytes();
    let space = |b: u8| is_isu_whitespace(char::from(b));
    let mut at = 0;
    std::iter::from_fn(move || {
        while bytes.get(at).is_some_and(|&b| space(b)) {
            at += 1;
        }
        let start = at;
        while bytes.get(at).is_some_and(|&b| !space(b)) {
            at += 1;
        }
        (at > start).then(|| s.get(start..at)).flatten()
    })
}

fn is_isu_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')
}

/// `PARSE_INT`: `-?[0-9]+` within 64 bits, nothing else.
fn parse_int(s: &str) -> Res<i64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return fail(
            RuntimeCode::ParseIntFailed,
            format!(
                "PARSE_INT of {}: not an optional '-' followed by digits",
                show(&Value::str(s))
            ),
        );
    }
    s.parse().or_else(|_| {
        fail(
            RuntimeCode::ParseIntFailed,
            format!(
                "PARSE_INT of {}: outside the 64-bit range",
                show(&Value::str(s))
            ),
        )
    })
}

/// The map key of a value (an int or a string).
#[inline]
pub fn key(v: &Value) -> Res<Key> {
    match Key::of(v) {
        Some(k) => Ok(k),
        None => fail(
            RuntimeCode::InternalError,
            format!("a map key is {}", v.kind_name()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: usize = 1000;

    fn s(x: &str) -> Value {
        Value::str(x)
    }

    fn ints(xs: &[i64]) -> Value {
        Value::array(xs.iter().copied().map(Value::Int).collect())
    }

    fn code<T: std::fmt::Debug>(r: Res<T>) -> RuntimeCode {
        match r {
            Err(f) => f.code,
            Ok(v) => panic!("expected an error, got {v:?}"),
        }
    }

    #[test]
    fn parse_int_accepts_exactly_optional_minus_and_digits() {
        assert_eq!(parse_int("007"), Ok(7));
        assert_eq!(parse_int("-0"), Ok(0));
        assert_eq!(parse_int("-9223372036854775808"), Ok(i64::MIN));
        for bad in [
            "",
            "-",
            "+1",
            " 1",
            "1 ",
            "1_000",
            "9223372036854775808",
            "١",
        ] {
            assert_eq!(code(parse_int(bad)), RuntimeCode::ParseIntFailed, "{bad:?}");
        }
    }

    #[test]
    fn split_whitespace_is_ascii_only() {
        let r = call1(
            Builtin::SplitWhitespace,
            &s(" a\u{b}b\u{c}c\r\nd\u{a0}e "),
            MAX,
        );
        assert_eq!(
            r,
            Ok(Value::array(vec![s("a"), s("b"), s("c"), s("d\u{a0}e")]))
        );
        assert_eq!(
            call1(Builtin::SplitWhitespace, &s("  "), MAX),
            Ok(ints(&[]))
        );
        assert_eq!(
            call1(Builtin::SplitWhitespace, &s("\tÀé  ü\t"), MAX),
            Ok(Value::array(vec![s("Àé"), s("ü")]))
        );
    }

    #[test]
    fn equal_pieces_share_one_value() {
        let shared = |r: Res<Value>| -> Vec<bool> {
            let Ok(Value::Array(xs)) = r else {
                return Vec::new();
            };
            let strs: Vec<Rc<Text>> = xs
                .iter()
                .filter_map(|v| match v {
                    Value::Str(t) => Some(t),
                    _ => None,
                })
                .collect();
            strs.iter().map(|t| Rc::ptr_eq(t, &strs[0])).collect()
        };
        let words = call1(Builtin::SplitWhitespace, &s("to be or not to be to"), MAX);
        assert_eq!(
            shared(words.clone()),
            [true, false, false, false, true, false, true]
        );
        assert_eq!(
            words,
            Ok(Value::array(
                ["to", "be", "or", "not", "to", "be", "to"].map(s).to_vec()
            ))
        );
        let pieces = call2(Builtin::Split, &s("a,b,a"), &s(","), MAX);
        assert_eq!(shared(pieces), [true, false, true]);
        let chars = call1(Builtin::Chars, &s("éaé"), MAX);
        assert_eq!(shared(chars.clone()), [true, false, true]);
        assert_eq!(chars, Ok(Value::array(vec![s("é"), s("a"), s("é")])));
    }

    #[test]
    fn lower_is_ascii_only() {
        assert_eq!(call1(Builtin::Lower, &s("ÀB-c"), MAX), Ok(s("Àb-c")));
    }

    #[test]
    fn reverse_turns_characters_and_elements_around() {
        let r = |v: &Value| call1(Builtin::Reverse, v, MAX);
        assert_eq!(r(&s("añ😀b")), Ok(s("b😀ña")), "by Unicode scalar values");
        assert_eq!(r(&s("")), Ok(s("")));
        assert_eq!(r(&ints(&[1, 2, 3])), Ok(ints(&[3, 2, 1])));
        assert_eq!(r(&ints(&[])), Ok(ints(&[])));
        let nested = Value::array(vec![ints(&[1]), ints(&[2, 3])]);
        assert_eq!(
            r(&nested),
            Ok(Value::array(vec![ints(&[2, 3]), ints(&[1])])),
            "the elements themselves are kept as they are"
        );
        let flags = Value::array(vec![Value::Bool(true), Value::Bool(false)]);
        assert_eq!(
            r(&flags),
            Ok(Value::array(vec![Value::Bool(false), Value::Bool(true)]))
        );
    }

    #[test]
    fn slices_check_bounds() {
        let xs = ints(&[1, 2, 3]);
        let sl = |lo, hi| call3(Builtin::Slice, &xs, &Value::Int(lo), &Value::Int(hi), MAX);
        assert_eq!(sl(1, 3), Ok(ints(&[2, 3])));
        assert_eq!(sl(3, 3), Ok(ints(&[])));
        for (lo, hi) in [(-1, 2), (2, 1), (0, 4), (i64::MIN, i64::MAX)] {
            assert_eq!(code(sl(lo, hi)), RuntimeCode::IndexOutOfRange);
        }
        let r = call3(
            Builtin::Slice,
            &s("日本語"),
            &Value::Int(1),
            &Value::Int(3),
            MAX,
        );
        assert_eq!(r, Ok(s("本語")));
    }

    #[test]
    fn size_limits_apply_before_building() {
        assert_eq!(
            code(call2(
                Builtin::Repeat,
                &Value::Int(0),
                &Value::Int(1001),
                MAX
            )),
            RuntimeCode::SizeLimit
        );
        assert_eq!(
            code(call2(Builtin::Repeat, &Value::Int(0), &Value::Int(-1), MAX)),
            RuntimeCode::NegativeCount
        );
        let words = Value::array(vec![s(&"x".repeat(600)); 2]);
        assert_eq!(
            code(call2(Builtin::Join, &words, &s(""), MAX)),
            RuntimeCode::SizeLimit
        );
        assert_eq!(
            call2(Builtin::Join, &words, &s(""), 1200).map(|v| show(&v).len() > 10),
            Ok(true)
        );
        let mut big = Value::array(vec![Value::Int(0); MAX]);
        assert_eq!(
            code(update(Update::Push, &mut big, &[Value::Int(1)], MAX)),
            RuntimeCode::SizeLimit
        );
        assert_eq!(
            code(call1(Builtin::Chars, &s(&"y".repeat(MAX + 1)), MAX)),
            RuntimeCode::SizeLimit
        );
    }

    #[test]
    fn updates_equal_their_functions_and_leave_copies_alone() {
        let xs = ints(&[1, 2]);
        let mut place = xs.clone();
        assert_eq!(
            update(Update::Push, &mut place, &[Value::Int(3)], MAX),
            Ok(())
        );
        assert_eq!(
            Ok(place.clone()),
            call2(Builtin::Push, &xs, &Value::Int(3), MAX)
        );
        assert_eq!(
            xs,
            ints(&[1, 2]),
            "the other holder of the array still sees the old value"
        );
        assert_eq!(update(Update::Pop, &mut place, &[], MAX), Ok(()));
        assert_eq!(place, xs);
        let mut empty = ints(&[]);
        assert_eq!(
            code(update(Update::Pop, &mut empty, &[], MAX)),
            RuntimeCode::EmptyCollection
        );
        let mut t = s("ab");
        assert_eq!(update(Update::Concat, &mut t, &[s("ç")], MAX), Ok(()));
        assert_eq!(call1(Builtin::Len, &t, MAX), Ok(Value::Int(3)));
        let mut m = Value::Map(Rc::default());
        assert_eq!(
            update(Update::MapSet, &mut m, &[s("k"), Value::Int(1)], MAX),
            Ok(())
        );
        assert_eq!(call2(Builtin::MapGet, &m, &s("k"), MAX), Ok(Value::Int(1)));
        assert_eq!(
            code(call2(Builtin::MapGet, &m, &s("z"), MAX)),
            RuntimeCode::MissingKey
        );
    }

    #[test]
    fn abs_of_min_overflows() {
        assert_eq!(
            code(call1(Builtin::Abs, &Value::Int(i64::MIN), MAX)),
            RuntimeCode::IntOverflow
        );
        assert_eq!(call1(Builtin::Abs, &Value::Int(-5), MAX), Ok(Value::Int(5)));
    }

    #[test]
    fn wrong_kinds_are_internal_errors_not_panics() {
        assert_eq!(
            code(call1(Builtin::Len, &Value::Int(1), MAX)),
            RuntimeCode::InternalError
        );
        assert_eq!(
            code(call2(Builtin::Join, &ints(&[1]), &s(","), MAX)),
            RuntimeCode::InternalError
        );
        assert_eq!(
            code(update(Update::Push, &mut Value::Int(1), &[], MAX)),
            RuntimeCode::InternalError
        );
    }
}
