;; text.FIND(s, t, start): the first character position at or after start
;; where t occurs in s, or -1; index_out_of_range (3) when start is below 0
;; or past LEN(s). Character positions become byte offsets and back by one
;; walk each; the search is the runtime's linear one (isu.str_find).
(module
  (import "isu" "memory" (memory 0))
  (import "isu" "fail" (func $fail (param i32)))
  (import "isu" "str_bytes" (func $str_bytes (param i32) (result i32)))
  (import "isu" "str_chars" (func $str_chars (param i32) (result i32)))
  (import "isu" "str_data" (func $str_data (param i32) (result i32)))
  (import "isu" "str_find" (func $str_find (param i32 i32 i32) (result i32)))
  ;; The number of characters in the n bytes at p: the bytes that do not
  ;; continue a character (10xxxxxx).
  (func $count (param $p i32) (param $n i32) (result i32)
    (local $i i32) (local $c i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $c
          (i32.add (local.get $c)
            (i32.ne (i32.and (i32.load8_u (i32.add (local.get $p) (local.get $i))) (i32.const 0xc0))
                    (i32.const 0x80))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $c))
  ;; The byte offset of character k (k <= the length in characters) of s.
  (func $offset (param $s i32) (param $k i32) (result i32)
    (local $p i32) (local $i i32) (local $c i32)
    (if (i32.eq (call $str_bytes (local.get $s)) (call $str_chars (local.get $s)))
      (then (return (local.get $k))))
    (local.set $p (call $str_data (local.get $s)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (call $str_bytes (local.get $s))))
        (if (i32.ne (i32.and (i32.load8_u (i32.add (local.get $p) (local.get $i))) (i32.const 0xc0))
                    (i32.const 0x80))
          (then
            (br_if $done (i32.eq (local.get $c) (local.get $k)))
            (local.set $c (i32.add (local.get $c) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $i))
  (func (export "text__FIND") (param $s i32) (param $t i32) (param $start i64) (result i64)
    (local $from i32) (local $at i32)
    (if (i32.or (i64.lt_s (local.get $start) (i64.const 0))
                (i64.gt_s (local.get $start) (i64.extend_i32_u (call $str_chars (local.get $s)))))
      (then (call $fail (i32.const 3)) (unreachable)))
    (local.set $from (call $offset (local.get $s) (i32.wrap_i64 (local.get $start))))
    (local.set $at (call $str_find (local.get $s) (local.get $t) (local.get $from)))
    (if (i32.lt_s (local.get $at) (i32.const 0))
      (then (return (i64.const -1))))
    (i64.add (local.get $start)
      (i64.extend_i32_u
        (call $count (i32.add (call $str_data (local.get $s)) (local.get $from))
                     (i32.sub (local.get $at) (local.get $from)))))))
