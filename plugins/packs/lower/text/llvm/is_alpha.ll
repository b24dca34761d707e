; text.IS_ALPHA(s): whether s is not empty and each of its characters is an
; ASCII letter a-z or A-Z. Every byte of a character past ASCII is 0x80 or
; more, so testing the bytes tests the characters.

declare i64 @isu_pack_str_len(ptr)
declare ptr @isu_pack_str_bytes(ptr)

define i1 @text.IS_ALPHA(ptr %s, i32 %site) {
entry:
  %n = call i64 @isu_pack_str_len(ptr %s)
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %no, label %start

start:
  %p = call ptr @isu_pack_str_bytes(ptr %s)
  br label %loop

loop:
  %i = phi i64 [ 0, %start ], [ %i.next, %next ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %test, label %yes

test:
  %at = getelementptr inbounds i8, ptr %p, i64 %i
  %b = load i8, ptr %at
  ; Setting bit 0x20 makes A-Z a-z and leaves a-z alone; then
  ; b - 'a' <= 25, unsigned, says it is a letter.
  %lower = or i8 %b, 32
  %k = sub i8 %lower, 97
  %letter = icmp ule i8 %k, 25
  br i1 %letter, label %next, label %no

next:
  %i.next = add i64 %i, 1
  br label %loop

yes:
  ret i1 true

no:
  ret i1 false
}
