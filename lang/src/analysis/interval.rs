//! Closed intervals of ints, computed exactly (in 128 bits, so that the
//! result of an operation on 64-bit bounds is known even where it would
//! overflow): what [`super::bounds`] knows about an int value. Where an
//! operation's interval fits in 64 bits, its overflow check cannot fire.
//! Bounds past 128 bits (a sum of two squares, a product of products)
//! saturate: they are far outside 64 bits either way.

/// The 64-bit range.
pub const MIN: i128 = i64::MIN as i128;
/// The 64-bit range's upper end.
pub const MAX: i128 = i64::MAX as i128;

/// An upper bound of every length (arrays, maps, strings): no machine holds
/// 2^48 elements (that many references alone would fill 2 PiB).
pub const MAX_LEN: i128 = 1 << 48;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// The ints from `lo` to `hi`, both included.
pub struct Interval {
    /// The least value.
    pub lo: i128,
    /// The greatest value.
    pub hi: i128,
}

impl Interval {
    /// Any 64-bit int.
    pub const FULL: Interval = Interval { lo: MIN, hi: MAX };
    /// A length.
    pub const LEN: Interval = Interval { lo: 0, hi: MAX_LEN };
    /// A 32-bit int: what a backend may test a loop's variable to be before
    /// its first round, to run a copy of the body that knows it (the
    /// product of two such values, and its sum with another, fit in 64
    /// bits).
    pub const SMALL: Interval = Interval {
        lo: i32::MIN as i128,
        hi: i32::MAX as i128,
    };

    /// The least and the greatest value as 64-bit ints, each clamped to
    /// the 64-bit range.
    pub fn ends(self) -> (i64, i64) {
        let clamp = |v: i128| v.clamp(MIN, MAX) as i64;
        (clamp(self.lo), clamp(self.hi))
    }

    /// The one value `v`.
    pub fn exact(v: i64) -> Interval {
        Interval {
            lo: i128::from(v),
            hi: i128::from(v),
        }
    }

    /// The ints from `lo` to `hi`.
    pub fn new(lo: i128, hi: i128) -> Interval {
        Interval { lo, hi }
    }

    /// Whether every value lies in 64 bits, so the operation that made this
    /// interval cannot overflow.
    pub fn fits(self) -> bool {
        self.lo >= MIN && self.hi <= MAX
    }

    /// The interval clamped to 64 bits: what is known after a checked
    /// operation succeeded.
    pub fn clamp(self) -> Interval {
        Interval {
            lo: self.lo.clamp(MIN, MAX),
            hi: self.hi.clamp(MIN, MAX),
        }
    }

    /// The least interval holding both: what either of two ways gives.
    pub fn hull(self, o: Interval) -> Interval {
        Interval::new(self.lo.min(o.lo), self.hi.max(o.hi))
    }

    /// Whether `v` lies in the interval.
    pub fn contains(self, v: i128) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// `x * x`: never negative.
    pub fn square(self) -> Interval {
        let a = self.abs();
        Interval::new(a.lo.saturating_mul(a.lo), a.hi.saturating_mul(a.hi))
    }

    /// `(call ABS x)`: the absolute values (in 128 bits, so `abs MIN` is known to overflow).
    pub fn abs(self) -> Interval {
        if self.lo >= 0 {
            self
        } else if self.hi <= 0 {
            -self
        } else {
            Interval::new(0, self.hi.max(self.lo.saturating_neg()))
        }
    }

    /// `(call MIN a b)`.
    pub fn min(self, o: Interval) -> Interval {
        Interval::new(self.lo.min(o.lo), self.hi.min(o.hi))
    }

    /// `(call MAX a b)`.
    pub fn max(self, o: Interval) -> Interval {
        Interval::new(self.lo.max(o.lo), self.hi.max(o.hi))
    }

