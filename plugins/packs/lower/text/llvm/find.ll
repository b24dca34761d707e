; text.FIND(s, t, start): the first position (in characters) at or after
; start where t occurs in s, or -1; t = "" is found at start. A start below
; 0 or past LEN(s) is index_out_of_range.
;
; The search runs on bytes (isu_pack_str_find, linear in both strings) from
; the byte offset of character start; the characters before the match are
; counted once.

declare void @isu_pack_fail(i32, i32)
declare i64 @isu_pack_str_chars(ptr)
declare ptr @isu_pack_str_bytes(ptr)
declare i64 @isu_pack_str_offset(ptr, i64)
declare i64 @isu_pack_str_find(ptr, ptr, i64)
declare i64 @isu_pack_count_chars(ptr, i64)

define i64 @text.FIND(ptr %s, ptr %t, i64 %start, i32 %site) {
entry:
  %chars = call i64 @isu_pack_str_chars(ptr %s)
  ; Unsigned, a negative start is past any length.
  %outside = icmp ugt i64 %start, %chars
  br i1 %outside, label %range, label %search

range:
  call void @isu_pack_fail(i32 3, i32 %site) ; index_out_of_range
  unreachable

search:
  %from = call i64 @isu_pack_str_offset(ptr %s, i64 %start)
  %at = call i64 @isu_pack_str_find(ptr %s, ptr %t, i64 %from)
  %missing = icmp slt i64 %at, 0
  br i1 %missing, label %none, label %found

none:
  ret i64 -1

found:
  %p = call ptr @isu_pack_str_bytes(ptr %s)
  %gap.start = getelementptr inbounds i8, ptr %p, i64 %from
  %gap = sub i64 %at, %from
  %skipped = call i64 @isu_pack_count_chars(ptr %gap.start, i64 %gap)
  %pos = add i64 %start, %skipped
  ret i64 %pos
}
