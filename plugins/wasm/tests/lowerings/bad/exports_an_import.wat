;; Exports an import of isu under the function's name.
(module
  (import "isu" "max_size" (func $max (result i64)))
  (export "math__GCD" (func $max)))
