; math.POW(b, e): b to the power e, for e >= 0; POW(b, 0) is 1, POW(0, 0)
; too. A negative exponent is out_of_domain, a power outside the int range
; int_overflow.
;
; Square and multiply, each product checked: once the base is past 1 in
; magnitude an exponent of 64 or more overflows, and the loop runs at most
; 63 rounds either way. The base is squared only while bits of the exponent
; are left, so that a last square that would overflow unused does not fail.

declare void @isu_pack_fail(i32, i32)
declare { i64, i1 } @llvm.smul.with.overflow.i64(i64, i64)

define i64 @math.POW(i64 %base, i64 %exp, i32 %site) {
entry:
  %negative = icmp slt i64 %exp, 0
  br i1 %negative, label %domain, label %loop

domain:
  call void @isu_pack_fail(i32 17, i32 %site) ; out_of_domain
  unreachable

loop:
  ; result * b^e is the power, throughout.
  %result = phi i64 [ 1, %entry ], [ %result.next, %square ]
  %b = phi i64 [ %base, %entry ], [ %b.squared, %square ]
  %e = phi i64 [ %exp, %entry ], [ %e.half, %square ]
  %more = icmp sgt i64 %e, 0
  br i1 %more, label %bit, label %done

bit:
  %odd = trunc i64 %e to i1
  br i1 %odd, label %multiply, label %halve

multiply:
  %mul = call { i64, i1 } @llvm.smul.with.overflow.i64(i64 %result, i64 %b)
  %product = extractvalue { i64, i1 } %mul, 0
  %mul.wrapped = extractvalue { i64, i1 } %mul, 1
  br i1 %mul.wrapped, label %overflow, label %halve

halve:
  %result.next = phi i64 [ %result, %bit ], [ %product, %multiply ]
  %e.half = lshr i64 %e, 1
  %left = icmp sgt i64 %e.half, 0
  br i1 %left, label %square, label %done.last

square:
  %sq = call { i64, i1 } @llvm.smul.with.overflow.i64(i64 %b, i64 %b)
  %b.squared = extractvalue { i64, i1 } %sq, 0
  %sq.wrapped = extractvalue { i64, i1 } %sq, 1
  br i1 %sq.wrapped, label %overflow, label %loop

done.last:
  ret i64 %result.next

done:
  ret i64 %result

overflow:
  call void @isu_pack_fail(i32 1, i32 %site) ; int_overflow
  unreachable
}
