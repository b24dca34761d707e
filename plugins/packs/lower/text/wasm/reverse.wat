;; text.REVERSE(s): the characters of s in reverse order, each character's
;; bytes kept in their order.
(module
  (import "isu" "memory" (memory 0))
  (import "isu" "str_bytes" (func $str_bytes (param i32) (result i32)))
  (import "isu" "str_chars" (func $str_chars (param i32) (result i32)))
  (import "isu" "str_data" (func $str_data (param i32) (result i32)))
  (import "isu" "str_new" (func $str_new (param i32 i32) (result i32)))
  (func (export "text__REVERSE") (param $s i32) (result i32)
    (local $n i32) (local $p i32) (local $r i32) (local $q i32) (local $i i32) (local $b i32) (local $w i32)
    (local.set $n (call $str_bytes (local.get $s)))
    (local.set $p (call $str_data (local.get $s)))
    (local.set $r (call $str_new (local.get $n) (call $str_chars (local.get $s))))
    (local.set $q (call $str_data (local.get $r)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        ;; The width of the character at byte i, from its first byte.
        (local.set $b (i32.load8_u (i32.add (local.get $p) (local.get $i))))
        (local.set $w
          (select (i32.const 1)
            (select (i32.const 2)
              (select (i32.const 3) (i32.const 4) (i32.lt_u (local.get $b) (i32.const 0xf0)))
              (i32.lt_u (local.get $b) (i32.const 0xe0)))
            (i32.lt_u (local.get $b) (i32.const 0x80))))
        (memory.copy
          (i32.add (local.get $q) (i32.sub (i32.sub (local.get $n) (local.get $i)) (local.get $w)))
          (i32.add (local.get $p) (local.get $i))
          (local.get $w))
        (local.set $i (i32.add (local.get $i) (local.get $w)))
        (br $next)))
    (local.get $r)))
