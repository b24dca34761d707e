//! The `text` pack's functions as the interpreter runs them. Positions and
//! lengths are in characters.

use isu_plugin_api::pack::Args;
use isu_plugin_api::{Literal, PluginDiagnostic, RuntimeCode};

type R = Result<Literal, PluginDiagnostic>;

pub fn starts_with(args: Args<'_>, _: u64) -> R {
    Ok(Literal::Bool(args.str(0)?.starts_with(args.str(1)?)))
}

pub fn ends_with(args: Args<'_>, _: u64) -> R {
    Ok(Literal::Bool(args.str(0)?.ends_with(args.str(1)?)))
}

fn chars(s: &str) -> u64 {
    s.chars().count() as u64
}

fn too_long(args: &Args<'_>, n: u64, max_size: u64) -> PluginDiagnostic {
    args.fail(
        RuntimeCode::SizeLimit,
        format!("the result of {n} characters would pass the size limit {max_size}"),
    )
}

pub fn replace(args: Args<'_>, max_size: u64) -> R {
    let (s, old, new) = (args.str(0)?, args.str(1)?, args.str(2)?);
    if old.is_empty() {
        return Err(args.fail(
            RuntimeCode::OutOfDomain,
            "the text to replace is the empty string",
        ));
    }
    // The result's length first, so that nothing too long is built.
    let found = s.matches(old).count() as u64;
    let n = chars(s) - found * chars(old) + found * chars(new);
    if n > max_size {
        return Err(too_long(&args, n, max_size));
    }
    Ok(Literal::Str(s.replace(old, new)))
}

/// The byte offset of character `i` of `s` (its length at `i = LEN(s)`),
/// `None` past the end.
fn offset(s: &str, i: u64) -> Option<usize> {
    let i = usize::try_from(i).ok()?;
    s.char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(s.len()))
        .nth(i)
}

pub fn find(args: Args<'_>, _: u64) -> R {
    let (s, t, start) = (args.str(0)?, args.str(1)?, args.int(2)?);
    let from = u64::try_from(start)
        .ok()
        .and_then(|i| offset(s, i))
        .ok_or_else(|| {
            args.fail(
                RuntimeCode::IndexOutOfRange,
                format!("the start {start} is outside 0..{}", chars(s)),
            )
        })?;
    let found = s[from..]
        .find(t)
        .map_or(-1, |b| start + s[from..from + b].chars().count() as i64);
    Ok(Literal::Int(found))
}

pub fn substr(args: Args<'_>, _: u64) -> R {
    let (s, start, count) = (args.str(0)?, args.int(1)?, args.int(2)?);
    let range = u64::try_from(start)
        .ok()
        .zip(u64::try_from(count).ok())
        .and_then(|(a, n)| Some((offset(s, a)?, offset(s, a.checked_add(n)?)?)));
    let (from, to) = range.ok_or_else(|| {
        args.fail(
            RuntimeCode::IndexOutOfRange,
            format!(
                "{count} characters from {start} are not all inside a string of {}",
                chars(s)
            ),
        )
    })?;
    Ok(Literal::Str(s[from..to].to_owned()))
}

/// `s` padded with `fill` to `width` characters, before it or after it.
fn pad(args: Args<'_>, max_size: u64, before: bool) -> R {
    let (s, width, fill) = (args.str(0)?, args.int(1)?, args.str(2)?);
    let mut fill_chars = fill.chars();
    let (Some(c), None) = (fill_chars.next(), fill_chars.next()) else {
        return Err(args.fail(
            RuntimeCode::OutOfDomain,
            format!("the fill {fill:?} is not one character"),
        ));
    };
    let len = chars(s);
    let Ok(width) = u64::try_from(width) else {
        return Ok(Literal::Str(s.to_owned()));
    };
    if width <= len {
        return Ok(Literal::Str(s.to_owned()));
    }
    if width > max_size {
        return Err(too_long(&args, width, max_size));
    }
    let padding: String = std::iter::repeat_n(c, (width - len) as usize).collect();
    Ok(Literal::Str(if before {
        padding + s
    } else {
        s.to_owned() + &padding
    }))
}

