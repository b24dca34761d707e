//! Floats, defined once (`spec/semantics.md`, "Floats"): IEEE-754 binary64
//! values that are always finite. This module holds what every executor must
//! compute the same way and would otherwise write again: the text of a float
//! (`TO_STRING`, and a float literal's canonical text: Python's `repr`), the
//! texts `PARSE_FLOAT` reads, the conversions to and from int, and the check
//! that keeps every value finite.
//!
//! Arithmetic itself is the hardware's: one IEEE operation per operator,
//! rounded to nearest even, never fused or reassociated.

use crate::codes::RuntimeCode;

/// `x` if it is finite, else the runtime error every operation with a
/// non-finite result raises.
pub fn finite(x: f64) -> Result<f64, RuntimeCode> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(RuntimeCode::FloatNotFinite)
    }
}

/// The float of an int (`FLOAT`): the nearest binary64, ties to even, as
/// every target's int-to-double conversion rounds.
pub fn of_int(i: i64) -> f64 {
    i as f64
}

/// The float an int of JSON stands for where a float is expected (an
/// argument, an `IO` example, a result read back): the int's own value when
/// binary64 holds it exactly, else `None` (`9007199254740993` is no float).
pub fn of_int_exactly(i: i64) -> Option<f64> {
    let x = i as f64;
    // 2^63 is the one float an i64 rounds to that no i64 equals; `as`
    // saturates it back to i64::MAX, so it is refused before the compare.
    (x < TWO_63 && x as i64 == i).then_some(x)
}

const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// The int of an integral float, when the int range holds it; else
/// `int_overflow` (what `TRUNC`, `FLOOR`, `CEIL` and `ROUND` raise).
pub fn to_int(integral: f64) -> Result<i64, RuntimeCode> {
    if (-TWO_63..TWO_63).contains(&integral) {
        Ok(integral as i64)
    } else {
        Err(RuntimeCode::IntOverflow)
    }
}

/// `x` rounded to the nearest integral float, halves to the even one (the
/// rounding of Python's `round`, and of `ROUND`).
pub fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (r - x).abs() == 0.5 {
        2.0 * (x / 2.0).round()
    } else {
        r
    }
}

/// The result of `MIN`: `b` when `b < a`, else `a` (as Python's `min`, so
/// `MIN(0.0, -0.0)` is `0.0` and `MIN(-0.0, 0.0)` is `-0.0`).
pub fn min(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// The result of `MAX`: `b` when `b > a`, else `a` (as Python's `max`).
pub fn max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// The text of a float as Python's `repr` writes it (`TO_STRING`, and the
/// canonical text of a float literal): the shortest digits that read back
/// to the same float; positional when the decimal point falls within 16
/// digits of the first one and the value is at least 1e-4, with `.0` when
/// there is no fraction (`2.0`, `0.0001`, `1234567890123456.0`); otherwise
/// one digit, the rest after a point, and an exponent with a sign and at
/// least two digits (`1e+16`, `1.5e-05`, `5e-324`). `-0.0` keeps its sign.
pub fn repr(x: f64) -> String {
    let (digits, exp) = shortest_digits(x.abs());
    // The value is 0.DIGITS times 10^point.
    let point = exp + 1;
    let mut out = String::with_capacity(digits.len() + 8);
    if x.is_sign_negative() {
        out.push('-');
    }
    if !(-4 < point && point <= 16) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push_str(if exp < 0 { "e-" } else { "e+" });
        out.push_str(&format!("{:02}", exp.unsigned_abs()));
    } else if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat('0').take(point.unsigned_abs() as usize));
        out.push_str(&digits);
    } else {
        let point = point as usize;
        if point >= digits.len() {
            out.push_str(&digits);
            out.extend(std::iter::repeat('0').take(point - digits.len()));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..point]);
            out.push('.');
            out.push_str(&digits[point..]);
        }
    }
    out
}

/// The shortest decimal digits that read back to `x` (finite, not
/// negative), and the exponent of the first: `x` is `D.DDD` times 10^exp.
/// Where two digit strings of that length read back to `x`, the one nearer
/// to `x` is taken, as Python's `repr` does (for 1186116450335856.25,
/// `...856.2` rather than `...856.3`).
fn shortest_digits(x: f64) -> (String, i32) {
    let split = |sci: &str| {
        let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
        let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
        (digits, exp.parse::<i32>().unwrap_or(0))
    };
    // Rust's `{:e}` writes a shortest string that reads back, but on a
    // tie between two it need not take the nearer; `{:.Ne}` rounds the
    // exact value to that many digits (ties to even), which reads back too
    // unless a power of two's narrower lower gap loses it.
    let (shortest, exp) = split(&format!("{x:e}"));
    let nearest = format!("{:.*e}", shortest.len() - 1, x);
    if nearest.parse::<f64>().ok() == Some(x) {
        split(&nearest)
    } else {
        (shortest, exp)
    }
}

