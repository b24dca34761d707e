//! Random floats, leaning to where executors could disagree: beside 2^53
//! (where ints stop being exact), subnormals, the largest finite values
//! (whose sums and products leave the range: `float_not_finite`), negative
//! zero, halves (`ROUND` to even), and values such as 0.1 whose sums round.

use super::exprs::{bin, constant, Gen};
use super::rng::Rng;
use crate::iir::{BinaryOp, Expr};
use crate::literal::Literal;
use crate::types::Type;

/// Floats at the edges of binary64 and of its conversions.
pub(super) const EDGES: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    1.5,
    2.5,
    -2.5,
    0.1,
    0.2,
    0.3,
    1e16,
    9_007_199_254_740_992.0,
    9_007_199_254_740_994.0,
    -9_007_199_254_740_992.0,
    4_503_599_627_370_495.5,
    5e-324,
    -5e-324,
    2.225_073_858_507_201e-308,
    2.225_073_858_507_201_4e-308,
    1.797_693_134_862_315_7e308,
    -1.797_693_134_862_315_7e308,
    1e308,
    9.223_372_036_854_775e18,
    -9.223_372_036_854_776e18,
    0.49999999999999994,
    1e-5,
    123.456,
];

/// A random float: mostly small decimals with one or two fraction digits
/// (prices, averages), else an edge, else any finite bit pattern.
pub(super) fn float(rng: &mut Rng) -> f64 {
    match rng.below(10) {
        0..=4 => rng.between(-2000, 2000) as f64 / [1.0, 10.0, 100.0][rng.below(3)],
        5..=7 => *rng.pick(EDGES),
        _ => loop {
            let x = f64::from_bits(rng.next());
            if x.is_finite() {
                break x;
            }
        },
    }
}

/// Texts for `PARSE_FLOAT` at its edges: Python's forms, and what it refuses.
pub(super) const TEXTS: &[&str] = &[
    "1.5",
    "-0.0",
    " 2_5.e-1 ",
    ".5",
    "1e400",
    "inf",
    "1__0",
    "0x1p3",
];

impl Gen<'_> {
    /// `(OP A B)` on two floats: the right operand often an edge, so that
    /// sums round, products leave the range and divisions meet a zero.
    pub(super) fn float_arith(&mut self, d: usize) -> Expr {
        let op = *self
            .rng
            .pick(&[BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div]);
        let l = self.expr(&Type::Float, d);
        let r = if self.rng.chance(40) {
            constant(Literal::Float(*self.rng.pick(EDGES)))
        } else {
            self.expr(&Type::Float, d)
        };
        bin(op, l, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_finite_and_reach_the_edges() {
        let mut rng = Rng::new(3);
        let draws: Vec<f64> = (0..2000).map(|_| float(&mut rng)).collect();
        assert!(draws.iter().all(|x| x.is_finite()));
        let has = |p: &dyn Fn(f64) -> bool| draws.iter().any(|&x| p(x));
        assert!(has(&|x| x == 0.0 && x.is_sign_negative()));
        assert!(has(&|x| x != 0.0 && x.abs() < f64::MIN_POSITIVE));
        assert!(has(&|x| x.abs() > 1e300));
        assert!(has(&|x| x.fract() != 0.0 && x.abs() < 100.0));
    }
}