pub fn pad_left(args: Args<'_>, max_size: u64) -> R {
    pad(args, max_size, true)
}

pub fn pad_right(args: Args<'_>, max_size: u64) -> R {
    pad(args, max_size, false)
}

fn all(args: Args<'_>, test: fn(&char) -> bool) -> R {
    let s = args.str(0)?;
    Ok(Literal::Bool(!s.is_empty() && s.chars().all(|c| test(&c))))
}

pub fn is_digit(args: Args<'_>, _: u64) -> R {
    all(args, char::is_ascii_digit)
}

pub fn is_alpha(args: Args<'_>, _: u64) -> R {
    all(args, char::is_ascii_alphabetic)
}

pub fn ord(args: Args<'_>, _: u64) -> R {
    let s = args.str(0)?;
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => Ok(Literal::Int(i64::from(u32::from(c)))),
        _ => Err(args.fail(
            RuntimeCode::OutOfDomain,
            format!("{s:?} is not one character"),
        )),
    }
}

pub fn chr(args: Args<'_>, _: u64) -> R {
    let n = args.int(0)?;
    u32::try_from(n)
        .ok()
        .and_then(char::from_u32)
        .map(|c| Literal::Str(c.to_string()))
        .ok_or_else(|| {
            args.fail(
                RuntimeCode::OutOfDomain,
                format!("{n} is no Unicode scalar value"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::super::TEXT;
    use isu_plugin_api::{Literal, Pack, Signature, Type};

    /// The arguments typed by the function's signature: an int parameter's
    /// text is parsed, a string parameter's taken as it is.
    fn typed(f: &str, args: &[&str]) -> Vec<Literal> {
        let sig = TEXT
            .info()
            .functions
            .into_iter()
            .find(|d| d.name == f)
            .and_then(|d| Signature::parse(&d.signature).ok());
        let params = sig.map(|s| s.params).unwrap_or_default();
        args.iter()
            .zip(params)
            .map(|(a, t)| match (t, a.parse::<i64>()) {
                (Type::Int, Ok(n)) => Literal::Int(n),
                _ => Literal::Str((*a).to_owned()),
            })
            .collect()
    }

    /// The result as text (`"abc"`, `3`, `true`) or the error code.
    fn call(f: &str, args: &[&str]) -> String {
        call_within(f, args, u64::MAX)
    }

    fn call_within(f: &str, args: &[&str], max_size: u64) -> String {
        match TEXT.call_within(f, &typed(f, args), max_size) {
            Ok(v) => v.to_string(),
            Err(d) => d.code,
        }
    }

    #[test]
    fn prefixes_and_suffixes() {
        assert_eq!(call("STARTS_WITH", &["héllo", "hé"]), "true");
        assert_eq!(call("STARTS_WITH", &["héllo", ""]), "true");
        assert_eq!(call("STARTS_WITH", &["h", "hé"]), "false");
        assert_eq!(call("ENDS_WITH", &["héllo", "lo"]), "true");
        assert_eq!(call("ENDS_WITH", &["", ""]), "true");
        assert_eq!(call("ENDS_WITH", &["lo", "llo"]), "false");
    }

    #[test]
    fn replace_counts_before_it_builds() {
        assert_eq!(call("REPLACE", &["aaa", "aa", "b"]), "\"ba\"");
        assert_eq!(call("REPLACE", &["a,b,,c", ",", ", "]), "\"a, b, , c\"");
        assert_eq!(call("REPLACE", &["é-é", "é", ""]), "\"-\"");
        assert_eq!(call("REPLACE", &["abc", "", "x"]), "out_of_domain");
        assert_eq!(
            call_within("REPLACE", &["aaaa", "a", "bb"], 8),
            "\"bbbbbbbb\""
        );
        assert_eq!(
            call_within("REPLACE", &["aaaa", "a", "bb"], 7),
            "size_limit"
        );
    }

    #[test]
    fn find_and_substr_count_characters() {
        assert_eq!(call("FIND", &["ééabab", "ab", "0"]), "2");
        assert_eq!(call("FIND", &["ééabab", "ab", "3"]), "4");
        assert_eq!(call("FIND", &["ééabab", "ab", "5"]), "-1");
        assert_eq!(call("FIND", &["ééabab", "", "6"]), "6");
        assert_eq!(call("FIND", &["ééabab", "", "7"]), "index_out_of_range");
        assert_eq!(call("FIND", &["abc", "a", "-1"]), "index_out_of_range");
        assert_eq!(call("SUBSTR", &["héllo", "1", "3"]), "\"éll\"");
        assert_eq!(call("SUBSTR", &["héllo", "5", "0"]), "\"\"");
        assert_eq!(call("SUBSTR", &["héllo", "4", "2"]), "index_out_of_range");
        assert_eq!(call("SUBSTR", &["héllo", "-1", "2"]), "index_out_of_range");
        assert_eq!(call("SUBSTR", &["héllo", "0", "-1"]), "index_out_of_range");
        assert_eq!(
            call("SUBSTR", &["héllo", "1", &i64::MAX.to_string()]),
            "index_out_of_range"
        );
    }

    #[test]
    fn padding() {
        assert_eq!(call("PAD_LEFT", &["7", "3", "0"]), "\"007\"");
        assert_eq!(call("PAD_RIGHT", &["é", "3", "·"]), "\"é··\"");
        assert_eq!(call("PAD_LEFT", &["abcd", "3", "0"]), "\"abcd\"");
        assert_eq!(call("PAD_LEFT", &["ab", "-5", "0"]), "\"ab\"");
        assert_eq!(call("PAD_LEFT", &["ab", "5", "00"]), "out_of_domain");
        assert_eq!(call("PAD_RIGHT", &["ab", "1", ""]), "out_of_domain");
        assert_eq!(
            call_within("PAD_LEFT", &["ab", &i64::MAX.to_string(), "0"], 100),
            "size_limit"
        );
        assert_eq!(call_within("PAD_LEFT", &["ab", "100", "0"], 100).len(), 102);
    }

    #[test]
    fn characters() {
        assert_eq!(call("IS_DIGIT", &["0123"]), "true");
        assert_eq!(call("IS_DIGIT", &["12a"]), "false");
        assert_eq!(call("IS_DIGIT", &[""]), "false");
        assert_eq!(call("IS_DIGIT", &["٣"]), "false");
        assert_eq!(call("IS_ALPHA", &["abcXYZ"]), "true");
        assert_eq!(call("IS_ALPHA", &["é"]), "false");
        assert_eq!(call("IS_ALPHA", &[""]), "false");
        assert_eq!(call("ORD", &["A"]), "65");
        assert_eq!(call("ORD", &["é"]), "233");
        assert_eq!(call("ORD", &["😀"]), "128512");
        assert_eq!(call("ORD", &["ab"]), "out_of_domain");
        assert_eq!(call("ORD", &[""]), "out_of_domain");
        assert_eq!(call("CHR", &["65"]), "\"A\"");
        assert_eq!(call("CHR", &["1114111"]), "\"\u{10FFFF}\"");
        assert_eq!(call("CHR", &["1114112"]), "out_of_domain");
        assert_eq!(call("CHR", &["55296"]), "out_of_domain");
        assert_eq!(call("CHR", &["-1"]), "out_of_domain");
    }

    #[test]
    fn every_signature_parses_and_every_function_has_a_python_lowering() {
        for f in TEXT.info().functions {
            assert!(
                isu_plugin_api::Signature::parse(&f.signature).is_ok(),
                "{}",
                f.signature
            );
            let py = TEXT.lower(&f.name, "python").unwrap_or_default();
            assert!(
                py.contains(&format!("def text__{}(", f.name)),
                "{}: {py}",
                f.name
            );
        }
    }

    #[test]
    fn every_function_has_an_llvm_lowering_defining_it() {
        for f in TEXT.info().functions {
            let ll = TEXT.lower(&f.name, "llvm").unwrap_or_default();
            let ret = match Signature::parse(&f.signature).map(|s| s.ret) {
                Ok(Type::Int) => "i64",
                Ok(Type::Bool) => "i1",
                _ => "ptr",
            };
            assert!(
                ll.contains(&format!("define {ret} @text.{}(", f.name)),
                "{}: {ll}",
                f.name
            );
        }
    }
}
