;; text.ORD(s): the Unicode scalar value of a one-character string, decoded
;; from its UTF-8 bytes; out_of_domain (17) when s is not one character.
(module
  (import "isu" "memory" (memory 0))
  (import "isu" "fail" (func $fail (param i32)))
  (import "isu" "str_bytes" (func $str_bytes (param i32) (result i32)))
  (import "isu" "str_chars" (func $str_chars (param i32) (result i32)))
  (import "isu" "str_data" (func $str_data (param i32) (result i32)))
  (func (export "text__ORD") (param $s i32) (result i64)
    (local $p i32) (local $n i32) (local $c i32) (local $i i32)
    (if (i32.ne (call $str_chars (local.get $s)) (i32.const 1))
      (then (call $fail (i32.const 17)) (unreachable)))
    (local.set $p (call $str_data (local.get $s)))
    (local.set $n (call $str_bytes (local.get $s)))
    (local.set $c (i32.load8_u (local.get $p)))
    ;; The lead byte's own bits: all 7 of one byte, 5, 4 or 3 of longer ones.
    (if (i32.ge_u (local.get $n) (i32.const 2))
      (then
        (local.set $c
          (i32.and (local.get $c)
            (i32.shr_u (i32.const 0x7f) (local.get $n))))))
    (local.set $i (i32.const 1))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $c
          (i32.or (i32.shl (local.get $c) (i32.const 6))
                  (i32.and (i32.load8_u (i32.add (local.get $p) (local.get $i))) (i32.const 0x3f))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i64.extend_i32_u (local.get $c))))
