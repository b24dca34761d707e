; refused: does not verify: Instruction does not dominate all uses!
define i64 @math.GCD(i64 %a, i64 %b, i32 %site) {
entry:
  %big = icmp sgt i64 %a, %b
  br i1 %big, label %then, label %out

then:
  %v = add i64 %a, 1
  br label %out

out:
  ret i64 %v
}
