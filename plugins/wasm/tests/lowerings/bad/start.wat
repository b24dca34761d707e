;; Has a start function.
(module
  (func $init)
  (start $init)
  (func (export "math__GCD") (param i64 i64) (result i64) (local.get 0)))
