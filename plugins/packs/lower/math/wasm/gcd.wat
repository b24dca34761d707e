;; math.GCD(a, b): the greatest common divisor of the magnitudes (Euclid on
;; unsigned 64-bit numbers, so that |-2^63| is 2^63); int_overflow (1) when
;; it is 2^63, which no int holds.
(module
  (import "isu" "fail" (func $fail (param i32)))
  (func $magnitude (param $x i64) (result i64)
    (select
      (i64.sub (i64.const 0) (local.get $x))
      (local.get $x)
      (i64.lt_s (local.get $x) (i64.const 0))))
  (func (export "math__GCD") (param $a i64) (param $b i64) (result i64)
    (local $t i64)
    (local.set $a (call $magnitude (local.get $a)))
    (local.set $b (call $magnitude (local.get $b)))
    (block $done
      (loop $next
        (br_if $done (i64.eqz (local.get $b)))
        (local.set $t (i64.rem_u (local.get $a) (local.get $b)))
        (local.set $a (local.get $b))
        (local.set $b (local.get $t))
        (br $next)))
    (if (i64.lt_s (local.get $a) (i64.const 0))
      (then (call $fail (i32.const 1)) (unreachable)))
    (local.get $a)))