    /// `(mod a b)` for a known divisor interval not containing 0: the
    /// remainder is smaller than the divisor's magnitude, with the sign of `a`.
    pub fn remainder(self, divisor: Interval) -> Interval {
        let m = divisor.abs().hi - 1;
        let lo = if self.lo < 0 { -m.min(-self.lo) } else { 0 };
        let hi = if self.hi > 0 { m.min(self.hi) } else { 0 };
        Interval::new(lo, hi)
    }

    /// `(div a b)` truncated toward zero, for a divisor interval of one sign
    /// (not containing 0): the quotient is no bigger in magnitude than `a`.
    pub fn quot(self, divisor: Interval) -> Interval {
        let a = self.abs().hi;
        if divisor.lo > 0 {
            Interval::new(self.lo.min(0), self.hi.max(0))
        } else {
            Interval::new(-a, a)
        }
    }
}

impl std::ops::Add for Interval {
    type Output = Interval;
    fn add(self, o: Interval) -> Interval {
        Interval::new(self.lo.saturating_add(o.lo), self.hi.saturating_add(o.hi))
    }
}

impl std::ops::Sub for Interval {
    type Output = Interval;
    fn sub(self, o: Interval) -> Interval {
        Interval::new(self.lo.saturating_sub(o.hi), self.hi.saturating_sub(o.lo))
    }
}

/// Products of 64-bit bounds fit in 128 bits; those of bigger bounds
/// saturate.
impl std::ops::Mul for Interval {
    type Output = Interval;
    fn mul(self, o: Interval) -> Interval {
        let c = [
            self.lo.saturating_mul(o.lo),
            self.lo.saturating_mul(o.hi),
            self.hi.saturating_mul(o.lo),
            self.hi.saturating_mul(o.hi),
        ];
        let lo = c.iter().copied().min().unwrap_or(MIN);
        let hi = c.iter().copied().max().unwrap_or(MAX);
        Interval::new(lo, hi)
    }
}

impl std::ops::Neg for Interval {
    type Output = Interval;
    fn neg(self) -> Interval {
        Interval::new(self.hi.saturating_neg(), self.lo.saturating_neg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_on_intervals() {
        let a = Interval::new(0, 10);
        let b = Interval::new(-3, 5);
        assert_eq!((a + b), Interval::new(-3, 15));
        assert_eq!((a - b), Interval::new(-5, 13));
        assert_eq!((a * b), Interval::new(-30, 50));
        assert_eq!((-b), Interval::new(-5, 3));
        assert_eq!(b.abs(), Interval::new(0, 5));
        assert_eq!(b.square(), Interval::new(0, 25));
        assert_eq!(Interval::new(2, 3).square(), Interval::new(4, 9));
        assert_eq!(b.remainder(Interval::exact(2)), Interval::new(-1, 1));
        assert_eq!(a.remainder(Interval::exact(-4)), Interval::new(0, 3));
        assert_eq!(b.quot(Interval::exact(2)), Interval::new(-3, 5));
        assert_eq!(b.quot(Interval::exact(-2)), Interval::new(-5, 5));
    }

    #[test]
    fn bounds_past_128_bits_saturate() {
        let square = Interval::FULL.square();
        let sum = square + square;
        assert_eq!(sum.hi, i128::MAX);
        assert!(!sum.fits());
        assert_eq!((-sum - square).lo, i128::MIN);
        let cube = square * Interval::FULL;
        assert!(!cube.fits());
        assert_eq!(cube.clamp(), Interval::FULL);
    }

    #[test]
    fn overflow_shows_as_not_fitting() {
        let full = Interval::FULL;
        assert!(!(full + Interval::exact(1)).fits());
        assert!((Interval::LEN + Interval::exact(1)).fits());
        assert!(!(-Interval::exact(i64::MIN)).fits());
        assert!(!(full * full).fits());
        assert_eq!(
            (full + Interval::exact(1)).clamp(),
            Interval::new(MIN + 1, MAX)
        );
    }
}
