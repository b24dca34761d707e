//! The generator's lean toward boundaries, where checks fire and where an
//! analysis that drops them must be exact: the ints 0, ±1 and the ends of
//! 64 bits, loops whose bounds are one off an array's indexes, ranges at
//! the ends of 64 bits, indexes one before and one past an array, and
//! collections with no element or one.

use super::exprs::{bin, call, int};
use super::rng::Rng;
use crate::iir::{BinaryOp, Expr};

/// The ints at a boundary.
const INTS: &[i64] = &[0, 1, -1, i64::MAX, i64::MIN, i64::MAX - 1, i64::MIN + 1];

/// An int at a boundary.
pub(super) fn int_value(rng: &mut Rng) -> i64 {
    *rng.pick(INTS)
}

/// How many elements a collection of at least `least` and at most `most`
/// gets: none or one a third of the time (as far as `least` allows).
pub(super) fn count(rng: &mut Rng, least: usize, most: usize) -> usize {
    if rng.chance(33) {
        least.max(rng.below(2)).min(most.max(least))
    } else {
        least + rng.below(most + 1 - least)
    }
}

/// START, END and STEP of a `range` over the indexes of the array whose
/// length is `len`: the indexes themselves, up or down, mostly; now and then
/// one bound one off (one round too many or too few).
pub(super) fn index_range(rng: &mut Rng, len: Expr) -> (Expr, Expr, Option<Expr>) {
    let minus = |k: i64| bin(BinaryOp::Sub, len.clone(), int(k));
    match rng.below(12) {
        0..=6 => (int(0), len, None),
        7 | 8 => (minus(1), int(-1), Some(int(-1))),
        9 => (int(0), minus(-1), None),
        10 => (int(*rng.pick(&[-1, 1])), len, None),
        _ => (minus(0), int(-1), Some(int(-1))),
    }
}

/// START, END and STEP of a `range` at an end of 64 bits: its last value
/// is one from the greatest or the least int, so that the loop variable
/// moved two that way overflows in the last round and one does not.
pub(super) fn range_at_an_end(rng: &mut Rng) -> (Expr, Expr, Option<Expr>) {
    let k = rng.between(1, 3);
    if rng.chance(50) {
        (int(i64::MAX - k), int(i64::MAX), None)
    } else {
        (int(i64::MIN + k), int(i64::MIN), Some(int(-1)))
    }
}

/// An index into the array `base` at a boundary: the first, the last, one
/// before the first, one past the last.
pub(super) fn index(rng: &mut Rng, base: &Expr) -> Expr {
    let len = || call("LEN", vec![base.clone()]);
    match rng.below(4) {
        0 => int(0),
        1 => bin(BinaryOp::Sub, len(), int(1)),
        2 => int(-1),
        _ => len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lean_to_none_and_one_within_their_bounds() {
        let mut rng = Rng::new(7);
        let counts: Vec<usize> = (0..300).map(|_| count(&mut rng, 0, 5)).collect();
        let small = counts.iter().filter(|&&n| n <= 1).count();
        assert!(small > 100, "{small} of 300");
        assert!(counts.iter().all(|&n| n <= 5));
        assert!((0..100).all(|_| count(&mut rng, 1, 4) >= 1));
        assert!((0..100).all(|_| count(&mut rng, 0, 0) == 0));
    }

    #[test]
    fn ranges_at_the_ends_reach_them() {
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let (_, end, _) = range_at_an_end(&mut rng);
            assert!(matches!(end.int_const(), Some(i64::MAX | i64::MIN)));
        }
    }
}
