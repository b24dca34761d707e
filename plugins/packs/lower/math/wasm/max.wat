;; math.MAX(xs): the largest element; empty_collection (7) for [].
(module
  (import "isu" "fail" (func $fail (param i32)))
  (import "isu" "arr_len" (func $arr_len (param i32) (result i32)))
  (import "isu" "arr_int" (func $arr_int (param i32 i32) (result i64)))
  (func (export "math__MAX") (param $xs i32) (result i64)
    (local $n i32) (local $i i32) (local $m i64) (local $v i64)
    (local.set $n (call $arr_len (local.get $xs)))
    (if (i32.eqz (local.get $n))
      (then (call $fail (i32.const 7)) (unreachable)))
    (local.set $m (call $arr_int (local.get $xs) (i32.const 0)))
    (local.set $i (i32.const 1))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $v (call $arr_int (local.get $xs) (local.get $i)))
        (if (i64.gt_s (local.get $v) (local.get $m))
          (then (local.set $m (local.get $v))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $m)))
