def math__LCM(a, b):
    if a == 0 or b == 0:
        return 0
    a, b = abs(a), abs(b)
    g, r = a, b
    while r:
        g, r = r, g % r
    m = a // g * b
    if m > 9223372036854775807:
        raise OverflowError("int_overflow", "math.LCM: the multiple is outside the 64-bit int range")
    return m
