;; demo.LONGEST(ws): the first longest string of a string[], one more
;; reference to it (isu.arr_ref, isu.str_chars, isu.retain); out_of_domain
;; (17) for []. The helper returns two values through a block with a
;; parameter: a type index of the lowering's own, which the merge remaps.
(module
  (import "isu" "fail" (func $fail (param i32)))
  (import "isu" "arr_len" (func $arr_len (param i32) (result i32)))
  (import "isu" "arr_ref" (func $arr_ref (param i32 i32) (result i32)))
  (import "isu" "str_chars" (func $str_chars (param i32) (result i32)))
  (import "isu" "retain" (func $retain (param i32) (result i32)))
  (func $with_len (param $s i32) (result i32 i32)
    (local.get $s)
    (block (param i32) (result i32 i32)
      (call $str_chars (local.get $s))))
  (func (export "demo__LONGEST") (param $ws i32) (result i32)
    (local $n i32) (local $i i32) (local $best i32) (local $len i32) (local $w i32) (local $l i32)
    (local.set $n (call $arr_len (local.get $ws)))
    (if (i32.eqz (local.get $n))
      (then (call $fail (i32.const 17)) (unreachable)))
    (local.set $len (i32.const -1))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (call $with_len (call $arr_ref (local.get $ws) (local.get $i)))
        (local.set $l)
        (local.set $w)
        (if (i32.gt_s (local.get $l) (local.get $len))
          (then
            (local.set $best (local.get $w))
            (local.set $len (local.get $l))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (call $retain (local.get $best))))
