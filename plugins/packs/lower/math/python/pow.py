def math__POW(b, e):
    if e < 0:
        raise ValueError("out_of_domain", f"math.POW: the exponent {e} is negative")
    if b in (0, 1) or e == 0:
        return 1 if e == 0 else b
    if b == -1:
        return -1 if e % 2 else 1
    if e > 63:
        raise OverflowError("int_overflow", "math.POW: the power is outside the 64-bit int range")
    p = b**e
    if not -9223372036854775808 <= p <= 9223372036854775807:
        raise OverflowError("int_overflow", "math.POW: the power is outside the 64-bit int range")
    return p
