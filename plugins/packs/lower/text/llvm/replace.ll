; text.REPLACE(s, old, new): s with every occurrence of old, from left to
; right and not overlapping, replaced by new. The empty old is
; out_of_domain; a result longer than the run's size limit is size_limit.
;
; Two passes of the byte search (isu_pack_str_find, linear): the first
; counts the occurrences, so that the result's length is checked against
; the size limit before anything is built and the result is allocated once;
; the second copies the pieces between them and new.

declare void @isu_pack_fail(i32, i32)
declare void @isu_pack_check_size(i64, i32)
declare void @isu_pack_retain(ptr)
declare i64 @isu_pack_str_len(ptr)
declare i64 @isu_pack_str_chars(ptr)
declare ptr @isu_pack_str_bytes(ptr)
declare i64 @isu_pack_str_find(ptr, ptr, i64)
declare ptr @isu_pack_str_alloc(i64, i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define ptr @text.REPLACE(ptr %s, ptr %old, ptr %new, i32 %site) {
entry:
  %lo = call i64 @isu_pack_str_len(ptr %old)
  %empty = icmp eq i64 %lo, 0
  br i1 %empty, label %domain, label %count

domain:
  call void @isu_pack_fail(i32 17, i32 %site) ; out_of_domain
  unreachable

count:
  %k = phi i64 [ 0, %entry ], [ %k.next, %counted ]
  %from = phi i64 [ 0, %entry ], [ %from.next, %counted ]
  %at = call i64 @isu_pack_str_find(ptr %s, ptr %old, i64 %from)
  %missing = icmp slt i64 %at, 0
  br i1 %missing, label %measure, label %counted

counted:
  %k.next = add i64 %k, 1
  %from.next = add i64 %at, %lo
  br label %count

measure:
  ; The result: chars(s) - k * chars(old) + k * chars(new) characters.
  %cs = call i64 @isu_pack_str_chars(ptr %s)
  %co = call i64 @isu_pack_str_chars(ptr %old)
  %cn = call i64 @isu_pack_str_chars(ptr %new)
  %c.gone = mul i64 %k, %co
  %c.added = mul i64 %k, %cn
  %c.kept = sub i64 %cs, %c.gone
  %chars = add i64 %c.kept, %c.added
  call void @isu_pack_check_size(i64 %chars, i32 %site)
  %none = icmp eq i64 %k, 0
  br i1 %none, label %same, label %build

same:
  call void @isu_pack_retain(ptr %s)
  ret ptr %s

build:
  %ls = call i64 @isu_pack_str_len(ptr %s)
  %ln = call i64 @isu_pack_str_len(ptr %new)
  %b.gone = mul i64 %k, %lo
  %b.added = mul i64 %k, %ln
  %b.kept = sub i64 %ls, %b.gone
  %bytes = add i64 %b.kept, %b.added
  %r = call ptr @isu_pack_str_alloc(i64 %bytes, i64 %chars)
  %dst = call ptr @isu_pack_str_bytes(ptr %r)
  %src = call ptr @isu_pack_str_bytes(ptr %s)
  %np = call ptr @isu_pack_str_bytes(ptr %new)
  br label %copy

copy:
  ; Bytes [from, at) of s go to out, then new.
  %in = phi i64 [ 0, %build ], [ %in.next, %piece ]
  %out = phi i64 [ 0, %build ], [ %out.next, %piece ]
  %hit = call i64 @isu_pack_str_find(ptr %s, ptr %old, i64 %in)
  %last = icmp slt i64 %hit, 0
  br i1 %last, label %tail, label %piece

piece:
  %gap = sub i64 %hit, %in
  %gap.src = getelementptr inbounds i8, ptr %src, i64 %in
  %gap.dst = getelementptr inbounds i8, ptr %dst, i64 %out
  call void @llvm.memcpy.p0.p0.i64(ptr %gap.dst, ptr %gap.src, i64 %gap, i1 false)
  %out.gap = add i64 %out, %gap
  %new.dst = getelementptr inbounds i8, ptr %dst, i64 %out.gap
  call void @llvm.memcpy.p0.p0.i64(ptr %new.dst, ptr %np, i64 %ln, i1 false)
  %out.next = add i64 %out.gap, %ln
  %in.next = add i64 %hit, %lo
  br label %copy

tail:
  %rest = sub i64 %ls, %in
  %rest.src = getelementptr inbounds i8, ptr %src, i64 %in
  %rest.dst = getelementptr inbounds i8, ptr %dst, i64 %out
  call void @llvm.memcpy.p0.p0.i64(ptr %rest.dst, ptr %rest.src, i64 %rest, i1 false)
  ret ptr %r
}
