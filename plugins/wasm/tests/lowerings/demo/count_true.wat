;; demo.COUNT_TRUE(bs): how many elements of a bool[] are true (isu.arr_len,
;; isu.arr_bool).
(module
  (import "isu" "arr_len" (func $arr_len (param i32) (result i32)))
  (import "isu" "arr_bool" (func $arr_bool (param i32 i32) (result i32)))
  (func (export "demo__COUNT_TRUE") (param $bs i32) (result i64)
    (local $i i32) (local $n i32) (local $c i64)
    (local.set $n (call $arr_len (local.get $bs)))
    (block $done
      (loop $next
        (br_if $done (i32.eqz (i32.lt_u (local.get $i) (local.get $n))))
        (local.set $c
          (i64.add (local.get $c) (i64.extend_i32_u (call $arr_bool (local.get $bs) (local.get $i)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $c)))
