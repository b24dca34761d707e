;; math.ISQRT(n): the largest r with r * r <= n; out_of_domain (17) for
;; n < 0. A floating-point guess, corrected both ways (r is below 2^32, so
;; the squares are compared as unsigned 64-bit numbers without wrapping).
(module
  (import "isu" "fail" (func $fail (param i32)))
  (func (export "math__ISQRT") (param $n i64) (result i64)
    (local $r i64)
    (if (i64.lt_s (local.get $n) (i64.const 0))
      (then (call $fail (i32.const 17)) (unreachable)))
    (local.set $r (i64.trunc_f64_u (f64.sqrt (f64.convert_i64_u (local.get $n)))))
    (block $down
      (loop $again
        (br_if $down (i64.le_u (i64.mul (local.get $r) (local.get $r)) (local.get $n)))
        (local.set $r (i64.sub (local.get $r) (i64.const 1)))
        (br $again)))
    (block $up
      (loop $again
        (br_if $up
          (i64.gt_u
            (i64.mul (i64.add (local.get $r) (i64.const 1)) (i64.add (local.get $r) (i64.const 1)))
            (local.get $n)))
        (local.set $r (i64.add (local.get $r) (i64.const 1)))
        (br $again)))
    (local.get $r)))
