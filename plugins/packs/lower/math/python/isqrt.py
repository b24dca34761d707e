def math__ISQRT(n):
    if n < 0:
        raise ValueError("out_of_domain", f"math.ISQRT: the square root of the negative {n}")
    import math

    return math.isqrt(n)
