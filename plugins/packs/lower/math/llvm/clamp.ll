; math.CLAMP(x, lo, hi): x if lo <= x <= hi, else the bound it passes;
; lo > hi is out_of_domain.

declare void @isu_pack_fail(i32, i32)

define i64 @math.CLAMP(i64 %x, i64 %lo, i64 %hi, i32 %site) {
entry:
  %crossed = icmp sgt i64 %lo, %hi
  br i1 %crossed, label %domain, label %ok

domain:
  call void @isu_pack_fail(i32 17, i32 %site) ; out_of_domain
  unreachable

ok:
  %below = icmp slt i64 %x, %lo
  %at_least_lo = select i1 %below, i64 %lo, i64 %x
  %above = icmp sgt i64 %at_least_lo, %hi
  %r = select i1 %above, i64 %hi, i64 %at_least_lo
  ret i64 %r
}
