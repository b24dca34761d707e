; refused: declares the global @isu_max_size: a lowering may use only the runtime's entry points
@isu_max_size = external global i64

define i64 @math.GCD(i64 %a, i64 %b, i32 %site) {
entry:
  %r = load i64, ptr @isu_max_size
  ret i64 %r
}
