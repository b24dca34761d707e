; text.CHR(n): the one-character string of a Unicode scalar value; an int
; below 0, past 0x10FFFF or a surrogate (0xD800-0xDFFF) is out_of_domain.
; The character is encoded as UTF-8 into a new string of 1 to 4 bytes.

declare void @isu_pack_fail(i32, i32)
declare ptr @isu_pack_str_alloc(i64, i64)
declare ptr @isu_pack_str_bytes(ptr)

; Stores the low 8 bits of v at byte i of p.
define internal void @text.put(ptr %p, i64 %i, i64 %v) {
entry:
  %at = getelementptr inbounds i8, ptr %p, i64 %i
  %b = trunc i64 %v to i8
  store i8 %b, ptr %at
  ret void
}

; The continuation byte 10xxxxxx of n's bits from `shift` up.
define internal i64 @text.continuation(i64 %n, i64 %shift) {
entry:
  %s = lshr i64 %n, %shift
  %low = and i64 %s, 63
  %c = or i64 %low, 128
  ret i64 %c
}

define ptr @text.CHR(i64 %n, i32 %site) {
entry:
  ; 0 <= n <= 0x10FFFF, unsigned, and n - 0xD800 >= 0x800 (no surrogate).
  %in_range = icmp ule i64 %n, 1114111
  %off = sub i64 %n, 55296
  %not_surrogate = icmp uge i64 %off, 2048
  %scalar = and i1 %in_range, %not_surrogate
  br i1 %scalar, label %width, label %domain

domain:
  call void @isu_pack_fail(i32 17, i32 %site) ; out_of_domain
  unreachable

width:
  %lt80 = icmp ult i64 %n, 128
  %lt800 = icmp ult i64 %n, 2048
  %lt10000 = icmp ult i64 %n, 65536
  %w34 = select i1 %lt10000, i64 3, i64 4
  %w234 = select i1 %lt800, i64 2, i64 %w34
  %w = select i1 %lt80, i64 1, i64 %w234
  %s = call ptr @isu_pack_str_alloc(i64 %w, i64 1)
  %p = call ptr @isu_pack_str_bytes(ptr %s)
  switch i64 %w, label %four [ i64 1, label %one
                               i64 2, label %two
                               i64 3, label %three ]

one:
  call void @text.put(ptr %p, i64 0, i64 %n)
  ret ptr %s

two:
  ; 110xxxxx 10xxxxxx
  %two.hi = lshr i64 %n, 6
  %two.b0 = or i64 %two.hi, 192
  call void @text.put(ptr %p, i64 0, i64 %two.b0)
  %two.b1 = call i64 @text.continuation(i64 %n, i64 0)
  call void @text.put(ptr %p, i64 1, i64 %two.b1)
  ret ptr %s

three:
  ; 1110xxxx 10xxxxxx 10xxxxxx
  %three.hi = lshr i64 %n, 12
  %three.b0 = or i64 %three.hi, 224
  call void @text.put(ptr %p, i64 0, i64 %three.b0)
  %three.b1 = call i64 @text.continuation(i64 %n, i64 6)
  call void @text.put(ptr %p, i64 1, i64 %three.b1)
  %three.b2 = call i64 @text.continuation(i64 %n, i64 0)
  call void @text.put(ptr %p, i64 2, i64 %three.b2)
  ret ptr %s

four:
  ; 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
  %four.hi = lshr i64 %n, 18
  %four.b0 = or i64 %four.hi, 240
  call void @text.put(ptr %p, i64 0, i64 %four.b0)
  %four.b1 = call i64 @text.continuation(i64 %n, i64 12)
  call void @text.put(ptr %p, i64 1, i64 %four.b1)
  %four.b2 = call i64 @text.continuation(i64 %n, i64 6)
  call void @text.put(ptr %p, i64 2, i64 %four.b2)
  %four.b3 = call i64 @text.continuation(i64 %n, i64 0)
  call void @text.put(ptr %p, i64 3, i64 %four.b3)
  ret ptr %s
}
