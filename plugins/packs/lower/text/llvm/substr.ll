; text.SUBSTR(s, start, count): the count characters of s from position
; start. A start or count below 0, or start + count past LEN(s), is
; index_out_of_range.

declare void @isu_pack_fail(i32, i32)
declare i64 @isu_pack_str_chars(ptr)
declare ptr @isu_pack_str_bytes(ptr)
declare i64 @isu_pack_str_offset(ptr, i64)
declare ptr @isu_pack_str_alloc(i64, i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define ptr @text.SUBSTR(ptr %s, i64 %start, i64 %count, i32 %site) {
entry:
  %chars = call i64 @isu_pack_str_chars(ptr %s)
  %start.neg = icmp slt i64 %start, 0
  %count.neg = icmp slt i64 %count, 0
  %negative = or i1 %start.neg, %count.neg
  br i1 %negative, label %range, label %end

end:
  ; Both are at most 2^63 - 1, so the sum is exact as an unsigned number.
  %stop = add nuw i64 %start, %count
  %past = icmp ugt i64 %stop, %chars
  br i1 %past, label %range, label %copy

range:
  call void @isu_pack_fail(i32 3, i32 %site) ; index_out_of_range
  unreachable

copy:
  %from = call i64 @isu_pack_str_offset(ptr %s, i64 %start)
  %to = call i64 @isu_pack_str_offset(ptr %s, i64 %stop)
  %len = sub i64 %to, %from
  %r = call ptr @isu_pack_str_alloc(i64 %len, i64 %count)
  %src = call ptr @isu_pack_str_bytes(ptr %s)
  %at = getelementptr inbounds i8, ptr %src, i64 %from
  %dst = call ptr @isu_pack_str_bytes(ptr %r)
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %at, i64 %len, i1 false)
  ret ptr %r
}
