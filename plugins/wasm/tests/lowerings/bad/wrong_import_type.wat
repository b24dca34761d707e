;; Imports isu.max_size with a result of the wrong type.
(module
  (import "isu" "max_size" (func $max (result i32)))
  (func (export "math__GCD") (param i64 i64) (result i64) (local.get 0)))
