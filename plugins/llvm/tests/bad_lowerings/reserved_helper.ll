; refused: defines @isu_len: names beginning with `isu_` are the backend's and the runtime's
define internal i64 @isu_len(ptr %p) {
entry:
  ret i64 0
}

define i64 @math.GCD(i64 %a, i64 %b, i32 %site) {
entry:
  %r = call i64 @isu_len(ptr null)
  ret i64 %r
}
