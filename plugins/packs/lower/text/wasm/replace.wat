;; text.REPLACE(s, old, new): every occurrence of old, from the left and not
;; overlapping, replaced by new. out_of_domain (17) when old is "";
;; size_limit (12) when the result would pass the size limit, found by
;; counting the occurrences before anything is built. Two passes of the
;; runtime's linear search (isu.str_find), so the work is linear in s.
(module
  (import "isu" "memory" (memory 0))
  (import "isu" "fail" (func $fail (param i32)))
  (import "isu" "max_size" (func $max_size (result i64)))
  (import "isu" "str_bytes" (func $str_bytes (param i32) (result i32)))
  (import "isu" "str_chars" (func $str_chars (param i32) (result i32)))
  (import "isu" "str_data" (func $str_data (param i32) (result i32)))
  (import "isu" "str_new" (func $str_new (param i32 i32) (result i32)))
  (import "isu" "str_find" (func $str_find (param i32 i32 i32) (result i32)))
  (func (export "text__REPLACE") (param $s i32) (param $old i32) (param $new i32) (result i32)
    (local $ob i32) (local $nb i32) (local $pos i32) (local $at i32) (local $k i64)
    (local $chars i64) (local $bytes i64) (local $r i32) (local $dst i32) (local $src i32)
    (local.set $ob (call $str_bytes (local.get $old)))
    (local.set $nb (call $str_bytes (local.get $new)))
    (if (i32.eqz (local.get $ob))
      (then (call $fail (i32.const 17)) (unreachable)))
    ;; Count the occurrences.
    (block $counted
      (loop $next
        (local.set $at (call $str_find (local.get $s) (local.get $old) (local.get $pos)))
        (br_if $counted (i32.lt_s (local.get $at) (i32.const 0)))
        (local.set $k (i64.add (local.get $k) (i64.const 1)))
        (local.set $pos (i32.add (local.get $at) (local.get $ob)))
        (br $next)))
    (local.set $chars
      (i64.add
        (i64.sub (i64.extend_i32_u (call $str_chars (local.get $s)))
                 (i64.mul (local.get $k) (i64.extend_i32_u (call $str_chars (local.get $old)))))
        (i64.mul (local.get $k) (i64.extend_i32_u (call $str_chars (local.get $new))))))
    (if (i64.gt_s (local.get $chars) (call $max_size))
      (then (call $fail (i32.const 12)) (unreachable)))
    (local.set $bytes
      (i64.add
        (i64.sub (i64.extend_i32_u (call $str_bytes (local.get $s)))
                 (i64.mul (local.get $k) (i64.extend_i32_u (local.get $ob))))
        (i64.mul (local.get $k) (i64.extend_i32_u (local.get $nb)))))
    ;; More bytes than one block of linear memory holds: out_of_memory (14).
    (if (i64.gt_u (local.get $bytes) (i64.const 0x7fff0000))
      (then (call $fail (i32.const 14)) (unreachable)))
    (local.set $r (call $str_new (i32.wrap_i64 (local.get $bytes)) (i32.wrap_i64 (local.get $chars))))
    (local.set $dst (call $str_data (local.get $r)))
    (local.set $src (call $str_data (local.get $s)))
    (local.set $pos (i32.const 0))
    (block $built
      (loop $next
        (local.set $at (call $str_find (local.get $s) (local.get $old) (local.get $pos)))
        (br_if $built (i32.lt_s (local.get $at) (i32.const 0)))
        (memory.copy (local.get $dst) (i32.add (local.get $src) (local.get $pos))
                     (i32.sub (local.get $at) (local.get $pos)))
        (local.set $dst (i32.add (local.get $dst) (i32.sub (local.get $at) (local.get $pos))))
        (memory.copy (local.get $dst) (call $str_data (local.get $new)) (local.get $nb))
        (local.set $dst (i32.add (local.get $dst) (local.get $nb)))
        (local.set $pos (i32.add (local.get $at) (local.get $ob)))
        (br $next)))
    (memory.copy (local.get $dst) (i32.add (local.get $src) (local.get $pos))
                 (i32.sub (call $str_bytes (local.get $s)) (local.get $pos)))
    (local.get $r)))
