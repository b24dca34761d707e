;; Floats and their text, in the module (which imports nothing, so it has no
;; libc to lean on): `isu_rt__float_repr`, the text Python's repr writes for
;; a finite double (TO_STRING, spec/stdlib.md), and `isu_rt__parse_float`,
;; the double nearest a decimal text that Python's float() reads, less inf
;; and nan (PARSE_FLOAT), or NaN for text it does not read.
;;
;; Both are exact, on big unsigned integers in scratch blocks: `n` limbs of
;; 32 bits, least significant first.
;;
;; The repr is the free-format algorithm of Steele and White as Burger and
;; Dybvig state it ("Printing Floating-Point Numbers Quickly and
;; Accurately", 1996): the value and the halfway points to its neighbours
;; (r, m+ and m-, over the scale s) are scaled by a power of ten, and digits
;; are generated until the rest lies within the halfway points, which the
;; value's own rounding (to even) includes or not; the last digit is the
;; nearer one, the even one on a tie. That is the shortest text that reads
;; back to the double and, among those, the nearest to it: what David Gay's
;; dtoa (mode 0) gives Python's repr.
;;
;; The parse reads the significant digits (at most 800 of them, and a
;; sticky 1 after them when more that are not all zero follow, which cannot
;; change the rounding of a double) as an integer D with a power of ten E,
;; and divides D * 10^E (as N / M, both integers) bit by bit into a quotient
;; of 54 to 57 bits and a rest, from which it rounds to the nearest double,
;; to even on a tie.
(module
  (import "isu" "memory" (memory 1))
  (import "isu" "alloc" (func $alloc (param i32) (result i32)))
  (import "isu" "free" (func $free (param i32)))
  (import "isu" "str_new" (func $str_new (param i32 i32) (result i32)))
  (import "isu" "str_bytes" (func $str_bytes (param i32) (result i32)))
  (import "isu" "str_data" (func $str_data (param i32) (result i32)))

  ;; ---- big unsigned integers -------------------------------------------

  (func $bn_set (param $p i32) (param $n i32) (param $v i64)
    (memory.fill (local.get $p) (i32.const 0) (i32.shl (local.get $n) (i32.const 2)))
    (i32.store (local.get $p) (i32.wrap_i64 (local.get $v)))
    (i32.store offset=4 (local.get $p) (i32.wrap_i64 (i64.shr_u (local.get $v) (i64.const 32)))))

  (func $bn_copy (param $d i32) (param $s i32) (param $n i32)
    (memory.copy (local.get $d) (local.get $s) (i32.shl (local.get $n) (i32.const 2))))

  ;; p *= k, k below 2^32.
  (func $bn_mul_small (param $p i32) (param $n i32) (param $k i64)
    (local $i i32) (local $c i64) (local $at i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $c
          (i64.add
            (i64.mul (i64.load32_u (local.get $at)) (local.get $k))
            (local.get $c)))
        (i32.store (local.get $at) (i32.wrap_i64 (local.get $c)))
        (local.set $c (i64.shr_u (local.get $c) (i64.const 32)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; p *= 10^e, e >= 0.
  (func $bn_mul_pow10 (param $p i32) (param $n i32) (param $e i32)
    (block $done
      (loop $next
        (br_if $done (i32.lt_s (local.get $e) (i32.const 9)))
        (call $bn_mul_small (local.get $p) (local.get $n) (i64.const 1000000000))
        (local.set $e (i32.sub (local.get $e) (i32.const 9)))
        (br $next)))
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $e)))
        (call $bn_mul_small (local.get $p) (local.get $n) (i64.const 10))
        (local.set $e (i32.sub (local.get $e) (i32.const 1)))
        (br $next))))

  ;; p <<= bits.
  (func $bn_shl (param $p i32) (param $n i32) (param $bits i32)
    (local $limbs i32) (local $sh i64) (local $i i32) (local $lo i64) (local $hi i64) (local $src i32)
    (local.set $limbs (i32.shr_u (local.get $bits) (i32.const 5)))
    (local.set $sh (i64.extend_i32_u (i32.and (local.get $bits) (i32.const 31))))
    (local.set $i (local.get $n))
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $i)))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (local.set $src (i32.sub (local.get $i) (local.get $limbs)))
        (local.set $hi (i64.const 0))
        (local.set $lo (i64.const 0))
        (if (i32.ge_s (local.get $src) (i32.const 0))
          (then
            (local.set $hi
              (i64.load32_u (i32.add (local.get $p) (i32.shl (local.get $src) (i32.const 2)))))))
        (if (i32.ge_s (local.get $src) (i32.const 1))
          (then
            (local.set $lo
              (i64.load32_u
                (i32.add (local.get $p) (i32.shl (i32.sub (local.get $src) (i32.const 1)) (i32.const 2)))))))
        (i32.store
          (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 2)))
          (i32.wrap_i64
            (i64.shr_u
              (i64.or (i64.shl (local.get $hi) (i64.const 32)) (local.get $lo))
              (i64.sub (i64.const 32) (local.get $sh)))))
        (br $next))))

  ;; p >>= 1.
  (func $bn_shr1 (param $p i32) (param $n i32)
    (local $i i32) (local $at i32) (local $next_limb i64)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $next_limb (i64.const 0))
        (if (i32.lt_u (i32.add (local.get $i) (i32.const 1)) (local.get $n))
          (then (local.set $next_limb (i64.load32_u offset=4 (local.get $at)))))
        (i32.store (local.get $at)
          (i32.wrap_i64
            (i64.shr_u
              (i64.or (i64.shl (local.get $next_limb) (i64.const 32)) (i64.load32_u (local.get $at)))
              (i64.const 1))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; d = a + b (d may be a or b).
  (func $bn_add (param $d i32) (param $a i32) (param $b i32) (param $n i32)
    (local $i i32) (local $c i64) (local $off i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $off (i32.shl (local.get $i) (i32.const 2)))
        (local.set $c
          (i64.add
            (i64.add
              (i64.load32_u (i32.add (local.get $a) (local.get $off)))
              (i64.load32_u (i32.add (local.get $b) (local.get $off))))
            (local.get $c)))
        (i32.store (i32.add (local.get $d) (local.get $off)) (i32.wrap_i64 (local.get $c)))
        (local.set $c (i64.shr_u (local.get $c) (i64.const 32)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; a -= b, b <= a.
  (func $bn_sub (param $a i32) (param $b i32) (param $n i32)
    (local $i i32) (local $c i64) (local $off i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $off (i32.shl (local.get $i) (i32.const 2)))
        (local.set $c
          (i64.sub
            (i64.sub
              (i64.load32_u (i32.add (local.get $a) (local.get $off)))
              (i64.load32_u (i32.add (local.get $b) (local.get $off))))
            (local.get $c)))
        (i32.store (i32.add (local.get $a) (local.get $off)) (i32.wrap_i64 (local.get $c)))
        ;; 1 when it borrowed.
        (local.set $c (i64.shr_u (local.get $c) (i64.const 63)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; -1, 0 or 1 as a is below, equal to or above b.
  (func $bn_cmp (param $a i32) (param $b i32) (param $n i32) (result i32)
    (local $i i32) (local $x i32) (local $y i32)
    (local.set $i (local.get $n))
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $i)))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (local.set $x (i32.load (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $y (i32.load (i32.add (local.get $b) (i32.shl (local.get $i) (i32.const 2)))))
        (if (i32.ne (local.get $x) (local.get $y))
          (then (return (select (i32.const -1) (i32.const 1) (i32.lt_u (local.get $x) (local.get $y))))))
        (br $next)))
    (i32.const 0))

  ;; The number of bits of p (0 for 0).
  (func $bn_bits (param $p i32) (param $n i32) (result i32)
    (local $i i32) (local $x i32)
    (local.set $i (local.get $n))
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $i)))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (local.set $x (i32.load (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 2)))))
        (if (local.get $x)
          (then
            (return
              (i32.add (i32.shl (local.get $i) (i32.const 5)) (i32.sub (i32.const 32) (i32.clz (local.get $x)))))))
        (br $next)))
    (i32.const 0))

  (func $bn_is_zero (param $p i32) (param $n i32) (result i32)
    (i32.eqz (call $bn_bits (local.get $p) (local.get $n))))

  ;; ---- repr --------------------------------------------------------------

  ;; Whether a halfway point compared to the value by `c` (-1, 0, 1, from
  ;; `bn_cmp`) is inside the interval that reads back: strictly, or on its
  ;; edge too when the value rounds to even (`even`).
  (func $within (param $c i32) (param $even i32) (result i32)
    (i32.or (i32.lt_s (local.get $c) (i32.const 0))
      (i32.and (local.get $even) (i32.eqz (local.get $c)))))

  ;; The shortest digits of the positive, finite x, nearest among those,
  ;; as ASCII at `out` (at most 17); returns their count, and the power of
  ;; ten k with x = 0.DIGITS * 10^k at `out + 20` (an i32).
  (func $shortest (param $x f64) (param $out i32) (result i32)
    (local $bits i64) (local $be i32) (local $f i64) (local $e i32) (local $even i32)
    (local $r i32) (local $s i32) (local $mp i32) (local $mm i32) (local $t i32)
    (local $k i32) (local $d i32) (local $count i32) (local $low i32) (local $high i32) (local $c i32)
    (local.set $bits (i64.reinterpret_f64 (local.get $x)))
    (local.set $be (i32.wrap_i64 (i64.shr_u (local.get $bits) (i64.const 52))))
    (local.set $f (i64.and (local.get $bits) (i64.const 0xFFFFFFFFFFFFF)))
    (if (i32.eqz (local.get $be))
      (then (local.set $e (i32.const -1074)))
      (else
        (local.set $f (i64.or (local.get $f) (i64.const 0x10000000000000)))
        (local.set $e (i32.sub (local.get $be) (i32.const 1075)))))
    (local.set $even (i64.eqz (i64.and (local.get $f) (i64.const 1))))
    ;; Five numbers of 40 limbs: 1280 bits hold r, s, m+ and m- (at most
    ;; about 1140 bits, for the least subnormal scaled by 10^323).
    (local.set $r (call $alloc (i32.const 800)))
    (local.set $s (i32.add (local.get $r) (i32.const 160)))
    (local.set $mp (i32.add (local.get $r) (i32.const 320)))
    (local.set $mm (i32.add (local.get $r) (i32.const 480)))
    (local.set $t (i32.add (local.get $r) (i32.const 640)))
    (call $bn_set (local.get $r) (i32.const 40) (local.get $f))
    (call $bn_set (local.get $s) (i32.const 40) (i64.const 1))
    (call $bn_set (local.get $mp) (i32.const 40) (i64.const 1))
    (call $bn_set (local.get $mm) (i32.const 40) (i64.const 1))
    (if (i32.ge_s (local.get $e) (i32.const 0))
      (then
        (if (i64.ne (local.get $f) (i64.const 0x10000000000000))
          (then
            (call $bn_shl (local.get $r) (i32.const 40) (i32.add (local.get $e) (i32.const 1)))
            (call $bn_shl (local.get $s) (i32.const 40) (i32.const 1))
            (call $bn_shl (local.get $mp) (i32.const 40) (local.get $e))
            (call $bn_shl (local.get $mm) (i32.const 40) (local.get $e)))
          (else
            (call $bn_shl (local.get $r) (i32.const 40) (i32.add (local.get $e) (i32.const 2)))
            (call $bn_shl (local.get $s) (i32.const 40) (i32.const 2))
            (call $bn_shl (local.get $mp) (i32.const 40) (i32.add (local.get $e) (i32.const 1)))
            (call $bn_shl (local.get $mm) (i32.const 40) (local.get $e)))))
      (else
        (if (i32.or (i32.le_u (local.get $be) (i32.const 1))
              (i64.ne (local.get $f) (i64.const 0x10000000000000)))
          (then
            (call $bn_shl (local.get $r) (i32.const 40) (i32.const 1))
            (call $bn_shl (local.get $s) (i32.const 40) (i32.sub (i32.const 1) (local.get $e))))
          (else
            (call $bn_shl (local.get $r) (i32.const 40) (i32.const 2))
            (call $bn_shl (local.get $s) (i32.const 40) (i32.sub (i32.const 2) (local.get $e)))
            (call $bn_shl (local.get $mp) (i32.const 40) (i32.const 1))))))
    ;; k from the position of the top bit: exact or one too small.
    (local.set $k
      (i32.trunc_f64_s
        (f64.ceil
          (f64.sub
            (f64.mul
              (f64.convert_i32_s
                (i32.add (local.get $e) (i32.sub (i32.const 63) (i32.wrap_i64 (i64.clz (local.get $f))))))
              (f64.const 0.30102999566398114))
            (f64.const 1e-10)))))
    (if (i32.ge_s (local.get $k) (i32.const 0))
      (then (call $bn_mul_pow10 (local.get $s) (i32.const 40) (local.get $k)))
      (else
        (call $bn_mul_pow10 (local.get $r) (i32.const 40) (i32.sub (i32.const 0) (local.get $k)))
        (call $bn_mul_pow10 (local.get $mp) (i32.const 40) (i32.sub (i32.const 0) (local.get $k)))
        (call $bn_mul_pow10 (local.get $mm) (i32.const 40) (i32.sub (i32.const 0) (local.get $k)))))
    ;; Too small: the value and its upper halfway point reach s.
    (block $done
      (loop $next
        (call $bn_add (local.get $t) (local.get $r) (local.get $mp) (i32.const 40))
        (br_if $done
          (i32.eqz
            (call $within (call $bn_cmp (local.get $s) (local.get $t) (i32.const 40)) (local.get $even))))
        (call $bn_mul_small (local.get $s) (i32.const 40) (i64.const 10))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    ;; The digits.
    (block $done
      (loop $next
        (call $bn_mul_small (local.get $r) (i32.const 40) (i64.const 10))
        (call $bn_mul_small (local.get $mp) (i32.const 40) (i64.const 10))
        (call $bn_mul_small (local.get $mm) (i32.const 40) (i64.const 10))
        (local.set $d (i32.const 0))
        (block $digit
          (loop $more
            (br_if $digit (i32.lt_s (call $bn_cmp (local.get $r) (local.get $s) (i32.const 40)) (i32.const 0)))
            (call $bn_sub (local.get $r) (local.get $s) (i32.const 40))
            (local.set $d (i32.add (local.get $d) (i32.const 1)))
            (br $more)))
        ;; low: r within m- of the digits so far; high: within m+ of the next.
        (local.set $low
          (call $within (call $bn_cmp (local.get $r) (local.get $mm) (i32.const 40)) (local.get $even)))
        (call $bn_add (local.get $t) (local.get $r) (local.get $mp) (i32.const 40))
        (local.set $high
          (call $within (call $bn_cmp (local.get $s) (local.get $t) (i32.const 40)) (local.get $even)))
        (if (i32.and (local.get $low) (local.get $high))
          (then
            (call $bn_add (local.get $t) (local.get $r) (local.get $r) (i32.const 40))
            (local.set $c (call $bn_cmp (local.get $t) (local.get $s) (i32.const 40)))
            (if (i32.or (i32.gt_s (local.get $c) (i32.const 0))
                  (i32.and (i32.eqz (local.get $c)) (i32.and (local.get $d) (i32.const 1))))
              (then (local.set $d (i32.add (local.get $d) (i32.const 1))))))
          (else
            (if (local.get $high) (then (local.set $d (i32.add (local.get $d) (i32.const 1)))))))
        (i32.store8 (i32.add (local.get $out) (local.get $count)) (i32.add (local.get $d) (i32.const 48)))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))
        (br_if $next (i32.eqz (i32.or (local.get $low) (local.get $high))))))
    (call $free (local.get $r))
    (i32.store offset=20 (local.get $out) (local.get $k))
    (local.get $count))

  ;; The text Python's repr writes for x, which is finite.
  (func (export "isu_rt__float_repr") (param $x f64) (result i32)
    (local $buf i32) (local $p i32) (local $count i32) (local $k i32) (local $i i32) (local $s i32)
    (local $exp i32)
    (local.set $buf (call $alloc (i32.const 64)))
    ;; The digits at buf + 32, the text from buf.
    (local.set $p (local.get $buf))
    (if (i64.lt_s (i64.reinterpret_f64 (local.get $x)) (i64.const 0))
      (then
        (i32.store8 (local.get $p) (i32.const 45))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))))
    (if (f64.eq (local.get $x) (f64.const 0))
      (then
        ;; "0.0"
        (i32.store8 (local.get $p) (i32.const 48))
        (i32.store8 offset=1 (local.get $p) (i32.const 46))
        (i32.store8 offset=2 (local.get $p) (i32.const 48))
        (local.set $p (i32.add (local.get $p) (i32.const 3))))
      (else
        (local.set $count
          (call $shortest (f64.abs (local.get $x)) (i32.add (local.get $buf) (i32.const 32))))
        ;; The exponent of the first digit.
        (local.set $k
          (i32.sub (i32.load offset=52 (local.get $buf)) (i32.const 1)))
        (if (i32.or (i32.lt_s (local.get $k) (i32.const -4)) (i32.ge_s (local.get $k) (i32.const 16)))
          (then
            ;; D.DDDe+XX
            (i32.store8 (local.get $p) (i32.load8_u offset=32 (local.get $buf)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (if (i32.gt_s (local.get $count) (i32.const 1))
              (then
                (i32.store8 (local.get $p) (i32.const 46))
                (memory.copy
                  (i32.add (local.get $p) (i32.const 1))
                  (i32.add (local.get $buf) (i32.const 33))
                  (i32.sub (local.get $count) (i32.const 1)))
                (local.set $p (i32.add (local.get $p) (local.get $count)))))
            (i32.store8 (local.get $p) (i32.const 101))
            (i32.store8 offset=1 (local.get $p)
              (select (i32.const 45) (i32.const 43) (i32.lt_s (local.get $k) (i32.const 0))))
            (local.set $exp
              (select (i32.sub (i32.const 0) (local.get $k)) (local.get $k) (i32.lt_s (local.get $k) (i32.const 0))))
            (local.set $p (i32.add (local.get $p) (i32.const 2)))
            (if (i32.ge_s (local.get $exp) (i32.const 100))
              (then
                (i32.store8 (local.get $p) (i32.add (i32.const 48) (i32.div_u (local.get $exp) (i32.const 100))))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))))
            (i32.store8 (local.get $p)
              (i32.add (i32.const 48) (i32.rem_u (i32.div_u (local.get $exp) (i32.const 10)) (i32.const 10))))
            (i32.store8 offset=1 (local.get $p)
              (i32.add (i32.const 48) (i32.rem_u (local.get $exp) (i32.const 10))))
            (local.set $p (i32.add (local.get $p) (i32.const 2))))
          (else
            (if (i32.lt_s (local.get $k) (i32.const 0))
              (then
                ;; 0.000DDD
                (i32.store8 (local.get $p) (i32.const 48))
                (i32.store8 offset=1 (local.get $p) (i32.const 46))
                (local.set $p (i32.add (local.get $p) (i32.const 2)))
                (local.set $i (i32.const -1))
                (block $done
                  (loop $next
                    (br_if $done (i32.le_s (local.get $i) (local.get $k)))
                    (i32.store8 (local.get $p) (i32.const 48))
                    (local.set $p (i32.add (local.get $p) (i32.const 1)))
                    (local.set $i (i32.sub (local.get $i) (i32.const 1)))
                    (br $next)))
                (memory.copy (local.get $p) (i32.add (local.get $buf) (i32.const 32)) (local.get $count))
                (local.set $p (i32.add (local.get $p) (local.get $count))))
              (else
                ;; DDD.DDD, DDD00.0
                (local.set $i (i32.const 0))
                (block $done
                  (loop $next
                    (br_if $done (i32.gt_s (local.get $i) (local.get $k)))
                    (i32.store8 (local.get $p)
                      (select
                        (i32.load8_u offset=32 (i32.add (local.get $buf) (local.get $i)))
                        (i32.const 48)
                        (i32.lt_s (local.get $i) (local.get $count))))
                    (local.set $p (i32.add (local.get $p) (i32.const 1)))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $next)))
                (i32.store8 (local.get $p) (i32.const 46))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (if (i32.gt_s (local.get $count) (i32.add (local.get $k) (i32.const 1)))
                  (then
                    (memory.copy
                      (local.get $p)
                      (i32.add (i32.add (local.get $buf) (i32.const 33)) (local.get $k))
                      (i32.sub (local.get $count) (i32.add (local.get $k) (i32.const 1))))
                    (local.set $p
                      (i32.add (local.get $p) (i32.sub (local.get $count) (i32.add (local.get $k) (i32.const 1))))))
                  (else
                    (i32.store8 (local.get $p) (i32.const 48))
                    (local.set $p (i32.add (local.get $p) (i32.const 1)))))))))))
    (local.set $count (i32.sub (local.get $p) (local.get $buf)))
    (local.set $s (call $str_new (local.get $count) (local.get $count)))
    (memory.copy (call $str_data (local.get $s)) (local.get $buf) (local.get $count))
    (call $free (local.get $buf))
    (local.get $s))
