;; Parses, but adds i32s where the values are i64s.
(module
  (func (export "math__GCD") (param i64 i64) (result i64)
    (i32.add (local.get 0) (local.get 1))))
