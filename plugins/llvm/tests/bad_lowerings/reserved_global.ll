; refused: defines @isu_str: names beginning with `isu_` are the backend's and the runtime's
@isu_str = private constant i64 1

define i64 @math.GCD(i64 %a, i64 %b, i32 %site) {
entry:
  %r = load i64, ptr @isu_str
  ret i64 %r
}
