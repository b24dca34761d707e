; refused: declares the global @limit: a lowering may use only the runtime's entry points
@limit = external global i64

define i64 @math.GCD(i64 %a, i64 %b, i32 %site) {
entry:
  %r = load i64, ptr @limit
  ret i64 %r
}
