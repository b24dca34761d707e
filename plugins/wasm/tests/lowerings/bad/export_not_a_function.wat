;; Exports the memory under the function's name.
(module
  (import "isu" "memory" (memory 0))
  (export "math__GCD" (memory 0)))
