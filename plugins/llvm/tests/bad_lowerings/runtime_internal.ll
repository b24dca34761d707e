; refused: declares @isu_fail, which is not one of the runtime's entry points for packs
declare void @isu_fail(i32, i32, i64, i64)

define i64 @math.GCD(i64 %a, i64 %b, i32 %site) {
entry:
  call void @isu_fail(i32 1, i32 %site, i64 %a, i64 %b)
  unreachable
}
