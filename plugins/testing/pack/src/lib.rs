//! `math`, a standard-function pack: `math.GCD` and `math.IS_PRIME`, with an
//! implementation for the interpreter and a lowering for the `python` target
//! only (so `isu build --target wasm` of a program calling them is refused).

use isu_plugin_api::{Literal, Pack, PackFunction, PackInfo, PluginDiagnostic};

#[derive(Debug, Default)]
pub struct MathPack;

const GCD_PY: &str = "\
def math__GCD(a, b):
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    if a > 9223372036854775807:
        raise OverflowError(\"int_overflow\")
    return a
";

const IS_PRIME_PY: &str = "\
def math__IS_PRIME(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True
";

fn bad_args(function: &str, args: &[Literal]) -> PluginDiagnostic {
    let shown: Vec<String> = args.iter().map(Literal::to_string).collect();
    PluginDiagnostic::runtime(
        "invalid_argument",
        None,
        format!("math.{function} cannot take ({})", shown.join(", ")),
    )
}

/// The greatest common divisor, never negative; `gcd(0, 0) = 0`.
pub fn gcd(a: i64, b: i64) -> Result<i64, PluginDiagnostic> {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).map_err(|_| {
        PluginDiagnostic::runtime(
            "int_overflow",
            None,
            "math.GCD is 2^63, outside the int range",
        )
    })
}

/// Whether `n` is a prime number.
pub fn is_prime(n: i64) -> bool {
    if n < 2 {
        return false;
    }
    let mut d: i64 = 2;
    while d <= n / d {
        if n % d == 0 {
            return false;
        }
        d += 1;
    }
    true
}

impl Pack for MathPack {
    fn info(&self) -> PackInfo {
        PackInfo {
            namespace: "math".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            functions: vec![
                PackFunction {
                    name: "GCD".into(),
                    signature: "(int, int) -> int".into(),
                    doc: "The greatest common divisor of two ints, never negative; GCD(0, 0) is 0."
                        .into(),
                },
                PackFunction {
                    name: "IS_PRIME".into(),
                    signature: "(int) -> bool".into(),
                    doc: "Whether the int is a prime number.".into(),
                },
            ],
        }
    }

    fn call(&self, function: &str, args: &[Literal]) -> Result<Literal, PluginDiagnostic> {
        match (function, args) {
            ("GCD", [Literal::Int(a), Literal::Int(b)]) => gcd(*a, *b).map(Literal::Int),
            ("IS_PRIME", [Literal::Int(n)]) => Ok(Literal::Bool(is_prime(*n))),
            ("GCD" | "IS_PRIME", _) => Err(bad_args(function, args)),
            _ => Err(PluginDiagnostic::backend(
                isu_plugin_api::BackendCode::UnknownFunction,
                format!("the math pack has no function {function}"),
            )),
        }
    }

    fn lower(&self, function: &str, target: &str) -> Option<String> {
        match (function, target) {
            ("GCD", "python") => Some(GCD_PY.into()),
            ("IS_PRIME", "python") => Some(IS_PRIME_PY.into()),
            _ => None,
        }
    }
}

isu_plugin_api::export_pack!(MathPack);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_compute_and_fail_as_documented() {
        let p = MathPack;
        let call = |f: &str, args: &[i64]| {
            let args: Vec<Literal> = args.iter().copied().map(Literal::Int).collect();
            p.call(f, &args)
        };
        assert_eq!(call("GCD", &[12, -18]), Ok(Literal::Int(6)));
        assert_eq!(call("GCD", &[0, 0]), Ok(Literal::Int(0)));
        assert_eq!(
            call("GCD", &[i64::MIN, 0]).map_err(|d| d.code),
            Err("int_overflow".into())
        );
        assert_eq!(call("IS_PRIME", &[97]), Ok(Literal::Bool(true)));
        assert_eq!(call("IS_PRIME", &[1]), Ok(Literal::Bool(false)));
        assert_eq!(call("IS_PRIME", &[i64::MAX]), Ok(Literal::Bool(false)));
        assert_eq!(
            call("GCD", &[1]).map_err(|d| d.code),
            Err("invalid_argument".into())
        );
        assert!(p
            .lower("GCD", "python")
            .is_some_and(|s| s.contains("def math__GCD")));
        assert_eq!(p.lower("GCD", "wasm"), None);
        for f in p.info().functions {
            assert!(
                isu_plugin_api::Signature::parse(&f.signature).is_ok(),
                "{}",
                f.signature
            );
        }
    }
}
