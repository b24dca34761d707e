;; text.PAD_RIGHT(s, width, fill): s with the one-character fill added
;; after it up to width characters; s itself (one more reference) when it
;; has width or more. out_of_domain (17) when fill is not one character;
;; size_limit (12) when width is past the size limit, checked before the
;; result is built.
(module
  (import "isu" "memory" (memory 0))
  (import "isu" "fail" (func $fail (param i32)))
  (import "isu" "max_size" (func $max_size (result i64)))
  (import "isu" "str_bytes" (func $str_bytes (param i32) (result i32)))
  (import "isu" "str_chars" (func $str_chars (param i32) (result i32)))
  (import "isu" "str_data" (func $str_data (param i32) (result i32)))
  (import "isu" "str_new" (func $str_new (param i32 i32) (result i32)))
  (import "isu" "retain" (func $retain (param i32) (result i32)))
  ;; n copies of the fb bytes at fp, written at dst.
  (func $fill_with (param $dst i32) (param $fp i32) (param $fb i32) (param $n i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $n)))
        (memory.copy (local.get $dst) (local.get $fp) (local.get $fb))
        (local.set $dst (i32.add (local.get $dst) (local.get $fb)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $next))))
  (func (export "text__PAD_RIGHT") (param $s i32) (param $width i64) (param $fill i32) (result i32)
    (local $len i64) (local $sb i32) (local $fp i32) (local $fb i32) (local $pad i32)
    (local $bytes i64) (local $r i32) (local $dst i32)
    (if (i32.ne (call $str_chars (local.get $fill)) (i32.const 1))
      (then (call $fail (i32.const 17)) (unreachable)))
    (local.set $len (i64.extend_i32_u (call $str_chars (local.get $s))))
    (if (i64.le_s (local.get $width) (local.get $len))
      (then (return (call $retain (local.get $s)))))
    (if (i64.gt_s (local.get $width) (call $max_size))
      (then (call $fail (i32.const 12)) (unreachable)))
    (local.set $sb (call $str_bytes (local.get $s)))
    (local.set $fp (call $str_data (local.get $fill)))
    (local.set $fb (call $str_bytes (local.get $fill)))
    (local.set $pad (i32.wrap_i64 (i64.sub (local.get $width) (local.get $len))))
    (local.set $bytes
      (i64.add (i64.extend_i32_u (local.get $sb))
               (i64.mul (i64.extend_i32_u (local.get $pad)) (i64.extend_i32_u (local.get $fb)))))
    ;; More bytes than one block of linear memory holds: out_of_memory (14).
    (if (i64.gt_u (local.get $bytes) (i64.const 0x7fff0000))
      (then (call $fail (i32.const 14)) (unreachable)))
    (local.set $r (call $str_new (i32.wrap_i64 (local.get $bytes)) (i32.wrap_i64 (local.get $width))))
    ;; s, then the padding.
    (local.set $dst (call $str_data (local.get $r)))
    (memory.copy (local.get $dst) (call $str_data (local.get $s)) (local.get $sb))
    (call $fill_with (i32.add (local.get $dst) (local.get $sb)) (local.get $fp) (local.get $fb) (local.get $pad))
    (local.get $r)))