;; ---- parse ---------------------------------------------------------------

  ;; p += v, v below 2^32.
  (func $bn_add_small (param $p i32) (param $n i32) (param $v i64)
    (local $i i32) (local $at i32)
    (block $done
      (loop $next
        (br_if $done (i32.or (i64.eqz (local.get $v)) (i32.ge_u (local.get $i) (local.get $n))))
        (local.set $at (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $v (i64.add (i64.load32_u (local.get $at)) (local.get $v)))
        (i32.store (local.get $at) (i32.wrap_i64 (local.get $v)))
        (local.set $v (i64.shr_u (local.get $v) (i64.const 32)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; The double nearest DIGITS * 10^e (to even on a tie), for the `count`
  ;; ASCII digits at `digits` (at most 801, the first not 0); infinity when
  ;; it is past the largest double.
  (func $decimal (param $digits i32) (param $count i32) (param $e i32) (result f64)
    (local $nn i32) (local $mm i32) (local $tt i32) (local $i i32) (local $chunk i64) (local $pow i64)
    (local $b i32) (local $q i64) (local $bit i32) (local $sticky i32) (local $m i64) (local $x i32)
    (if (i32.eqz (local.get $count)) (then (return (f64.const 0))))
    ;; At least 10^310, or below 10^-330 (under half the least subnormal).
    (if (i32.gt_s (i32.add (local.get $e) (local.get $count)) (i32.const 310))
      (then (return (f64.const inf))))
    (if (i32.lt_s (i32.add (local.get $e) (local.get $count)) (i32.const -330))
      (then (return (f64.const 0))))
    ;; N, M and T, 128 limbs each: 4096 bits hold 10^1131 shifted by 57.
    (local.set $nn (call $alloc (i32.const 1536)))
    (local.set $mm (i32.add (local.get $nn) (i32.const 512)))
    (local.set $tt (i32.add (local.get $nn) (i32.const 1024)))
    (call $bn_set (local.get $nn) (i32.const 128) (i64.const 0))
    (call $bn_set (local.get $mm) (i32.const 128) (i64.const 1))
    ;; N = DIGITS, nine at a time.
    (local.set $pow (i64.const 1))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $chunk
          (i64.add (i64.mul (local.get $chunk) (i64.const 10))
            (i64.extend_i32_u
              (i32.sub (i32.load8_u (i32.add (local.get $digits) (local.get $i))) (i32.const 48)))))
        (local.set $pow (i64.mul (local.get $pow) (i64.const 10)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.or (i64.eq (local.get $pow) (i64.const 1000000000)) (i32.eq (local.get $i) (local.get $count)))
          (then
            (call $bn_mul_small (local.get $nn) (i32.const 128) (local.get $pow))
            (call $bn_add_small (local.get $nn) (i32.const 128) (local.get $chunk))
            (local.set $chunk (i64.const 0))
            (local.set $pow (i64.const 1))))
        (br $next)))
    (if (i32.ge_s (local.get $e) (i32.const 0))
      (then (call $bn_mul_pow10 (local.get $nn) (i32.const 128) (local.get $e)))
      (else (call $bn_mul_pow10 (local.get $mm) (i32.const 128) (i32.sub (i32.const 0) (local.get $e)))))
    ;; N / (M * 2^b) in [2^53, 2^55), or b = -1075 for the subnormals.
    (local.set $b
      (i32.sub
        (i32.sub (call $bn_bits (local.get $nn) (i32.const 128)) (call $bn_bits (local.get $mm) (i32.const 128)))
        (i32.const 54)))
    (if (i32.lt_s (local.get $b) (i32.const -1075)) (then (local.set $b (i32.const -1075))))
    (if (i32.ge_s (local.get $b) (i32.const 0))
      (then (call $bn_shl (local.get $mm) (i32.const 128) (local.get $b)))
      (else (call $bn_shl (local.get $nn) (i32.const 128) (i32.sub (i32.const 0) (local.get $b)))))
    ;; q = N / M bit by bit, below 2^57.
    (call $bn_copy (local.get $tt) (local.get $mm) (i32.const 128))
    (call $bn_shl (local.get $tt) (i32.const 128) (i32.const 56))
    (local.set $bit (i32.const 56))
    (block $done
      (loop $next
        (if (i32.ge_s (call $bn_cmp (local.get $nn) (local.get $tt) (i32.const 128)) (i32.const 0))
          (then
            (call $bn_sub (local.get $nn) (local.get $tt) (i32.const 128))
            (local.set $q (i64.or (local.get $q) (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $bit)))))))
        (br_if $done (i32.eqz (local.get $bit)))
        (call $bn_shr1 (local.get $tt) (i32.const 128))
        (local.set $bit (i32.sub (local.get $bit) (i32.const 1)))
        (br $next)))
    (local.set $sticky (i32.eqz (call $bn_is_zero (local.get $nn) (i32.const 128))))
    (call $free (local.get $nn))
    (block $done
      (loop $next
        (br_if $done (i64.lt_u (local.get $q) (i64.const 0x40000000000000)))
        (local.set $sticky (i32.or (local.get $sticky) (i32.wrap_i64 (i64.and (local.get $q) (i64.const 1)))))
        (local.set $q (i64.shr_u (local.get $q) (i64.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $next)))
    ;; The 53 bits above the last, rounded by it and the sticky rest.
    (local.set $m (i64.shr_u (local.get $q) (i64.const 1)))
    (if (i32.and (i32.wrap_i64 (i64.and (local.get $q) (i64.const 1)))
          (i32.or (local.get $sticky) (i32.wrap_i64 (i64.and (local.get $m) (i64.const 1)))))
      (then (local.set $m (i64.add (local.get $m) (i64.const 1)))))
    (local.set $x (i32.add (local.get $b) (i32.const 1)))
    (if (i64.eq (local.get $m) (i64.const 0x20000000000000))
      (then
        (local.set $m (i64.shr_u (local.get $m) (i64.const 1)))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))))
    ;; A subnormal (or the least normal) has x = -1074, and is its bits.
    (if (i64.lt_u (local.get $m) (i64.const 0x10000000000000))
      (then (return (f64.reinterpret_i64 (local.get $m)))))
    (if (i32.ge_s (i32.add (local.get $x) (i32.const 1075)) (i32.const 2047))
      (then (return (f64.const inf))))
    (f64.reinterpret_i64
      (i64.or
        (i64.shl (i64.extend_i32_u (i32.add (local.get $x) (i32.const 1075))) (i64.const 52))
        (i64.and (local.get $m) (i64.const 0xFFFFFFFFFFFFF)))))

  (func $is_digit (param $c i32) (result i32)
    (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10)))

  ;; The double `s` spells as PARSE_FLOAT reads it (spec/stdlib.md): blanks
  ;; (space, \t, \n, \v, \f, \r) around, a sign, digits with single
  ;; underscores between them, an optional fraction (`5.`, `.5`) and
  ;; exponent; NaN for any other text, an infinity past the float range.
  (func (export "isu_rt__parse_float") (param $s i32) (result f64)
    (local $p i32) (local $n i32) (local $i i32) (local $c i32) (local $neg i32)
    (local $buf i32) (local $count i32) (local $e10 i32) (local $sticky i32)
    (local $part i32) (local $any i32) (local $whole i32) (local $fraction i32)
    (local $exp i32) (local $eneg i32) (local $ok i32) (local $x f64)
    (local.set $p (call $str_data (local.get $s)))
    (local.set $n (call $str_bytes (local.get $s)))
    ;; The blanks around.
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $c (i32.load8_u (i32.add (local.get $p) (local.get $i))))
        (br_if $done
          (i32.and (i32.ne (local.get $c) (i32.const 32))
            (i32.gt_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 4))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (block $done
      (loop $next
        (br_if $done (i32.le_u (local.get $n) (local.get $i)))
        (local.set $c (i32.load8_u (i32.add (local.get $p) (i32.sub (local.get $n) (i32.const 1)))))
        (br_if $done
          (i32.and (i32.ne (local.get $c) (i32.const 32))
            (i32.gt_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 4))))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $next)))
    (local.set $buf (call $alloc (i32.const 808)))
    (if (i32.lt_u (local.get $i) (local.get $n))
      (then
        (local.set $c (i32.load8_u (i32.add (local.get $p) (local.get $i))))
        (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
          (then
            (local.set $neg (i32.eq (local.get $c) (i32.const 45)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))))))
    ;; The whole part (part 0), then the fraction (part 1): at most 800
    ;; significant digits kept, a sticky 1 for any other that is not 0.
    (block $parts
      (loop $part_loop
        (local.set $any (i32.const 0))
        (block $done
          (loop $next
            (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
            (local.set $c (i32.load8_u (i32.add (local.get $p) (local.get $i))))
            (if (i32.eq (local.get $c) (i32.const 95))
              (then
                ;; An underscore between two digits.
                (br_if $done (i32.eqz (local.get $any)))
                (br_if $done (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $n)))
                (br_if $done
                  (i32.eqz
                    (call $is_digit (i32.load8_u offset=1 (i32.add (local.get $p) (local.get $i))))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $next)))
            (br_if $done (i32.eqz (call $is_digit (local.get $c))))
            (local.set $any (i32.const 1))
            (if (i32.and (i32.eqz (local.get $count)) (i32.eq (local.get $c) (i32.const 48)))
              (then
                (if (local.get $part) (then (local.set $e10 (i32.sub (local.get $e10) (i32.const 1))))))
              (else
                (if (i32.lt_u (local.get $count) (i32.const 800))
                  (then
                    (i32.store8 (i32.add (local.get $buf) (local.get $count)) (local.get $c))
                    (local.set $count (i32.add (local.get $count) (i32.const 1)))
                    (if (local.get $part) (then (local.set $e10 (i32.sub (local.get $e10) (i32.const 1))))))
                  (else
                    (if (i32.eqz (local.get $part)) (then (local.set $e10 (i32.add (local.get $e10) (i32.const 1)))))
                    (if (i32.ne (local.get $c) (i32.const 48)) (then (local.set $sticky (i32.const 1))))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $next)))
        (if (local.get $part)
          (then (local.set $fraction (local.get $any)) (br $parts)))
        (local.set $whole (local.get $any))
        (br_if $parts (i32.ge_u (local.get $i) (local.get $n)))
        (br_if $parts (i32.ne (i32.load8_u (i32.add (local.get $p) (local.get $i))) (i32.const 46)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $part (i32.const 1))
        (br $part_loop)))
    (local.set $ok (i32.or (local.get $whole) (local.get $fraction)))
    ;; The exponent, saturated far past the float range.
    (if (i32.and (local.get $ok) (i32.lt_u (local.get $i) (local.get $n)))
      (then
        (local.set $c (i32.or (i32.load8_u (i32.add (local.get $p) (local.get $i))) (i32.const 32)))
        (if (i32.eq (local.get $c) (i32.const 101))
          (then
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (if (i32.lt_u (local.get $i) (local.get $n))
              (then
                (local.set $c (i32.load8_u (i32.add (local.get $p) (local.get $i))))
                (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
                  (then
                    (local.set $eneg (i32.eq (local.get $c) (i32.const 45)))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))))))
            (local.set $any (i32.const 0))
            (block $done
              (loop $next
                (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
                (local.set $c (i32.load8_u (i32.add (local.get $p) (local.get $i))))
                (if (i32.eq (local.get $c) (i32.const 95))
                  (then
                    (br_if $done (i32.eqz (local.get $any)))
                    (br_if $done (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $n)))
                    (br_if $done
                      (i32.eqz
                        (call $is_digit (i32.load8_u offset=1 (i32.add (local.get $p) (local.get $i))))))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $next)))
                (br_if $done (i32.eqz (call $is_digit (local.get $c))))
                (local.set $any (i32.const 1))
                (if (i32.lt_s (local.get $exp) (i32.const 100000))
                  (then
                    (local.set $exp
                      (i32.add (i32.mul (local.get $exp) (i32.const 10)) (i32.sub (local.get $c) (i32.const 48))))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $next)))
            (local.set $ok (local.get $any))))))
    (if (i32.or (i32.eqz (local.get $ok)) (i32.ne (local.get $i) (local.get $n)))
      (then
        (call $free (local.get $buf))
        (return (f64.const nan))))
    (if (local.get $sticky)
      (then
        (i32.store8 (i32.add (local.get $buf) (local.get $count)) (i32.const 49))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))
        (local.set $e10 (i32.sub (local.get $e10) (i32.const 1)))))
    (if (local.get $eneg) (then (local.set $exp (i32.sub (i32.const 0) (local.get $exp)))))
    (local.set $x (call $decimal (local.get $buf) (local.get $count) (i32.add (local.get $e10) (local.get $exp))))
    (call $free (local.get $buf))
    (select (f64.neg (local.get $x)) (local.get $x) (local.get $neg)))
)

