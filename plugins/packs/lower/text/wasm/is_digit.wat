;; text.IS_DIGIT(s): whether s is not empty and each of its characters is
;; an ASCII digit 0-9. Those are ASCII, so every byte is tested: the bytes
;; of any other character are all 0x80 or more and fail the test.
(module
  (import "isu" "memory" (memory 0))
  (import "isu" "str_bytes" (func $str_bytes (param i32) (result i32)))
  (import "isu" "str_data" (func $str_data (param i32) (result i32)))
  (func (export "text__IS_DIGIT") (param $s i32) (result i32)
    (local $n i32) (local $p i32) (local $i i32) (local $b i32)
    (local.set $n (call $str_bytes (local.get $s)))
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    (local.set $p (call $str_data (local.get $s)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $b (i32.load8_u (i32.add (local.get $p) (local.get $i))))
        (if (i32.eqz (i32.lt_u (i32.sub (local.get $b) (i32.const 0x30)) (i32.const 10)))
          (then (return (i32.const 0))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i32.const 1)))
