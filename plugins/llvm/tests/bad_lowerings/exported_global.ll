; refused: defines the global @table with external linkage
@table = global i64 1

define i64 @math.GCD(i64 %a, i64 %b, i32 %site) {
entry:
  %r = load i64, ptr @table
  ret i64 %r
}
