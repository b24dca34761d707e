;; Imports a function the module isu does not have.
(module
  (import "isu" "gcd" (func $gcd (param i64 i64) (result i64)))
  (func (export "math__GCD") (param i64 i64) (result i64) (local.get 0)))
