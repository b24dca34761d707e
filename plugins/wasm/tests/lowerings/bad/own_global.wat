;; Defines a global of its own.
(module
  (global $g (mut i64) (i64.const 0))
  (func (export "math__GCD") (param i64 i64) (result i64) (local.get 0)))
