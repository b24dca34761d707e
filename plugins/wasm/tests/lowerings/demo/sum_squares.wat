;; demo.SUM_SQUARES(n): 0^2 + ... + (n-1)^2, the squares kept in a scratch
;; block first (isu.alloc, isu.free, the memory isu.memory); out_of_domain
;; (17) for n outside 0..=1000.
(module
  (import "isu" "memory" (memory 0))
  (import "isu" "fail" (func $fail (param i32)))
  (import "isu" "alloc" (func $alloc (param i32) (result i32)))
  (import "isu" "free" (func $free (param i32)))
  (func (export "demo__SUM_SQUARES") (param $n i64) (result i64)
    (local $p i32) (local $i i32) (local $k i32) (local $s i64)
    (if (i64.gt_u (local.get $n) (i64.const 1000))
      (then (call $fail (i32.const 17)) (unreachable)))
    (local.set $k (i32.wrap_i64 (local.get $n)))
    (local.set $p (call $alloc (i32.shl (local.get $k) (i32.const 3))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $k)))
        (i64.store (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 3)))
                   (i64.mul (i64.extend_i32_u (local.get $i)) (i64.extend_i32_u (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.set $i (i32.const 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $k)))
        (local.set $s
          (i64.add (local.get $s)
                   (i64.load (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 3))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (call $free (local.get $p))
    (local.get $s)))
