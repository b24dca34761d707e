;; math.CLAMP(x, lo, hi): x within [lo, hi]; out_of_domain (17) for lo > hi.
(module
  (import "isu" "fail" (func $fail (param i32)))
  (func (export "math__CLAMP") (param $x i64) (param $lo i64) (param $hi i64) (result i64)
    (if (i64.gt_s (local.get $lo) (local.get $hi))
      (then (call $fail (i32.const 17)) (unreachable)))
    (if (i64.lt_s (local.get $x) (local.get $lo)) (then (return (local.get $lo))))
    (if (i64.gt_s (local.get $x) (local.get $hi)) (then (return (local.get $hi))))
    (local.get $x)))
