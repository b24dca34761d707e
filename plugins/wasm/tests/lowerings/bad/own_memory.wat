;; Defines a memory of its own.
(module
  (memory 1)
  (func (export "math__GCD") (param i64 i64) (result i64) (local.get 0)))
