def math__GCD(a, b):
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    if a > 9223372036854775807:
        raise OverflowError("int_overflow", "math.GCD: the divisor, 2^63, is outside the 64-bit int range")
    return a
