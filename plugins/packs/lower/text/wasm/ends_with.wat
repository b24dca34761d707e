;; text.ENDS_WITH(s, suffix): whether the last bytes of s are suffix's
;; (for UTF-8, the same as comparing characters).
(module
  (import "isu" "memory" (memory 0))
  (import "isu" "str_bytes" (func $str_bytes (param i32) (result i32)))
  (import "isu" "str_data" (func $str_data (param i32) (result i32)))
  (func $same (param $a i32) (param $b i32) (param $n i32) (result i32)
    (local $i i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (if (i32.ne (i32.load8_u (i32.add (local.get $a) (local.get $i)))
                    (i32.load8_u (i32.add (local.get $b) (local.get $i))))
          (then (return (i32.const 0))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i32.const 1))
  (func (export "text__ENDS_WITH") (param $s i32) (param $p i32) (result i32)
    (local $n i32) (local $m i32)
    (local.set $n (call $str_bytes (local.get $p)))
    (local.set $m (call $str_bytes (local.get $s)))
    (if (i32.gt_u (local.get $n) (local.get $m))
      (then (return (i32.const 0))))
    (call $same
      (i32.add (call $str_data (local.get $s)) (i32.sub (local.get $m) (local.get $n)))
      (call $str_data (local.get $p))
      (local.get $n))))
