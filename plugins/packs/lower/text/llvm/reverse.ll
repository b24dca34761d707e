; text.REVERSE(s): the characters of s in reverse order. One pass over the
; characters of s, each (1 to 4 bytes, its width told by its first byte)
; copied to the mirrored place of a new string of the same length.

declare i64 @isu_pack_str_len(ptr)
declare i64 @isu_pack_str_chars(ptr)
declare ptr @isu_pack_str_bytes(ptr)
declare ptr @isu_pack_str_alloc(i64, i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; The bytes of the UTF-8 character whose first byte is b.
define internal i64 @text.width(i8 %b) {
entry:
  %lt80 = icmp ult i8 %b, 128
  %ltE0 = icmp ult i8 %b, 224
  %ltF0 = icmp ult i8 %b, 240
  %w34 = select i1 %ltF0, i64 3, i64 4
  %w234 = select i1 %ltE0, i64 2, i64 %w34
  %w = select i1 %lt80, i64 1, i64 %w234
  ret i64 %w
}

define ptr @text.REVERSE(ptr %s, i32 %site) {
entry:
  %n = call i64 @isu_pack_str_len(ptr %s)
  %chars = call i64 @isu_pack_str_chars(ptr %s)
  %r = call ptr @isu_pack_str_alloc(i64 %n, i64 %chars)
  %src = call ptr @isu_pack_str_bytes(ptr %s)
  %dst = call ptr @isu_pack_str_bytes(ptr %r)
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %copy ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %copy, label %done

copy:
  %from = getelementptr inbounds i8, ptr %src, i64 %i
  %b = load i8, ptr %from
  %w = call i64 @text.width(i8 %b)
  ; The character at bytes [i, i + w) goes to [n - i - w, n - i).
  %left = sub i64 %n, %i
  %place = sub i64 %left, %w
  %to = getelementptr inbounds i8, ptr %dst, i64 %place
  call void @llvm.memcpy.p0.p0.i64(ptr %to, ptr %from, i64 %w, i1 false)
  %i.next = add i64 %i, %w
  br label %loop

done:
  ret ptr %r
}
