; refused: declares @math.GCD but does not define it
declare i64 @math.GCD(i64, i64, i32)
