; math.LCM(a, b): the least common multiple of two ints, never negative; 0
; when either is 0.
;
; On the magnitudes as unsigned 64-bit numbers: |a| / GCD(|a|, |b|) * |b|,
; the division first so that only a multiple that is really too large
; overflows; past 2^63 - 1 it is int_overflow.

declare void @isu_pack_fail(i32, i32)
declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)

; The greatest common divisor of two unsigned numbers.
define internal i64 @math.gcd_u64(i64 %a, i64 %b) {
entry:
  br label %loop

loop:
  %x = phi i64 [ %a, %entry ], [ %y, %step ]
  %y = phi i64 [ %b, %entry ], [ %r, %step ]
  %done = icmp eq i64 %y, 0
  br i1 %done, label %out, label %step

step:
  %r = urem i64 %x, %y
  br label %loop

out:
  ret i64 %x
}

define i64 @math.LCM(i64 %a, i64 %b, i32 %site) {
entry:
  %a.zero = icmp eq i64 %a, 0
  %b.zero = icmp eq i64 %b, 0
  %either = or i1 %a.zero, %b.zero
  br i1 %either, label %zero, label %magnitudes

zero:
  ret i64 0

magnitudes:
  %a.neg = icmp slt i64 %a, 0
  %a.minus = sub i64 0, %a
  %ua = select i1 %a.neg, i64 %a.minus, i64 %a
  %b.neg = icmp slt i64 %b, 0
  %b.minus = sub i64 0, %b
  %ub = select i1 %b.neg, i64 %b.minus, i64 %b
  %g = call i64 @math.gcd_u64(i64 %ua, i64 %ub)
  %q = udiv i64 %ua, %g
  %mul = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %q, i64 %ub)
  %m = extractvalue { i64, i1 } %mul, 0
  %wrapped = extractvalue { i64, i1 } %mul, 1
  ; Past 2^63 - 1 as an unsigned number is below 0 as a signed one.
  %too_big = icmp slt i64 %m, 0
  %bad = or i1 %wrapped, %too_big
  br i1 %bad, label %overflow, label %ok

overflow:
  call void @isu_pack_fail(i32 1, i32 %site) ; int_overflow
  unreachable

ok:
  ret i64 %m
}
