; text.STARTS_WITH(s, prefix): whether s begins with prefix; every string
; begins with "". In UTF-8 a string begins with another character by
; character exactly when it does byte by byte, so the bytes are compared.

declare i64 @isu_pack_str_len(ptr)
declare ptr @isu_pack_str_bytes(ptr)

; Whether the n bytes at a and at b are the same.
define internal i1 @text.same_bytes(ptr %a, ptr %b, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %next ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %compare, label %same

compare:
  %pa = getelementptr inbounds i8, ptr %a, i64 %i
  %pb = getelementptr inbounds i8, ptr %b, i64 %i
  %x = load i8, ptr %pa
  %y = load i8, ptr %pb
  %eq = icmp eq i8 %x, %y
  br i1 %eq, label %next, label %differ

next:
  %i.next = add i64 %i, 1
  br label %loop

same:
  ret i1 true

differ:
  ret i1 false
}

define i1 @text.STARTS_WITH(ptr %s, ptr %prefix, i32 %site) {
entry:
  %ls = call i64 @isu_pack_str_len(ptr %s)
  %lp = call i64 @isu_pack_str_len(ptr %prefix)
  %longer = icmp ugt i64 %lp, %ls
  br i1 %longer, label %no, label %compare

no:
  ret i1 false

compare:
  %bs = call ptr @isu_pack_str_bytes(ptr %s)
  %bp = call ptr @isu_pack_str_bytes(ptr %prefix)
  %r = call i1 @text.same_bytes(ptr %bs, ptr %bp, i64 %lp)
  ret i1 %r
}
