;; Imports from a module other than isu.
(module
  (import "env" "abort" (func))
  (func (export "math__GCD") (param i64 i64) (result i64) (local.get 0)))
