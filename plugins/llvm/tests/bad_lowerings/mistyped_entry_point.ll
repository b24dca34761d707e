; refused: declares @isu_pack_fail as `void (i64)`, but the runtime's is `declare void @isu_pack_fail(i32, i32)`
declare void @isu_pack_fail(i64)

define i64 @math.GCD(i64 %a, i64 %b, i32 %site) {
entry:
  call void @isu_pack_fail(i64 %a)
  unreachable
}
