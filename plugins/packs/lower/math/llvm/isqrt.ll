; math.ISQRT(n): the integer square root, the largest r with r * r <= n,
; for n >= 0; a negative n is out_of_domain.
;
; The floating-point square root gives r within one or two of the answer
; (n rounds to 53 bits); two short loops correct it. r stays below 2^32, so
; r * r and (r + 1) * (r + 1) are exact as unsigned 64-bit products.

declare void @isu_pack_fail(i32, i32)
declare double @llvm.sqrt.f64(double)

define i64 @math.ISQRT(i64 %n, i32 %site) {
entry:
  %negative = icmp slt i64 %n, 0
  br i1 %negative, label %domain, label %estimate

domain:
  call void @isu_pack_fail(i32 17, i32 %site) ; out_of_domain
  unreachable

estimate:
  %f = sitofp i64 %n to double
  %root = call double @llvm.sqrt.f64(double %f)
  %guess = fptoui double %root to i64
  br label %down

down:
  ; While r * r > n, r is too large.
  %r = phi i64 [ %guess, %estimate ], [ %r.less, %lower ]
  %square = mul i64 %r, %r
  %above = icmp ugt i64 %square, %n
  br i1 %above, label %lower, label %up

lower:
  %r.less = sub i64 %r, 1
  br label %down

up:
  ; While (r + 1) * (r + 1) <= n, r is too small.
  %s = phi i64 [ %r, %down ], [ %s.more, %raise ]
  %s.more = add i64 %s, 1
  %next_square = mul i64 %s.more, %s.more
  %fits = icmp ule i64 %next_square, %n
  br i1 %fits, label %raise, label %done

raise:
  br label %up

done:
  ret i64 %s
}
