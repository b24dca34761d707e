;; math.LCM(a, b): 0 when either is 0, else |a| / GCD(|a|, |b|) * |b| on
;; unsigned 64-bit numbers; int_overflow (1) when it passes 2^63 - 1.
(module
  (import "isu" "fail" (func $fail (param i32)))
  (func $magnitude (param $x i64) (result i64)
    (select
      (i64.sub (i64.const 0) (local.get $x))
      (local.get $x)
      (i64.lt_s (local.get $x) (i64.const 0))))
  (func $gcd (param $a i64) (param $b i64) (result i64)
    (local $t i64)
    (block $done
      (loop $next
        (br_if $done (i64.eqz (local.get $b)))
        (local.set $t (i64.rem_u (local.get $a) (local.get $b)))
        (local.set $a (local.get $b))
        (local.set $b (local.get $t))
        (br $next)))
    (local.get $a))
  (func (export "math__LCM") (param $a i64) (param $b i64) (result i64)
    (local $q i64)
    (if (i32.or (i64.eqz (local.get $a)) (i64.eqz (local.get $b)))
      (then (return (i64.const 0))))
    (local.set $a (call $magnitude (local.get $a)))
    (local.set $b (call $magnitude (local.get $b)))
    (local.set $q (i64.div_u (local.get $a) (call $gcd (local.get $a) (local.get $b))))
    ;; q * b <= 2^63 - 1 exactly when q <= (2^63 - 1) / b, rounded down.
    (if (i64.gt_u (local.get $q)
                  (i64.div_u (i64.const 0x7fffffffffffffff) (local.get $b)))
      (then (call $fail (i32.const 1)) (unreachable)))
    (i64.mul (local.get $q) (local.get $b))))
