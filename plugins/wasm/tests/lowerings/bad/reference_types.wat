;; Has a helper taking a reference, not a number.
(module
  (func $h (param externref))
  (func (export "math__GCD") (param i64 i64) (result i64) (local.get 0)))
