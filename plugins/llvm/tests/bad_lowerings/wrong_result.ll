; refused: defines @math.GCD as `i1 (i64, i64, i32)`
define i1 @math.GCD(i64 %a, i64 %b, i32 %site) {
entry:
  ret i1 true
}