/// The float a text spells, as `PARSE_FLOAT` reads it: Python's `float()`
/// on ASCII text less `inf` and `nan`. Blanks (space, `\t`, `\n`, `\r`,
/// `\x0b`, `\x0c`) around it, an optional sign, decimal digits with an
/// optional fraction (`5.`, `.5`), an optional exponent (`e`/`E`, a sign,
/// digits), and single underscores between digits (`1_000.5`). The value
/// is correctly rounded, however many digits. Any other text is
/// `invalid_number`; a number beyond the float range is `float_not_finite`.
pub fn parse(text: &str) -> Result<f64, RuntimeCode> {
    let blank = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c');
    let s = text.trim_matches(blank);
    let mut plain = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    if let Some(&c @ ('+' | '-')) = chars.peek() {
        plain.push(c);
        chars.next();
    }
    let whole = digit_part(&mut chars, &mut plain);
    let mut fraction = false;
    if chars.peek() == Some(&'.') {
        plain.push('.');
        chars.next();
        fraction = digit_part(&mut chars, &mut plain);
    }
    if !whole && !fraction {
        return Err(RuntimeCode::InvalidNumber);
    }
    if let Some(&e @ ('e' | 'E')) = chars.peek() {
        plain.push(e);
        chars.next();
        if let Some(&c @ ('+' | '-')) = chars.peek() {
            plain.push(c);
            chars.next();
        }
        if !digit_part(&mut chars, &mut plain) {
            return Err(RuntimeCode::InvalidNumber);
        }
    }
    if chars.next().is_some() {
        return Err(RuntimeCode::InvalidNumber);
    }
    // What is left is Rust's float syntax, which it rounds correctly.
    let x: f64 = plain.parse().map_err(|_| RuntimeCode::InvalidNumber)?;
    finite(x)
}

/// Reads digits with single underscores between them into `out` (without
/// the underscores); whether there was at least one digit. An underscore
/// not between two digits stops the read where it stands, so the caller
/// finds it left over.
fn digit_part(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, out: &mut String) -> bool {
    let mut any = false;
    loop {
        match chars.peek() {
            Some(&d) if d.is_ascii_digit() => {
                out.push(d);
                chars.next();
                any = true;
            }
            Some('_') if any => {
                let mut ahead = chars.clone();
                ahead.next();
                if !ahead.peek().is_some_and(char::is_ascii_digit) {
                    return any;
                }
                chars.next();
            }
            _ => return any,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_is_pythons() {
        // Each pair checked against Python 3.11's repr.
        for (x, text) in [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (0.1, "0.1"),
            (2.0, "2.0"),
            (-1.5, "-1.5"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789012345680.0, "1.2345678901234568e+17"),
            (9007199254740992.0, "9007199254740992.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-5, "1.5e-05"),
            (5e-324, "5e-324"),
            (2.2250738585072014e-308, "2.2250738585072014e-308"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1.0 / 3.0, "0.3333333333333333"),
            (100.0, "100.0"),
            (1e100, "1e+100"),
            (12.5, "12.5"),
        ] {
            assert_eq!(repr(x), text, "{x:e}");
            let back: f64 = text.parse().unwrap_or(f64::NAN);
            assert_eq!(back.to_bits(), x.to_bits(), "{text} reads back");
        }
    }

    #[test]
    fn parse_is_pythons_float_on_ascii() {
        for (text, x) in [
            ("1.5", 1.5),
            (" -2 ", -2.0),
            ("1_000.000_1", 1000.0001),
            ("1e1_0", 1e10),
            ("5.", 5.0),
            (".5", 0.5),
            ("+.5e-3", 0.0005),
            ("00.5", 0.5),
            ("\x0b1\x0c", 1.0),
            ("1E+2", 100.0),
            ("1e-400", 0.0),
            ("0.1", 0.1),
        ] {
            assert_eq!(parse(text), Ok(x), "{text:?}");
        }
        assert!(parse("-0").is_ok_and(|z| z == 0.0 && z.is_sign_negative()));
        for bad in [
            "",
            " ",
            ".",
            "1_",
            "_1",
            "1__0",
            "1_.5",
            "1._5",
            "1e",
            "e1",
            "1e_1",
            "0x10",
            "inf",
            "nan",
            "infinity",
            "1\x1c",
            "1.5\u{2003}",
            "١",
            "--1",
            "1 2",
            "+",
            "1.5.",
        ] {
            assert_eq!(parse(bad), Err(RuntimeCode::InvalidNumber), "{bad:?}");
        }
        assert_eq!(parse("1e400"), Err(RuntimeCode::FloatNotFinite));
        assert_eq!(parse("-1e400"), Err(RuntimeCode::FloatNotFinite));
    }

    #[test]
    fn conversions_to_int_stop_at_the_range() {
        assert_eq!(to_int(-9223372036854775808.0), Ok(i64::MIN));
        assert_eq!(to_int(9223372036854775808.0), Err(RuntimeCode::IntOverflow));
        assert_eq!(to_int(9223372036854774784.0), Ok(9223372036854774784));
        assert_eq!(
            to_int(-9223372036854777856.0),
            Err(RuntimeCode::IntOverflow)
        );
        assert_eq!(of_int_exactly(9007199254740993), None);
        assert_eq!(of_int_exactly(9007199254740992), Some(9007199254740992.0));
        assert_eq!(of_int_exactly(i64::MAX), None);
        assert_eq!(of_int_exactly(i64::MIN), Some(-9223372036854775808.0));
        assert_eq!(of_int(9007199254740993), 9007199254740992.0);
        assert_eq!(of_int(9007199254740995), 9007199254740996.0);
    }

    #[test]
    fn rounding_is_half_to_even() {
        for (x, r) in [
            (0.5, 0.0),
            (1.5, 2.0),
            (2.5, 2.0),
            (-2.5, -2.0),
            (-0.5, -0.0),
            (2.675, 3.0),
            (0.49999999999999994, 0.0),
            (4503599627370497.0, 4503599627370497.0),
            (-3.7, -4.0),
        ] {
            assert_eq!(round_half_even(x).to_bits(), f64::to_bits(r), "{x}");
        }
        assert!(min(0.0, -0.0).is_sign_positive() && min(-0.0, 0.0).is_sign_negative());
        assert!(max(-0.0, 0.0).is_sign_negative() && max(1.0, 2.0) == 2.0);
        assert_eq!(finite(f64::MAX * 2.0), Err(RuntimeCode::FloatNotFinite));
    }
}
