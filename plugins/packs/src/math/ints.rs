//! The `math` pack's functions as the interpreter runs them.

use isu_plugin_api::pack::Args;
use isu_plugin_api::{Literal, PluginDiagnostic, RuntimeCode};

type R = Result<Literal, PluginDiagnostic>;

fn overflow(args: &Args<'_>, what: &str) -> PluginDiagnostic {
    args.fail(
        RuntimeCode::IntOverflow,
        format!("{what} is outside the 64-bit int range"),
    )
}

/// The greatest common divisor of the magnitudes.
fn gcd_u64(a: u64, b: u64) -> u64 {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

pub fn gcd(args: Args<'_>, _: u64) -> R {
    let (a, b) = (args.int(0)?, args.int(1)?);
    let g = gcd_u64(a.unsigned_abs(), b.unsigned_abs());
    i64::try_from(g)
        .map(Literal::Int)
        .map_err(|_| overflow(&args, "the divisor, 2^63,"))
}

pub fn lcm(args: Args<'_>, _: u64) -> R {
    let (a, b) = (args.int(0)?, args.int(1)?);
    if a == 0 || b == 0 {
        return Ok(Literal::Int(0));
    }
    let (a, b) = (a.unsigned_abs(), b.unsigned_abs());
    (a / gcd_u64(a, b))
        .checked_mul(b)
        .and_then(|m| i64::try_from(m).ok())
        .map(Literal::Int)
        .ok_or_else(|| overflow(&args, "the multiple"))
}

pub fn pow(args: Args<'_>, _: u64) -> R {
    let (base, exp) = (args.int(0)?, args.int(1)?);
    if exp < 0 {
        return Err(args.fail(
            RuntimeCode::OutOfDomain,
            format!("the exponent {exp} is negative"),
        ));
    }
    // Square and multiply; once the result is past 1 in magnitude an
    // exponent of 64 or more overflows, so the loop is short either way.
    let (mut result, mut b, mut e) = (1i64, base, exp);
    let fail = || overflow(&args, "the power");
    while e > 0 {
        if e & 1 == 1 {
            result = result.checked_mul(b).ok_or_else(fail)?;
        }
        e >>= 1;
        if e > 0 {
            b = b.checked_mul(b).ok_or_else(fail)?;
        }
    }
    Ok(Literal::Int(result))
}

pub fn isqrt(args: Args<'_>, _: u64) -> R {
    let n = args.int(0)?;
    if n < 0 {
        return Err(args.fail(
            RuntimeCode::OutOfDomain,
            format!("the square root of the negative {n}"),
        ));
    }
    Ok(Literal::Int(n.isqrt()))
}

fn extreme(args: Args<'_>, pick: fn(i64, i64) -> i64) -> R {
    let items = args.ints(0)?;
    items
        .into_iter()
        .reduce(pick)
        .map(Literal::Int)
        .ok_or_else(|| args.fail(RuntimeCode::EmptyCollection, "the array is empty"))
}

pub fn min(args: Args<'_>, _: u64) -> R {
    extreme(args, i64::min)
}

pub fn max(args: Args<'_>, _: u64) -> R {
    extreme(args, i64::max)
}

pub fn clamp(args: Args<'_>, _: u64) -> R {
    let (x, lo, hi) = (args.int(0)?, args.int(1)?, args.int(2)?);
    if lo > hi {
        return Err(args.fail(RuntimeCode::OutOfDomain, format!("the bounds {lo} > {hi}")));
    }
    Ok(Literal::Int(x.clamp(lo, hi)))
}

#[cfg(test)]
mod tests {
    use super::super::MATH;
    use isu_plugin_api::{Literal, Pack};

    fn call(f: &str, args: &[i64]) -> Result<i64, String> {
        let args: Vec<Literal> = args.iter().copied().map(Literal::Int).collect();
        match MATH.call(f, &args) {
            Ok(Literal::Int(n)) => Ok(n),
            Ok(other) => Err(format!("not an int: {other}")),
            Err(d) => Err(d.code),
        }
    }

    fn array(f: &str, items: &[i64]) -> Result<i64, String> {
        let arr = Literal::Array(items.iter().copied().map(Literal::Int).collect());
        match MATH.call(f, &[arr]) {
            Ok(Literal::Int(n)) => Ok(n),
            Ok(other) => Err(format!("not an int: {other}")),
            Err(d) => Err(d.code),
        }
    }

    const MIN: i64 = i64::MIN;
    const MAX: i64 = i64::MAX;

    #[test]
    fn gcd_and_lcm() {
        assert_eq!(call("GCD", &[12, -18]), Ok(6));
        assert_eq!(call("GCD", &[0, 0]), Ok(0));
        assert_eq!(call("GCD", &[MIN, 6]), Ok(2));
        assert_eq!(call("GCD", &[MIN, 0]), Err("int_overflow".into()));
        assert_eq!(call("GCD", &[MIN, MIN]), Err("int_overflow".into()));
        assert_eq!(call("LCM", &[4, -6]), Ok(12));
        assert_eq!(call("LCM", &[0, MIN]), Ok(0));
        assert_eq!(call("LCM", &[MIN, 1]), Err("int_overflow".into()));
        assert_eq!(call("LCM", &[MAX, MAX - 1]), Err("int_overflow".into()));
        assert_eq!(call("LCM", &[MAX, MAX]), Ok(MAX));
    }

    #[test]
    fn pow_and_isqrt() {
        assert_eq!(call("POW", &[2, 62]), Ok(1 << 62));
        assert_eq!(call("POW", &[2, 63]), Err("int_overflow".into()));
        assert_eq!(call("POW", &[-2, 63]), Ok(MIN));
        assert_eq!(call("POW", &[0, 0]), Ok(1));
        assert_eq!(call("POW", &[-1, MAX]), Ok(-1));
        assert_eq!(call("POW", &[1, MAX]), Ok(1));
        assert_eq!(call("POW", &[0, MAX]), Ok(0));
        assert_eq!(call("POW", &[3, -1]), Err("out_of_domain".into()));
        assert_eq!(call("POW", &[3_037_000_500, 2]), Err("int_overflow".into()));
        assert_eq!(call("ISQRT", &[MAX]), Ok(3_037_000_499));
        assert_eq!(call("ISQRT", &[15]), Ok(3));
        assert_eq!(call("ISQRT", &[16]), Ok(4));
        assert_eq!(call("ISQRT", &[0]), Ok(0));
        assert_eq!(call("ISQRT", &[-1]), Err("out_of_domain".into()));
    }

    #[test]
    fn extremes_and_clamp() {
        assert_eq!(array("MIN", &[3, MIN, 7]), Ok(MIN));
        assert_eq!(array("MAX", &[3, MIN, 7]), Ok(7));
        assert_eq!(array("MAX", &[]), Err("empty_collection".into()));
        assert_eq!(array("MIN", &[]), Err("empty_collection".into()));
        assert_eq!(call("CLAMP", &[5, 0, 3]), Ok(3));
        assert_eq!(call("CLAMP", &[-5, 0, 3]), Ok(0));
        assert_eq!(call("CLAMP", &[2, 2, 2]), Ok(2));
        assert_eq!(call("CLAMP", &[2, 3, 2]), Err("out_of_domain".into()));
    }

    #[test]
    fn every_signature_parses_and_every_function_has_a_python_lowering() {
        for f in MATH.info().functions {
            assert!(
                isu_plugin_api::Signature::parse(&f.signature).is_ok(),
                "{}",
                f.signature
            );
            let py = MATH.lower(&f.name, "python").unwrap_or_default();
            assert!(
                py.contains(&format!("def math__{}(", f.name)),
                "{}: {py}",
                f.name
            );
        }
    }

    #[test]
    fn every_function_has_an_llvm_lowering_defining_it() {
        for f in MATH.info().functions {
            let ll = MATH.lower(&f.name, "llvm").unwrap_or_default();
            assert!(
                ll.contains(&format!(
                    "define {} @math.{}(",
                    ll_ret(&f.signature),
                    f.name
                )),
                "{}: {ll}",
                f.name
            );
        }
    }

    /// The LLVM type of a signature's result (`spec/plugin-abi.md`,
    /// "Lowerings for LLVM").
    fn ll_ret(signature: &str) -> &'static str {
        match isu_plugin_api::Signature::parse(signature).map(|s| s.ret) {
            Ok(isu_plugin_api::Type::Int) => "i64",
            Ok(isu_plugin_api::Type::Bool) => "i1",
            _ => "ptr",
        }
    }
}
