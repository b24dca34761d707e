; text.PAD_LEFT(s, width, fill): s with the one-character fill added before
; it up to width characters; s itself when it has width or more (a negative
; width included). A fill that is not one character is out_of_domain; a
; width past the run's size limit is size_limit, checked before anything is
; built.
;
; The padding is written by doubling: one fill, then copies of what is
; written so far, so it takes a few copies however wide.

declare void @isu_pack_fail(i32, i32)
declare void @isu_pack_check_size(i64, i32)
declare void @isu_pack_retain(ptr)
declare i64 @isu_pack_str_len(ptr)
declare i64 @isu_pack_str_chars(ptr)
declare ptr @isu_pack_str_bytes(ptr)
declare ptr @isu_pack_str_alloc(i64, i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; Writes `total` bytes at dst: the fb bytes at fill again and again
; (total is a multiple of fb, and at least fb).
define internal void @text.repeat_fill(ptr %dst, ptr %fill, i64 %fb, i64 %total) {
entry:
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %fill, i64 %fb, i1 false)
  br label %loop

loop:
  %done = phi i64 [ %fb, %entry ], [ %done.next, %double ]
  %more = icmp ult i64 %done, %total
  br i1 %more, label %double, label %out

double:
  ; Copy min(done, total - done) bytes of what is written after it.
  %rest = sub i64 %total, %done
  %small = icmp ult i64 %rest, %done
  %m = select i1 %small, i64 %rest, i64 %done
  %to = getelementptr inbounds i8, ptr %dst, i64 %done
  call void @llvm.memcpy.p0.p0.i64(ptr %to, ptr %dst, i64 %m, i1 false)
  %done.next = add i64 %done, %m
  br label %loop

out:
  ret void
}

define ptr @text.PAD_LEFT(ptr %s, i64 %width, ptr %fill, i32 %site) {
entry:
  %fill.chars = call i64 @isu_pack_str_chars(ptr %fill)
  %one = icmp eq i64 %fill.chars, 1
  br i1 %one, label %measure, label %domain

domain:
  call void @isu_pack_fail(i32 17, i32 %site) ; out_of_domain
  unreachable

measure:
  %len = call i64 @isu_pack_str_chars(ptr %s)
  %wide_enough = icmp sle i64 %width, %len
  br i1 %wide_enough, label %same, label %pad

same:
  call void @isu_pack_retain(ptr %s)
  ret ptr %s

pad:
  call void @isu_pack_check_size(i64 %width, i32 %site)
  %k = sub i64 %width, %len
  %fb = call i64 @isu_pack_str_len(ptr %fill)
  %sb = call i64 @isu_pack_str_len(ptr %s)
  %padding = mul i64 %k, %fb
  %bytes = add i64 %padding, %sb
  %r = call ptr @isu_pack_str_alloc(i64 %bytes, i64 %width)
  %dst = call ptr @isu_pack_str_bytes(ptr %r)
  %fp = call ptr @isu_pack_str_bytes(ptr %fill)
  call void @text.repeat_fill(ptr %dst, ptr %fp, i64 %fb, i64 %padding)
  %after = getelementptr inbounds i8, ptr %dst, i64 %padding
  %sp = call ptr @isu_pack_str_bytes(ptr %s)
  call void @llvm.memcpy.p0.p0.i64(ptr %after, ptr %sp, i64 %sb, i1 false)
  ret ptr %r
}
