;; text.SUBSTR(s, start, count): the count characters of s from character
;; start; index_out_of_range (3) when start or count is below 0 or
;; start + count is past LEN(s).
(module
  (import "isu" "memory" (memory 0))
  (import "isu" "fail" (func $fail (param i32)))
  (import "isu" "str_bytes" (func $str_bytes (param i32) (result i32)))
  (import "isu" "str_chars" (func $str_chars (param i32) (result i32)))
  (import "isu" "str_data" (func $str_data (param i32) (result i32)))
  (import "isu" "str_new" (func $str_new (param i32 i32) (result i32)))
  ;; The byte offset, from byte i of the n bytes at p, past k more characters.
  (func $skip (param $p i32) (param $n i32) (param $i i32) (param $k i32) (result i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $k)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (block $at_start
          (loop $more
            (br_if $at_start (i32.ge_u (local.get $i) (local.get $n)))
            (br_if $at_start
              (i32.ne (i32.and (i32.load8_u (i32.add (local.get $p) (local.get $i))) (i32.const 0xc0))
                      (i32.const 0x80)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $more)))
        (local.set $k (i32.sub (local.get $k) (i32.const 1)))
        (br $next)))
    (local.get $i))
  (func (export "text__SUBSTR") (param $s i32) (param $start i64) (param $count i64) (result i32)
    (local $len i64) (local $p i32) (local $n i32) (local $from i32) (local $to i32) (local $r i32)
    (local.set $len (i64.extend_i32_u (call $str_chars (local.get $s))))
    (if (i32.or
          (i32.or (i64.lt_s (local.get $start) (i64.const 0)) (i64.lt_s (local.get $count) (i64.const 0)))
          (i32.or (i64.gt_s (local.get $start) (local.get $len))
                  (i64.gt_s (local.get $count) (i64.sub (local.get $len) (local.get $start)))))
      (then (call $fail (i32.const 3)) (unreachable)))
    (local.set $p (call $str_data (local.get $s)))
    (local.set $n (call $str_bytes (local.get $s)))
    (if (i64.eq (local.get $len) (i64.extend_i32_u (local.get $n)))
      (then
        (local.set $from (i32.wrap_i64 (local.get $start)))
        (local.set $to (i32.wrap_i64 (i64.add (local.get $start) (local.get $count)))))
      (else
        (local.set $from (call $skip (local.get $p) (local.get $n) (i32.const 0) (i32.wrap_i64 (local.get $start))))
        (local.set $to (call $skip (local.get $p) (local.get $n) (local.get $from) (i32.wrap_i64 (local.get $count))))))
    (local.set $r (call $str_new (i32.sub (local.get $to) (local.get $from)) (i32.wrap_i64 (local.get $count))))
    (memory.copy (call $str_data (local.get $r)) (i32.add (local.get $p) (local.get $from))
                 (i32.sub (local.get $to) (local.get $from)))
    (local.get $r)))
