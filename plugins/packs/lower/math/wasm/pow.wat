;; math.POW(b, e): square and multiply, each product checked, in the order
;; the interpreter multiplies (so the same powers overflow); out_of_domain
;; (17) for e < 0, int_overflow (1) past the int range.
(module
  (import "isu" "fail" (func $fail (param i32)))
  (func $mul (param $x i64) (param $y i64) (result i64)
    (local $r i64)
    (if (i64.eqz (local.get $y)) (then (return (i64.const 0))))
    (if (i64.eq (local.get $y) (i64.const -1))
      (then
        (if (i64.eq (local.get $x) (i64.const 0x8000000000000000))
          (then (call $fail (i32.const 1)) (unreachable)))
        (return (i64.sub (i64.const 0) (local.get $x)))))
    (local.set $r (i64.mul (local.get $x) (local.get $y)))
    ;; y is neither 0 nor -1: the product wrapped exactly when r / y is not x.
    (if (i64.ne (i64.div_s (local.get $r) (local.get $y)) (local.get $x))
      (then (call $fail (i32.const 1)) (unreachable)))
    (local.get $r))
  (func (export "math__POW") (param $b i64) (param $e i64) (result i64)
    (local $r i64)
    (if (i64.lt_s (local.get $e) (i64.const 0))
      (then (call $fail (i32.const 17)) (unreachable)))
    (local.set $r (i64.const 1))
    (block $done
      (loop $next
        (br_if $done (i64.eqz (local.get $e)))
        (if (i32.wrap_i64 (i64.and (local.get $e) (i64.const 1)))
          (then (local.set $r (call $mul (local.get $r) (local.get $b)))))
        (local.set $e (i64.shr_u (local.get $e) (i64.const 1)))
        (if (i64.ne (local.get $e) (i64.const 0))
          (then (local.set $b (call $mul (local.get $b) (local.get $b)))))
        (br $next)))
    (local.get $r)))
