; text.ORD(s): the Unicode scalar value of a one-character string; a string
; of no character or of more than one is out_of_domain. The string is valid
; UTF-8, so its one character is its 1 to 4 bytes, decoded here.

declare void @isu_pack_fail(i32, i32)
declare i64 @isu_pack_str_chars(ptr)
declare i64 @isu_pack_str_len(ptr)
declare ptr @isu_pack_str_bytes(ptr)

; Byte i of p, as an i64.
define internal i64 @text.byte(ptr %p, i64 %i) {
entry:
  %at = getelementptr inbounds i8, ptr %p, i64 %i
  %b = load i8, ptr %at
  %w = zext i8 %b to i64
  ret i64 %w
}

define i64 @text.ORD(ptr %s, i32 %site) {
entry:
  %chars = call i64 @isu_pack_str_chars(ptr %s)
  %one = icmp eq i64 %chars, 1
  br i1 %one, label %decode, label %domain

domain:
  call void @isu_pack_fail(i32 17, i32 %site) ; out_of_domain
  unreachable

decode:
  %n = call i64 @isu_pack_str_len(ptr %s)
  %p = call ptr @isu_pack_str_bytes(ptr %s)
  %b0 = call i64 @text.byte(ptr %p, i64 0)
  switch i64 %n, label %four [ i64 1, label %ascii
                               i64 2, label %two
                               i64 3, label %three ]

ascii:
  ret i64 %b0

two:
  ; 110xxxxx 10xxxxxx
  %t0 = and i64 %b0, 31
  %t0s = shl i64 %t0, 6
  %t1b = call i64 @text.byte(ptr %p, i64 1)
  %t1 = and i64 %t1b, 63
  %two.r = or i64 %t0s, %t1
  ret i64 %two.r

three:
  ; 1110xxxx 10xxxxxx 10xxxxxx
  %h0 = and i64 %b0, 15
  %h0s = shl i64 %h0, 12
  %h1b = call i64 @text.byte(ptr %p, i64 1)
  %h1 = and i64 %h1b, 63
  %h1s = shl i64 %h1, 6
  %h2b = call i64 @text.byte(ptr %p, i64 2)
  %h2 = and i64 %h2b, 63
  %h01 = or i64 %h0s, %h1s
  %three.r = or i64 %h01, %h2
  ret i64 %three.r

four:
  ; 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
  %f0 = and i64 %b0, 7
  %f0s = shl i64 %f0, 18
  %f1b = call i64 @text.byte(ptr %p, i64 1)
  %f1 = and i64 %f1b, 63
  %f1s = shl i64 %f1, 12
  %f2b = call i64 @text.byte(ptr %p, i64 2)
  %f2 = and i64 %f2b, 63
  %f2s = shl i64 %f2, 6
  %f3b = call i64 @text.byte(ptr %p, i64 3)
  %f3 = and i64 %f3b, 63
  %f01 = or i64 %f0s, %f1s
  %f012 = or i64 %f01, %f2s
  %four.r = or i64 %f012, %f3
  ret i64 %four.r
}
