; math.GCD(a, b): the greatest common divisor of two ints, never negative;
; GCD(0, 0) is 0 (spec/plugin-abi.md, "Lowerings for LLVM": the arguments,
; then the calling site, which errors are raised at).
;
; Euclid's algorithm on the magnitudes as unsigned 64-bit numbers, so that
; |-2^63| = 2^63 is exact. The divisor 2^63 (both arguments -2^63, or one
; -2^63 and the other 0) is no int: int_overflow.

declare void @isu_pack_fail(i32, i32)

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

define i64 @math.GCD(i64 %a, i64 %b, i32 %site) {
entry:
  ; The magnitudes: 0 - n is |n| as an unsigned number, -2^63 included.
  %a.neg = icmp slt i64 %a, 0
  %a.minus = sub i64 0, %a
  %ua = select i1 %a.neg, i64 %a.minus, i64 %a
  %b.neg = icmp slt i64 %b, 0
  %b.minus = sub i64 0, %b
  %ub = select i1 %b.neg, i64 %b.minus, i64 %b
  %g = call i64 @math.gcd_u64(i64 %ua, i64 %ub)
  ; Past 2^63 - 1 as an unsigned number is below 0 as a signed one.
  %too_big = icmp slt i64 %g, 0
  br i1 %too_big, label %overflow, label %ok

overflow:
  call void @isu_pack_fail(i32 1, i32 %site) ; int_overflow
  unreachable

ok:
  ret i64 %g
}
